// kingscastle.js - the King's Castle board: a hexagon of 91 cells six on a side, named
// as on a Hexdame board (file a-k, rank 1-11; the Throne is f6), the Castle of 13 cells
// in the middle, its eighteen walls drawn as thick lines and its twelve doors as gold
// dashes, White's and Black's men, and the Throne man crowned. Position text: ranks 11
// down to 1, each from its lowest file, W B and numbers of empty cells; then w or b.
import { crown, el, markClasses, PLAYER_FILL, PLAYER_INK, PLAYER_STROKE, svgRoot } from '../svg.js';
import { parseRanks } from './square.js';

const R = 5;
const SIZE = 30; // hexagon radius
const SQ3 = Math.sqrt(3);

const name = (q, r) => String.fromCharCode(97 + q + R) + (R + 1 - r);
const onBoard = (q, r) => Math.abs(q) <= R && Math.abs(r) <= R && Math.abs(q + r) <= R;
const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

// The Castle: the Throne, the six inner cells and the six entrance cells, each entrance
// with its two doors (the outside cells beyond it).
const THRONE = 'f6';
const ENTRANCES = {
  h7: ['i7', 'i8'], g5: ['h5', 'g4'], e4: ['e3', 'd3'], d5: ['c5', 'c4'], e7: ['d7', 'e8'], g8: ['g9', 'h9'],
};
const INNER = ['e6', 'g6', 'f7', 'g7', 'e5', 'f5'];
const CASTLE = new Set([THRONE, ...INNER, ...Object.keys(ENTRANCES)]);

export function draw(state, marks) {
  const [board] = state.position.split(' ');
  const rows = parseRanks(board, { multiDigit: true });
  const men = new Map();
  rows.forEach((row, i) => {
    const r = i - R; // rank 11 (first row) is r = -5
    const qmin = Math.max(-R, -R - r);
    row.forEach((t, k) => { if (t) men.set(name(qmin + k, r), t); });
  });
  const flip = state.you === 1 ? -1 : 1;
  const px = (q, r) => [flip * SIZE * SQ3 * (q + r / 2), flip * SIZE * 1.5 * r];
  const W = SIZE * SQ3 * 11 + 40;
  const H = SIZE * 1.5 * 10 + SIZE * 2 + 40;
  const svg = svgRoot(W, H, 'kings-castle board');
  const root = el('g', { transform: `translate(${W / 2} ${H / 2})` });
  svg.append(el('rect', { x: 0, y: 0, width: W, height: H, class: 'frame', rx: 8 }), root);
  const corners = (cx, cy, s) => Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k - 30);
    return `${(cx + s * Math.cos(a)).toFixed(1)},${(cy + s * Math.sin(a)).toFixed(1)}`;
  }).join(' ');

  for (let r = -R; r <= R; r++) {
    for (let q = -R; q <= R; q++) {
      if (!onBoard(q, r)) continue;
      const n = name(q, r);
      const [cx, cy] = px(q, r);
      const kind = n === THRONE ? 'castle throne' : CASTLE.has(n) ? 'castle' : '';
      const g = el('g', { class: `cell hex ${kind} ${markClasses(n, marks)}`, 'data-cell': n });
      g.append(el('polygon', { points: corners(cx, cy, SIZE), class: 'ground' }));
      g.append(el('polygon', { points: corners(cx, cy, SIZE - 4), class: 'mark' }));
      const t = men.get(n);
      if (t) {
        const who = t === 'W' ? 0 : 1;
        g.append(el('g', { class: `piece p${who}`, 'data-piece': t },
          el('circle', { cx, cy, r: SIZE * 0.62, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2.5 }),
          n === THRONE ? crown(cx, cy, SIZE * 0.8, PLAYER_INK[who], 'none') : null));
      } else if (n === THRONE) {
        g.append(crown(cx, cy, SIZE * 0.8, '#00000030', 'none'));
      }
      if (marks.targets.has(n)) g.append(el('circle', { cx, cy, r: 8, class: 'dot' }));
      g.append(el('text', { x: cx, y: cy + SIZE * 0.72, class: 'label cellname', 'font-size': 8, fill: '#00000066' }, n));
      root.append(g);
    }
  }

  // Walls and doors: every edge between a Castle cell and an outside cell.
  const doors = new Set(Object.entries(ENTRANCES).flatMap(([e, ds]) => ds.map((d) => `${e}|${d}`)));
  for (let r = -R; r <= R; r++) {
    for (let q = -R; q <= R; q++) {
      if (!onBoard(q, r) || !CASTLE.has(name(q, r))) continue;
      for (const [dq, dr] of DIRS) {
        const q2 = q + dq;
        const r2 = r + dr;
        if (!onBoard(q2, r2) || CASTLE.has(name(q2, r2))) continue;
        const [x1, y1] = px(q, r);
        const [x2, y2] = px(q2, r2);
        const mx = (x1 + x2) / 2;
        const my = (y1 + y2) / 2;
        const len = Math.hypot(x2 - x1, y2 - y1);
        const ux = -(y2 - y1) / len;
        const uy = (x2 - x1) / len;
        const half = SIZE / 2;
        const isDoor = doors.has(`${name(q, r)}|${name(q2, r2)}`);
        root.append(el('line', {
          x1: (mx + ux * half).toFixed(1), y1: (my + uy * half).toFixed(1),
          x2: (mx - ux * half).toFixed(1), y2: (my - uy * half).toFixed(1),
          class: isDoor ? 'door' : 'wall',
        }));
      }
    }
  }
  return svg;
}
