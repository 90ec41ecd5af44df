// cluster.test.mjs - several `crown serve` processes on one PostgreSQL database behind
// HAProxy (tests/web/cluster.mjs starts both, from Debian's packages): a game played
// across both processes with its events crossing between them, two processes racing to
// move at the same ply (one wins), an AI game whose every move is played once although
// both processes hold it, a draw offered through one process and accepted through the
// other (the game's meta shared like its moves), a third process that evicts idle games and deletes abandoned
// ones (the others' notices of games it no longer holds ignored), a days-per-move flag
// of a game out of every process's memory ended by exactly one of them, and a process
// SIGKILLed in the middle of play losing no acknowledged move while the other takes over
// its AI work. First, the per-address limits counted in the database: games created and
// AI games, event streams per address and per game (a closed stream's slot free at
// once, a SIGKILLed process's streams no longer counted after --dead-after), and hints
// waiting. Accounts too: their sessions, names, rated seats and failed sign-ins are the
// database's, passkeys with their challenges and counters, seeks and challenges, and a
// rated game ended through one process is rated once, alike on both.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FRESH, rateGame } from './glicko2.mjs';
import { api, events, openStream, request, startServer, waitState } from './server.mjs';
import { Passkey } from './authenticator.mjs';
import { startPostgres, startProxy } from './cluster.mjs';

let pg;
let a;
let b;
let proxy;

before(async () => {
  pg = await startPostgres();
  a = await startServer({ db: pg.url });
  b = await startServer({ db: pg.url });
  proxy = await startProxy([{ name: 'a', port: new URL(a.url).port }, { name: 'b', port: new URL(b.url).port }]);
});

after(async () => {
  proxy?.stop();
  const stopped = await Promise.all([a, b].map((s) => s?.stop()));
  pg?.stop(); // before any check below can fail
  [a, b].forEach((s, i) => {
    if (!s) return;
    const { code, signal } = stopped[i];
    if (signal !== 'SIGKILL') assert.equal(code, 0, `crown serve should stop cleanly:\n${s.stderr()}`);
    assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
  });
});

const first = (state) => state.legal[0].text;
const texts = (state) => state.moves.map((m) => m.text);

// Every state seen must agree with every other on the actions both show: an action,
// once shown at a ply, is never replaced (it would have been played twice).
function assertOnePerPly(states) {
  const at = new Map();
  for (const st of states)
    st.moves.forEach((m, ply) => {
      if (!at.has(ply)) at.set(ply, m.text);
      else assert.equal(m.text, at.get(ply), `ply ${ply} of ${st.id} shown as two different actions`);
    });
}

