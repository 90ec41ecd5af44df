// e2e.test.mjs - the web app in headless Chromium (Debian's, driven by playwright-core)
// against a real `crown serve`: for every registered game, start a game against the AI
// from the new-game form, move by clicking the board and see the AI answer (and save a
// screenshot of the board under build/web-screenshots/); a two-seat game between two
// browser contexts, the moves reaching the other screen without reloading; a reload in
// the middle of a game; typed moves, hints, undo, and the thinking indicator.
// Every wait is on a condition of the page, bounded by a timeout; none is a sleep.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { browserSuite, openPage } from './browser.mjs';
import { api } from './server.mjs';
import { parse as parseKotv } from '../../src/web/static/js/boards/kingofthevalley.js';

const SHOTS = process.env.SCREENSHOT_DIR || 'build/web-screenshots';
const WAIT = { timeout: 30000 };

let srv;
let browser;
let games;

browserSuite({
  before, after, shots: SHOTS,
  async ready(s) {
    ({ srv, browser } = s);
    games = (await api(srv, 'GET', '/api/games')).body.games;
  },
});

const newPage = (context) => openPage(context || browser, { width: 1200, height: 900 });

// The game id and seat token of a game page.
function pageGame(page) {
  const u = new URL(page.url());
  return { id: u.pathname.split('/')[2], token: new URLSearchParams(u.hash.slice(1)).get('token') };
}

// Starts a game through the form: seats like ['human', 'ai:1'].
async function startFromForm(page, game, seats, seed) {
  await page.goto(`${srv.url}/`);
  await page.selectOption('#game-select', game);
  for (let i = 0; i < seats.length; i++) {
    const [kind, level] = seats[i].split(':');
    await page.selectOption(`#seat-${i}`, kind === 'human' ? 'human' : 'ai');
    if (level) await page.selectOption(`#level-${i}`, level);
  }
  if (seed !== undefined) {
    await page.click('#advanced summary'); // the seed waits under Advanced
    await page.fill('#seed', String(seed));
  }
  await Promise.all([page.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT), page.click('#start')]);
  await page.waitForSelector('#board svg, #board pre', WAIT);
}

const boardData = (page) => page.$eval('#board', (b) => ({ ...b.dataset }));

// page.waitForFunction, but a timeout says what the page showed then, to find out why.
async function until(page, fn, arg, what) {
  try {
    await page.waitForFunction(fn, arg, WAIT);
  } catch (e) {
    const seen = await page.evaluate(() => ({
      board: { ...(document.querySelector('#board') || {}).dataset },
      status: document.querySelector('#status')?.textContent,
      message: document.querySelector('#message')?.textContent,
      moves: [...document.querySelectorAll('#moves li')].map((li) => li.textContent),
    })).catch(() => 'the page is gone');
    throw new Error(`${what}: ${e.message.split('\n')[0]}; the page showed ${JSON.stringify(seen)}`);
  }
}

// Plays one action by clicking: its first cell, then its last (answering the chooser
// if several moves share those cells), or its button for actions on no cell. `game` is
// the game's name when known: a King's Guard pick-up is part of a turn put together.
async function clickMove(page, move, game = '') {
  const cell = (c) => page.locator(`#board [data-cell="${c}"]`);
  const plyBefore = Number((await boardData(page)).ply);
  // A game without a board drawer shows its moves as buttons.
  const drawn = (await page.locator('#board [data-cell]').count()) > 0;
  if (move.cells.length === 0 || !drawn) {
    await page.click(`#actions button[data-move="${move.text}"]`);
  } else {
    await cell(move.cells[0]).click();
    if (move.cells.length === 1 && game.startsWith('kings-guard')) {
      return composeTurn(page, plyBefore);
    }
    if (move.cells.length > 1) {
      await page.waitForSelector(`#board [data-cell="${move.cells.at(-1)}"].target`, WAIT);
      await cell(move.cells.at(-1)).click();
    }
  }
  const choice = page.locator(`#chooser:not([hidden]) button[data-move="${move.text}"]`);
  // Either the move is played or the chooser asks which one.
  await until(page, ([p]) => {
    const b = document.querySelector('#board');
    return Number(b.dataset.ply) > p || !document.querySelector('#chooser').hidden;
  }, [plyBefore], `playing ${move.text}`);
  if (await choice.count()) await choice.click();
  await until(page, ([p]) => Number(document.querySelector('#board').dataset.ply) > p, [plyBefore], `playing ${move.text}`);
}

