// languages.test.mjs - the web app in each of its languages (docs/I18N.md), in headless
// Chromium against a real `crown serve`: a browser that asks for Japanese gets the page
// in Japanese with <html lang="ja">; the header's switch changes the language and the
// choice is remembered across loads, the rules pages included; and a game page with a clock and a standing draw
// offer, on a phone (390 px wide), has no text cut off or overflowing in any language
// and no sideways scrolling. A screenshot of each goes to the test's own temporary
// folder, removed at the end. One page for the file, and one context without scripts.
// The server chooses the first paint's language itself (src/web/language.c): the
// cookie the switch writes, else Accept-Language by its q-values, else English; the
// page comes with <html lang>, its header's words and its catalogue in that language.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { browserSuite, openPage } from './browser.mjs';
import { api, request } from './server.mjs';

const WAIT = { timeout: 30000 };
const PHONE = { width: 390, height: 844 };
const SHOTS = mkdtempSync(join(tmpdir(), 'crown-languages-'));

let srv;
let page;
let browser;

browserSuite({
  before, after, shots: SHOTS,
  async ready(s) {
    srv = s.srv;
    browser = s.browser;
    const context = await s.browser.newContext({ locale: 'ja-JP', viewport: PHONE });
    page = await openPage(context, PHONE);
  },
});
after(() => rmSync(SHOTS, { recursive: true, force: true }));

