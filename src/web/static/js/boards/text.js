// text.js - the fallback for a game that has no drawer yet (or a hidden-information
// view): the server's own text drawing of the board, as on a terminal.

export function draw(state) {
  const pre = document.createElement('pre');
  pre.className = 'text-board';
  pre.textContent = state.board || state.view || '(this game shows no board to you)';
  return pre;
}
