// tournaments.test.mjs - tournaments in the JSON API (docs/API.md, "Tournaments"): a
// round-robin of four AI seats and a Swiss of five for three rounds played to their
// ends by the server's AI workers, with the standings and the pairings checked (no
// rematch, one bye a round, nobody two byes), the state kept across a restart, and an
// arena of four AI seats for ten seconds, re-paired as they finish, never against the
// opponent just played, scored with its streaks; refusals: a bad game or format, a
// stranger adding AI seats or starting it, a join after the start; the creator's cancel
// and the housekeeping's removal an hour on; the list's pages; the per-address creation
// limit, kept across a restart; a tournament's event stream (every change told, a
// game's result within a second, Last-Event-ID, the per-tournament limit); and a Swiss
// run by two servers sharing PostgreSQL, each round paired once, the creation limit
// counted by the database, and a stream on one server told of the other's changes.
// King's Valley at ai:1 keeps each game to a fraction of a second.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { startPostgres } from './cluster.mjs';
import { api, events, startServer } from './server.mjs';

let srv;

before(async () => {
  srv = await startServer();
});

after(async () => {
  if (srv) {
    const { code } = await srv.stop();
    assert.equal(code, 0, srv.stderr());
    assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
  }
});

async function create(body) {
  const r = await api(srv, 'POST', '/api/tournaments', { body: { starts_in: 3600, ...body } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

async function addAi(t, levels) {
  for (const l of levels) {
    const r = await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { token: t.token, body: { player: `ai:${l}` } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
}

async function waitEnd(id, timeoutMs = 60000) {
  const end = Date.now() + timeoutMs;
  let last;
  while (Date.now() < end) {
    last = (await api(srv, 'GET', `/api/tournaments/${id}`)).body;
    if (last.state === 'finished') return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`tournament did not finish: ${JSON.stringify(last).slice(0, 600)}`);
}

// Every game's points add up to the standings, and the places follow points then the
// tie-break.
function checkStandings(t, tiebreak) {
  const points = new Array(t.entrants.length).fill(0);
  for (const round of t.pairings) {
    for (const b of round) {
      assert.notEqual(b.result, null);
      points[b.white] += b.result;
      if (b.black !== null) points[b.black] += 1 - b.result;
    }
  }
  for (const s of t.standings) assert.equal(s.points, points[s.seed]);
  for (let i = 1; i < t.standings.length; i++) {
    const a = t.standings[i - 1], b = t.standings[i];
    assert.ok(a.points > b.points || (a.points === b.points && a[tiebreak] >= b[tiebreak]),
      `standings out of order: ${JSON.stringify(t.standings)}`);
  }
}

test('a round-robin of four AI seats plays to its end with a crosstable', async () => {
  const t = await create({ name: 'Valley cup', game: 'kings-valley', format: 'round-robin', max_players: 4 });
  await addAi(t, [1, 1, 1, 1]);
  // Full: a fifth is refused.
  const full = await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { token: t.token, body: { player: 'ai:1' } });
  assert.equal(full.status, 409);
  const stranger = await api(srv, 'POST', `/api/tournaments/${t.id}/start`, { body: {} });
  assert.equal(stranger.status, 403);
  const started = await api(srv, 'POST', `/api/tournaments/${t.id}/start`, { token: t.token, body: {} });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const late = await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { body: { name: 'Late' } });
  assert.equal(late.status, 409);
  const done = await waitEnd(t.id);
  assert.equal(done.rounds, 3);
  assert.equal(done.pairings.length, 3);
  const met = new Set();
  for (const round of done.pairings) {
    assert.equal(round.length, 2);
    for (const b of round) {
      assert.match(b.watch_url, /^\/g\/[0-9a-f]+$/);
      met.add([b.white, b.black].sort().join('-'));
    }
  }
  assert.equal(met.size, 6); // everyone met everyone once
  checkStandings(done, 'sonneborn_berger');
  assert.equal(done.standings.reduce((a, s) => a + s.points, 0), 6);
  // The crosstable says what the games said.
  for (const round of done.pairings) {
    for (const b of round) {
      assert.equal(done.crosstable[b.white][b.black], b.result);
      assert.equal(done.crosstable[b.black][b.white], 1 - b.result);
    }
  }
  const list = (await api(srv, 'GET', '/api/tournaments')).body.tournaments;
  assert.ok(list.some((x) => x.id === t.id && x.state === 'finished'));
});

test('a Swiss of five AI seats: three rounds, no rematch, a bye each round', async () => {
  const t = await create({ name: 'Swiss five', game: 'kings-valley', format: 'swiss', rounds: 3 });
  await addAi(t, [1, 1, 1, 1, 1]);
  // A person joins and leaves again before the start.
  const me = await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { body: { name: 'Ann' } });
  assert.equal(me.status, 200);
  assert.equal((await api(srv, 'GET', `/api/tournaments/${t.id}`, { token: me.body.token })).body.you.entry, me.body.entry);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/leave`, { token: me.body.token, body: {} })).status, 200);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/start`, { token: t.token, body: {} })).status, 200);
  const done = await waitEnd(t.id);
  assert.equal(done.pairings.length, 3);
  const met = new Set();
  const byes = new Set();
  for (const round of done.pairings) {
    assert.equal(round.length, 3);
    const last = round[round.length - 1];
    assert.equal(last.black, null); // the bye, listed last, scores a point
    assert.equal(last.result, 1);
    assert.ok(!byes.has(last.white), 'two byes for one player');
    byes.add(last.white);
    for (const b of round.slice(0, -1)) {
      const key = [b.white, b.black].sort().join('-');
      assert.ok(!met.has(key), `rematch ${key}`);
      met.add(key);
    }
  }
  checkStandings(done, 'buchholz');
  assert.equal(done.crosstable, undefined);
});

