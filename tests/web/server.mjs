// server.mjs - starts and stops `crown serve` for the web tests: on a free loopback
// port (--port 0; the port is read from the address line it prints), with its own
// database in a fresh temporary folder unless one is given, and small helpers for the
// JSON API and its event streams. CROWN_BIN names the program (tools/run-web-tests.sh
// sets it to the build under test).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CROWN = process.env.CROWN_BIN || 'build/release/crown';

// Servers still running when the test process ends (a failed test skipped its clean-up)
// are killed with it rather than left behind.
// Temporary folders go with the test process too, on every path, so a run leaves none
// (make test checks its TMPDIR is empty at the end).
const running = new Set();
const tempDirs = [];
process.on('exit', () => {
  for (const p of running) p.kill('SIGKILL');
  for (const d of tempDirs) {
    try { rmSync(d, { recursive: true, force: true, maxRetries: 5 }); } catch { /* best effort at exit */ }
  }
});

export function tempDir(prefix = 'crown-web-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

// Starts a server; resolves to { url, port, proc, db, stdout(), stop(), kill() } once it
// listens. `quiet: false` lets it print its start-up lines (stdout() has them).
export async function startServer({ db, args = [], timeoutMs = 20000, quiet = true } = {}) {
  const dbPath = db || join(tempDir(), 'crown.db');
  // Tests send writes faster than people do: lift the per-address rate limit unless the
  // test sets its own.
  // The same for the other per-address limits: the tests of a limit set it themselves.
  // A test of --limits (who gets a player at home's limits) gets the defaults of those.
  const games = [['--creates-per-hour', '100000'], ['--ai-games', '10000'], ['--aiai-games', '10000']];
  const lifted = [['--rate', '10000'], ...(args.includes('--limits') ? [] : games), ['--streams-per-ip', '10000']];
  const rate = lifted.filter(([flag]) => !args.includes(flag)).flat();
  const proc = spawn(CROWN, ['serve', '--port', '0', '--db', dbPath, ...(quiet ? ['--quiet'] : []), ...rate, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`crown serve did not start: ${out}${err}`)), timeoutMs);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\//);
      if (m) { clearTimeout(timer); resolve(`http://127.0.0.1:${m[1]}`); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); running.delete(proc); reject(new Error(`crown serve exited (${code}): ${out}${err}`)); });
  });
  running.add(proc);
  const exited = new Promise((resolve) => proc.on('exit', (code, signal) => { running.delete(proc); resolve({ code, signal }); }));
  const server = {
    url, proc, db: dbPath, exited,
    stderr: () => err,
    stdout: () => out,
    // SIGTERM: the orderly stop; resolves to the exit code.
    async stop() { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM'); return exited; },
    // SIGKILL: a crash, for the recovery test.
    async kill() { proc.kill('SIGKILL'); return exited; },
  };
  return server;
}

// A JSON API call: resolves to { status, body (parsed JSON or text), headers }.
export async function api(server, method, path, { body, token, raw, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  let payload;
  // Bodies are sent as JSON (the server refuses other types with 415) unless the test
  // says otherwise in headers.
  if (raw !== undefined) payload = raw;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined && !Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
  const res = await fetch(server.url + path, { method, headers: h, body: payload });
  const text = await res.text();
  let parsed = text;
  if ((res.headers.get('content-type') || '').startsWith('application/json')) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, headers: res.headers };
}