// King's Guard puts a turn together on the page (fixes.test.mjs): after the pick-up the
// top piece goes to its first target, until the turn ends by itself or Done sends it.
async function composeTurn(page, plyBefore) {
  let steps = 0;
  for (;;) {
    const seen = await (await page.waitForFunction(([p, n]) => {
      const b = document.querySelector('#board');
      if (Number(b.dataset.ply) > p) return 'played';
      return Number(b.dataset.compose || 0) > n ? b.dataset.compose : null;
    }, [plyBefore, steps], WAIT)).jsonValue();
    if (seen === 'played') return;
    steps = Number(seen);
    if (steps >= 2 && await page.locator('#compose-done:not([hidden])').count()) {
      await page.click('#compose-done');
      steps = 1e9;
    } else {
      await page.locator('#board .cell.target').first().click();
    }
  }
}

// The move to click in a state: one that moves a piece if there is one.
function pickMove(state) {
  return state.legal.find((m) => m.cells.length >= 2) || state.legal.find((m) => m.cells.length === 1) || state.legal[0];
}

// Plays the seat's whole turn by clicking; returns the number of actions played. The
// turn is over when another seat acts or is to act (a quick AI may have answered
// already: that is the next turn, not this one).
async function playTurnByClicking(page) {
  const { id, token } = pageGame(page);
  let n = 0;
  let start = null;
  for (;;) {
    const st = (await api(srv, 'GET', `/api/games/${id}`, { token })).body;
    if (start === null) start = st.ply;
    const passed = st.moves.slice(start).some((m) => m.seat !== st.you);
    if (st.status !== 'playing' || st.to_move !== st.you || passed) return n;
    await clickMove(page, pickMove(st), st.game);
    n++;
    assert.ok(n < 40, 'a turn should end');
  }
}

test('every game: start against the AI from the form, move by clicking, the AI answers', async () => {
  // One page for every game: each starts from the form anew (a page costs a renderer).
  const page = await newPage();
  for (const g of games) {
    page.errors.length = 0;
    const seats = ['human', ...Array.from({ length: g.min_players - 1 }, () => 'ai:1')];
    await startFromForm(page, g.name, seats, 11);
    // Every game has a drawer now: a board that fails to draw falls back to text.
    assert.equal(await page.locator('#board svg').count(), 1, `${g.name} is drawn`);
    const played = await playTurnByClicking(page);
    assert.ok(played >= 1, g.name);
    // The AI's actions appear in the move list by themselves, then it is our turn again.
    await until(page, () => {
      const b = document.querySelector('#board').dataset;
      return document.querySelector('#moves li.p1') && (b.status === 'over' || (b.toMove === b.you && b.thinking === ''));
    }, null, `${g.name}: the AI's answer`);
    const texts = await page.$$eval('#moves li', (li) => li.map((x) => x.textContent));
    assert.ok(texts.length >= played + 1, `${g.name}: ${texts}`);
    await page.locator('#board').screenshot({ path: join(SHOTS, `${g.name}.png`) });
    assert.deepEqual(page.errors, [], g.name);
  }
  await page.close();
});

