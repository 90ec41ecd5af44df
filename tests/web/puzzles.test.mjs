// puzzles.test.mjs - the puzzles in headless Chromium against a real `crown serve`: a
// shipped puzzle opened by its link, a wrong move said and taken back, a hint marking
// the piece, the right moves played by clicks with the opponent's replies following by
// themselves, the rating and streak kept in the browser, the solution shown on request,
// the puzzle of the day on the home page, a signed-in player's try rated on the server,
// and axe-core at 1280 and 390 px. Every wait
// is on a condition of the page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { browserSuite, pageReuser } from './browser.mjs';
import { api } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 30000 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
// Games whose moves go from one square to another, so a click pair plays them.
const GAMES = ['kings-valley', 'retrieve-the-king', 'kings-valley-7x7', 'kings-valley-labyrinth', 'king-down'];

let srv;
let newPage;

browserSuite({
  before, after, shots: SHOTS,
  ready(s) { srv = s.srv; newPage = pageReuser(s.browser, DESKTOP); },
});

// The first shipped puzzle of a click-pair game whose line has a reply in it if one does.
async function shippedPuzzle() {
  for (const game of GAMES) {
    const r = await fetch(`${srv.url}/data/puzzles/${game}.jsonl`);
    if (!r.ok) continue;
    const set = (await r.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const p = set.find((q) => q.plies >= 3) || set[0];
    if (p) return p;
  }
  throw new Error('no puzzle set ships with this server');
}

// The cells of action `text` after `moves` from the puzzle's position.
async function cellsOf(p, moves, text) {
  const o = await api(srv, 'POST', '/api/observe', { body: { game: p.game, position: p.position, rules: p.rules || {}, moves } });
  assert.equal(o.status, 200, JSON.stringify(o.body));
  const m = o.body.legal.find((x) => x.text === text);
  assert.ok(m, `${text} is legal`);
  return { cells: m.cells, legal: o.body.legal };
}

async function clickAction(page, cells, step) {
  await page.click(`#puzzle-board [data-cell="${cells[0]}"]`);
  await page.waitForSelector(`#puzzle-board[data-selected="${cells[0]}"]`, WAIT);
  await page.click(`#puzzle-board [data-cell="${cells.at(-1)}"]`);
  if (step !== undefined) await page.waitForFunction((s) => Number(document.querySelector('#puzzle-board')?.dataset.step) >= s, step, WAIT);
}

test('a puzzle: wrong move, hint, solved by clicks, rating and streak', async () => {
  const p = await shippedPuzzle();
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/puzzles/${p.game}/${p.id}`);
  await page.waitForSelector('#app[data-ready="puzzle"] #puzzle-board svg', WAIT);
  assert.match(await page.textContent('#puzzle-prompt'), /^Find the move for /);
  assert.equal(await page.inputValue('#puzzle-link'), `${srv.url}/puzzles/${p.game}/${p.id}`);
  // A wrong move: said, and the board stays where it was.
  const first = await cellsOf(p, [], p.solution[0]);
  const wrong = first.legal.find((m) => m.text !== p.solution[0] && m.cells.length >= 2);
  await clickAction(page, wrong.cells);
  await page.waitForFunction(() => document.querySelector('#puzzle')?.dataset.wrong, null, WAIT);
  assert.match(await page.textContent('#puzzle-message'), /is not the move/);
  assert.equal(await page.getAttribute('#puzzle-board', 'data-step'), '0');
  assert.match(await page.textContent('#puzzle-rating'), /Streak 0/);
  // A hint marks the piece to move.
  await page.click('#puzzle-hint');
  await page.waitForSelector('#puzzle-board .hint, #puzzle-board [class*="hint"]', WAIT);
  await assertAccessible(page, 'a puzzle');
  // The line by clicks; the replies come by themselves.
  for (let i = 0; i < p.plies; i += 2) {
    const { cells } = await cellsOf(p, p.solution.slice(0, i), p.solution[i]);
    await clickAction(page, cells, Math.min(p.plies, i + 2));
  }
  await page.waitForSelector('#puzzle[data-state="done"]', WAIT);
  assert.equal(await page.textContent('#puzzle-prompt'), 'That is the whole line.'); // a wrong move came first
  const stored = await page.evaluate((g) => JSON.parse(localStorage.getItem('crown-puzzles'))[g], p.game);
  assert.equal(stored.done[p.id], 0);
  assert.ok(stored.r < 1500, `a missed puzzle lowers the rating: ${stored.r}`);
  await page.screenshot({ path: `${SHOTS}/puzzle-desktop.png` });
  assert.deepEqual(page.errors, []);
});

test('the solution on request, the phone, the index and the puzzle of the day', async () => {
  const p = await shippedPuzzle();
  const page = await newPage(PHONE);
  await page.goto(`${srv.url}/puzzles/${p.game}/${p.id}`);
  await page.waitForSelector('#app[data-ready="puzzle"] #puzzle-board svg', WAIT);
  await assertAccessible(page, 'a puzzle on a phone');
  await page.click('#puzzle-solution');
  await page.waitForSelector('#puzzle[data-state="done"]', WAIT);
  assert.equal(await page.textContent('#puzzle-message'), `The solution: ${p.solution.join(' ')}`);
  assert.equal(await page.getAttribute('#puzzle-board', 'data-step'), String(p.plies));
  // Another puzzle of the game, at the player's level, has a link of its own.
  await page.click('#puzzle-next');
  await page.waitForFunction((g) => new RegExp(`^/puzzles/${g}/[0-9a-f]+$`).test(location.pathname), p.game, WAIT);
  await page.waitForSelector('#app[data-ready="puzzle"] #puzzle-board svg', WAIT);
  await page.goto(`${srv.url}/puzzles`);
  await page.waitForSelector('#app[data-ready="puzzles"] .puzzle-games a', WAIT);
  await page.goto(`${srv.url}/puzzles/${p.game}/0000000000`);
  await page.waitForSelector('#puzzle-message', WAIT);
  assert.match(await page.textContent('#puzzle-message'), /no such puzzle/);
  await page.setViewportSize(DESKTOP);
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#daily-puzzle:not([hidden]) #daily-link', WAIT);
  assert.match(await page.getAttribute('#daily-link', 'href'), /^\/puzzles\/[a-z0-9-]+\/[0-9a-f]+$/);
  assert.deepEqual(page.errors, []);
});

test('signed in, a try is rated on the server too', async () => {
  const p = await shippedPuzzle();
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/puzzles`);
  const status = await page.evaluate(async () => (await fetch('/api/signup', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'puzzler', password: 'long-enough-pw-3' }),
  })).status);
  assert.equal(status, 201);
  await page.goto(`${srv.url}/puzzles/${p.game}/${p.id}`);
  await page.waitForSelector('#app[data-ready="puzzle"] #puzzle-board svg', WAIT);
  await page.click('#puzzle-solution');
  await page.waitForSelector('#puzzle-server-rating:not([hidden])', WAIT);
  assert.match(await page.textContent('#puzzle-server-rating'), /^Your rating on this server: \d+ ± \d+\.$/);
  const me = await page.evaluate(async () => (await fetch('/api/puzzles/ratings')).json());
  assert.equal(me.ratings.length, 1);
  assert.equal(me.ratings[0].game, p.game);
  assert.ok(me.ratings[0].rating < 1500); // the solution shown counts as a miss
  await page.context().clearCookies();
  assert.deepEqual(page.errors, []);
});
