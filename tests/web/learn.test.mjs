// learn.test.mjs - learning and finishing games in headless Chromium against a real
// `crown serve`: the rules page of every game with the topics the issue names and its
// live boards (a click shows a piece's moves), a tutorial step, every tutorial step
// solved, resigning, a draw offered and accepted between two browsers, the rematch with
// the seats swapped, the result said to the player, the labels of special actions (King's
// Guard's end of turn played by keyboard), the 7x7 trap rule's board and King Down's six
// armies, each with boards of its powers at work. Every page is shot at 1280x800 and 390x844 under $SCREENSHOT_DIR, must not scroll sideways at
// 390 px, and is audited with axe-core for serious and critical violations (the rules
// pages at 1280 px, King Down's and the index at both sizes). Every wait is on a
// condition of the page.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
import { browserSuite, openPage, pageReuser } from './browser.mjs';
import { api } from './server.mjs';
import { TUTORIALS } from '../../src/web/static/js/learn-pages.js';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 30000 };

// The topics issue 15 names for each game's rules page, each found in a heading of
// the page (case aside).
const KV_TOPICS = ['slides', 'first move'];
const KG_TOPICS = ['stacks', 'towers', 'dismantling'];
const TOPICS = {
  'kings-valley': KV_TOPICS,
  'retrieve-the-king': KV_TOPICS,
  'kings-valley-7x7': [...KV_TOPICS, 'trap rule'],
  'kings-valley-labyrinth': [...KV_TOPICS, 'pillars'],
  'kings-guard': KG_TOPICS,
  'kings-guard-8x8': KG_TOPICS,
  'king-down': ['archer', 'paladin', 'guard', 'maester', 'beast', 'check', 'set-ups', 'armies and their powers',
    'frost', 'flame', 'stratus', 'mud', 'spirit', 'shadow'],
  'kings-castle': ['castle', 'doors', 'throw', 'phalanxes', 'throne'],
  'king-of-the-valley': ['phases', 'characters', 'bonuses', 'score'],
};

let srv;
let browser;
let reused; // one page for the tests that need no browser of their own (browser.mjs)

browserSuite({ before, after, shots: SHOTS, ready: (s) => { ({ srv, browser } = s); reused = pageReuser(browser, { width: 1280, height: 800 }); } });

const newPage = (context) => (context ? openPage(context, { width: 1280, height: 800 }) : reused());

async function create(body) {
  const r = await api(srv, 'POST', '/api/games', { body });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body;
}

// A new game made from `body` (and changed by `then`, given it), opened on `page` as the
// seat `seat`.
async function openSeat(page, body, seat = 0, then = null) {
  const made = await create(body);
  if (then) await then(made);
  await page.goto(`${srv.url}${made.seats[seat].url}`);
  await page.waitForSelector('#board svg', WAIT);
  return made;
}

async function resign(page) {
  await page.click('#resign');
  await page.click('#resign-yes');
  await page.waitForSelector('#result:not([hidden])', WAIT);
}

// Shots at both sizes, the phone size checked for sideways scrolling, and the audit
// unless this very page was audited already (`audit: false`); `phone: true` audits the
// phone size too (the rules pages, whose boards and tables are laid out anew there).
async function check(page, name, { audit = true, phone = false } = {}) {
  if (audit) await assertAccessible(page, `${name} at 1280 px`);
  await page.screenshot({ path: join(SHOTS, `${name}-1280.png`), fullPage: false });
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(wide <= 0, `${name} scrolls sideways by ${wide} px at 390 px`);
  if (audit && phone) await assertAccessible(page, `${name} at 390 px`);
  await page.screenshot({ path: join(SHOTS, `${name}-390.png`), fullPage: false });
  await page.setViewportSize({ width: 1280, height: 800 });
  assert.deepEqual(page.errors, [], `${name}: script errors`);
}

