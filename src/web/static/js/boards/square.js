// square.js - the common drawing of square boards (King's Valley, King's Guard, King
// Down): the cells with their names in data-cell, the selection and move marks (and a
// solved game's move values), file
// and rank labels, and the board turned round for the second player. Each game's drawer
// gives the cell colours and draws the pieces, reading the state's structured
// observation (docs/API.md) through observedSquareBoard.
import { el, markClasses, svgRoot } from '../svg.js';
import { t } from '../i18n.js';
import { gameName } from '../words.js';

export const CELL = 60;
const MARGIN = 26;

export const squareName = (file, rank) => String.fromCharCode(97 + file) + (rank + 1);

// The chequer of a plain cell.
export const checkered = (file, rank) => ((file + rank) % 2 ? 'light' : 'dark');

// opts: files, ranks, label, flip, marks, cellClass(file, rank), piece(file, rank, cx, cy)
export function squareBoard(opts) {
  const { files, ranks, flip, marks } = opts;
  const W = files * CELL + 2 * MARGIN;
  const H = ranks * CELL + 2 * MARGIN;
  const svg = svgRoot(W, H, opts.label);
  svg.append(el('rect', { x: 0, y: 0, width: W, height: H, class: 'frame', rx: 8 }));
  const xOf = (f) => MARGIN + (flip ? files - 1 - f : f) * CELL;
  const yOf = (r) => MARGIN + (flip ? r : ranks - 1 - r) * CELL;
  for (let r = 0; r < ranks; r++) {
    for (let f = 0; f < files; f++) {
      const name = squareName(f, r);
      const x = xOf(f);
      const y = yOf(r);
      const g = el('g', { class: `cell ${opts.cellClass(f, r)} ${markClasses(name, marks)}`, 'data-cell': name });
      g.append(el('rect', { x, y, width: CELL, height: CELL, class: 'ground' }));
      g.append(el('rect', { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: 'mark', rx: 6 }));
      const p = opts.piece(f, r, x + CELL / 2, y + CELL / 2);
      if (p) g.append(p);
      if (marks.targets.has(name)) g.append(el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 9, class: 'dot' }));
      if (marks.values && marks.values.has(name)) {
        g.append(el('text', { x: x + CELL / 2, y: y + CELL - 6, class: 'value' }, marks.values.get(name)));
      }
      svg.append(g);
    }
  }
  for (let f = 0; f < files; f++) {
    const letter = String.fromCharCode(97 + f);
    svg.append(el('text', { x: xOf(f) + CELL / 2, y: H - 8, class: 'coord' }, letter));
    svg.append(el('text', { x: xOf(f) + CELL / 2, y: 18, class: 'coord' }, letter));
  }
  for (let r = 0; r < ranks; r++) {
    svg.append(el('text', { x: 13, y: yOf(r) + CELL / 2 + 5, class: 'coord' }, String(r + 1)));
    svg.append(el('text', { x: W - 13, y: yOf(r) + CELL / 2 + 5, class: 'coord' }, String(r + 1)));
  }
  return svg;
}

// The state's observation, or an error that sends the page to its text board.
export function observationOf(state) {
  if (!state.observation) throw new Error(`${state.game}: the server sent no observation`);
  return state.observation;
}

// A zone of the state's observation: its size and the observed cell at (col, row) (for
// a square zone the file and the rank from the first player's side), or undefined.
export function observedZone(state, zone = 0) {
  const obs = observationOf(state);
  const z = obs.zones[zone];
  const grid = new Map();
  for (const c of obs.cells) if (c.zone === zone) grid.set(c.col * 1000 + c.row, c);
  return { cols: z.cols, rows: z.rows, at: (col, row) => grid.get(col * 1000 + row) };
}

// squareBoard over the state's first observed zone, turned round for the second player:
// cellClass(cell, file, rank) and piece(cell, cx, cy) are given the observed cell.
export function observedSquareBoard(state, marks, { cellClass, piece }) {
  const board = observedZone(state);
  return squareBoard({
    files: board.cols,
    ranks: board.rows,
    label: t('board.label', { game: gameName(state.game) }),
    flip: state.you === 1,
    marks,
    cellClass: (f, r) => cellClass(board.at(f, r), f, r),
    piece: (f, r, cx, cy) => piece(board.at(f, r), cx, cy),
  });
}
