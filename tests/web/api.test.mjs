// api.test.mjs - the JSON API of `crown serve` against a real server on a free loopback
// port: every registered game created and played against the AI, two humans with
// tokens, 403 without the seat's token, 4xx with a JSON error for malformed requests,
// undo, hints, event streams, rate limits, one server per database, recovery after
// SIGKILL, and the upgrade of an older database schema. Run by tools/run-web-tests.sh
// with CROWN_BIN set to the build under test.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, events, startServer, tempDir, waitState } from './server.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseKotv } from '../../src/web/static/js/boards/kingofthevalley.js';

let srv;
let games;

before(async () => {
  srv = await startServer();
  games = (await api(srv, 'GET', '/api/games')).body.games;
});

after(async () => {
  const { code } = await srv.stop();
  assert.equal(code, 0, `crown serve should stop cleanly on SIGTERM:\n${srv.stderr()}`);
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
});

async function create(body) {
  const r = await api(srv, 'POST', '/api/games', { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

// The first legal move of a state, as its text.
const first = (state) => state.legal[0].text;

describe('games and set-up', () => {
  test('GET /api/games lists every game with its options', async () => {
    assert.ok(games.length >= 1);
    const names = games.map((g) => g.name);
    assert.ok(names.includes('kings-valley'));
    for (const g of games) {
      assert.equal(typeof g.summary, 'string');
      for (const o of g.options) {
        assert.equal(typeof o.default, 'string', `${g.name} ${o.name}`);
        assert.ok(['choice', 'integer', 'text', 'file'].includes(o.type));
        // A title in words for the form, and where the form shows it (issue 32).
        assert.match(o.title, /^[A-Z]/, `${g.name} ${o.name}`);
        assert.equal(typeof o.advanced, 'boolean', `${g.name} ${o.name}`);
        if (o.name === 'max-plies') assert.equal(o.title, 'Turn limit', g.name);
      }
    }
    const kd = games.find((g) => g.name === 'king-down').options;
    assert.deepEqual(kd.filter((o) => !o.advanced).map((o) => o.name), ['setup', 'armies']);
  });

  test('a text option is the game\'s to check; a file option is refused', async () => {
    const kd = games.find((g) => g.name === 'king-down').options.find((o) => o.name === 'setup');
    assert.equal(kd.type, 'text');
    assert.deepEqual(kd.suggestions, ['random', 'classic']);
    const tiles = games.find((g) => g.name === 'king-of-the-valley').options.find((o) => o.name === 'tiles');
    assert.equal(tiles.type, 'file');
    const made = await create({ game: 'king-down', seats: ['human', 'human'], rules: { setup: 'classic' } });
    const st = (await api(srv, 'GET', `/api/games/${made.id}`)).body;
    assert.equal(st.rules.setup, 'classic');
    assert.match(st.position, /^rnbqkbnr\//);
    const bad = await api(srv, 'POST', '/api/games', { body: { game: 'king-of-the-valley', rules: { tiles: '/tmp/tiles.txt' } } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /rule 'tiles' names a file on the server/);
  });

  test('every game: create with rule options, read back, legal moves with cells', async () => {
    for (const g of games) {
      const rules = Object.fromEntries(g.options.map((o) => [o.name, o.default]));
      const seats = Array.from({ length: g.min_players }, () => 'human');
      const made = await create({ game: g.name, seats, rules, seed: 5 });
      assert.match(made.id, /^[0-9a-f]{24}$/);
      assert.equal(made.seats.length, g.min_players);
      for (const s of made.seats) {
        assert.match(s.token, /^[0-9a-f]{32}$/);
        assert.equal(s.url, `/g/${made.id}#token=${s.token}`);
      }
      const watched = (await api(srv, 'GET', `/api/games/${made.id}`)).body;
      assert.equal(watched.you, null);
      // The seat to move sees its legal moves (in a hidden-information game only it does).
      const mover = made.seats[watched.to_move ?? 0];
      const st = (await api(srv, 'GET', `/api/games/${made.id}`, { token: mover.token })).body;
      assert.equal(st.game, g.name);
      assert.equal(st.you, mover.seat);
      // The seed decides the chance draws to come: hidden while a hidden game is played.
      assert.equal(st.seed, g.perfect_information ? 5 : null, g.name);
      assert.equal(watched.seed, g.perfect_information ? 5 : null, g.name);
      assert.deepEqual(st.rules, rules);
      if (!g.chance) assert.equal(st.ply, 0);
      assert.ok(st.legal.length > 0, g.name);
      if (g.perfect_information) assert.equal(typeof st.position, 'string');
      if (g.clickable) {
        // Every legal move names cells, except those that touch none (end, swap).
        assert.ok(st.legal.some((m) => m.cells.length > 0), g.name);
        for (const m of st.legal) for (const c of m.cells) assert.match(c, /^[a-z][0-9]+$/);
      }
      // The structured observation: the seat's own in a hidden-information game; every
      // cell a legal move names is one of its cells.
      assert.ok('observation' in st, g.name);
      if (st.observation) {
        assert.equal(st.observation.observer, g.perfect_information ? null : st.you, g.name);
        assert.equal(watched.observation.observer, null, g.name);
        const names = new Set(st.observation.cells.map((c) => c.name));
        for (const m of st.legal) for (const c of m.cells) assert.ok(names.has(c), `${g.name} ${c}`);
      }
    }
  });

  test('the observation describes the board', async () => {
    const made = await create({ game: 'kings-valley-labyrinth', seats: ['human', 'human'] });
    const obs = made.state.observation;
    assert.deepEqual(obs.zones, [{ name: 'board', shape: 'square', cols: 7, rows: 7 }]);
    const cell = (name) => obs.cells.find((c) => c.name === name);
    assert.deepEqual(cell('d1'), { name: 'd1', zone: 0, col: 3, row: 0, terrain: [], pieces: [{ kind: 'king', owner: 0 }] });
    assert.deepEqual(cell('a7').pieces, [{ kind: 'soldier', owner: 1 }]);
    assert.deepEqual(cell('d4').terrain, ['valley']);
    assert.deepEqual(cell('b3').terrain, ['pillar']);
    assert.deepEqual(obs.counters, { ply: 0 });
    const kg = await create({ game: 'kings-guard-8x8', seats: ['human', 'human'] });
    const r = await api(srv, 'POST', `/api/games/${kg.id}/moves`, { token: kg.seats[0].token, body: { move: 'd4' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d4 = r.body.observation.cells.find((c) => c.name === 'd4');
    assert.deepEqual(d4.terrain, ['origin']);
    assert.deepEqual(r.body.observation.counters, { turns: 0, placed: 0 });
    // King Down: armies and powers as counters, the hasted piece marked.
    const kd = await create({
      game: 'king-down', seats: ['human', 'human'], rules: { armies: 'on' },
      position: '4k3/8/2p5/8/8/8/1P2N3/4K3 w - - 0 1 armies:flame/frost powers:haste/freeze',
    });
    const kc = kd.state.observation.counters;
    assert.deepEqual([kc.army, kc.power, kc.tokens], [[2, 1], [4, 1], [1, 2]]);
    assert.deepEqual(kd.state.observation.cells.find((c) => c.name === 'e2').pieces, [{ kind: 'knight', owner: 0 }]);
    for (const move of ['haste', 'e2d4']) {
      const res = await api(srv, 'POST', `/api/games/${kd.id}/moves`, { token: kd.seats[0].token, body: { move } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      if (move === 'e2d4') {
        assert.deepEqual(res.body.observation.cells.find((c) => c.name === 'd4').terrain, ['haste']);
        assert.equal(res.body.observation.counters.stage, 3);
      }
    }
  });

  test('the end of a game: the result, and no more moves', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'], position: 'ss1ss/2k2/5/5/SSKSS 1 2' });
    const r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[0].token, body: { move: 'c1-c3' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'over');
    assert.equal(r.body.to_move, null);
    assert.deepEqual(r.body.legal, []);
    assert.match(r.body.result.text, /^first player wins: a king reached the Valley/);
    assert.deepEqual(r.body.result.returns, [1, -1]);
    const late = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[1].token, body: { move: 'a5-a1' } });
    assert.equal(late.status, 409);
    assert.match(late.body.error, /over/);
  });

  test('a position and a seed are kept', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'], position: 'sskss/5/5/5/SSKSS 2 3', seed: 42 });
    assert.equal(made.state.position, 'sskss/5/5/5/SSKSS 2 3');
    assert.equal(made.state.to_move, 1);
  });
});

describe('playing', () => {
  test('every game against the AI: a human move, then the AI answers', async () => {
    for (const g of games) {
      const seats = ['human', ...Array.from({ length: g.min_players - 1 }, () => 'ai:1')];
      const made = await create({ game: g.name, seats, seed: 1 });
      const token = made.seats[0].token;
      let st = (await api(srv, 'GET', `/api/games/${made.id}`, { token })).body;
      assert.equal(st.to_move, 0, g.name);
      const opening = first(st);
      // A turn may be several actions (King's Guard): play until the turn passes (the
      // answer may already hold the AI's reply).
      for (let i = 0; i < 20 && st.to_move === 0 && !st.moves.some((m) => m.seat === 1); i++) {
        const r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: first(st), ply: st.ply } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.equal(r.body.you, 0);
        st = r.body;
      }
      assert.equal(st.moves[0].text, opening);
      const mine = st.moves.filter((m) => m.seat === 0).length;
      // The AI may need several actions for its turn too; wait until the human moves again.
      const back = await waitState(srv, made.id, (s) => (s.to_move === 0 && s.moves.length > mine) || s.status === 'over');
      assert.ok(back.moves.length >= 2, g.name);
      assert.ok(back.moves.slice(1).some((m) => m.seat === 1), g.name);
      assert.equal(back.thinking, null);
    }
  });

  test('two humans: each seat moves with its own token; the other is refused', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    const [t0, t1] = made.seats.map((s) => s.token);
    let r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: t1, body: { move: 'b1-b4' } });
    assert.equal(r.status, 409);
    assert.match(r.body.error, /not your turn/);
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: t0, body: { move: 'b1-b4' } });
    assert.equal(r.status, 200);
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: t1, body: { move: 'a5-a2', ply: 1 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.moves.map((m) => m.text), ['b1-b4', 'a5-a2']);
    // A repeated request (same ply) cannot play twice.
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: t0, body: { move: 'e1-e4', ply: 1 } });
    assert.equal(r.status, 409);
  });

  test('403 without the seat token, with a wrong token; nothing changes', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    const before = (await api(srv, 'GET', `/api/games/${made.id}`)).body;
    const attempts = [
      {},
      { token: 'f'.repeat(32) },
      { token: 'not-a-token' },
      { headers: { authorization: 'Basic abc' } },
    ];
    for (const a of attempts) {
      for (const path of ['moves', 'undo', 'hint']) {
        const r = await api(srv, 'POST', `/api/games/${made.id}/${path}`, { ...a, body: { move: 'b1-b4' } });
        assert.equal(r.status, 403, `${path} ${JSON.stringify(a)}: ${JSON.stringify(r.body)}`);
        assert.equal(typeof r.body.error, 'string');
      }
    }
    // The token of another game is no better.
    const other = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    const r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: other.seats[0].token, body: { move: 'b1-b4' } });
    assert.equal(r.status, 403);
    const afterwards = (await api(srv, 'GET', `/api/games/${made.id}`)).body;
    assert.equal(afterwards.version, before.version);
    assert.equal(afterwards.ply, 0);
    assert.equal(afterwards.position, before.position);
  });

  test('illegal and unreadable moves: 422 and 400 with the reason', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    const token = made.seats[0].token;
    let r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: 'c1-c4' } });
    assert.equal(r.status, 422);
    assert.match(r.body.error, /soldier/);
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: 'hello' } });
    assert.equal(r.status, 400);
    assert.match(r.body.error, /from-to/);
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: 'b1-b4;b5-b2' } });
    assert.equal(r.status, 422, 'the second action is the other player\'s');
    assert.equal((await api(srv, 'GET', `/api/games/${made.id}`)).body.ply, 0);
  });

  test('a whole King\'s Guard turn in one text plays every action', async (t) => {
    if (!games.some((g) => g.name === 'kings-guard')) return t.skip('kings-guard is not registered');
    const made = await create({ game: 'kings-guard', seats: ['human', 'human'] });
    const token = made.seats[0].token;
    const pick = made.state.legal.find((m) => m.cells.length === 1);
    let r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: pick.text } });
    assert.equal(r.status, 200);
    const place = r.body.legal.find((m) => m.cells.length === 2);
    assert.equal(place.cells[0], pick.cells[0]);
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: place.text } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.ply >= 2);
  });

  test('undo against the AI takes back the AI reply too; refused between humans', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'random'] });
    const token = made.seats[0].token;
    await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: 'b1-b4' } });
    await waitState(srv, made.id, (s) => s.ply === 2);
    const r = await api(srv, 'POST', `/api/games/${made.id}/undo`, { token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.ply, 0);
    assert.equal(r.body.to_move, 0);
    assert.equal(r.body.position, made.state.position);
    const again = await api(srv, 'POST', `/api/games/${made.id}/undo`, { token });
    assert.equal(again.status, 409);
    const pvp = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    await api(srv, 'POST', `/api/games/${pvp.id}/moves`, { token: pvp.seats[0].token, body: { move: 'b1-b4' } });
    const refused = await api(srv, 'POST', `/api/games/${pvp.id}/undo`, { token: pvp.seats[0].token });
    assert.equal(refused.status, 409);
    assert.match(refused.body.error, /against the AI/);
  });

  test('a hint is a legal move of the seat to move', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'], hints: true });
    const r = await api(srv, 'POST', `/api/games/${made.id}/hint`, { token: made.seats[0].token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(made.state.legal.some((m) => m.text === r.body.move));
    assert.equal(r.body.cells.length, 2);
    const notYours = await api(srv, 'POST', `/api/games/${made.id}/hint`, { token: made.seats[1].token });
    assert.equal(notYours.status, 409);
  });

  test('the record is a crown record of the game', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[0].token, body: { move: 'b1-b4' } });
    const r = await api(srv, 'GET', `/api/games/${made.id}/record`);
    assert.equal(r.status, 200);
    assert.match(r.body, /^crown-record 1\ngame kings-valley\n/);
    assert.match(r.body, /\nplayers human,human\n/);
    assert.match(r.body, /\nmove b1-b4\n/);
  });
});

