// kingsvalley.js - King's Valley boards (5x5, 7x7, Labyrinth, Retrieve the King): the
// Valley in the centre, the Labyrinth's pillars, soldiers as discs and kings crowned.
// Position text: ranks from the top, K S k s, # for a pillar, digits for empty squares.
import { crown, el, PLAYER_FILL, PLAYER_INK, PLAYER_STROKE } from '../svg.js';
import { CELL, parseRanks, squareBoard } from './square.js';

export function draw(state, marks) {
  const rows = parseRanks(state.position.split(' ')[0]);
  const n = rows.length;
  const at = (f, r) => rows[n - 1 - r][f];
  const centre = (n - 1) / 2;
  return squareBoard({
    files: n,
    ranks: n,
    label: `${state.game} board`,
    flip: state.you === 1,
    marks,
    cellClass: (f, r) => {
      if (at(f, r) === '#') return 'pillar';
      if (f === centre && r === centre) return 'valley';
      return (f + r) % 2 ? 'light' : 'dark';
    },
    piece: (f, r, cx, cy) => {
      const ch = at(f, r);
      if (!ch || ch === '#') return null;
      const who = ch === ch.toUpperCase() ? 0 : 1;
      const king = ch.toUpperCase() === 'K';
      return el('g', { class: `piece p${who}${king ? ' king' : ''}`, 'data-piece': ch },
        el('circle', { cx, cy, r: CELL * 0.36, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2.5 }),
        king ? crown(cx, cy + 1, CELL * 0.42, PLAYER_INK[who], 'none') : null);
    },
  });
}