describe('learn', () => {
  test('every game has a rules page with its topics and live boards, reachable from the form', async () => {
    const page = await newPage();
    await page.goto(`${srv.url}/`);
    await page.selectOption('#game-select', 'king-down');
    assert.equal(await page.getAttribute('#game-rules', 'href'), '/learn/king-down');
    // Every game the server offers, from its own record: a new game needs no line here.
    const games = (await api(srv, 'GET', '/api/games')).body.games.map((g) => g.name);
    for (const game of games) {
      await page.goto(`${srv.url}/learn/${game}`);
      await page.waitForSelector('#app[data-ready="learn"]', WAIT);
      assert.equal(await page.$$eval('.learn .message', (m) => m.length), 0, `${game}: a board could not be read`);
      assert.ok(await page.$$eval('.learn-board svg', (s) => s.length) >= 1, `${game}: no live board`);
      const heads = (await page.$$eval('#learn h2, #learn h3', (hs) => hs.map((x) => x.textContent))).join(' | ').toLowerCase();
      for (const topic of TOPICS[game] || []) assert.ok(heads.includes(topic), `${game}: no heading on "${topic}" (${heads})`);
      // The phone's folded sections are one code for every game: audited on King Down's
      // page, the longest (an audit of a rules page costs 1.8 s of processor time).
      await check(page, `learn-${game}`, { phone: game === 'king-down' });
    }
    await page.goto(`${srv.url}/learn`);
    await page.waitForSelector('.learn-index a', WAIT);
    assert.equal(await page.$$eval('.learn-index a', (a) => a.length), games.length);
    await check(page, 'learn-index', { phone: true });
  });

  test('a rules page on a phone: folded sections under a contents list', async () => {
    const page = await reused({ width: 390, height: 844 });
    await page.goto(`${srv.url}/learn/king-down`);
    await page.waitForSelector('#app[data-ready="learn"]', WAIT);
    const sections = await page.$$eval('#learn details.learn-section', (ds) => ds.map((d) => [d.id, d.open]));
    assert.ok(sections.length >= 10, `King Down's page folds into sections (${sections.length})`);
    assert.deepEqual(sections.filter(([, open]) => open).map(([id]) => id), [sections[0][0]], 'only the first is open');
    const links = await page.$$eval('#learn-contents a', (as) => as.map((a) => a.getAttribute('href')));
    for (const [id] of sections) assert.ok(links.includes(`#${id}`), `the contents lead to ${id}`);
    const tall = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(tall < 4000, `King Down's rules page is ${tall} px tall on a phone`);
    // A contents link opens its section and brings it into view.
    const target = sections.find(([id]) => id.includes('armies')) || sections.at(-1);
    await page.click(`#learn-contents a[href="#${target[0]}"]`);
    await page.waitForSelector(`#${target[0]}[open]`, WAIT);
    const top = await page.$eval(`#${target[0]}`, (d) => d.getBoundingClientRect().top);
    assert.ok(top > -2 && top < 844, `the section is in view (top ${top})`);
    await page.screenshot({ path: join(SHOTS, 'learn-king-down-folded-390.png'), fullPage: false });
    // A wide screen opens every section.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${srv.url}/learn/kings-castle`);
    await page.waitForSelector('#app[data-ready="learn"]', WAIT);
    assert.equal(await page.$$eval('#learn details.learn-section:not([open])', (ds) => ds.length), 0);
    assert.ok(await page.$$eval('#learn-contents a', (as) => as.length) >= 2);
    assert.deepEqual(page.errors, []);
  });

  test('a click on a piece shows its moves; a tutorial step checks the move', async () => {
    const page = await newPage();
    await page.goto(`${srv.url}/learn/kings-valley`);
    await page.waitForSelector('#app[data-ready="learn"]', WAIT);
    const first = page.locator('.learn-figure .learn-board').first();
    assert.equal(await first.getAttribute('data-targets'), 'a2 b4 e4');
    await first.locator('[data-cell="d1"]').click();
    assert.equal(await first.getAttribute('data-selected'), 'd1');
    assert.equal(await first.getAttribute('data-targets'), 'a4 d4 e2');
    const tut = page.locator('#tutorial .learn-board');
    // A wrong but legal move, then the right one.
    await tut.locator('[data-cell="c1"]').click();
    await tut.locator('[data-cell="e3"]').click();
    await page.waitForSelector('#tutorial-feedback.wrong', WAIT);
    await tut.locator('[data-cell="c3"]').click();
    await page.waitForSelector('#tutorial-feedback.right', WAIT);
    assert.match(await page.textContent('#tutorial-feedback'), /^Right!/);
    await page.click('#tutorial-next');
    await page.waitForSelector('#tutorial[data-step="1"] #tutorial-feedback:not(.right)', WAIT);
    await page.locator('#tutorial').scrollIntoViewIfNeeded();
    await check(page, 'learn-tutorial');
  });

  test('every tutorial step is solved by its move (King\'s Valley and King Down)', async () => {
    const page = await newPage();
    for (const [game, steps] of Object.entries(TUTORIALS)) {
      await page.goto(`${srv.url}/learn/${game}`);
      for (const [i, step] of steps.entries()) {
        await page.waitForSelector(`#tutorial[data-step="${i}"] #tutorial-feedback:not(.right)`, WAIT);
        const tut = page.locator('#tutorial .learn-board');
        await tut.locator(`[data-cell="${step.from}"]`).click();
        // The piece's moves are shown before the second click (on a busy machine the page
        // may still be drawing them when the click comes).
        await page.waitForSelector(`#tutorial .learn-board[data-selected="${step.from}"]`, WAIT);
        // A step without a square to reach takes any move of the piece.
        const to = step.to || (await tut.getAttribute('data-targets')).split(' ')[0];
        assert.ok(to, `${game} step ${i + 1}: ${step.from} has no move`);
        await tut.locator(`[data-cell="${to}"]`).click();
        await page.waitForSelector('#tutorial-feedback.right', WAIT);
        await page.click('#tutorial-next');
      }
    }
  });

  test('the 7x7 trap rule greys out a slide; King Down\'s six armies and their powers', async () => {
    const page = await newPage();
    await page.goto(`${srv.url}/learn/kings-valley-7x7`);
    await page.waitForSelector('#app[data-ready="learn"]', WAIT);
    // b1-g6 would wall in the king on g7: the slide reaches g6 but it is no target.
    const trap = page.locator('.learn-board[data-position="5Sk/5S1/S3s2/2s4/6s/7/1S1K3 1 20"]');
    assert.equal(await trap.getAttribute('data-selected'), 'b1');
    assert.equal(await trap.getAttribute('data-targets'), 'a1 a2 b7 c1');
    await page.goto(`${srv.url}/learn/king-down`);
    await page.waitForSelector('#app[data-ready="learn"]', WAIT);
    assert.deepEqual(await page.$$eval('.learn-army h3', (hs) => hs.map((x) => x.textContent)),
      ['Frost', 'Flame', 'Stratus', 'Mud', 'Spirit', 'Shadow']);
    assert.equal(await page.getAttribute('.learn-army .learn-board[data-selected="e1"]', 'data-targets'), 'c1 c3 d1 e3 f1 f2 g1 g3');
    // The games' names are words.js's.
    assert.equal(await page.textContent('#learn h1'), 'How to play King Down Classic');
    assert.equal(await page.textContent('.learn-nav [aria-current="page"]'), 'King Down Classic');
    // Every army has a live board, and each power's board shows what the power allows.
    assert.deepEqual(await page.$$eval('.learn-army', (ss) => ss.map((s) => s.querySelectorAll('.learn-board svg').length > 0)),
      [true, true, true, true, true, true]);
    const army = (pos) => page.locator(`.learn-army .learn-board[data-position^="${pos}"]`);
    const targets = async (pos) => army(pos).getAttribute('data-targets');
    assert.equal(await targets('4k3/8/8/3n4/8/8/3P4/4K3 w'), 'd5', 'Freeze: the knight it may freeze');
    assert.equal(await targets('4k3/8/8/3n4/8/8/3P4/4K3 b'), '', 'Freeze: the frozen knight has no move');
    assert.equal(await targets('4k3/8/8/8/2n5/8/3B4/4K3 b'), 'a3 a5 b2 b6 d6 e3 e5', 'Ice Wall: not onto d2');
    assert.equal(await targets('4k3/8/8/8/8/5N2/8/4K3 w'), 'd2 d4 e5 g1 g5 h2 h4', 'Haste: the knight again');
    const strike = (await targets('4k3/8/8/8/8/8/1N6/4K3 w')).split(' ');
    assert.ok(strike.includes('b8') && strike.includes('h2') && !strike.includes('d3'), `Strike: a queen's moves (${strike})`);
    const flight = (await targets('4k3/8/8/8/8/8/8/R3K3 w')).split(' ');
    assert.ok(flight.length > 20 && flight.includes('h4') && flight.every((c) => Number(c[1]) <= 4), `Flight: White's half (${flight})`);
    assert.equal(await targets('4k3/8/8/8/8/8/3P4/4K3 w'), 'd2', 'Sacrifice: the pawn');
    assert.equal(await targets('4k3/8/8/8/8/3P4/8/4K3 w'), 'd5', 'March: two squares');
    assert.equal(await targets('4k3/8/8/8/8/8/3P4/3RK3 w'), 'd3 d4 d5 d6 d7', 'Leap: over the pawn');
    // A click on the frozen knight selects nothing; a click elsewhere shows the king's moves.
    const frozen = army('4k3/8/8/3n4/8/8/3P4/4K3 b');
    await frozen.locator('[data-cell="e8"]').click();
    assert.equal(await frozen.getAttribute('data-selected'), 'e8');
    await page.locator('.learn-army').nth(1).scrollIntoViewIfNeeded();
    await check(page, 'learn-king-down-armies', { audit: false }); // audited as learn-king-down
  });
});

