// fixes.test.mjs - what a first session hits, in headless Chromium against a real
// `crown serve`: the new-game form with the games' and AI levels' names, on a phone;
// King Down's pictured promotion chooser and a king in check; a King's Guard turn put
// together on the page (and the previews it is built on); typed moves as players write
// them; a hint in words; why a clicked piece does not move; King of the Valley on a
// phone and its wizard swaps by two taps. Screenshots at
// 1280x800 and 390x844 go to $SCREENSHOT_DIR, and no page scrolls sideways at 390 px.
// Every wait is on a condition of the page, bounded by a timeout; none is a sleep.
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
let newPage; // one page for every test (browser.mjs)

browserSuite({
  before, after, shots: SHOTS,
  ready(s) { srv = s.srv; newPage = pageReuser(s.browser, DESKTOP); },
});

// A game made through the API (a position, seats), opened at the first human seat.
async function openGame(page, spec) {
  const made = (await api(srv, 'POST', '/api/games', { body: spec })).body;
  assert.ok(made.id, JSON.stringify(made));
  const seat = made.seats.find((s) => s.player === 'human');
  await page.goto(srv.url + seat.url);
  await page.waitForSelector('#board svg', WAIT);
  return made;
}

// Nothing on the page is wider than the screen: no sideways scrolling.
async function assertNoSideways(page, what) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what} scrolls sideways at ${client} px: ${scroll} px wide`);
}

async function shoot(page, name) {
  await page.screenshot({ path: join(SHOTS, name), fullPage: true });
}

test('the new-game form names games and AI levels, and fits a phone', async () => {
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/`);
  await page.waitForSelector('#game-select option', { ...WAIT, state: 'attached' });
  const names = await page.$$eval('#game-select option', (os) => os.map((o) => [o.value, o.textContent]));
  assert.deepEqual(names.find(([v]) => v === 'kings-valley'), ['kings-valley', "King's Valley"]);
  assert.ok(names.every(([v, t]) => v !== t), `every game has a name: ${JSON.stringify(names)}`);
  const levels = await page.$$eval('#level-1 option', (os) => os.map((o) => o.textContent));
  assert.equal(levels.length, 10);
  assert.equal(levels[0], 'Beginner (1)');
  assert.equal(levels[9], 'Master (10)');
  await page.selectOption('#game-select', 'king-of-the-valley');
  await page.selectOption('#players', '4');
  await shoot(page, 'fixes-new-game-1280x800.png');
  await page.setViewportSize(PHONE);
  await assertNoSideways(page, 'the new-game form');
  await shoot(page, 'fixes-new-game-390x844.png');
  assert.deepEqual(page.errors, []);
});

test('rule options by their names in words, the fine points and the seed under Advanced', async () => {
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/?game=king-down`);
  await page.waitForSelector('#rule-setup', WAIT);
  const shown = async () => page.$$eval('#new-game .field', (fs) => fs.filter((f) => f.checkVisibility())
    .map((f) => [f.dataset.rule, f.querySelector('.name').textContent]).filter(([rule]) => rule));
  // Only the set-up and the armies at first; King Down's other eighteen fold away.
  assert.deepEqual(await shown(), [['setup', 'Starting position'], ['armies', 'Armies']]);
  assert.equal(await page.isVisible('#seed'), false, 'no raw seed in the main form');
  assert.equal(await page.isVisible('#rule-castling'), false);
  await page.click('#advanced summary');
  assert.equal(await page.isVisible('#rule-castling'), true);
  assert.equal(await page.textContent('#advanced [data-rule="max-plies"] .name'), 'Turn limit');
  assert.match(await page.textContent('#advanced label:has(#seed)'), /Random seed/);
  assert.equal(await page.$eval('#rule-castling', (s) => s.selectedOptions[0].textContent), 'off (default)');
  // Every game: no label is an option's key, and a turn limit is called that everywhere.
  for (const game of await page.$$eval('#game-select option', (os) => os.map((o) => o.value))) {
    await page.selectOption('#game-select', game);
    for (const [rule, name] of await page.$$eval('#new-game .field[data-rule]', (fs) => fs.map((f) => [f.dataset.rule, f.querySelector('.name').textContent]))) {
      assert.notEqual(rule, name, `${game}: ${rule} is shown by its key`);
      if (rule === 'max-plies') assert.equal(name, 'Turn limit', game);
    }
  }
  await page.setViewportSize(PHONE);
  await assertNoSideways(page, 'the new-game form with Advanced open');
  await shoot(page, 'fixes-new-game-advanced-390x844.png');
  assert.deepEqual(page.errors, []);
});

test('a clock typed in: minutes and seconds a turn, and 1+1 among the presets', async () => {
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/?game=kings-valley`);
  await page.waitForSelector('#clock', WAIT);
  const presets = await page.$$eval('#clock option', (os) => os.map((o) => o.value));
  assert.ok(presets.includes('60+1'), `1+1 is a preset: ${presets}`);
  assert.equal(await page.isVisible('#clock-minutes'), false);
  await page.selectOption('#clock', 'custom');
  await page.fill('#clock-minutes', '2.5');
  await page.fill('#clock-increment', '4');
  await page.selectOption('#seat-0', 'human');
  await page.selectOption('#seat-1', 'human');
  await Promise.all([page.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT), page.click('#start')]);
  const id = new URL(page.url()).pathname.split('/')[2];
  const st = (await api(srv, 'GET', `/api/games/${id}`)).body;
  assert.deepEqual([st.clock.initial, st.clock.increment], [150, 4]);
  assert.deepEqual(page.errors, []);
});

