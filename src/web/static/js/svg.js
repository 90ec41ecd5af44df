// svg.js - a tiny helper for building SVG: el('circle', {cx: 1}, child...) makes an
// element in the SVG namespace with those attributes and children. The board drawers
// use it so that they stay plain data-to-picture functions.

const NS = 'http://www.w3.org/2000/svg';

export function el(name, attrs = {}, ...children) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}

// The root element with a viewBox, scaled to its container by CSS.
export function svgRoot(width, height, label) {
  return el('svg', { viewBox: `0 0 ${width} ${height}`, class: 'board', role: 'img', 'aria-label': label });
}

// The marks every board shows the same way: the cell a player selected, where it may go,
// the last action's cells, the hint's cells, and cells that start a legal move.
export function markClasses(name, marks) {
  const c = [];
  if (marks.selected === name) c.push('selected');
  if (marks.targets.has(name)) c.push('target');
  if (marks.last.has(name)) c.push('last');
  if (marks.hint.has(name)) c.push('hint');
  if (marks.movable.has(name)) c.push('movable');
  return c.join(' ');
}

// A king's crown centred at (x, y), s wide: drawn, not a font glyph, so every browser
// shows the same shape.
export function crown(x, y, s, fill, stroke) {
  const w = s / 2;
  const h = s * 0.42;
  const pts = [
    [-w, h / 2], [-w, -h / 2], [-w / 2, 0], [0, -h * 0.75], [w / 2, 0], [w, -h / 2], [w, h / 2],
  ].map(([px, py]) => `${(x + px).toFixed(1)},${(y + py).toFixed(1)}`).join(' ');
  return el('polygon', { points: pts, fill, stroke, 'stroke-width': s * 0.06, 'stroke-linejoin': 'round', class: 'crown' });
}

// Colours of the players' pieces: the first player light, the second dark (more seats
// for games of up to four players).
export const PLAYER_FILL = ['#f6efdf', '#2f2a33', '#c0392b', '#2e86c1'];
export const PLAYER_STROKE = ['#5b4a32', '#0d0b0f', '#5e1b14', '#154360'];
export const PLAYER_INK = ['#2f2a33', '#f6efdf', '#ffffff', '#ffffff'];