describe('hidden information: King of the Valley', () => {
  const KOTV = 'king-of-the-valley';
  const get = async (id, token) => (await api(srv, 'GET', `/api/games/${id}`, { token })).body;
  const positionLine = (view) => view.split('\n').find((l) => l.startsWith('Position: '));

  // Plays the first legal action of whoever is to move, `count` times, with its token.
  async function playFirst(made, count) {
    for (let i = 0; i < count; i++) {
      const mover = (await get(made.id)).to_move;
      if (mover === null) return;
      const st = await get(made.id, made.seats[mover].token);
      const r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[mover].token, body: { move: first(st), ply: st.ply } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  }

  test('each seat sees its own view, every action (all are public) and its legal moves; a spectator the public view', async () => {
    const made = await create({ game: KOTV, seats: ['human', 'human', 'human'], seed: 9 });
    // Past the set-up and through a whole turn, chance draws included.
    await playFirst(made, 12);
    const watched = await get(made.id);
    assert.ok(watched.moves.some((m) => m.chance), 'the hill was refilled by chance');
    const states = await Promise.all(made.seats.map((s) => get(made.id, s.token)));
    const everyone = [...states, watched];
    for (const [seat, st] of states.entries()) {
      assert.equal(st.you, seat);
      assert.equal(st.position, undefined);
      assert.equal(st.board, undefined);
      assert.ok(st.view.startsWith(`View of player ${seat + 1}.`), st.view.slice(0, 40));
      assert.equal(st.seed, null, 'the seed would tell the draws to come');
      // Only the seat to move gets legal moves. Every action is public once made (only
      // the pile order is hidden), so every seat sees the same move list.
      assert.equal(st.legal.length > 0, seat === st.to_move, `seat ${seat}`);
      assert.deepEqual(st.moves, watched.moves, `seat ${seat}`);
    }
    assert.equal(watched.you, null);
    assert.ok(watched.view.startsWith('View of a spectator.'));
    assert.deepEqual(watched.legal, []);
    assert.ok(watched.moves.every((m) => typeof m.text === 'string'));
    assert.ok(watched.moves.some((m) => m.chance && /^draw /.test(m.text)), 'draws are shown');
    assert.equal(watched.seed, null);
    // The state is public: every view, the spectator's too, has the same position line,
    // and the board drawer reads the same table from each.
    const line = positionLine(watched.view);
    assert.ok(line, watched.view);
    for (const st of everyone) assert.equal(positionLine(st.view), line);
    const model = parseKotv(watched);
    assert.equal(model.n, 3);
    assert.equal(model.valley.size, 25);
    assert.equal(model.players.filter((p) => p.king).length, 3, 'every king is placed');
    assert.equal(model.turn, watched.to_move);
    // Influence comes from the game's tile table, not from the drawer's defaults.
    assert.deepEqual([model.influence.Q, model.influence.D, model.influence.NA, model.influence.J], [5, 4, 2, 0]);
    assert.equal(model.influence['T3:5'], undefined);
    // The piles are counts (their order is hidden from everybody): the drawing's pile
    // sizes are the view's pile lines added up.
    for (const [i, size] of model.piles.entries()) {
      const pileLine = watched.view.split('\n').find((l) => l.startsWith(`Pile ${['I', 'II', 'III'][i]} holds: `));
      const items = pileLine.slice(pileLine.indexOf(': ') + 2).split(',').filter((x) => x !== '-');
      assert.equal(size, items.reduce((a, item) => a + Number(item.match(/^(\d*)/)[1] || 1), 0), `pile ${i + 1}`);
    }
    // Nothing is private: every seat's observation is the spectator's but for `observer`.
    for (const [seat, st] of states.entries()) {
      assert.equal(st.observation.observer, seat);
      assert.deepEqual({ ...st.observation, observer: null }, watched.observation);
    }
    // The record holds what every seat has seen (the draws made) and no seed, which
    // would tell the draws to come: anyone may have it while the game is played.
    for (const token of [undefined, made.seats[0].token]) {
      const r = await api(srv, 'GET', `/api/games/${made.id}/record`, { token });
      assert.equal(r.status, 200);
      assert.doesNotMatch(r.body, /seed/);
      assert.deepEqual(r.body.split('\n').filter((l) => l.startsWith('move ')), watched.moves.map((m) => `move ${m.text}`));
    }
  });

  test('the view does not depend on the seed, which decides the draws to come', async () => {
    const base = await create({ game: KOTV, seats: ['human', 'human'], seed: 21 });
    const position = positionLine((await get(base.id)).view).slice('Position: '.length);
    const a = await create({ game: KOTV, seats: ['human', 'human'], seed: 1, position });
    const b = await create({ game: KOTV, seats: ['human', 'human'], seed: 2, position });
    for (const seat of [0, 1]) {
      const sa = await get(a.id, a.seats[seat].token);
      const sb = await get(b.id, b.seats[seat].token);
      assert.equal(sa.view, sb.view);
      assert.equal(sa.seed, null);
    }
    assert.equal(a.state.seed, null, 'not in the answer to the creation either');
  });

  test('a move with another seat\'s token, a foreign token or none is refused and changes nothing', async () => {
    const made = await create({ game: KOTV, seats: ['human', 'human'], seed: 4 });
    const other = await create({ game: KOTV, seats: ['human', 'human'], seed: 4 });
    await playFirst(made, 2);
    const before = await Promise.all([undefined, ...made.seats.map((s) => s.token)].map((t) => get(made.id, t)));
    const mover = before[0].to_move;
    const idle = made.seats[1 - mover];
    const move = first(before[1 + mover]);
    // The other seat's token is a real seat's, so the server knows it is not its turn.
    let r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: idle.token, body: { move } });
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.match(r.body.error, /not your turn/);
    for (const token of [undefined, other.seats[mover].token, 'e'.repeat(32)]) {
      r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move } });
      assert.equal(r.status, 403, JSON.stringify(r.body));
    }
    // The other seat cannot ask for a hint or undo for the seat to move either.
    r = await api(srv, 'POST', `/api/games/${made.id}/hint`, { token: idle.token });
    assert.equal(r.status, 409);
    const afterwards = await Promise.all([undefined, ...made.seats.map((s) => s.token)].map((t) => get(made.id, t)));
    for (const [i, st] of afterwards.entries()) {
      assert.equal(st.version, before[i].version);
      assert.equal(st.ply, before[i].ply);
      assert.equal(st.view, before[i].view);
    }
    // The mover's own token plays it.
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[mover].token, body: { move, ply: before[0].ply } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });

  test('a tax naming no tiles where they differ is refused with an example; the typed choice plays', async () => {
    const position = 'players=2 first=1 turn=1 turns=2 phase=kingdom end=0 '
      + 'valley=-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/W,W,W,W,W/F,T0:3,-,T4:7,W kings=c1,e5 '
      + 'hill=C,C,C,C,C,C/D,D,D,D,D,D pile1=- pile2=- pile3=- gold=0,2 crowns=0,0 taxed=W,- '
      + 'up1=3F,JF,2W down1=- up2=- down2=- holes=c1 pending=T3:5';
    const made = await create({ game: KOTV, seats: ['human', 'human'], position });
    const token = made.seats[0].token;
    const st = await get(made.id, token);
    assert.deepEqual(st.legal.map((m) => m.text), ['tax F:F,F,F', 'tax F:F,F,JF']);
    let r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: 'tax F' } });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.match(r.body.error, /say which 3 go face down, e\.g\. tax F:F,F,F/);
    r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: 'tax F:JF,F,F' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await get(made.id)).moves[0].text, 'tax F:F,F,JF');
  });

  test('once the game is over the seed and the record are shown', async () => {
    // One round only (max-rounds=1): the set-up and one turn each.
    const made = await create({ game: KOTV, seats: ['human', 'human'], seed: 6, rules: { 'max-rounds': 1 } });
    await playFirst(made, 40);
    const over = await get(made.id);
    assert.equal(over.status, 'over');
    assert.equal(over.seed, 6);
    assert.match(over.result.text, /reputation/);
    const r = await api(srv, 'GET', `/api/games/${made.id}/record`);
    assert.equal(r.status, 200);
    assert.match(r.body, /\nmove draw /);
  });
});

