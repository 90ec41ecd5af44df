// dom.js - building HTML elements: h('div', {class: 'x', onclick: f}, child...). Keys
// starting with "on" become event listeners; others attributes (false/null left out).
import { levelName } from './words.js';

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

export const ORDINAL = ['first', 'second', 'third', 'fourth'];

// "human" / "AI Club (5)" / "random AI" for a seat's player spec.
export function describePlayer(spec) {
  if (spec === 'human') return 'human';
  const [kind, level] = spec.split(':');
  const names = { ai: 'AI', ab: 'alpha-beta AI', alphabeta: 'alpha-beta AI', mcts: 'MCTS AI', uct: 'MCTS AI', random: 'random AI' };
  return `${names[kind] || kind}${kind === 'random' ? '' : ` ${levelName(level || 5)}`}`;
}
