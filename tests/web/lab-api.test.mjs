// lab-api.test.mjs - the Lab page's API (crown serve --lab DIR): off without --lab (a
// JSON 403 saying how to turn it on); a tiny study of random players started, watched
// to the end and its summary and report read back; one study at a time; bad studies
// refused with what is wrong (unknown game, too many games, outside engines, a rule
// naming a server file, malformed bodies); no path leaves the lab's folder; a study the
// server stopped stays stopped; only its owner (the owner_token its start answered)
// stops a running study.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { api, startServer, tempDir, withServer } from './server.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(srv, id, state, timeoutMs = 20000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const r = await api(srv, 'GET', `/api/lab/${id}`);
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
    assert.ok(existsSync(join(dir, id, 'results.csv')));
    r = await api(srv, 'GET', '/api/lab');
    assert.equal(r.body.studies.length, 1);
    assert.equal(r.body.studies[0].state, 'done');
  });
});

test('one study at a time, and bad studies refused', async () => {
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
    let r = await api(srv, 'POST', '/api/lab', { body: { game: 'kings-valley', players: 'ai:3,ai:3', games: 200, seed: 1 } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const second = await api(srv, 'POST', '/api/lab', { body: { game: 'kings-valley', players: 'random,random', games: 2 } });
    assert.equal(second.status, 409);
    assert.match(second.body.error, /one at a time/);
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
  // Started again, it shows that study stopped, with no summary.
  await withServer(['--lab', dir], async (srv) => {
    const r = await api(srv, 'GET', '/api/lab');
    assert.equal(r.body.studies.length, 1);
    assert.equal(r.body.studies[0].state, 'stopped');
    assert.equal((await api(srv, 'GET', `/api/lab/${r.body.studies[0].id}/summary`)).status, 404);
  });
});

test('only its owner stops a running study, which keeps its games and no summary', async () => {
  const dir = join(tempDir('crown-lab-'), 'lab');
  await withServer(['--lab', dir, '--lab-max-games', '400'], async (srv) => {
    let r = await api(srv, 'POST', '/api/lab', { body: { game: 'kings-valley', players: 'ai:3,ai:3', games: 200, seed: 1 } });
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
    assert.match(r.body.error, /not running/);
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
  const t0 = Date.now();
  const { code } = await srv.stop();
  const took = Date.now() - t0;
  assert.equal(code, 0, srv.stderr());
  assert.ok(took < 5000, `the server took ${took} ms to stop`);
  assert.doesNotMatch(srv.stderr(), /AddressSanitizer|runtime error|LeakSanitizer|ThreadSanitizer/);
  await withServer(['--lab', dir], async (again) => {
    const s = await api(again, 'GET', `/api/lab/${r.body.id}`);
    assert.equal(s.body.state, 'stopped');
  });
});
