#!/usr/bin/env node
// web-pg.mjs - benchmark of crown serve's writes (not a test): moves acknowledged a
// second (each committed before its answer) with CLIENTS clients each playing games of
// two humans as fast as the answers come, through one process on SQLite, one process on
// PostgreSQL and two processes sharing PostgreSQL (clients split between them), plus the
// 99th percentile of a move's answer time. PostgreSQL is a throw-away server in a
// temporary folder (tests/web/cluster.mjs), fsync on; everything is stopped at the end.
//   bench/web-pg.mjs [SECONDS] [CLIENTS]      (default 10 s, 16 clients; release build)
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startPostgres } from '../tests/web/cluster.mjs';
import { api, startServer, tempDir } from '../tests/web/server.mjs';

const secs = Number(process.argv[2] || 10);
const clients = Number(process.argv[3] || 16);
const root = new URL('..', import.meta.url).pathname;
execFileSync('make', ['--no-print-directory', 'BUILD=release', 'build/release/crown'], { cwd: root, stdio: 'ignore' });
process.env.CROWN_BIN ||= join(root, 'build/release/crown');

// One client: a game after another, a move after another, until `end`.
async function client(server, end, lat) {
  let moves = 0;
  while (Date.now() < end) {
    const made = (await api(server, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'] } })).body;
    let st = made.state;
    while (Date.now() < end && st.status !== 'over' && st.legal.length > 0) {
      const t0 = process.hrtime.bigint();
      const r = await api(server, 'POST', `/api/games/${made.id}/moves`, {
        token: made.seats[st.to_move].token, body: { move: st.legal[0].text, ply: st.ply },
      });
      lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 200) throw new Error(`move answered ${r.status}: ${JSON.stringify(r.body)}`);
      st = r.body;
      moves++;
    }
  }
  return moves;
}

async function run(label, servers) {
  const end = Date.now() + secs * 1000;
  const lat = [];
  const counts = await Promise.all(Array.from({ length: clients }, (_, i) => client(servers[i % servers.length], end, lat)));
  const total = counts.reduce((a, b) => a + b, 0);
  lat.sort((a, b) => a - b);
  const p99 = lat.length ? lat[Math.floor(lat.length * 0.99)] : NaN;
  console.log(`${label}: ${(total / secs).toFixed(0)} moves/s (${total} in ${secs} s, ${clients} clients), p99 ${p99.toFixed(1)} ms`);
}

const sqlite = await startServer({ db: join(tempDir(), 'bench.db') });
await run('SQLite, one process         ', [sqlite]);
await sqlite.stop();
rmSync(dirname(sqlite.db), { recursive: true, force: true });

const pg = await startPostgres();
try {
  const one = await startServer({ db: pg.url });
  await run('PostgreSQL, one process     ', [one]);
  const two = await startServer({ db: pg.url });
  await run('PostgreSQL, two processes   ', [one, two]);
  await one.stop();
  await two.stop();
} finally {
  pg.stop();
}
