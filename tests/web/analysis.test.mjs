// analysis.test.mjs - the analysis board in headless Chromium against a real `crown
// serve`, at 1280x800 and 390x844: moves played on the board make a tree, a new move
// where the line goes on makes a variation, any node is a click away, the engine's
// evaluation and best line follow, and the address is the link that opens the same tree
// elsewhere; the ways in from a game's page and its review; the position editor, whose
// pieces are placed by clicks and whose refusals are the game's own. Every wait is on a
// condition of the page, bounded by a timeout; none is a sleep.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { assertAccessible } from './a11y.mjs';
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

async function assertNoSideways(page, what) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
  }));
  assert.ok(scroll <= client, `${what} scrolls sideways at ${client} px: ${scroll} px wide`);
}

// The tree's nodes as [line from the root, current?].
const nodes = (page) => page.$$eval('#analysis-tree .node', (ns) => ns.map((n) => [n.dataset.line, n.classList.contains('current')]));
const current = (page) => page.$eval('#analysis-tree .node.current', (n) => n.dataset.line).catch(() => '');

async function opened(page, url) {
  await page.goto(url);
  await page.waitForSelector('#app[data-ready="analysis"] #analysis-board svg', WAIT);
}

async function clickMove(page, from, to, line) {
  await page.click(`#analysis-board [data-cell="${from}"]`);
  await page.waitForSelector(`#analysis-board[data-selected="${from}"]`, WAIT);
  await page.click(`#analysis-board [data-cell="${to}"]`);
  await page.waitForFunction((l) => document.querySelector('#analysis-tree .node.current')?.dataset.line === l, line, WAIT);
}

for (const [size, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
  test(`the tree, its variations, the engine and the link (${name})`, async () => {
    const page = await newPage(size);
    await opened(page, `${srv.url}/analysis?game=kings-valley`);
    assert.match(await page.textContent('#analysis-where'), /Start position; first player to move/);
    await clickMove(page, 'a1', 'a4', 'a1-a4');
    await clickMove(page, 'e5', 'e2', 'a1-a4 e5-e2');
    // Back to the first action, then another answer: a variation beside the main line.
    await page.click('#analysis-tree .node[data-line="a1-a4"]');
    await page.waitForFunction(() => document.querySelector('#analysis-board')?.dataset.depth === '1', null, WAIT);
    const other = (await page.$$eval('#analysis-legal option', (os) => os.map((o) => o.value))).find((t) => t !== 'e5-e2');
    await page.fill('#analysis-input', other);
    await page.press('#analysis-input', 'Enter');
    await page.waitForFunction((l) => document.querySelector('#analysis-tree .node.current')?.dataset.line === l, `a1-a4 ${other}`, WAIT);
    assert.deepEqual(await nodes(page), [['a1-a4', false], ['a1-a4 e5-e2', false], [`a1-a4 ${other}`, true]]);
    assert.equal(await page.$eval('#analysis-tree .variation .node', (n) => n.dataset.line), `a1-a4 ${other}`);
    // The engine's evaluation and best line, for the position shown.
    await page.waitForSelector('#analysis-line .line-move', WAIT);
    assert.match(await page.textContent('#analysis-eval'), /^First player to move .*\(\d+% to win; .+\)\.$/);
    // Back on the main line by a click; the arrow keys step along it.
    await page.click('#analysis-tree .node[data-line="a1-a4 e5-e2"]');
    await page.waitForFunction(() => document.querySelector('#analysis-board')?.dataset.depth === '2', null, WAIT);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('#analysis-board')?.dataset.depth === '1', null, WAIT);
    // The link opens the line to the node shown, at that node.
    await page.click(`#analysis-tree .node[data-line="a1-a4 ${other}"]`);
    await page.waitForFunction(() => document.querySelector('#analysis-board')?.dataset.depth === '2', null, WAIT);
    const link = await page.inputValue('#analysis-link');
    assert.equal(new URL(link).searchParams.getAll('m').join(' '), `a1-a4 ${other}`);
    const position = await page.getAttribute('#analysis-board', 'data-position');
    await assertNoSideways(page, `the analysis board (${name})`);
    await page.screenshot({ path: join(SHOTS, `analysis-${name}.png`), fullPage: true });
    // One audit is enough: the phone's page has the same elements.
    if (size === DESKTOP) await assertAccessible(page, 'the analysis board');
    await opened(page, link);
    await page.waitForFunction(() => document.querySelector('#analysis-board')?.dataset.depth === '2', null, WAIT);
    assert.equal(await page.getAttribute('#analysis-board', 'data-position'), position);
    assert.deepEqual(await nodes(page), [['a1-a4', false], [`a1-a4 ${other}`, true]]);
    assert.deepEqual(page.errors, []);
  });
}

