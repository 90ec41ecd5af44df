// ratings-page.test.mjs - ratings in the browser, in headless Chromium against a real
// crown serve: two browser contexts sign up at /login, one makes a rated game on the
// new-game form and the other takes its seat from the home page, both names with
// "1500?" beside the board, a resignation that moves both ratings (the change shown on
// both pages), both players' pages (/u/NAME, reached from the account menu) with the
// new rating, the history graph and the game in their recent games, and the leaderboards
// (/leaderboard, /leaderboard/GAME, two players established through the API first);
// axe-core clean and no sideways scroll at 1280 and 390 px, with screenshots. Every wait
// is on a condition of the page, bounded; none is a sleep.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { browserSuite, openPage } from './browser.mjs';
import { api } from './server.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 15000 };
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let srv;
let browser;
browserSuite({
  before, after, shots: SHOTS, args: ['--password-cost', 'low'],
  ready(s) { ({ srv, browser } = s); },
});

// A player in a browser context of his own, signed up through the sign-in page.
async function player(name) {
  const context = await browser.newContext({ viewport: WIDE, bypassCSP: true });
  const page = await openPage(context);
  await page.goto(`${srv.url}/login`);
  await page.fill('.login-form input[name=name]', name);
  await page.fill('.login-form input[name=password]', `pw-of-${name}`);
  await page.click('.login-form .account-create');
  await page.waitForURL(/\/account$/, WAIT);
  // The account's page links to the player's own public page.
  await page.waitForSelector(`.account-public[href="/u/${name}"]`, WAIT);
  return page;
}

// Screenshots at both sizes, axe clean and nothing wider than the phone's screen.
async function check(page, name, what) {
  for (const [size, vp] of [['1280', WIDE], ['390', PHONE]]) {
    await page.setViewportSize(vp);
    await page.screenshot({ path: join(SHOTS, `ratings-${name}-${size}.png`), fullPage: true });
    await assertAccessible(page, `${what} at ${size} px`);
    if (size === '390') {
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `${what} is ${wide} px wide at 390 px`);
    }
  }
  await page.setViewportSize(WIDE);
}

// Two players with established ratings, for a leaderboard with rows: twenty rated
// games through the API, the first winning two of every three.
async function established(run) {
  const cookies = [];
  for (const name of [`Xen${run}`, `Yan${run}`]) {
    const r = await api(srv, 'POST', '/api/signup', { body: { name, password: `pw-of-${name}` } });
    cookies.push({ cookie: r.headers.getSetCookie()[0].split(';')[0] });
  }
  for (let i = 0; i < 20; i++) {
    const g = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'open'], rated: true }, headers: cookies[0] })).body;
    const j = (await api(srv, 'POST', `/api/games/${g.id}/join`, { body: {}, headers: cookies[1] })).body;
    const r = await api(srv, 'POST', `/api/games/${g.id}/resign`, { body: {}, token: i % 3 === 2 ? g.seats[0].token : j.token });
    assert.equal(r.status, 200);
  }
}

test('a rated game between two browsers: ratings beside the board, moved by its end, on both pages', async () => {
  const t0 = Date.now();
  const run = Math.random().toString(36).slice(2, 6);
  const [a, b] = await Promise.all([player(`Ann${run}`), player(`Ben${run}`), established(run)]);
  // Ann makes a rated game on the new-game form: her seat, and one open for an account.
  await a.goto(`${srv.url}/`);
  await a.selectOption('#game-select', 'kings-valley');
  await a.selectOption('#seat-1', 'open');
  await a.check('#rated', WAIT);
  await a.click('#start');
  await a.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT);
  const g = { id: a.url().match(/\/g\/([0-9a-f]{24})/)[1] };
  assert.equal((await api(srv, 'GET', `/api/games/${g.id}`)).body.rated, true);
  // Ben takes the open seat from his home page.
  await b.goto(`${srv.url}/`);
  await b.click(`.open-game[data-id="${g.id}"] .take`, WAIT);
  await b.waitForURL(new RegExp(`/g/${g.id}`), WAIT);
  for (const p of [a, b]) {
    await p.waitForFunction(() => document.querySelectorAll('.seat .seat-rating').length === 2
      && [...document.querySelectorAll('.seat .seat-rating')].every((e) => /\(1,?500\?\)/.test(e.textContent)), null, WAIT);
  }
  assert.match(await b.textContent('.seat.p0'), new RegExp(`Ann${run}`));
  // Ann resigns: both ratings move, and both pages say by how much.
  await a.click('#resign', WAIT);
  await a.click('#resign-yes', WAIT);
  for (const p of [a, b]) {
    await p.waitForSelector('.seat.p0 .rating-down', WAIT);
    await p.waitForSelector('.seat.p1 .rating-up', WAIT);
    assert.match(await p.textContent('.seat.p0 .seat-rating'), /\(1,?338\? −162\)/);
    assert.match(await p.textContent('.seat.p1 .seat-rating'), /\(1,?662\? \+162\)/);
  }
  await check(b, 'game', 'a finished rated game');
  // Each one's page, from the account menu: the new rating, its graph, the game.
  for (const [p, name, rating, result] of [[a, `Ann${run}`, /1,?338\?/, 'lost'], [b, `Ben${run}`, /1,?662\?/, 'won']]) {
    await p.click('.account-menu .account-profile', WAIT);
    await p.waitForURL(new RegExp(`/u/${name}$`), WAIT);
    await p.waitForSelector('.profile-game .profile-rating', WAIT);
    assert.match(await p.textContent('.profile-game .profile-rating'), rating);
    assert.equal(await p.textContent('.profile-recent tbody tr td:nth-child(3)'), result);
    await p.waitForSelector('.rating-graph canvas', WAIT);
  }
  await check(a, 'profile', 'a player\'s page');
  // The leaderboards: King's Valley's, where only the established two stand (Ann and Ben
  // are provisional), and every game's.
  await a.click('.profile-page a[href="/leaderboard/kings-valley"]', WAIT);
  await a.waitForSelector('.leaderboard tbody tr', WAIT);
  assert.deepEqual(await a.locator('.leaderboard tbody td:nth-child(2)').allTextContents(), [`Xen${run}`, `Yan${run}`]);
  assert.equal(await a.locator('.leaderboard-games [aria-current=page]').count(), 1);
  await check(a, 'leaderboard', 'a game\'s leaderboard');
  await a.goto(`${srv.url}/leaderboard`);
  await a.waitForSelector('.leaderboard-games a', WAIT);
  await check(a, 'leaderboards', 'the leaderboards');
  assert.deepEqual([...a.errors, ...b.errors], []);
  await Promise.all([a.context().close(), b.context().close()]);
  console.log(`# ratings browser test: ${Date.now() - t0} ms`);
});
