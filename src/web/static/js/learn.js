// learn.js - learning the games in the app: the rules pages (/learn and /learn/GAME)
// with small live boards drawn by the games' own drawers from POST /api/observe (click a
// piece to see where it may go), in sections that fold under a contents list, the interactive tutorials (find the move), and for the
// game page the button of a special action, in the words its game gives it. The rules
// pages' words are in learn-pages.js.
import * as api from './api.js';
import { drawerFor } from './boards/index.js';
import * as textBoard from './boards/text.js';
import { h } from './dom.js';
import { PAGES, TUTORIALS } from './learn-pages.js';
import { actionWords, gameName } from './words.js';
import { t } from './i18n.js';
import { rulesWords } from './rulestext.js';

export const rulesHref = (game) => (PAGES[game] ? `/learn/${game}` : '/learn');

// --- special actions on the game page ------------------------------------------------------

// The content of an action's button: for a special action (a legal entry or an action
// kind with a label and help, from the game's own record) its label and one line on
// what it does; for a plain move its text.
export function actionLabel(m, game) {
  if (!m.label) return [m.text];
  const said = actionWords(game, m.kind, m.label, m.help);
  return [h('span', { class: 'action-label' }, said.label), h('span', { class: 'action-why' }, said.help)];
}

// --- live boards ---------------------------------------------------------------------------

// A board of `spec` ({position, rules, select, all, only}) that shows the moves of the piece
// clicked (or of spec.select at first); onMove(move) is told of a click on a target.
// `only` keeps the moves of that kind (an army's power, say), so that a board shows what
// the power adds rather than every move.
async function liveBoard(game, spec, onMove) {
  const box = h('div', { class: 'learn-board', 'data-position': spec.position || '' });
  let obs;
  try {
    obs = await api.observe({ game, rules: spec.rules || {}, ...(spec.position ? { position: spec.position } : {}) });
  } catch (e) {
    box.append(h('p', { class: 'message' }, t('learn.bad-board', { error: e.message })));
    return box;
  }
  if (spec.only) obs.legal = obs.legal.filter((m) => m.kind === spec.only);
  const state = { ...obs, you: null, moves: [], seats: [], ai_error: null };
  let selected = spec.select || null;
  const drawer = drawerFor(game);
  function draw() {
    const targets = new Set();
    const movable = new Set();
    for (const m of obs.legal) {
      if (m.cells.length) movable.add(m.cells[0]);
      if (m.cells.length >= 2 && m.cells[0] === selected) targets.add(m.cells.at(-1));
      if (spec.all && m.cells.length === 1) targets.add(m.cells[0]);
    }
    const marks = { values: new Map(), selected, targets, movable, last: new Set(), hint: new Set() };
    let pic;
    try {
      pic = drawer && obs.observation ? drawer.draw(state, marks) : textBoard.draw(state);
    } catch (e) {
      pic = textBoard.draw(state);
    }
    box.replaceChildren(pic);
    box.dataset.selected = selected || '';
    box.dataset.targets = [...targets].sort().join(' ');
  }
  box.addEventListener('click', (e) => {
    const c = e.target.closest('[data-cell]');
    if (!c) return;
    const cell = c.getAttribute('data-cell');
    const move = obs.legal.find((m) => m.cells.length >= 2 && m.cells[0] === selected && m.cells.at(-1) === cell);
    if (move && onMove) { onMove(move, selected, cell); return; }
    if (onMove && selected && !move && !obs.legal.some((m) => m.cells[0] === cell)) { onMove(null, selected, cell); return; }
    selected = obs.legal.some((m) => m.cells.length >= 2 && m.cells[0] === cell) ? cell : null;
    draw();
  });
  draw();
  return box;
}

// --- the pages -----------------------------------------------------------------------------

function index(root, say) {
  root.replaceChildren(h('section', { class: 'learn' },
    h('h1', {}, t('learn.title')),
    h('p', {}, t('learn.intro')),
    h('ul', { class: 'learn-index' }, ...Object.entries(PAGES).map(([name, page]) =>
      h('li', {}, h('a', { href: `/learn/${name}` }, gameName(name)), ' ', h('span', { class: 'summary' }, say(page.intro))))),
    h('p', {}, h('a', { href: '/' }, t('chrome.start-new')))));
}

