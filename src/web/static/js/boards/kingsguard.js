// kingsguard.js - King's Guard boards (9x10, and 8x8): every square's stack drawn from
// the side, bottom piece lowest, each disc in its owner's colour, a crown on a king,
// the height written beside stacks of two or more, and the start square of a turn in
// progress shaded. Reads the observation: stacks bottom first ("guard", "king"), the
// terrain mark "origin".
import { crown, el, PLAYER_FILL, PLAYER_INK, PLAYER_STROKE } from '../svg.js';
import { CELL, checkered, observedSquareBoard } from './square.js';
import { hasMessage, t } from '../i18n.js';

function stack(pieces, cx, cy) {
  const g = el('g', { class: 'piece stack', 'data-stack': pieces.map((p) => `${p.owner}${p.kind}`).join(' ') });
  const n = pieces.length;
  const step = Math.min(8, 26 / Math.max(1, n - 1));
  const base = cy + 8 + ((n - 1) * step) / 2;
  pieces.forEach((p, i) => {
    const who = p.owner;
    const y = base - i * step;
    g.append(el('ellipse', { cx, cy: y + 4, rx: 21, ry: 9, fill: PLAYER_STROKE[who] }));
    g.append(el('ellipse', { cx, cy: y, rx: 21, ry: 9, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2 }));
    if (p.kind === 'king') g.append(crown(cx, y - 1, 20, PLAYER_INK[who], 'none'));
  });
  if (n > 1) {
    g.append(el('circle', { cx: cx + 21, cy: cy - 19, r: 9, fill: '#8c2f39' }));
    g.append(el('text', { x: cx + 21, y: cy - 19, class: 'height' }, String(n)));
  }
  return g;
}

export function draw(state, marks) {
  return observedSquareBoard(state, marks, {
    cellClass: (cell, f, r) => `${checkered(f, r)}${cell.terrain.includes('origin') ? ' origin' : ''}`,
    piece: (cell, cx, cy) => (cell.pieces.length ? stack(cell.pieces, cx, cy) : null),
  });
}

export const cellSize = CELL;

// A turn is put together on the page and sent whole (compose.js): picking up a stack
// commits nothing.
export const composeTurns = true;

// Pieces stack: the position editor builds a square's stack a piece at a time.
export const stacks = true;


// A turn's actions (the state's moves of one seat in a row) as a player tells them, one
// text per action: "two pieces from a1", "one to b1", "one to c1" ("another to c1" for a
// second one there), and for the end of a turn that leaves some behind, "the rest
// stays". null when the actions are not a turn as the page knows it (a pick-up of one
// cell, then placements from it).
export function turnWords(acts) {
  const [pick, ...rest] = acts;
  if (!pick || !pick.cells || pick.cells.length !== 1) return null;
  const from = pick.cells[0];
  const placed = rest.filter((m) => m.cells && m.cells.length >= 2 && m.cells[0] === from);
  // The one action on no cell is the end of the turn.
  const ends = (m) => !m.cells || m.cells.length === 0;
  if (placed.length + rest.filter(ends).length !== rest.length) return null;
  const n = placed.length;
  return [
    n ? t('kg.pieces-from', { count: n, n: hasMessage(`kg.n.${n}`) ? t(`kg.n.${n}`) : n, from }) : t('kg.from', { from }),
    ...rest.map((m, i) => {
      if (ends(m)) return t('kg.rest');
      const to = m.cells.at(-1);
      return t(i > 0 && !ends(rest[i - 1]) && rest[i - 1].cells.at(-1) === to ? 'kg.another' : 'kg.one', { to });
    }),
  ];
}
