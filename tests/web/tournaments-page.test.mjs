// tournaments-page.test.mjs - the tournament pages in headless Chromium against a real
// `crown serve`: a round-robin created with the form at /tournaments, a person joining
// and leaving, four AI seats added and the tournament started by its creator on
// /tournaments/ID, which follows it live to its end by its event stream, asking nothing
// while nothing changes; the standings and the crosstable drawn, and both pages axe-core
// clean and without sideways scrolling at 1280 and 390 px; an arena's table while it
// plays; a tournament cancelled by its creator from its page. Every wait is on a
// condition of the page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { browserSuite, pageReuser } from './browser.mjs';
import { api } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 60000 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let srv;
let newPage;

browserSuite({
  before, after, shots: SHOTS,
  ready(s) { srv = s.srv; newPage = pageReuser(s.browser, DESKTOP); },
});

const noSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test('a round-robin of AI seats created, started and followed to its end in the page', async () => {
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/tournaments`);
  await page.waitForSelector('#app[data-ready="tournaments"]', WAIT);
  await assertAccessible(page, 'the tournaments page');
  await page.fill('input[name=name]', 'Browser cup');
  await page.selectOption('select[name=game]', 'kings-valley');
  await page.fill('input[name=minutes]', '0');
  await page.fill('input[name=starts]', '60');
  await page.click('.tour-form button[type=submit]');
  await page.waitForSelector('#tournament[data-state="open"]', WAIT);
  assert.match(new URL(page.url()).pathname, /^\/tournaments\/[0-9a-f]{24}$/);
  // Live, not polled: while nothing changes the page asks nothing (it once asked every
  // two seconds); its event stream says when to.
  const reads = [];
  const count = (r) => { if (/\/api\/tournaments\/[0-9a-f]{24}$/.test(new URL(r.url()).pathname)) reads.push(r.url()); };
  page.on('request', count);
  await page.waitForTimeout(2500);
  page.off('request', count);
  assert.deepEqual(reads, []);
  // A person joins by name and leaves again before the start.
  await page.fill('#tour-your-name', 'Ann');
  await page.click('#tour-join-button');
  await page.waitForSelector('#tournament[data-entrants="1"] #tour-leave', WAIT);
  assert.match(await page.textContent('.tour-players ol'), /Ann/);
  await page.click('#tour-leave');
  await page.waitForSelector('#tournament[data-entrants="0"] #tour-join-button', WAIT);
  for (let i = 1; i <= 4; i++) {
    await page.click('#tour-add-ai');
    await page.waitForSelector(`#tournament[data-entrants="${i}"]`, WAIT);
  }
  await assertAccessible(page, 'an open tournament');
  await page.click('#tour-start');
  await page.waitForSelector('#tournament[data-state="finished"]', WAIT);
  assert.equal(await page.locator('.tour-standings tbody tr').count(), 4);
  assert.equal(await page.locator('.tour-round').count(), 3);
  assert.equal(await page.locator('.tour-cross tbody tr').count(), 4);
  assert.ok(await noSideways(page));
  await assertAccessible(page, 'a finished tournament');
  await page.screenshot({ path: `${SHOTS}/tournament-desktop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  const wide = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`));
  assert.ok(await noSideways(page), `the finished tournament scrolls sideways on a phone: ${wide.join(', ')}`);
  await assertAccessible(page, 'a finished tournament on a phone');
  await page.screenshot({ path: `${SHOTS}/tournament-phone.png`, fullPage: true });
  await page.goto(`${srv.url}/tournaments`);
  await page.waitForSelector('#app[data-ready="tournaments"] .tour-table a', WAIT);
  assert.ok(await noSideways(page));
  await assertAccessible(page, 'the tournaments page on a phone');
  assert.deepEqual(page.errors, []);
});

test('an arena under way: its end time and its table of scores', async () => {
  const made = (await api(srv, 'POST', '/api/tournaments', { body: { name: 'Arena', game: 'kings-valley', format: 'arena', duration: 60, starts_in: 600 } })).body;
  for (let i = 0; i < 2; i++) {
    assert.equal((await api(srv, 'POST', `/api/tournaments/${made.id}/join`, { token: made.token, body: { player: 'ai:1' } })).status, 200);
  }
  assert.equal((await api(srv, 'POST', `/api/tournaments/${made.id}/start`, { token: made.token, body: {} })).status, 200);
  const page = await newPage(PHONE);
  await page.goto(`${srv.url}/tournaments/${made.id}`);
  await page.waitForSelector('#tournament[data-state="running"] .tour-standings', WAIT);
  assert.match(await page.textContent('.tour-line'), /ends/);
  assert.equal(await page.locator('.tour-standings thead th').count(), 5);
  assert.ok(await noSideways(page));
  await assertAccessible(page, 'an arena on a phone');
  assert.deepEqual(page.errors, []);
});

test('the creator cancels a tournament from its page, which then says so', async () => {
  const page = await newPage(PHONE);
  await page.goto(`${srv.url}/tournaments`);
  await page.waitForSelector('#app[data-ready="tournaments"]', WAIT);
  await page.fill('input[name=name]', 'Called off');
  await page.fill('input[name=starts]', '60');
  await page.click('.tour-form button[type=submit]');
  await page.waitForSelector('#tournament[data-state="open"] #tour-cancel', WAIT);
  await page.click('#tour-cancel');
  await page.waitForSelector('#tournament[data-state="cancelled"] .tour-cancelled', WAIT);
  assert.equal(await page.locator('#tour-cancel, #tour-join-button').count(), 0);
  assert.ok(await noSideways(page));
  await assertAccessible(page, 'a cancelled tournament on a phone');
  assert.deepEqual(page.errors, []);
});
