// puzzles.js - the puzzles at /puzzles (the games), /puzzles/GAME (the next puzzle at
// the player's level) and /puzzles/GAME/ID (one puzzle, the link to share), and the
// puzzle of the day on the home page. The sets ship with the server
// (/data/puzzles/GAME.jsonl, made by tools/make-puzzles.sh, docs/PUZZLES.md); the
// server reads each position (POST /api/observe) and the board is the game pages' own
// drawer. "Find the move": a right move is played and the opponent's reply follows by
// itself; a wrong one is said and taken back; a hint marks the piece to move; the
// solution plays the line. The player's rating per game (glicko.js), streaks and the
// puzzles done stay in this browser; a signed-in player's tries are also rated on the
// server (POST /api/puzzles/GAME/ID/result).
import * as api from './api.js';
import { clickToMove } from './boardclick.js';
import { drawerFor } from './boards/index.js';
import * as textBoard from './boards/text.js';
import { h } from './dom.js';
import { FRESH, rate } from './glicko.js';
import { hasMessage, t } from './i18n.js';
import { gameName, seatName } from './words.js';

// The games with puzzle sets, solved ones first.
export const PUZZLE_GAMES = ['kings-valley', 'retrieve-the-king', 'kings-valley-7x7', 'kings-valley-labyrinth',
  'kings-guard', 'kings-guard-8x8', 'kings-castle', 'king-down'];

// A theme in players' words (play/puzzle.c names them; puzzle.theme.NAME); a theme
// the catalogue does not know yet, by its name.
const themeWords = (name) => (hasMessage(`puzzle.theme.${name}`) ? t(`puzzle.theme.${name}`) : name);

const STORE = 'crown-puzzles';
const sets = new Map();

// A game's set, read once: null when the server ships none.
export function loadSet(game) {
  if (!sets.has(game)) {
    sets.set(game, fetch(`/data/puzzles/${encodeURIComponent(game)}.jsonl`).then(async (r) => {
      if (!r.ok) return null;
      return (await r.text()).split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    }).catch(() => null));
  }
  return sets.get(game);
}

function stored() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
}

// This browser's record for a game: rating, streak, best streak and the puzzles done.
export function record(game) {
  const all = stored();
  return { ...FRESH, streak: 0, best: 0, done: {}, ...(all[game] || {}) };
}

function save(game, rec) {
  const all = stored();
  all[game] = rec;
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { /* private mode: this visit only */ }
}

export const puzzleHref = (p) => `/puzzles/${p.game}/${p.id}`;

// The puzzle of the day: the same for everyone on a day, a game after another.
export async function dailyPuzzle(now = Date.now()) {
  const day = Math.floor(now / 86400000);
  for (let k = 0; k < PUZZLE_GAMES.length; k++) {
    const set = await loadSet(PUZZLE_GAMES[(day + k) % PUZZLE_GAMES.length]);
    if (set && set.length) return set[(day * 7919) % set.length];
  }
  return null;
}

// The home page's box: the day's puzzle and a link to it; nothing when no set ships.
export function dailyBox() {
  const box = h('section', { class: 'daily-puzzle', id: 'daily-puzzle', hidden: true, 'aria-labelledby': 'daily-title' });
  dailyPuzzle().then((p) => {
    if (!p) return;
    box.replaceChildren(h('h2', { id: 'daily-title' }, t('puzzle.daily')),
      h('p', {}, `${t('puzzle.daily-text', { game: gameName(p.game), rating: p.rating })} `,
        h('a', { href: puzzleHref(p), id: 'daily-link' }, t('puzzle.solve-it')), ' · ', h('a', { href: '/puzzles' }, t('puzzle.more'))));
    box.hidden = false;
  });
  return box;
}

function showIndex(root) {
  document.title = t('puzzle.index-doc-title');
  root.replaceChildren(h('section', { class: 'puzzles-index' },
    h('h1', {}, t('chrome.puzzles')),
    h('p', {}, t('puzzle.intro')),
    h('ul', { class: 'puzzle-games' }, PUZZLE_GAMES.map((g) => {
      const rec = record(g);
      return h('li', {}, h('a', { href: `/puzzles/${g}` }, gameName(g)),
        h('span', { class: 'meta' }, ` ${rec.streak ? t('puzzle.your-rating-streak', { rating: Math.round(rec.r), streak: rec.streak })
          : t('puzzle.your-rating', { rating: Math.round(rec.r) })}`));
    }))));
  root.dataset.ready = 'puzzles';
}

// The next puzzle for a player rated r: one not done yet, among the ten nearest to r.
function pick(set, rec) {
  const fresh = set.filter((p) => !(p.id in rec.done));
  const pool = (fresh.length ? fresh : set).slice().sort((a, b) => Math.abs(a.rating - rec.r) - Math.abs(b.rating - rec.r)).slice(0, 10);
  return pool[Math.floor(Math.random() * pool.length)];
}

