// bench.test.mjs - the stream bench (bench/streams.sh) at a small scale: it runs against
// the build under test, every event arrives, and its broadcast figure is printed with the
// machine's load beside it, since a figure from a shared machine means nothing without it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CROWN } from './server.mjs';

test('the stream bench prints the load beside the broadcast figure', async () => {
  const { stdout } = await promisify(execFile)('bench/streams.sh', ['30', '2'], {
    env: { ...process.env, CROWN: resolve(CROWN) }, timeout: 60000,
  });
  assert.match(stdout, /events: 60; missing: 0/);
  assert.match(stdout, /^broadcast ms: p50 [\d.]+ p99 [\d.]+ max [\d.]+ mean [\d.]+ at load [\d.]+ on \d+ cores$/m);
});
