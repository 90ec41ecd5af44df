// review.test.mjs - the review of a game and keyboard play, in headless Chromium against
// a real `crown serve`: a short finished King's Valley game stepped through with the
// buttons and the arrow keys, its moves by turn (and the game page's live list by
// rounds), the analysis with its graph and its turning point, the result said once, the
// record downloaded, then imported on /import and reviewed again;
// a move played with the keyboard alone (Tab, arrows, Enter); and the axe-core audit of
// the new-game form, the import page, the review and a game page of every game, while
// it is played and once it is over, at both sizes.
// Screenshots at 1280x800 and 390x844; no page scrolls sideways at 390 px.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { browserSuite, pageReuser } from './browser.mjs';
import { api, startServer } from './server.mjs';
import { roundsOf } from '../../src/web/static/js/turns.js';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 30000 };
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
// Three actions: the first player's soldier (missing the king's way into the Valley),
// the second's (leaving it open again), and the first king sliding into the Valley.
const START = 'ss1ss/2k2/5/5/SSKSS 1 10';
const LINE = ['a1-a4', 'e5-e2', 'c1-c3'];

let srv;
let games;
let newPage; // one page for every test, in a context that takes downloads (browser.mjs)
browserSuite({
  before, after, shots: SHOTS,
  async ready(s) {
    srv = s.srv;
    games = (await api(srv, 'GET', '/api/games')).body.games;
    newPage = pageReuser(() => s.browser.newContext({ acceptDownloads: true }), WIDE);
  },
});

async function finishedGame() {
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], position: START } })).body;
  for (let i = 0; i < LINE.length; i++) {
    const r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[i % 2].token, body: { move: LINE[i] } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  return made;
}

