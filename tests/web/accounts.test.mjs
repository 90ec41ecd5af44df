// accounts.test.mjs - accounts in the JSON API (docs/API.md, "Accounts"): the contract
// (sign-up, sign-in, /api/me, /api/users/NAME, rated games and their open seat), the
// security of sign-ins with figures (lock-outs per account and per address growing, the
// same answer and time for an unknown name as for a wrong password, a new session id at
// every sign-in, the Origin check on cookie-authenticated POSTs, no password in any log
// or answer, names checked), and what an account holds (sign-out here and everywhere,
// the password, export, claiming a browser's games, deletion), on a database upgraded
// from before accounts. Part of the api suite of tools/run-web-tests.sh. Two servers:
// one hashing with --password-cost low for speed, and one on a version-1 database at the
// real cost, for the upgrade and the timing test, which needs that cost.
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { api, startServer, tempDir } from './server.mjs';

let srv;
let old; // a database from before accounts, upgraded, hashing at the real cost
const passwords = new Set(); // every password sent: none may show in an answer or a log

before(async () => {
  // --trusted-proxy: a test names its client address in X-Forwarded-For, and says https.
  const db = join(tempDir(), 'crown.db');
  copyFileSync(new URL('./fixtures/schema-v1.db', import.meta.url), db);
  [srv, old] = await Promise.all([
    startServer({ args: ['--password-cost', 'low', '--login-tries', '3', '--trusted-proxy', '127.0.0.1'] }),
    startServer({ db, args: ['--trusted-proxy', '127.0.0.1'] }),
  ]);
});

after(async () => {
  for (const s of [srv, old]) {
    if (!s) continue;
    const { code } = await s.stop();
    assert.equal(code, 0, s.stderr());
    assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
    for (const p of passwords) assert.ok(!s.stderr().includes(p), 'a password in the log');
  }
});

// A call with the session cookie `cookie` and from address `from` (X-Forwarded-For);
// checks that no password sent comes back.
async function call(method, path, { body, cookie, from = '192.0.2.200', headers = {}, server = srv, token } = {}) {
  const h = { ...headers };
  if (cookie) h.cookie = `crown_session=${cookie}`;
  if (from) h['x-forwarded-for'] = from;
  if (body && typeof body.password === 'string') passwords.add(body.password);
  if (body && typeof body.new_password === 'string') passwords.add(body.new_password);
  const r = await api(server, method, path, { body, headers: h, token });
  const text = JSON.stringify(r.body);
  for (const p of passwords) assert.ok(!text.includes(p), `a password in the answer ${text}`);
  const set = r.headers.getSetCookie()[0] || '';
  r.setCookie = set;
  r.cookie = (set.match(/^crown_session=([0-9a-f]*)/) || [])[1];
  return r;
}

