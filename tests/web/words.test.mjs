// words.test.mjs - what the game pages say in a player's words (issue 32), in headless
// Chromium against a real `crown serve`: King Down's armies shown beside the board, its
// move list in White and Black with SAN and the powers explained, the promotion picker
// on the board at the promotion square, why a piece cannot move when the king is in
// check; King's Guard's turns and hints told in words (and the stack's destinations
// marked), its typed-move error; the Labyrinth's legend; the King Down rules page's
// guard diagram. Desktop (1280x800) and phone (390x844) where layout is involved; one
// page for the file, every wait on a condition of the page.
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
  const made = (await api(srv, 'POST', '/api/games', { body: spec })).body;
  assert.ok(made.id, JSON.stringify(made));
  return made;
}

async function play(made, seat, move) {
  const r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { body: { move }, token: made.seats[seat].token });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

async function open(page, made, seat = 0) {
  await page.goto(srv.url + made.seats[seat].url);
  await page.waitForSelector('#board svg', WAIT);
}

// The element's box lies within the window (nothing cut off at any side).
async function assertOnScreen(page, selector, what) {
  const { box, w, h } = await page.$eval(selector, (e) => ({
    box: e.getBoundingClientRect().toJSON(), w: window.innerWidth, h: window.innerHeight,
  }));
  assert.ok(box.width > 0 && box.height > 0, `${what} is drawn`);
  assert.ok(box.left >= 0 && box.top >= 0 && box.right <= w && box.bottom <= h, `${what} is on screen: ${JSON.stringify(box)} in ${w}x${h}`);
}

// The page draws the parts beside the board again on a resize or a new event,
// so an element handle may go stale between scrolling and measuring: scroll
// and measure in one step in the page until the layout holds.
async function scrollOnScreen(page, selector) {
  await page.waitForFunction((sel) => {
    const e = document.querySelector(sel);
    if (!e) return false;
    e.scrollIntoView({ block: 'nearest' });
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  }, selector, WAIT).catch(() => {});
}

