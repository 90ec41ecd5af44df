// boardclick.js - what a click on a square means on a board played by clicks over a
// position's legal actions (POST /api/observe's `legal`, each with its cells): play an
// action, choose among several that end there, or select a piece. The analysis board
// and the puzzles share it, so that a board answers clicks the same way on both.

// One click on `cell` with `selected` already selected: {play: action} when one action
// goes from the selection to the cell (or is the cell alone), {choose: [actions]} when
// several do, else {select: cell or null}.
export function clickToMove(legal, selected, cell) {
  if (selected && selected !== cell) {
    const to = legal.filter((m) => m.cells.length >= 2 && m.cells[0] === selected && m.cells.at(-1) === cell);
    if (to.length === 1) return { play: to[0] };
    if (to.length > 1) return { choose: to };
  }
  const singles = legal.filter((m) => m.cells.length === 1 && m.cells[0] === cell);
  const starts = legal.some((m) => m.cells.length >= 2 && m.cells[0] === cell);
  if (starts && selected !== cell) return { select: cell };
  if (singles.length === 1) return { play: singles[0] };
  if (singles.length > 1) return { choose: singles };
  return { select: null };
}
