// review-api.test.mjs - the review endpoints of crown serve (docs/API.md): every
// position of a game, and the AI's evaluation of one, with their refusals: a bad ply,
// evaluations during a game between people; King of the Valley's positions during play
// (its only secret is what is to come), without evaluations. Small and quick: it runs in
// the sanitizer and release builds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, startServer, waitState } from './server.mjs';

let srv;

before(async () => { srv = await startServer(); });
after(async () => {
  const { code } = await srv.stop();
  assert.equal(code, 0, srv.stderr());
});

const create = async (body) => (await api(srv, 'POST', '/api/games', { body })).body;
const play = (made, seat, move) => api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[seat].token, body: { move } });
const analyse = (made, ply, token) => api(srv, 'POST', `/api/games/${made.id}/analysis`, { token, body: { ply } });

test('positions: one per action and the start, drawn like the state', async () => {
  const made = await create({ game: 'kings-valley', seats: ['human', 'human'], position: 'ss1ss/2k2/5/5/SSKSS 1 10' });
  assert.equal((await play(made, 0, 'a1-a4')).status, 200);
  const r = await api(srv, 'GET', `/api/games/${made.id}/positions`);
  assert.equal(r.status, 200);
  const ps = r.body.positions;
  assert.equal(ps.length, 2);
  assert.deepEqual(ps.map((p) => [p.ply, p.to_move]), [[0, 0], [1, 1]]);
  assert.equal(ps[0].position, 'ss1ss/2k2/5/5/SSKSS 1 10');
  assert.ok(ps[1].observation && ps[1].observation.cells.length === 25);
  const post = await api(srv, 'POST', `/api/games/${made.id}/positions`, { body: {} });
  assert.equal(post.status, 405);
});

test('analysis: refused during a game between people, given once it is over', async () => {
  const made = await create({ game: 'kings-valley', seats: ['human', 'human'], position: 'ss1ss/2k2/5/5/SSKSS 1 10' });
  let r = await analyse(made, 0, made.seats[0].token);
  assert.equal(r.status, 403);
  assert.match(r.body.error, /once it is over/);
  for (const [seat, move] of [[0, 'a1-a4'], [1, 'e5-e2'], [0, 'c1-c3']]) assert.equal((await play(made, seat, move)).status, 200);
  r = await analyse(made, 0);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.to_move, 0);
  assert.equal(typeof r.body.move, 'string');
  assert.ok(r.body.win_chance >= 0 && r.body.win_chance <= 1);
  r = await analyse(made, 3);
  assert.deepEqual(r.body, { ply: 3, to_move: null, over: true });
  for (const bad of [-1, 4, 'x', 1.5]) {
    r = await analyse(made, bad);
    assert.equal(r.status, 400, String(bad));
    assert.match(r.body.error, /'ply' must be a whole number from 0 to 3/);
  }
  r = await api(srv, 'POST', `/api/games/${made.id}/analysis`, { raw: 'nope' });
  assert.equal(r.status, 400);
});

test('analysis against the AI: its player may ask, a spectator may not', async () => {
  const made = await create({ game: 'kings-valley', seats: ['human', 'ai:1'] });
  const r = await analyse(made, 0, made.seats[0].token);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal((await analyse(made, 0)).status, 403);
});

test('King of the Valley shows its positions at any time (only what is to come is hidden), no analysis', async () => {
  const made = await create({ game: 'king-of-the-valley', seats: ['human', 'ai:1'], seed: 3 });
  const r = await api(srv, 'GET', `/api/games/${made.id}/positions`);
  assert.equal(r.status, 200);
  assert.equal(r.body.positions.length, made.state.ply + 1);
  assert.ok(r.body.positions.every((p) => p.view && p.observation && p.position === undefined));
  assert.equal((await analyse(made, 0, made.seats[0].token)).status, 403);
});

// One answer of a 2,000-ply game was 10 MB and 0.67 s of the server's time, for anyone:
// positions now come in pages of at most 100 (?from=K), counted in their own
// per-address budget of expensive reads.
test('positions come in pages of 100, from any ply', async () => {
  const made = await create({ game: 'king-down', seats: ['random', 'random'], seed: 7, rules: { 'max-plies': 250 } });
  const over = await waitState(srv, made.id, (s) => s.status === 'over');
  assert.ok(over.ply > 200, `a random game of ${over.ply} plies`);
  const page = async (from) => api(srv, 'GET', `/api/games/${made.id}/positions${from === undefined ? '' : `?from=${from}`}`);
  const first = await page();
  assert.equal(first.status, 200);
  assert.equal(first.body.positions.length, 100);
  assert.equal(first.body.from, 0);
  assert.equal(first.body.total, over.ply + 1);
  const mid = await page(100);
  assert.deepEqual(mid.body.positions.map((p) => p.ply), Array.from({ length: 100 }, (_, i) => 100 + i));
  const last = await page(over.ply);
  assert.equal(last.body.positions.length, 1);
  assert.equal(last.body.positions[0].to_move, null);
  // The same position as the state after the game, reached page by page.
  assert.equal(last.body.positions[0].position, over.position);
  for (const bad of [over.ply + 1, -1, 'x', '1.5', '']) {
    const r = await page(bad);
    assert.equal(r.status, 400, `from=${bad}`);
    assert.match(r.body.error, new RegExp(`'from' must be a whole number from 0 to ${over.ply}`));
  }
});

test('pages of positions have their own budget per address', async () => {
  const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  // Up to 40 at once (less what this file's other tests took) and 4 a second after
  // that, then 429s; counted against the time taken, so that a slow machine passes too.
  const codes = [];
  const start = Date.now();
  let refused;
  while (codes.length < 400 && codes.at(-1) !== 429) {
    refused = await api(srv, 'GET', `/api/games/${made.id}/positions`);
    codes.push(refused.status);
  }
  const seconds = (Date.now() - start) / 1000;
  const served = codes.filter((c) => c === 200).length;
  assert.equal(codes.at(-1), 429, codes.join(' '));
  assert.ok(served >= 20 && served <= 40 + 4 * (seconds + 1), `${served} served in ${seconds} s`);
  // The refusal itself says why and when (a second request could already find a token
  // refilled on a slow machine, a quarter of a second later).
  assert.equal(refused.status, 429);
  assert.match(refused.body.error, /too many pages of positions read from your address; try again in \d+ s/);
  assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  // Writes are not held back by it: a move goes through.
  assert.equal((await play(made, 0, 'a1-a4')).status, 200);
});
