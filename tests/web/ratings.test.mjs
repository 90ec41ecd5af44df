// ratings.test.mjs - rated games through the JSON API (docs/API.md, "Ratings"): a game
// ended by a resignation and its rated rematch (colours swapped) played out to a win,
// one drawn by agreement and one abandoned (its day per move run out), each player's
// new Glicko-2 rating checked against the tests' own Glicko-2 (glicko2.mjs, written from
// Glickman's paper apart from src/play/glicko2.c); the state's rating_change, the
// player's page (ratings, history, recent games, wins/draws/losses), the leaderboard of
// players whose RD fell under 110; and a sign-in session past its 30 days refused. Part
// of the api suite of tools/run-web-tests.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { FRESH, glicko2, rateGame } from './glicko2.mjs';
import { api, startServer } from './server.mjs';

// The server grows RD with the days idle between games: seconds here, so a hair.
const near = (got, want, what, tol = 0.02) => assert.ok(Math.abs(got - want) < tol, `${what}: ${got}, expected ${want}`);

test('the tests\' Glicko-2 gives the paper\'s worked example', () => {
  const p = glicko2({ r: 1500, rd: 200, vol: 0.06 }, [{ r: 1400, rd: 30, s: 1 }, { r: 1550, rd: 100, s: 0 }, { r: 1700, rd: 300, s: 0 }]);
  near(p.r, 1464.06, 'rating');
  near(p.rd, 151.52, 'rd');
  near(p.vol, 0.05999, 'volatility', 1e-5);
});

// --- the server ---------------------------------------------------------------------------
let srv;
// A day of days-per-move clocks lasts a second here, so that a game is abandoned soon.
before(async () => { srv = await startServer({ args: ['--password-cost', 'low', '--day-seconds', '1'] }); });
after(async () => {
  if (!srv) return;
  const { code } = await srv.stop();
  assert.equal(code, 0, srv.stderr());
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
});

async function call(method, path, { body, cookie, token, server = srv } = {}) {
  return api(server, method, path, { body, token, headers: cookie ? { cookie: `crown_session=${cookie}` } : {} });
}

const run = Math.random().toString(36).slice(2, 7);
let names = 0;
async function signup(prefix, server = srv) {
  const name = `${prefix}${run}${++names}`;
  const r = await call('POST', '/api/signup', { body: { name, password: `pw-${name}-long` }, server });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { name, cookie: (r.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]+)/) || [])[1] };
}

