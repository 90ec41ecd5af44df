// solution.test.mjs - a finished King's Valley game against a solved table: the API
// (GET /api/games/ID/solution: each ply's value, the moves that changed the result, who
// may ask when) and the game page marking the move that gave the win away, in the list
// and on the board, and its review doing the same in its turns. The server loads a
// reduced table (one soldier a side, solved by `crown solve --soldiers 1` in a fraction
// of a second) in its packed form (`--compress`: what is shared, read like the full
// one), which answers positions with one soldier a side; other rules have no table and
// get the no-table answer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { browserSuite, openPage } from './browser.mjs';
import { api, CROWN, tempDir } from './server.mjs';

// The first player wins in 3; d4-d3 gives that away (the second king then slides
// b3-c3 onto the Valley).
const START = '5/3S1/Kk3/3s1/5 1 1';
const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
let srv;
let browser;

browserSuite({
  before, after, shots: SHOTS,
  args() {
    const dir = tempDir('crown-solution-');
    const table = join(dir, 'one-soldier.kvt');
    const packed = join(dir, 'one-soldier.kvz');
    execFileSync(CROWN, ['solve', 'kings-valley', '--soldiers', '1', '--out', table], { stdio: 'ignore' });
    execFileSync(CROWN, ['solve', 'kings-valley', '--soldiers', '1', '--compress', '--tablebase', table,
      '--out', packed, '--check', '1000'], { stdio: 'ignore' });
    return ['--tablebase', packed];
  },
  ready(s) {
    ({ srv, browser } = s);
  },
});

async function playedGame(rules) {
  const made = await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], position: START, rules } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const g = made.body;
  const first = await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[0].token, body: { move: 'd4-d3' } });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  return g;
}

test('the solution API: values, the change of hands, and who may ask when', async () => {
  const g = await playedGame();
  // While the game is played only its seats may ask.
  const early = await api(srv, 'GET', `/api/games/${g.id}/solution`);
  assert.equal(early.status, 403);
  assert.match(early.body.error, /once it is over/);
  const seat = await api(srv, 'GET', `/api/games/${g.id}/solution`, { token: g.seats[1].token });
  assert.equal(seat.status, 200);
  assert.deepEqual(seat.body.changes, [1]);
  const last = await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[1].token, body: { move: 'b3-c3' } });
  assert.equal(last.body.status, 'over');
  const r = await api(srv, 'GET', `/api/games/${g.id}/solution`);
  assert.equal(r.status, 200);
  assert.equal(r.body.available, true);
  assert.deepEqual(r.body.plies, [
    { ply: 1, seat: 0, move: 'd4-d3', before: 'win in 3', after: 'loss in 2', changed: true },
    { ply: 2, seat: 1, move: 'b3-c3', before: 'win in 1', after: 'win in 1', changed: false },
  ]);
  assert.deepEqual(r.body.changes, [1]);
  assert.equal((await api(srv, 'POST', `/api/games/${g.id}/solution`)).status, 405);
  // Other rules: no table fits, and the answer says so.
  const off = await playedGame({ 'locked-king-loses': 'off' });
  const none = await api(srv, 'GET', `/api/games/${off.id}/solution`, { token: off.seats[0].token });
  assert.equal(none.status, 200);
  assert.deepEqual(none.body, { available: false, plies: [], changes: [] });
});

test('the game page and its review mark where the result changed hands', { timeout: 20000 }, async () => {
  const g = await playedGame();
  await api(srv, 'POST', `/api/games/${g.id}/moves`, { token: g.seats[1].token, body: { move: 'b3-c3' } });
  const page = await openPage(browser, { width: 1200, height: 900 });
  const errors = page.errors;
  await page.goto(`${srv.url}${g.seats[0].url}`);
  await page.waitForSelector('#moves li.turning', { timeout: 10000 });
  assert.equal(await page.getAttribute('#moves li.turning', 'data-ply'), '1');
  assert.deepEqual(await page.$$eval('#moves .ply-value', (e) => e.map((x) => x.textContent)), ['W3', 'W1']);
  assert.match(await page.textContent('#solution'), /Ply 1, first player's d4-d3: win in 3 became loss in 2/);
  const marked = await page.$$eval('#board .cell.turning', (e) => e.map((x) => x.getAttribute('data-cell')).sort());
  assert.deepEqual(marked, ['d3', 'd4']);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'solution-kings-valley.png') });
  // The review marks the same move in its turns, and on its board once that move is played.
  await page.click('#review-open');
  await page.waitForSelector('#review-moves .turn.turning', { timeout: 10000 });
  assert.equal(await page.getAttribute('#review-moves .turn.turning', 'data-ply'), '1');
  assert.deepEqual(await page.$$eval('#review-moves .ply-value', (e) => e.map((x) => x.textContent)), ['W3', 'W1']);
  assert.match(await page.textContent('#review-solution'), /Ply 1, first player's d4-d3: win in 3 became loss in 2/);
  const reviewMarks = () => page.$$eval('#review-board .cell.turning', (e) => e.map((x) => x.getAttribute('data-cell')).sort());
  assert.deepEqual(await reviewMarks(), ['d3', 'd4']);
  await page.click('button[aria-label="first position"]');
  assert.deepEqual(await reviewMarks(), [], 'nothing marked before the move');
  assert.equal(await page.locator('#review-moves .turn.turning').count(), 1, 'the list keeps its marks');
  await page.click('#review-moves .turn[data-ply="1"]');
  assert.deepEqual(await reviewMarks(), ['d3', 'd4']);
  await page.screenshot({ path: join(SHOTS, 'solution-review-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scroll at 390 px');
  await page.screenshot({ path: join(SHOTS, 'solution-review-390.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});
