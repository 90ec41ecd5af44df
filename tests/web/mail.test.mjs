// mail.test.mjs - e-mail for accounts (docs/API.md, "E-mail"), received by a local SMTP
// server this test starts (tests/web/smtp-sink.py, Debian's python3-aiosmtpd): an
// address verified by its mailed link, once; "your move" in a correspondence game
// mailed once per turn, with a one-click unsubscribe link that works without signing
// in; a password reset whose link works once and expires, asked for with the same
// answer for a name or address nobody has; a refused mail tried again; the address,
// tokens and unsent mails erased with the account; and a server without --smtp that
// says it sends none. On SQLite, then on PostgreSQL with two processes sending from the
// one queue (every count of mails below is exact: none is sent twice). Part of the api
// suite of tools/run-web-tests.sh.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { startPostgres } from './cluster.mjs';
import { api, startServer } from './server.mjs';

// Debian's python3, where python3-aiosmtpd is (a python3 earlier in PATH may lack it).
const PYTHON = process.env.CROWN_TEST_PYTHON || '/usr/bin/python3';
const WAIT_MS = 15000;

let sink; // { port, mails: [{ from, to, data }], proc }
let srv;
let off; // a server without --smtp

// The sink refuses its first message (451), so the first mail is one tried again.
function startSink() {
  return new Promise((resolve, reject) => {
    const proc = spawn(PYTHON, [new URL('./smtp-sink.py', import.meta.url).pathname, '1'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const s = { proc, mails: [], port: 0, err: '' };
    let buf = '';
    proc.stderr.on('data', (d) => { s.err += d; });
    proc.stdout.on('data', (d) => {
      buf += d;
      for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        if (line.startsWith('port ')) { s.port = Number(line.slice(5)); resolve(s); } else if (line) s.mails.push(JSON.parse(line));
      }
    });
    proc.on('exit', (code) => reject(new Error(`the SMTP sink exited (${code}): ${s.err}`)));
  });
}

async function call(method, path, { body, cookie, server = srv, token } = {}) {
  const headers = cookie ? { cookie: `crown_session=${cookie}` } : {};
  const r = await api(server, method, path, { body, headers, token });
  r.cookie = ((r.headers.getSetCookie()[0] || '').match(/^crown_session=([0-9a-f]*)/) || [])[1];
  return r;
}

let names = 0;
async function signup(server = srv) {
  const name = `mailer${++names}`;
  const password = `pw-${name}-long`;
  const r = await call('POST', '/api/signup', { body: { name, password }, server });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { name, password, cookie: r.cookie };
}

// The mails to `to` received so far.
const mailsTo = (to) => sink.mails.filter((m) => m.to.includes(to));

// Waits for the n-th mail to `to` (1-based) and returns it.
async function mail(to, n = 1) {
  const end = Date.now() + WAIT_MS;
  while (Date.now() < end) {
    const got = mailsTo(to);
    if (got.length >= n) return got[n - 1];
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail ${n} to ${to}: ${JSON.stringify(sink.mails.map((m) => m.to))}\n${srv.stderr()}`);
}

// The token of the link to `path` in a mail, checking the link's base is the server's.
function link(m, path) {
  const re = new RegExp(`${srv.url.replace(/[.:/]/g, '\\$&')}${path.replace('?', '\\?')}=([0-9a-f]{64})`);
  const found = m.data.match(re);
  assert.ok(found, `no link ${path} in ${m.data}`);
  return found[1];
}

// An account with a verified address, through its verification mail.
async function verified(address) {
  const a = await signup();
  const r = await call('POST', '/api/account/email', { body: { address }, cookie: a.cookie });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  assert.deepEqual(r.body, { mail: true, address, verified: false, notify: { moves: false, challenges: false, timeouts: false } });
  const m = await mail(address);
  assert.match(m.data, /^Subject: crown: confirm your e-mail address$/m);
  assert.match(m.data, /^From: crown <crown@example.org>$/m);
  const token = link(m, '/account?verify');
  assert.equal((await call('POST', '/api/email/verify', { body: { token } })).status, 200);
  return { ...a, address, token };
}

for (const store of ['sqlite', 'postgresql']) {
describe(store, () => {
  let pg;
  let others = []; // on PostgreSQL, a second process sending from the same queue

  before(async () => {
    sink = await startSink();
    const mailArgs = ['--password-cost', 'low', '--day-seconds', '96', '--smtp', `smtp://127.0.0.1:${sink.port}`, '--smtp-from', 'crown@example.org'];
    // --day-seconds 96: a reset link (an hour of a day) lasts 4 s, for its expiry;
    // long enough for the mail to arrive on a loaded machine.
    if (store === 'sqlite') {
      [srv, off] = await Promise.all([startServer({ args: mailArgs }), startServer({ args: ['--password-cost', 'low'] })]);
    } else {
      pg = await startPostgres();
      srv = await startServer({ db: pg.url, args: mailArgs });
      others = [await startServer({ db: pg.url, args: mailArgs })];
    }
  });

  after(async () => {
    for (const s of [srv, ...others, ...(store === 'sqlite' ? [off] : [])]) {
      if (!s) continue;
      const { code } = await s.stop();
      assert.equal(code, 0, s.stderr());
    }
    if (pg) pg.stop();
    if (sink) { sink.proc.removeAllListeners('exit'); sink.proc.stdin.end(); }
  });

  test('an address is verified by the link mailed to it, once; a refused mail is tried again', async () => {
    const a = await verified('first@example.org');
    // The sink refused the first message: the sender tried again, and the log says so
    // by the mail's number, without its address.
    const log = [srv, ...others].map((x) => x.stderr()).join('');
    assert.match(log, /mail 1 not sent \(try 1 of 8\)/);
    assert.doesNotMatch(log, /first@example\.org/);
    const again = await call('POST', '/api/email/verify', { body: { token: a.token } });
    assert.equal(again.status, 404);
    assert.match(again.body.error, /used, expired/);
    assert.equal((await call('POST', '/api/email/verify', { body: { token: 'nonsense' } })).status, 404);
    const got = await call('GET', '/api/account/email', { cookie: a.cookie });
    assert.equal(got.body.verified, true);
    // Addresses that would break a mail are refused.
    for (const address of ['no-at-sign', 'a@b', 'x@example.org\r\nBcc: y@example.org', 'a b@example.org', '<a@example.org>']) {
      const r = await call('POST', '/api/account/email', { body: { address }, cookie: a.cookie });
      assert.equal(r.status, 400, address);
    }
    assert.equal((await call('POST', '/api/account/email', { body: { address: 'x@example.org' } })).status, 401);
  });

  test('"your move" is mailed once per turn of a correspondence game, and unsubscribed in one click', async () => {
    const a = await signup();
    const b = await verified('second@example.org');
    assert.equal((await call('POST', '/api/account/email/notify', { body: { moves: true }, cookie: b.cookie })).body.notify.moves, true);
    const made = await call('POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], clock: { days: 3 } }, cookie: a.cookie });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const id = made.body.id;
    const joined = await call('POST', `/api/games/${id}/join`, { body: {}, cookie: b.cookie });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    const tokens = [made.body.seats[0].token, joined.body.token];
    const move = async (seat) => {
      const st = (await call('GET', `/api/games/${id}`, { token: tokens[seat] })).body;
      const r = await call('POST', `/api/games/${id}/moves`, { body: { move: st.legal[0].text }, token: tokens[seat] });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    };
    await move(0);
    const m = await mail(b.address, 2); // the first was the verification
    assert.match(m.data, new RegExp(`^Subject: crown: your move in King's Valley against ${a.name}$`, 'm'));
    assert.match(m.data, new RegExp(`/g/${id}#token=${tokens[1]}`));
    assert.match(m.data, /3 days per move/);
    const unsubscribe = link(m, '/account?unsubscribe');
    assert.match(m.data, new RegExp(`^List-Unsubscribe: <[^>]+unsubscribe=${unsubscribe}>$`, 'm'));
    // The second player's move, then the first's: a new turn, a new mail.
    await move(1);
    await move(0);
    const m2 = await mail(b.address, 3);
    assert.notEqual(link(m2, '/account?unsubscribe'), unsubscribe);
    // One click, no sign-in: no more move mails (twice is fine, an unknown link is not).
    for (let i = 0; i < 2; i++) assert.equal((await call('POST', '/api/email/unsubscribe', { body: { token: unsubscribe } })).status, 200);
    assert.equal((await call('POST', '/api/email/unsubscribe', { body: { token: 'f'.repeat(64) } })).status, 404);
    assert.equal((await call('GET', '/api/account/email', { cookie: b.cookie })).body.notify.moves, false);
    await move(1);
    await move(0);
    // A mail queued after the move is received after anything the move queued: none did.
    await verified('barrier@example.org');
    assert.equal(mailsTo(b.address).length, 3);
    // A game without days per move mails nothing, whoever asked.
    assert.equal((await call('POST', '/api/account/email/notify', { body: { moves: true }, cookie: b.cookie })).status, 200);
    const live = await call('POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'] }, cookie: a.cookie });
    const j2 = await call('POST', `/api/games/${live.body.id}/join`, { body: {}, cookie: b.cookie });
    const st = (await call('GET', `/api/games/${live.body.id}`, { token: live.body.seats[0].token })).body;
    await call('POST', `/api/games/${live.body.id}/moves`, { body: { move: st.legal[0].text }, token: live.body.seats[0].token });
    assert.ok(j2.body.token);
    await verified('barrier2@example.org');
    assert.equal(mailsTo(b.address).length, 3);
  });

  test('a password reset: the same answer for anyone, a link that works once and expires', async () => {
    const a = await verified('reset@example.org');
    const answers = [];
    for (const name of [a.name, 'nobody-at-all', 'unknown@example.org', a.address.toUpperCase()]) {
      const r = await call('POST', '/api/password/forgot', { body: { name } });
      assert.equal(r.status, 202);
      answers.push(r.body);
    }
    assert.equal(new Set(answers.map((x) => JSON.stringify(x))).size, 1);
    const first = link(await mail(a.address, 2), '/login?reset');
    const second = link(await mail(a.address, 3), '/login?reset'); // asked by the address, any case
    const password = 'a-new-password-1';
    const r = await call('POST', '/api/password/reset', { body: { token: first, password } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // The old sessions ended, the new password signs in, and no link of that time works
    // again: the one used, and the other asked before it.
    assert.deepEqual((await call('GET', '/api/me', { cookie: a.cookie })).body, { signed_in: false, name: null });
    assert.equal((await call('POST', '/api/login', { body: { name: a.name, password } })).status, 200);
    for (const token of [first, second]) assert.equal((await call('POST', '/api/password/reset', { body: { token, password: 'another-one-2' } })).status, 404);
    // A link lasts an hour of a day: here 4 s (tested once, on SQLite: it takes time).
    if (store !== 'sqlite') return;
    assert.equal((await call('POST', '/api/password/forgot', { body: { name: a.name } })).status, 202);
    const late = link(await mail(a.address, 4), '/login?reset');
    await new Promise((res) => setTimeout(res, 5100));
    const expired = await call('POST', '/api/password/reset', { body: { token: late, password: 'too-late-3' } });
    assert.equal(expired.status, 404);
    assert.match(expired.body.error, /used or expired/);
  });

  test('deleting the account erases its address and tokens; a server without --smtp sends none', async () => {
    const a = await verified('gone@example.org');
    assert.equal((await call('POST', '/api/account/delete', { body: { password: a.password }, cookie: a.cookie })).status, 200);
    assert.equal((await call('POST', '/api/password/forgot', { body: { name: 'gone@example.org' } })).status, 202);
    await verified('barrier3@example.org');
    assert.equal(mailsTo('gone@example.org').length, 1); // the verification only
    if (store !== 'sqlite') return; // the rest once: a server without mail, SQLite's file
    const b = await signup(off);
    const r = await call('POST', '/api/account/email', { body: { address: 'b@example.org' }, cookie: b.cookie, server: off });
    assert.equal(r.status, 503);
    assert.match(r.body.error, /sends no mail/);
    assert.equal((await call('GET', '/api/account/email', { cookie: b.cookie, server: off })).body.mail, false);
    // In the database, after the stop: nothing of the deleted address is left.
    assert.equal((await srv.stop()).code, 0);
    const left = execFileSync('sqlite3', [srv.db, "SELECT (SELECT count(*) FROM user_emails WHERE address='gone@example.org') + (SELECT count(*) FROM mail_queue WHERE address='gone@example.org') + (SELECT count(*) FROM mail_tokens t JOIN users u ON u.id=t.user_id WHERE u.deleted=1)"]).toString().trim();
    assert.equal(left, '0');
  });
});
}
