// learn.js - learning the games in the app: the rules pages (/learn and /learn/GAME)
// with small live boards drawn by the games' own drawers from POST /api/observe (click a
// piece to see where it may go), the interactive tutorials (find the move), and for the
// game page a label and a one-line explanation of every special action. The words are
// in learn-pages.js.
import * as api from './api.js';
import { drawerFor } from './boards/index.js';
import * as textBoard from './boards/text.js';
import { h } from './dom.js';
import { PAGES, TUTORIALS } from './learn-pages.js';
import { gameName } from './words.js';

export const rulesHref = (game) => (PAGES[game] ? `/learn/${game}` : '/learn');

// --- special actions on the game page ------------------------------------------------------

const KD_ACTIONS = {
  frost: ['Frost', 'choose the king of Frost: its powers are Freeze and Ice Wall'],
  flame: ['Flame', 'choose the king of Flame: its powers are Strike and Haste'],
  stratus: ['Stratus', 'choose the king of Stratus: its powers are Flight and Sacrifice'],
  mud: ['Mud', 'choose the king of Mud: its powers are March and Leap'],
  spirit: ['Spirit', 'choose the king of Spirit: its powers are Holy Light and Mercy'],
  shadow: ['Shadow', 'choose the king of Shadow: its powers are Death Touch and Darkness'],
  freeze: ['Freeze', 'power: an enemy piece you pick may not move in your opponent\'s next turn'],
  'ice-wall': ['Ice Wall', 'power: a piece of yours cannot be captured in your opponent\'s next turn'],
  strike: ['Strike', 'power: one of your pieces moves and captures once like a queen'],
  haste: ['Haste', 'power: one piece makes two moves in this turn'],
  flight: ['Flight', 'power: a piece flies to any empty square of your half'],
  sacrifice: ['Sacrifice', 'power: a pawn is replaced by one of your captured pieces'],
  march: ['March', 'power: a pawn steps two squares forward from anywhere'],
  leap: ['Leap', 'power: a queen, rook or bishop passes over your own pawns'],
  'holy-light': ['Holy Light', 'power, always on: enemy pawns cannot check your king'],
  mercy: ['Mercy', 'power, always on: your king moves up to two squares, over a piece of yours'],
  'death-touch': ['Death Touch', 'power, always on: your king captures a neighbour without moving'],
  darkness: ['Darkness', 'power, always on: your pawns step diagonally and capture straight ahead'],
};

const ARMY_KINGS = new Set(['frost', 'flame', 'stratus', 'mud', 'spirit', 'shadow']);

const KOTV_COLUMNS = { Q: 'queens', D: 'dukes', C: 'countesses', N: 'knights', F: 'farmers', W: 'farmers\' wives' };

// [label, explanation] for an action that is not a move on the board.
function explain(game, text) {
  const words = text.trim().split(/\s+/);
  const [w, arg] = [words[0].toLowerCase(), words[1] || ''];
  if (game.startsWith('kings-castle') && w === 'swap') return ['Swap', 'take White\'s first man as your own; White then plays again'];
  if (game.startsWith('kings-guard') && w === 'end') return ['End the turn', 'leave the rest of the stack where it is'];
  if (game.startsWith('king-down') && KD_ACTIONS[w]) return KD_ACTIONS[w];
  if (game.startsWith('king-of-the-valley')) {
    const col = KOTV_COLUMNS[arg.charAt(0)];
    switch (w) {
      case 'pass': return ['Pass', 'skip this phase: no recruit, or no kingdom bonus'];
      case 'recruit': return [`Recruit ${arg}`, 'buy the subject on that hill row for its price'];
      case 'refill': return [`Refill from ${arg === 'L' ? 'the left' : 'the right'}`, 'that hill column\'s bottom tiles fill the valley\'s holes'];
      case 'jester': return [`Jester to ${col || arg}`, 'the jester counts as one of them, but scores nothing'];
      case 'tax': return [`Tax the ${col || arg}`, 'turn face-up tiles of that column down for the collector\'s gold'];
      case 'kingdom': return [`Kingdom with a ${arg.startsWith('W') ? 'wife' : 'farmer'}`, 'turn a full court face down for 5 gold and a kingdom token'];
      case 'swap': return [`Wizard: ${text.slice(5)}`, 'swap that castle subject for the hill tile'];
      case 'place': return [`Place the king on ${arg}`, 'your king starts on that valley tile'];
      default: break;
    }
  }
  return null;
}

// What the player to move may do now, in one line, for games whose turn has phases
// (King of the Valley) or choices before play (King Down's armies); null otherwise.
const KOTV_PHASES = [
  [/^place /, 'Place your king: click a valley tile to start there.'],
  [/^recruit /, 'Recruit: click a hill tile to buy it for the price of its row, or pass.'],
  [/^[a-e][1-5]-[a-e][1-5]/, 'Summon: click your king, then the tile it stops on (and takes), or beyond two or three identical tiles it passes.'],
  [/^jester /, 'Jester: choose the castle column it joins; it counts as that subject but scores nothing.'],
  [/^swap /, 'Wizard: swap a face-up subject of your castle for a subject on the hill.'],
  [/^tax /, 'Tax collector: choose the column whose face-up tiles he turns down for his gold.'],
  [/^kingdom /, 'Kingdom bonus: turn a full court face down for 5 gold and a kingdom token, or pass.'],
  [/^refill /, 'Refill: choose the hill column whose bottom tiles fill the valley.'],
];
export function turnHelp(game, legal) {
  if (!legal || !legal.length) return null;
  if (game.startsWith('king-of-the-valley')) {
    for (const [re, words] of KOTV_PHASES) if (legal.some((m) => re.test(m.text))) return words;
  }
  if (game.startsWith('king-down')) {
    const first = legal[0].text.toLowerCase();
    if (ARMY_KINGS.has(first)) return 'Armies: choose your king; each brings its powers.';
    if (KD_ACTIONS[first]) return 'Armies: choose one of your king\'s two powers.';
  }
  return null;
}

