// puzzle-ratings.test.mjs - puzzle ratings kept by the server (docs/API.md, "Puzzle
// ratings"): a signed-in player's first try at a shipped puzzle rates him and the
// puzzle against each other by Glicko-2 (a solve raises him and lowers the puzzle, a
// miss the other way), a second try is answered but not counted, the ratings are listed
// per game and survive a restart, on SQLite and on PostgreSQL; refusals: no account, an
// unknown puzzle, a bad body.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startPostgres } from './cluster.mjs';
import { api, startServer } from './server.mjs';

const SET = new URL('../../src/web/static/data/puzzles/kings-guard.jsonl', import.meta.url);
const puzzles = readFileSync(SET, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
let srv;

before(async () => {
  srv = await startServer({ args: ['--password-cost', 'low'] });
});

after(async () => {
  const { code } = await srv.stop();
  assert.equal(code, 0, srv.stderr());
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer/);
});

async function call(method, path, { body, cookie } = {}) {
  return api(srv, method, path, { body, headers: cookie ? { cookie: `crown_session=${cookie}` } : {} });
}

test('a solve and a miss move the player and the puzzles; a second try is not counted', async () => {
  const up = await api(srv, 'POST', '/api/signup', { body: { name: 'solver', password: 'long-enough-pw-1' } });
  assert.equal(up.status, 201);
  const cookie = up.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]+)/)[1];
  const [a, b] = puzzles;
  const before = (await call('GET', `/api/puzzles/kings-guard/${a.id}`)).body;
  assert.equal(before.rating, a.rating); // the set's rating before anyone tried it
  assert.equal(before.attempts, 0);

  assert.equal((await call('POST', `/api/puzzles/kings-guard/${a.id}/result`, { body: { solved: true } })).status, 401);
  const win = (await call('POST', `/api/puzzles/kings-guard/${a.id}/result`, { body: { solved: true }, cookie })).body;
  assert.equal(win.counted, true);
  assert.ok(win.rating.rating > 1500, JSON.stringify(win));
  assert.ok(win.rating.rd < 350);
  assert.equal(win.rating.puzzles, 1);
  assert.ok(win.puzzle.rating < a.rating);
  assert.equal(win.puzzle.attempts, 1);
  assert.equal((await call('GET', `/api/puzzles/kings-guard/${a.id}`)).body.rating, win.puzzle.rating);

  const again = (await call('POST', `/api/puzzles/kings-guard/${a.id}/result`, { body: { solved: false }, cookie })).body;
  assert.equal(again.counted, false);
  assert.equal(again.rating.rating, win.rating.rating);

  const miss = (await call('POST', `/api/puzzles/kings-guard/${b.id}/result`, { body: { solved: false }, cookie })).body;
  assert.equal(miss.counted, true);
  assert.ok(miss.rating.rating < win.rating.rating);
  assert.ok(miss.puzzle.rating > b.rating);

  await srv.stop();
  srv = await startServer({ db: srv.db, args: ['--password-cost', 'low'] });
  const list = (await call('GET', '/api/puzzles/ratings', { cookie })).body.ratings;
  assert.equal(list.length, 1);
  assert.equal(list[0].game, 'kings-guard');
  assert.equal(list[0].puzzles, 2);
  assert.equal(list[0].rating, miss.rating.rating);
  assert.equal(list[0].provisional, true);
  // The account's export has them too.
  const exp = (await call('GET', '/api/account/export', { cookie })).body;
  assert.equal(exp.puzzle_ratings['kings-guard'].puzzles, 2);
  assert.ok(Math.abs(exp.puzzle_ratings['kings-guard'].rating - miss.rating.rating) < 0.01);
});

test('refusals: no account, no such puzzle, a bad body, a wrong method', async () => {
  assert.equal((await call('GET', '/api/puzzles/ratings')).status, 401);
  assert.equal((await call('GET', '/api/puzzles/kings-guard/0000000000')).status, 404);
  assert.equal((await call('GET', '/api/puzzles/no-such-game/0000000000')).status, 404);
  assert.equal((await call('GET', '/api/puzzles/kings-guard')).status, 404);
  const id = puzzles[0].id;
  assert.equal((await call('POST', `/api/puzzles/kings-guard/${id}/result`, { body: { solved: 1 } })).status, 400);
  assert.equal((await call('POST', `/api/puzzles/kings-guard/${id}/result`, { body: { solved: true, extra: 1 } })).status, 400);
  assert.equal((await call('POST', `/api/puzzles/kings-guard/${id}`, { body: {} })).status, 405);
});

test('the same on PostgreSQL', async () => {
  const pg = await startPostgres();
  const s = await startServer({ db: pg.url, args: ['--password-cost', 'low'] });
  try {
    const up = await api(s, 'POST', '/api/signup', { body: { name: 'pgsolver', password: 'long-enough-pw-2' } });
    assert.equal(up.status, 201);
    const headers = { cookie: `crown_session=${up.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]+)/)[1]}` };
    const id = puzzles[0].id;
    const win = (await api(s, 'POST', `/api/puzzles/kings-guard/${id}/result`, { body: { solved: true }, headers })).body;
    assert.equal(win.counted, true, JSON.stringify(win));
    const again = (await api(s, 'POST', `/api/puzzles/kings-guard/${id}/result`, { body: { solved: true }, headers })).body;
    assert.equal(again.counted, false);
    const list = (await api(s, 'GET', '/api/puzzles/ratings', { headers })).body.ratings;
    assert.deepEqual(list.map((r) => [r.game, r.puzzles, r.rating]), [['kings-guard', 1, win.rating.rating]]);
  } finally {
    const { code } = await s.stop();
    assert.equal(code, 0, s.stderr());
    pg.stop();
  }
});
