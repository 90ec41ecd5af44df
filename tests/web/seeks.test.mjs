// seeks.test.mjs - finding an opponent on the home page, in headless Chromium against a
// real crown serve: a signed-in player posts a seek from the form, another browser (a
// guest, its own context and storage) sees it in the lobby and plays it with one click,
// and both land on the game, each in his own seat; the poster's "your games" then lists
// it with the days and hours left to move. A challenge sent by name from one player's
// home page, seen and accepted on the other's, the challenger seeing the answer and the
// link to his seat. Screenshots at 1280x800 and 390x844; axe-core audits of the home page
// with a seek listed at both sizes, of the seek form, and of an incoming challenge.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { browserSuite, openPage } from './browser.mjs';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 20000 };
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let srv;
let browser;

browserSuite({
  before, after, shots: SHOTS, args: ['--password-cost', 'low'],
  ready(s) {
    ({ srv, browser } = s);
  },
});

test('a seek posted in one browser is played from the lobby of another: both land on the game', async () => {
  const poster = await openPage(await browser.newContext(), WIDE);
  const guest = await openPage(await browser.newContext(), WIDE);
  // The poster signs up through the API from his page, so the cookie is his browser's.
  await poster.goto(srv.url);
  const up = await poster.evaluate(async () => (await fetch('/api/signup', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Poster', password: 'posts-from-the-page' }),
  })).status);
  assert.equal(up, 201);
  await poster.reload();
  await poster.waitForSelector('#seeks[data-loaded]', WAIT);
  await poster.click('.seek-details summary');
  await poster.selectOption('#seek-game', 'kings-valley');
  await poster.selectOption('#seek-clock', '3d');
  await poster.selectOption('#seek-colour', 'first');
  await poster.click('#seek-post');
  await poster.waitForSelector('#seeks .seek .seek-cancel', WAIT);
  await poster.waitForSelector('#seek-waiting:not([hidden])', WAIT);
  // The guest's lobby lists it, from the poster's name, with its terms in words.
  await guest.goto(srv.url);
  await guest.waitForSelector('#seeks .seek .seek-accept', WAIT);
  const row = await guest.textContent('#seeks .seek');
  assert.match(row, /by Poster \(1500\?\)/);
  assert.match(row, /3 days per move/);
  for (const [size, vp] of [['1280', WIDE], ['390', PHONE]]) {
    await guest.setViewportSize(vp);
    await guest.screenshot({ path: join(SHOTS, `seeks-lobby-${size}.png`), fullPage: true });
    await assertAccessible(guest, `the home page with a seek at ${size} px`);
    const wide = await guest.evaluate(() => document.querySelector('#find').getBoundingClientRect().right);
    assert.ok(wide <= 390 || size === '1280', `the seeks are wider than 390 px (${wide} px)`);
  }
  await poster.setViewportSize(PHONE);
  await assertAccessible(poster, 'the seek form, open, at 390 px');
  await poster.screenshot({ path: join(SHOTS, 'seeks-form-390.png'), fullPage: true });
  await poster.setViewportSize(WIDE);
  await guest.setViewportSize(WIDE);
  // One click: the guest is on the game in the second seat; the poster follows in the first.
  await Promise.all([guest.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT), guest.click('#seeks .seek-accept')]);
  await poster.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT);
  const id = new URL(guest.url()).pathname.split('/')[2];
  assert.equal(new URL(poster.url()).pathname.split('/')[2], id);
  const you = async (page) => page.evaluate(async (gid) => {
    const token = new URLSearchParams(location.hash.slice(1)).get('token');
    return (await (await fetch(`/api/games/${gid}`, { headers: { authorization: `Bearer ${token}` } })).json()).you;
  }, id);
  assert.equal(await you(poster), 0);
  assert.equal(await you(guest), 1);
  await poster.screenshot({ path: join(SHOTS, 'seeks-game-1280.png') });
  // The poster moves; back home, his games list it with the guest's days left to move.
  const moved = await poster.evaluate(async (gid) => {
    const auth = { authorization: `Bearer ${new URLSearchParams(location.hash.slice(1)).get('token')}` };
    const st = await (await fetch(`/api/games/${gid}`, { headers: auth })).json();
    return (await fetch(`/api/games/${gid}/moves`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ move: st.legal[0].text }),
    })).status;
  }, id);
  assert.equal(moved, 200);
  await poster.goto(srv.url);
  await poster.waitForSelector(`#my-games li[data-id="${id}"]`, WAIT);
  assert.match(await poster.textContent(`#my-games li[data-id="${id}"] .turn`), /to move · [23] d \d+ h left to move/);
  assert.deepEqual([...poster.errors, ...guest.errors], []);
  await poster.context().close();
  await guest.context().close();
});

test('a challenge sent by name from the home page is accepted on the other player\'s', async () => {
  const pages = [];
  for (const name of ['Asker', 'Asked']) {
    const page = await openPage(await browser.newContext(), WIDE);
    await page.goto(srv.url);
    const up = await page.evaluate(async (n) => (await fetch('/api/signup', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: n, password: `${n}-plays-by-name` }),
    })).status, name);
    assert.equal(up, 201);
    await page.reload();
    await page.waitForSelector('#challenges[data-loaded]', WAIT);
    pages.push(page);
  }
  const [asker, asked] = pages;
  await asker.click('.seek-details summary');
  await asker.selectOption('#seek-game', 'king-down');
  await asker.fill('#challenge-name', 'asked');
  await asker.click('#challenge-send');
  await asker.waitForSelector('#challenges .challenge.open .challenge-cancel', WAIT);
  // The other player's page shows it within a poll, and one click plays it.
  await asked.waitForSelector('#challenges .challenge.open .challenge-accept', WAIT);
  assert.match(await asked.textContent('#challenges .challenge'), /from Asker/);
  await assertAccessible(asked, 'an incoming challenge');
  await Promise.all([asked.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT), asked.click('#challenges .challenge-accept')]);
  // The asker sees the answer, with the link to his seat.
  await asker.waitForSelector('#challenges .challenge.accepted .challenge-play', WAIT);
  const href = await asker.getAttribute('#challenges .challenge-play', 'href');
  assert.equal(href.split('#')[0], new URL(asked.url()).pathname);
  assert.deepEqual([...asker.errors, ...asked.errors], []);
  await asker.context().close();
  await asked.context().close();
});