describe('finishing a game', () => {
  test('resign: the result in words, then a rematch with the seats swapped', async () => {
    const page = await newPage();
    const made = await openSeat(page, { game: 'kings-valley', seats: ['human', 'ai:1'] });
    assert.equal(await page.getAttribute('#rules-link', 'href'), '/learn/kings-valley');
    await resign(page);
    assert.equal(await page.textContent('#result'), 'You lost: you resigned');
    assert.ok(await page.isDisabled('#undo'), 'no undo after the end');
    await check(page, 'finish-resigned');
    await Promise.all([page.waitForURL((u) => !u.href.includes(made.id), WAIT), page.click('#rematch')]);
    await page.waitForSelector('#board[data-you="1"]', WAIT);
    const rematch = await page.evaluate(() => location.pathname.split('/')[2]);
    const st = (await api(srv, 'GET', `/api/games/${rematch}`)).body;
    assert.equal(st.rematch_of, made.id);
    assert.deepEqual(st.seats.map((s) => s.player), ['ai:1', 'human']);
    await page.waitForSelector('#board svg', WAIT);
    await check(page, 'finish-rematch');
  });

  test('a draw offered in one browser and accepted in the other', async () => {
    const made = await create({ game: 'kings-valley', seats: ['human', 'human'] });
    const [ca, cb] = [await browser.newContext(), await browser.newContext()];
    const a = await newPage(ca);
    const b = await newPage(cb);
    await a.goto(`${srv.url}${made.seats[0].url}`);
    await b.goto(`${srv.url}${made.seats[1].url}`);
    await a.waitForSelector('#board svg', WAIT);
    await b.waitForSelector('#board svg', WAIT);
    assert.ok(await a.isHidden('#hint'), 'no hints between people by default');
    await a.click('#offer-draw');
    await b.waitForSelector('#draw-offer:not([hidden])', WAIT);
    await check(b, 'finish-draw-offer');
    await b.click('#accept-draw');
    for (const p of [a, b]) await p.waitForSelector('#result:not([hidden])', WAIT);
    assert.equal(await a.textContent('#result'), 'Draw: agreed by the players');
    await check(a, 'finish-draw');
    await ca.close();
    await cb.close();
  });

  test('a win said in words, and special actions labelled', async () => {
    const page = await newPage();
    await openSeat(page, { game: 'kings-valley', seats: ['human', 'human'], position: 'ss1ss/2k2/5/5/SSKSS 1 2' });
    await page.click('#board [data-cell="c1"]');
    await page.click('#board [data-cell="c3"]');
    await page.waitForSelector('#result:not([hidden])', WAIT);
    assert.equal(await page.textContent('#result'), 'You won: your king reached the Valley');
    await check(page, 'finish-won');
    // King's Castle: Black may swap White's first man; King Down's armies: each king. The
    // buttons say what they do, and a line says what to do now.
    const place = (kc) => api(srv, 'POST', `/api/games/${kc.id}/moves`, { token: kc.seats[0].token, body: { move: 'a1' } });
    for (const [body, seat, then, move, words, shot] of [
      [{ game: 'kings-castle', seats: ['human', 'human'] }, 1, place, 'swap', /^Swap.*plays again/, 'action-swap'],
      [{ game: 'king-down', seats: ['human', 'human'], rules: { armies: 'on' } }, 0, null, 'frost', /^Frost.*Freeze and Ice Wall/, 'action-armies'],
    ]) {
      await openSeat(page, body, seat, then);
      assert.match(await page.textContent(`#actions [data-move="${move}"]`), words);
      assert.ok(await page.isVisible(`#actions [data-move="${move}"] .action-why`));
      await check(page, shot);
    }
    assert.match(await page.textContent('#action-help'), /choose your king/);
    // King of the Valley: once over (here by a resignation), the score part by part.
    await openSeat(page, { game: 'king-of-the-valley', seats: ['human', 'human'], seed: 3 }, 1);
    await resign(page);
    await page.waitForSelector('#score-breakdown', WAIT);
    assert.equal(await page.textContent('#result'), 'You lost: you resigned');
    assert.equal(await page.locator('#score-breakdown tbody tr').count(), 6);
    await check(page, 'finish-kotv-scores');
  });

  test('King\'s Guard\'s End the turn: labelled, explained, and played by keyboard', async () => {
    const page = await newPage();
    const made = await openSeat(page, { game: 'kings-guard-8x8', seats: ['human', 'human'], position: '7k/8/8/8/3(GG)4/8/8/K7 1 1' });
    const composing = (n) => page.waitForFunction((k) => document.querySelector('#board').dataset.compose === k, String(n), WAIT);
    // The keyboard alone, from the board's Tab stop: the stack on d4 picked up, its top
    // piece taken two squares up.
    const at = () => page.evaluate(() => document.activeElement.getAttribute('data-cell'));
    const arrowTo = async (cell) => {
      const [from, to] = [await at(), cell].map((c) => [c.charCodeAt(0), Number(c.slice(1))]);
      const keys = [[to[0] - from[0], 'ArrowRight', 'ArrowLeft'], [to[1] - from[1], 'ArrowUp', 'ArrowDown']];
      for (const [d, more, less] of keys) for (let i = 0; i < Math.abs(d); i++) await page.keyboard.press(d > 0 ? more : less);
      assert.equal(await at(), cell);
    };
    await page.focus('#board [data-cell][tabindex="0"]');
    await arrowTo('d4');
    await page.keyboard.press('Enter');
    await composing(1);
    await arrowTo('d6');
    await page.keyboard.press('Enter');
    await composing(2);
    // The control says what it does, in words seen without hovering.
    assert.equal(await page.textContent('#compose-done .action-label'), 'End the turn');
    assert.ok(await page.isVisible('#compose-done .action-why'));
    assert.match(await page.textContent('#compose-done .action-why'), /rest of the stack/);
    await check(page, 'action-end', { audit: false }); // the page is audited as action-swap's
    // Tab goes from the board to it, and Enter sends the turn.
    await page.focus('#board [data-cell][tabindex="0"]');
    let focused = null;
    for (let i = 0; i < 5 && focused !== 'compose-done'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement.id);
    }
    assert.equal(focused, 'compose-done');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('#moves li.p0').length === 3, null, WAIT);
    assert.deepEqual((await api(srv, 'GET', `/api/games/${made.id}`)).body.moves.map((m) => m.text), ['d4', 'd4-d6', 'end']);
  });
});