// The words that do not fit: each element with text of its own whose content is wider
// than its box (cut off, or spilling out), or whose box ends past the window's right
// edge; and whether the page scrolls sideways.
function overflows() {
  const bad = [];
  for (const e of document.querySelectorAll('body *')) {
    const own = [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!own || !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    const box = e.getBoundingClientRect();
    const wide = e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1;
    if (wide || box.right > window.innerWidth + 1) {
      bad.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className}: "${e.textContent.trim().slice(0, 40)}" ${e.scrollWidth}/${e.clientWidth}, right ${Math.round(box.right)}`);
    }
  }
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) bad.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
  return bad;
}

test('the browser\'s language first, the switch on every page, remembered; no text overflows on a phone', async () => {
  // Two people with a clock, a move each played and a draw offered to the first.
  const made = (await api(srv, 'POST', '/api/games', {
    body: { game: 'kings-valley', seats: ['human', 'human'], clock: { initial: 300, increment: 3 } },
  })).body;
  assert.ok(made.id, JSON.stringify(made));
  for (const [seat, path, body] of [[0, 'moves', { move: 'b1-b4' }], [1, 'moves', { move: 'd5-d2' }], [1, 'offer-draw', undefined]]) {
    const r = await api(srv, 'POST', `/api/games/${made.id}/${path}`, { body, token: made.seats[seat].token });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }

  // The browser's language, before any choice.
  await page.goto(srv.url + made.seats[0].url);
  await page.waitForSelector('#board svg', WAIT);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
  assert.equal(await page.textContent('#resign'), '投了');
  assert.equal(await page.inputValue('#language'), 'ja');
  for (const lang of ['ja', 'en', 'nl', 'de', 'fr', 'es']) {
    if (lang !== 'ja') {
      // The switch draws the page again in the language chosen.
      await page.selectOption('#language', lang);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang, WAIT);
    }
    await page.waitForSelector('#board svg', WAIT);
    await page.waitForSelector('#draw-offer:not([hidden])', WAIT);
    await page.waitForSelector('#clocks:not([hidden]) time', WAIT);
    const said = await page.evaluate(() => ({
      status: document.querySelector('#status').textContent,
      offer: document.querySelector('#draw-offer span').textContent,
      resign: document.querySelector('#resign').textContent,
    }));
    if (lang === 'en') assert.deepEqual(said, { status: 'Your move (first player)', offer: 'The second player offers a draw.', resign: 'Resign' });
    if (lang === 'de') assert.deepEqual(said, { status: 'Du bist am Zug (erster Spieler)', offer: 'Remis angeboten von: zweiter Spieler.', resign: 'Aufgeben' });
    const bad = await page.evaluate(overflows);
    await page.screenshot({ path: join(SHOTS, `game-${lang}-390.png`), fullPage: true });
    assert.deepEqual(bad, [], `${lang}: text cut off or overflowing at 390 px`);
  }
  // The last choice (Spanish) stays for the next page, whatever the browser asks for,
  // and the rules pages' texts come in it too.
  await page.goto(`${srv.url}/learn`);
  await page.waitForSelector('.learn-index', WAIT);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
  assert.equal(await page.inputValue('#language'), 'es');
  assert.equal(await page.textContent('.learn h1'), 'Aprender los juegos');
  assert.equal(await page.textContent('.learn-index li .summary'),
    'Desliza tu rey hasta el Valle, en el centro de un tablero de 5 por 5, antes que tu rival.');
  assert.deepEqual(page.errors, []);
});

// The app's page as the server answers it for these request headers.
async function served(path, headers) {
  const r = await request(srv, 'GET', path, { headers });
  assert.equal(r.status, 200);
  const lang = /<html lang="([a-z]+)">/.exec(r.body);
  const block = /<script type="application\/json" id="i18n-messages" data-lang="([a-z]+)">(.*?)<\/script>/s.exec(r.body);
  assert.ok(lang && block, 'the page has its language and its catalogue');
  assert.equal(block[1], lang[1]);
  assert.equal(r.headers['content-language'], lang[1]);
  assert.match(r.headers.vary, /Accept-Language/);
  return { lang: lang[1], messages: JSON.parse(block[2]), body: r.body, etag: r.headers.etag };
}

test('the server chooses the page\'s language: the cookie, then Accept-Language by q-value, then English', async () => {
  const cases = [
    [{}, 'en'],
    [{ 'accept-language': 'ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7' }, 'ja'],
    [{ 'accept-language': 'fr;q=0.5, de;q=0.9, en;q=0.1' }, 'de'],
    [{ 'accept-language': 'pt-BR, es;q=0.3' }, 'es'],
    [{ 'accept-language': 'pt-BR, zh' }, 'en'],
    [{ 'accept-language': 'ja;q=0, NL-be' }, 'nl'],
    [{ 'accept-language': 'fr;q=1.5, es;q=0.2' }, 'es'],
    [{ 'accept-language': '*' }, 'en'],
    [{ 'accept-language': 'ja', cookie: 'crown_lang=fr' }, 'fr'],
    [{ 'accept-language': 'ja', cookie: 'other=1; crown_lang=xx' }, 'ja'],
  ];
  for (const [headers, want] of cases) {
    assert.equal((await served('/', headers)).lang, want, JSON.stringify(headers));
  }
  // Every page of the app, in the language's words from its first byte.
  const ja = await served('/g/anything', { 'accept-language': 'ja' });
  const catalogue = (await api(srv, 'GET', '/i18n/ja.json')).body;
  assert.deepEqual(ja.messages, catalogue);
  assert.ok(ja.body.includes(`data-i18n="chrome.tagline">${catalogue['chrome.tagline']}<`), 'the header in Japanese');
  // A page revalidated in its own language only.
  const en = await served('/', {});
  assert.notEqual(ja.etag, en.etag);
  const again = await request(srv, 'GET', '/', { headers: { 'accept-language': 'ja', 'if-none-match': ja.etag } });
  assert.equal(again.status, 304);
  assert.equal((await request(srv, 'GET', '/', { headers: { 'if-none-match': ja.etag } })).status, 200);
});

test('a Japanese browser\'s first paint is Japanese: without scripts, and with no catalogue fetched', async () => {
  const still = await browser.newContext({ locale: 'ja-JP', viewport: PHONE, javaScriptEnabled: false });
  try {
    const p = await still.newPage();
    await p.goto(`${srv.url}/`);
    assert.equal(await p.evaluate(() => document.documentElement.lang), 'ja');
    assert.equal(await p.textContent('.tagline'), '王様のボードゲーム');
    assert.doesNotMatch(await p.textContent('header'), /board games about kings|Puzzles/);
    assert.doesNotMatch(await p.textContent('main'), /Loading/);
    assert.equal(await p.textContent('noscript p'), '盤面を描くには JavaScript が必要です。');
  } finally {
    await still.close();
  }
  const live = await browser.newContext({ locale: 'ja-JP', viewport: PHONE });
  try {
    const p = await openPage(live, PHONE);
    const fetched = [];
    p.on('request', (r) => { if (r.url().includes('/i18n/')) fetched.push(new URL(r.url()).pathname); });
    await p.goto(`${srv.url}/`);
    await p.waitForSelector('#language', WAIT);
    assert.equal(await p.inputValue('#language'), 'ja');
    assert.deepEqual(fetched, ['/i18n/en.json'], 'only the English fallback is fetched');
    // The switch's choice goes to the cookie, so that the server draws the next page in it.
    await p.selectOption('#language', 'nl');
    await p.waitForFunction(() => document.documentElement.lang === 'nl', null, WAIT);
    const cookie = (await live.cookies()).find((c) => c.name === 'crown_lang');
    assert.equal(cookie && cookie.value, 'nl');
    const r = await p.request.get(`${srv.url}/learn`);
    assert.match(await r.text(), /<html lang="nl">/);
    assert.deepEqual(p.errors, []);
  } finally {
    await live.close();
  }
});