test('King Down with armies: kings, powers and tokens beside the board, moves in words', async () => {
  const made = await create({ game: 'king-down', seats: ['human', 'human'], rules: { armies: 'on', setup: 'classic' } });
  for (const [seat, move] of [[0, 'stratus'], [1, 'frost'], [0, 'flight'], [1, 'freeze'], [0, 'e2e4'], [1, 'g8f6']]) await play(made, seat, move);
  const st = (await api(srv, 'GET', `/api/games/${made.id}`)).body;
  // The API: each action's kind and the text players read (SAN, a power's name).
  assert.deepEqual(st.moves.map((m) => [m.text, m.kind ?? null, m.read ?? null]),
    [['stratus', 'stratus', 'Stratus'], ['frost', 'frost', 'Frost'], ['flight', 'flight', 'Flight'],
      ['freeze', 'freeze', 'Freeze'], ['e2e4', null, 'e4'], ['g8f6', null, 'Nf6']]);
  const games = (await api(srv, 'GET', '/api/games')).body.games;
  assert.deepEqual(games.find((g) => g.name === 'king-down').seat_names, ['White', 'Black']);

  const page = await newPage(DESKTOP);
  await open(page, made, 0);
  await page.waitForSelector('#beside .sides', WAIT);
  const sides = await page.$$eval('#beside .side', (li) => li.map((x) => x.textContent));
  assert.match(sides[0], /^ White \(you\): King of Stratus, power Flight, 1 token left \(.*empty square/);
  assert.match(sides[1], /^ Black: King of Frost, power Freeze, 2 tokens left \(/);
  assert.equal(await page.isVisible('#beside .sides'), true);
  assert.match(await page.textContent('#status'), /^Your move \(White\)$/);
  const list = await page.$$eval('#moves li', (li) => li.map((x) => x.textContent));
  assert.match(list[0], /^White Stratus \(choose the king of Stratus: its powers are Flight and Sacrifice\)$/);
  assert.match(list[2], /^White Flight \(power: a piece flies/);
  assert.deepEqual(list.slice(4), ['White e4', 'Black Nf6']);
  await page.screenshot({ path: join(SHOTS, 'words-king-down-armies-1280x800.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  // On a phone the sides are under the board, before the panel.
  await scrollOnScreen(page, '#beside .sides');
  await assertOnScreen(page, '#beside .sides', 'the armies on a phone');
  await page.screenshot({ path: join(SHOTS, 'words-king-down-armies-390x844.png'), fullPage: true });
  // The review reads the same: SAN, the powers' names, the seats' names.
  await page.setViewportSize(DESKTOP);
  await page.click('#review-open');
  await page.waitForFunction(() => /Nf6/.test(document.querySelector('#review-moves')?.textContent), null, WAIT);
  assert.match(await page.textContent('#review-moves'), /Stratus.*Frost.*Flight.*Freeze.*e4.*Nf6/);
  assert.match(await page.textContent('#review-where'), /: Nf6$/);
  await page.waitForFunction(() => /^White to move/.test(document.querySelector('#review-eval').textContent), null, WAIT);
  assert.deepEqual(page.errors, []);
});

test('King Down: the king in check is named; the promotion picker opens on the board', async () => {
  // Black's rook on a8 checks the white king on g8; the pawn on b7 may block by
  // promoting on b8; the knight on h1 can do nothing about it.
  const made = await create({ game: 'king-down', seats: ['human', 'human'], position: 'r5K1/1P6/8/8/8/8/8/4k2N w - - 0 1' });
  for (const size of [DESKTOP, PHONE]) {
    const page = await newPage(size);
    await open(page, made, 0);
    await page.click('#board [data-cell="h1"]');
    await page.waitForFunction(() => /king is in check/.test(document.querySelector('#message').textContent), null, WAIT);
    await page.click('#board [data-cell="b7"]');
    await page.waitForSelector('#board [data-cell="b8"].target', WAIT);
    await page.click('#board [data-cell="b8"]');
    await page.waitForSelector('#chooser.on-board:not([hidden]) button.choice.pictured', WAIT);
    assert.equal(await page.textContent('#chooser .chooser-title'), 'Promote to');
    await assertOnScreen(page, '#chooser', `the promotion picker at ${size.width} px`);
    // It covers the promotion square's column, over the board.
    const [pick, square, board] = await Promise.all(['#chooser', '#board [data-cell="b8"]', '#board svg']
      .map((s) => page.$eval(s, (e) => e.getBoundingClientRect().toJSON())));
    assert.ok(pick.left <= square.left + square.width / 2 && pick.right >= square.left + square.width / 2, JSON.stringify({ pick, square }));
    assert.ok(pick.top >= board.top && pick.bottom <= board.bottom, JSON.stringify({ pick, board }));
    await page.screenshot({ path: join(SHOTS, `words-king-down-promotion-${size.width}x${size.height}.png`) });
    await page.keyboard.press('Escape');
    await page.waitForSelector('#chooser', { ...WAIT, state: 'hidden' });
    assert.deepEqual(page.errors, []);
  }
});

test('King\'s Guard: a hint marks the stack and where its pieces go; turns and errors in words', async () => {
  // The stack's top piece takes the king on d6 at once, so a search of any depth hints
  // it (with the king on h8 the hint hung on how deep a loaded machine's second got).
  const made = await create({ game: 'kings-guard-8x8', seats: ['human', 'ai:1'], position: '8/8/3k4/8/3(GG)4/8/8/K7 1 1' });
  const page = await newPage(DESKTOP);
  await open(page, made, 0);
  await page.fill('#move-input', 'zz');
  await page.click('#type-move button');
  await page.waitForFunction(() => /is not a move: name the stack you take/.test(document.querySelector('#message').textContent), null, WAIT);
  await page.click('#hint');
  await page.waitForFunction(() => /^Hint: (one|two) pieces? from d4, one to /.test(document.querySelector('#message').textContent), null, WAIT);
  const marked = await page.$$eval('#board .cell.hint', (cs) => cs.map((c) => c.dataset.cell));
  assert.ok(marked.includes('d4') && marked.length >= 2, `the stack and where its pieces go: ${marked}`);
  await page.screenshot({ path: join(SHOTS, 'words-kings-guard-hint-1280x800.png') });
  await page.fill('#move-input', 'd4-f4,e4');
  await page.click('#type-move button');
  await page.waitForFunction(() => document.querySelectorAll('#moves li.p0').length === 3, null, WAIT);
  assert.deepEqual(await page.$$eval('#moves li.p0', (li) => li.map((x) => x.textContent.replace(/^\S+\s+/, ''))),
    ['two pieces from d4', 'one to f4', 'one to e4']);
  assert.deepEqual(page.errors, []);
});

test('the Labyrinth has a legend; the guard diagram says the king is in check', async () => {
  const made = await create({ game: 'kings-valley-labyrinth', seats: ['human', 'ai:1'] });
  const page = await newPage(PHONE);
  await open(page, made, 0);
  await page.waitForSelector('#beside .legend', WAIT);
  assert.match(await page.textContent('#beside .legend'), /Pillar: never moves/);
  await scrollOnScreen(page, '#beside .legend');
  await assertOnScreen(page, '#beside .legend', 'the legend on a phone');
  await page.goto(`${srv.url}/learn/king-down`);
  await page.waitForFunction(() => [...document.querySelectorAll('figcaption, .caption, p')].some((e) => /guard cannot take the rook/.test(e.textContent)), null, WAIT);
  const caption = await page.evaluate(() => [...document.querySelectorAll('figcaption, .caption, p')].find((e) => /guard cannot take the rook/.test(e.textContent)).textContent);
  assert.match(caption, /king on e1 is in check/);
  assert.deepEqual(page.errors, []);
});

test('King Down: a hint reads in SAN, its notation stays long', async () => {
  const made = await create({ game: 'king-down', seats: ['human', 'ai:1'], rules: { setup: 'classic' } });
  const r = await api(srv, 'POST', `/api/games/${made.id}/hint`, { token: made.seats[0].token });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.match(r.body.move, /^[a-h][1-8][a-h][1-8]$/);
  assert.match(r.body.read, /^[NBRQ]?[a-h][1-8]$/);
});