// A rated King's Valley game: a creates it in seat 0, b takes the open seat.
async function ratedGame(a, b) {
  const r = await call('POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], rated: true }, cookie: a.cookie });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const j = await call('POST', `/api/games/${r.body.id}/join`, { body: {}, cookie: b.cookie });
  assert.equal(j.status, 200, JSON.stringify(j.body));
  return { id: r.body.id, tokens: [r.body.seats[0].token, j.body.token] };
}

// A King's Valley game from the start that the second player wins (its king reaches c3).
const SECOND_WINS = ('a1-a4 b5-e2 b1-a1 a5-b5 c1-e3 c5-d4 e3-e4 d4-c5 a4-d4 d5-a2 e4-e3 c5-c1 d4-c5 '
  + 'b5-a5 a1-d4 e5-d5 e1-b4 c1-c4 d1-e1 a2-b1 b4-b2 e2-d1 b2-a1 d1-e2 a1-a4 c4-d3 d4-b4 d3-d1 '
  + 'c5-c1 b1-e4 b4-b1 e4-c2 c1-a3 d5-b5 e1-b4 c2-a2 e3-e5 b5-d5 b4-b5 e2-e4 b1-d3 a5-e1 d3-c4 '
  + 'd5-d2 c4-d4 d2-c1 b5-d5 c1-a1').split(' ');

test('a resigned rated game and its rematch played out: both ratings as Glicko-2 says', async () => {
  const alice = await signup('al');
  const bob = await signup('bo');
  // Game 1: alice (seat 0) resigns after one move; bob wins.
  const g = await ratedGame(alice, bob);
  const moved = await call('POST', `/api/games/${g.id}/moves`, { token: g.tokens[0], body: { move: 'b1-b4' } });
  assert.equal(moved.status, 200);
  const ended = await call('POST', `/api/games/${g.id}/resign`, { token: g.tokens[0], body: {} });
  assert.equal(ended.status, 200, JSON.stringify(ended.body));
  // Rated in the write that ended it: one version on, the ratings' change already in it.
  assert.equal(ended.body.version, moved.body.version + 1);
  assert.notEqual(ended.body.rating_change, null);
  let [a1, b1] = rateGame(FRESH, FRESH, 0);
  const st1 = (await call('GET', `/api/games/${g.id}`)).body;
  assert.equal(st1.status, 'over');
  near(st1.rating_after[0], a1.r, 'alice after game 1');
  near(st1.rating_after[1], b1.r, 'bob after game 1');
  near(st1.rating_change[0], a1.r - 1500, 'alice\'s change');
  near(st1.rating_change[1], b1.r - 1500, 'bob\'s change');
  assert.ok(st1.rating_change[0] < -100 && st1.rating_change[1] > 100);
  // Once only: a later change of the game (the rematch's link) rates nothing again.
  const re = await call('POST', `/api/games/${g.id}/rematch`, { token: g.tokens[0], body: {} });
  assert.equal(re.status, 201, JSON.stringify(re.body));
  const p1 = (await call('GET', `/api/users/${alice.name}`)).body.ratings['kings-valley'];
  assert.equal(p1.games, 1);
  near(p1.rating, a1.r, 'alice on her page');
  near(p1.rd, a1.rd, 'alice\'s RD');
  near(p1.volatility, a1.vol, 'alice\'s volatility', 1e-6);
  assert.equal(p1.provisional, true);

  // Game 2, the rematch: rated, colours swapped (bob seat 0, alice seat 1); alice wins.
  const bobView = (await call('GET', `/api/games/${g.id}`, { token: g.tokens[1] })).body;
  const bobToken = bobView.rematch_url.split('#token=')[1];
  const rid = re.body.id;
  const tokens = [bobToken, re.body.url.split('#token=')[1]];
  let st = (await call('GET', `/api/games/${rid}`, { token: tokens[0] })).body;
  assert.equal(st.rated, true);
  assert.deepEqual(st.accounts, [bob.name, alice.name]);
  assert.equal(st.you, 0);
  for (const [i, move] of SECOND_WINS.entries()) {
    const r = await call('POST', `/api/games/${rid}/moves`, { token: tokens[i % 2], body: { move } });
    assert.equal(r.status, 200, `${move}: ${JSON.stringify(r.body)}`);
    st = r.body;
  }
  assert.equal(st.status, 'over');
  assert.deepEqual(st.result.winners, [1]);
  assert.notEqual(st.rating_change, null); // the winning move's own answer says it
  st = (await call('GET', `/api/games/${rid}`)).body;
  const [b2, a2] = rateGame(b1, a1, 0);
  near(st.rating_after[0], b2.r, 'bob after game 2');
  near(st.rating_after[1], a2.r, 'alice after game 2');
  near(st.rating_change[1], a2.r - a1.r, 'alice\'s change in game 2');

  // Alice's page: both games in her history, the newest first in her recent games.
  const page = (await call('GET', `/api/users/${alice.name}`)).body;
  const kv = page.ratings['kings-valley'];
  assert.deepEqual([kv.games, kv.wins, kv.draws, kv.losses], [2, 1, 0, 1]);
  near(kv.rating, a2.r, 'alice\'s rating');
  near(kv.rd, a2.rd, 'alice\'s RD', 0.05);
  assert.deepEqual(page.history['kings-valley'].map((h) => h.id), [g.id, rid]);
  assert.deepEqual(page.recent.map((x) => [x.id, x.opponent, x.result]), [[rid, bob.name, 'win'], [g.id, bob.name, 'loss']]);
  assert.deepEqual(page.record, { wins: 1, draws: 0, losses: 1 });
  a1 = a2; b1 = b2;
});

test('a rated game drawn by agreement: half a point each', async () => {
  const e = await signup('ea');
  const f = await signup('fa');
  const g = await ratedGame(e, f);
  assert.equal((await call('POST', `/api/games/${g.id}/moves`, { token: g.tokens[0], body: { move: 'b1-b4' } })).status, 200);
  assert.equal((await call('POST', `/api/games/${g.id}/offer-draw`, { token: g.tokens[1], body: {} })).status, 200);
  const r = await call('POST', `/api/games/${g.id}/accept-draw`, { token: g.tokens[0], body: {} });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const [re, rf] = rateGame(FRESH, FRESH, 0.5);
  const st = (await call('GET', `/api/games/${g.id}`)).body;
  near(st.rating_after[0], re.r, 'e after the draw');
  near(st.rating_after[1], rf.r, 'f after the draw');
  const page = (await call('GET', `/api/users/${e.name}`)).body;
  near(page.ratings['kings-valley'].rd, re.rd, 'e\'s RD after the draw');
  assert.deepEqual(page.record, { wins: 0, draws: 1, losses: 0 });
  assert.equal(page.recent[0].result, 'draw');
});

test('an abandoned rated game (a day per move left to run out) rates both players', async () => {
  const c = await signup('ca');
  const d = await signup('da');
  const r = await call('POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], rated: true, clock: { days: 1 } }, cookie: c.cookie });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const j = await call('POST', `/api/games/${r.body.id}/join`, { body: {}, cookie: d.cookie });
  assert.equal(j.status, 200, JSON.stringify(j.body));
  assert.equal((await call('POST', `/api/games/${r.body.id}/moves`, { token: r.body.seats[0].token, body: { move: 'b1-b4' } })).status, 200);
  // d never moves: his day runs out, the server ends the game on time and rates it.
  let st;
  for (const end = Date.now() + 15000; !(st && st.rating_change); await new Promise((res) => setTimeout(res, 100))) {
    assert.ok(Date.now() < end, `not rated in time: ${JSON.stringify(st && st.result)}`);
    st = (await call('GET', `/api/games/${r.body.id}`)).body;
  }
  assert.equal(st.result.reason, 'time');
  const [rc, rd] = rateGame(FRESH, FRESH, 1);
  near(st.rating_after[0], rc.r, 'the one who stayed');
  near(st.rating_after[1], rd.r, 'the one who left');
});

test('the leaderboard lists the players whose RD fell under 110, best first', async () => {
  const x = await signup('lx');
  const y = await signup('ly');
  let rx = FRESH;
  let ry = FRESH;
  // x wins two of every three: RD falls under 110 within twenty games.
  const GAMES = 20;
  for (let i = 0; i < GAMES; i++) {
    const g = await ratedGame(x, y);
    const loser = i % 3 === 2 ? 0 : 1;
    assert.equal((await call('POST', `/api/games/${g.id}/resign`, { token: g.tokens[loser], body: {} })).status, 200);
    [rx, ry] = rateGame(rx, ry, loser === 1 ? 1 : 0);
  }
  assert.ok(rx.rd < 110 && ry.rd < 110, `RDs ${rx.rd}, ${ry.rd}`);
  const board = await call('GET', '/api/leaderboard/kings-valley?n=100');
  assert.equal(board.status, 200);
  const mine = board.body.players.filter((p) => p.name === x.name || p.name === y.name);
  assert.deepEqual(mine.map((p) => p.name), [x.name, y.name]);
  near(mine[0].rating, rx.r, 'x on the board', 0.1);
  assert.equal(mine[0].games, GAMES);
  for (const p of board.body.players) assert.ok(p.rd < 110);
  const ranks = board.body.players.map((p) => p.rank);
  assert.deepEqual(ranks, ranks.map((_, i) => i + 1));
  assert.equal((await call('GET', '/api/leaderboard/no-such-game')).status, 404);
  assert.equal((await call('GET', '/api/leaderboard/kings-valley?n=0')).status, 400);
  assert.equal((await call('GET', '/api/leaderboard/kings-valley?n=x')).status, 400);
  assert.equal((await call('POST', '/api/leaderboard/kings-valley', { body: {} })).status, 405);
  // Provisional players are left out: the first test's two have RD over 110.
  assert.ok(board.body.players.every((p) => !p.name.startsWith('al')));
  // A player idle for 200 days has grown provisional again (his RD with the days since
  // his last rated game): off the board until he plays.
  // (The server holds its database alone: stopped, the store changed, started again.)
  assert.equal((await srv.stop()).code, 0);
  execFileSync('sqlite3', [srv.db, `UPDATE ratings SET updated = updated - 200 * 86400 WHERE user_id = (SELECT id FROM users WHERE name = '${y.name}')`]);
  srv = await startServer({ db: srv.db, args: ['--password-cost', 'low', '--day-seconds', '1'] });
  const later = (await call('GET', '/api/leaderboard/kings-valley?n=100')).body.players;
  assert.deepEqual(later.filter((p) => p.name === x.name || p.name === y.name).map((p) => p.name), [x.name]);
  // His page says so too: the deviation as it stands today, provisional again.
  const idle = (await call('GET', `/api/users/${y.name}`)).body.ratings['kings-valley'];
  assert.ok(idle.rd >= 110 && idle.provisional, JSON.stringify(idle));
});

test('a sign-in session older than 30 days is refused', async () => {
  const s = await startServer({ args: ['--password-cost', 'low'] });
  let s2;
  try {
    const u = await signup('ex', s);
    assert.equal((await call('GET', '/api/me', { cookie: u.cookie, server: s })).body.signed_in, true);
    assert.equal((await s.stop()).code, 0);
    // The store's clock of the session set back 31 days, as if it were opened then.
    execFileSync('sqlite3', [s.db, 'UPDATE user_sessions SET created = created - 31 * 86400']);
    s2 = await startServer({ db: s.db, args: ['--password-cost', 'low'] });
    const me = await call('GET', '/api/me', { cookie: u.cookie, server: s2 });
    assert.deepEqual(me.body, { signed_in: false, name: null });
    assert.equal((await call('POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], rated: true }, cookie: u.cookie, server: s2 })).status, 401);
  } finally {
    await s.stop();
    if (s2) assert.equal((await s2.stop()).code, 0);
  }
});
