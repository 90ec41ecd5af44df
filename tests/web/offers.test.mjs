// offers.test.mjs - finding an opponent through the JSON API (docs/API.md, "Seeks and
// challenges"): a seek posted, listed, accepted in one request with both players seated
// (the poster told his seat by polling), cancelled, refused outside its rating range or
// to players without an account when rated, at most 10 open from one address; a challenge to a named account accepted,
// declined or cancelled, never to an unknown name or to oneself, gone with a deleted
// account; King of the Valley's
// 3-4 player games casual only; correspondence (days per move) offers whose games end
// by time through the clock's own path. Part of the api suite of tools/run-web-tests.sh.
// Two servers: one at the usual times, and one where a "day" is 2 s and a live seek's
// poster is gone after 1 s, for expiry and correspondence flags.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, startServer } from './server.mjs';

let srv;
let fast; // --day-seconds 2 --idle 1: offers expire and days pass within a test

before(async () => {
  [srv, fast] = await Promise.all([
    // --trusted-proxy: a test names its client address in X-Forwarded-For.
    startServer({ args: ['--password-cost', 'low', '--trusted-proxy', '127.0.0.1'] }),
    startServer({ args: ['--password-cost', 'low', '--day-seconds', '2', '--idle', '1'] }),
  ]);
});

after(async () => {
  for (const s of [srv, fast]) {
    if (!s) continue;
    const { code } = await s.stop();
    assert.equal(code, 0, s.stderr());
    assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
  }
});

// A call with the session cookie `cookie` (a signed-in player) or a bearer token, from
// address `from` (the main server trusts the test as its proxy).
async function call(method, path, { body, cookie, token, from = '192.0.2.200', origin, server = srv } = {}) {
  const headers = cookie ? { cookie: `crown_session=${cookie}` } : {};
  if (origin) headers.origin = origin;
  if (server === srv) headers['x-forwarded-for'] = from; // the only server behind a "proxy"
  return api(server, method, path, { body, token, headers });
}

let names = 0;
async function signup(server = srv) {
  const name = `seeker${++names}`;
  const r = await call('POST', '/api/signup', { server, body: { name, password: `pw-${name}-long-enough` } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const cookie = (r.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]*)/) || [])[1];
  return { name, cookie };
}