// Polls GET /api/games/ID until pred(state) holds; bounded by timeoutMs.
export async function waitState(server, id, pred, { token, timeoutMs = 30000 } = {}) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = (await api(server, 'GET', `/api/games/${id}`, { token })).body;
    if (pred(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for game ${id}; last state: ${JSON.stringify(last).slice(0, 400)}`);
}

// Opens the event stream of a game (or another's at `path`, with `headers` such as
// Last-Event-ID); next(pred) resolves to the first event's data for which pred holds,
// close() ends the stream. Every event received is also pushed onto `seen` when given.
export function events(server, id, token, seen, { path, headers } = {}) {
  const ctl = new AbortController();
  const q = token ? `?token=${token}` : '';
  const url = server.url + (path || `/api/games/${id}/events${q}`);
  const queue = [];
  const waiters = [];
  let failed = null;
  const done = (async () => {
    try {
      const res = await fetch(url, { signal: ctl.signal, headers });
      if (res.status !== 200) throw new Error(`event stream answered ${res.status}`);
      const dec = new TextDecoder();
      let buf = '';
      for await (const chunk of res.body) {
        buf += dec.decode(chunk, { stream: true });
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = frame.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (!data) continue;
          const state = JSON.parse(data);
          queue.push(state);
          if (seen) seen.push(state);
          for (const w of [...waiters]) w();
        }
      }
    } catch (e) {
      if (e.name !== 'AbortError') failed = e;
    }
    for (const w of [...waiters]) w();
  })();
  return {
    async next(pred = () => true, timeoutMs = 30000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const k = queue.findIndex(pred);
        if (k >= 0) { const s = queue[k]; queue.splice(0, k + 1); return s; }
        if (failed) throw failed;
        const left = end - Date.now();
        if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms`);
        await new Promise((r) => { const t = setTimeout(r, left); waiters.push(() => { clearTimeout(t); r(); }); });
        waiters.length = 0;
      }
    },
    async close() { ctl.abort(); await done; },
  };
}

// A request through node:http, which lets a test choose what fetch does not: the local
// address it comes from (any of 127.0.0.0/8, to act as another client address) and
// headers such as Host. Resolves like api().
export function request(server, method, path, { body, token, headers = {}, from } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  if (payload !== undefined && !Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['content-type'] = 'application/json';
  const u = new URL(server.url + path);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: h, localAddress: from, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('error', reject); // the connection closed before the answer's end
      res.on('end', () => {
        let parsed = text;
        if ((res.headers['content-type'] || '').startsWith('application/json')) parsed = JSON.parse(text);
        resolve({ status: res.statusCode, body: parsed, headers: res.headers });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

// Opens an event stream from address `from` (with `headers`, such as X-Forwarded-For) and resolves to { status, body, close() }
// once the answer's head (and, for a refusal, its body) has come.
export function openStream(server, id, { from, headers } = {}) {
  const u = new URL(`${server.url}/api/games/${id}/events`);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, localAddress: from, headers, agent: false }, (res) => {
      if (res.statusCode === 200) {
        let got = '';
        const chunks = []; // { at: ms, text }: when each piece came, for tests of timing
        resolve({ status: 200, close: () => req.destroy(), received: () => got, chunks: () => chunks });
        res.setEncoding('utf8');
        res.on('data', (d) => { got += d; chunks.push({ at: Date.now(), text: d }); });
        res.on('error', () => {});
        return;
      }
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text), close: () => {} }));
    });
    // A reset after the answer is the close above; before one, the server closed the
    // connection unanswered, which is status 0 rather than a wait for ever.
    req.on('error', (e) => {
      if (e.code !== 'ECONNRESET') reject(e);
      else resolve({ status: 0, body: { error: 'the connection was closed unanswered' }, close: () => {} });
    });
    req.end();
  });
}

// Stops srv with SIGTERM and checks that it exited cleanly, within ms, without a
// sanitizer's report.
export async function stopsWithin(srv, ms) {
  const t0 = Date.now();
  const { code } = await srv.stop();
  const took = Date.now() - t0;
  assert.equal(code, 0, srv.stderr());
  assert.ok(took < ms, `the server took ${took} ms to stop`);
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
}

// Runs fn(server) on a server started with args, then stops it and checks that it stopped
// cleanly, without a sanitizer's report.
export async function withServer(args, fn) {
  const srv = await startServer({ args });
  try {
    await fn(srv);
  } finally {
    const { code } = await srv.stop();
    assert.equal(code, 0, `crown serve should stop cleanly:\n${srv.stderr()}`);
    assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
  }
}
