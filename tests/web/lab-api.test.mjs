// lab-api.test.mjs - the Lab page's API (crown serve --lab DIR): off without --lab (a
// JSON 403 saying how to turn it on); a tiny study of random players started, watched
// to the end and its summary and report read back, the report in the reader's language; one study at a time; bad studies
// refused with what is wrong (unknown game, too many games, outside engines, a rule
// naming a server file, malformed bodies); no path leaves the lab's folder; a study the
// server stopped stays stopped; only its owner (the owner_token its start answered)
// stops a running study. The others wait in a queue, in order, instead of a 409; one
// address is held to 2 studies and --lab-max-games games running or queued and to
// --lab-starts-per-hour starts (429), the queue to 16 (503); the lab keeps --lab-keep
// study folders and 20 of an address, deleting the oldest ended ones; a queued study
// its owner stops leaves the lab; SIGTERM with studies queued still stops at once.
// Clients are told apart by X-Forwarded-For from a trusted proxy (the test itself).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { api, startServer, stopsWithin, tempDir, withServer } from './server.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A request as from a client behind the trusted proxy of the tests that name one
// (--trusted-proxy 127.0.0.1): without it they refuse the request; other servers ignore
// the header.
const call = (srv, method, path, opts = {}) =>
  api(srv, method, path, { ...opts, headers: { 'x-forwarded-for': '192.0.2.1', ...opts.headers } });