test('a bad link says what is wrong', async () => {
  const page = await newPage(DESKTOP);
  await page.goto(`${srv.url}/analysis?game=kings-valley&pos=nonsense`);
  await page.waitForSelector('#app[data-ready="analysis"]', WAIT);
  assert.match(await page.textContent('#analysis-message'), /This analysis cannot be opened: bad position/);
});

test('from a game against the AI, and from a finished game\'s review', async () => {
  const page = await newPage(DESKTOP);
  const vsAi = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'ai:1'] } })).body;
  await page.goto(srv.url + vsAi.seats[0].url);
  await page.waitForSelector('#analysis-open', { ...WAIT, state: 'visible' });
  const state = (await api(srv, 'GET', `/api/games/${vsAi.id}`)).body;
  await page.click('#analysis-open');
  await page.waitForSelector('#app[data-ready="analysis"] #analysis-board svg', WAIT);
  assert.equal(await page.getAttribute('#analysis-board', 'data-position'), state.position);

  // A finished game between people: its review opens the board on the whole game.
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'human'], position: 'ss1ss/2k2/5/5/SSKSS 1 10' } })).body;
  // While people play it, the board would help one of them: no link.
  await page.goto(srv.url + made.seats[0].url);
  await page.waitForSelector('#board svg', WAIT);
  assert.equal(await page.isVisible('#analysis-open'), false);
  for (const [seat, move] of [[0, 'a1-a4'], [1, 'e5-e2'], [0, 'c1-c3']]) {
    assert.equal((await api(srv, 'POST', `/api/games/${made.id}/moves`, { token: made.seats[seat].token, body: { move } })).status, 200);
  }
  await page.goto(srv.url + made.seats[0].url);
  await page.waitForSelector('#analysis-open', { ...WAIT, state: 'visible' });
  await page.click('#review-open');
  await page.click('#review-nav button[aria-label="previous action"], .review-nav button[aria-label="previous action"]');
  await page.waitForSelector('#review-board[data-ply="2"]', WAIT);
  await page.waitForSelector('#review-explore', { ...WAIT, state: 'visible' });
  await page.click('#review-explore');
  await page.waitForSelector('#app[data-ready="analysis"] #analysis-board svg', WAIT);
  assert.deepEqual(await nodes(page), [['a1-a4', false], ['a1-a4 e5-e2', true], ['a1-a4 e5-e2 c1-c3', false]]);
  assert.deepEqual(page.errors, []);
});

const editorValid = (page, v) => page.waitForSelector(`#editor[data-valid="${v}"]`, WAIT);