// King of the Valley by clicking: the king placed on a valley square, summon legs from
// the king's square to where he stops, the hill column to refill from, and a recruit
// on the hill (or the pass button); buttons for the rest (jesters, swaps, taxes,
// kingdom). Each action is checked on the drawing as well as in the move list.
test('King of the Valley: king placement and summons by clicking, phases by buttons and the hill, the AI answers', async () => {
  const page = await newPage();
  await startFromForm(page, 'king-of-the-valley', ['human', 'ai:1'], 3);
  await page.waitForSelector('#board svg.kotv', WAIT);
  assert.equal(await page.locator('#board [data-cell]').count(), 25);
  assert.equal(await page.locator('#board [data-slot]').count(), 12);
  assert.equal(await page.locator('#board [data-castle]').count(), 2);
  const { id, token } = pageGame(page);
  const state = async () => (await api(srv, 'GET', `/api/games/${id}`, { token })).body;
  const ourTurn = () => until(page, () => {
    const b = document.querySelector('#board').dataset;
    return b.status === 'over' || (b.toMove === b.you && b.thinking === '');
  }, null, 'our turn');
  const chipCount = () => page.$$eval('#board [data-castle="0"] .kotv-chip', (cs) => cs.reduce((a, c) => a + Number(c.dataset.count), 0));

  // Plays one action that touches no cell: on the board where it is offered, else its
  // button.
  async function clickOffer(text) {
    const plyBefore = Number((await boardData(page)).ply);
    const onBoard = page.locator(`#board [data-moves="${text}"]`);
    const button = page.locator(`#actions button[data-move="${text}"]`);
    if (await onBoard.count()) await onBoard.first().click();
    else if (await button.count()) await button.click();
    else {
      // Offered on the board among others (a hill slot's wizard swaps): the chooser asks.
      const at = await page.$$eval('#board [data-moves]', (es, t) => es.findIndex((e) => e.getAttribute('data-moves').split('|').includes(t)), text);
      await page.locator('#board [data-moves]').nth(at).click();
      await page.click(`#chooser:not([hidden]) button[data-move="${text}"]`);
    }
    await until(page, ([p]) => Number(document.querySelector('#board').dataset.ply) > p, [plyBefore], `playing ${text}`);
  }

  const seen = { place: 0, leg: 0, refillOnBoard: 0, recruitOrPass: 0, others: 0 };
  for (let turn = 0; turn < 4 && seen.leg < 2; turn++) {
    await ourTurn();
    let st = await state();
    if (st.status !== 'playing') break;
    const startPly = st.ply;
    // Our whole turn, action by action, until another seat acts.
    while (st.status === 'playing' && st.to_move === 0 && !st.moves.slice(startPly).some((m) => m.seat !== 0)) {
      const model = parseKotv(st);
      if (model.phase === 'place') {
        const m = st.legal[0];
        await clickMove(page, m);
        await page.waitForSelector(`#board [data-cell="${m.cells[0]}"] [data-king="0"]`, WAIT);
        seen.place++;
      } else if (model.phase === 'summon') {
        // A leg that takes one subject when there is one: the king's square, then where
        // he stops.
        const legs = st.legal.filter((m) => m.cells.length >= 2);
        const subject = legs.find((m) => !m.text.includes(':') && /^[QDCNFW]/.test(model.valley.get(m.cells.at(-1)).code || ''));
        const m = subject || legs[0];
        const chipsBefore = await chipCount();
        await clickMove(page, m);
        await page.waitForSelector(`#board [data-cell="${m.cells.at(-1)}"] [data-king="0"]`, WAIT);
        if (subject) assert.ok(await chipCount() > chipsBefore, `${m.text} puts a subject in the castle`);
        seen.leg++;
      } else if (model.phase === 'refill') {
        const m = st.legal[0];
        assert.equal(await page.locator(`#board [data-hill-column][data-moves="${m.text}"]`).count(), 1, m.text);
        await clickOffer(m.text);
        seen.refillOnBoard++;
      } else if (model.phase === 'recruit') {
        const recruit = st.legal.find((m) => m.text.startsWith('recruit '));
        if (recruit) {
          const slot = recruit.text.split(' ')[1];
          assert.equal(await page.locator(`#board [data-slot="${slot}"][data-moves="${recruit.text}"]`).count(), 1, recruit.text);
        }
        await clickOffer(recruit ? recruit.text : 'pass');
        seen.recruitOrPass++;
      } else {
        // Jesters, wizard swaps, taxes, the kingdom bonus: the first one offered.
        await clickOffer(st.legal[0].text);
        seen.others++;
      }
      st = await state();
    }
  }
  assert.equal(seen.place, 1);
  assert.ok(seen.leg >= 2, JSON.stringify(seen));
  assert.ok(seen.refillOnBoard >= 2, JSON.stringify(seen));
  assert.ok(seen.recruitOrPass >= 1, JSON.stringify(seen));
  await ourTurn();
  const texts = await page.$$eval('#moves li', (li) => li.map((x) => x.textContent));
  assert.ok(texts.some((t) => /^first\s+place [a-e][1-5]\b/.test(t)), texts.join(' | '));
  // Every action is public in this game: the AI's moves and the draws are listed.
  assert.ok(texts.some((t) => /^second\s+place [a-e][1-5]\b/.test(t)), 'the AI played: ' + texts.join(' | '));
  assert.ok(texts.some((t) => /^chance\s+draw \S+$/.test(t)), 'chance refilled the hill: ' + texts.join(' | '));
  await page.locator('#board').screenshot({ path: join(SHOTS, 'king-of-the-valley-turns.png') });
  // A spectator sees the same table (without anything to click).
  const watcher = await newPage();
  await watcher.goto(`${srv.url}/g/${id}`);
  await watcher.waitForSelector('#board svg.kotv', WAIT);
  assert.equal(await watcher.locator('#board .offer').count(), 0);
  assert.equal(await watcher.locator('#board [data-cell]').count(), 25);
  assert.deepEqual(watcher.errors, []);
  await watcher.close();
  assert.deepEqual(page.errors, []);
  await page.close();
});