test('an arena of four AI seats pairs them again as they finish until its time is up', async () => {
  // Short games (a draw after 12 turns at the most) leave time for several waves even in
  // the sanitizer builds.
  const t = await create({ name: 'Arena', game: 'kings-valley', format: 'arena', duration: 10, rules: { 'max-plies': 12 } });
  assert.equal(t.duration, 10);
  await addAi(t, [1, 1, 1, 1]);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/start`, { token: t.token, body: {} })).status, 200);
  const done = await waitEnd(t.id);
  assert.ok(done.pairings.length >= 2, `only ${done.pairings.length} waves in ten seconds`);
  // Each player's games in the order paired: never the same opponent twice in a row,
  // and the score the streak rule gives (a win 2, a draw 1, doubled after two wins).
  const seq = done.entrants.map(() => []);
  for (const wave of done.pairings) {
    for (const b of wave) {
      assert.notEqual(b.black, null);
      seq[b.white].push([b.black, b.result]);
      seq[b.black].push([b.white, 1 - b.result]);
    }
  }
  for (const s of done.standings) {
    const games = seq[s.seed];
    let score = 0, row = 0;
    games.forEach(([opp, r], i) => {
      if (i > 0) assert.notEqual(opp, games[i - 1][0], 'a rematch at once');
      const base = r === 1 ? 2 : r === 0.5 ? 1 : 0;
      score += row >= 2 ? 2 * base : base;
      row = r === 1 ? row + 1 : 0;
    });
    assert.equal(s.score, score);
    assert.equal(s.games, games.length);
    assert.equal(s.on_fire, row >= 2);
  }
  for (let i = 1; i < done.standings.length; i++) {
    const a = done.standings[i - 1], b = done.standings[i];
    assert.ok(a.score > b.score || (a.score === b.score && a.performance >= b.performance));
  }
});

test('refusals and a tournament kept across a restart', async () => {
  const bad = [
    [{ name: 'x', game: 'no-such-game' }, /no game/],
    [{ name: 'x', game: 'kings-valley', format: 'knockout' }, /format/],
    [{ name: '', game: 'kings-valley' }, /name/],
    [{ name: 'x', game: 'kings-valley', format: 'swiss', rounds: 99 }, /rounds/],
    [{ name: 'x', game: 'kings-valley', max_players: 1 }, /max_players/],
    [{ name: 'x', game: 'kings-valley', format: 'arena', duration: 5 }, /duration/],
    [{ name: 'x', game: 'kings-valley', rules: { 'no-such-rule': 1 } }, /rule|option/],
  ];
  for (const [body, re] of bad) {
    const r = await api(srv, 'POST', '/api/tournaments', { body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, re);
  }
  const t = await create({ name: 'Kept', game: 'kings-valley', clock: { initial: 60, increment: 1 } });
  const stranger = await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { body: { player: 'ai:2' } });
  assert.equal(stranger.status, 403);
  const ann = await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { body: { name: 'Ann' } });
  assert.equal(ann.status, 200);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { token: ann.body.token, body: {} })).status, 409);
  await addAi(t, [1]);
  assert.equal((await api(srv, 'GET', '/api/tournaments/0123')).status, 404);
  const { code } = await srv.stop();
  assert.equal(code, 0, srv.stderr());
  srv = await startServer({ db: srv.db });
  // After the restart: the entrants are there, and the person sees his game's seat link.
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/start`, { token: t.token, body: {} })).status, 200);
  const view = (await api(srv, 'GET', `/api/tournaments/${t.id}`, { token: ann.body.token })).body;
  assert.equal(view.state, 'running');
  assert.deepEqual(view.entrants.map((e) => e.name), ['Ann', 'ai:1']);
  assert.equal(view.clock.initial, 60);
  assert.equal(view.you.games.length, 1);
  assert.match(view.you.games[0].url, /^\/g\/[0-9a-f]+#token=[0-9a-f]+$/);
  const game = (await api(srv, 'GET', `/api/games/${view.you.games[0].game}`)).body;
  assert.ok(game.clock);
});

