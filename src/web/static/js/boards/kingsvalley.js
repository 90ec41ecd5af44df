// kingsvalley.js - King's Valley boards (5x5, 7x7, Labyrinth, Retrieve the King): the
// Valley in the centre, the Labyrinth's pillars, soldiers as discs and kings crowned.
// Reads the observation: terrain "valley" and "pillar", pieces "king" and "soldier".
// Beside a board with pillars, a legend says what its squares are.
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { crown, el, PLAYER_FILL, PLAYER_INK, PLAYER_STROKE } from '../svg.js';
import { CELL, checkered, observedSquareBoard } from './square.js';

export function draw(state, marks) {
  return observedSquareBoard(state, marks, {
    cellClass: ({ terrain }, f, r) => {
      if (terrain.includes('pillar')) return 'pillar';
      if (terrain.includes('valley')) return 'valley';
      return checkered(f, r);
    },
    piece: (cell, cx, cy) => {
      const p = cell.pieces[0];
      if (!p) return null;
      const who = p.owner;
      const king = p.kind === 'king';
      return el('g', { class: `piece p${who}${king ? ' king' : ''}`, 'data-piece': p.kind },
        el('circle', { cx, cy, r: CELL * 0.36, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2.5 }),
        king ? crown(cx, cy + 1, CELL * 0.42, PLAYER_INK[who], 'none') : null);
    },
  });
}

// The legend of a board with pillars (the Labyrinth): the squares that are not plain.
export function beside(state) {
  const cells = state.observation.cells;
  if (!cells.some((c) => c.terrain.includes('pillar'))) return null;
  const key = (cls) => h('span', { class: `legend-key ${cls}`, 'aria-hidden': 'true' });
  return h('ul', { class: 'legend' },
    h('li', {}, key('valley'), ` ${t('kv.valley')}`),
    h('li', {}, key('pillar'), ` ${t('kv.pillar')}`));
}
