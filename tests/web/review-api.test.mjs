// review-api.test.mjs - the review endpoints of crown serve (docs/API.md): every
// position of a game, and the AI's evaluation of one, with their refusals: a bad ply,
// evaluations during a game between people; King of the Valley's positions during play
// (its only secret is what is to come), without evaluations. Small and quick: it runs in
// the sanitizer and release builds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, startServer } from './server.mjs';

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
