// analysis-api.test.mjs - the analysis board's endpoints (docs/API.md): POST
// /api/analysis, the engine's view of any position with its best line, and POST
// /api/observe's `moves`, a line played from a position; bad positions, lines and
// bodies refused in words; the AI queue's per-address limit on analyses.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, request, startServer, waitState, withServer } from './server.mjs';

let srv;

before(async () => { srv = await startServer(); });
after(async () => {
  const { code } = await srv.stop();
  assert.equal(code, 0, srv.stderr());
});

const analyse = (body) => api(srv, 'POST', '/api/analysis', { body });

test('analysis: a position and a line from it, with the best line', async () => {
  let r = await analyse({ game: 'kings-valley', position: 'ss1ss/2k2/5/5/SSKSS 1 10' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.to_move, 0);
  assert.equal(typeof r.body.move, 'string');
  assert.ok(r.body.win_chance >= 0 && r.body.win_chance <= 1);
  assert.ok(Array.isArray(r.body.line) && r.body.line.length >= 1);
  assert.equal(r.body.line[0], r.body.move);
  assert.equal(typeof r.body.words, 'string');
  // The same position asked again is searched alike (a fixed seed).
  const again = await analyse({ game: 'kings-valley', position: 'ss1ss/2k2/5/5/SSKSS 1 10' });
  assert.equal(again.body.move, r.body.move);
  r = await analyse({ game: 'king-down', rules: {}, moves: ['e2e4', 'e7e5'] });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.to_move, 0);
  r = await analyse({ game: 'kings-valley', position: 'ss1ss/2k2/5/5/SSKSS 1 10', moves: ['a1-a4', 'e5-e2', 'c1-c3'] });
  assert.deepEqual(r.body, { to_move: null, over: true });
});

test('observe: a line from a position, and chance outcomes to pick', async () => {
  let r = await api(srv, 'POST', '/api/observe', { body: { game: 'kings-valley', moves: ['a1-a4', 'e5-e2'] } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.position, 'ssks1/S4/5/4s/1SKSS 1 2');
  assert.equal(r.body.chance, undefined);
  // King of the Valley's refill draws a tile: chance acts, its outcomes listed.
  const line = ['place a1', 'place b1', 'a1-a2', 'refill L'];
  r = await api(srv, 'POST', '/api/observe', { body: { game: 'king-of-the-valley', moves: line } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.to_move, null);
  assert.deepEqual(r.body.legal, []);
  const sum = r.body.chance.reduce((t, c) => t + c.probability, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9, String(sum));
  const draw = r.body.chance.find((c) => c.text === 'draw D');
  assert.ok(draw, JSON.stringify(r.body.chance));
  r = await api(srv, 'POST', '/api/observe', { body: { game: 'king-of-the-valley', moves: [...line, 'draw D'] } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.notEqual(r.body.to_move, null);
  assert.deepEqual((await analyse({ game: 'king-of-the-valley', moves: line })).body, { to_move: null, over: false });
});

test('analysis: bad games, positions, lines and bodies are refused in words', async () => {
  const cases = [
    [{ game: 'chess' }, /'game' must be the name of a game/],
    [{ game: 'king-down', position: 'xx' }, /bad position: a position is a FEN/],
    [{ game: 'king-down', moves: ['e2e4', 'e2e4'] }, /action 2 of 'moves' \(e2e4\)/],
    [{ game: 'king-down', moves: 'e2e4' }, /'moves' must be a list of at most 1000 action texts/],
    [{ game: 'king-down', moves: [4] }, /item 1 is not a text/],
    [{ game: 'kings-valley', position: 'ss1ss/2k2/5/5/SSKSS 1 10', moves: ['a1-a4', 'e5-e2', 'c1-c3', 'a5-a4'] }, /comes after the end of the game/],
    [{ game: 'king-down', depth: 30 }, /unknown field 'depth'/],
    [{ game: 'king-of-the-valley', rules: { tiles: '/etc/passwd' } }, /must have a text value and name no file/],
    [{ game: 'king-down', players: 3 }, /'players' must be from 2 to 2/],
  ];
  for (const [body, re] of cases) {
    const r = await analyse(body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, re, JSON.stringify(body));
  }
  const raw = await api(srv, 'POST', '/api/analysis', { raw: 'nope' });
  assert.equal(raw.status, 400);
  assert.equal((await api(srv, 'GET', '/api/analysis')).status, 405);
});

test('analysis: a few waiting per address, as hints', async () => {
  await withServer(['--ai-threads', '1', '--hint-timeout', '1', '--ai-queue', '1'], async (s) => {
    // The one worker thinks on another address's AI game.
    const busy = await request(s, 'POST', '/api/games', { body: { game: 'king-down', seats: ['ai:10', 'human'], seed: 2 }, from: '127.0.0.2' });
    assert.equal(busy.status, 201);
    await waitState(s, busy.body.id, (st) => st.thinking === 0);
    const body = { game: 'kings-valley' };
    const first = request(s, 'POST', '/api/analysis', { body });
    await new Promise((r) => setTimeout(r, 200));
    const second = await request(s, 'POST', '/api/analysis', { body });
    assert.equal(second.status, 429, JSON.stringify(second.body));
    assert.match(second.body.error, /too many hints from your address/);
    assert.ok(Number(second.headers['retry-after']) > 0);
    const r = await first;
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.match(r.body.error, /AI workers were all busy/);
  });
});
