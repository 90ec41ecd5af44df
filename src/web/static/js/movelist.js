// movelist.js - the game page's live move list, grouped as the review groups it
// (turns.js): a line per round with its number, each seat's whole turn together, the
// turns apart, chance's draws as turns of their own. Every action stays an item of its
// own (its data-ply, its seat's class, who and text), so what marks single actions
// (the solution's values, the tests) still finds them; the grouping is drawn by
// css/movelist.css from the classes and the round numbers set here.
import { h, ORDINAL } from './dom.js';
import { roundsOf } from './turns.js';

// Fills the <ol> `list` with moves, the state's actions ({seat, text}).
export function drawMoves(list, moves) {
  const items = [];
  for (const round of roundsOf(moves)) {
    round.turns.forEach((t, ti) => {
      for (let i = t.first; i <= t.last; i++) {
        const m = moves[i];
        const starts = i === t.first;
        const opens = starts && ti === 0;
        items.push(h('li', {
          class: `move p${m.seat ?? 'c'} ${starts ? 'turn-start' : 'turn-more'}${opens ? ' round-start' : ''}`,
          'data-ply': i + 1, 'data-round': opens ? round.number : null,
        }, h('span', { class: 'who' }, m.seat === null ? 'chance' : ORDINAL[m.seat]), ' ', m.text ?? '(hidden)'));
      }
    });
  }
  list.classList.add('by-turns');
  list.replaceChildren(...items);
}