// Which face-up tiles a tax turns down is the player's choice (R-KOTV-13),
// made by clicking them in the castle: a knight C, then a knight A; the second click
// leaves one action that turns both down, and plays it.
test('King of the Valley: the tiles a tax turns face down are chosen by clicking them', async () => {
  const position = 'players=2 first=1 turn=1 turns=2 phase=kingdom end=0 '
    + 'valley=-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/W,W,W,W,W/F,T0:3,-,T4:7,W kings=c1,e5 '
    + 'hill=C,C,C,C,C,C/D,D,D,D,D,D pile1=- pile2=- pile3=- gold=0,2 crowns=0,0 taxed=W,- '
    + 'up1=NA,2NB,NC,2W down1=- up2=- down2=- holes=c1 pending=T3:5';
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'king-of-the-valley', seats: ['human', 'human'], position } })).body;
  const page = await newPage();
  await page.goto(srv.url + made.seats[0].url);
  await page.waitForSelector('#board svg.kotv', WAIT);
  const castle = '#board [data-castle="0"]';
  // Only the knights may be picked; the column also offers the three choices at once.
  assert.deepEqual(await page.$$eval(`${castle} .kotv-pick`, (cs) => cs.map((c) => c.dataset.tile)), ['NA', 'NB', 'NC']);
  assert.equal(await page.getAttribute(`${castle} [data-column="N"]`, 'data-moves'), 'tax N:NA,NB,NB|tax N:NA,NB,NC|tax N:NB,NB,NC');
  await page.click(`${castle} .kotv-pick[data-tile="NC"]`);
  await page.waitForSelector(`${castle} .kotv-pick[data-tile="NC"][data-picked="1"]`, WAIT);
  assert.equal((await boardData(page)).ply, '0');
  await page.click(`${castle} .kotv-pick[data-tile="NA"]`);
  await until(page, () => Number(document.querySelector('#board').dataset.ply) > 0, null, 'the tax played');
  const st = (await api(srv, 'GET', `/api/games/${made.id}`, { token: made.seats[0].token })).body;
  assert.equal(st.moves[0].text, 'tax N:NA,NB,NC');
  // The drawing reads the structured observation alone: no view text, no position.
  const model = parseKotv({ observation: st.observation });
  assert.deepEqual(model.players[0].up, [{ code: 'NB', n: 1 }, { code: 'W', n: 2 }]);
  assert.deepEqual(model.prices, [2, 3, 4, 6, 8, 10]);
  assert.equal(model.players[0].taxed, 'NW');
  assert.deepEqual(model.tokensLeft, [6, 4]);
  assert.deepEqual(model.players[0].down, [{ code: 'NA', n: 1 }, { code: 'NB', n: 1 }, { code: 'NC', n: 1 }]);
  assert.deepEqual(page.errors, []);
  await page.close();
});