async function until(srv, id, state, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const r = await call(srv, 'GET', `/api/lab/${id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (r.body.state === state) return r.body;
    await sleep(50);
  }
  assert.fail(`study ${id} did not reach ${state}`);
}

test('the lab is off without --lab', async () => {
  await withServer([], async (srv) => {
    for (const [method, path] of [['GET', '/api/lab'], ['POST', '/api/lab'], ['GET', '/api/lab/1-0/report']]) {
      const r = await api(srv, method, path, method === 'POST' ? { body: { game: 'kings-valley', players: 'random,random', games: 1 } } : {});
      assert.equal(r.status, 403);
      assert.match(r.body.error, /--lab DIR/);
    }
  });
});

test('a study runs, is watched to the end and read back', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '50'], async (srv) => {
    let r = await api(srv, 'GET', '/api/lab');
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.enabled, r.body.max_games, r.body.running, r.body.studies], [true, 50, null, []]);
    r = await api(srv, 'POST', '/api/lab', { body: { game: 'kings-valley', players: 'random,random', games: 4, compare: ['max-plies=30'], seed: 7 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { id } = r.body;
    assert.equal(r.headers.get('location'), `/api/lab/${id}`);
    assert.equal(r.body.game, 'kings-valley');
    assert.deepEqual(r.body.sets, ['baseline', 'max-plies=30']);
    const done = await until(srv, id, 'done');
    assert.equal(done.games, 4);
    const sum = await api(srv, 'GET', `/api/lab/${id}/summary`);
    assert.equal(sum.status, 200);
    assert.equal(sum.body.rows, 8);
    assert.equal(sum.body.sets.length, 2);
    const rep = await api(srv, 'GET', `/api/lab/${id}/report`);
    assert.equal(rep.status, 200);
    assert.match(rep.headers.get('content-type'), /^text\/html/);
    assert.match(rep.body, /<\/html>/);
    // The report's own inline styles and data: plots are allowed, scripts never.
    const csp = rep.headers.get('content-security-policy');
    assert.match(csp, /style-src 'unsafe-inline'/);
    assert.match(csp, /sandbox/);
    assert.doesNotMatch(csp, /script-src/);
    // In English the words are the ones crown lab wrote on disk (en.json says them alike),
    // but for the game, named as the pages name it (name.GAME) where the file has its
    // registry name.
    const disk = readFileSync(join(dir, id, 'report.html'), 'utf8');
    assert.match(disk, />kings-valley: a self-play study</);
    assert.equal(rep.body, disk.replace('>kings-valley study<', ">King's Valley study<")
      .replace('>kings-valley: a self-play study<', ">King's Valley: a self-play study<"));
    // In the reader's language: the cookie's, else Accept-Language's; every marked word
    // is its message, placeholders and plural forms as the browser's t() would have them,
    // the game by its name in the language.
    for (const [headers, lang] of [[{ 'accept-language': 'ja-JP,en;q=0.5' }, 'ja'], [{ 'accept-language': 'ja', cookie: 'crown_lang=de' }, 'de'], [{ 'accept-language': 'fr' }, 'fr']]) {
      const page = (await api(srv, 'GET', `/api/lab/${id}/report`, { headers })).body;
      assert.match(page, new RegExp(`<html lang="${lang}">`));
      const cat = JSON.parse(readFileSync(new URL(`../../src/web/static/i18n/${lang}.json`, import.meta.url), 'utf8'));
      const marked = [...page.matchAll(/data-i18n="([^"]+)"(?: data-i18n-args="([^"]*)")?[^>]*>([^<]*)</g)];
      assert.ok(marked.length > 40, `${marked.length} marked words`);
      for (const [, key, args, text] of marked) {
        const params = args ? JSON.parse(args.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) : {};
        if (params.game) params.game = cat[`name.${params.game}`];
        let msg = cat[key];
        assert.ok(msg, `${lang} lacks ${key}`);
        if (typeof msg === 'object') msg = msg[new Intl.PluralRules(lang).select(params.count)] ?? msg.other;
        const want = msg.replace(/\{(\w+)\}/g, (m, n) => (n in params ? String(params[n]) : m)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        assert.equal(text, want, `${lang} ${key}`);
      }
    }
    assert.ok(existsSync(join(dir, id, 'results.csv')));
    r = await api(srv, 'GET', '/api/lab');
    assert.equal(r.body.studies.length, 1);
    assert.equal(r.body.studies[0].state, 'done');
  });
});

test('one study runs at a time, the next queued, and bad studies refused', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '400'], async (srv) => {
    const bad = [
      [{ game: 'nope', players: 'random,random', games: 2 }, 400, /no game called 'nope'/],
      [{ game: 'kings-valley', players: 'random,random', games: 300, compare: ['max-plies=40'] }, 400, /1 to 400 games in all/],
      [{ game: 'kings-valley', players: 'random,random', games: 0 }, 400, /1 to 400 games/],
      [{ game: 'kings-valley', players: 'random,random', games: Number.MAX_SAFE_INTEGER, compare: ['max-plies=40'] }, 400, /1 to 400 games/],
      [{ game: 'kings-valley', players: 'uci:/bin/sh,random', games: 2 }, 400, /not outside engines/],
      [{ game: 'king-of-the-valley', players: 'random,random', games: 2, rules: 'tiles=/etc/passwd' }, 400, /names a file on the server/],
      [{ game: 'king-of-the-valley', players: 'random,random', games: 2, compare: ['tiles=/etc/passwd'] }, 400, /names a file on the server/],
      [{ game: 'kings-valley', players: 'human,random', games: 2 }, 400, /no human seats/],
      [{ game: 'kings-valley', players: 'random,random', games: 2, rules: 'nope=1' }, 400, /nope/],
      [{ game: 'kings-valley', players: 'random,random', games: '2' }, 400, /a study is/],
      [{ game: 'kings-valley', games: 2 }, 400, /a study is/],
      [{ game: 'kings-valley', players: 'random,random', games: 2, compare: 'max-plies=3' }, 400, /a study is/],
      [[1, 2], 400, /not a JSON object/],
    ];
    for (const [body, status, re] of bad) {
      const r = await api(srv, 'POST', '/api/lab', { body });
      assert.equal(r.status, status, JSON.stringify([body, r.body]));
      assert.match(r.body.error, re);
    }
    let r = await api(srv, 'POST', '/api/lab', { body: { game: 'king-down', players: 'ai:4,ai:4', games: 200, seed: 1 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    // One runs at a time: the next waits its turn.
    const second = await api(srv, 'POST', '/api/lab', { body: { game: 'kings-valley', players: 'random,random', games: 2 } });
    assert.equal(second.status, 202, JSON.stringify(second.body));
    assert.equal(second.body.state, 'queued');
    const running = await api(srv, 'GET', `/api/lab/${r.body.id}`);
    assert.equal(running.body.state, 'running');
    assert.ok(running.body.progress.total === 200);
    for (const path of ['/api/lab/..%2F..', '/api/lab/../../etc', `/api/lab/${r.body.id}/nope`, '/api/lab/9-9', `/api/lab/${r.body.id}x`]) {
      r = await api(srv, 'GET', path);
      assert.equal(r.status, 404, path);
    }
    r = await api(srv, 'DELETE', '/api/lab');
    assert.equal(r.status, 405);
    // The server stops with the study running: no more games start, and it stops cleanly.
  });
  // Started again, it shows that study stopped, with no summary; the one queued never
  // started.
  await withServer(['--lab', dir], async (srv) => {
    const r = await api(srv, 'GET', '/api/lab');
    assert.equal(r.body.studies.length, 2);
    assert.deepEqual(r.body.studies.map((s) => s.state), ['stopped', 'stopped']);
    assert.match(r.body.studies[0].error, /the server stopped before it started/);
    assert.match(r.body.studies[1].error, /the server stopped after \d+ games/);
    assert.equal((await api(srv, 'GET', `/api/lab/${r.body.studies[1].id}/summary`)).status, 404);
  });
});

test('only its owner stops a running study, which keeps its games and no summary', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '400'], async (srv) => {
    let r = await api(srv, 'POST', '/api/lab', { body: { game: 'king-down', players: 'ai:4,ai:4', games: 200, seed: 1 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const { id, owner_token: token } = r.body;
    assert.match(token, /^[0-9a-f]{32}$/);
    for (const body of [{}, { token: 'f'.repeat(32) }, { token: 7 }]) {
      r = await api(srv, 'POST', `/api/lab/${id}/stop`, { body });
      assert.equal(r.status, 403, JSON.stringify(r.body));
      assert.match(r.body.error, /only the study's owner/);
    }
    assert.equal((await api(srv, 'GET', `/api/lab/${id}/stop`)).status, 405);
    assert.equal((await api(srv, 'GET', `/api/lab/${id}`)).body.state, 'running');
    r = await api(srv, 'POST', `/api/lab/${id}/stop`, { body: { token } });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.state, 'stopping');
    const stopped = await until(srv, id, 'stopped');
    assert.match(stopped.error, /its owner stopped it/);
    assert.equal((await api(srv, 'GET', `/api/lab/${id}/summary`)).status, 404);
    r = await api(srv, 'POST', `/api/lab/${id}/stop`, { body: { token } });
    assert.equal(r.status, 409);
    assert.match(r.body.error, /not running or queued/);
    // The lab is free again for the next study.
    r = await api(srv, 'POST', '/api/lab', { body: { game: 'kings-valley', players: 'random,random', games: 1 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  });
});

test('SIGTERM in the middle of a long study game stops the server within 5 s', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  const srv = await startServer({ args: ['--lab', dir] });
  // A King Down game between ai:8 players lasts many seconds; the server must not wait
  // for it to end (systemd's stop time-out), only for the move in play.
  const r = await api(srv, 'POST', '/api/lab', { body: { game: 'king-down', players: 'ai:8,ai:8', games: 4, seed: 1 } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await sleep(500);
  await stopsWithin(srv, 5000);
  await withServer(['--lab', dir], async (again) => {
    const s = await api(again, 'GET', `/api/lab/${r.body.id}`);
    assert.equal(s.body.state, 'stopped');
  });
});

// The clients of these tests, told apart by the X-Forwarded-For of a trusted proxy.
const PROXIED = ['--trusted-proxy', '127.0.0.1'];
const LONG = { game: 'king-down', players: 'ai:4,ai:4', games: 200, seed: 1 };
const tiny = (games = 1) => ({ game: 'kings-valley', players: 'random,random', games });
const from = (srv, ip, body) => call(srv, 'POST', '/api/lab', { body, headers: { 'x-forwarded-for': ip } });

test('a study from another address is queued, not refused, and starts in its turn', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '400', ...PROXIED], async (srv) => {
    const a = await from(srv, '198.51.100.1', LONG);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(a.body.state, 'running');
    const b = await from(srv, '198.51.100.2', tiny(2));
    assert.equal(b.status, 202, JSON.stringify(b.body));
    assert.deepEqual([b.body.state, b.body.place], ['queued', 1]);
    assert.match(b.body.owner_token, /^[0-9a-f]{32}$/);
    assert.equal(b.headers.get('location'), `/api/lab/${b.body.id}`);
    const c = await from(srv, '198.51.100.3', tiny(1));
    assert.equal(c.status, 202, JSON.stringify(c.body));
    assert.deepEqual([c.body.state, c.body.place], ['queued', 2]);
    let r = await call(srv, 'GET', '/api/lab');
    assert.equal(r.body.running, a.body.id);
    assert.equal(r.body.queued, 2);
    assert.deepEqual(r.body.limits, { queue: 16, studies_per_address: 2, games_per_address: 400, starts_per_hour: 10, keep: 200, keep_per_address: 20 });
    assert.deepEqual(r.body.studies.map((s) => [s.id, s.state, s.place]),
      [[c.body.id, 'queued', 2], [b.body.id, 'queued', 1], [a.body.id, 'running', undefined]]);
    r = await call(srv, 'GET', `/api/lab/${b.body.id}`);
    assert.deepEqual([r.body.state, r.body.place], ['queued', 1]);
    // The first stopped by its owner, the next starts, and the one after when it ends.
    r = await call(srv, 'POST', `/api/lab/${a.body.id}/stop`, { body: { token: a.body.owner_token } });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const bDone = await until(srv, b.body.id, 'done');
    assert.equal(bDone.games, 2);
    await until(srv, c.body.id, 'done');
    assert.equal((await call(srv, 'GET', `/api/lab/${a.body.id}`)).body.state, 'stopped');
    r = await call(srv, 'GET', '/api/lab');
    assert.deepEqual([r.body.running, r.body.queued], [null, 0]);
    // Each folder holds its owner's address, which is never served.
    assert.equal(readFileSync(join(dir, b.body.id, 'owner.addr'), 'utf8').trim(), '198.51.100.2');
    assert.equal((await call(srv, 'GET', `/api/lab/${b.body.id}/owner.addr`)).status, 404);
  });
});

test('only its owner stops a queued study, which then leaves the lab', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '400', ...PROXIED], async (srv) => {
    const a = await from(srv, '198.51.100.1', LONG);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const b = await from(srv, '198.51.100.2', tiny());
    const c = await from(srv, '198.51.100.2', tiny());
    assert.deepEqual([b.status, c.status, c.body.place], [202, 202, 2]);
    let r = await call(srv, 'POST', `/api/lab/${b.body.id}/stop`, { body: { token: c.body.owner_token } });
    assert.equal(r.status, 403, JSON.stringify(r.body));
    r = await call(srv, 'POST', `/api/lab/${b.body.id}/stop`, { body: { token: b.body.owner_token } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { id: b.body.id, state: 'removed' });
    assert.equal((await call(srv, 'GET', `/api/lab/${b.body.id}`)).status, 404);
    assert.ok(!existsSync(join(dir, b.body.id)));
    r = await call(srv, 'GET', `/api/lab/${c.body.id}`);
    assert.deepEqual([r.body.state, r.body.place], ['queued', 1]);
    assert.equal((await call(srv, 'GET', '/api/lab')).body.queued, 1);
    // Its place is free for its address again.
    r = await from(srv, '198.51.100.2', tiny());
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.place, 2);
    await call(srv, 'POST', `/api/lab/${a.body.id}/stop`, { body: { token: a.body.owner_token } });
    await until(srv, c.body.id, 'done');
    await until(srv, r.body.id, 'done');
  });
});

test('one address is held to 2 studies, --lab-max-games games and its starts an hour', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '300', '--lab-starts-per-hour', '4', ...PROXIED], async (srv) => {
    const x = '198.51.100.7';
    const a = await from(srv, x, LONG);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    let r = await from(srv, x, tiny(150));
    assert.equal(r.status, 429, JSON.stringify(r.body));
    assert.match(r.body.error, /have 200 games; with this one's 150 that is more than the 300/);
    assert.ok(Number(r.headers.get('retry-after')) > 0);
    const b = await from(srv, x, tiny(100));
    assert.equal(b.status, 202, JSON.stringify(b.body));
    r = await from(srv, x, tiny(1));
    assert.equal(r.status, 429, JSON.stringify(r.body));
    assert.match(r.body.error, /your address has 2 studies running or queued, the most it may have at once/);
    assert.ok(Number(r.headers.get('retry-after')) > 0);
    // Another address is not held back by this one.
    const other = await from(srv, '198.51.100.8', tiny(1));
    assert.equal(other.status, 202, JSON.stringify(other.body));
    // Stopping its studies frees the address; then its starts an hour run out.
    await call(srv, 'POST', `/api/lab/${b.body.id}/stop`, { body: { token: b.body.owner_token } });
    await call(srv, 'POST', `/api/lab/${a.body.id}/stop`, { body: { token: a.body.owner_token } });
    await until(srv, other.body.id, 'done');
    const c = await from(srv, x, tiny(1));
    assert.equal(c.status, 201, JSON.stringify(c.body));
    await until(srv, c.body.id, 'done');
    const d = await from(srv, x, tiny(1));
    assert.equal(d.status, 201, JSON.stringify(d.body)); // its 4th start this hour
    await until(srv, d.body.id, 'done');
    r = await from(srv, x, tiny(1));
    assert.equal(r.status, 429, JSON.stringify(r.body));
    assert.match(r.body.error, /too many studies started from your address: at most 4 an hour; try again in \d+ s/);
    assert.ok(Number(r.headers.get('retry-after')) > 0);
    assert.equal((await from(srv, '198.51.100.8', tiny(1))).status, 201);
  });
});

test('the queue holds 16 studies in all; more are refused with 503', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '400', ...PROXIED], async (srv) => {
    assert.equal((await from(srv, '198.51.100.1', LONG)).status, 201);
    for (let i = 2; i <= 16; i++) {
      const r = await from(srv, `198.51.100.${i}`, tiny());
      assert.equal(r.status, 202, JSON.stringify(r.body));
      assert.equal(r.body.place, i - 1);
    }
    const r = await from(srv, '198.51.100.17', tiny());
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.match(r.body.error, /the lab's queue is full \(16 studies running or queued\)/);
    assert.ok(Number(r.headers.get('retry-after')) > 0);
  });
});

test('--lab-keep deletes the oldest ended studies, never one running or queued', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-keep', '2', '--lab-max-games', '400', ...PROXIED], async (srv) => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      const r = await from(srv, `198.51.100.${i + 1}`, tiny());
      assert.equal(r.status, 201, JSON.stringify(r.body));
      ids.push(r.body.id);
      await until(srv, r.body.id, 'done');
    }
    // The third study's start deleted the first's folder.
    assert.deepEqual(ids.map((id) => existsSync(join(dir, id))), [false, true, true]);
    let r = await call(srv, 'GET', '/api/lab');
    assert.deepEqual(r.body.studies.map((s) => s.id), [ids[2], ids[1]]);
    const a = await from(srv, '198.51.100.9', LONG);
    const b = await from(srv, '198.51.100.10', tiny());
    const c = await from(srv, '198.51.100.11', tiny());
    assert.deepEqual([a.status, b.status, c.status], [201, 202, 202]);
    // Every ended study went; the running and queued ones stay, even past the bound.
    assert.deepEqual(ids.map((id) => existsSync(join(dir, id))), [false, false, false]);
    r = await call(srv, 'GET', '/api/lab');
    assert.deepEqual(r.body.studies.map((s) => s.state), ['queued', 'queued', 'running']);
    await call(srv, 'POST', `/api/lab/${a.body.id}/stop`, { body: { token: a.body.owner_token } });
    await until(srv, c.body.id, 'done');
  });
});

test('the lab keeps 20 studies of one address, deleting its oldest first', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-starts-per-hour', '100', ...PROXIED], async (srv) => {
    const other = await from(srv, '203.0.113.1', tiny());
    assert.equal(other.status, 201, JSON.stringify(other.body));
    await until(srv, other.body.id, 'done');
    const ids = [];
    for (let i = 0; i < 21; i++) {
      const r = await from(srv, '203.0.113.2', tiny());
      assert.equal(r.status, 201, JSON.stringify(r.body));
      ids.push(r.body.id);
      await until(srv, r.body.id, 'done');
    }
    assert.ok(!existsSync(join(dir, ids[0])), 'the address\'s oldest study is deleted');
    assert.ok(ids.slice(1).every((id) => existsSync(join(dir, id))));
    assert.ok(existsSync(join(dir, other.body.id)), 'another address\'s older study stays');
  });
});

test('SIGTERM with a study running and others queued stops the server within 5 s', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  const srv = await startServer({ args: ['--lab', dir, ...PROXIED] });
  const a = await from(srv, '198.51.100.1', { game: 'king-down', players: 'ai:8,ai:8', games: 4, seed: 1 });
  const b = await from(srv, '198.51.100.2', tiny());
  const c = await from(srv, '198.51.100.3', tiny());
  assert.deepEqual([a.status, b.status, c.status], [201, 202, 202]);
  await sleep(300);
  await stopsWithin(srv, 5000);
  // The queued studies never started, and say so after a restart.
  for (const id of [b.body.id, c.body.id]) assert.ok(!existsSync(join(dir, id, 'results.csv')));
  await withServer(['--lab', dir], async (again) => {
    const r = await api(again, 'GET', '/api/lab');
    assert.deepEqual(r.body.studies.map((s) => [s.id, s.state]), [[c.body.id, 'stopped'], [b.body.id, 'stopped'], [a.body.id, 'stopped']]);
    assert.match(r.body.studies[0].error, /the server stopped before it started/);
    assert.equal(r.body.queued, 0);
  });
});