describe('several processes on PostgreSQL', () => {
  // First in the file: the counts are the database's, per address, and every process
  // (A and B too) counts what 127.0.0.1 creates.
  test('per-address limits hold across processes: creates an hour, AI games at once', async () => {
    const limits = ['--creates-per-hour', '5', '--ai-games', '2'];
    const c = await startServer({ db: pg.url, args: limits });
    const d = await startServer({ db: pg.url, args: limits });
    try {
      const vsAi = { game: 'kings-valley', seats: ['human', 'ai:1'] };
      const made = [];
      for (const door of [c, d]) {
        const r = await api(door, 'POST', '/api/games', { body: vsAi });
        assert.equal(r.status, 201, JSON.stringify(r.body));
        made.push(r.body);
      }
      // Each process holds one game against the AI: a process counting alone would let
      // a second one in.
      for (const door of [c, d]) {
        const r = await api(door, 'POST', '/api/games', { body: vsAi });
        assert.equal(r.status, 429, JSON.stringify(r.body));
        assert.match(r.body.error, /2 games against the AI in play/);
      }
      // Five creations an hour in all, the two refused ones included (as in one
      // process): one more through either, then none.
      const human = { game: 'kings-valley', seats: ['human', 'human'] };
      assert.equal((await api(d, 'POST', '/api/games', { body: human })).status, 201);
      for (const door of [c, d]) {
        const r = await api(door, 'POST', '/api/games', { body: human });
        assert.equal(r.status, 429, JSON.stringify(r.body));
        assert.match(r.body.error, /at most 5 an hour; try again in \d+ s/);
        assert.ok(Number(r.headers.get('retry-after')) > 3000, r.headers.get('retry-after'));
      }
    } finally {
      await Promise.all([c.stop(), d.stop()]);
    }
  });

  test('behind the proxy, each client is limited by its own address (--trusted-proxy)', async () => {
    const args = ['--creates-per-hour', '2', '--trusted-proxy', '127.0.0.1'];
    const e = await startServer({ db: pg.url, args });
    const f = await startServer({ db: pg.url, args });
    const door = await startProxy([{ name: 'e', port: new URL(e.url).port }, { name: 'f', port: new URL(f.url).port }],
      { forwardedFor: true });
    try {
      const site = { url: door.url };
      const body = { game: 'kings-valley', seats: ['human', 'human'] };
      const create = (from, headers) => request(site, 'POST', '/api/games', { body, from, headers });
      const served = new Set();
      for (let i = 0; i < 2; i++) {
        const r = await create('127.0.0.2');
        assert.equal(r.status, 201, JSON.stringify(r.body));
        served.add(r.headers['x-served-by']);
      }
      assert.equal(served.size, 2, 'round robin over both processes');
      const over = await create('127.0.0.2');
      assert.equal(over.status, 429, JSON.stringify(over.body));
      assert.match(over.body.error, /at most 2 an hour/);
      // An address the client writes itself stands left of the one the proxy appends.
      const spoofed = await create('127.0.0.2', { 'x-forwarded-for': '198.51.100.7' });
      assert.equal(spoofed.status, 429, JSON.stringify(spoofed.body));
      for (let i = 0; i < 2; i++) {
        const r = await create('127.0.0.3');
        assert.equal(r.status, 201, JSON.stringify(r.body));
      }
      // Straight to a process, from the trusted address, without the header: refused.
      const direct = await api(e, 'POST', '/api/games', { body });
      assert.equal(direct.status, 400, JSON.stringify(direct.body));
      assert.match(direct.body.error, /needs an X-Forwarded-For header/);
    } finally {
      door.stop();
      await Promise.all([e.stop(), f.stop()]);
    }
  });

  test('event streams counted across processes: per address, per game, a dead process\'s lapse', async () => {
    const limits = ['--streams-per-ip', '3', '--streams-per-game', '4', '--dead-after', '2'];
    const c = await startServer({ db: pg.url, args: limits });
    const d = await startServer({ db: pg.url, args: limits });
    const open = [];
    const refused = (r, re) => {
      assert.equal(r.status, 429, JSON.stringify(r.body));
      assert.equal(r.body.status, 429);
      assert.match(r.body.error, re);
    };
    const human = { game: 'kings-valley', seats: ['human', 'human'] };
    // Each process answers with its own stream until one is admitted, or the time is up.
    const admittedWithin = async (door, id, from, ms) => {
      const end = Date.now() + ms;
      for (;;) {
        const r = await openStream(door, id, { from });
        if (r.status === 200) { open.push(r); return r; }
        refused(r, /event streams open on this site's servers/);
        if (Date.now() > end) assert.fail(`no stream admitted within ${ms} ms`);
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    try {
      const g = (await api(c, 'POST', '/api/games', { body: human })).body;
      const h = (await api(d, 'POST', '/api/games', { body: human })).body;
      // Three streams of 127.0.0.1, two through C and one through D: each process holds
      // fewer than three, but the address is at its limit through either.
      for (const door of [c, c, d]) open.push(await openStream(door, g.id));
      assert.deepEqual(open.map((s) => s.status), [200, 200, 200]);
      for (const door of [c, d]) refused(await openStream(door, g.id), /your address has 3 event streams open on this site's servers/);
      // Closing one frees its slot at once (the hang-up is seen at once, then one
      // transaction).
      open.shift().close();
      await admittedWithin(d, g.id, undefined, 2000);
      // Per game, from other addresses: four streams of h over both processes, then none.
      for (const [door, from] of [[c, '127.0.0.2'], [c, '127.0.0.2'], [d, '127.0.0.3'], [d, '127.0.0.3']]) {
        const r = await openStream(door, h.id, { from });
        assert.equal(r.status, 200);
        open.push(r);
      }
      refused(await openStream(c, h.id, { from: '127.0.0.4' }), /this game has 4 event streams open on this site's servers/);
      // D dies with two streams of 127.0.0.1 and two of h: they count until D's last
      // beat is --dead-after (2 s) old, then no more.
      assert.equal((await d.kill()).signal, 'SIGKILL');
      const killed = Date.now();
      const early = await openStream(c, g.id);
      if (Date.now() - killed < 1000) refused(early, /your address has 3 event streams open/);
      else if (early.status === 200) open.push(early); // the machine was slow: no check
      if (early.status !== 200) await admittedWithin(c, g.id, undefined, 8000);
      await admittedWithin(c, h.id, '127.0.0.4', 2000);
      assert.ok(Date.now() - killed >= 1000, 'a dead process\'s streams should count for a while');
    } finally {
      for (const s of open) s.close();
      const [stopped] = await Promise.all([c.stop(), d.stop()]);
      assert.equal(stopped.code, 0, `crown serve should stop cleanly:\n${c.stderr()}`);
      assert.doesNotMatch(c.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
    }
  });

  test('hints waiting counted across processes', async () => {
    // C's one AI worker thinks for 5 s on another address's game (cut short when C
    // stops), so a hint asked through C waits there; D's worker is free.
    const c = await startServer({ db: pg.url, args: ['--ai-threads', '1', '--ai-queue', '1', '--hint-timeout', '2'] });
    const d = await startServer({ db: pg.url, args: ['--ai-queue', '1'] });
    try {
      const busy = (await request(c, 'POST', '/api/games', { body: { game: 'king-down', seats: ['ai:10', 'human'], seed: 2 }, from: '127.0.0.2' })).body;
      await waitState(c, busy.id, (s) => s.thinking === 0);
      const game = { game: 'kings-valley', seats: ['human', 'human'], hints: true };
      const g = (await api(c, 'POST', '/api/games', { body: game })).body;
      const h = (await api(d, 'POST', '/api/games', { body: game })).body;
      const first = api(c, 'POST', `/api/games/${g.id}/hint`, { token: g.seats[0].token });
      await new Promise((res) => setTimeout(res, 500)); // C has taken its hold
      const r = await api(d, 'POST', `/api/games/${h.id}/hint`, { token: h.seats[0].token });
      assert.equal(r.status, 429, JSON.stringify(r.body));
      assert.match(r.body.error, /too many hints from your address wait for the AI on this site's servers \(at most 1\)/);
      assert.equal((await first).status, 503); // no worker of C took it within 2 s
      // Answered, it waits no more: D's own worker answers the next.
      assert.equal((await api(d, 'POST', `/api/games/${h.id}/hint`, { token: h.seats[0].token })).status, 200);
    } finally {
      await Promise.all([c.stop(), d.stop()]);
    }
  });

  test('accounts are shared: signed up on one process, signed in, seated and signed out on the other', async () => {
    const cookieOf = (r) => (r.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]*)/) || [])[1];
    const as = (c) => ({ cookie: `crown_session=${c}` });
    const up = await api(a, 'POST', '/api/signup', { body: { name: 'Shared', password: 'across-processes' } });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const onA = cookieOf(up);
    assert.deepEqual((await api(b, 'GET', '/api/me', { headers: as(onA) })).body, { signed_in: true, name: 'Shared' });
    assert.equal((await api(b, 'POST', '/api/signup', { body: { name: 'shared', password: 'same-name-other-case' } })).status, 409);
    const bob = await api(b, 'POST', '/api/signup', { body: { name: 'Other', password: 'the-other-player' } });
    // A rated game made through A, its open seat taken through B: both names beside the board.
    const g = await api(a, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], rated: true }, headers: as(onA) });
    assert.equal(g.status, 201, JSON.stringify(g.body));
    const j = await api(b, 'POST', `/api/games/${g.body.id}/join`, { body: {}, headers: as(cookieOf(bob)) });
    assert.equal(j.status, 200, JSON.stringify(j.body));
    const st = await waitState(a, g.body.id, (x) => x.accounts[1] === 'Other');
    assert.deepEqual(st.accounts, ['Shared', 'Other']);
    assert.equal(st.rated, true);
    // Signed out everywhere through B: A's session ends too.
    assert.equal((await api(b, 'POST', '/api/logout-all', { body: {}, headers: as(onA) })).status, 200);
    assert.equal((await api(a, 'GET', '/api/me', { headers: as(onA) })).body.signed_in, false);
  });

  test('failed sign-ins count across processes: five spread over both lock the name out on both', async () => {
    assert.equal((await api(a, 'POST', '/api/signup', { body: { name: 'Guessed', password: 'the-right-one' } })).status, 201);
    // --login-tries is 5: three failures through A and two through B are five.
    for (let i = 0; i < 5; i++) {
      const r = await api(i % 2 ? b : a, 'POST', '/api/login', { body: { name: 'Guessed', password: `wrong-guess-${i}` } });
      assert.equal(r.status, 401, JSON.stringify(r.body));
    }
    // Locked out for a second from the fifth failure, on both, the right password too.
    for (const s of [b, a]) {
      const r = await api(s, 'POST', '/api/login', { body: { name: 'Guessed', password: 'the-right-one' } });
      assert.equal(r.status, 429, JSON.stringify(r.body));
      assert.match(r.body.error, /for this name/);
    }
  });

  test('a rated game ended through one process is rated once, seen alike by both', async () => {
    const cookieOf = (r) => (r.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]*)/) || [])[1];
    const as = (c) => ({ cookie: `crown_session=${c}` });
    const x = await api(a, 'POST', '/api/signup', { body: { name: 'RatedX', password: 'rated-across-1' } });
    const y = await api(b, 'POST', '/api/signup', { body: { name: 'RatedY', password: 'rated-across-2' } });
    const g = await api(a, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], rated: true }, headers: as(cookieOf(x)) });
    const j = await api(b, 'POST', `/api/games/${g.body.id}/join`, { body: {}, headers: as(cookieOf(y)) });
    assert.equal(j.status, 200, JSON.stringify(j.body));
    const id = g.body.id;
    assert.equal((await api(a, 'POST', `/api/games/${id}/moves`, { token: g.body.seats[0].token, body: { move: first(g.body.state) } })).status, 200);
    // Both processes hold the game when it ends; the one that ends it rates it.
    await waitState(b, id, (s) => s.moves.length === 1);
    assert.equal((await api(b, 'POST', `/api/games/${id}/resign`, { token: j.body.token, body: {} })).status, 200);
    const [rx, ry] = rateGame(FRESH, FRESH, 1);
    for (const s of [a, b]) {
      const st = await waitState(s, id, (v) => v.rating_change !== null);
      assert.ok(Math.abs(st.rating_after[0] - rx.r) < 0.02 && Math.abs(st.rating_after[1] - ry.r) < 0.02, JSON.stringify(st.rating_after));
      const page = (await api(s, 'GET', '/api/users/RatedY')).body;
      assert.equal(page.ratings['kings-valley'].games, 1);
      assert.deepEqual(page.record, { wins: 0, draws: 0, losses: 1 });
    }
  });

  test('passkeys are shared: registered through one process, a sign-in\'s challenge given by the other', async () => {
    // As a page of one site would call: both processes named "localhost" (WebAuthn's
    // relying party), the page's origin the same whichever process answers.
    const host = 'localhost:8080';
    const origin = `http://${host}`;
    // One browser's cookies: its session and its passkey sign-in's, whichever process set them.
    const jar = {};
    const call = async (srv, path, body) => {
      const cookie = Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; ');
      const r = await request(srv, 'POST', path, { body, headers: { host, origin, ...(cookie ? { cookie } : {}) } });
      for (const c of r.headers['set-cookie'] || []) {
        const [, k, v] = c.match(/^(crown_\w+)=([0-9a-f]*)/) || [];
        if (k) jar[k] = v;
      }
      return r;
    };
    const up = await call(a, '/api/signup', { name: 'Keyed', password: 'a-passkey-holder' });
    assert.equal(up.status, 201, JSON.stringify(up.body));
    const key = new Passkey();
    const opts = await call(b, '/api/passkeys/register-options', {});
    const reg = await call(a, '/api/passkeys/register', key.create(opts.body, origin));
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    assert.equal((await call(a, '/api/logout', {})).status, 200);
    delete jar.crown_session;
    const login = await call(a, '/api/passkeys/login-options', {});
    const inn = await call(b, '/api/passkeys/login', key.get(login.body, origin));
    assert.equal(inn.status, 200, JSON.stringify(inn.body));
    assert.equal((await api(a, 'GET', '/api/me', { headers: { cookie: `crown_session=${jar.crown_session}` } })).body.name, 'Keyed');
    // Used through B, the challenge is gone for A too; the counter is the database's.
    assert.equal((await call(a, '/api/passkeys/login', key.get(login.body, origin))).status, 401);
    const again = await call(a, '/api/passkeys/login', key.get((await call(b, '/api/passkeys/login-options', {})).body, origin, { counter: 1 }));
    assert.match(again.body.error, /counter went back/);
  });

  test('seeks and challenges are shared: posted on one process, accepted on the other', async () => {
    const cookieOf = (r) => (r.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]*)/) || [])[1];
    const as = (c) => ({ cookie: `crown_session=${c}` });
    const poster = cookieOf(await api(a, 'POST', '/api/signup', { body: { name: 'Seeker', password: 'posts-a-seek' } }));
    const taker = cookieOf(await api(b, 'POST', '/api/signup', { body: { name: 'Taker', password: 'accepts-the-seek' } }));
    const s = await api(a, 'POST', '/api/seeks', { body: { game: 'kings-valley', rated: true, clock: { days: 2 } }, headers: as(poster) });
    assert.equal(s.status, 201, JSON.stringify(s.body));
    assert.ok((await api(b, 'GET', '/api/seeks')).body.seeks.some((x) => x.id === s.body.id));
    const j = await api(b, 'POST', `/api/seeks/${s.body.id}/accept`, { headers: as(taker) });
    assert.equal(j.status, 200, JSON.stringify(j.body));
    assert.equal((await api(a, 'POST', `/api/seeks/${s.body.id}/accept`, { headers: as(taker) })).status, 409);
    const p = (await api(a, 'GET', `/api/seeks/${s.body.id}`, { token: s.body.token })).body;
    assert.equal(p.state, 'accepted');
    const st = (await api(a, 'GET', `/api/games/${p.game_id}`, { token: p.token })).body;
    assert.equal(st.accounts[p.seat], 'Seeker');
    assert.equal(st.accounts[1 - p.seat], 'Taker');
    assert.equal(st.clock.days, 2);
    // A challenge made on B, declined on A, the answer seen on B.
    const c = await api(b, 'POST', '/api/challenges', { body: { to: 'seeker', game: 'king-down' }, headers: as(taker) });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.equal((await api(a, 'GET', '/api/challenges', { headers: as(poster) })).body.incoming[0].id, c.body.id);
    assert.equal((await api(a, 'POST', `/api/challenges/${c.body.id}/decline`, { headers: as(poster) })).status, 200);
    assert.equal((await api(b, 'GET', '/api/challenges', { headers: as(taker) })).body.outgoing[0].state, 'declined');
  });

  test('a game played across both processes, its events crossing', async () => {
    const made = (await api(proxy, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], seed: 5 } })).body;
    const seenA = [];
    const seenB = [];
    const onA = events(a, made.id, undefined, seenA);
    const onB = events(b, made.id, undefined, seenB);
    const servedBy = new Set();
    try {
      await onA.next();
      await onB.next();
      // Each move through another door: A, B, then the proxy, in turn; each must reach
      // the streams of both processes.
      const doors = [a, b, proxy];
      for (let i = 0; i < 9; i++) {
        const door = doors[i % 3];
        const look = await api(door, 'GET', `/api/games/${made.id}`);
        if (look.headers.get('x-served-by')) servedBy.add(look.headers.get('x-served-by'));
        if (look.body.status === 'over') break;
        const seat = made.seats[look.body.to_move];
        const r = await api(door, 'POST', `/api/games/${made.id}/moves`, { token: seat.token, body: { move: first(look.body), ply: look.body.ply } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        if (r.headers.get('x-served-by')) servedBy.add(r.headers.get('x-served-by'));
        await onA.next((s) => s.ply === r.body.ply, 5000);
        await onB.next((s) => s.ply === r.body.ply, 5000);
      }
      const fromA = (await api(a, 'GET', `/api/games/${made.id}`)).body;
      const fromB = (await api(b, 'GET', `/api/games/${made.id}`)).body;
      assert.ok(fromA.ply >= 9 || fromA.status === 'over');
      assert.deepEqual(texts(fromA), texts(fromB));
      assert.equal(fromA.position, fromB.position);
      assertOnePerPly([...seenA, ...seenB]);
      assert.deepEqual([...servedBy].sort(), ['a', 'b'], 'the proxy should have used both processes');
    } finally {
      await onA.close();
      await onB.close();
    }
  });

  test('two processes racing to move at the same ply: one wins, the other is refused', async () => {
    const made = (await api(a, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], seed: 8 } })).body;
    const winners = [];
    for (let round = 0; round < 8; round++) {
      const st = (await api(b, 'GET', `/api/games/${made.id}`)).body;
      if (st.status === 'over') break;
      const token = made.seats[st.to_move].token;
      // Two different moves, or the same one twice, sent at once through each process.
      const moves = [st.legal[0].text, st.legal[round % 2 ? 0 : st.legal.length - 1].text];
      const [ra, rb] = await Promise.all([a, b].map((door, i) =>
        api(door, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: moves[i], ply: st.ply } })));
      const ok = [ra, rb].filter((r) => r.status === 200);
      assert.equal(ok.length, 1, `round ${round}: ${ra.status} ${JSON.stringify(ra.body).slice(0, 200)} / ${rb.status} ${JSON.stringify(rb.body).slice(0, 200)}`);
      const lost = ra.status === 200 ? rb : ra;
      assert.equal(lost.status, 409, JSON.stringify(lost.body));
      winners.push(ok[0].body.moves.at(-1).text);
    }
    for (const door of [a, b]) {
      const got = (await api(door, 'GET', `/api/games/${made.id}`)).body;
      assert.deepEqual(texts(got), winners);
    }
  });

  test('a draw offered through one process is accepted through the other', async () => {
    const made = (await api(proxy, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'] } })).body;
    const [t0, t1] = made.seats.map((s) => s.token);
    const onB = events(b, made.id, t1, []);
    try {
      await onB.next();
      assert.equal((await api(a, 'POST', `/api/games/${made.id}/offer-draw`, { token: t0 })).body.answer, 'offered');
      await onB.next((s) => s.draw_offer === 0, 5000);
      const r = await api(b, 'POST', `/api/games/${made.id}/accept-draw`, { token: t1 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const st = await waitState(a, made.id, (s) => s.status === 'over', { timeoutMs: 5000 });
      assert.equal(st.result.reason, 'agreement');
    } finally {
      await onB.close();
    }
  });

  test('an AI game held by both processes has each move played once', async () => {
    const made = (await api(a, 'POST', '/api/games', {
      body: { game: 'kings-valley', seats: ['random', 'random'], seed: 11, rules: { 'max-plies': 60 } },
    })).body;
    const seenA = [];
    const seenB = [];
    // B loads the game at once, and with it tries to start the AI: only the claim's
    // holder may play.
    const onB = events(b, made.id, undefined, seenB);
    const onA = events(a, made.id, undefined, seenA);
    try {
      const endA = await onA.next((s) => s.status === 'over', 30000);
      const endB = await onB.next((s) => s.status === 'over', 30000);
      assert.deepEqual(texts(endA), texts(endB));
      assertOnePerPly([...seenA, ...seenB]);
      assert.ok(endA.ply > 4, `only ${endA.ply} plies`);
    } finally {
      await onA.close();
      await onB.close();
    }
  });

  test('a third process evicts, ignores notices of games it does not hold, and retires', async () => {
    // C leaves games after a second and deletes those unchanged for three; it stops before
    // the next test, whose games would soon look abandoned to it.
    const c = await startServer({ db: pg.url, args: ['--idle', '1', '--abandon-after', '3'] });
    const stats = async () => (await api(c, 'GET', '/api/stats')).body;
    const until = async (pred, what) => {
      for (const end = Date.now() + 15000; Date.now() < end; await new Promise((r) => setTimeout(r, 50)))
        if (await pred()) return;
      assert.fail(`timed out waiting for ${what}`);
    };
    try {
      const g = (await api(a, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], seed: 12 } })).body;
      let st = (await api(c, 'GET', `/api/games/${g.id}`)).body;
      await until(async () => (await stats()).games_evicted >= 1, 'C to evict the game');
      // A moves while C does not hold the game: C ignores the notice, reads it afresh.
      const r = await api(a, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[0].token, body: { move: first(st), ply: 0 } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      st = (await api(c, 'GET', `/api/games/${g.id}`)).body;
      assert.deepEqual(texts(st), texts(r.body));
      const done = (await api(b, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['random', 'random'], rules: { 'max-plies': 10 } } })).body;
      await waitState(b, done.id, (s) => s.status === 'over');
      // Left alone, g goes from the database, and so from A, which still holds it; the
      // finished game stays.
      await until(async () => (await api(b, 'GET', `/api/games/${g.id}`)).status === 404, 'the abandoned game to be deleted');
      assert.equal((await api(a, 'GET', `/api/games/${g.id}`)).status, 404);
      await until(async () => (await stats()).games_in_memory === 0, 'C to evict every game');
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal((await api(a, 'GET', `/api/games/${done.id}`)).body.status, 'over');
    } finally {
      const { code } = await c.stop();
      assert.equal(code, 0, `crown serve should stop cleanly:\n${c.stderr()}`);
      assert.doesNotMatch(c.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
    }
  });

  test('a days-per-move flag of a game no process holds is claimed and ended by one', async () => {
    // C and D: days of 2 s, games leaving memory after 1 s. The game leaves C's memory
    // before its flag falls; every process sweeps the store, exactly one ends it.
    const args = ['--idle', '1', '--day-seconds', '2'];
    const [c, d] = await Promise.all([startServer({ db: pg.url, args }), startServer({ db: pg.url, args })]);
    const flagged = async () => {
      let n = 0;
      for (const s of [a, b, c, d]) n += (await api(s, 'GET', '/api/stats')).body.games_flagged;
      return n;
    };
    try {
      const g = (await api(c, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], clock: { days: 1 } } })).body;
      const r = await api(c, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[0].token, body: { move: first(g.state) } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      for (const end = Date.now() + 15000; (await flagged()) === 0; await new Promise((res) => setTimeout(res, 50)))
        assert.ok(Date.now() < end, 'timed out waiting for the flag');
      await new Promise((res) => setTimeout(res, 300)); // a second claimer would show by now
      assert.equal(await flagged(), 1);
      const over = (await api(d, 'GET', `/api/games/${g.id}`)).body;
      assert.equal(over.status, 'over');
      assert.equal(over.result.reason, 'time');
      assert.equal(over.result.seat, 1);
    } finally {
      for (const s of [c, d]) {
        const { code } = await s.stop();
        assert.equal(code, 0, `crown serve should stop cleanly:\n${s.stderr()}`);
        assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
      }
    }
  });

  test('a process SIGKILLed mid-game loses no acknowledged move; its AI work goes on elsewhere', async () => {
    // An AI game thinking on A (about half a second a move), and a game of two humans
    // whose moves A acknowledges up to the kill.
    const ai = (await api(a, 'POST', '/api/games', { body: { game: 'king-down', seats: ['ai:6', 'ai:6'], seed: 3 } })).body;
    const pvp = (await api(a, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], seed: 6 } })).body;
    const seen = [];
    const onB = events(b, ai.id, undefined, seen);
    try {
      await onB.next((s) => s.ply >= 2, 30000);
      // A's thinking shows on B's stream too.
      await onB.next((s) => s.thinking !== null && s.status === 'playing', 10000);
      let acked = (await api(a, 'GET', `/api/games/${pvp.id}`)).body;
      const inflight = [];
      for (let i = 0; i < 4; i++) {
        const seat = pvp.seats[acked.to_move];
        const r = await api(a, 'POST', `/api/games/${pvp.id}/moves`, { token: seat.token, body: { move: first(acked), ply: acked.ply } });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        acked = r.body;
      }
      // One more sent as the process dies: it may or may not have been committed.
      inflight.push(api(a, 'POST', `/api/games/${pvp.id}/moves`, { token: pvp.seats[acked.to_move].token, body: { move: first(acked), ply: acked.ply } }).catch(() => null));
      const killedAt = (await api(b, 'GET', `/api/games/${ai.id}`)).body.ply;
      assert.equal((await a.kill()).signal, 'SIGKILL');
      const last = (await Promise.all(inflight))[0];
      if (last && last.status === 200) acked = last.body;

      // Every acknowledged move is there, through B and through the proxy.
      for (const door of [b, proxy]) {
        const got = (await api(door, 'GET', `/api/games/${pvp.id}`)).body;
        assert.deepEqual(texts(got).slice(0, acked.ply), texts(acked), 'acknowledged moves');
        assert.ok(got.ply <= acked.ply + 1);
      }
      // The AI game resumes on B once A's claim runs out (a few seconds) and stays
      // one action per ply.
      await onB.next((s) => s.ply >= killedAt + 3, 30000);
      const st = await waitState(b, ai.id, (s) => s.ply >= killedAt + 3);
      assertOnePerPly([...seen, st]);
    } finally {
      await onB.close();
    }
  });
});
