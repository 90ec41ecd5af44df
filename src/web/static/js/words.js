// words.js - what the page says to players in their words rather than the engine's:
// the games' names ("King's Valley", not kings-valley), the AI levels' names, a hint
// (a move and a win chance, or a solved game's exact result) and why a clicked piece
// cannot move, the seats' names and an action in a move list. One table each, here, so
// every page says it the same way.
import { actionKind, gameInfo } from './catalog.js';
import { seatWords } from './dom.js';
import { hasMessage, t } from './i18n.js';
import { serverWords as hintWords } from './serverwords.js';

// The games' names as players know them ("King's Valley", not kings-valley), from the
// games' own records (catalog.js).
export function gameName(game) {
  if (hasMessage(`name.${game}`)) return t(`name.${game}`);
  const info = gameInfo(game);
  return info ? info.title : game;
}

// A game's summary in the page's language, else the server's (GET /api/games).
export const gameSummary = (game, said) => (hasMessage(`summary.${game}`) ? t(`summary.${game}`) : said);

// A seat's name as the game has it ("White"), else "first player"; `short` leaves the
// ordinal alone ("first"), for the move list's narrow column.
export function seatName(game, seat, short = false) {
  const info = gameInfo(game);
  const own = info && info.seat_names && info.seat_names[seat];
  if (own) return hasMessage(`seatname.${own}`) ? t(`seatname.${own}`) : own;
  return seatWords(seat, short);
}

// A special action's label and help (the game's own words, GET /api/games) in the page's
// language: the messages act.FAMILY.KIND and act.FAMILY.KIND.help where the catalogue
// has them (a kind's key means one thing within a family of games).
export function actionWords(game, kind, label, help) {
  const info = gameInfo(game);
  const key = info && kind ? `act.${info.family}.${kind}` : null;
  return {
    label: key && hasMessage(key) ? t(key) : label,
    help: key && hasMessage(`${key}.help`) ? t(`${key}.help`) : help,
  };
}

// An action of the state's moves ({text, read, kind}) as a move list shows it: the text
// players read (King Down's SAN) and, for a special action, what it does in the game's
// own words (its kind's help, GET /api/games).
export function moveWords(game, m) {
  const kind = m.kind ? actionKind(game, m.kind) : null;
  const said = kind ? actionWords(game, m.kind, kind.label, kind.help) : null;
  // An action read as its kind's label (King Down's "Stratus") is said in the page's words.
  const text = said && m.read === kind.label ? said.label : m.read ?? m.text ?? t('move.hidden');
  return { text, help: said ? said.help : null };
}

// The AI's ten levels (crown's `ai:1` to `ai:10`, docs/STRENGTH.md) in five steps of
// two, so that a player picks by name: 1-2 Beginner, 3-4 Casual, 5-6 Club, 7-8 Strong,
// 9-10 Master (10 the strongest; with a solved table, perfect play).
const LEVEL_NAMES = ['beginner', 'beginner', 'casual', 'casual', 'club', 'club', 'strong', 'strong', 'master', 'master'];

export function levelName(level) {
  const n = Number(level);
  return LEVEL_NAMES[n - 1] ? `${t(`level.${LEVEL_NAMES[n - 1]}`)} (${n})` : t('level.other', { level });
}

// A solved table's value ("win in 9", "loss in 4", "draw") for the player to move.
function exactWords(value) {
  const m = /^(win|loss) in (\d+)$/.exec(value);
  if (!m) return value === 'draw' ? t('hint.exact-draw') : value;
  return t(m[1] === 'win' ? 'hint.exact-win' : 'hint.exact-loss', { count: Number(m[2]) });
}

// A hint answer (docs/API.md) as one sentence: "Hint: a1-d4, about 53% to win"; `told`,
// the hinted whole turn in words where the game's drawer tells it ("two pieces from d4:
// one to d6, one to d5"), replaces the move's text.
export function hintText(hint, told = null) {
  const exact = hint.values && hint.values.find((v) => v.move === hint.move);
  const words = exact ? exactWords(exact.value) : hint.words;
  const move = told ?? hint.read ?? hint.move;
  const said = words ? t('hint.with-words', { move, words: hintWords(words) }) : t('hint.move', { move });
  return hint.values ? t('hint.with-values', { hint: said }) : said;
}

// Why a click on `cell` plays nothing: the game is over, it is not the player's turn,
// the piece is another player's, or it has no legal move now. null for an empty cell
// or one that has something to play.
export function whyNot(state, cell, ordinal) {
  const obs = state.observation;
  const here = obs && obs.cells ? obs.cells.find((c) => c.name === cell) : null;
  const pieces = here ? here.pieces : [];
  if (!pieces.length) return null;
  if (state.status === 'over') return t('why.over');
  if (state.you === null || state.you === undefined) return t('why.watching');
  if (state.to_move !== state.you) {
    return state.to_move === null ? t('why.chance') : t('why.their-turn', { seat: seatName(state.game, state.to_move) });
  }
  if (state.legal.some((m) => m.cells.includes(cell))) return null;
  const owner = pieces.at(-1).owner;
  // A king in check stands on a cell marked "check" (King Down's observation).
  const checked = obs.cells.some((c) => c.terrain.includes('check') && c.pieces.some((p) => p.owner === state.you));
  if (owner === state.you && checked) return t('why.check');
  if (owner === state.you) return t('why.blocked');
  if (ordinal[owner]) return t('why.their-piece', { seat: seatName(state.game, owner) });
  return t('why.nothing');
}
