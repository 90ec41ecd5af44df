// words.js - what the page says to players in their words rather than the engine's:
// the games' names ("King's Valley", not kings-valley), the AI levels' names, a hint
// (a move and a win chance, or a solved game's exact result) and why a clicked piece
// cannot move. One table each, here, so every page says it the same way.
import { gameInfo } from './catalog.js';

// The games' names as players know them ("King's Valley", not kings-valley), from the
// games' own records (catalog.js).
export function gameName(game) {
  const info = gameInfo(game);
  return info ? info.title : game;
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

// A hint answer (docs/API.md) as one sentence: "Hint: a1-d4, about 53% to win".
export function hintText(hint) {
  const exact = hint.values && hint.values.find((v) => v.move === hint.move);
  const words = exact ? exactWords(exact.value) : hint.words;
  const more = hint.values ? '; select a piece to see where each of its moves leads' : '';
  return `Hint: ${hint.move}${words ? `, ${words}` : ''}${more}`;
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
      : `It is the ${ordinal[state.to_move]} player's turn: wait for their move.`;
  }
  if (state.legal.some((m) => m.cells.includes(cell))) return null;
  const owner = pieces.at(-1).owner;
  if (owner === state.you) return 'That piece has no legal move now: it is blocked, or the rules ask for another move first.';
  if (ordinal[owner]) return `That is the ${ordinal[owner]} player's piece: you move yours.`;
  return 'Nothing can be played there now.';
}