const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('review: stepping, moves by turn, the analysis graph and turning point, export then import', async () => {
  const made = await finishedGame();
  const page = await newPage(WIDE);
  await page.goto(`${srv.url}${made.seats[0].url}`);
  await page.waitForSelector('#board svg', WAIT);
  // The live move list is grouped alike (movelist.js): a numbered line per round, an
  // item per action.
  const live = await page.$$eval('#moves li', (li) => li.map((x) => [x.dataset.round ?? null, Math.round([...x.getClientRects()].at(-1).top)]));
  assert.deepEqual(live.map(([round]) => round), ['1', null, '2']);
  assert.ok(live[0][1] === live[1][1] && live[2][1] > live[1][1], 'a line per round');
  await page.click('#review-open');
  await page.waitForSelector('#review-board svg', WAIT);
  const ply = () => page.$eval('#review-board', (b) => Number(b.dataset.ply));
  assert.equal(await ply(), 3, 'the review opens at the end');
  // Two rounds: "1. a1-a4 e5-e2", "2. c1-c3".
  const rounds = await page.$$eval('#review-moves > li', (li) => li.map((x) => [x.value, [...x.querySelectorAll('.turn')].map((b) => b.textContent)]));
  assert.deepEqual(rounds, [[1, ['a1-a4', 'e5-e2']], [2, ['c1-c3']]]);
  await page.click('button[aria-label="first position"]');
  assert.equal(await ply(), 0);
  await page.click('button[aria-label="next action"]');
  assert.equal(await ply(), 1);
  await page.keyboard.press('ArrowRight');
  assert.equal(await ply(), 2);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Home');
  assert.equal(await ply(), 0);
  await page.keyboard.press('End');
  assert.equal(await ply(), 3);
  await page.click('#review-moves .turn[data-ply="2"]');
  assert.equal(await ply(), 2);
  assert.match(await page.textContent('#review-where'), /After action 2 of 3: e5-e2/);

  await page.click('#review-analyse');
  await page.waitForSelector('#review-graph[data-done="yes"]', WAIT);
  assert.equal(await page.locator('#review-graph canvas').count() >= 1, true, 'uPlot draws the graph');
  // The turning points, with the AI's move there: the first player's a1-a4 missed the
  // king's way into the Valley, the second's e5-e2 left it open again.
  const swing = await page.textContent('#review-swings');
  assert.match(swing, /Move 1, First player: a1-a4 \(100% → \d+% to win\); the AI plays c1-c3/);
  assert.match(swing, /Move 1, Second player: e5-e2 \(\d+% → 0% to win\); the AI plays c4-/);
  await page.click('#review-swings .swing[data-ply="1"]');
  assert.equal(await ply(), 1);
  assert.match(await page.textContent('#review-eval'), /Second player to move is .*\(\d+% to win\)\. The AI plays c4-/);
  // At the end the result is said once, in its box; the analysis line does not repeat it.
  await page.click('button[aria-label="last position"]');
  assert.equal(await page.textContent('#review-eval'), 'The game ended here.');
  const said = 'You won: your king reached the Valley';
  assert.equal(await page.textContent('#review-result'), said);
  assert.equal(await page.evaluate((t) => document.body.innerText.split(t).length - 1, said), 1, 'the result said once');
  await page.screenshot({ path: join(SHOTS, 'review-1280.png'), fullPage: true });
  await assertAccessible(page, 'the review');
  assert.deepEqual(page.errors, []);

  const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click('#review-export')]);
  const record = readFileSync(await download.path(), 'utf8');
  assert.match(record, /^crown-record 1\ngame kings-valley\n/);
  assert.match(record, /move e5-e2\nmove c1-c3\n/);

  // On a phone: the record pasted on /import becomes a game of its own, reviewed.
  const phone = await newPage(PHONE);
  await phone.goto(`${srv.url}/import`);
  await phone.fill('#import-text', record);
  await assertAccessible(phone, 'the import page');
  await Promise.all([phone.waitForURL(/\/g\/[0-9a-f]{24}#token=.*&review$/, WAIT), phone.click('#import-go')]);
  await phone.waitForSelector('#review-board svg', WAIT);
  assert.notEqual(new URL(phone.url()).pathname, `/g/${made.id}`);
  assert.equal(await phone.$eval('#review-board', (b) => b.dataset.ply), '3');
  assert.equal(await phone.locator('#review-moves .turn').count(), 3);
  await phone.click('#review-analyse');
  await phone.waitForSelector('#review-graph[data-done="yes"]', WAIT);
  assert.ok(await noSideways(phone), 'no sideways scroll at 390 px');
  await assertAccessible(phone, 'the review at 390 px');
  await phone.screenshot({ path: join(SHOTS, 'review-390.png'), fullPage: true });
  // A server without the charting library: the review says so and still analyses.
  await phone.route('**/vendor/**', (route) => route.fulfill({ status: 404, body: 'no such page' }));
  await phone.goto(`${srv.url}${made.seats[1].url}&review`);
  await phone.waitForSelector('#review-board svg', WAIT);
  await phone.click('#review-analyse');
  await phone.waitForSelector('#review-graph[data-done="yes"]', WAIT);
  assert.match(await phone.textContent('#review-graph'), /graph is unavailable/);
  assert.match(await phone.textContent('#review-swings'), /e5-e2/);
  await phone.unroute('**/vendor/**');
  // A record that is not one says so.
  await phone.goto(`${srv.url}/import`);
  await phone.fill('#import-text', 'crown-record 1\ngame kings-valley\nstart sskss/5/5/5/SSKSS 1 0\nmove z9-z1\n');
  await phone.click('#import-go');
  await phone.waitForFunction(() => /line 4: move 1 'z9-z1'/.test(document.querySelector('#import-message').textContent), null, WAIT);
  assert.deepEqual(phone.errors, []);
});

test('moves by turn: several actions of one seat are one turn, rounds restart with the seats', () => {
  const m = (seat, text) => ({ seat, text });
  const rounds = roundsOf([m(0, 'a1-a3'), m(0, 'a3-a5'), m(1, 'b9-b7'), m(null, 'draw'), m(0, 'c1-c2'), m(2, 'x'), m(1, 'y')]);
  assert.deepEqual(rounds.map((r) => [r.number, r.turns.map((t) => [t.seat, t.first, t.last, t.texts.join(' ')])]), [
    [1, [[0, 0, 1, 'a1-a3 a3-a5'], [1, 2, 2, 'b9-b7'], [null, 3, 3, 'draw']]],
    [2, [[0, 4, 4, 'c1-c2'], [2, 5, 5, 'x']]],
    [3, [[1, 6, 6, 'y']]],
  ]);
});

test('keyboard play: Tab to a piece, arrows to its target, Enter to select and move', async () => {
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'ai:1'] } })).body;
  const page = await newPage();
  await page.goto(`${srv.url}${made.seats[0].url}`);
  await page.waitForSelector('#board svg [data-cell][tabindex="0"]', WAIT);
  // Tab from the top of the page reaches the board's one stop: a piece that may move.
  let focused = null;
  for (let i = 0; i < 30 && !focused; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement.getAttribute('data-cell'));
  }
  assert.equal(focused, 'a1');
  assert.match(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), /^a1, .*may move/);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#board [data-cell="a1"].selected', WAIT);
  for (const k of ['ArrowUp', 'ArrowUp', 'ArrowUp']) await page.keyboard.press(k);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('data-cell')), 'a4');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#moves li')?.textContent.includes('a1-a4'), null, WAIT);
  // The redrawn board keeps the keyboard where it was.
  await page.waitForFunction(() => document.activeElement.getAttribute('data-cell') === 'a4', null, WAIT);
  await page.screenshot({ path: join(SHOTS, 'keyboard-1280.png') });
  assert.deepEqual(page.errors, []);
  // The same game on a phone, the keyboard's ring on the board's Tab stop.
  const phone = await newPage(PHONE);
  await phone.goto(`${srv.url}${made.seats[0].url}`);
  await phone.waitForSelector('#board svg [data-cell][tabindex="0"]', WAIT);
  await phone.focus('#board svg [data-cell][tabindex="0"]');
  await phone.screenshot({ path: join(SHOTS, 'keyboard-390.png') });
});

