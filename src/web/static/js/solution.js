// solution.js - once a King's Valley or Retrieve the King game is over, what the solved
// table says about it (GET /api/games/ID/solution): every move in the list gets the
// value its mover had before it ("W9" win in 9 plies, "L4", "="), and the moves that
// changed the theoretical result (a win given away, a draw lost) are marked in the list
// and on the board, with one line saying where the result changed hands.
import * as api from './api.js';
import { gameInfo } from './catalog.js';
import { h, seatWords } from './dom.js';
import { t } from './i18n.js';
import { serverWords } from './serverwords.js';


function shortValue(text) {
  if (text === null) return '?';
  const m = /^(win|loss) in (\d+)$/.exec(text);
  return m ? (m[1] === 'win' ? 'W' : 'L') + m[2] : '=';
}

// One per page that lists a game's moves (the game page, its review); decorate() runs
// after every render of that list. An entry of the list is any element with a
// `data-ply` (the ply its move ends); the review's are its turns' buttons.
// `lineId` names the verdict's line (a review shown over its game page needs its own).
export function createSolution(id, token, lineId = 'solution') {
  let asked = null; // the state version the solution was asked for
  let data = null;
  const line = h('p', { id: lineId, class: 'solution', hidden: true });

  function summary() {
    if (data.changes.length === 0) return t('solved.none');
    return data.changes.map((ply) => {
      const p = data.plies[ply - 1];
      return t('solved.change', { ply, seat: seatWords(p.seat), move: p.move, before: serverWords(p.before), after: serverWords(p.after) });
    }).join(' ');
  }

  function decorate(st, moves, board) {
    if (!(gameInfo(st.game) || {}).solved || st.status !== 'over') {
      line.hidden = true;
      return;
    }
    if (!line.isConnected) moves.before(line);
    if (asked !== st.version) {
      asked = st.version;
      data = null;
      api.solution(id, token).then((d) => {
        if (asked !== st.version) return;
        data = d;
        decorate(st, moves, board);
      }).catch((e) => { line.hidden = false; line.textContent = e.message; });
      return;
    }
    // Without a table for these rules the page stays as it was.
    if (!data || !data.available) return;
    line.hidden = false;
    line.textContent = summary();
    for (const li of moves.querySelectorAll('[data-ply]')) {
      const p = data.plies[Number(li.dataset.ply) - 1];
      if (!p || li.querySelector('.ply-value')) continue;
      li.append(' ', h('span', { class: 'ply-value', title: t('solved.before', { value: p.before ? serverWords(p.before) : t('solved.unknown') }) }, shortValue(p.before)));
      if (p.changed) li.classList.add('turning');
    }
    for (const ply of data.changes) {
      const m = st.moves[ply - 1];
      for (const cell of (m && m.cells) || []) {
        const g = board.querySelector(`[data-cell="${cell}"]`);
        if (g) g.classList.add('turning');
      }
    }
  }

  return { decorate };
}
