// cluster.mjs - a throw-away PostgreSQL server and an HAProxy for the multi-process tests
// and benchmarks: Debian's postgresql (initdb, pg_ctl) in a fresh temporary folder with
// its own port on 127.0.0.1 and its socket in that folder, run as `nobody` when we are
// root (PostgreSQL refuses root); haproxy in the foreground, round robin over the given
// `crown serve` processes, naming the one that answered in an X-Served-By header.
// Everything started is stopped and the folder removed by stop(), and also when the
// process exits early (a failed test, Ctrl-C).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const cleanups = new Set();
function onExit() { for (const f of [...cleanups]) { try { f(); } catch { /* best effort */ } } }
process.on('exit', onExit);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { onExit(); process.exit(130); });

// A port free on 127.0.0.1 right now.
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// The newest PostgreSQL of Debian's postgresql packages, or null.
function pgBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const v = readdirSync(root).filter((d) => existsSync(join(root, d, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return v ? join(root, v, 'bin') : null;
}

// Whether a user other than the owner may pass through every folder of `path`.
function othersMayEnter(path) {
  for (let p = resolve(path); ; p = dirname(p)) {
    if ((statSync(p).mode & 0o001) === 0) return false;
    if (p === dirname(p)) return true;
  }
}

// Starts PostgreSQL; resolves to { url, dir, stop() }. Throws with the reason when it
// cannot (not installed: tools/install-deps.sh test installs it).
export async function startPostgres() {
  const bin = pgBin();
  if (!bin) throw new Error('PostgreSQL is not installed (tools/install-deps.sh test installs it)');
  const root = process.getuid && process.getuid() === 0;
  // As root, the server runs as nobody, who must reach the folder: TMPDIR when nobody
  // may pass through it (make test's own folder is 711), /tmp otherwise.
  const dir = mkdtempSync(join(root && !othersMayEnter(tmpdir()) ? '/tmp' : tmpdir(), 'crown-pg-'));
  const as = (cmd, args) => (root ? ['runuser', ['-u', 'nobody', '--', cmd, ...args]] : [cmd, args]);
  if (root) { chownSync(dir, 65534, 65534); chmodSync(dir, 0o700); }
  const data = join(dir, 'data');
  const port = await freePort();
  let started = false;
  const stop = () => {
    cleanups.delete(stop);
    if (started) {
      try { execFileSync(...as(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' }); } catch { /* already down */ }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  cleanups.add(stop);
  try {
    execFileSync(...as(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'crown', '-E', 'UTF8', '--no-sync']), { stdio: 'pipe' });
    started = true;
    // fsync stays on: the tests check that nothing acknowledged is lost.
    execFileSync(...as(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '30', '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`, 'start']), { stdio: 'pipe' });
  } catch (e) {
    stop();
    throw new Error(`PostgreSQL did not start: ${e.stderr || e.message}`);
  }
  return { url: `postgresql://crown@127.0.0.1:${port}/postgres`, dir, stop };
}

// Starts HAProxy in front of `backends` ([{ name, port }]); resolves to { url, stop() }.
// With forwardedFor, it appends the client's address to X-Forwarded-For (its health
// checks name the proxy itself), for servers started with --trusted-proxy 127.0.0.1.
export async function startProxy(backends, { forwardedFor = false } = {}) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'crown-haproxy-'));
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, `global
  maxconn 2000
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout tunnel 1h
  retries 3
  option redispatch 1
frontend web
  bind 127.0.0.1:${port}
  default_backend crown
backend crown
  balance roundrobin
${forwardedFor ? `  option forwardfor
  option httpchk
  http-check send meth GET uri /api/games hdr X-Forwarded-For 127.0.0.1` : '  option httpchk GET /api/games'}
  http-response set-header X-Served-By %[srv_name]
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 500ms fall 1 rise 2`).join('\n')}
`);
  const proc = spawn('/usr/sbin/haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => { err += d; });
  // A failed test must not wait for haproxy: the exit handler stops it.
  proc.unref();
  proc.stderr.unref();
  const stop = () => {
    cleanups.delete(stop);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  cleanups.add(stop);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) { stop(); throw new Error(`haproxy exited: ${err}`); }
    try { await fetch(`${url}/api/games`); break; } catch { /* not listening yet */ }
    if (i > 100) { stop(); throw new Error(`haproxy did not start: ${err}`); }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, stop };
}