// The audit of a page at both sizes, with a screenshot at each and no sideways scroll on
// the phone; the page is left at 1280 px.
async function auditBothSizes(page, what, shot) {
  for (const [size, viewport] of [['1280', WIDE], ['390', PHONE]]) {
    await page.setViewportSize(viewport);
    await assertAccessible(page, `${what} at ${size} px`);
    if (size === '390') assert.ok(await noSideways(page), `${what} scrolls sideways at 390 px`);
    await page.screenshot({ path: join(SHOTS, `a11y-${shot}-${size}.png`) });
  }
  await page.setViewportSize(WIDE);
}

test('accessibility at 1280 and 390 px: the new-game form, every game playing and over', async () => {
  const page = await newPage();
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#new-game', WAIT);
  await auditBothSizes(page, 'the new-game form', 'new-game');
  for (const g of games) {
    const seats = ['human', ...Array.from({ length: g.min_players - 1 }, () => 'ai:1')];
    const made = (await api(srv, 'POST', '/api/games', { body: { game: g.name, seats, seed: 5 } })).body;
    await page.goto(`${srv.url}${made.seats[0].url}`);
    await page.waitForSelector('#board svg, #board pre', WAIT);
    await auditBothSizes(page, `the ${g.name} game page`, g.name);
    // Over (here by a resignation): the result, the finished game's buttons.
    const r = await api(srv, 'POST', `/api/games/${made.id}/resign`, { token: made.seats[0].token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await page.waitForSelector('#result:not([hidden])', WAIT);
    await auditBothSizes(page, `the finished ${g.name} game page`, `${g.name}-over`);
  }
  assert.deepEqual(page.errors, []);
});

// A long game's positions come page by page (GET .../positions?from=K), each when a
// position of it is first shown: the review steps anywhere in it.
test('review of a long game: the last position, the first, and one in the middle', async () => {
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'king-down', seats: ['random', 'random'], seed: 7, rules: { 'max-plies': 1000 } } })).body;
  let st;
  for (const end = Date.now() + 30000; ; await new Promise((r) => setTimeout(r, 100))) {
    st = (await api(srv, 'GET', `/api/games/${made.id}`)).body;
    if (st.status === 'over' || Date.now() > end) break;
  }
  assert.equal(st.status, 'over');
  assert.ok(st.ply > 200, `a random game of ${st.ply} plies`);
  const page = await newPage();
  await page.goto(`${srv.url}/g/${made.id}`);
  await page.waitForSelector('#review-open', WAIT);
  await page.click('#review-open');
  const at = (k) => page.waitForSelector(`#review-board[data-ply="${k}"] svg`, WAIT);
  await at(st.ply);
  await page.keyboard.press('Home');
  await at(0);
  await page.click('#review-moves .turn[data-ply="150"]');
  await at(150);
  assert.match(await page.textContent('#review-where'), /After action 150 of /);
  assert.deepEqual(page.errors, []);
});