test('the creator cancels before the start, the housekeeping removes it later, the list pages', async () => {
  const t = await create({ name: 'Called off', game: 'kings-valley' });
  const ann = (await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { body: { name: 'Ann' } })).body;
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/cancel`, { body: {} })).status, 403);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/cancel`, { token: ann.token, body: {} })).status, 403);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/cancel`, { token: t.token, body: {} })).status, 200);
  // Its entrant sees it cancelled; it takes nobody more, never starts, is cancelled once.
  const seen = (await api(srv, 'GET', `/api/tournaments/${t.id}`, { token: ann.token })).body;
  assert.equal(seen.state, 'cancelled');
  assert.ok(seen.starts <= Date.now() / 1000 + 1);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { body: { name: 'Bob' } })).status, 409);
  assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/start`, { token: t.token, body: {} })).status, 409);
  const again = await api(srv, 'POST', `/api/tournaments/${t.id}/cancel`, { token: t.token, body: {} });
  assert.equal(again.status, 409);
  assert.match(again.body.error, /no longer open/);
  // The list, a page at a time, is the whole list in the same order.
  for (const name of ['Page one', 'Page two']) await create({ name, game: 'kings-valley' });
  const whole = (await api(srv, 'GET', '/api/tournaments')).body;
  assert.equal(whole.next, null);
  assert.ok(whole.tournaments.length >= 3);
  const paged = [];
  for (let offset = 0; offset !== null;) {
    const page = (await api(srv, 'GET', `/api/tournaments?limit=2&offset=${offset}`)).body;
    assert.ok(page.tournaments.length <= 2);
    paged.push(...page.tournaments.map((x) => x.id));
    offset = page.next;
  }
  assert.deepEqual(paged, whole.tournaments.map((x) => x.id));
  for (const q of ['limit=0', 'limit=51', 'offset=-1', 'limit=x']) {
    assert.equal((await api(srv, 'GET', `/api/tournaments?${q}`)).status, 400, q);
  }
  // An hour after it was cancelled the housekeeping deletes it, with its entrants. (The
  // server holds its database alone: stopped, the hour passed in the store, started.)
  assert.equal((await srv.stop()).code, 0, srv.stderr());
  execFileSync('sqlite3', [srv.db, `UPDATE tournaments SET starts = starts - 3601 WHERE id = '${t.id}'`]);
  srv = await startServer({ db: srv.db });
  assert.equal((await api(srv, 'GET', `/api/tournaments/${t.id}`)).status, 200);
  const end = Date.now() + 15000;
  while ((await api(srv, 'GET', `/api/tournaments/${t.id}`)).status !== 404) {
    assert.ok(Date.now() < end, 'the cancelled tournament was not removed');
    await new Promise((r) => setTimeout(r, 200));
  }
});