async function seek(body, opts = {}) {
  const r = await call('POST', '/api/seeks', { ...opts, body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

const listed = async (id, server = srv) => (await call('GET', '/api/seeks', { server })).body.seeks.find((s) => s.id === id);

test('a casual seek: posted, listed, accepted in one request, both players seated', async () => {
  const s = await seek({ game: 'kings-valley', clock: { initial: 300, increment: 5 }, colour: 'second' });
  assert.match(s.id, /^[0-9a-f]{24}$/);
  assert.match(s.token, /^[0-9a-f]{32}$/);
  const entry = await listed(s.id);
  assert.deepEqual({ ...entry, created: 0 }, {
    id: s.id, from: null, from_rating: null, provisional: false, game: 'kings-valley', players: 2, rules: {}, clock: { initial: 300, increment: 5 },
    rated: false, colour: 'second', rating: null, state: 'open', created: 0,
  });
  assert.ok(!JSON.stringify(entry).includes(s.token), 'the list shows no token');
  // The poster waits: his seek, seen again, and no game yet.
  const waiting = await call('GET', `/api/seeks/${s.id}`, { token: s.token });
  assert.equal(waiting.body.state, 'open');
  assert.equal(waiting.body.url, undefined);
  // His own seek is not his to accept.
  assert.equal((await call('POST', `/api/seeks/${s.id}/accept`, { token: s.token })).status, 409);
  const a = await call('POST', `/api/seeks/${s.id}/accept`);
  assert.equal(a.status, 200, JSON.stringify(a.body));
  assert.equal(a.body.seat, 0); // the poster asked for the second seat
  const id = a.body.url.match(/^\/g\/([0-9a-f]{24})#token=/)[1];
  assert.equal(await listed(s.id), undefined, 'an accepted seek leaves the lobby');
  // The poster's poll now has his seat's link.
  const p = (await call('GET', `/api/seeks/${s.id}`, { token: s.token })).body;
  assert.equal(p.state, 'accepted');
  assert.equal(p.game_id, id);
  assert.equal(p.seat, 1);
  assert.equal(p.url, `/g/${id}#token=${p.token}`);
  // Both seats are taken: none open, each token plays its own seat.
  const state = (await call('GET', `/api/games/${id}`, { token: a.body.token })).body;
  assert.deepEqual(state.open_seats, []);
  assert.equal(state.rated, false);
  assert.deepEqual(state.clock.left_ms, [300000, 300000]);
  const m = await call('POST', `/api/games/${id}/moves`, { token: a.body.token, body: { move: state.legal[0].text } });
  assert.equal(m.status, 200, JSON.stringify(m.body));
  // Someone else is too late.
  assert.equal((await call('POST', `/api/seeks/${s.id}/accept`)).status, 409);
  // Without the token, the seek shows no link.
  assert.equal((await call('GET', `/api/seeks/${s.id}`)).body.url, undefined);
});

test('a seek is cancelled by its poster only; colours left to chance fall both ways', async () => {
  const s = await seek({ game: 'king-down' });
  assert.equal((await call('POST', `/api/seeks/${s.id}/cancel`)).status, 403);
  assert.equal((await call('POST', `/api/seeks/${s.id}/cancel`, { token: '0'.repeat(32) })).status, 403);
  const c = await call('POST', `/api/seeks/${s.id}/cancel`, { token: s.token });
  assert.deepEqual([c.status, c.body], [200, { state: 'cancelled' }]);
  assert.equal(await listed(s.id), undefined);
  assert.equal((await call('POST', `/api/seeks/${s.id}/accept`)).status, 409);
  assert.equal((await call('POST', `/api/seeks/${s.id}/cancel`, { token: s.token })).status, 409);
  // A random colour is the game's seed's: over a few seeks both seats come up.
  const seats = new Set();
  for (let i = 0; i < 12 && seats.size < 2; i++) {
    const r = await seek({ game: 'kings-valley' });
    seats.add((await call('POST', `/api/seeks/${r.id}/accept`)).body.seat);
  }
  assert.deepEqual([...seats].sort(), [0, 1]);
});

test('rated seeks need accounts on both sides; a rating range refuses those outside it', async () => {
  assert.equal((await call('POST', '/api/seeks', { body: { game: 'kings-valley', rated: true } })).status, 401);
  const a = await signup();
  const b = await signup();
  const s = await seek({ game: 'kings-valley', rated: true, clock: { initial: 180, increment: 2 } }, { cookie: a.cookie });
  // The poster's name and rating in the game: 1500 and provisional before his first.
  const entry = await listed(s.id);
  assert.deepEqual([entry.from, entry.from_rating, entry.provisional], [a.name, 1500, true]);
  assert.equal((await call('POST', `/api/seeks/${s.id}/accept`)).status, 401);
  assert.equal((await call('POST', `/api/seeks/${s.id}/accept`, { cookie: a.cookie })).status, 409);
  const r = await call('POST', `/api/seeks/${s.id}/accept`, { cookie: b.cookie });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const id = r.body.url.match(/^\/g\/([0-9a-f]{24})/)[1];
  const st = (await call('GET', `/api/games/${id}`)).body;
  assert.equal(st.rated, true);
  const mine = st.accounts.indexOf(a.name);
  assert.ok(mine >= 0 && st.accounts[1 - mine] === b.name, JSON.stringify(st.accounts));
  // Both have the game in their account.
  for (const p of [a, b]) {
    const ex = (await call('GET', '/api/account/export', { cookie: p.cookie })).body;
    assert.ok(JSON.stringify(ex).includes(id), `${p.name} holds the game`);
  }
  // A range: an unrated player counts as 1500.
  const low = await seek({ game: 'kings-valley', rating: { min: 1000, max: 1400 } }, { cookie: a.cookie });
  const refused = await call('POST', `/api/seeks/${low.id}/accept`, { cookie: b.cookie });
  assert.equal(refused.status, 403);
  assert.match(refused.body.error, /1500.*1000-1400/);
  assert.equal((await call('POST', `/api/seeks/${low.id}/accept`)).status, 401);
  const fits = await seek({ game: 'kings-valley', rating: { min: 1400, max: 1600 } }, { cookie: a.cookie });
  assert.equal((await call('POST', `/api/seeks/${fits.id}/accept`, { cookie: b.cookie })).status, 200);
  for (const bad of [{ min: 1600, max: 1400 }, { min: -1, max: 10 }, { min: 1 }, 'any']) {
    assert.equal((await call('POST', '/api/seeks', { cookie: a.cookie, body: { game: 'kings-valley', rating: bad } })).status, 400);
  }
});

test('an address holds at most 10 open seeks and challenges at once', async () => {
  const from = '192.0.2.77';
  const made = [];
  for (let i = 0; i < 10; i++) made.push(await seek({ game: 'king-down' }, { from }));
  const over = await call('POST', '/api/seeks', { from, body: { game: 'king-down' } });
  assert.equal(over.status, 429);
  assert.match(over.body.error, /10 seeks and challenges waiting/);
  assert.ok(over.headers.get('retry-after'));
  // Another address is not held back; one taken frees a place.
  assert.equal((await call('POST', '/api/seeks', { from: '192.0.2.78', body: { game: 'king-down' } })).status, 201);
  assert.equal((await call('POST', `/api/seeks/${made[0].id}/accept`)).status, 200);
  assert.equal((await call('POST', '/api/seeks', { from, body: { game: 'king-down' } })).status, 201);
});

test('malformed seeks are refused as POST /api/games refuses their game', async () => {
  const a = await signup();
  for (const body of [{}, { game: 'chess' }, { game: 'kings-valley', players: 3 }, { game: 'kings-valley', colour: 'third' },
    { game: 'kings-valley', clock: { days: 99 } }, { game: 'kings-valley', rules: { 'no-such-rule': 1 } },
    { game: 'kings-valley', seats: ['human', 'human'] }, { game: 'kings-valley', rated: 'yes' }]) {
    const r = await call('POST', '/api/seeks', { cookie: a.cookie, body });
    assert.equal(r.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
  }
  // King of the Valley with 3 or 4 players: casual only.
  const r = await call('POST', '/api/seeks', { cookie: a.cookie, body: { game: 'king-of-the-valley', players: 3, rated: true } });
  assert.equal(r.status, 400);
  assert.match(r.body.error, /casual only/);
  // Casual, three players: the poster and the acceptor seated, the third seat open.
  const k = await seek({ game: 'king-of-the-valley', players: 3, colour: 'first' });
  const j = await call('POST', `/api/seeks/${k.id}/accept`);
  assert.equal(j.body.seat, 1);
  const id = j.body.url.match(/^\/g\/([0-9a-f]{24})/)[1];
  assert.deepEqual((await call('GET', `/api/games/${id}`)).body.open_seats, [2]);
  assert.equal((await call('GET', '/api/seeks/nothex')).status, 404);
  assert.equal((await call('GET', `/api/seeks/${'a'.repeat(24)}`)).status, 404);
  const wrong = await call('DELETE', '/api/seeks');
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get('allow'), 'GET, POST');
  assert.equal((await call('GET', `/api/seeks/${k.id}/accept`)).headers.get('allow'), 'POST');
});

test('challenges: to a named account, accepted or declined, never to oneself or nobody', async () => {
  const a = await signup();
  const b = await signup();
  const c = await signup();
  const body = { to: b.name.toUpperCase(), game: 'kings-guard', clock: { days: 3 }, colour: 'first' };
  assert.equal((await call('POST', '/api/challenges', { body })).status, 401);
  assert.equal((await call('POST', '/api/challenges', { cookie: a.cookie, body: { ...body, to: 'nobody-here' } })).status, 404);
  const self = await call('POST', '/api/challenges', { cookie: a.cookie, body: { ...body, to: a.name } });
  assert.equal(self.status, 400);
  assert.match(self.body.error, /yourself/);
  // Another site's page cannot challenge, nor accept, in the player's name.
  const evil = await call('POST', '/api/challenges', { cookie: a.cookie, body, origin: 'http://evil.example' });
  assert.equal(evil.status, 403);
  const made = await call('POST', '/api/challenges', { cookie: a.cookie, body });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal(made.body.challenge.to, b.name);
  assert.equal(made.body.token, undefined);
  const id = made.body.id;
  // Not in the lobby: the challenged sees it, and so does the challenger.
  assert.equal(await listed(id), undefined);
  const inB = (await call('GET', '/api/challenges', { cookie: b.cookie })).body;
  assert.equal(inB.incoming[0].id, id);
  assert.equal(inB.incoming[0].from, a.name);
  assert.deepEqual(inB.incoming[0].clock, { days: 3 });
  assert.equal((await call('GET', '/api/challenges', { cookie: a.cookie })).body.outgoing[0].state, 'open');
  assert.equal((await call('GET', '/api/challenges')).status, 401);
  // Only the challenged answers it; only the challenger cancels it.
  assert.equal((await call('POST', `/api/challenges/${id}/accept`, { cookie: c.cookie })).status, 403);
  assert.equal((await call('POST', `/api/challenges/${id}/accept`, { cookie: a.cookie })).status, 403);
  assert.equal((await call('POST', `/api/challenges/${id}/decline`, { cookie: a.cookie })).status, 403);
  assert.equal((await call('POST', `/api/challenges/${id}/cancel`, { cookie: b.cookie })).status, 403);
  assert.equal((await call('POST', `/api/challenges/${id}/accept`, { cookie: b.cookie, origin: 'http://evil.example' })).status, 403);
  const ok = await call('POST', `/api/challenges/${id}/accept`, { cookie: b.cookie, origin: srv.url });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.seat, 1);
  // The challenger sees the answer, with his seat's link.
  const out = (await call('GET', '/api/challenges', { cookie: a.cookie })).body.outgoing[0];
  assert.equal(out.state, 'accepted');
  assert.equal(out.seat, 0);
  const game = (await call('GET', `/api/games/${out.game_id}`, { token: out.token })).body;
  assert.deepEqual(game.accounts, [a.name, b.name]);
  assert.equal(game.clock.days, 3);
  // Declined and cancelled are states of their own.
  const d = (await call('POST', '/api/challenges', { cookie: a.cookie, body })).body.id;
  assert.deepEqual((await call('POST', `/api/challenges/${d}/decline`, { cookie: b.cookie })).body, { state: 'declined' });
  const x = (await call('POST', '/api/challenges', { cookie: a.cookie, body })).body.id;
  assert.deepEqual((await call('POST', `/api/challenges/${x}/cancel`, { cookie: a.cookie })).body, { state: 'cancelled' });
  assert.equal((await call('POST', `/api/challenges/${x}/accept`, { cookie: b.cookie })).status, 409);
  const states = Object.fromEntries((await call('GET', '/api/challenges', { cookie: a.cookie })).body.outgoing.map((o) => [o.id, o.state]));
  assert.deepEqual(states, { [id]: 'accepted', [d]: 'declined', [x]: 'cancelled' });
  // A seek's path is not a challenge's.
  assert.equal((await call('POST', `/api/seeks/${d}/accept`)).status, 404);
  // A deleted account's offers go with its name: his seek, and the challenge to him.
  const gone = await signup();
  const hisSeek = await seek({ game: 'king-down' }, { cookie: gone.cookie });
  const toHim = (await call('POST', '/api/challenges', { cookie: a.cookie, body: { to: gone.name, game: 'king-down' } })).body.id;
  const del = await call('POST', '/api/account/delete', { cookie: gone.cookie, body: { password: `pw-${gone.name}-long-enough` } });
  assert.equal(del.status, 200, JSON.stringify(del.body));
  assert.equal(await listed(hisSeek.id), undefined);
  assert.ok(!(await call('GET', '/api/challenges', { cookie: a.cookie })).body.outgoing.some((o) => o.id === toHim));
});

test('offers expire when their poster is gone; a correspondence game ends by time', async () => {
  const a = await signup(fast);
  const b = await signup(fast);
  const live = await seek({ game: 'kings-valley' }, { server: fast });
  const corr = await seek({ game: 'kings-valley', clock: { days: 1 } }, { server: fast });
  const ch = (await call('POST', '/api/challenges', { server: fast, cookie: a.cookie, body: { to: b.name, game: 'kings-valley' } })).body.id;
  await new Promise((r) => setTimeout(r, 2300));
  // The live seek's poster was gone past --idle, the challenger too; the correspondence
  // seek lasts a day unseen (here 2 s), so it is still listed only if seen.
  assert.equal(await listed(live.id, fast), undefined);
  assert.equal((await call('GET', `/api/seeks/${live.id}`, { server: fast, token: live.token })).body.state, 'expired');
  assert.equal((await call('POST', `/api/seeks/${live.id}/accept`, { server: fast })).status, 409);
  const chs = (await call('GET', '/api/challenges', { server: fast, cookie: b.cookie })).body.incoming;
  assert.equal(chs.find((c) => c.id === ch).state, 'expired');
  // A correspondence seek seen within its day is accepted; its game's per-move clock
  // starts at the first move and a move gives a full day again.
  const fresh = await seek({ game: 'kings-valley', clock: { days: 1 } }, { server: fast });
  assert.equal((await listed(fresh.id, fast)).clock.days, 1);
  const g = (await call('POST', `/api/seeks/${fresh.id}/accept`, { server: fast, cookie: b.cookie })).body;
  const id = g.url.match(/^\/g\/([0-9a-f]{24})/)[1];
  const p = (await call('GET', `/api/seeks/${fresh.id}`, { server: fast, token: fresh.token })).body;
  const first = g.seat === 0 ? g.token : p.token;
  const second = g.seat === 0 ? p.token : g.token;
  let st = (await call('GET', `/api/games/${id}`, { server: fast })).body;
  st = (await call('POST', `/api/games/${id}/moves`, { server: fast, token: first, body: { move: st.legal[0].text } })).body;
  await new Promise((r) => setTimeout(r, 800));
  st = (await call('POST', `/api/games/${id}/moves`, { server: fast, token: second, body: { move: st.legal[0].text } })).body;
  assert.ok(st.clock.left_ms[1] === 2000, `a move gives a full day again: ${JSON.stringify(st.clock)}`);
  // Nobody moves for the day: the first player loses by time.
  const end = Date.now() + 8000;
  while (st.status !== 'over' && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    st = (await call('GET', `/api/games/${id}`, { server: fast })).body;
  }
  assert.equal(st.status, 'over');
  assert.equal(st.result.reason, 'time');
  assert.equal(st.result.seat, 0);
  assert.equal(corr.id.length, 24);
});
