// dom.js - building HTML elements: h('div', {class: 'x', onclick: f}, child...). Keys
// starting with "on" become event listeners; others attributes (false/null left out).
import { levelName } from './words.js';
import { t } from './i18n.js';

export function h(name, attrs = {}, ...children) {
  const e = document.createElement(name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}

// Which seat: 0 is the first player. Kept as numbers for the pages' classes; the words
// are seatWords's.
export const ORDINAL = ['first', 'second', 'third', 'fourth'];

// A seat without a name of its own in the page's language: "first player", or with
// `short` "first", for narrow columns.
export const seatWords = (seat, short = false) => t(`seat.${short ? 'short' : 'player'}.${seat}`);

// "human" / "AI Club (5)" / "random AI" for a seat's player spec.
export function describePlayer(spec) {
  if (spec === 'human') return t('player.human');
  const [kind, level] = spec.split(':');
  const names = { ai: 'player.ai', ab: 'player.alphabeta', alphabeta: 'player.alphabeta', mcts: 'player.mcts', uct: 'player.mcts', random: 'player.random' };
  const name = names[kind] ? t(names[kind]) : kind;
  return kind === 'random' ? name : `${name} ${levelName(level || 5)}`;
}