describe('event streams', () => {
  test('a watcher sees the state at once and every move without asking', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    const watcher = events(srv, made.id);
    const second = events(srv, made.id, made.seats[1].token);
    try {
      assert.equal((await watcher.next()).ply, 0);
      assert.equal((await second.next()).you, 1);
      await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[0].token, body: { move: 'b1-b4' } });
      const seen = await watcher.next((s) => s.ply === 1);
      assert.equal(seen.moves[0].text, 'b1-b4');
      const mine = await second.next((s) => s.ply === 1);
      assert.equal(mine.to_move, 1);
      assert.equal(mine.you, 1);
    } finally {
      await watcher.close();
      await second.close();
    }
  });

  test('the AI thinking shows, and other requests are served meanwhile', async () => {
    // Level 9 stops at 300,000 nodes, about a second on 7x7: reads must not wait for it.
    const made = await create({ game: 'kings-valley-7x7', seats: ['ai:9', 'human'] });
    const stream = events(srv, made.id);
    try {
      await stream.next((s) => s.thinking === 0);
      let slowest = 0;
      for (let i = 0; i < 20; i++) {
        const t = Date.now();
        const r = await api(srv, 'GET', `/api/games/${made.id}`);
        slowest = Math.max(slowest, Date.now() - t);
        assert.equal(r.status, 200);
      }
      const other = await create({ game: 'kings-valley', seats: ['human', 'human'] });
      assert.ok(other.id);
      assert.ok(slowest < 1000, `a read took ${slowest} ms while the AI was thinking`);
      const moved = await stream.next((s) => s.ply === 1, 30000);
      assert.equal(moved.thinking, null);
      assert.equal(moved.to_move, 1);
    } finally {
      await stream.close();
    }
  });
});