test('King Down: a king in check is marked, promotions are pictured and fit a phone', async () => {
  const page = await newPage(DESKTOP);
  // Black's rook on a8 checks the white king on g8; the pawn on b7 may block by
  // promoting on b8 (or take the rook).
  // Two humans: no AI reply (the rook taking the new queen) checks again.
  await openGame(page, { game: 'king-down', seats: ['human', 'human'], position: 'r5K1/1P6/8/8/8/8/8/4k3 w - - 0 1' });
  assert.equal(await page.locator('#board [data-cell="g8"].check').count(), 1, 'the king in check is marked');
  assert.equal(await page.locator('#board .cell.check').count(), 1);
  await page.click('#board [data-cell="b7"]');
  await page.waitForSelector('#board [data-cell="b8"].target', WAIT);
  await page.click('#board [data-cell="b8"]');
  await page.waitForSelector('#chooser:not([hidden]) button.choice.pictured', WAIT);
  const faces = await page.$$eval('#chooser button.choice', (bs) => bs.map((b) => [b.dataset.move, b.getAttribute('aria-label'), !!b.querySelector('svg.choice-picture')]));
  assert.ok(faces.length >= 4, JSON.stringify(faces));
  assert.ok(faces.every(([, , pictured]) => pictured), JSON.stringify(faces));
  assert.deepEqual(faces.find(([m]) => m === 'b7b8q'), ['b7b8q', 'queen', true]);
  await shoot(page, 'fixes-king-down-promotion-1280x800.png');
  await page.setViewportSize(PHONE);
  await assertNoSideways(page, 'King Down\'s promotion chooser');
  await shoot(page, 'fixes-king-down-promotion-390x844.png');
  await page.click('#chooser button[data-move="b7b8q"]');
  await page.waitForSelector('#board [data-cell="b8"] [data-piece="0queen"]', WAIT);
  assert.equal(await page.locator('#board [data-cell="g8"].check').count(), 0, 'the check is over');
  assert.deepEqual(page.errors, []);
});

test('King\'s Guard: a stack is only selected, its turn put together and sent at the end', async () => {
  const page = await newPage(DESKTOP);
  const made = await openGame(page, { game: 'kings-guard-8x8', seats: ['human', 'ai:1'], position: '7k/8/8/8/3(GG)4/8/8/K7 1 1' });
  const serverPly = async () => (await api(srv, 'GET', `/api/games/${made.id}`)).body.ply;
  const composing = (n) => page.waitForFunction((k) => document.querySelector('#board').dataset.compose === k, String(n), WAIT);
  // The first click selects the stack and shows where its top piece may go; nothing is sent.
  await page.click('#board [data-cell="d4"]');
  await composing(1);
  assert.ok(await page.locator('#board .cell.target').count() > 0);
  assert.match(await page.textContent('#compose-text'), /d4/);
  assert.equal(await serverPly(), 0);
  // Escape drops it.
  await page.keyboard.press('Escape');
  await composing('');
  assert.equal(await page.locator('#compose').isHidden(), true);
  // Top piece to d6; a click elsewhere drops the turn.
  await page.click('#board [data-cell="d4"]');
  await composing(1);
  await page.click('#board [data-cell="d6"]');
  await composing(2);
  assert.equal(await page.locator('#compose-done').isVisible(), true);
  assert.equal(await page.locator('#board [data-cell="d6"] .stack').count(), 1, 'the piece is drawn where it goes');
  assert.equal(await serverPly(), 0);
  await shoot(page, 'fixes-kings-guard-compose-1280x800.png');
  await page.setViewportSize(PHONE);
  await assertNoSideways(page, 'a King\'s Guard game');
  await shoot(page, 'fixes-kings-guard-compose-390x844.png');
  await page.click('#board [data-cell="a8"]');
  await composing('');
  // Again, and Done sends the whole turn: pick up, place, end.
  await page.click('#board [data-cell="d4"]');
  await composing(1);
  await page.click('#board [data-cell="d6"]');
  await composing(2);
  await page.click('#compose-done');
  await page.waitForFunction(() => document.querySelectorAll('#moves li.p0').length === 3, null, WAIT);
  assert.deepEqual(await page.$$eval('#moves li.p0', (li) => li.map((x) => x.textContent.replace(/^\S+\s+/, ''))), ['one piece from d4', 'one to d6', 'the rest stays']);
  // One turn in the live list (movelist.js): its further actions follow its first.
  assert.deepEqual(await page.$$eval('#moves li.p0', (li) => li.map((x) => x.classList.contains('turn-more'))), [false, true, true]);
  assert.deepEqual(page.errors, []);
});

