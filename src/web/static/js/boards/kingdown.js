// kingdown.js - King Down boards: chess pieces as the usual figures, and the five new
// pieces on square badges with emblems of their own so that they are never mistaken
// for chess men: archer (a bow), paladin (a cross), guard (a shield), maester (a star)
// and beast (claw marks). Position text: chess FEN with A L G M E for the new pieces.
import { el, PLAYER_FILL, PLAYER_STROKE } from '../svg.js';
import { CELL, parseRanks, squareBoard } from './square.js';

const FIGURE = { K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F' };
const NAMES = {
  K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn',
  A: 'archer', L: 'paladin', G: 'guard', M: 'maester', E: 'beast',
};

function emblem(kind, cx, cy, ink) {
  const s = { fill: 'none', stroke: ink, 'stroke-width': 3, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
  switch (kind) {
    case 'A': // a bow with its arrow
      return [el('path', { d: `M${cx - 8} ${cy - 13} Q${cx + 12} ${cy} ${cx - 8} ${cy + 13}`, ...s }),
        el('line', { x1: cx - 8, y1: cy - 13, x2: cx - 8, y2: cy + 13, ...s, 'stroke-width': 1.5 }),
        el('line', { x1: cx - 13, y1: cy, x2: cx + 12, y2: cy, ...s }),
        el('path', { d: `M${cx + 6} ${cy - 5} L${cx + 12} ${cy} L${cx + 6} ${cy + 5}`, ...s })];
    case 'L': // a cross
      return [el('path', { d: `M${cx} ${cy - 14} V${cy + 14} M${cx - 10} ${cy - 5} H${cx + 10}`, ...s, 'stroke-width': 4 })];
    case 'G': // a shield
      return [el('path', { d: `M${cx - 11} ${cy - 12} H${cx + 11} V${cy} Q${cx + 11} ${cy + 10} ${cx} ${cy + 15} Q${cx - 11} ${cy + 10} ${cx - 11} ${cy} Z`, ...s })];
    case 'M': { // a star
      const pts = Array.from({ length: 10 }, (_, k) => {
        const a = (Math.PI / 5) * k - Math.PI / 2;
        const rr = k % 2 ? 6 : 14;
        return `${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`;
      }).join(' ');
      return [el('polygon', { points: pts, ...s, 'stroke-width': 2.5 })];
    }
    default: // beast: three claw marks
      return [-7, 0, 7].map((d) => el('path', { d: `M${cx + d - 4} ${cy - 12} Q${cx + d + 4} ${cy} ${cx + d - 3} ${cy + 13}`, ...s }));
  }
}

function piece(ch, cx, cy) {
  const who = ch === ch.toUpperCase() ? 0 : 1;
  const kind = ch.toUpperCase();
  const g = el('g', { class: `piece p${who}`, 'data-piece': ch }, el('title', {}, NAMES[kind] || kind));
  if (FIGURE[kind]) {
    g.append(el('text', {
      x: cx, y: cy + 2, class: 'label', 'font-size': CELL * 0.74,
      fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 1.6,
    }, FIGURE[kind]));
  } else {
    g.append(el('rect', { x: cx - 21, y: cy - 21, width: 42, height: 42, rx: 9, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2.5 }));
    g.append(...emblem(kind, cx, cy, PLAYER_STROKE[who] === PLAYER_STROKE[1] ? '#f6efdf' : '#5b4a32'));
  }
  return g;
}

export function draw(state, marks) {
  const rows = parseRanks(state.position.split(' ')[0], { multiDigit: true });
  const ranks = rows.length;
  const files = rows[0].length;
  const at = (f, r) => rows[ranks - 1 - r][f];
  return squareBoard({
    files,
    ranks,
    label: `${state.game} board`,
    flip: state.you === 1,
    marks,
    cellClass: (f, r) => ((f + r) % 2 ? 'light' : 'dark'),
    piece: (f, r, cx, cy) => {
      const ch = at(f, r);
      return ch ? piece(ch, cx, cy) : null;
    },
  });
}
