#!/usr/bin/env node
// web-pg-kills.mjs - soak of several crown serve processes on one PostgreSQL (not a
// test): 8 clients play games of two humans through two processes picked at random while
// one of the two is SIGKILLed and restarted every 0.3-1 s; at the end every game is read
// back and must hold every acknowledged move, plus at most the one in flight. Prints
// kills, games, acknowledged moves, refused or failed requests and games with a lost or
// extra move (must be 0). PostgreSQL is a throw-away server (tests/web/cluster.mjs).
//   CROWN_BIN=build/release/crown bench/web-pg-kills.mjs [KILLS]     (default 30)
import { startPostgres } from '../tests/web/cluster.mjs';
import { api, startServer } from '../tests/web/server.mjs';

const kills = Number(process.argv[2] || 30);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pg = await startPostgres();
const servers = [await startServer({ db: pg.url }), await startServer({ db: pg.url })];
const pick = () => servers[Math.random() < 0.5 ? 0 : 1];
const acked = new Map(); // game id -> the move texts of its last acknowledged state
let stop = false;
let moves = 0;
let failed = 0;

async function client() {
  while (!stop) {
    let made;
    try {
      made = (await api(pick(), 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'] } })).body;
    } catch { failed++; await sleep(20); continue; }
    acked.set(made.id, []);
    let st = made.state;
    while (!stop && st.status !== 'over') {
      try {
        const r = await api(pick(), 'POST', `/api/games/${made.id}/moves`, {
          token: made.seats[st.to_move].token, body: { move: st.legal[0].text, ply: st.ply },
        });
        if (r.status === 200) { st = r.body; acked.set(made.id, st.moves.map((m) => m.text)); moves++; continue; }
        failed++;
      } catch { failed++; await sleep(20); }
      // Refused or cut off: carry on from the game as it stands.
      try { st = (await api(pick(), 'GET', `/api/games/${made.id}`)).body; } catch { /* next round */ }
    }
  }
}

try {
  const clients = Array.from({ length: 8 }, client);
  for (let k = 0; k < kills; k++) {
    await sleep(300 + Math.random() * 700);
    const i = Math.random() < 0.5 ? 0 : 1;
    await servers[i].kill();
    servers[i] = await startServer({ db: pg.url });
  }
  stop = true;
  await Promise.all(clients);
  let bad = 0;
  for (const [id, want] of acked) {
    const got = (await api(servers[0], 'GET', `/api/games/${id}`)).body.moves.map((m) => m.text);
    if (JSON.stringify(got.slice(0, want.length)) !== JSON.stringify(want) || got.length > want.length + 1) bad++;
  }
  console.log(`${kills} SIGKILLs, ${acked.size} games, ${moves} acknowledged moves, ${failed} refused or failed requests, ${bad} games with a lost or extra move`);
  process.exitCode = bad ? 1 : 0;
} finally {
  for (const s of servers) await s.stop();
  pg.stop();
}