let names = 0;
// A fresh account: { name, password, cookie }.
async function signup(prefix = 'player') {
  const name = `${prefix}${++names}`;
  const password = `pw-${name}-${Math.random().toString(36).slice(2)}`;
  const r = await call('POST', '/api/signup', { body: { name, password } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.name, name);
  return { name, password, cookie: r.cookie };
}

test('sign-up and sign-in set a session cookie: HttpOnly, SameSite=Lax, Secure over https', async () => {
  const a = await signup('Alice');
  const up = await call('POST', '/api/login', { body: { name: a.name.toUpperCase(), password: a.password } });
  assert.equal(up.status, 200);
  assert.equal(up.body.name, a.name); // any case signs in; the name as written comes back
  assert.match(up.setCookie, /^crown_session=[0-9a-f]{64}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/);
  assert.deepEqual((await call('GET', '/api/me', { cookie: up.cookie })).body, { signed_in: true, name: a.name });
  assert.deepEqual((await call('GET', '/api/me')).body, { signed_in: false, name: null });
  // Behind a trusted proxy that says https, and only then, the cookie is Secure.
  const https = await call('POST', '/api/login', { body: { name: a.name, password: a.password }, headers: { 'x-forwarded-proto': 'https' } });
  assert.match(https.setCookie, /; Secure$/);
  // The public page: GET /api/users/NAME, any case.
  const u = await call('GET', `/api/users/${a.name.toLowerCase()}`);
  assert.equal(u.status, 200);
  assert.deepEqual({ name: u.body.name, ratings: u.body.ratings }, { name: a.name, ratings: {} });
  assert.equal((await call('GET', '/api/users/nobody-here')).status, 404);
});

test('names: 3 to 20 letters, digits, _ and -, not AI, unique whatever the case', async () => {
  const bad = ['ab', 'x'.repeat(21), 'has space', 'émile', 'AI', 'ai_bot', 'Ai-7', 'AI5'];
  for (const name of bad) {
    const r = await call('POST', '/api/signup', { body: { name, password: 'long-enough-1' } });
    assert.equal(r.status, 400, `${name}: ${JSON.stringify(r.body)}`);
    assert.match(r.body.error, /name/);
  }
  const ok = await call('POST', '/api/signup', { body: { name: 'Aiden', password: 'long-enough-2' } });
  assert.equal(ok.status, 201); // a name that starts with the letters, not the word
  const taken = await call('POST', '/api/signup', { body: { name: 'aIDEN', password: 'long-enough-3' } });
  assert.equal(taken.status, 409);
  const short = await call('POST', '/api/signup', { body: { name: 'Shorty', password: 'short' } });
  assert.equal(short.status, 400);
  assert.match(short.body.error, /at least 8/);
  assert.equal((await call('POST', '/api/signup', { body: { name: 'Extra', password: 'long-enough-4', admin: true } })).status, 400);
});

test('a sign-in opens a new session: one planted beforehand is never signed in', async () => {
  const a = await signup('fix');
  const planted = 'ab'.repeat(32);
  const r = await call('POST', '/api/login', { body: { name: a.name, password: a.password }, cookie: planted });
  assert.equal(r.status, 200);
  assert.notEqual(r.cookie, planted);
  assert.equal((await call('GET', '/api/me', { cookie: planted })).body.signed_in, false);
  // The session the browser had before signing in again is closed too.
  assert.equal((await call('GET', '/api/me', { cookie: a.cookie })).body.signed_in, true);
  const again = await call('POST', '/api/login', { body: { name: a.name, password: a.password }, cookie: a.cookie });
  assert.notEqual(again.cookie, a.cookie);
  assert.equal((await call('GET', '/api/me', { cookie: a.cookie })).body.signed_in, false);
  assert.equal((await call('GET', '/api/me', { cookie: again.cookie })).body.signed_in, true);
});

test('failed sign-ins lock an account out for 1 s, then 2 s: 429 with JSON', async () => {
  const a = await signup('locked');
  const from = '198.51.100.1';
  for (let i = 0; i < 3; i++) {
    const r = await call('POST', '/api/login', { body: { name: a.name, password: `wrong-${i}-xyz` }, from: `${from}${i}` });
    assert.equal(r.status, 401);
  }
  // Locked out: even the right password, from any address, is not tried.
  const t0 = Date.now();
  const locked = await call('POST', '/api/login', { body: { name: a.name, password: a.password }, from: '198.51.100.9' });
  assert.equal(locked.status, 429);
  assert.equal(locked.body.retry_after, 1);
  assert.equal(locked.headers.get('retry-after'), '1');
  assert.match(locked.body.error, /too many failed sign-ins for this name/);
  // Once it may try again, one more failure doubles the wait.
  let r;
  do {
    await new Promise((ok) => setTimeout(ok, 100));
    r = await call('POST', '/api/login', { body: { name: a.name, password: 'wrong-again-xyz' }, from: '198.51.100.9' });
  } while (r.status === 429);
  const waited = Date.now() - t0;
  assert.equal(r.status, 401);
  const twice = await call('POST', '/api/login', { body: { name: a.name, password: a.password }, from: '198.51.100.9' });
  assert.equal(twice.status, 429);
  assert.equal(twice.body.retry_after, 2);
  console.log(`# account lock-out: 3 failures free, then ${waited} ms until the 4th try, then 2 s`);
});

test('failed sign-ins lock an address out, whatever the names; another address is not', async () => {
  const from = '203.0.113.7';
  let n = 0;
  for (;; n++) {
    const r = await call('POST', '/api/login', { body: { name: `ghost${n}`, password: 'nope-nope-nope' }, from });
    if (r.status === 429) {
      assert.match(r.body.error, /from your address/);
      assert.equal(r.body.retry_after, 1);
      break;
    }
    assert.equal(r.status, 401);
    assert.ok(n < 20, 'the address was never locked out');
  }
  assert.equal(n, 12); // four times an account's free tries
  const other = await call('POST', '/api/login', { body: { name: 'ghost0', password: 'nope-nope-nope' }, from: '203.0.113.8' });
  assert.equal(other.status, 401);
  console.log(`# address lock-out after ${n} failures over ${n} names`);
});

test('an unknown name and a wrong password: the same answer in the same time (argon2id cost)', async () => {
  const s = old;
  const name = 'timing1';
  const password = 'the-right-password';
  assert.equal((await call('POST', '/api/signup', { body: { name, password }, server: s })).status, 201);
  const time = async (who, i) => {
    const t0 = process.hrtime.bigint();
    const r = await call('POST', '/api/login', { body: { name: who, password: 'a-wrong-password' }, from: `192.0.2.${i}`, server: s });
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, r };
  };
  const known = [], unknown = [];
  for (let i = 0; i < 2; i++) { // under the account's free tries
    const a = await time(name, i);
    const b = await time(`nobody${i}`, 100 + i);
    assert.equal(a.r.status, 401);
    assert.deepEqual(a.r.body, b.r.body);
    assert.equal(b.r.status, 401);
    known.push(a.ms);
    unknown.push(b.ms);
  }
  const ok = await time(name, 50);
  const good = await call('POST', '/api/login', { body: { name, password }, from: '192.0.2.51', server: s });
  assert.equal(good.status, 200);
  const mean = (xs) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const [k, u] = [mean(known), mean(unknown)];
  console.log(`# sign-in refused: wrong password ${k.toFixed(1)} ms, unknown name ${u.toFixed(1)} ms (mean of ${known.length}); a verify ${ok.ms.toFixed(1)} ms`);
  // Without the dummy hash an unknown name would answer in well under a millisecond;
  // the bounds are loose for a loaded machine, which may stretch either side.
  assert.ok(u > 0.25 * k && u < 4 * k, `unknown ${u} ms against wrong ${k} ms`);
});

