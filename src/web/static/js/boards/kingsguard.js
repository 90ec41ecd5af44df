// kingsguard.js - King's Guard boards (9x10, and 8x8): every square's stack drawn from
// the side, bottom piece lowest, each disc in its owner's colour, a crown on a king,
// the height written beside stacks of two or more, and the start square of a turn in
// progress shaded. Position text: ranks from the top; G K g k, (...) for a stack from
// the bottom up, digits for empty squares; then the player, the turns, and START:PLACED
// while a turn is in progress.
import { crown, el, PLAYER_FILL, PLAYER_INK, PLAYER_STROKE } from '../svg.js';
import { CELL, parseRanks, squareBoard, squareName } from './square.js';

function stack(pieces, cx, cy) {
  const g = el('g', { class: 'piece stack', 'data-stack': pieces });
  const n = pieces.length;
  const step = Math.min(8, 26 / Math.max(1, n - 1));
  const base = cy + 8 + ((n - 1) * step) / 2;
  for (let i = 0; i < n; i++) {
    const ch = pieces[i];
    const who = ch === ch.toUpperCase() ? 0 : 1;
    const y = base - i * step;
    g.append(el('ellipse', { cx, cy: y + 4, rx: 21, ry: 9, fill: PLAYER_STROKE[who] }));
    g.append(el('ellipse', { cx, cy: y, rx: 21, ry: 9, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2 }));
    if (ch.toUpperCase() === 'K') g.append(crown(cx, y - 1, 20, PLAYER_INK[who], 'none'));
  }
  if (n > 1) {
    g.append(el('circle', { cx: cx + 21, cy: cy - 19, r: 9, fill: '#8c2f39' }));
    g.append(el('text', { x: cx + 21, y: cy - 19, class: 'height' }, String(n)));
  }
  return g;
}

export function draw(state, marks) {
  const fields = state.position.split(' ');
  const rows = parseRanks(fields[0]);
  const ranks = rows.length;
  const files = rows[0].length;
  const origin = fields[3] ? fields[3].split(':')[0] : null;
  const at = (f, r) => rows[ranks - 1 - r][f];
  return squareBoard({
    files,
    ranks,
    label: `${state.game} board`,
    flip: state.you === 1,
    marks,
    cellClass: (f, r) => `${(f + r) % 2 ? 'light' : 'dark'}${squareName(f, r) === origin ? ' origin' : ''}`,
    piece: (f, r, cx, cy) => {
      const t = at(f, r);
      return t ? stack(t, cx, cy) : null;
    },
  });
}

export const cellSize = CELL;
