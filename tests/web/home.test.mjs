// home.test.mjs - what a new player met at home (issue 32), in headless Chromium against
// a real `crown serve` without --lab: the home page's games by their titles with results
// said to the player, and no Lab link; a spectator's page asks for nothing it may not
// have; a finished game's page without the move box, Hint and Undo; a declined draw
// offer told to the one who offered, and that line gone at the end; a review of a game
// between people still going offers no analysis, and a resigned one is analysed.
// One server and one page for the file; screenshots at 1280x800 and 390x844 go to
// $SCREENSHOT_DIR. Every wait is on a condition of the page, bounded; none is a sleep.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { browserSuite, pageReuser } from './browser.mjs';
import { api } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 30000 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let srv;
let newPage;

browserSuite({
  before, after, shots: SHOTS,
  ready(s) { srv = s.srv; newPage = pageReuser(s.browser, DESKTOP); },
});

async function create(spec) {
  const r = await api(srv, 'POST', '/api/games', { body: spec });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

async function post(id, action, token, body) {
  const r = await api(srv, 'POST', `/api/games/${id}/${action}`, { token, body });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

// Plays the first legal move of whoever is to move, n times.
async function playSome(g, n) {
  for (let i = 0; i < n; i++) {
    const st = (await api(srv, 'GET', `/api/games/${g.id}`)).body;
    await post(g.id, 'moves', g.seats[st.to_move].token, { move: st.legal[0].text, ply: st.ply });
  }
}

async function assertFits(page, what) {
  await page.setViewportSize(PHONE);
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(scroll <= client, `${what} scrolls sideways at ${client} px: ${scroll} px wide`);
}

const shoot = (page, name) => page.screenshot({ path: join(SHOTS, name), fullPage: true });

test('home: your games by title, results said to you, no Lab link without --lab', async () => {
  const lost = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  await post(lost.id, 'resign', lost.seats[0].token);
  const playing = await create({ game: 'king-down', seats: ['human', 'ai:1'] });
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/`);
  await page.evaluate((list) => localStorage.setItem('crown.mine', JSON.stringify(list)),
    [{ id: lost.id, token: lost.seats[0].token }, { id: playing.id, token: playing.seats[0].token }]);
  const info = page.waitForResponse((r) => r.url().endsWith('/api/info'), WAIT);
  await page.reload();
  await info;
  await page.waitForSelector('#my-games[data-loaded]', WAIT);
  const row = (id) => page.locator(`#my-games li[data-id="${id}"]`);
  assert.equal(await row(lost.id).locator('.game-link').textContent(), "King's Valley");
  assert.equal(await row(lost.id).locator('.turn').textContent(), 'You lost: you resigned');
  assert.doesNotMatch(await row(playing.id).locator('.game-link').textContent(), /king-down/);
  assert.equal(await row(playing.id).locator('.turn').textContent(), 'Your turn');
  assert.ok(await page.isHidden('.lab-link'), 'no Lab link on a server without --lab');
  await shoot(page, 'home-your-games-1280x800.png');
  await assertFits(page, 'the home page');
  await shoot(page, 'home-your-games-390x844.png');
  assert.deepEqual(page.errors, []);
});

test('a spectator\'s page of a resigned game asks for nothing it is refused', async () => {
  const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  await playSome(g, 2);
  await post(g.id, 'resign', g.seats[1].token);
  const page = await newPage(DESKTOP);
  const refused = [];
  const onResponse = (r) => { if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`); };
  page.on('response', onResponse);
  try {
    // The finished solved game's verdict is asked for once the page has the state.
    const solution = page.waitForResponse((r) => r.url().endsWith('/solution'), WAIT);
    await page.goto(`${srv.url}${g.watch_url}`);
    await page.waitForSelector('#result:not([hidden])', WAIT);
    assert.equal((await solution).status(), 200);
    assert.deepEqual(refused, []);
  } finally {
    page.off('response', onResponse);
  }
  assert.deepEqual(page.errors, []);
});

test('a finished game: no move box, Hint or Undo, the end\'s actions instead', async () => {
  const g = await create({ game: 'kings-valley', seats: ['human', 'ai:1'] });
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}${g.seats[0].url}`);
  await page.waitForSelector('#board[data-you="0"]', WAIT);
  assert.ok(await page.isVisible('#type-move') && await page.isVisible('#hint') && await page.isVisible('#undo'));
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#result:not([hidden])', WAIT);
  for (const gone of ['#type-move', '#hint', '#undo']) assert.ok(await page.isHidden(gone), `${gone} is gone at the end`);
  assert.ok(await page.isVisible('#rematch'));
  await shoot(page, 'home-finished-1280x800.png');
  await assertFits(page, 'a finished game');
  for (const gone of ['#type-move', '#hint', '#undo']) assert.ok(await page.isHidden(gone), `${gone} is gone at 390 px`);
  await shoot(page, 'home-finished-390x844.png');
  assert.deepEqual(page.errors, []);
});

test('a declined draw offer is told to the one who offered; the line goes at the end', async () => {
  const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}${g.seats[0].url}`);
  await page.waitForSelector('#board[data-you="0"]', WAIT);
  const note = (re) => page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#draw-note')?.textContent || ''), re.source, WAIT);
  await page.click('#offer-draw');
  await note(/^Draw offered/);
  await post(g.id, 'decline-draw', g.seats[1].token);
  await note(/^Your draw offer was declined\.$/);
  await shoot(page, 'home-draw-declined-1280x800.png');
  // Loaded again, the page still says so (the state keeps the refusal until anyone acts).
  await page.reload();
  await page.waitForSelector('#board[data-you="0"]', WAIT);
  await note(/^Your draw offer was declined\.$/);
  await page.click('#offer-draw');
  await note(/^Draw offered/);
  await post(g.id, 'resign', g.seats[1].token);
  await page.waitForSelector('#result:not([hidden])', WAIT);
  assert.ok(await page.isHidden('#draw-note'));
  assert.doesNotMatch(await page.textContent('.panel'), /Draw offered|draw offer/);
  assert.deepEqual(page.errors, []);
});

test('review: no analysis offered while people play on; a resigned game is analysed', async () => {
  const g = await create({ game: 'kings-valley', seats: ['human', 'human'] });
  await playSome(g, 2);
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}${g.seats[0].url}&review`);
  await page.waitForSelector('#review-board svg', WAIT);
  assert.ok(await page.isHidden('#review-analyse'), 'no analysis offered during the game');
  assert.match(await page.textContent('#review-no-analysis'), /once it is over/);
  assert.doesNotMatch(await page.textContent('#review'), /No action changed/);
  await assertFits(page, 'the review of a game going on');
  await shoot(page, 'home-review-playing-390x844.png');

  await post(g.id, 'resign', g.seats[1].token);
  await page.setViewportSize(DESKTOP);
  await page.goto('about:blank'); // the same path with another hash would not load again
  await page.goto(`${srv.url}${g.watch_url}#review`);
  await page.waitForSelector('#review-board svg', WAIT);
  await page.click('#review-analyse');
  await page.waitForSelector('#review-graph[data-done="yes"]', WAIT);
  assert.equal(await page.textContent('#review .message'), '');
  assert.match(await page.textContent('#review-progress'), /Analysed all 3 positions/);
  assert.deepEqual(page.errors, []);
});
