// passkeys-api.test.mjs - passkeys in the JSON API (docs/API.md, "Passkeys") with a
// software authenticator (authenticator.mjs): a signed-in account registers passkeys,
// lists, renames and removes them; signing in with one after signing out opens a new
// session; and each thing the server must check is broken in turn and refused with a
// 4xx and a message: the page's origin and the relying party, a challenge used twice,
// expired with its use or another account's, the flags, the signature, a counter that
// goes back (a clone), a passkey removed or of a deleted account, malformed fields; and
// failed passkey sign-ins lock the address out as wrong passwords do. Part of the api
// suite of tools/run-web-tests.sh; one server, its requests through node:http so that
// they may name the server "localhost", as WebAuthn wants a name, not an address.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Passkey } from './authenticator.mjs';
import { request, startServer } from './server.mjs';

let srv;
let host;
let origin;

before(async () => {
  srv = await startServer({ args: ['--password-cost', 'low', '--trusted-proxy', '127.0.0.1'] });
  host = `localhost:${new URL(srv.url).port}`;
  origin = `http://${host}`;
});

after(async () => {
  const { code } = await srv.stop();
  assert.equal(code, 0, srv.stderr());
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer/);
});

let attempt; // the passkey sign-in cookie the last login-options set, as a browser keeps it
// A call as a page of this server would make it, from address `from`, with the session
// `cookie` and, to the passkey calls, the sign-in cookie (`pass` instead of the kept one).
async function call(method, path, { body, cookie, from, headers = {}, pass = attempt } = {}) {
  const h = { host, origin, 'x-forwarded-for': from || '192.0.2.1', ...headers };
  const jar = [];
  if (cookie) jar.push(`crown_session=${cookie}`);
  if (pass && path.startsWith('/api/passkeys/')) jar.push(`crown_passkey=${pass}`);
  if (jar.length) h.cookie = jar.join('; ');
  const r = await request(srv, method, path, { body: body === undefined && method === 'POST' ? {} : body, headers: h });
  const set = (r.headers['set-cookie'] || [])[0] || '';
  r.cookie = (set.match(/^crown_session=([0-9a-f]*)/) || [])[1];
  r.setCookie = set;
  const pk = set.match(/^crown_passkey=([0-9a-f]*)/);
  if (pk) attempt = pk[1];
  assert.ok(r.status < 500, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r;
}

let names = 0;
async function signup() {
  const r = await call('POST', '/api/signup', { body: { name: `keyholder${++names}`, password: 'a-long-password' } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { name: r.body.name, cookie: r.cookie };
}

// Registers a new software passkey for the account; resolves to it.
async function register(cookie, name = 'laptop') {
  const key = new Passkey();
  const opts = await call('POST', '/api/passkeys/register-options', { cookie });
  assert.equal(opts.status, 200, JSON.stringify(opts.body));
  const r = await call('POST', '/api/passkeys/register', { cookie, body: key.create(opts.body, origin, { name }) });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(r.body.id, key.id);
  return key;
}

async function loginOptions(from) {
  const r = await call('POST', '/api/passkeys/login-options', { from });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

test('register, list, rename and remove passkeys; sign in with one after signing out', async () => {
  const a = await signup();
  const opts = await call('POST', '/api/passkeys/register-options', { cookie: a.cookie });
  assert.equal(opts.body.rp.id, 'localhost');
  assert.equal(opts.body.user.name, a.name);
  assert.equal(opts.body.attestation, 'none');
  assert.deepEqual(opts.body.pubKeyCredParams.map((p) => p.alg), [-7, -8, -257]);
  assert.equal(opts.body.authenticatorSelection.residentKey, 'required');
  assert.deepEqual(opts.body.excludeCredentials, []);
  const key = await register(a.cookie, 'laptop');
  const phone = await register(a.cookie, 'phone');
  const again = await call('POST', '/api/passkeys/register-options', { cookie: a.cookie });
  let list = (await call('GET', '/api/passkeys', { cookie: a.cookie })).body.passkeys;
  // Oldest first; two made in the same second, by id. A slow machine (ThreadSanitizer)
  // may register them in different seconds, so the order comes from their times.
  const created = Object.fromEntries(list.map((p) => [p.id, p.created]));
  assert.ok(created[key.id] <= created[phone.id]);
  const both = [[key.id, 'laptop'], [phone.id, 'phone']]
    .sort(([x], [y]) => created[x] - created[y] || (x < y ? -1 : 1));
  assert.deepEqual(again.body.excludeCredentials.map((c) => c.id), both.map(([id]) => id));
  assert.deepEqual(list.map((p) => [p.id, p.name, p.last_used]), both.map(([id, name]) => [id, name, null]));
  assert.equal((await call('POST', '/api/passkeys/rename', { cookie: a.cookie, body: { id: phone.id, name: 'Téléphone' } })).status, 200);
  assert.equal((await call('POST', '/api/passkeys/delete', { cookie: a.cookie, body: { id: key.id } })).status, 200);
  list = (await call('GET', '/api/passkeys', { cookie: a.cookie })).body.passkeys;
  assert.deepEqual(list.map((p) => [p.id, p.name]), [[phone.id, 'Téléphone']]);
  // Signed out, then in with the phone: a new session, the account's name.
  assert.equal((await call('POST', '/api/logout', { cookie: a.cookie })).status, 200);
  const inn = await call('POST', '/api/passkeys/login', { body: phone.get(await loginOptions(), origin) });
  assert.equal(inn.status, 200, JSON.stringify(inn.body));
  assert.deepEqual(inn.body, { name: a.name });
  assert.match(inn.cookie, /^[0-9a-f]{64}$/);
  assert.notEqual(inn.cookie, a.cookie);
  assert.deepEqual((await call('GET', '/api/me', { cookie: inn.cookie })).body, { signed_in: true, name: a.name });
  list = (await call('GET', '/api/passkeys', { cookie: inn.cookie })).body.passkeys;
  assert.ok(list[0].last_used > 0);
  // The account's export lists it by name and dates, never its key; no puzzle rated yet.
  const exp = (await call('GET', '/api/account/export', { cookie: inn.cookie })).body;
  assert.deepEqual(exp.passkeys.map((p) => [p.name, p.last_used > 0, p.created > 0]), [['Téléphone', true, true]]);
  assert.equal(JSON.stringify(exp).includes(phone.id), false);
  assert.deepEqual(exp.puzzle_ratings, {});
  // The removed passkey signs nobody in.
  const gone = await call('POST', '/api/passkeys/login', { body: key.get(await loginOptions(), origin) });
  assert.equal(gone.status, 401);
  assert.match(gone.body.error, /belongs to no account/);
  // Another account cannot see, rename or remove it.
  const b = await signup();
  assert.deepEqual((await call('GET', '/api/passkeys', { cookie: b.cookie })).body.passkeys, []);
  assert.equal((await call('POST', '/api/passkeys/delete', { cookie: b.cookie, body: { id: phone.id } })).status, 404);
  assert.equal((await call('POST', '/api/passkeys/rename', { cookie: b.cookie, body: { id: phone.id, name: 'mine' } })).status, 404);
  // Signed out, nothing of passkeys but signing in.
  assert.equal((await call('GET', '/api/passkeys')).status, 401);
  assert.equal((await call('POST', '/api/passkeys/register-options')).status, 401);
});

test('the checks: origin, relying party, challenge, flags, signature, counter, fields', async () => {
  const a = await signup();
  const key = await register(a.cookie);
  const from = '192.0.2.50';
  const refused = async (body, status, pattern, opts = {}) => {
    const r = await call('POST', '/api/passkeys/login', { body, from, ...opts });
    assert.equal(r.status, status, JSON.stringify(r.body));
    assert.match(r.body.error, pattern);
    assert.equal(r.cookie, undefined);
  };
  // Another site's page: refused before any handler (the Origin check).
  await refused(key.get(await loginOptions(from), 'http://evil.example'), 403, /another site/, { headers: { origin: 'http://evil.example' } });
  // The client data names another origin than the page's.
  await refused(key.get(await loginOptions(from), 'http://localhost:1'), 401, /origin is not this page's/);
  // Reached by an address: no relying party id.
  const ip = await call('POST', '/api/passkeys/login-options', { headers: { host: '127.0.0.1', origin: 'http://127.0.0.1' } });
  assert.equal(ip.status, 400);
  assert.match(ip.body.error, /by a name/);
  // Made for another site.
  const other = new Passkey({ rpId: 'crown.example' });
  other.rawId = key.rawId;
  other.id = key.id;
  other.key = key.key;
  await refused(other.get(await loginOptions(from), origin), 401, /another site than localhost/);
  // A sign-in's challenge is bound to the browser that asked for it, by a cookie of its
  // own: another browser's (or none) does not take it.
  const asked = await loginOptions(from);
  assert.match((await call('POST', '/api/passkeys/login-options', { from })).setCookie,
    /^crown_passkey=[0-9a-f]{64}; Path=\/api\/passkeys; Max-Age=120; HttpOnly; SameSite=Strict$/);
  await refused(key.get(asked, origin), 401, /asked for by another browser/);
  const unbound = await loginOptions(from);
  await refused(key.get(unbound, origin), 401, /asked for by another browser/, { pass: '' });
  // A challenge is used once; one never given, or given for a registration, is refused.
  const opts = await loginOptions(from);
  assert.equal((await call('POST', '/api/passkeys/login', { body: key.get(opts, origin), from })).status, 200);
  await refused(key.get(opts, origin), 401, /challenge is used, expired/);
  await refused(key.get({ challenge: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, origin), 401, /challenge/);
  const reg = await call('POST', '/api/passkeys/register-options', { cookie: a.cookie });
  await refused(key.get(reg.body, origin), 401, /challenge/);
  // A registration's challenge is the session's own: not another session's of the
  // account, nor another account's.
  const again = await call('POST', '/api/login', { body: { name: a.name, password: 'a-long-password' } });
  const elsewhere = await call('POST', '/api/passkeys/register', { cookie: again.cookie, body: new Passkey().create(reg.body, origin) });
  assert.equal(elsewhere.status, 400);
  assert.match(elsewhere.body.error, /not this session's/);
  const b = await signup();
  const stolen = await call('POST', '/api/passkeys/register', { cookie: b.cookie, body: new Passkey().create(reg.body, origin) });
  assert.equal(stolen.status, 400);
  assert.match(stolen.body.error, /challenge/);
  // No user verification; no user presence.
  await refused(key.get(await loginOptions(from), origin, { flags: 0x01 }), 401, /verify the user/);
  await refused(key.get(await loginOptions(from), origin, { flags: 0x04 }), 401, /present/);
  // Another key's signature.
  const impostor = new Passkey();
  impostor.rawId = key.rawId;
  impostor.id = key.id;
  impostor.counter = key.counter;
  await refused(impostor.get(await loginOptions(from), origin), 401, /signature does not verify/);
  const forged = key.get(await loginOptions(from), origin);
  forged.signature = Buffer.from(forged.signature, 'base64url').reverse().toString('base64url');
  await refused(forged, 401, /signature/);
  // A counter that does not go up: a clone's mark.
  await refused(key.get(await loginOptions(from), origin, { counter: 1 }), 401, /counter went back/);
  const good = await call('POST', '/api/passkeys/login', { body: key.get(await loginOptions(from), origin), from: '192.0.2.51' });
  assert.equal(good.status, 200, JSON.stringify(good.body));
  // Malformed fields: 400 with the field named.
  const base = key.get(await loginOptions('192.0.2.52'), origin);
  for (const [field, value, pattern] of [
    ['signature', 'not base64url!', /'signature' must be base64url/],
    ['client_data', '', /'client_data'/],
    ['authenticator_data', 123, /'authenticator_data' must be a string/],
    ['extra', 'x', /extra/],
  ]) {
    const r = await call('POST', '/api/passkeys/login', { body: { ...base, [field]: value }, from: '192.0.2.52' });
    assert.equal(r.status, 400, `${field}: ${JSON.stringify(r.body)}`);
    assert.match(r.body.error, pattern);
  }
  const regBad = await call('POST', '/api/passkeys/register', { cookie: a.cookie, body: { name: 'x', client_data: 'e30', attestation_object: 'oA' } });
  assert.equal(regBad.status, 400);
  const longName = await call('POST', '/api/passkeys/rename', { cookie: a.cookie, body: { id: key.id, name: 'x'.repeat(41) } });
  assert.equal(longName.status, 400);
  assert.match(longName.body.error, /1 to 40/);
  // Characters, not bytes: forty in Japanese (120 bytes) are fine.
  const kana = await call('POST', '/api/passkeys/rename', { cookie: a.cookie, body: { id: key.id, name: 'パスキー'.repeat(10) } });
  assert.equal(kana.status, 200, JSON.stringify(kana.body));
  const named = (await call('GET', '/api/passkeys', { cookie: a.cookie })).body.passkeys;
  assert.equal(named[0].name, 'パスキー'.repeat(10));
  const control = await call('POST', '/api/passkeys/rename', { cookie: a.cookie, body: { id: key.id, name: 'a\tb' } });
  assert.match(control.body.error, /control characters/);
  // The same passkey twice: a conflict.
  const dup = await call('POST', '/api/passkeys/register-options', { cookie: a.cookie });
  key.counter = 0;
  assert.equal((await call('POST', '/api/passkeys/register', { cookie: a.cookie, body: key.create(dup.body, origin) })).status, 409);
});

test('failed passkey sign-ins lock the address out; a deleted account\'s passkeys sign nobody in', async () => {
  const a = await signup();
  const key = await register(a.cookie);
  const from = '192.0.2.77';
  let last;
  for (let i = 0; i < 30; i++) {
    last = await call('POST', '/api/passkeys/login', { body: key.get(await loginOptions(from), origin, { flags: 0x01 }), from });
    if (last.status === 429) break;
    assert.equal(last.status, 401);
  }
  assert.equal(last.status, 429);
  assert.match(last.body.error, /too many failed sign-ins from your address/);
  assert.ok(last.body.retry_after >= 1);
  // Deleted: its passkeys go with it.
  assert.equal((await call('POST', '/api/account/delete', { cookie: a.cookie, body: { password: 'a-long-password' } })).status, 200);
  const r = await call('POST', '/api/passkeys/login', { body: key.get(await loginOptions(), origin), from: '192.0.2.78' });
  assert.equal(r.status, 401);
  assert.match(r.body.error, /belongs to no account/);
});
