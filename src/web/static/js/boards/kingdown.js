// kingdown.js - King Down boards: chess pieces as the usual figures, and the five new
// pieces on square badges with emblems of their own so that they are never mistaken
// for chess men: archer (a bow), paladin (a cross), guard (a shield), maester (a star)
// and beast (claw marks). Reads the observation only: pieces by kind name; the square
// marks "frozen", "iced", "haste" and "chain" drawn as rings round the piece; a king's
// title names its army, power and tokens from the counters "army", "power", "tokens".
// A king in check (the mark "check") stands on a red square; a promotion's choices
// are pictured with the same drawings (choiceFace). With armies, beside() says in words
// beside the board which king and power each side has and its tokens left.
import { actionKind } from '../catalog.js';
import { h } from '../dom.js';
import { el, PLAYER_FILL, PLAYER_STROKE, svgRoot } from '../svg.js';
import { actionWords, seatName } from '../words.js';
import { hasMessage, t } from '../i18n.js';
import { CELL, checkered, observationOf, observedSquareBoard } from './square.js';

const FIGURE = { king: '\u265A', queen: '\u265B', rook: '\u265C', bishop: '\u265D', knight: '\u265E', pawn: '\u265F' };
// The counters "army" and "power" hold these indices (docs/API.md); 0: none chosen.
const ARMIES = ['', 'Frost', 'Flame', 'Stratus', 'Mud', 'Spirit', 'Shadow'];
const POWERS = ['', 'Freeze', 'Ice Wall', 'Strike', 'Haste', 'Flight', 'Sacrifice', 'March',
  'Leap', 'Holy Light', 'Mercy', 'Death Touch', 'Darkness'];
// Marks of a piece's state in the turn, and how each is drawn round it.
const RINGS = {
  frozen: { stroke: '#3b7dd8', dash: '5 3' },
  iced: { stroke: '#7fd3e6', dash: '' },
  haste: { stroke: '#d9822b', dash: '' },
  chain: { stroke: '#b8332e', dash: '2 3' },
};