test('the event stream tells of every change, a result within a second, and resumes', async () => {
  const t = await create({ name: 'Live', game: 'kings-valley' });
  const path = `/api/tournaments/${t.id}/events`;
  const seen = [];
  const stream = events(srv, null, null, seen, { path });
  const get = async (token) => (await api(srv, 'GET', `/api/tournaments/${t.id}`, { token })).body;
  try {
    // The version at once, then one event a change.
    assert.equal((await stream.next()).version, t.version);
    const ann = (await api(srv, 'POST', `/api/tournaments/${t.id}/join`, { body: { name: 'Ann' } })).body;
    let v = (await stream.next()).version;
    assert.equal(v, (await get()).version);
    await addAi(t, [1]);
    assert.ok((v = (await stream.next((x) => x.version > v)).version) > t.version);
    assert.equal((await api(srv, 'POST', `/api/tournaments/${t.id}/start`, { token: t.token, body: {} })).status, 200);
    // Ann plays the AI; her resignation ends the game, and the stream says so within a
    // second (the page reads the tournament then, and sees the result).
    const view = await get(ann.token);
    assert.equal(view.state, 'running');
    await stream.next((x) => x.version >= view.version);
    const seat = view.you.games[0];
    const token = seat.url.split('#token=')[1];
    const resigned = Date.now();
    assert.equal((await api(srv, 'POST', `/api/games/${seat.game}/resign`, { token, body: {} })).status, 200);
    await stream.next((x) => x.version > view.version, 5000);
    const after = Date.now() - resigned;
    assert.ok(after < 1000, `the result was told ${after} ms after the game's end`);
    const done = await waitEnd(t.id);
    assert.equal(done.pairings[0][0].result, seat.seat === 0 ? 0 : 1);
    const end = Date.now() + 5000;
    while (seen.at(-1).version !== done.version && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assert.equal(seen.at(-1).version, done.version);
    // A browser that reconnects with the last version it saw gets nothing until the next
    // change; one that saw an older version gets the current one at once.
    const resumed = events(srv, null, null, null, { path, headers: { 'last-event-id': String(done.version) } });
    const behind = events(srv, null, null, null, { path, headers: { 'last-event-id': String(done.version - 1) } });
    try {
      assert.equal((await behind.next()).version, done.version);
      await assert.rejects(resumed.next(() => true, 500), /no matching event/);
    } finally {
      await resumed.close();
      await behind.close();
    }
  } finally {
    await stream.close();
  }
  assert.equal((await api(srv, 'GET', '/api/tournaments/0123456789abcdef01234567/events')).status, 404);
});

// The 429 of the creation limit, the same on both stores: the limit and when to retry.
function checkLimited(r) {
  assert.equal(r.status, 429, JSON.stringify(r.body));
  assert.match(r.body.error, /^too many tournaments created from your address: at most 1 an hour; try again in (\d+) s$/);
  const retry = Number(r.body.error.match(/in (\d+) s/)[1]);
  assert.ok(retry > 3500 && retry <= 3600, r.body.error);
  assert.equal(r.headers.get('retry-after'), String(retry));
}

test('an address creates a tenth of --creates-per-hour tournaments an hour, restarts or not; streams a tournament may have', async () => {
  let one = await startServer({ args: ['--creates-per-hour', '10', '--streams-per-game', '1'] });
  try {
    const body = { name: 'First', game: 'kings-valley' };
    const made = await api(one, 'POST', '/api/tournaments', { body });
    assert.equal(made.status, 201);
    checkLimited(await api(one, 'POST', '/api/tournaments', { body }));
    // A tournament's streams count as a game's: the second is refused, 429 with a wait.
    const path = `/api/tournaments/${made.body.id}/events`;
    const first = events(one, null, null, null, { path });
    try {
      await first.next();
      const second = await api(one, 'GET', path);
      assert.equal(second.status, 429);
      assert.match(second.body.error, /this tournament has 1 event streams open/);
      assert.ok(Number(second.headers.get('retry-after')) > 0);
    } finally {
      await first.close();
    }
    // The store keeps the count: a restart does not forget it.
    assert.equal((await one.stop()).code, 0, one.stderr());
    one = await startServer({ db: one.db, args: ['--creates-per-hour', '10'] });
    checkLimited(await api(one, 'POST', '/api/tournaments', { body }));
  } finally {
    const { code } = await one.stop();
    assert.equal(code, 0, one.stderr());
    assert.doesNotMatch(one.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
  }
});

test('two servers sharing PostgreSQL run one Swiss, each round paired once', async () => {
  const pg = await startPostgres();
  // One tournament an hour per address (a tenth of --creates-per-hour), counted by the
  // database: the second server refuses the next one.
  const a = await startServer({ db: pg.url, args: ['--creates-per-hour', '10'] });
  const b = await startServer({ db: pg.url, args: ['--creates-per-hour', '10'] });
  try {
    const t = (await api(a, 'POST', '/api/tournaments', { body: { name: 'Shared', game: 'kings-valley', format: 'swiss', rounds: 2, starts_in: 3600 } })).body;
    const more = await api(b, 'POST', '/api/tournaments', { body: { name: 'More', game: 'kings-valley' } });
    checkLimited(more);
    // A stream on the other server hears of every change, whichever server made it: the
    // entrants joining through the first server reach it by the database's notices.
    const stream = events(b, null, null, null, { path: `/api/tournaments/${t.id}/events` });
    assert.equal((await stream.next()).version, t.version);
    for (const l of [1, 1, 1, 1]) {
      const r = await api(a, 'POST', `/api/tournaments/${t.id}/join`, { token: t.token, body: { player: `ai:${l}` } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const joined = (await api(a, 'GET', `/api/tournaments/${t.id}`)).body.version;
    await stream.next((x) => x.version === joined, 2000);
    assert.equal((await api(b, 'POST', `/api/tournaments/${t.id}/start`, { token: t.token, body: {} })).status, 200);
    let done;
    const end = Date.now() + 60000;
    while (Date.now() < end) {
      done = (await api(a, 'GET', `/api/tournaments/${t.id}`)).body;
      if (done.state === 'finished') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(done.state, 'finished', JSON.stringify(done).slice(0, 400));
    assert.deepEqual(done.pairings.map((r) => r.length), [2, 2]);
    checkStandings(done, 'buchholz');
    // Both servers see the same tournament.
    assert.deepEqual((await api(b, 'GET', `/api/tournaments/${t.id}`)).body.standings, done.standings);
    // The list's page and a cancel too late read the same in PostgreSQL.
    const page = (await api(b, 'GET', '/api/tournaments?limit=1&offset=0')).body;
    assert.deepEqual([page.tournaments.map((x) => x.id), page.next], [[t.id], null]);
    assert.equal((await api(b, 'GET', '/api/tournaments?limit=1&offset=1')).body.tournaments.length, 0);
    assert.equal((await api(a, 'POST', `/api/tournaments/${t.id}/cancel`, { token: t.token, body: {} })).status, 409);
    await stream.next((x) => x.version === done.version, 5000);
    await stream.close();
  } finally {
    for (const s of [a, b]) {
      const { code } = await s.stop();
      assert.equal(code, 0, s.stderr());
      assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
    }
    pg.stop();
  }
});
