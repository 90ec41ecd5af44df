// words.js - what the page says to players in their words rather than the engine's:
// the games' names ("King's Valley", not kings-valley), the AI levels' names, a hint
// (a move and a win chance, or a solved game's exact result) and why a clicked piece
// cannot move, the seats' names and an action in a move list. One table each, here, so
// every page says it the same way.
import { actionKind, gameInfo } from './catalog.js';
import { ORDINAL } from './dom.js';

// The games' names as players know them ("King's Valley", not kings-valley), from the
// games' own records (catalog.js).
export function gameName(game) {
  const info = gameInfo(game);
  return info ? info.title : game;
}

// A seat's name as the game has it ("White"), else "first player"; `short` leaves the
// ordinal alone ("first"), for the move list's narrow column.
export function seatName(game, seat, short = false) {
  const info = gameInfo(game);
  const own = info && info.seat_names && info.seat_names[seat];
  if (own) return own;
  return short ? ORDINAL[seat] : `${ORDINAL[seat]} player`;
}

// An action of the state's moves ({text, read, kind}) as a move list shows it: the text
// players read (King Down's SAN) and, for a special action, what it does in the game's
// own words (its kind's help, GET /api/games).
export function moveWords(game, m) {
  const kind = m.kind ? actionKind(game, m.kind) : null;
  return { text: m.read ?? m.text ?? '(hidden)', help: kind ? kind.help : null };
}

// The AI's ten levels (crown's `ai:1` to `ai:10`, docs/STRENGTH.md) in five steps of
// two, so that a player picks by name: 1-2 Beginner, 3-4 Casual, 5-6 Club, 7-8 Strong,
// 9-10 Master (10 the strongest; with a solved table, perfect play).
const LEVEL_NAMES = ['Beginner', 'Beginner', 'Casual', 'Casual', 'Club', 'Club', 'Strong', 'Strong', 'Master', 'Master'];

export function levelName(level) {
  const n = Number(level);
  return LEVEL_NAMES[n - 1] ? `${LEVEL_NAMES[n - 1]} (${n})` : `level ${level}`;
}

// A solved table's value ("win in 9", "loss in 4", "draw") for the player to move.
function exactWords(value) {
  const m = /^(win|loss) in (\d+)$/.exec(value);
  if (!m) return value === 'draw' ? 'a draw with best play on both sides' : value;
  const n = Number(m[2]);
  const moves = `${n} move${n === 1 ? '' : 's'}`;
  return m[1] === 'win' ? `you win by force in ${moves}` : `the other side wins by force in ${moves}`;
}

// A hint answer (docs/API.md) as one sentence: "Hint: a1-d4, about 53% to win"; `told`,
// the hinted whole turn in words where the game's drawer tells it ("two pieces from d4:
// one to d6, one to d5"), replaces the move's text.
export function hintText(hint, told = null) {
  const exact = hint.values && hint.values.find((v) => v.move === hint.move);
  const words = exact ? exactWords(exact.value) : hint.words;
  const more = hint.values ? '; select a piece to see where each of its moves leads' : '';
  return `Hint: ${told ?? hint.read ?? hint.move}${words ? `, ${words}` : ''}${more}`;
}

// Why a click on `cell` plays nothing: the game is over, it is not the player's turn,
// the piece is another player's, or it has no legal move now. null for an empty cell
// or one that has something to play.
export function whyNot(state, cell, ordinal) {
  const obs = state.observation;
  const here = obs && obs.cells ? obs.cells.find((c) => c.name === cell) : null;
  const pieces = here ? here.pieces : [];
  if (!pieces.length) return null;
  if (state.status === 'over') return 'The game is over: nothing moves any more.';
  if (state.you === null || state.you === undefined) return 'You are watching this game: only its players move.';
  if (state.to_move !== state.you) {
    return state.to_move === null ? 'Chance acts next: wait for the draw.'
      : `It is ${seatName(state.game, state.to_move).replace(/^(?=[a-z])/, 'the ')}'s turn: wait for their move.`;
  }
  if (state.legal.some((m) => m.cells.includes(cell))) return null;
  const owner = pieces.at(-1).owner;
  // A king in check stands on a cell marked "check" (King Down's observation).
  const checked = obs.cells.some((c) => c.terrain.includes('check') && c.pieces.some((p) => p.owner === state.you));
  if (owner === state.you && checked) return 'Your king is in check: that piece cannot get it out of check, so move the king, block or capture the attacker.';
  if (owner === state.you) return 'That piece has no legal move now: it is blocked, or the rules ask for another move first.';
  if (ordinal[owner]) return `That is ${seatName(state.game, owner).replace(/^(?=[a-z])/, 'the ')}'s piece: you move yours.`;
  return 'Nothing can be played there now.';
}
