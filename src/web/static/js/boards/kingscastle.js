// kingscastle.js - the King's Castle board: a hexagon of 91 cells six on a side, named
// as on a Hexdame board (file a-k, rank 1-11; the Throne is f6), the Castle of 13 cells
// in the middle, its eighteen walls drawn as thick lines and its twelve doors as gold
// dashes, White's and Black's men, and the Throne man crowned. Reads the observation:
// one hex zone in axial coordinates (row 0 at the top), terrain "castle" and "throne",
// and "wall-D" / "door-D" on the sides D of a cell that carry them. Each cell writes its
// name small; on a phone (app.css) only the cell picked and its targets do, large enough
// to read.
import { crown, el, markClasses, PLAYER_FILL, PLAYER_INK, PLAYER_STROKE, svgRoot } from '../svg.js';
import { observationOf } from './square.js';
import { t } from '../i18n.js';
import { gameName } from '../words.js';

const SIZE = 30; // hexagon radius
const SQ3 = Math.sqrt(3);
// The sides of a cell as the observation names them, and the axial step across each.
const SIDES = { e: [1, 0], ne: [1, -1], nw: [0, -1], w: [-1, 0], sw: [-1, 1], se: [0, 1] };

export function draw(state, marks) {
  const obs = observationOf(state);
  const zone = obs.zones[0];
  const R = (zone.cols - 1) / 2;
  const flip = state.you === 1 ? -1 : 1;
  const px = (q, r) => [flip * SIZE * SQ3 * (q + r / 2), flip * SIZE * 1.5 * r];
  // A narrow frame: on a phone every pixel of width goes to the 11 cells across.
  const W = SIZE * SQ3 * zone.cols + 16;
  const H = SIZE * 1.5 * (zone.rows - 1) + SIZE * 2 + 16;
  const svg = svgRoot(W, H, t('board.label', { game: gameName(state.game) }));
  const root = el('g', { transform: `translate(${W / 2} ${H / 2})` });
  svg.append(el('rect', { x: 0, y: 0, width: W, height: H, class: 'frame', rx: 8 }), root);
  const corners = (cx, cy, s) => Array.from({ length: 6 }, (_, k) => {
    const a = (Math.PI / 180) * (60 * k - 30);
    return `${(cx + s * Math.cos(a)).toFixed(1)},${(cy + s * Math.sin(a)).toFixed(1)}`;
  }).join(' ');

  const edges = [];
  for (const cell of obs.cells) {
    const q = cell.col - R;
    const r = cell.row - R;
    const n = cell.name;
    const [cx, cy] = px(q, r);
    const throne = cell.terrain.includes('throne');
    const castle = cell.terrain.includes('castle');
    const kind = throne ? 'castle throne' : castle ? 'castle' : '';
    const g = el('g', { class: `cell hex ${kind} ${markClasses(n, marks)}`, 'data-cell': n });
    g.append(el('polygon', { points: corners(cx, cy, SIZE), class: 'ground' }));
    g.append(el('polygon', { points: corners(cx, cy, SIZE - 4), class: 'mark' }));
    const man = cell.pieces[0];
    if (man) {
      const who = man.owner;
      g.append(el('g', { class: `piece p${who}`, 'data-piece': who ? 'B' : 'W' },
        el('circle', { cx, cy, r: SIZE * 0.62, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2.5 }),
        throne ? crown(cx, cy, SIZE * 0.8, PLAYER_INK[who], 'none') : null));
    } else if (throne) {
      g.append(crown(cx, cy, SIZE * 0.8, '#00000030', 'none'));
    }
    if (marks.targets.has(n)) g.append(el('circle', { cx, cy, r: 8, class: 'dot' }));
    g.append(el('text', { x: cx, y: cy + SIZE * 0.72, class: 'label cellname', 'font-size': 8, fill: '#00000066' }, n));
    root.append(g);
    // Each wall or door is on both of its cells; the Castle side draws it.
    if (!castle) continue;
    for (const [side, [dq, dr]] of Object.entries(SIDES)) {
      const isDoor = cell.terrain.includes(`door-${side}`);
      if (isDoor || cell.terrain.includes(`wall-${side}`)) edges.push([q, r, q + dq, r + dr, isDoor]);
    }
  }

  for (const [q, r, q2, r2, isDoor] of edges) {
    const [x1, y1] = px(q, r);
    const [x2, y2] = px(q2, r2);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const len = Math.hypot(x2 - x1, y2 - y1);
    const ux = -(y2 - y1) / len;
    const uy = (x2 - x1) / len;
    const half = SIZE / 2;
    root.append(el('line', {
      x1: (mx + ux * half).toFixed(1), y1: (my + uy * half).toFixed(1),
      x2: (mx - ux * half).toFixed(1), y2: (my - uy * half).toFixed(1),
      class: isDoor ? 'door' : 'wall',
    }));
  }
  return svg;
}