function emblem(kind, cx, cy, ink) {
  const s = { fill: 'none', stroke: ink, 'stroke-width': 3, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
  switch (kind) {
    case 'archer': // a bow with its arrow
      return [el('path', { d: `M${cx - 8} ${cy - 13} Q${cx + 12} ${cy} ${cx - 8} ${cy + 13}`, ...s }),
        el('line', { x1: cx - 8, y1: cy - 13, x2: cx - 8, y2: cy + 13, ...s, 'stroke-width': 1.5 }),
        el('line', { x1: cx - 13, y1: cy, x2: cx + 12, y2: cy, ...s }),
        el('path', { d: `M${cx + 6} ${cy - 5} L${cx + 12} ${cy} L${cx + 6} ${cy + 5}`, ...s })];
    case 'paladin': // a cross
      return [el('path', { d: `M${cx} ${cy - 14} V${cy + 14} M${cx - 10} ${cy - 5} H${cx + 10}`, ...s, 'stroke-width': 4 })];
    case 'guard': // a shield
      return [el('path', { d: `M${cx - 11} ${cy - 12} H${cx + 11} V${cy} Q${cx + 11} ${cy + 10} ${cx} ${cy + 15} Q${cx - 11} ${cy + 10} ${cx - 11} ${cy} Z`, ...s })];
    case 'maester': { // a star
      const pts = Array.from({ length: 10 }, (_, k) => {
        const a = (Math.PI / 5) * k - Math.PI / 2;
        const rr = k % 2 ? 6 : 14;
        return `${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`;
      }).join(' ');
      return [el('polygon', { points: pts, ...s, 'stroke-width': 2.5 })];
    }
    default: // beast: three claw marks
      return [-7, 0, 7].map((d) => el('path', { d: `M${cx + d - 4} ${cy - 12} Q${cx + d + 4} ${cy} ${cx + d - 3} ${cy + 13}`, ...s }));
  }
}

// An army's or a power's name in the page's words: its action kind's label (act.king-down.*).
const kindKey = (name) => name.toLowerCase().replace(/ /g, '-');
const armyWords = (game, army) => actionWords(game, kindKey(ARMIES[army]), ARMIES[army]).label;
const powerWords = (game, power) => actionWords(game, kindKey(POWERS[power]), POWERS[power]).label;

// The title of a piece: its kind (kd.name.KIND), and for a king its army and power once
// chosen.
function title(game, p, counters) {
  const army = counters.army ? counters.army[p.owner] : 0;
  const name = hasMessage(`kd.name.${p.kind}`) ? t(`kd.name.${p.kind}`) : p.kind;
  if (p.kind !== 'king' || !army) return name;
  const power = counters.power[p.owner];
  return t('kd.king-of', { army: armyWords(game, army) })
    + (power ? t('kd.power', { power: powerWords(game, power), count: counters.tokens[p.owner] }) : '');
}

function piece(game, p, terrain, counters, cx, cy) {
  const who = p.owner;
  const g = el('g', { class: `piece p${who}`, 'data-piece': `${who}${p.kind}` }, el('title', {}, title(game, p, counters)));
  if (FIGURE[p.kind]) {
    g.append(el('text', {
      x: cx, y: cy + 2, class: 'label', 'font-size': CELL * 0.74,
      fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 1.6,
    }, FIGURE[p.kind]));
  } else {
    g.append(el('rect', { x: cx - 21, y: cy - 21, width: 42, height: 42, rx: 9, fill: PLAYER_FILL[who], stroke: PLAYER_STROKE[who], 'stroke-width': 2.5 }));
    g.append(...emblem(p.kind, cx, cy, who === 1 ? '#f6efdf' : '#5b4a32'));
  }
  for (const mark of terrain) {
    const ring = RINGS[mark];
    if (!ring) continue;
    g.append(el('circle', {
      cx, cy, r: 26, fill: 'none', stroke: ring.stroke, 'stroke-width': 3, 'stroke-dasharray': ring.dash, class: `ring ${mark}`,
    }, el('title', {}, t(`kd.ring.${mark}`))));
  }
  return g;
}

export function draw(state, marks) {
  const { counters } = observationOf(state);
  return observedSquareBoard(state, marks, {
    cellClass: (cell, f, r) => `${checkered(f, r)}${cell.terrain.includes('check') ? ' check' : ''}`,
    piece: (cell, cx, cy) => (cell.pieces.length ? piece(state.game, cell.pieces[0], cell.terrain, counters, cx, cy) : null),
  });
}

// The title of the chooser when its moves are all pictured: promotions.
export const choiceTitle = () => t('kd.promote');

// A promotion among the chooser's moves as a picture of the piece it makes and its
// name ({picture, label}); null for other moves. The server names the piece in the
// action's args ("pawn": the promotion declined).
export function choiceFace(state, move) {
  const kind = move.args && move.args.promote;
  if (!kind || state.you === null || state.you === undefined) return null;
  const svg = svgRoot(CELL, CELL, kind);
  svg.classList.add('choice-picture');
  svg.setAttribute('aria-hidden', 'true');
  svg.append(piece(state.game, { kind, owner: state.you }, [], {}, CELL / 2, CELL / 2));
  return { picture: svg, label: hasMessage(`kd.piece.${kind}`) ? t(`kd.piece.${kind}`) : kind };
}

// Each side's king, power and tokens left, as a list beside the board, once a king is
// chosen (armies on); null otherwise. The power's help is the game's own (its action
// kind, GET /api/games), so that a phone shows what a title would only on hover.
export function beside(state) {
  const { counters } = observationOf(state);
  if (!counters.army || !counters.army.some((a) => a)) return null;
  return h('ul', { class: 'sides' }, ...counters.army.map((army, seat) => {
    const power = counters.power[seat];
    const tokens = counters.tokens[seat];
    const help = power ? actionKind(state.game, kindKey(POWERS[power])) : null;
    return h('li', { class: `side p${seat}`, 'data-seat': seat },
      h('span', { class: 'swatch' }), ' ',
      h('strong', {}, `${seat === state.you ? t('seat.you', { seat: seatName(state.game, seat) }) : seatName(state.game, seat)}:`), ' ',
      army ? t('kd.king-of', { army: armyWords(state.game, army) }) : t('kd.no-king'),
      power ? t('kd.power', { power: powerWords(state.game, power), count: tokens }) : (army ? t('kd.no-power') : ''),
      help ? h('span', { class: 'side-help' }, ` (${actionWords(state.game, help.key, help.label, help.help).help.replace(/^power: /, '')})`) : null);
  }));
}