test('a cookie-authenticated POST from another site is refused (Origin)', async () => {
  const a = await signup('origin');
  const r = await call('POST', '/api/logout-all', { body: {}, cookie: a.cookie, headers: { origin: 'http://evil.example' } });
  assert.equal(r.status, 403);
  assert.equal((await call('GET', '/api/me', { cookie: a.cookie })).body.signed_in, true);
  const own = await call('POST', '/api/logout', { body: {}, cookie: a.cookie, headers: { origin: srv.url } });
  assert.equal(own.status, 200);
  assert.match(own.setCookie, /^crown_session=; Path=\/; Max-Age=0/);
  assert.equal((await call('GET', '/api/me', { cookie: a.cookie })).body.signed_in, false);
});

test('sign out everywhere, change the password', async () => {
  const a = await signup('pass');
  const other = (await call('POST', '/api/login', { body: { name: a.name, password: a.password } })).cookie;
  const wrong = await call('POST', '/api/account/password', { body: { password: 'not-it-at-all', new_password: 'brand-new-pass' }, cookie: a.cookie });
  assert.equal(wrong.status, 403);
  const changed = await call('POST', '/api/account/password', { body: { password: a.password, new_password: 'brand-new-pass' }, cookie: a.cookie });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  assert.equal((await call('GET', '/api/me', { cookie: other })).body.signed_in, false); // the old password's sessions end
  assert.equal((await call('GET', '/api/me', { cookie: a.cookie })).body.signed_in, true);
  assert.equal((await call('POST', '/api/login', { body: { name: a.name, password: a.password } })).status, 401);
  const again = await call('POST', '/api/login', { body: { name: a.name, password: 'brand-new-pass' } });
  assert.equal(again.status, 200);
  assert.equal((await call('POST', '/api/logout-all', { body: {}, cookie: again.cookie })).status, 200);
  for (const c of [a.cookie, again.cookie]) assert.equal((await call('GET', '/api/me', { cookie: c })).body.signed_in, false);
  assert.equal((await call('POST', '/api/logout-all', { body: {} })).status, 401);
});

async function game(body, cookie) {
  const r = await call('POST', '/api/games', { body, cookie });
  return r;
}

