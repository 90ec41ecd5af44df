// clock.test.mjs - clocks and the lobby in the JSON API (docs/API.md, "Clocks and the
// lobby"): a 1 s clock whose flag falls with nobody moving, a draw when the flag falls
// against a player who cannot win, the increment, refusals, a
// clock that survives a restart, a days-per-move flag falling on a game out of memory,
// open seats taken with a token, and GET /api/info. Part
// of the api suite of tools/run-web-tests.sh; tiny times keep it to a few seconds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { api, events, startServer, tempDir } from './server.mjs';

let srv;
let days;

before(async () => {
  srv = await startServer();
  days = daysPerMoveFlag();
  days.catch(() => {}); // reported by its test
});

after(async () => {
  if (srv) {
    const { code } = await srv.stop();
    assert.equal(code, 0, srv.stderr());
    assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer/);
  }
});

// A days-per-move flag falling on a game out of memory: its own server, with a "day" of
// 2 s and games idle for 1 s leaving memory. It runs from before() on, beside the other
// tests, since most of it is waiting; its test collects the outcome.
async function daysPerMoveFlag() {
  const s = await startServer({ args: ['--idle', '1', '--day-seconds', '2'] });
  try {
    const g = await create(s, { game: 'kings-valley', seats: ['human', 'human'], clock: { days: 1 } });
    const slow = await create(s, { game: 'kings-valley', seats: ['human', 'human'], clock: { days: 30 } });
    assert.equal(g.state.clock.days, 1); // the days asked for, however short a test's day
    // The clock starts when the server takes the move, after this moment and before its
    // answer comes back (slow on a loaded machine): the flag falls no earlier than this.
    const flagAt = Date.now() + 2000;
    assert.equal((await move(s, g, 0, g.state.legal[0].text)).status, 200);
    assert.equal((await move(s, slow, 0, slow.state.legal[0].text)).status, 200);
    const stats = async () => (await api(s, 'GET', '/api/stats')).body;
    const until = async (pred, what) => {
      const end = Date.now() + 8000;
      while (!pred(await stats())) {
        assert.ok(Date.now() < end, `timed out waiting for ${what}: ${JSON.stringify(await stats())}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until((st) => st.games_in_memory === 0, 'both games to leave memory');
    // Nobody asks for the game: the janitor finds its flag in the store and ends it.
    await until((st) => st.games_flagged === 1, 'the flag to fall');
    assert.ok(Date.now() >= flagAt - 50, 'not before the flag');
    const over = (await api(s, 'GET', `/api/games/${g.id}`)).body;
    assert.equal(over.status, 'over');
    assert.equal(over.result.reason, 'time');
    assert.equal(over.result.seat, 1);
    assert.deepEqual(over.result.winners, [0]);
    assert.equal(over.clock.left_ms[1], 0);
    assert.equal((await api(s, 'GET', `/api/games/${slow.id}`)).body.status, 'playing');
    assert.equal((await stats()).games_flagged, 1);
  } finally {
    const { code } = await s.stop();
    assert.equal(code, 0, s.stderr());
    assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error|LeakSanitizer/);
  }
}

async function create(server, body) {
  const r = await api(server, 'POST', '/api/games', { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

const move = (server, g, seat, text) => api(server, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[seat].token, body: { move: text } });

test('a 1 s clock: the flag falls within 2 s with nobody moving, a loss on time', async () => {
  const g = await create(srv, { game: 'kings-valley', seats: ['human', 'human'], clock: { initial: 1, increment: 0 } });
  assert.deepEqual(g.state.clock, { initial: 1, increment: 0, left_ms: [1000, 1000], running: null });
  const stream = events(srv, g.id);
  await stream.next((s) => s.ply === 0);
  // The first move is not timed; the second player's time starts with it.
  const sent = Date.now();
  const r = await move(srv, g, 0, g.state.legal[0].text);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const moved = Date.now();
  assert.equal(r.body.clock.running, 1);
  const over = await stream.next((s) => s.status === 'over', 5000);
  await stream.close();
  // Never early (the clock started after the request left), and within 2 s.
  assert.ok(Date.now() - sent >= 1000, `the flag fell ${Date.now() - sent} ms after the move`);
  assert.ok(Date.now() - moved < 2000, `the flag fell ${Date.now() - moved} ms after the move`);
  assert.equal(over.result.reason, 'time');
  assert.equal(over.result.seat, 1);
  assert.deepEqual(over.result.winners, [0]);
  assert.match(over.result.text, /ran out of time/);
  assert.equal(over.clock.running, null);
  assert.equal(over.clock.left_ms[1], 0);
  const late = await move(srv, g, 1, over.legal[0]?.text || 'a5-a4');
  assert.equal(late.status, 409);
  // A rematch keeps the time control, with full times.
  const re = await api(srv, 'POST', `/api/games/${g.id}/rematch`, { token: g.seats[0].token });
  assert.equal(re.status, 201, JSON.stringify(re.body));
  const again = (await api(srv, 'GET', `/api/games/${re.body.id}`)).body;
  assert.deepEqual(again.clock, { initial: 1, increment: 0, left_ms: [1000, 1000], running: null });
});

test('a flag falling against a bare king is a draw (King Down): the opponent cannot win', async () => {
  // Black moves first, untimed; then White, with a knight against Black's lone king, flags.
  const g = await create(srv, {
    game: 'king-down', seats: ['human', 'human'], clock: { initial: 1, increment: 0 },
    position: '4k3/8/8/8/8/8/8/4K1N1 b - - 0 1',
  });
  const stream = events(srv, g.id);
  await stream.next((s) => s.ply === 0);
  const r = await move(srv, g, 1, g.state.legal[0].text);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.clock.running, 0);
  const over = await stream.next((s) => s.status === 'over', 5000);
  await stream.close();
  assert.equal(over.result.reason, 'time-vs-no-win');
  assert.equal(over.result.seat, 0);
  assert.deepEqual(over.result.winners, [0, 1]);
  assert.deepEqual(over.result.returns, [0, 0]);
  assert.equal(over.result.text, 'draw: the first player ran out of time but the second player cannot win');
  const late = await move(srv, g, 0, 'g1f3');
  assert.equal(late.status, 409);
  assert.match(late.body.error, /could not win/);
});

test('the mover\'s time is charged and the increment added when the turn passes', async () => {
  const g = await create(srv, { game: 'kings-valley', seats: ['human', 'human'], clock: { initial: 60, increment: 2 } });
  const a = (await move(srv, g, 0, g.state.legal[0].text)).body;
  await new Promise((r) => setTimeout(r, 300));
  const b = (await move(srv, g, 1, a.legal[0].text)).body;
  assert.equal(b.clock.running, 0);
  assert.ok(b.clock.left_ms[0] > 59500, 'the first move is not timed');
  assert.ok(b.clock.left_ms[1] > 61000 && b.clock.left_ms[1] <= 61750, JSON.stringify(b.clock));
  // Days per move: a full day again after every move.
  const d = await create(srv, { game: 'kings-guard', seats: ['human', 'human'], clock: { days: 2 } });
  assert.equal(d.state.clock.days, 2);
  assert.deepEqual(d.state.clock.left_ms, [172800000, 172800000]);
});

test('malformed clocks and clocks with an AI seat are refused with 400', async () => {
  for (const clock of [{ initial: 0 }, { initial: 5, days: 1 }, { days: 99 }, { initial: 5, extra: 1 }, 'fast', { increment: 3 }]) {
    const r = await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], clock } });
    assert.equal(r.status, 400, JSON.stringify(clock));
    assert.ok(r.body.error.length > 10);
  }
  const r = await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'ai:1'], clock: { initial: 60 } } });
  assert.equal(r.status, 400);
  assert.match(r.body.error, /between people/);
});

test('an open seat: listed, taken once with its token, and no clock runs before', async () => {
  const g = await create(srv, { game: 'kings-valley', seats: ['human', 'open'], clock: { initial: 1 } });
  assert.deepEqual(g.state.open_seats, [1]);
  let open = (await api(srv, 'GET', '/api/open')).body.games;
  const entry = open.find((x) => x.id === g.id);
  assert.ok(entry, 'the game is listed');
  assert.deepEqual(entry.seats.map((s) => s.open), [false, true]);
  assert.equal(entry.watch_url, `/g/${g.id}`);
  // The creator moves first; the open seat's time waits for its player.
  const a = (await move(srv, g, 0, g.state.legal[0].text)).body;
  assert.equal(a.clock.running, null);
  await new Promise((r) => setTimeout(r, 1300));
  assert.equal((await api(srv, 'GET', `/api/games/${g.id}`)).body.status, 'playing');
  const join = await api(srv, 'POST', `/api/games/${g.id}/join`);
  assert.equal(join.status, 200, JSON.stringify(join.body));
  assert.equal(join.body.seat, 1);
  assert.equal(join.body.url, `/g/${g.id}#token=${join.body.token}`);
  const mine = (await api(srv, 'GET', `/api/games/${g.id}`, { token: join.body.token })).body;
  assert.equal(mine.you, 1);
  assert.deepEqual(mine.open_seats, []);
  assert.equal(mine.clock.running, 1);
  assert.equal((await api(srv, 'POST', `/api/games/${g.id}/join`)).status, 409);
  open = (await api(srv, 'GET', '/api/open')).body.games;
  assert.ok(!open.some((x) => x.id === g.id), 'a taken game leaves the list');
  assert.equal((await api(srv, 'POST', '/api/open')).status, 405);
});

test('a clock survives a restart, and a flag that fell meanwhile is noticed', async () => {
  const db = join(tempDir(), 'crown.db');
  let s = await startServer({ db });
  const g = await create(s, { game: 'kings-valley', seats: ['human', 'human'], clock: { initial: 2 } });
  const slow = await create(s, { game: 'kings-valley', seats: ['human', 'human'], clock: { initial: 600, increment: 5 } });
  const a = (await move(s, g, 0, g.state.legal[0].text)).body;
  const flagAt = Date.now() + 2100;
  const b = (await move(s, slow, 0, slow.state.legal[0].text)).body;
  await move(s, slow, 1, b.legal[0].text);
  const before = (await api(s, 'GET', `/api/games/${slow.id}`)).body.clock;
  assert.equal((await s.kill()).signal, 'SIGKILL');
  s = await startServer({ db });
  try {
    const after = (await api(s, 'GET', `/api/games/${slow.id}`)).body.clock;
    assert.equal(after.running, 0);
    assert.equal(after.left_ms[1], before.left_ms[1]);
    assert.ok(after.left_ms[0] <= before.left_ms[0] && after.left_ms[0] > before.left_ms[0] - 20000);
    // The first answer after loading already shows the flag that fell meanwhile.
    await new Promise((r) => setTimeout(r, Math.max(0, flagAt - Date.now())));
    const over = (await api(s, 'GET', `/api/games/${g.id}`)).body;
    assert.equal(over.status, 'over');
    assert.equal(over.result.reason, 'time');
    assert.equal(over.result.seat, 1);
    assert.ok(a.clock.running === 1);
  } finally {
    await s.stop();
  }
});

test('days per move: the flag of a game out of memory falls on time, found in the store', async () => {
  await days;
});

test('GET /api/info names the address to invite with; --public-url wins', async () => {
  const info = (await api(srv, 'GET', '/api/info')).body;
  assert.equal(info.url, srv.url);
  assert.equal(info.lab, false, 'the Lab is off without --lab: the pages do not link to it');
  const any = await startServer({ args: ['--listen', '0.0.0.0'], quiet: false });
  try {
    const port = new URL(any.url).port;
    const i = (await api(any, 'GET', '/api/info')).body;
    assert.match(i.url, new RegExp(`^http://[^/]+:${port}$`));
    // The address is printed at start too, for the one who starts the server to pass on
    // (when this machine has one others reach).
    if (i.reachable && !i.url.startsWith('http://127.')) {
      for (let t = 0; t < 100 && !any.stdout().includes('other machines open'); t++) await new Promise((r) => setTimeout(r, 20));
      assert.ok(any.stdout().includes(`crown serve: other machines open ${i.url}/\n`), any.stdout());
    }
  } finally {
    await any.stop();
  }
  const pub = await startServer({ args: ['--public-url', 'https://crown.example.org/'] });
  try {
    assert.deepEqual((await api(pub, 'GET', '/api/info')).body, { url: 'https://crown.example.org', reachable: true, lab: false });
  } finally {
    await pub.stop();
  }
});
