// movelist.js - the game page's live move list, grouped as the review groups it
// (turns.js): a line per round with its number, each seat's whole turn together, the
// turns apart, chance's draws as turns of their own. Every action stays an item of its
// own (its data-ply, its seat's class, who and text), so what marks single actions
// (the solution's values, the tests) still finds them; the grouping is drawn by
// css/movelist.css from the classes and the round numbers set here. Actions read as
// players read them (words.js): the seats' own names, King Down's SAN, a special
// action's help where its kind first appears, and a turn told in words where the
// game's drawer tells it (King's Guard: "two pieces from a1, one to b1, one to c1").
import { h } from './dom.js';
import { t } from './i18n.js';
import { drawerFor } from './boards/index.js';
import { roundsOf } from './turns.js';
import { moveWords, seatName } from './words.js';

// Fills the <ol> `list` with moves, the state's actions ({seat, text, read, kind}), of
// `game`.
export function drawMoves(list, moves, game) {
  const drawer = drawerFor(game);
  const items = [];
  // A special action's help is said where its kind first appears: King of the Valley's
  // recruits would otherwise repeat it every turn.
  const explained = new Set();
  for (const round of roundsOf(moves)) {
    round.turns.forEach((turn, ti) => {
      const acts = moves.slice(turn.first, turn.last + 1);
      const told = turn.seat !== null && drawer && drawer.turnWords ? drawer.turnWords(acts) : null;
      for (let i = turn.first; i <= turn.last; i++) {
        const m = moves[i];
        const starts = i === turn.first;
        const opens = starts && ti === 0;
        const words = moveWords(game, m);
        const help = words.help && !told && !explained.has(m.kind) ? words.help : null;
        if (help) explained.add(m.kind);
        items.push(h('li', {
          class: `move p${m.seat ?? 'c'} ${starts ? 'turn-start' : 'turn-more'}${opens ? ' round-start' : ''}`,
          'data-ply': i + 1, 'data-round': opens ? round.number : null, 'data-move': m.text,
        }, h('span', { class: 'who' }, m.seat === null ? t('moves.chance') : seatName(game, m.seat, true)), ' ',
        told ? told[i - turn.first] : words.text,
        help ? h('span', { class: 'move-help' }, ` (${help})`) : null));
      }
    });
  }
  list.classList.add('by-turns');
  list.replaceChildren(...items);
}