describe('many event streams', () => {
  // Raw sockets: 600 streams cost the test little; each counts the states it has seen.
  function rawStream(url, id) {
    const { hostname, port } = new URL(url);
    const s = { plies: [], sock: null };
    s.opened = new Promise((resolve, reject) => {
      s.sock = connect(Number(port), hostname, () => {
        s.sock.write(`GET /api/games/${id}/events HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
      });
      let buf = '';
      s.sock.on('data', (d) => {
        buf += d;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const m = buf.slice(0, i).match(/"ply":(\d+)/);
          buf = buf.slice(i + 2);
          if (m) { s.plies.push(Number(m[1])); resolve(); }
        }
      });
      s.sock.on('error', reject);
      // A refused connection must fail the test, not leave it waiting for ever.
      s.sock.on('close', () => reject(new Error('the stream was closed before its first state')));
    });
    return s;
  }
  const health = async (server) => (await api(server, 'GET', '/api/health')).body.streams;

  test('600 streams are held, others are served, a move reaches all, a close frees at once', async () => {
    // 100 connections at once from one address: more heads in flight than the default.
    const server = await startServer({ args: ['--max-per-ip', '1000', '--heads-per-ip', '1000', '--streams-per-game', '1000'] });
    const streams = [];
    try {
      const made = (await api(server, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'] } })).body;
      for (let i = 0; i < 600; i += 100) {
        const batch = [];
        for (let j = 0; j < 100; j++) batch.push(rawStream(server.url, made.id));
        await Promise.all(batch.map((s) => s.opened));
        streams.push(...batch);
      }
      assert.equal(await health(server), 600);
      // Another client is served at once while the streams wait.
      let slowest = 0;
      for (let i = 0; i < 10; i++) {
        const t = Date.now();
        const r = await api(server, 'GET', `/api/games/${made.id}`);
        assert.equal(r.status, 200);
        slowest = Math.max(slowest, Date.now() - t);
      }
      assert.ok(slowest < 1000, `a read took ${slowest} ms with 600 streams open`);
      const moved = await api(server, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[0].token, body: { move: 'b1-b4' } });
      assert.equal(moved.status, 200);
      const deadline = Date.now() + 10000;
      while (streams.some((s) => !s.plies.includes(1)) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(streams.filter((s) => s.plies.includes(1)).length, 600);
      // A second broadcast through the same sending threads: each stream sees the plies
      // in order, once each.
      const again = await api(server, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[1].token, body: { move: moved.body.legal[0].text } });
      assert.equal(again.status, 200);
      while (streams.some((s) => !s.plies.includes(2)) && Date.now() < deadline + 10000)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(streams.filter((s) => s.plies.join() === '0,1,2').length, 600);
      // A stream closed by its client leaves at once, not at the next keep-alive.
      streams.pop().sock.destroy();
      const t = Date.now();
      while ((await health(server)) !== 599 && Date.now() - t < 3000)
        await new Promise((r) => setTimeout(r, 20));
      assert.equal(await health(server), 599, 'the closed stream is still counted');
    } finally {
      for (const s of streams) s.sock.destroy();
      await server.stop();
    }
  });
});

describe('malformed requests get a 4xx and a JSON error', () => {
  test('creating games', async () => {
    const cases = [
      [{ raw: '{not json' }, 400, /not valid JSON/],
      [{ raw: '[1,2]' }, 400, /JSON object/],
      [{ raw: '' }, 400, /JSON object/],
      [{ raw: '{"game":"kings-valley","game":"x"}' }, 400, /duplicate|not valid/],
      [{ body: { game: 'no-such-game' } }, 400, /no game called/],
      [{ body: { game: 42 } }, 400, /'game'/],
      [{ body: { game: 'kings-valley', seats: ['human'] } }, 400, /2 to 2 players/],
      [{ body: { game: 'kings-valley', seats: ['human', 'wizard'] } }, 400, /wizard/],
      [{ body: { game: 'kings-valley', seats: 'human,ai' } }, 400, /'seats'/],
      [{ body: { game: 'kings-valley', rules: { 'max-plies': 99999 } } }, 400, /max-plies/],
      [{ body: { game: 'kings-valley', rules: { nonsense: 'on' } } }, 400, /nonsense/],
      [{ body: { game: 'kings-valley', rules: { trap: ['x'] } } }, 400, /trap/],
      [{ body: { game: 'king-of-the-valley', rules: { tiles: '/etc/passwd' } } }, 400, /names a file on the server/],
      // The name and the value stay apart: an '=' in a name is part of a name no game has.
      [{ body: { game: 'king-of-the-valley', rules: { 'tiles=/etc/passwd': 'y' } } }, 400, /has no rule 'tiles=\/etc\/passwd'/],
      [{ body: { game: 'king-down', rules: { 'setup=x': 'classic' } } }, 400, /has no rule 'setup=x'/],
      [{ body: { game: 'king-down', rules: { setup: 'no-such-set-up' } } }, 400, /setup is random, classic/],
      [{ body: { game: 'kings-valley', seed: -1 } }, 400, /seed/],
      [{ body: { game: 'kings-valley', seed: 1.5 } }, 400, /seed/],
      [{ body: { game: 'kings-valley', position: 'zzz' } }, 400, /position/],
      [{ body: { game: 'kings-valley', colour: 'red' } }, 400, /unknown field 'colour'/],
      [{ raw: '{"game":"kings-valley\u0000"}' }, 400, /control character/],
      [{ raw: '{"game":"kings-valley\\u0000"}' }, 400, /not allowed|JSON/],
      [{ raw: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) }, 400, /JSON/],
    ];
    for (const [opts, status, re] of cases) {
      const r = await api(srv, 'POST', '/api/games', opts);
      assert.equal(r.status, status, `${JSON.stringify(opts)} -> ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.error, 'string', JSON.stringify(opts));
      assert.match(r.body.error, re, JSON.stringify(opts));
    }
  });

  test('moves, paths, methods and sizes', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    const token = made.seats[0].token;
    const id = made.id;
    const cases = [
      ['POST', `/api/games/${id}/moves`, { token, raw: 'nope' }, 400],
      ['POST', `/api/games/${id}/moves`, { token, body: {} }, 400],
      ['POST', `/api/games/${id}/moves`, { token, body: { move: 7 } }, 400],
      ['POST', `/api/games/${id}/moves`, { token, body: { move: 'b1-b4', ply: 'x' } }, 400],
      ['POST', `/api/games/${id}/moves`, { token, body: { move: 'b1-b4', extra: 1 } }, 400],
      ['POST', `/api/games/${id}/moves`, { token, body: { move: 'b1-b4'.repeat(300) } }, 400],
      ['POST', `/api/games/${id}/moves`, { token, raw: '{"move":"b1\\u0000-b4"}' }, 400],
      // Quoted back cut after 20 bytes, in the middle of a character: still a JSON error.
      ['POST', `/api/games/${id}/moves`, { token, body: { move: `${'é'.repeat(15)}` } }, 400],
      ['POST', `/api/games/${id}/moves`, { token, body: { move: `a${'€'.repeat(10)}` } }, 400],
      ['GET', `/api/games/${id}/moves`, {}, 405],
      ['POST', `/api/games/${id}`, { body: {} }, 405],
      ['DELETE', `/api/games/${id}`, {}, 405],
      ['GET', '/api/games/0123456789abcdef01234567', {}, 404],
      ['GET', '/api/games/../../etc/passwd', {}, 404],
      ['GET', `/api/games/${id}/teleport`, {}, 404],
      ['GET', '/api/nothing', {}, 404],
      ['GET', '/no/such/page.js', {}, 404],
      ['GET', `/api/games/${id}`, { token: 'a'.repeat(32) }, 403],
      ['POST', '/api/games', { raw: 'x'.repeat(40000) }, 413],
    ];
    for (const [method, path, opts, status] of cases) {
      const r = await api(srv, method, path, opts);
      assert.equal(r.status, status, `${method} ${path} ${JSON.stringify(opts).slice(0, 80)} -> ${JSON.stringify(r.body).slice(0, 200)}`);
      if (method !== 'HEAD') assert.equal(typeof r.body.error, 'string', `${method} ${path}`);
    }
    // A chunked body that never says its size is cut off at the bound too.
    const big = new ReadableStream({
      start(c) { for (let i = 0; i < 40; i++) c.enqueue(new TextEncoder().encode('x'.repeat(1000))); c.close(); },
    });
    const r = await fetch(`${srv.url}/api/games`, { method: 'POST', body: big, duplex: 'half' });
    assert.equal(r.status, 413);
    // Huge headers are refused by the HTTP layer, and the server goes on.
    const h = await fetch(`${srv.url}/api/games`, { headers: { 'x-big': 'y'.repeat(100000) } }).catch((e) => e);
    assert.ok(h instanceof Error || h.status >= 400);
    assert.equal((await api(srv, 'GET', `/api/games/${id}`)).body.ply, 0);
  });
});

describe('bounds', () => {
  test('writes are rate limited per address with 429 and Retry-After', async () => {
    const limited = await startServer({ args: ['--rate', '1'] });
    try {
      let refused = null;
      for (let i = 0; i < 30 && !refused; i++) {
        const r = await api(limited, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'] } });
        if (r.status === 429) refused = r;
        else assert.equal(r.status, 201);
      }
      assert.ok(refused, 'no request was refused');
      assert.match(refused.body.error, /too many requests/);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
      // Reading is never limited.
      assert.equal((await api(limited, 'GET', '/api/games')).status, 200);
    } finally {
      assert.equal((await limited.stop()).code, 0);
    }
  });

  test('one server per database', async () => {
    const again = await startServer({ db: srv.db }).then((s) => s, (e) => e);
    if (!(again instanceof Error)) await again.stop();
    assert.ok(again instanceof Error, 'a second server opened the same database');
    assert.match(again.message, /in use by another crown serve/);
  });
});

describe('recovery', () => {
  test('after SIGKILL every acknowledged game and move is back exactly', async () => {
    const dir = tempDir();
    const db = join(dir, 'crown.db');
    let s1 = await startServer({ db });
    const made = [];
    const games2 = games.filter((g) => g.min_players === 2);
    for (const g of games2) {
      const vsAi = await api(s1, 'POST', '/api/games', { body: { game: g.name, seats: ['human', 'random'], seed: 3 } });
      const pvp = await api(s1, 'POST', '/api/games', { body: { game: g.name, seats: ['human', 'human'], seed: 4 } });
      made.push(vsAi.body, pvp.body);
    }
    // Play a few actions in each, the AI answering in the first kind.
    for (const m of made) {
      for (let i = 0; i < 3; i++) {
        const watched = (await api(s1, 'GET', `/api/games/${m.id}`)).body;
        const seatNow = m.seats.find((x) => x.seat === watched.to_move);
        const st = (await api(s1, 'GET', `/api/games/${m.id}`, { token: seatNow?.token })).body;
        if (st.status === 'over') break;
        const seat = m.seats.find((x) => x.seat === st.to_move);
        if (seat && seat.player === 'human' && st.you !== seat.seat) continue; // it moved on
        if (!seat || seat.player !== 'human') {
          await waitState(s1, m.id, (x) => x.ply > st.ply || x.status === 'over');
          continue;
        }
        const r = await api(s1, 'POST', `/api/games/${m.id}/moves`, { token: seat.token, body: { move: first(st), ply: st.ply } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      }
    }
    // The last state each game acknowledged, then a crash in the middle of play: an AI
    // game left thinking (level 10, five seconds a move) and a burst of moves in flight.
    const acked = new Map();
    for (const m of made) {
      await waitState(s1, m.id, (x) => x.thinking === null);
      acked.set(m.id, (await api(s1, 'GET', `/api/games/${m.id}`, { token: m.seats[0].token })).body);
    }
    const thinker = (await api(s1, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['ai:10', 'human'] } })).body;
    await waitState(s1, thinker.id, (x) => x.thinking === 0);
    const pending = new Map(); // game id -> the move sent but never acknowledged
    // (Moves in flight only where seat 0's view is everybody's: perfect information.)
    const inflight = made.filter((m) => m.seats[1].player === 'human' && acked.get(m.id).position).map(async (m) => {
      const st = acked.get(m.id);
      if (st.status === 'over' || st.to_move !== 0) return null;
      const seat = m.seats[0];
      pending.set(m.id, first(st));
      const r = await api(s1, 'POST', `/api/games/${m.id}/moves`, { token: seat.token, body: { move: first(st), ply: st.ply } }).catch(() => null);
      return r && r.status === 200 ? [m.id, r.body] : null;
    });
    const killed = s1.kill();
    for (const r of await Promise.all(inflight)) {
      if (r) {
        acked.set(r[0], r[1]);
        pending.delete(r[0]);
      }
    }
    assert.equal((await killed).signal, 'SIGKILL');

    const s2 = await startServer({ db });
    try {
      for (const m of made) {
        const want = acked.get(m.id);
        const got = (await api(s2, 'GET', `/api/games/${m.id}`, { token: m.seats[0].token })).body;
        // A move whose answer never came may have been committed just before the kill;
        // nothing acknowledged may be missing, and nothing else may be added.
        if (pending.has(m.id) && got.ply === want.ply + 1) {
          assert.deepEqual(got.moves.slice(0, -1), want.moves, `${m.id} (${want.game}) moves`);
          assert.equal(got.moves.at(-1).text, pending.get(m.id));
          continue;
        }
        for (const k of ['game', 'ply', 'position', 'moves', 'rules', 'seats', 'seed', 'status'])
          assert.deepEqual(got[k], want[k], `${m.id} (${want.game}) ${k}`);
        // The tokens still open the seats.
        assert.equal(got.you, 0);
      }
      // The game whose AI was thinking carries on by itself.
      const st = await waitState(s2, thinker.id, (x) => x.ply === 1, { timeoutMs: 30000 });
      assert.equal(st.to_move, 1);
    } finally {
      assert.equal((await s2.stop()).code, 0);
    }
  });
});

describe('schema versions', () => {
  // tests/web/fixtures/schema-v1.db was written by crown serve before the schema had
  // versions (version 1): one King's Valley game between two humans after b1-b4, a5-a2.
  test('a version-1 database is upgraded in place and its games play on', async () => {
    const db = join(tempDir(), 'crown.db');
    copyFileSync(new URL('./fixtures/schema-v1.db', import.meta.url), db);
    const id = '35d417a39aa2a2153d84443a';
    const token = 'a225b9698e5ad52c2d7a6cda0afe6181';
    let s = await startServer({ db });
    try {
      const st = (await api(s, 'GET', `/api/games/${id}`, { token })).body;
      assert.deepEqual(st.moves.map((m) => m.text), ['b1-b4', 'a5-a2']);
      const r = await api(s, 'POST', `/api/games/${id}/moves`, { token, body: { move: 'c1-c4', ply: 2 } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    } finally {
      assert.equal((await s.stop()).code, 0);
    }
    // Upgraded: the version recorded, the new columns there and set.
    assert.equal(execFileSync('sqlite3', [db, 'SELECT version FROM schema_version']).toString().trim(), '15');
    const [created, updated, finished] = execFileSync('sqlite3', [db, `SELECT created, updated, finished FROM games WHERE id = '${id}'`]).toString().trim().split('|').map(Number);
    assert.ok(updated > created, `updated ${updated} after the move, created ${created}`);
    assert.equal(finished, 0);
    // Opened again (now at the current version): nothing to upgrade, nothing lost.
    s = await startServer({ db });
    try {
      const st = (await api(s, 'GET', `/api/games/${id}`, { token })).body;
      assert.deepEqual(st.moves.map((m) => m.text), ['b1-b4', 'a5-a2', 'c1-c4']);
    } finally {
      assert.equal((await s.stop()).code, 0);
    }
  });

  test('a database of a newer schema than this build is refused', async () => {
    const db = join(tempDir(), 'crown.db');
    const s = await startServer({ db });
    assert.equal((await s.stop()).code, 0);
    execFileSync('sqlite3', [db, 'UPDATE schema_version SET version = 99']);
    await assert.rejects(startServer({ db }), /schema is version 99, newer than this crown/);
  });
});

// Issue 32: after ./play the review had no graph (its library came only with the test
// dependencies), and the first build sat silent for a minute.
describe('./play', () => {
  const root = new URL('../..', import.meta.url).pathname;

  test('installs the review graph\'s library before it builds, and the server serves it', async () => {
    const play = readFileSync(join(root, 'play'), 'utf8');
    assert.match(play, /^tools\/install-deps\.sh play$/m);
    assert.match(play, /^tools\/build-progress\.sh .*BUILD=release$/m);
    assert.match(play, /crown serve --limits home "\$@"$/m);
    const set = execFileSync(join(root, 'tools/install-deps.sh'), ['play', '--list'], { encoding: 'utf8' }).split('\n');
    for (const want of ['npm', 'npm:src/web/vendor', 'libmicrohttpd-dev']) assert.ok(set.includes(want), `${want} in ${set}`);
    const r = await api(srv, 'GET', '/vendor/uPlot.esm.js');
    assert.equal(r.status, 200);
    assert.match(r.body, /uPlot/);
  });

  test('the build shows one progress line, counting files, and make\'s output on a failure', () => {
    const dir = tempDir();
    const fake = join(dir, 'make');
    // A make that compiles three files, or fails at the second when FAIL is set.
    writeFileSync(fake, `#!/bin/sh
for a; do [ "$a" = -n ] && { for f in a b c; do echo 'echo "  CC      '$f'.c"'; done; exit 0; }; done
echo "  CC      a.c"; [ -n "\${FAIL:-}" ] && { echo "b.c: error: oops"; exit 2; }
echo "  CC      b.c"; echo "  CC PIC  c.c"; echo "  LINK    crown"
`, { mode: 0o755 });
    const run = (env) => spawnSync(join(root, 'tools/build-progress.sh'), ['BUILD=release'], { encoding: 'utf8', env: { ...process.env, MAKE: fake, ...env } });
    const ok = run({});
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^building crown: 3\/3 files$/m);
    assert.doesNotMatch(ok.stdout, /CC|LINK/);
    const bad = run({ FAIL: '1' });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /b\.c: error: oops/);
  });
});
