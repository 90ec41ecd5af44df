// import-api.test.mjs - POST /api/import (docs/API.md): a played game of every game,
// King of the Valley with 2, 3 and 4 players and its chance draws included, exported
// and imported again gives the same positions, moves and result; an unfinished King of
// the Valley game exports without its seed and imports mid-game; a bad record names
// its line and creates nothing. Games are cut short by their own rules (max-plies,
// max-rounds) to keep the suite to a few seconds in every build.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, startServer } from './server.mjs';

let srv;

before(async () => { srv = await startServer(); });
after(async () => {
  const { code } = await srv.stop();
  assert.equal(code, 0, srv.stderr());
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer/);
});

async function create(body) {
  const r = await api(srv, 'POST', '/api/games', { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

// Plays until the end or `limit` actions, the seat to move choosing by a fixed rule.
async function play(made, limit = Infinity) {
  let st = made.state;
  for (let k = 0; st.status !== 'over' && k < limit; k++) {
    const token = made.seats[st.to_move].token;
    // Everybody sees the legal moves of a game of perfect information; else the mover.
    const legal = st.legal?.length ? st.legal : (await api(srv, 'GET', `/api/games/${made.id}`, { token })).body.legal;
    const r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: legal[(k * 7) % legal.length].text } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    st = r.body;
  }
  return st;
}

// What a spectator is shown, which must be the same for the game and its import.
async function shown(id) {
  const s = (await api(srv, 'GET', `/api/games/${id}`)).body;
  return { ply: s.ply, status: s.status, to_move: s.to_move, result: s.result, observation: s.observation, view: s.view, position: s.position, board: s.board, moves: s.moves.map((m) => [m.seat, m.text]) };
}

async function roundTrip(made) {
  const exported = await api(srv, 'GET', `/api/games/${made.id}/record`, { token: made.seats[0].token });
  assert.equal(exported.status, 200, JSON.stringify(exported.body));
  const imported = await api(srv, 'POST', '/api/import', { body: { record: exported.body } });
  assert.equal(imported.status, 201, JSON.stringify(imported.body));
  assert.deepEqual(await shown(imported.body.id), await shown(made.id));
  const again = await api(srv, 'GET', `/api/games/${imported.body.id}/record`);
  assert.equal(again.body, exported.body, 'the import exports the same record');
  return { record: exported.body, imported: imported.body };
}

const SHORT = { 'max-plies': 4, 'max-rounds': 1 };

test('every game, played to its end, exports and imports to the same game', async () => {
  const games = (await api(srv, 'GET', '/api/games')).body.games;
  const cases = [];
  for (const g of games) {
    const rules = {};
    for (const o of g.options) {
      if (o.name in SHORT) rules[o.name] = Math.max(SHORT[o.name], o.min);
    }
    if (g.name === 'king-down') rules.armies = 'on';
    for (let n = g.min_players; n <= g.max_players; n++) cases.push({ game: g.name, n, rules });
  }
  assert.deepEqual(cases.filter((c) => c.game === 'king-of-the-valley').map((c) => c.n), [2, 3, 4]);
  for (const c of cases) {
    const made = await create({ game: c.game, seats: Array(c.n).fill('human'), rules: c.rules });
    const end = await play(made, 400);
    assert.equal(end.status, 'over', `${c.game} with ${c.n} players ends`);
    const { record } = await roundTrip(made);
    if (c.game === 'king-of-the-valley') assert.match(record, /\nmove draw /, 'its chance draws are in the record');
  }
});

test('King of the Valley mid-game: a player exports no seed, and the import plays on', async () => {
  const made = await create({ game: 'king-of-the-valley', seats: ['human', 'human', 'human'] });
  const st = await play(made, 12);
  assert.equal(st.status, 'playing');
  assert.equal(st.seed, null);
  const { record, imported } = await roundTrip(made);
  assert.doesNotMatch(record, /seed/);
  // The import is a game of its own: every seat a person's, the same one to move.
  const again = (await api(srv, 'GET', `/api/games/${imported.id}`, { token: imported.seats[st.to_move].token })).body;
  assert.equal(again.you, st.to_move);
  const r = await api(srv, 'POST', `/api/games/${imported.id}/moves`, { token: imported.seats[st.to_move].token, body: { move: again.legal[0].text } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
});

test('a bad record says which line is wrong and creates nothing', async () => {
  const made = await create({ game: 'king-of-the-valley', seats: ['human', 'human'], rules: { 'max-rounds': 2 } });
  await play(made, 8);
  const record = (await api(srv, 'GET', `/api/games/${made.id}/record`)).body;
  const lines = record.split('\n');
  const at = lines.findIndex((l) => l.startsWith('move draw '));
  const before = (await api(srv, 'GET', '/api/stats')).body.games_in_memory;
  const bad = [
    [lines.map((l, i) => (i === at ? 'move draw NQ' : l)).join('\n'), new RegExp(`^the record: line ${at + 1}: move \\d+ 'draw NQ'`)],
    [record.replace('rule tiles=builtin', 'rule tiles=/etc/passwd'), /line \d+: rule 'tiles' names a file on the server/],
    ['crown-record 1\ngame no-such-game\nstart x\n', /line 3: no game called 'no-such-game'/],
    ['hello', /not a crown game record/],
  ];
  for (const [text, why] of bad) {
    const r = await api(srv, 'POST', '/api/import', { body: { record: text } });
    assert.equal(r.status, 400, text.slice(0, 60));
    assert.match(r.body.error, why);
  }
  assert.equal((await api(srv, 'POST', '/api/import', { body: { record: record, seats: [] } })).status, 400);
  assert.equal((await api(srv, 'POST', '/api/import', { body: {} })).status, 400);
  assert.equal((await api(srv, 'GET', '/api/stats')).body.games_in_memory, before);
});
