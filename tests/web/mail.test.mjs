// mail.test.mjs - e-mail for accounts (docs/API.md, "E-mail"), received by a local SMTP
// server this test starts (tests/web/smtp-sink.py, Debian's python3-aiosmtpd): an
// address verified by its mailed link, once; "your move" in a correspondence game
// mailed once per turn, with a one-click unsubscribe link that works without signing
// in; a password reset whose link works once and expires, asked for with the same
// answer for a name or address nobody has; a refused mail tried again; the address,
// tokens and unsent mails erased with the account; a game about to run out of time
// mailed once; a mail queued while the SMTP server is down sent after a restart; mails
// in the account's language (its sign-up's, its switch's, else English); and a server without --smtp that
// says it sends none. On SQLite, then on PostgreSQL with two processes sending from the
// one queue (every count of mails below is exact: none is sent twice). Part of the api
// suite of tools/run-web-tests.sh.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { freePort, startPostgres } from './cluster.mjs';
import { api, startServer, tempDir } from './server.mjs';
import { startSink } from './smtp.mjs';

let sink; // smtp.mjs's sink of the suite running
let srv;
let off; // a server without --smtp
let brief; // on SQLite, a server whose days are 8 s, for a clock that runs low

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

const mailsTo = (to) => sink.to(to);

// The n-th mail to `to`, with the server's log when it does not come.
async function mail(to, n = 1) {
  try {
    return await sink.mail(to, n);
  } catch (e) {
    throw new Error(`${e.message}\n${srv.stderr()}`);
  }
}

// The token of the link to `path` in a mail, checking the link's base is the server's.
function link(m, path, server = srv) {
  const re = new RegExp(`${server.url.replace(/[.:/]/g, '\\$&')}${path.replace('?', '\\?')}=([0-9a-f]{64})`);
  const found = m.data.match(re);
  assert.ok(found, `no link ${path} in ${m.data}`);
  return found[1];
}

// An account with a verified address, through its verification mail.
async function verified(address, server = srv) {
  const a = await signup(server);
  const r = await call('POST', '/api/account/email', { body: { address }, cookie: a.cookie, server });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  assert.deepEqual(r.body, { mail: true, address, verified: false, notify: { moves: false, challenges: false, timeouts: false } });
  const m = await mail(address);
  assert.match(m.data, /^Subject: crown: confirm your e-mail address$/m);
  assert.match(m.data, /^From: crown <crown@example.org>$/m);
  const token = link(m, '/account?verify', server);
  assert.equal((await call('POST', '/api/email/verify', { body: { token }, server })).status, 200);
  return { ...a, address, token };
}