// The content of an action's button: its label and explanation, or just its text.
export function actionLabel(game, text) {
  const e = explain(game, text);
  if (!e) return [text];
  return [h('span', { class: 'action-label' }, e[0]), h('span', { class: 'action-why' }, e[1])];
}

// --- live boards ---------------------------------------------------------------------------

// A board of `spec` ({position, rules, select, all, only}) that shows the moves of the piece
// clicked (or of spec.select at first); onMove(move) is told of a click on a target.
// `only` keeps the moves whose text starts with it (an army's power, say), so that a
// board shows what the power adds rather than every move.
async function liveBoard(game, spec, onMove) {
  const box = h('div', { class: 'learn-board', 'data-position': spec.position || '' });
  let obs;
  try {
    obs = await api.observe({ game, rules: spec.rules || {}, ...(spec.position ? { position: spec.position } : {}) });
  } catch (e) {
    box.append(h('p', { class: 'message' }, `This board could not be read: ${e.message}`));
    return box;
  }
  if (spec.only) obs.legal = obs.legal.filter((m) => m.text.startsWith(spec.only));
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

function index(root) {
  root.replaceChildren(h('section', { class: 'learn' },
    h('h1', {}, 'Learn the games'),
    h('p', {}, 'Each page explains one game in a few minutes, with boards you can click to see how every piece moves.'),
    h('ul', { class: 'learn-index' }, ...Object.entries(PAGES).map(([name, page]) =>
      h('li', {}, h('a', { href: `/learn/${name}` }, gameName(name)), ' ', h('span', { class: 'summary' }, page.intro)))),
    h('p', {}, h('a', { href: '/' }, 'Start a new game'))));
}

async function tutorial(game) {
  const steps = TUTORIALS[game];
  const box = h('section', { class: 'tutorial', id: 'tutorial', 'aria-labelledby': 'tutorial-title' },
    h('h2', { id: 'tutorial-title' }, 'Try it: find the move'));
  const prompt = h('p', { class: 'tutorial-prompt', id: 'tutorial-prompt' });
  const feedback = h('p', { class: 'tutorial-feedback', id: 'tutorial-feedback', role: 'status' });
  const next = h('button', { type: 'button', id: 'tutorial-next', hidden: true }, 'Next');
  const slot = h('div', { class: 'tutorial-board' });
  box.append(prompt, slot, feedback, next);
  let at = 0;
  async function show() {
    const step = steps[at];
    box.dataset.step = String(at);
    prompt.textContent = `${at + 1} of ${steps.length}: ${step.prompt}`;
    feedback.textContent = 'Click a piece, then where it should go.';
    feedback.className = 'tutorial-feedback';
    next.hidden = true;
    slot.replaceChildren(await liveBoard(game, { position: step.position, rules: step.rules }, (move, from, to) => {
      if (!next.hidden) return;
      const right = move && from === step.from && (!step.to || to === step.to);
      if (right) {
        feedback.textContent = `Right! ${step.right}`;
        feedback.className = 'tutorial-feedback right';
        next.hidden = false;
        next.textContent = at + 1 < steps.length ? 'Next' : 'Start again';
      } else {
        feedback.textContent = move ? `${move.text} is legal, but not the move here: try again.` : 'That piece cannot go there: try again.';
        feedback.className = 'tutorial-feedback wrong';
      }
    }));
  }
  next.addEventListener('click', () => { at = (at + 1) % steps.length; show(); });
  await show();
  return box;
}

export async function showLearn(root, game) {
  const page = PAGES[game];
  if (!page) { index(root); return; }
  const title = gameName(game);
  document.title = `${title}: rules · crown`;
  const toc = h('nav', { class: 'learn-nav', 'aria-label': 'games' },
    ...Object.entries(PAGES).map(([name, p]) => h('a', { href: `/learn/${name}`, 'aria-current': name === game ? 'page' : null }, gameName(name))));
  const article = h('article', { class: 'learn', id: 'learn', 'data-game': game },
    h('h1', {}, `How to play ${title}`),
    h('p', { class: 'summary' }, page.intro),
    h('p', {}, h('a', { class: 'button-link', id: 'learn-play', href: `/?game=${game}` }, `Play ${title}`)));
  root.replaceChildren(h('div', { class: 'learn-page' }, toc, article));
  for (const s of page.sections) {
    const sec = h('section', { class: s.army ? 'learn-section learn-army' : 'learn-section' },
      h(s.army ? 'h3' : 'h2', {}, s.h), ...s.p.map((t) => h('p', {}, t)));
    article.append(sec);
    for (const b of s.boards || []) {
      const fig = h('figure', { class: 'learn-figure' });
      sec.append(fig);
      fig.append(await liveBoard(b.game || game, b), h('figcaption', {}, b.caption));
    }
  }
  if (TUTORIALS[game]) article.append(await tutorial(game));
  root.dataset.ready = 'learn';
}