export async function showPuzzles(root, game, id) {
  if (!game) { showIndex(root); return; }
  document.title = t('puzzle.doc-title', { game: gameName(game) });
  const set = await loadSet(game);
  if (!set || !set.length) {
    root.replaceChildren(h('p', { class: 'message', role: 'alert', id: 'puzzle-message' }, `${t('puzzle.none', { game: gameName(game) })} `),
      h('a', { href: '/puzzles' }, t('puzzle.all')));
    root.dataset.ready = 'puzzle';
    return;
  }
  let rec = record(game);
  const p = id ? set.find((q) => q.id === id) : pick(set, rec);
  if (!p) {
    root.replaceChildren(h('p', { class: 'message', role: 'alert', id: 'puzzle-message' }, `${t('puzzle.no-such')} `),
      h('a', { href: `/puzzles/${game}` }, t('puzzle.another', { game: gameName(game) })));
    root.dataset.ready = 'puzzle';
    return;
  }
  if (!id) history.replaceState(null, '', puzzleHref(p));
  const spec = { game, position: p.position, rules: p.rules || {} };
  // step: the plies of the solution on the board; result: null while unsettled, else
  // the score the rating took (1 solved, 0.5 with a hint, 0 missed).
  const ui = { step: 0, selected: null, hint: false, result: null, obs: new Map(), solver: null, busy: false };

  const board = h('div', { id: 'puzzle-board', class: 'board-box' });
  const chooser = h('div', { class: 'chooser', hidden: true });
  const actions = h('div', { id: 'puzzle-actions', class: 'actions' });
  const prompt = h('p', { id: 'puzzle-prompt', class: 'puzzle-prompt', 'aria-live': 'polite' });
  const message = h('p', { id: 'puzzle-message', class: 'message', role: 'status' });
  const mine = h('p', { id: 'puzzle-rating', class: 'puzzle-rating' });
  const onServer = h('p', { id: 'puzzle-server-rating', class: 'puzzle-rating', hidden: true });
  const lineEl = h('p', { id: 'puzzle-line', class: 'puzzle-line' });
  const hintBtn = h('button', { type: 'button', id: 'puzzle-hint' }, t('game.hint'));
  const solBtn = h('button', { type: 'button', id: 'puzzle-solution' }, t('puzzle.show-solution'));
  const nextBtn = h('a', { href: `/puzzles/${game}`, id: 'puzzle-next', class: 'button' }, t('puzzle.next'));
  const link = h('input', { id: 'puzzle-link', class: 'share-url', readonly: true, 'aria-label': t('puzzle.link-label'), value: new URL(puzzleHref(p), location.href).href });
  const themes = (p.themes || []).map(themeWords).join(t('list.sep'));
  const section = h('section', { id: 'puzzle', class: 'game puzzle', 'data-id': p.id },
    h('div', { class: 'board-area' }, board, chooser, actions),
    h('aside', { class: 'panel' },
      h('h1', { class: 'game-title' }, t('puzzle.title', { game: gameName(game) })),
      prompt, message,
      h('p', { class: 'buttons' }, hintBtn, solBtn, nextBtn),
      lineEl,
      h('h2', {}, t('puzzle.this')),
      h('p', { class: 'puzzle-about' }, `${t('puzzle.about', { rating: p.rating, themes })} `,
        t(p.proven ? 'puzzle.proven' : 'puzzle.searched')),
      h('p', { class: 'share-row' }, link),
      h('h2', {}, t('puzzle.you')), mine, onServer,
      h('p', {}, h('a', { href: '/puzzles' }, t('puzzle.all')))));
  root.replaceChildren(section);

  const line = () => p.solution.slice(0, ui.step);
  function obsAt(step) {
    if (!ui.obs.has(step)) ui.obs.set(step, api.observe({ ...spec, moves: p.solution.slice(0, step) }).catch((e) => { ui.obs.delete(step); throw e; }));
    return ui.obs.get(step);
  }

  function showRating() {
    mine.textContent = t('puzzle.rating', { game: gameName(game), rating: Math.round(rec.r), rd: Math.round(rec.rd * 2), streak: rec.streak, best: rec.best });
  }

  // The result counts once per visit of a puzzle: the first that settles it.
  function settle(score) {
    if (ui.result !== null) return;
    ui.result = score;
    const next = rate(rec, p.rating, score);
    const streak = score === 1 ? rec.streak + 1 : 0;
    rec = { ...rec, ...next, streak, best: Math.max(rec.best, streak), done: { ...rec.done, [p.id]: score } };
    save(game, rec);
    showRating();
    tellServer(score);
  }

  // A signed-in player's first try also rates him and the puzzle on the server
  // (docs/PUZZLES.md); a hint's half point is not sent, and without an account the
  // server refuses and the page keeps its own rating only.
  function tellServer(score) {
    if (score === 0.5) return;
    api.puzzleResult(game, p.id, score === 1).then((r) => {
      onServer.textContent = t('puzzle.server-rating', { rating: Math.round(r.rating.rating), rd: Math.round(r.rating.rd * 2) });
      onServer.hidden = false;
    }, () => {});
  }

  async function draw() {
    const obs = await obsAt(ui.step);
    if (ui.solver === null) ui.solver = obs.to_move;
    const m = { selected: ui.selected, targets: new Set(), movable: new Set(), last: new Set(), hint: new Set(), values: new Map() };
    const playing = ui.step < p.plies && obs.to_move === ui.solver;
    for (const mv of obs.legal) {
      if (playing && mv.cells.length) m.movable.add(mv.cells[0]);
      if (ui.selected && mv.cells.length >= 2 && mv.cells[0] === ui.selected) m.targets.add(mv.cells.at(-1));
    }
    if (ui.step > 0) {
      const before = await obsAt(ui.step - 1);
      const last = before.legal.find((x) => x.text === p.solution[ui.step - 1]);
      if (last) for (const c of last.cells) m.last.add(c);
    }
    if (ui.hint && ui.step < p.plies) {
      const want = obs.legal.find((x) => x.text === p.solution[ui.step]);
      if (want && want.cells.length) m.hint.add(want.cells[0]);
    }
    const st = { ...obs, you: ui.solver, moves: [], seats: [], ai_error: null, ply: ui.step };
    const drawer = drawerFor(game);
    let pic;
    try { pic = drawer && obs.observation ? drawer.draw(st, m) : textBoard.draw(st); } catch (e) { pic = textBoard.draw(st); }
    board.replaceChildren(pic);
    // Actions that touch no square (ending a King's Guard turn) are buttons, as on the
    // analysis board.
    actions.replaceChildren(...(playing ? obs.legal.filter((x) => !x.cells.length) : []).map((x) =>
      h('button', { type: 'button', class: 'action', 'data-move': x.text, onclick: () => tryMove(x.text) }, x.text)));
    Object.assign(board.dataset, { step: ui.step, selected: ui.selected ?? '', position: obs.position });
    lineEl.textContent = ui.step ? t('puzzle.played', { line: line().join(' ') }) : '';
    if (ui.step >= p.plies) prompt.textContent = t(ui.result === 1 ? 'puzzle.solved' : 'puzzle.whole-line');
    else prompt.textContent = t('puzzle.find', { seat: seatName(game, ui.solver) });
    root.dataset.ready = 'puzzle';
    section.dataset.state = ui.step >= p.plies ? 'done' : 'play';
  }

  // After a move of the solver's, the opponent's replies of the line play by themselves.
  async function replies() {
    while (ui.step < p.plies) {
      const obs = await obsAt(ui.step);
      if (obs.to_move === ui.solver) break;
      await draw();
      await new Promise((r) => { setTimeout(r, 350); }); // so that the reply is seen
      ui.step++;
    }
    if (ui.step >= p.plies) settle(ui.hint ? 0.5 : 1);
    await draw();
  }

  async function tryMove(text) {
    if (ui.busy || ui.step >= p.plies) return;
    ui.selected = null;
    chooser.hidden = true;
    if (text === p.solution[ui.step]) {
      ui.busy = true;
      message.textContent = ui.step + 1 < p.plies ? t('puzzle.right') : '';
      ui.step++;
      ui.hint = false;
      await replies();
      ui.busy = false;
    } else {
      message.textContent = t('puzzle.wrong', { move: text });
      section.dataset.wrong = text;
      settle(0);
      await draw();
    }
  }

  function choose(options) {
    chooser.replaceChildren(h('span', {}, `${t('game.which')} `),
      ...options.map((m) => h('button', { type: 'button', class: 'choice', 'data-move': m.text, onclick: () => tryMove(m.text) }, m.text)),
      h('button', { type: 'button', class: 'cancel', onclick: () => { chooser.hidden = true; } }, t('game.cancel')));
    chooser.hidden = false;
  }

  board.addEventListener('click', async (e) => {
    const c = e.target.closest('[data-cell]');
    if (!c || ui.busy || ui.step >= p.plies) return;
    const obs = await obsAt(ui.step);
    const r = clickToMove(obs.legal, ui.selected, c.getAttribute('data-cell'));
    if (r.play) { tryMove(r.play.text); return; }
    if (r.choose) { choose(r.choose); return; }
    ui.selected = r.select;
    draw();
  });
  hintBtn.addEventListener('click', () => {
    ui.hint = true;
    message.textContent = t('puzzle.marked');
    draw();
  });
  solBtn.addEventListener('click', async () => {
    if (ui.busy) return;
    ui.busy = true;
    settle(0);
    message.textContent = t('puzzle.solution', { line: p.solution.join(' ') });
    while (ui.step < p.plies) {
      ui.step++;
      await draw();
    }
    ui.busy = false;
  });
  showRating();
  try {
    await draw();
  } catch (e) {
    message.textContent = t('puzzle.broken', { error: e.message });
    root.dataset.ready = 'puzzle';
  }
}