for (const [size, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
  test(`the position editor: pieces placed and removed, the game's refusal in words (${name})`, async () => {
    const page = await newPage(size);
    await opened(page, `${srv.url}/analysis?game=kings-valley`);
    await page.click('#analysis-edit');
    await editorValid(page, 'yes');
    assert.deepEqual(await page.$$eval('#editor-palette button', (bs) => bs.map((b) => b.dataset.token).sort()), ['', 'K', 'S', 'k', 's']);
    await page.click('#editor-palette [data-token=""]');
    await page.click('#editor-board [data-cell="c1"]');
    await editorValid(page, 'no');
    assert.match(await page.textContent('#editor-status'), /does not accept this position: the first player needs exactly one king, not 0/);
    assert.ok(await page.$('#editor-board svg'), 'a refused position is still drawn');
    await page.click('#editor-palette [data-token="K"]');
    await page.click('#editor-board [data-cell="c2"]');
    await editorValid(page, 'yes');
    assert.equal(await page.inputValue('#editor-text'), 'sskss/5/5/2K2/SS1SS 1 0');
    await page.selectOption('#editor-side', '2');
    await page.waitForFunction(() => document.querySelector('#editor-text').value === 'sskss/5/5/2K2/SS1SS 2 0', null, WAIT);
    await editorValid(page, 'yes');
    await assertNoSideways(page, `the position editor (${name})`);
    if (size === DESKTOP) await assertAccessible(page, 'the position editor');
    await page.screenshot({ path: join(SHOTS, `analysis-editor-${name}.png`), fullPage: true });
    await page.click('#editor-analyse');
    await page.waitForSelector('#app[data-ready="analysis"] #analysis-board svg', WAIT);
    assert.equal(await page.getAttribute('#analysis-board', 'data-position'), 'sskss/5/5/2K2/SS1SS 2 0');
    assert.match(await page.textContent('#analysis-where'), /second player to move/);
    assert.deepEqual(page.errors, []);
  });
}

test('the position editor of every game', async () => {
  const page = await newPage(DESKTOP);
  for (const [game, cell] of [['kings-guard', 'a1'], ['kings-castle', null], ['king-down', 'e1']]) {
    await opened(page, `${srv.url}/analysis?game=${game}`);
    await page.click('#analysis-edit');
    await editorValid(page, 'yes');
    const tokens = await page.$$eval('#editor-palette button', (bs) => bs.map((b) => b.dataset.token));
    assert.ok(tokens.length >= 3, `${game}: ${tokens}`);
    const before = await page.inputValue('#editor-text');
    // King's Castle starts empty: a first player's man goes on f6.
    await page.click(`#editor-palette [data-token="${cell ? '' : tokens.find((t) => t === t.toUpperCase() && t)}"]`);
    await page.click(`#editor-board [data-cell="${cell || 'f6'}"]`);
    await page.waitForFunction((b) => document.querySelector('#editor-text').value !== b, before, WAIT);
    await page.waitForSelector('#editor[data-valid="yes"], #editor[data-valid="no"]', WAIT);
    assert.match(await page.textContent('#editor-status'), /The game (accepts|does not accept) this position/, game);
  }
  // King of the Valley's text can be typed too, checked as it is typed.
  await opened(page, `${srv.url}/analysis?game=king-of-the-valley`);
  await page.click('#analysis-edit');
  await editorValid(page, 'yes');
  await page.fill('#editor-text', 'players=2 nonsense');
  await editorValid(page, 'no');
  assert.match(await page.textContent('#editor-status'), /does not accept this position: ./);
  assert.deepEqual(page.errors, []);
});

// The editor's text once it differs from `before`, and the game's verdict on it.
async function edited(page, before) {
  await page.waitForFunction((b) => document.querySelector('#editor-text').value !== b, before, WAIT);
  await page.waitForSelector('#editor[data-valid="yes"], #editor[data-valid="no"]', WAIT);
  return page.inputValue('#editor-text');
}

async function clickEdit(page, selector, opts) {
  const before = await page.inputValue('#editor-text');
  await page.click(selector, opts);
  return edited(page, before);
}

async function analysed(page) {
  await page.click('#editor-analyse');
  await page.waitForSelector('#app[data-ready="analysis"] #analysis-board svg', WAIT);
  await page.waitForSelector('#analysis-line .line-move', WAIT);
}

// King's Guard, both boards: a stack built by clicks a piece at a time, shown in order,
// taken down from the top by the palette's tool and by an Alt-click, and a stack the
// game refuses (a second king) explained in its words.
for (const [size, name, game, cell] of [[DESKTOP, 'desktop', 'kings-guard', 'a5'], [PHONE, 'phone', 'kings-guard-8x8', 'a4']]) {
  test(`the position editor builds King's Guard stacks by clicks (${game}, ${name})`, async () => {
    const page = await newPage(size);
    await opened(page, `${srv.url}/analysis?game=${game}`);
    await page.click('#analysis-edit');
    await editorValid(page, 'yes');
    const at = `#editor-board [data-cell="${cell}"]`;
    await page.click('#editor-palette [data-token="G"]');
    await clickEdit(page, at);
    await page.click('#editor-palette [data-token="g"]');
    assert.ok((await clickEdit(page, at)).includes('(Gg)'), 'the second guard goes on top');
    await editorValid(page, 'yes');
    assert.equal(await page.textContent('#editor-stack'), `${cell}, from the bottom up: first player's guard, second player's guard`);
    assert.equal(await page.getAttribute(`${at} .stack`, 'data-stack'), '0guard 1guard');
    await page.click('#editor-palette [data-tool="pop"]');
    await clickEdit(page, at);
    assert.equal(await page.textContent('#editor-stack'), `${cell}, from the bottom up: first player's guard`);
    await page.click('#editor-palette [data-token="K"]');
    await clickEdit(page, at);
    await editorValid(page, 'no');
    assert.match(await page.textContent('#editor-status'), /does not accept this position: the first player needs exactly one king, not 2/);
    assert.equal(await page.getAttribute(`${at} .stack`, 'data-stack'), '0guard 0king', 'a refused stack is drawn');
    await clickEdit(page, at, { modifiers: ['Alt'] });
    await editorValid(page, 'yes');
    assert.equal(await page.textContent('#editor-stack'), `${cell}, from the bottom up: first player's guard`);
    await assertNoSideways(page, `the King's Guard editor (${name})`);
    await assertAccessible(page, `the King's Guard editor (${name})`);
    await page.screenshot({ path: join(SHOTS, `analysis-editor-${game}-${name}.png`), fullPage: true });
    const position = await page.inputValue('#editor-text');
    await analysed(page);
    assert.equal(await page.getAttribute('#analysis-board', 'data-position'), position);
    assert.deepEqual(page.errors, []);
  });
}

// King of the Valley: kings, tiles by their names on the valley, the hill and a castle
// face up and face down, gold, the phase, removal, the player to act, the keyboard; a
// king placed out of turn is refused in the game's words.
for (const [size, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
  test(`the position editor sets up a King of the Valley table by clicks (${name})`, async () => {
    const page = await newPage(size);
    await opened(page, `${srv.url}/analysis?game=king-of-the-valley`);
    await page.click('#analysis-edit');
    await editorValid(page, 'yes');
    const field = (text, key) => text.split(' ').find((f) => f.startsWith(`${key}=`)).slice(key.length + 1);
    const start = await page.inputValue('#editor-text');
    const first = Number(field(start, 'first')) - 1;
    assert.match(await page.textContent('#editor-palette'), /Queen \(Q\).*Knight of order A \(NA\).*Tax collector: 3 alike, 5 gold \(T3:5\)/);
    // The king of the player who places first, while he is to act: one king too many.
    await page.click(`#editor-palette [data-tool="king:${1 - first}"]`);
    let text = await clickEdit(page, '#editor-board [data-cell="c3"]');
    assert.equal(field(text, 'kings').split(',')[1 - first], 'c3');
    await editorValid(page, 'no');
    assert.match(await page.textContent('#editor-status'), /does not accept this position: 1 kings placed, but 0 should be at this point/);
    assert.ok(await page.$('#editor-board [data-cell="c3"] [data-king]'), 'the refused king is drawn');
    await page.selectOption('#editor-side', String(2 - first));
    await editorValid(page, 'yes');
    // A queen on b2, taken from the piles.
    const queens = (t) => (t.match(/(^|[=,/])(\d*)Q(?=[,+/ ]|$)/g) || []).reduce((n, m) => n + (Number(m.replace(/\D/g, '')) || 1), 0);
    await page.click('#editor-palette [data-tool="tile:Q"]');
    text = await clickEdit(page, '#editor-board [data-cell="b2"]');
    assert.equal(await page.getAttribute('#editor-board [data-cell="b2"]', 'data-tile'), 'Q');
    assert.equal(queens(text), queens(start), 'the queen came out of a pile');
    // A farmer into the first player's castle face up, a wife face down.
    await page.click('#editor-palette [data-tool="tile:F"]');
    text = await clickEdit(page, '#editor-board [data-cell="1F"]');
    assert.equal(field(text, 'up1'), 'F');
    await page.check('#editor-face-down');
    await page.click('#editor-palette [data-tool="tile:W"]');
    text = await clickEdit(page, '#editor-board [data-cell="1W"]');
    assert.equal(field(text, 'down1'), 'W');
    await editorValid(page, 'yes');
    assert.ok(await page.$('#editor-board [data-castle="0"] .kotv-chip.down[data-tile="W"]'), 'the face-down wife is drawn');
    // Gold typed per player.
    const gold = field(text, 'gold').split(',');
    gold[1] = '7';
    await page.fill('#editor-gold [data-seat="1"]', '7');
    text = await edited(page, text);
    assert.equal(field(text, 'gold'), gold.join(','));
    // The other king, which the set-up has not placed yet; then a table in play.
    await page.click(`#editor-palette [data-tool="king:${first}"]`);
    text = await clickEdit(page, '#editor-board [data-cell="e5"]');
    await editorValid(page, 'no');
    assert.match(await page.textContent('#editor-status'), /2 kings placed, but 1 should be at this point/);
    await page.selectOption('#editor-phase', 'summon');
    text = await edited(page, text);
    assert.equal(field(text, 'phase'), 'summon');
    await editorValid(page, 'yes');
    // Removal: the hill's bottom left tile (the column slides down) and the castle's wife.
    const hill = field(text, 'hill');
    await page.click('#editor-palette [data-tool="remove"]');
    text = await clickEdit(page, '#editor-board [data-cell="L1"]');
    assert.equal(field(text, 'hill'), hill.replace(/^[^,/]+,?/, '') || '-');
    text = await clickEdit(page, '#editor-board [data-cell="1W-W"]');
    assert.equal(field(text, 'down1'), '-');
    // The keyboard: the board is one Tab stop; Enter clicks the square it is on.
    await page.focus('#editor-board [tabindex="0"]');
    const before = await page.inputValue('#editor-text');
    await page.click('#editor-palette [data-tool="tile:F"]');
    await page.focus('#editor-board [tabindex="0"]');
    await page.keyboard.press('Enter');
    assert.notEqual(await edited(page, before), before);
    await editorValid(page, 'yes');
    await assertNoSideways(page, `the King of the Valley editor (${name})`);
    await assertAccessible(page, `the King of the Valley editor (${name})`);
    await page.screenshot({ path: join(SHOTS, `analysis-editor-kotv-${name}.png`), fullPage: true });
    await analysed(page);
    assert.deepEqual(page.errors, []);
  });
}