for (const store of ['sqlite', 'postgresql']) {
describe(store, () => {
  let pg;
  let others = []; // on PostgreSQL, a second process sending from the same queue

  before(async () => {
    sink = await startSink(1); // the first message refused: that mail is tried again
    // --day-seconds 96: the links last long enough for a loaded machine (a reset link
    // 4 s), and a refused mail is tried again after a second.
    const mailArgs = ['--password-cost', 'low', '--day-seconds', '96', '--smtp', `smtp://127.0.0.1:${sink.port}`, '--smtp-from', 'crown@example.org'];
    if (store === 'sqlite') {
      [srv, off, brief] = await Promise.all([
        startServer({ args: mailArgs }),
        startServer({ args: ['--password-cost', 'low'] }),
        startServer({ args: [...mailArgs.slice(0, 2), '--day-seconds', '8', ...mailArgs.slice(4)] }),
      ]);
    } else {
      pg = await startPostgres();
      srv = await startServer({ db: pg.url, args: mailArgs });
      others = [await startServer({ db: pg.url, args: mailArgs })];
    }
  });

  after(async () => {
    for (const s of [srv, ...others, ...(store === 'sqlite' ? [off, brief] : [])]) {
      if (!s) continue;
      const { code } = await s.stop();
      assert.equal(code, 0, s.stderr());
      assert.doesNotMatch(s.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
    }
    if (pg) pg.stop();
    if (sink) sink.stop();
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
    // Saved again as it is, the verified address stays verified (and no mail goes).
    const same = await call('POST', '/api/account/email', { body: { address: a.address.toUpperCase() }, cookie: a.cookie });
    assert.equal(same.status, 200);
    assert.deepEqual(same.body, got.body);
    // The address is the account's data: its export has it.
    const exported = (await call('GET', '/api/account/export', { cookie: a.cookie })).body;
    assert.deepEqual(exported.email, got.body);
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

  test('a challenge is mailed to the one challenged when he asked, once', async () => {
    const a = await signup();
    const b = await verified('challenged@example.org');
    const quiet = await verified('quiet@example.org');
    assert.equal((await call('POST', '/api/account/email/notify', { body: { challenges: true }, cookie: b.cookie })).body.notify.challenges, true);
    for (const to of [b, quiet]) {
      const r = await call('POST', '/api/challenges', { body: { to: to.name, game: 'kings-valley', clock: { days: 3 } }, cookie: a.cookie });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const m = await mail(b.address, 2); // the first was the verification
    assert.match(m.data, new RegExp(`^Subject: crown: ${a.name} challenges you to King's Valley`, 'm'));
    // quiet did not ask: a mail queued after the challenge comes after anything it queued.
    await verified('barrier-challenge@example.org');
    assert.equal(mailsTo(quiet.address).length, 1);
  });

  test('mails in the account\'s language: its sign-up\'s, its switch\'s, else English', async () => {
    // The subject, its RFC 2047 encoded words (UTF-8, base64, folded) decoded.
    const subjectOf = (m) => {
      const lines = m.data.split(/\r?\n/);
      const i = lines.findIndex((l) => l.startsWith('Subject: '));
      let text = lines[i].slice('Subject: '.length);
      for (let j = i + 1; /^[ \t]/.test(lines[j]); j++) text += lines[j];
      return text.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (x, b) => Buffer.from(b, 'base64').toString('utf8'));
    };
    const account = async (headers) => {
      const name = `mailer${++names}`;
      const r = await api(srv, 'POST', '/api/signup', { body: { name, password: `pw-${name}-long` }, headers });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return { name, cookie: r.headers.getSetCookie()[0].match(/^crown_session=([0-9a-f]*)/)[1] };
    };
    const ja = await account({ 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.5' });
    const de = await account({ 'accept-language': 'en' });
    // German chosen with the page's switch after signing up: the page asks who is in.
    await api(srv, 'GET', '/api/me', { headers: { cookie: `crown_session=${de.cookie}; crown_lang=de` } });
    const en = await account({});
    for (const [a, address] of [[ja, 'ja@example.org'], [de, 'de@example.org'], [en, 'en@example.org']]) {
      assert.equal((await call('POST', '/api/account/email', { body: { address }, cookie: a.cookie })).status, 202);
    }
    const mj = await mail('ja@example.org');
    assert.equal(subjectOf(mj), 'crown：メールアドレスの確認');
    assert.match(mj.data, new RegExp(`^${ja.name} さん$`, 'm'));
    assert.match(mj.data, /1日以内に次のリンクを開いてください/);
    assert.equal((await call('POST', '/api/email/verify', { body: { token: link(mj, '/account?verify') } })).status, 200);
    const md = await mail('de@example.org');
    assert.equal(subjectOf(md), 'crown: bestätige deine E-Mail-Adresse');
    assert.match(md.data, new RegExp(`^Hallo ${de.name},$`, 'm'));
    const me = await mail('en@example.org');
    assert.equal(subjectOf(me), 'crown: confirm your e-mail address');
    assert.match(me.data, /open this link within a day/);
    // A challenge to the Japanese account, its one-click unsubscribe line in Japanese.
    assert.equal((await call('POST', '/api/account/email/notify', { body: { challenges: true }, cookie: ja.cookie })).status, 200);
    assert.equal((await call('POST', '/api/challenges', { body: { to: ja.name, game: 'kings-valley', clock: { days: 3 } }, cookie: de.cookie })).status, 201);
    const mc = await mail('ja@example.org', 2);
    assert.equal(subjectOf(mc), `crown：${de.name} さんから キングスバレー の対局の申し込み`);
    assert.match(mc.data, /^このメールの配信停止はワンクリックで：$/m);
    link(mc, '/account?unsubscribe');
    // The language is the account's data: its export says it.
    assert.equal((await call('GET', '/api/account/export', { cookie: ja.cookie })).body.language, 'ja');
    assert.equal((await call('GET', '/api/account/export', { cookie: de.cookie })).body.language, 'de');
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
    // Four asks, two of them for this account: one mail, since an account gets one reset
    // mail a minute at most (nobody's mailbox is filled by asking again and again).
    const first = link(await mail(a.address, 2), '/login?reset');
    await verified('barrier-reset@example.org');
    assert.equal(mailsTo(a.address).length, 2);
    const password = 'a-new-password-1';
    const r = await call('POST', '/api/password/reset', { body: { token: first, password } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // The old sessions ended, the new password signs in, and the link works once.
    assert.deepEqual((await call('GET', '/api/me', { cookie: a.cookie })).body, { signed_in: false, name: null });
    assert.equal((await call('POST', '/api/login', { body: { name: a.name, password } })).status, 200);
    assert.equal((await call('POST', '/api/password/reset', { body: { token: first, password: 'another-one-2' } })).status, 404);
    // A link lasts an hour of a day: a second (the least) where a day is 8 s. Tested once.
    if (store !== 'sqlite') return;
    const c = await verified('expiry@example.org', brief);
    assert.equal((await call('POST', '/api/password/forgot', { body: { name: c.name }, server: brief })).status, 202);
    const late = link(await mail(c.address, 2), '/login?reset', brief);
    await new Promise((res) => setTimeout(res, 2100));
    const expired = await call('POST', '/api/password/reset', { body: { token: late, password: 'too-late-3' }, server: brief });
    assert.equal(expired.status, 404);
    assert.match(expired.body.error, /used or expired/);
  });

  test('a game about to run out of time is mailed once, to the account to move that asked', async () => {
    if (store !== 'sqlite') return; // days of 8 s need a server of their own: once
    const a = await signup(brief);
    const b = await verified('late@example.org', brief);
    const on = await call('POST', '/api/account/email/notify', { body: { timeouts: true }, cookie: b.cookie, server: brief });
    assert.deepEqual(on.body.notify, { moves: false, challenges: false, timeouts: true });
    const made = await call('POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], clock: { days: 1 } }, cookie: a.cookie, server: brief });
    const id = made.body.id;
    const token = (await call('POST', `/api/games/${id}/join`, { body: {}, cookie: b.cookie, server: brief })).body.token;
    const st = made.body.state;
    assert.equal((await call('POST', `/api/games/${id}/moves`, { body: { move: st.legal[0].text }, token: made.body.seats[0].token, server: brief })).status, 200);
    // A day is 8 s here: with 2 s of the second player's move left, the mail; then the flag.
    const m = await mail('late@example.org', 2);
    assert.match(m.data, new RegExp(`^Subject: crown: your time is running out against ${a.name}$`, 'm'));
    assert.match(m.data, new RegExp(`/g/${id}#token=${token}`));
    assert.match(m.data, /has 0 h 00 min left before you lose on time/);
    assert.match(m.data, /unsubscribe=[0-9a-f]{64}/);
    const end = Date.now() + 15000;
    while ((await call('GET', `/api/games/${id}`, { server: brief })).body.status !== 'over') {
      assert.ok(Date.now() < end, 'the flag did not fall');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(mailsTo('late@example.org').length, 2); // one, though looked at every 200 ms
  });

  test('a mail queued while the SMTP server is down is sent after a restart', async () => {
    if (store !== 'sqlite') return; // the queue is the same table on both
    const db = join(tempDir(), 'crown.db');
    const args = (port) => ['--password-cost', 'low', '--day-seconds', '96', '--smtp', `smtp://127.0.0.1:${port}`, '--smtp-from', 'crown@example.org'];
    const down = await startServer({ db, args: args(await freePort()) });
    const a = await signup(down);
    assert.equal((await call('POST', '/api/account/email', { body: { address: 'patient@example.org' }, cookie: a.cookie, server: down })).status, 202);
    const end = Date.now() + 15000;
    while (!/mail 1 not sent \(try 1 of 8\)/.test(down.stderr())) {
      assert.ok(Date.now() < end, `no failed try: ${down.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal((await down.stop()).code, 0);
    // The same database, now with a server that answers: the mail was kept, and goes.
    const up = await startServer({ db, args: args(sink.port) });
    try {
      const m = await mail('patient@example.org');
      assert.match(m.data, /^Subject: crown: confirm your e-mail address$/m);
    } finally {
      assert.equal((await up.stop()).code, 0);
    }
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
