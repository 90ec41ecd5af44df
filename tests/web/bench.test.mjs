// bench.test.mjs - the stream bench (bench/streams.sh) at a small scale: it runs against
// the build under test, every event arrives, and its broadcast figure is printed with the
// machine's load beside it, since a figure from a shared machine means nothing without it;
// the load it adds itself (--load) ends with it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { CROWN } from './server.mjs';

test('the stream bench prints the load beside the broadcast figure', async () => {
  // --load 1: one busy process for the run, so that a figure "at load 4" can be repeated;
  // it must be gone when the bench is.
  const { stdout } = await promisify(execFile)('bench/streams.sh', ['--load', '1', '30', '2'], {
    env: { ...process.env, CROWN: resolve(CROWN) }, timeout: 60000,
  });
  assert.match(stdout, /events: 60; missing: 0/);
  assert.match(stdout, /^broadcast ms: p50 [\d.]+ p99 [\d.]+ max [\d.]+ mean [\d.]+ at load [\d.]+ on \d+ cores \(other runnable threads before the moves: mean [\d.]+, median \d+\)$/m);
  assert.match(stdout, /^server CPU: \d+ ms a move \(2 moves\)$/m);
  const pids = stdout.match(/^busy processes: 1, pids ([\d ]+) \(ended with the run\)$/m);
  assert.ok(pids, stdout);
  for (const pid of pids[1].trim().split(' ')) assert.ok(!existsSync(`/proc/${pid}`), `busy process ${pid} outlived the bench`);
});
