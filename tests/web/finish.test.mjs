// finish.test.mjs - finishing a game between its players through the JSON API: resign,
// draw offers between people and the AI's answer, a takeback asked and answered, the rematch with the seats swapped,
// undo refused after the end, hints off between people unless allowed, the end's
// reason and winners, all of it kept across a restart; and POST /api/observe. Run by
// tools/run-web-tests.sh (the api suite) with CROWN_BIN set to the build under test.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { api, startServer, tempDir, waitState } from './server.mjs';

let srv;
let db;

before(async () => {
  db = join(tempDir(), 'crown.db');
  srv = await startServer({ db });
});

after(async () => {
  const { code } = await srv.stop();
  assert.equal(code, 0, `crown serve should stop cleanly:\n${srv.stderr()}`);
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
});

async function create(body) {
  const r = await api(srv, 'POST', '/api/games', { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { id: r.body.id, t: r.body.seats.map((s) => s.token) };
}

const post = (id, action, token) => api(srv, 'POST', `/api/games/${id}/${action}`, { token });

describe('finishing a game', () => {
  test('a resignation ends the game for the other player, and outlives a restart', async () => {
    const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    assert.equal((await post(g.id, 'resign')).status, 403, 'a token is needed');
    const r = await post(g.id, 'resign', g.t[1]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'over');
    assert.equal(r.body.to_move, null);
    assert.deepEqual(r.body.legal, []);
    assert.equal(r.body.result.reason, 'resign');
    assert.deepEqual(r.body.result.winners, [0]);
    assert.equal(r.body.result.text, 'first player wins: the second player resigned');
    const record = await api(srv, 'GET', `/api/games/${g.id}/record`);
    assert.match(record.body, /first player wins: the second player resigned/);
    assert.equal((await post(g.id, 'resign', g.t[0])).status, 409, 'over already');
    const m = await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.t[0], body: { move: 'b1-b4' } });
    assert.equal(m.status, 409);
    assert.match(m.body.error, /over/);
    // Restarted on the same database: still over, for the same reason.
    assert.equal((await srv.stop()).code, 0);
    srv = await startServer({ db });
    const st = (await api(srv, 'GET', `/api/games/${g.id}`)).body;
    assert.equal(st.status, 'over');
    assert.equal(st.result.reason, 'resign');
  });

  test('a draw offer stands until answered or the other player acts', async () => {
    const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    let r = await post(g.id, 'offer-draw', g.t[0]);
    assert.equal(r.body.answer, 'offered');
    assert.equal(r.body.draw_offer, 0);
    assert.equal((await post(g.id, 'offer-draw', g.t[0])).status, 409, 'once is enough');
    assert.equal((await post(g.id, 'accept-draw', g.t[0])).status, 409, 'not one\'s own');
    r = await post(g.id, 'decline-draw', g.t[1]);
    assert.equal(r.status, 200);
    assert.equal(r.body.draw_offer, null);
    assert.equal(r.body.draw_declined, 0, 'the refusal is told until anyone acts');
    assert.equal((await api(srv, 'GET', `/api/games/${g.id}`, { token: g.t[0] })).body.draw_declined, 0);
    // Offered, the offerer moves: it stands; the other moves: it lapses.
    await post(g.id, 'offer-draw', g.t[0]);
    assert.equal((await api(srv, 'GET', `/api/games/${g.id}`)).body.draw_declined, null, 'a new offer');
    await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.t[0], body: { move: 'b1-b4' } });
    assert.equal((await api(srv, 'GET', `/api/games/${g.id}`)).body.draw_offer, 0);
    await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.t[1], body: { move: 'a5-a2' } });
    assert.equal((await api(srv, 'GET', `/api/games/${g.id}`)).body.draw_offer, null);
    assert.equal((await post(g.id, 'accept-draw', g.t[1])).status, 409, 'lapsed');
    // Offered and accepted: a draw by agreement.
    await post(g.id, 'offer-draw', g.t[1]);
    r = await post(g.id, 'accept-draw', g.t[0]);
    assert.equal(r.body.status, 'over');
    assert.equal(r.body.result.reason, 'agreement');
    assert.deepEqual(r.body.result.winners, [0, 1]);
    assert.equal(r.body.result.text, 'draw: agreed by the players');
  });

  test('a takeback between people: asked, declined, asked again and accepted; never against the AI', async () => {
    const g = await create({ game: 'kings-valley', seats: ['human', 'human'], clock: { initial: 60, increment: 1 } });
    const move = async (seat) => {
      const st = (await api(srv, 'GET', `/api/games/${g.id}`, { token: g.t[seat] })).body;
      const r = await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.t[seat], body: { move: st.legal[0].text } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };
    const state = async (seat) => (await api(srv, 'GET', `/api/games/${g.id}`, { token: g.t[seat] })).body;
    assert.equal((await post(g.id, 'takeback')).status, 403, 'a token is needed');
    const none = await post(g.id, 'takeback', g.t[0]);
    assert.equal(none.status, 409);
    assert.match(none.body.error, /no move to take back/);
    await move(0);
    let r = await post(g.id, 'takeback', g.t[0]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.answer, 'asked');
    assert.deepEqual((await state(1)).takeback, { seat: 0, declined: false });
    assert.equal((await post(g.id, 'takeback', g.t[0])).status, 409, 'asked already');
    assert.equal((await post(g.id, 'accept-takeback', g.t[0])).status, 409, 'not one\'s own');
    assert.equal((await post(g.id, 'takeback', g.t[1])).status, 409, 'answer the other\'s first');
    r = await post(g.id, 'decline-takeback', g.t[1]);
    assert.equal(r.body.answer, 'declined');
    assert.deepEqual((await state(0)).takeback, { seat: 0, declined: true }, 'the asker is told');
    assert.equal((await post(g.id, 'accept-takeback', g.t[1])).status, 409, 'declined already');
    assert.equal((await post(g.id, 'takeback', g.t[0])).body.answer, 'asked', 'asked again');
    r = await post(g.id, 'accept-takeback', g.t[1]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.answer, 'accepted');
    assert.equal(r.body.ply, 0);
    assert.equal(r.body.to_move, 0);
    assert.equal(r.body.takeback, null);
    assert.equal(r.body.clock.running, null, 'back at the first turn, no clock runs');
    // Four moves; the first player asks on his turn: his move and the reply go back, and
    // his time runs again.
    for (const seat of [0, 1, 0, 1]) await move(seat);
    assert.equal((await post(g.id, 'takeback', g.t[0])).body.answer, 'asked');
    r = await post(g.id, 'accept-takeback', g.t[1]);
    assert.deepEqual([r.body.ply, r.body.to_move, r.body.clock.running], [2, 0, 0]);
    // A move ends a request unanswered.
    await move(0);
    assert.equal((await post(g.id, 'takeback', g.t[0])).body.answer, 'asked');
    await move(1);
    assert.equal((await state(0)).takeback, null);
    assert.equal((await post(g.id, 'accept-takeback', g.t[1])).status, 409);
    // Undo stays the AI's; a takeback is the people's.
    const undo = await post(g.id, 'undo', g.t[0]);
    assert.equal(undo.status, 409);
    assert.match(undo.body.error, /takeback/);
    const ai = await create({ game: 'kings-valley', seats: ['human', 'ai:1'] });
    const refused = await post(ai.id, 'takeback', ai.t[0]);
    assert.equal(refused.status, 409);
    assert.match(refused.body.error, /undo/);
  });

  test('the AI declines a draw unless clearly worse, and draws are for two players', async () => {
    const even = await create({ game: 'kings-valley', seats: ['human', 'ai:1'] });
    let r = await post(even.id, 'offer-draw', even.t[0]);
    assert.equal(r.body.answer, 'declined');
    assert.equal(r.body.status, 'playing');
    // The refusal stays in the state, for a page loaded again, until anyone acts.
    assert.equal((await api(srv, 'GET', `/api/games/${even.id}`, { token: even.t[0] })).body.draw_declined, 0);
    // King Down: the AI (second) has a bare king against four queens.
    const lost = await create({ game: 'king-down', seats: ['human', 'ai:1'], rules: { setup: 'classic' }, position: '4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1' });
    r = await post(lost.id, 'offer-draw', lost.t[0]);
    assert.equal(r.body.answer, 'accepted', JSON.stringify(r.body.error || ''));
    assert.equal(r.body.result.reason, 'agreement');
    const four = await create({ game: 'king-of-the-valley', seats: ['human', 'human', 'human'], rules: { players: '3' } });
    assert.equal((await post(four.id, 'offer-draw', four.t[0])).status, 409);
  });

  test('the rematch swaps the seats, links both games, and each player gets his own link', async () => {
    const g = await create({ game: 'kings-valley', seats: ['human', 'ai:1'], hints: true });
    assert.equal((await post(g.id, 'rematch', g.t[0])).status, 409, 'not over yet');
    await post(g.id, 'resign', g.t[0]);
    const r = await post(g.id, 'rematch', g.t[0]);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const again = await post(g.id, 'rematch', g.t[0]);
    assert.equal(again.status, 200);
    assert.equal(again.body.url, r.body.url);
    const token = r.body.url.split('#token=')[1];
    const st = (await api(srv, 'GET', `/api/games/${r.body.id}`, { token })).body;
    assert.equal(st.you, 1, 'the first player now plays second');
    assert.deepEqual(st.seats.map((s) => s.player), ['ai:1', 'human']);
    assert.equal(st.rematch_of, g.id);
    const old = (await api(srv, 'GET', `/api/games/${g.id}`, { token: g.t[0] })).body;
    assert.equal(old.rematch, r.body.id);
    assert.equal(old.rematch_url, r.body.url);
    assert.equal((await api(srv, 'GET', `/api/games/${g.id}`)).body.rematch_url, undefined, 'a spectator gets no token');
  });

  test('undo is refused after the end; hints between people only when allowed', async () => {
    const g = await create({ game: 'kings-valley', seats: ['human', 'ai:1'] });
    await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.t[0], body: { move: 'b1-b4' } });
    await waitState(srv, g.id, (s) => s.to_move === 0);
    await post(g.id, 'resign', g.t[0]);
    const u = await post(g.id, 'undo', g.t[0]);
    assert.equal(u.status, 409);
    assert.match(u.body.error, /over/);
    const people = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    assert.equal((await api(srv, 'GET', `/api/games/${people.id}`)).body.hints, false);
    const h = await post(people.id, 'hint', people.t[0]);
    assert.equal(h.status, 409);
    assert.match(h.body.error, /hints are off/);
    const allowed = await create({ game: 'kings-valley', seats: ['human', 'human'], hints: true });
    assert.equal((await api(srv, 'GET', `/api/games/${allowed.id}`)).body.hints, true);
    assert.equal((await post(allowed.id, 'hint', allowed.t[0])).status, 200);
    assert.equal((await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', hints: 'yes' } })).status, 400);
  });

  test('a game won by the rules names its reason and winner', async () => {
    // The first player's king slides into the Valley, stopped by the other king.
    const g = await create({ game: 'kings-valley', seats: ['human', 'human'], rules: { 'first-move-soldier': 'off' }, position: 'ss1ss/2k2/5/2K2/SS1SS 1 0' });
    const r = await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.t[0], body: { move: 'c2-c3' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.result.reason, 'valley');
    assert.deepEqual(r.body.result.winners, [0]);
    assert.equal(r.body.result.why, 'a king reached the Valley');
  });
});

describe('POST /api/observe', () => {
  test('any position\'s observation and legal moves, nothing stored', async () => {
    const r = await api(srv, 'POST', '/api/observe', { body: { game: 'kings-valley', position: 'sskss/5/5/5/SSKSS 1 0' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.to_move, 0);
    assert.ok(r.body.observation.zones);
    assert.ok(r.body.legal.some((m) => m.text === 'b1-b4'));
    // Every game the server offers, from its own record.
    for (const { name } of (await api(srv, 'GET', '/api/games')).body.games) {
      const o = await api(srv, 'POST', '/api/observe', { body: { game: name } });
      assert.equal(o.status, 200, `${name}: ${JSON.stringify(o.body)}`);
      assert.ok(o.body.legal.length > 0 || o.body.to_move === null, name);
    }
    const bad = await api(srv, 'POST', '/api/observe', { body: { game: 'kings-valley', position: 'nonsense' } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /bad position/);
    assert.equal((await api(srv, 'POST', '/api/observe', { body: { game: 'nope' } })).status, 400);
    assert.equal((await api(srv, 'POST', '/api/observe', { body: { game: 'king-of-the-valley', rules: { tiles: '/etc/passwd' } } })).status, 400);
  });
});
