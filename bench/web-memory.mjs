// web-memory.mjs - the memory an idle game costs `crown serve`, before and after it
// leaves memory (--idle): starts a server, measures its resident size, creates N games
// of King's Valley (and of King Down) with a few moves each and measures again while
// they are all in memory; then lets them go idle until every one has been evicted, and
// measures a third time. The database is on /dev/shm, so that commits are quick.
//   node bench/web-memory.mjs [N]        (CROWN_BIN, default build/release/crown)
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { api, startServer } from '../tests/web/server.mjs';

const N = Number(process.argv[2] || 1000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssKiB = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]);

async function measure(game, moves) {
  const dir = mkdtempSync('/dev/shm/crown-memory-');
  // Idle time: longer than the creating takes, so that all are in memory at the second
  // measure; a rough guess from a first game, generous.
  const srv = await startServer({ db: join(dir, 'crown.db'), args: ['--idle', String(Math.max(20, Math.ceil(N / 5)))] });
  const pid = srv.proc.pid;
  await sleep(300);
  const base = rssKiB(pid);
  const t0 = Date.now();
  for (let i = 0; i < N; i++) {
    const made = (await api(srv, 'POST', '/api/games', { body: { game, seats: ['human', 'human'], seed: i } })).body;
    for (let k = 0; k < moves; k++) {
      const st = (await api(srv, 'GET', `/api/games/${made.id}`)).body;
      const token = made.seats[st.to_move].token;
      await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: st.legal[0].text } });
    }
  }
  const loaded = rssKiB(pid);
  const inMemory = (await api(srv, 'GET', '/api/stats')).body.games_in_memory;
  for (;;) {
    await sleep(1000);
    if ((await api(srv, 'GET', '/api/stats')).body.games_in_memory === 0) break;
  }
  await sleep(500);
  const evicted = rssKiB(pid);
  await srv.stop();
  rmSync(dir, { recursive: true, force: true });
  const per = (kib, n = N) => Math.round(((kib - base) * 1024) / n);
  console.log(`${game}: ${N} games of ${moves} moves in ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
    `resident ${base} KiB at start, ${loaded} KiB with ${inMemory} in memory (${per(loaded, inMemory)} B a game), ` +
    `${evicted} KiB once evicted (${per(evicted)} B a game)`);
}

await measure('kings-valley', 4);
await measure('king-down', 4);