test('typed moves as players write them, a hint in words, and why a piece does not move', async () => {
  const page = await newPage(DESKTOP);
  await openGame(page, { game: 'kings-valley', seats: ['human', 'ai:1'] });
  // The king may not make the game's first move; a piece of the other side is not ours.
  await page.click('#board [data-cell="c1"]');
  await page.waitForFunction(() => /no legal move/.test(document.querySelector('#message').textContent), null, WAIT);
  await page.click('#board [data-cell="a5"]');
  await page.waitForFunction(() => /second player's piece/.test(document.querySelector('#message').textContent), null, WAIT);
  await page.click('#hint');
  await page.waitForFunction(() => /^Hint: /.test(document.querySelector('#message').textContent), null, WAIT);
  const hint = await page.textContent('#message');
  assert.match(hint, /^Hint: [a-e][1-5]-[a-e][1-5], (about \d+% to win|you win by force|the other side wins by force|a draw)/);
  assert.doesNotMatch(hint, /cp|value/);
  await page.fill('#move-input', 'B1B4');
  await page.click('#type-move button');
  await page.waitForSelector('#moves li.p0', WAIT);
  assert.match(await page.textContent('#moves li.p0'), /b1-b4/);
  assert.deepEqual(page.errors, []);

  // Once the game is over, a click says so.
  const over = await newPage(PHONE);
  await openGame(over, { game: 'kings-valley', seats: ['human', 'ai:1'], position: 'ss1ss/2k2/5/5/SSKSS 1 2' });
  await over.fill('#move-input', 'c1c3');
  await over.click('#type-move button');
  await over.waitForSelector('#result:not([hidden])', WAIT);
  await over.click('#board [data-cell="a1"]');
  await over.waitForFunction(() => /game is over/.test(document.querySelector('#message').textContent), null, WAIT);
  await assertNoSideways(over, 'a King\'s Valley game');
  await shoot(over, 'fixes-kings-valley-over-390x844.png');
  assert.deepEqual(over.errors, []);
});

// The second player's wizard waits to swap a castle subject for a hill tile.
const KOTV_SWAP = 'players=2 first=2 turn=2 turns=28 phase=kingdom end=0 valley=NA,F,F,F,NA/NB,T3:5,D,F,W/Q,D,P,C,T3:6/T4:7,-,NB,P,J/F,ND,C,F,F kings=e3,b2 hill=F,C,W,NB,W,F/W,F,W,Q,NB,NC pile1=- pile2=- pile3=2D,C,NA,2ND,5F,2J,P,Z,T5:9,T5:10 gold=5,1 crowns=0,1 taxed=F,- up1=D,2C,NA,2NC,ND,F,3W down1=4F up2=2C,NA,NB,NC,ND,3F,4W down2=Q,D,C,NC,F holes=b2 pending=Z';

test('King of the Valley fits a phone; the wizard swaps by tapping two tiles', async () => {
  const page = await newPage(DESKTOP);
  await openGame(page, { game: 'king-of-the-valley', seats: ['ai:1', 'human'], position: KOTV_SWAP });
  await page.waitForSelector('#board svg.kotv', WAIT);
  await shoot(page, 'fixes-king-of-the-valley-1280x800.png');
  // No wall of swap buttons: a castle tile, then a hill tile.
  assert.equal(await page.locator('#actions button[data-move^="swap "]').count(), 0);
  await page.setViewportSize(PHONE);
  await page.waitForSelector('#board svg.kotv.narrow', WAIT);
  await assertNoSideways(page, 'King of the Valley');
  // On a phone a valley tile is drawn at least 40 px wide.
  const tile = await page.$eval('#board [data-cell="a1"]', (c) => c.getBoundingClientRect().width);
  assert.ok(tile >= 40, `a valley tile is ${tile} px wide`);
  await shoot(page, 'fixes-king-of-the-valley-390x844.png');
  // No tile's name runs under its shield or coin ("untess" for "countess").
  const hidden = await page.$$eval('#board .tile', (ts) => ts.flatMap((t) => {
    const name = t.querySelector('.kotv-name');
    const over = t.querySelector('.kotv-shield, .coin');
    if (!name || !over) return [];
    const a = name.getBBox();
    const b = over.getBBox();
    const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
    return apart ? [] : [name.textContent];
  }));
  assert.deepEqual(hidden, [], 'tile names partly hidden');
  // Whose move it is, in view above a board taller than the screen, and still in view
  // scrolled to the board's foot.
  const bar = async () => page.$eval('#turn-bar', (b) => ({ text: b.textContent, ...b.getBoundingClientRect().toJSON() }));
  const boardTop = await page.$eval('#board', (b) => b.getBoundingClientRect().top);
  let seen = await bar();
  assert.match(seen.text, /^Your move/);
  assert.ok(seen.bottom <= boardTop + 1 && seen.top >= 0, `the turn shows above the board (${JSON.stringify(seen)})`);
  await page.$eval('#board', (b) => b.scrollIntoView({ block: 'end' }));
  seen = await bar();
  assert.ok(seen.top >= 0 && seen.bottom <= 844, `the turn stays in view (${JSON.stringify(seen)})`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('#board [data-castle="1"] .kotv-give').first().click();
  const code = await page.$eval('#board [data-castle="1"] .kotv-give[data-picked]', (g) => g.getAttribute('data-tile'));
  const slot = page.locator(`#board [data-slot][data-moves^="swap ${code} "]`).first();
  const want = await slot.getAttribute('data-moves');
  assert.ok(!want.includes('|'), `one swap per hill tile once the castle tile is chosen: ${want}`);
  await slot.click();
  await page.waitForFunction((t) => [...document.querySelectorAll('#moves li')].some((li) => li.textContent.includes(t)), want, WAIT);
  assert.deepEqual(page.errors, []);
});

test('King\'s Castle on a phone: cells a finger wide, the names of the picked cell and its targets readable', async () => {
  const page = await newPage(PHONE);
  // A single on a1 that may stop on b1 or c1 (the rules page's board).
  await openGame(page, { game: 'kings-castle', seats: ['human', 'human'], position: '6/7/8/9/10/11/10/9/8/7/W2B2 w 2' });
  await assertNoSideways(page, "King's Castle");
  const hex = await page.$eval('#board .hex', (c) => c.getBoundingClientRect().width);
  assert.ok(hex >= 32, `a cell is ${hex} px wide`);
  // Unreadably small names are not drawn; the cell picked and its targets say theirs.
  assert.equal(await page.locator('#board .hex:not(.selected):not(.target) .cellname').first().isVisible(), false);
  await page.click('#board [data-cell="a1"]');
  await page.waitForSelector('#board .hex.target', WAIT);
  const sizes = await page.$$eval('#board .hex.selected .cellname, #board .hex.target .cellname', (ts) => ts.map((t) => t.getBoundingClientRect().height));
  assert.ok(sizes.length >= 2 && sizes.every((px) => px >= 9), `names readable: ${sizes}`);
  await shoot(page, 'fixes-kings-castle-390x844.png');
  assert.deepEqual(page.errors, []);
});

test('previews: on a copy, never stored; refused with the reason', async () => {
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-guard-8x8', seats: ['human', 'human'] } })).body;
  const preview = (body) => api(srv, 'POST', `/api/games/${made.id}/preview`, { body });
  const one = await preview({ move: 'D4' });
  assert.equal(one.status, 200);
  assert.equal(one.body.turn_over, false);
  assert.ok(one.body.legal.every((m) => m.text === 'end' || m.cells[0] === 'd4'), JSON.stringify(one.body.legal));
  const two = await preview({ move: 'd4; d4-d5' });
  assert.deepEqual([two.body.actions, two.body.turn_over, two.body.legal], [2, true, []]);
  assert.equal((await api(srv, 'GET', `/api/games/${made.id}`)).body.ply, 0);
  assert.equal((await preview({ move: 'zz' })).status, 400);
  assert.equal((await preview({ moves: 'd4' })).status, 400);
  const hidden = (await api(srv, 'POST', '/api/games', { body: { game: 'king-of-the-valley', seats: ['human', 'human'] } })).body;
  assert.equal((await api(srv, 'POST', `/api/games/${hidden.id}/preview`, { body: { move: 'place c3' } })).status, 409);
});