async function tutorial(game, say) {
  const steps = TUTORIALS[game];
  const box = h('section', { class: 'tutorial', id: 'tutorial', 'aria-labelledby': 'tutorial-title' },
    h('h2', { id: 'tutorial-title' }, t('learn.try')));
  const prompt = h('p', { class: 'tutorial-prompt', id: 'tutorial-prompt' });
  const feedback = h('p', { class: 'tutorial-feedback', id: 'tutorial-feedback', role: 'status' });
  const next = h('button', { type: 'button', id: 'tutorial-next', hidden: true }, t('learn.next'));
  const slot = h('div', { class: 'tutorial-board' });
  box.append(prompt, slot, feedback, next);
  let at = 0;
  async function show() {
    const step = steps[at];
    const mine = at;
    // The step's words change with its board, once the board is drawn: a click on the
    // old board while the new one loads is never judged against the new step.
    const board = await liveBoard(game, { position: step.position, rules: step.rules }, (move, from, to) => {
      if (!next.hidden || at !== mine) return;
      const right = move && from === step.from && (!step.to || to === step.to);
      if (right) {
        feedback.textContent = t('learn.right', { why: say(step.right) });
        feedback.className = 'tutorial-feedback right';
        next.hidden = false;
        next.textContent = t(at + 1 < steps.length ? 'learn.next' : 'learn.again');
      } else {
        feedback.textContent = move ? t('learn.legal-not-it', { move: move.text }) : t('learn.cannot');
        feedback.className = 'tutorial-feedback wrong';
      }
    });
    if (at !== mine) return; // "Next" was clicked again meanwhile: that step shows
    box.dataset.step = String(at);
    prompt.textContent = t('learn.step', { at: at + 1, n: steps.length, prompt: say(step.prompt) });
    feedback.textContent = t('learn.click');
    feedback.className = 'tutorial-feedback';
    next.hidden = true;
    slot.replaceChildren(board);
  }
  next.addEventListener('click', () => { at = (at + 1) % steps.length; show(); });
  await show();
  return box;
}

export async function showLearn(root, game) {
  const page = PAGES[game];
  const say = await rulesWords();
  if (!page) { index(root, say); return; }
  const title = gameName(game);
  document.title = t('learn.doc-title', { game: title });
  const toc = h('nav', { class: 'learn-nav', 'aria-label': t('learn.games') },
    ...Object.entries(PAGES).map(([name, p]) => h('a', { href: `/learn/${name}`, 'aria-current': name === game ? 'page' : null }, gameName(name))));
  const article = h('article', { class: 'learn', id: 'learn', 'data-game': game },
    h('h1', {}, t('learn.how', { game: title })),
    h('p', { class: 'summary' }, say(page.intro)),
    h('p', {}, h('a', { class: 'button-link', id: 'learn-play', href: `/?game=${game}` }, t('learn.play', { game: title }))));
  // Each section folds (a phone shows the first open and the rest by their headings,
  // as a long rules page on lichess does), and a contents list leads to any of them;
  // a wide screen opens them all.
  const wide = window.matchMedia('(min-width: 821px)').matches;
  const list = h('ol', {});
  const contents = h('nav', { class: 'learn-contents', id: 'learn-contents', 'aria-label': t('learn.contents-label') },
    h('p', { class: 'learn-contents-title' }, t('learn.contents')), list);
  article.append(contents);
  root.replaceChildren(h('div', { class: 'learn-page' }, toc, article));
  let parent = list;
  for (const [i, s] of page.sections.entries()) {
    const id = `rules-${s.h.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
    const sec = h('details', { class: s.army ? 'learn-section learn-army' : 'learn-section', id, open: wide || i === 0 },
      h('summary', {}, h(s.army ? 'h3' : 'h2', {}, say(s.h))), ...s.p.map((text) => h('p', {}, say(text))));
    article.append(sec);
    // A link opens its section before the browser scrolls to it.
    const item = h('li', {}, h('a', { href: `#${id}`, onclick: () => { sec.open = true; } }, say(s.h)));
    if (s.army) {
      if (parent === list) parent = list.lastElementChild.appendChild(h('ol', {}));
      parent.append(item);
    } else {
      parent = list;
      list.append(item);
    }
    for (const b of s.boards || []) {
      const fig = h('figure', { class: 'learn-figure' });
      sec.append(fig);
      fig.append(await liveBoard(b.game || game, b), h('figcaption', {}, say(b.caption)));
    }
  }
  if (TUTORIALS[game]) {
    list.append(h('li', {}, h('a', { href: '#tutorial' }, t('learn.try'))));
    article.append(await tutorial(game, say));
  }
  root.dataset.ready = 'learn';
}