test('claim a browser\'s games, export them, delete the account: its games stay', async () => {
  const g1 = (await game({ game: 'kings-valley', seats: ['human', 'ai:1'] })).body;
  const g2 = (await game({ game: 'kings-valley', seats: ['human', 'human'] })).body;
  const a = await signup('claim');
  const claim = await call('POST', '/api/account/claim', {
    cookie: a.cookie,
    body: { games: [{ id: g1.id, token: g1.seats[0].token }, { id: g2.id, token: g2.seats[1].token },
      { id: g1.id, token: g1.seats[1].token }, { id: g2.id, token: 'f'.repeat(32) }] },
  });
  assert.equal(claim.status, 200);
  assert.deepEqual(claim.body.claimed, [g1.id, g2.id]);
  assert.equal(claim.body.refused.length, 2); // the AI's seat, a token of no seat
  assert.deepEqual((await call('GET', `/api/games/${g2.id}`)).body.accounts, [null, a.name]);
  // Another account cannot take a claimed seat.
  const b = await signup('thief');
  const steal = await call('POST', '/api/account/claim', { cookie: b.cookie, body: { games: [{ id: g2.id, token: g2.seats[1].token }] } });
  assert.deepEqual(steal.body.claimed, []);
  const exp = await call('GET', '/api/account/export', { cookie: a.cookie });
  assert.equal(exp.status, 200);
  assert.equal(exp.body.name, a.name);
  assert.deepEqual(exp.body.games.map((x) => [x.id, x.seat, x.token]).sort(),
    [[g1.id, 0, g1.seats[0].token], [g2.id, 1, g2.seats[1].token]].sort());
  assert.equal((await call('GET', '/api/account/export')).status, 401);
  // Deleted: the games stay, the seat shows a deleted player, the name is free again.
  assert.equal((await call('POST', '/api/account/delete', { cookie: a.cookie, body: { password: 'not-the-one-1' } })).status, 403);
  const del = await call('POST', '/api/account/delete', { cookie: a.cookie, body: { password: a.password } });
  assert.equal(del.status, 200);
  const st = (await call('GET', `/api/games/${g2.id}`)).body;
  assert.deepEqual(st.accounts, [null, 'deleted player']);
  assert.equal((await call('GET', '/api/me', { cookie: a.cookie })).body.signed_in, false);
  assert.equal((await call('GET', `/api/users/${a.name}`)).status, 404);
  assert.equal((await call('POST', '/api/login', { body: { name: a.name, password: a.password } })).status, 401);
  assert.equal((await call('POST', '/api/signup', { body: { name: a.name, password: 'another-pass-1' } })).status, 201);
});

test('rated games: between two accounts, the open seat taken by a signed-in player', async () => {
  const a = await signup('rater');
  const b = await signup('rated');
  const body = { game: 'kings-valley', seats: ['human', 'open'], rated: true };
  assert.equal((await game(body)).status, 401);
  assert.equal((await game({ ...body, seats: ['human', 'ai:3'] }, a.cookie)).status, 400);
  assert.equal((await game({ game: 'king-of-the-valley', seats: ['human', 'open', 'open'], rated: true }, a.cookie)).status, 400);
  assert.equal((await game({ ...body, rated: 'yes' }, a.cookie)).status, 400);
  const r = await game(body, a.cookie);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.seats[1].token, undefined); // the creator never holds his opponent's seat
  assert.equal(r.body.state.rated, true);
  assert.deepEqual(r.body.state.accounts, [a.name, null]);
  const id = r.body.id;
  const listed = (await call('GET', '/api/open')).body.games.find((x) => x.id === id);
  assert.equal(listed.rated, true);
  assert.equal((await call('POST', `/api/games/${id}/join`, { body: {} })).status, 401);
  assert.equal((await call('POST', `/api/games/${id}/join`, { body: {}, cookie: a.cookie })).status, 409);
  const j = await call('POST', `/api/games/${id}/join`, { body: {}, cookie: b.cookie });
  assert.equal(j.status, 200, JSON.stringify(j.body));
  assert.equal(j.body.seat, 1);
  const st = (await call('GET', `/api/games/${id}`, { token: j.body.token })).body;
  assert.deepEqual(st.accounts, [a.name, b.name]);
  assert.equal(st.you, 1);
  // A casual game's creator who is signed in sits in his seat by name too.
  const casual = await game({ game: 'kings-valley', seats: ['human', 'ai:2'] }, b.cookie);
  assert.deepEqual(casual.body.state.accounts, [b.name, null]);
  assert.equal(casual.body.state.rated, false);
  const exp = (await call('GET', '/api/account/export', { cookie: b.cookie })).body;
  assert.deepEqual(exp.games.map((x) => x.id).sort(), [id, casual.body.id].sort());
});

test('a database from before accounts is upgraded and its games claimed', async () => {
  const s = old;
  const id = '35d417a39aa2a2153d84443a';
  const token = 'a225b9698e5ad52c2d7a6cda0afe6181';
  const up = await call('POST', '/api/signup', { body: { name: 'oldtimer', password: 'from-long-ago' }, server: s });
  assert.equal(up.status, 201);
  const c = await call('POST', '/api/account/claim', { body: { games: [{ id, token }] }, cookie: up.cookie, server: s });
  assert.deepEqual(c.body.claimed, [id]);
  const st = (await call('GET', `/api/games/${id}`, { token, server: s })).body;
  assert.deepEqual(st.moves.map((m) => m.text), ['b1-b4', 'a5-a2']);
  assert.ok(st.accounts.includes('oldtimer'));
});
