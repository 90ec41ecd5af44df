// movelist.test.mjs - the game page's live move list by whole turns (js/movelist.js), in
// Chromium at 1280x800 and 390x844: a King's Valley game reads a numbered line per
// round, both players' moves on it; a King of the Valley game between three people
// groups each turn's actions and chance's draws exactly as the review does (turns.js),
// every action still an item of its own.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { browserSuite, openPage } from './browser.mjs';
import { api } from './server.mjs';
import { roundsOf } from '../../src/web/static/js/turns.js';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 15000 };
const suite = { srv: null, browser: null };
browserSuite({ before, after, shots: SHOTS, ready: (s) => Object.assign(suite, s) });

async function played(body, actions) {
  const made = (await api(suite.srv, 'POST', '/api/games', { body })).body;
  let st = made.state;
  for (let k = 0; k < actions && st.status !== 'over'; k++) {
    const token = made.seats[st.to_move].token;
    const legal = st.legal?.length ? st.legal : (await api(suite.srv, 'GET', `/api/games/${made.id}`, { token })).body.legal;
    st = (await api(suite.srv, 'POST', `/api/games/${made.id}/moves`, { token, body: { move: legal[(k * 5) % legal.length].text } })).body;
  }
  return { made, moves: (await api(suite.srv, 'GET', `/api/games/${made.id}`)).body.moves };
}

// The list as drawn: each item's classes, round number, text and line (its top).
const items = (page) => page.$$eval('#moves li', (lis) => lis.map((li) => ({
  cls: li.className, round: li.dataset.round ?? null, ply: Number(li.dataset.ply), text: li.textContent, top: Math.round([...li.getClientRects()].at(-1).top),
})));

test('the game page lists the moves by rounds and whole turns, as the review groups them', async () => {
  const kv = await played({ game: 'kings-valley', seats: ['human', 'human'] }, 3);
  const page = await openPage(suite.browser, { width: 1280, height: 800 });
  await page.goto(`${suite.srv.url}/g/${kv.made.id}`);
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 3, null, WAIT);
  let list = await items(page);
  assert.deepEqual(list.map((i) => i.round), ['1', null, '2']);
  assert.equal(list[0].top, list[1].top, 'a round is one line');
  assert.ok(list[2].top > list[1].top, 'the next round begins a line');
  assert.match(list[0].text, /^first /);
  assert.equal(await page.$eval('#moves li.round-start', (li) => getComputedStyle(li, '::before').content), '"1. "');
  await page.screenshot({ path: join(SHOTS, 'movelist-1280.png') });
  await page.close();

  const kotv = await played({ game: 'king-of-the-valley', seats: ['human', 'human', 'human'] }, 14);
  const phone = await openPage(suite.browser, { width: 390, height: 844 });
  await phone.goto(`${suite.srv.url}/g/${kotv.made.id}`);
  await phone.waitForFunction((n) => document.querySelectorAll('#moves li').length === n, kotv.moves.length, WAIT);
  list = await items(phone);
  const rounds = roundsOf(kotv.moves);
  assert.deepEqual(list.filter((i) => i.round).map((i) => Number(i.round)), rounds.map((r) => r.number));
  const turns = rounds.flatMap((r) => r.turns);
  assert.deepEqual(list.map((i, k) => /turn-start/.test(i.cls) ? k : null).filter((k) => k !== null), turns.map((t) => t.first));
  assert.ok(turns.some((t) => t.seat === null), 'chance drew');
  assert.ok(turns.some((t) => t.last > t.first), 'a turn of several actions');
  assert.deepEqual(list.map((i) => i.ply), kotv.moves.map((_, k) => k + 1));
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 390), 'no sideways scroll at 390 px');
  await phone.screenshot({ path: join(SHOTS, 'movelist-390.png'), fullPage: true });
  assert.deepEqual(phone.errors, []);
  await phone.close();
});