// A kingdom names a tile only where a column offers a choice: here the countesses'
// column (a countess and a jester) and the knights' (orders A and D).
test('King of the Valley: the tiles a kingdom turns face down are chosen by clicking them', async () => {
  const position = 'players=2 first=1 turn=1 turns=2 phase=kingdom end=0 '
    + 'valley=-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/W,W,W,W,W/F,T0:3,-,T4:7,W kings=c1,e5 '
    + 'hill=C,C,C,C,C,C/F,F,F,F,F,F pile1=- pile2=- pile3=- gold=0,2 crowns=0,0 taxed=-,- '
    + 'up1=Q,D,C,NA,ND,F,JC down1=- up2=- down2=- holes=c1 pending=-';
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'king-of-the-valley', seats: ['human', 'human'], position } })).body;
  const page = await newPage();
  await page.goto(srv.url + made.seats[0].url);
  await page.waitForSelector('#board svg.kotv', WAIT);
  const castle = '#board [data-castle="0"]';
  await page.click(`${castle} .kotv-pick[data-tile="JC"]`);
  await page.waitForSelector(`${castle} .kotv-pick[data-tile="JC"][data-picked="1"]`, WAIT);
  await page.click(`${castle} .kotv-pick[data-tile="ND"]`);
  await until(page, () => Number(document.querySelector('#board').dataset.ply) > 0, null, 'the kingdom played');
  const st = (await api(srv, 'GET', `/api/games/${made.id}`, { token: made.seats[0].token })).body;
  assert.equal(st.moves[0].text, 'kingdom F:JC,ND');
  const model = parseKotv({ observation: st.observation });
  assert.deepEqual(model.players[0].up, [{ code: 'C', n: 1 }, { code: 'NA', n: 1 }]);
  assert.equal(model.players[0].crowns, 1);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('two players in two browser contexts see each other\'s moves without reloading', async () => {
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  try {
    const a = await newPage(ctxA);
    await startFromForm(a, 'kings-valley', ['human', 'human']);
    // The creator's page offers the second seat's secret link.
    const invite = await a.inputValue('#share-seat-1');
    assert.match(invite, /\/g\/[0-9a-f]{24}#token=[0-9a-f]{32}$/);
    const b = await newPage(ctxB);
    await b.goto(invite);
    await b.waitForSelector('#board svg', WAIT);
    assert.equal((await boardData(b)).you, '1');
    // Not B's turn: B's board offers nothing to click.
    assert.equal(await b.locator('#board .cell.movable').count(), 0);

    await playTurnByClicking(a);
    await until(b, () => document.querySelectorAll('#moves li').length === 1, null, 'the first move on the second screen');
    assert.equal((await boardData(b)).toMove, '1');
    await playTurnByClicking(b);
    await until(a, () => document.querySelectorAll('#moves li').length === 2, null, 'the second move on the first screen');
    const listA = await a.$$eval('#moves li', (li) => li.map((x) => x.textContent));
    const listB = await b.$$eval('#moves li', (li) => li.map((x) => x.textContent));
    assert.deepEqual(listA, listB);
    await a.locator('#board').screenshot({ path: join(SHOTS, 'two-players-first-seat.png') });
    await b.locator('#board').screenshot({ path: join(SHOTS, 'two-players-second-seat.png') });
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});

test('rule options by kind: King Down\'s set-up is typed, a tiles file is read-only', async () => {
  const page = await newPage();
  await page.goto(`${srv.url}/`);
  await page.selectOption('#game-select', 'king-of-the-valley');
  assert.equal(await page.$eval('#rule-tiles', (i) => i.readOnly), true);
  await page.selectOption('#game-select', 'king-down');
  assert.equal(await page.$eval('#rule-setup', (i) => i.readOnly), false);
  const offered = await page.$eval('#rule-setup', (i) => [...i.list.options].map((o) => o.value));
  assert.deepEqual(offered, ['random', 'classic']);
  await page.fill('#rule-setup', 'classic');
  await page.selectOption('#seat-0', 'human');
  await page.selectOption('#seat-1', 'human');
  await Promise.all([page.waitForURL(/\/g\/[0-9a-f]{24}#token=/, WAIT), page.click('#start')]);
  const { id } = pageGame(page);
  const st = (await api(srv, 'GET', `/api/games/${id}`)).body;
  assert.equal(st.rules.setup, 'classic');
  assert.match(st.position, /^rnbqkbnr\//);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a reload in the middle of a game finds it intact', async () => {
  const page = await newPage();
  await startFromForm(page, 'kings-valley-7x7', ['human', 'ai:1'], 5);
  await playTurnByClicking(page);
  await until(page, () => document.querySelectorAll('#moves li.p1').length === 1, null, 'the AI\'s first answer');
  await playTurnByClicking(page);
  await until(page, () => document.querySelectorAll('#moves li.p1').length === 2, null, 'the AI\'s second answer');
  const before = { data: await boardData(page), moves: await page.$$eval('#moves li', (li) => li.map((x) => x.textContent)) };
  const svgBefore = await page.$eval('#board svg', (s) => s.outerHTML);
  await page.reload();
  await page.waitForSelector('#board svg', WAIT);
  await page.waitForFunction(([p]) => document.querySelector('#board').dataset.ply === p, [before.data.ply], WAIT);
  const movesAfter = await page.$$eval('#moves li', (li) => li.map((x) => x.textContent));
  assert.deepEqual(movesAfter, before.moves);
  assert.equal((await boardData(page)).you, '0');
  assert.equal(await page.$eval('#board svg', (s) => s.outerHTML), svgBefore);
  // And the game goes on.
  await playTurnByClicking(page);
  await until(page, () => document.querySelectorAll('#moves li.p1').length === 3, null, 'the AI\'s third answer');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('typed moves, their errors, a hint and undo against the AI', async () => {
  const page = await newPage();
  await startFromForm(page, 'kings-valley', ['human', 'ai:1']);
  await page.fill('#move-input', 'c1-c4');
  await page.click('#type-move button');
  await page.waitForFunction(() => /soldier/.test(document.querySelector('#message').textContent), null, WAIT);
  assert.equal((await boardData(page)).ply, '0');
  await page.fill('#move-input', 'b1-b4');
  await page.click('#type-move button');
  await page.waitForSelector('#moves li.p1', WAIT);
  await page.waitForFunction(() => document.querySelector('#board').dataset.toMove === '0', null, WAIT);
  await page.click('#hint');
  await page.waitForFunction(() => /^Hint: /.test(document.querySelector('#message').textContent), null, WAIT);
  assert.ok(await page.locator('#board .cell.hint').count() >= 1);
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelector('#board').dataset.ply === '0', null, WAIT);
  assert.equal(await page.locator('#moves li').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the result shows when the game ends', async () => {
  const made = (await api(srv, 'POST', '/api/games', { body: { game: 'kings-valley', seats: ['human', 'ai:1'], position: 'ss1ss/2k2/5/5/SSKSS 1 2' } })).body;
  const page = await newPage();
  await page.goto(srv.url + made.seats[0].url);
  await page.waitForSelector('#board svg', WAIT);
  await clickMove(page, { text: 'c1-c3', cells: ['c1', 'c3'] });
  await page.waitForSelector('#result:not([hidden])', WAIT);
  assert.match(await page.textContent('#result'), /^You won: your king reached the Valley$/);
  assert.equal(await page.textContent('#status'), 'Game over');
  assert.equal(await page.locator('#board .cell.movable').count(), 0);
  await page.locator('#board').screenshot({ path: join(SHOTS, 'kings-valley-won.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the AI\'s thinking shows while it searches', async () => {
  const page = await newPage();
  // Level 10 thinks its whole five seconds (the lower levels stop at a node count, a few
  // milliseconds on an idle machine, too soon to be seen).
  // Its first search may be over before a loaded machine has drawn the page and opened
  // its stream (a CI run missed it so), so the indicator is watched on its second, which
  // begins with the page live: after our first move.
  await startFromForm(page, 'kings-castle', ['ai:10', 'human']);
  await page.waitForSelector('#moves li.p0', WAIT);
  await until(page, () => document.querySelector('#board').dataset.toMove === '1', null, 'our turn');
  assert.ok(await playTurnByClicking(page) >= 1);
  await page.waitForSelector('#thinking:not([hidden])', WAIT);
  assert.match(await page.textContent('#thinking'), /thinking/);
  await page.waitForFunction(() => document.querySelectorAll('#moves li.p0').length === 2, null, WAIT);
  await page.waitForFunction(() => document.querySelector('#thinking').hidden, null, WAIT);
  assert.equal((await boardData(page)).toMove, '1');
  await page.locator('#board').screenshot({ path: join(SHOTS, 'kings-castle-second-seat.png') });
  assert.deepEqual(page.errors, []);
  await page.close();
});
