// text.js - the fallback for a game that has no drawer yet (or a hidden-information
// view): the server's own text drawing of the board, as on a terminal.
import { t } from '../i18n.js';

export function draw(state) {
  const pre = document.createElement('pre');
  pre.className = 'text-board';
  pre.textContent = state.board || state.view || t('board.none');
  return pre;
}
