// kingofthevalley.js - the King of the Valley table: the 5x5 valley of tiles (each
// character in its own colour with its letter, name and influence or gold, priests'
// coins, the kings as crowns), the hill's two columns with the row prices, every
// player's castle (tiles grouped by column and kind, face down apart, jesters, tax and
// kingdom tokens) and gold, the round, phase and player to act, and the piles.
// Everything comes from the state's structured observation (docs/API.md; the game's
// schema is described in src/games/kingofthevalley/kotv_observe.c): prices, supplies and
// influences are the configured game's, never assumed.
// Valley squares carry data-cell (king placement and summon legs are clicked there);
// hill slots, hill columns and the castle columns of the player to act carry
// data-moves, the texts of the legal actions clicking them plays. While a tax or a
// kingdom waits, the face-up tiles it may turn down are clicked one by one to choose
// them (pickTile); while a wizard swap waits, a castle tile is tapped and then a hill
// tile (giveTile). On a phone (narrow) the parts stand one under the other, so that
// the tiles keep a readable size.
import { crown, el, markClasses, PLAYER_FILL, PLAYER_INK, PLAYER_STROKE, svgRoot } from '../svg.js';

const W = 1000;
const TILE = 62; // a valley tile; squares are TILE + GAP apart
const GAP = 6;
const VX = 44; // the valley's top left corner
const VY = 54;
const HT = 50; // a hill tile
const HX = 424; // the hill's left column
const HPITCH = 57;
const INFO_X = 618;
const COLUMNS = ['Q', 'D', 'C', 'N', 'F', 'W'];
// Observation piece kinds and the tile codes of the notation.
const KIND_CODES = {
  queen: 'Q', duke: 'D', countess: 'C', 'knight-a': 'NA', 'knight-b': 'NB', 'knight-c': 'NC',
  'knight-d': 'ND', farmer: 'F', wife: 'W', jester: 'J', priest: 'P', wizard: 'Z',
};

// Per character: name and colours; subjects have an influence (from the observation).
// Specialists (priest, wizard, tax collector) have the grey border the printed tiles have.
const CHARS = {
  Q: { name: 'queen', subject: true, fill: '#7d3c98', ink: '#fff' },
  D: { name: 'duke', subject: true, fill: '#1f5fa8', ink: '#fff' },
  C: { name: 'countess', subject: true, fill: '#c2477f', ink: '#fff' },
  N: { name: 'knight', subject: true, fill: '#566573', ink: '#fff' },
  F: { name: 'farmer', subject: true, fill: '#5d8a2a', ink: '#fff' },
  W: { name: 'wife', subject: true, fill: '#d68a2e', ink: '#fff' },
  J: { name: 'jester', subject: true, fill: '#f1c40f', ink: '#3b2f05' },
  P: { name: 'priest', fill: '#f4f1ea', ink: '#3d3d3d', special: true },
  Z: { name: 'wizard', fill: '#e8e2f4', ink: '#3d2b6b', special: true },
  T: { name: 'tax', fill: '#f3ead2', ink: '#7a5a0c', special: true },
};
const ORDER_FILL = { A: '#c0392b', B: '#2471a3', C: '#229954', D: '#b7950b' };
const PHASES = {
  place: 'Set-up: place the king',
  recruit: 'Phase 1: recruit from the hill',
  summon: 'Phase 2: summon from the valley',
  kingdom: 'Phase 3: kingdom bonus',
  refill: 'Phase 4: replenish the valley',
  draw: 'Phase 4: the hill is refilled',
  over: 'The game is over',
};

const squareName = (f, r) => String.fromCharCode(97 + f) + (r + 1);

// What a tile code says: character letter, knight order, tax need and gold, and for a
// subject its influence from `influence` (code -> value, the configured table).
export function tileInfo(code, influence) {
  const t = code.match(/^T(\d+):(\d+)$/);
  if (t) return { ch: 'T', need: Number(t[1]), gold: Number(t[2]), ...CHARS.T };
  const ch = code[0];
  const info = CHARS[ch];
  if (!info) throw new Error(`unknown tile '${code}'`);
  const tile = { ch, order: ch === 'N' ? code[1] : undefined, ...info };
  if (info.subject && influence && influence[code] !== undefined) tile.inf = influence[code];
  return tile;
}

// The tile code of an observed piece: a tax collector's value is need * 100 + gold.
function codeOf(piece) {
  const v = piece.value ?? 0;
  if (piece.kind === 'tax-collector') return `T${Math.floor(v / 100)}:${v % 100}`;
  const code = KIND_CODES[piece.kind];
  if (!code) throw new Error(`unknown piece '${piece.kind}'`);
  return code;
}

// [code, code, 'T3:5'] -> [{code, n}], in first-seen order.
function grouped(codes) {
  const out = [];
  for (const code of codes) {
    const g = out.find((x) => x.code === code);
    if (g) g.n++;
    else out.push({ code, n: 1 });
  }
  return out;
}

// The table as the state's observation describes it (src/games/kingofthevalley/
// kotv_observe.c): valley squares, hill slots, each castle's tiles by kind with counts,
// the counters and lists.
export function parse(state) {
  const obs = state.observation;
  if (!obs) throw new Error('king-of-the-valley: the server sent no observation');
  const zoneIndex = (name) => obs.zones.findIndex((z) => z.name === name);
  const valleyZone = zoneIndex('valley');
  const hillZone = zoneIndex('hill');
  const castleOf = new Map();
  obs.zones.forEach((z, i) => { if (z.name.startsWith('castle-')) castleOf.set(i, Number(z.name.slice(7)) - 1); });
  const n = castleOf.size;
  const ct = obs.counters;
  const players = Array.from({ length: n }, (_, p) => ({
    king: null,
    gold: ct.gold[p],
    crowns: ct.kingdom[p],
    reputation: ct.reputation[p],
    influence: ct.influence[p],
    orders: ct.orders[p],
    couples: ct.couples[p],
    taxed: '',
    up: [],
    down: [],
  }));
  const valley = new Map();
  const holes = [];
  const hill = [[], []];
  for (const c of obs.cells) {
    if (c.zone === valleyZone) {
      const tile = c.pieces.find((x) => x.kind !== 'king' && x.kind !== 'coin');
      const coins = c.pieces.find((x) => x.kind === 'coin');
      valley.set(c.name, { code: tile ? codeOf(tile) : null, coins: coins ? coins.value : 0 });
      for (const x of c.pieces) if (x.kind === 'king') players[x.owner].king = c.name;
      if (c.terrain.includes('hole')) holes.push(c.name);
    } else if (c.zone === hillZone) {
      if (c.pieces.length) hill[c.col][c.row] = codeOf(c.pieces[0]);
    } else if (castleOf.has(c.zone)) {
      const pl = players[castleOf.get(c.zone)];
      const col = COLUMNS[c.col];
      if (c.row === 0 && c.terrain.includes('taxed')) pl.taxed += col;
      for (const x of c.pieces) {
        (c.row === 0 ? pl.up : pl.down).push({ code: x.kind === 'jester' ? `J${col}` : codeOf(x), n: x.value });
      }
    }
  }
  const tokens = ct['kingdom-tokens'];
  return {
    n,
    first: ct.first,
    turn: typeof obs.to_move === 'number' ? obs.to_move : -1,
    round: ct.round,
    phase: obs.named.phase,
    end: ct.end === 1,
    valley,
    hill,
    piles: [ct['pile-1'], ct['pile-2'], ct['pile-3']],
    players,
    holes,
    pending: grouped(obs.lists.pending.map(codeOf)),
    prices: obs.lists.prices.map((x) => x.value ?? 0),
    tokensLeft: tokens < 0 ? null : [tokens, ct['tax-tokens']],
    influence: Object.fromEntries(obs.lists.influence.map((x) => [codeOf(x), x.value ?? 0])),
  };
}

const text = (x, y, s, attrs = {}) => el('text', { x, y, class: 'label', ...attrs }, String(s));

// A tile face at (x, y), s wide: colour and letter of its character, its name, its
// influence (a shield) or, for a tax collector, its need and gold.
function tileFace(code, x, y, s, influence) {
  const t = tileInfo(code, influence);
  const k = s / TILE;
  const g = el('g', { class: `tile ch-${t.ch}`, 'data-tile': code });
  g.append(el('rect', {
    x: x + 1, y: y + 1, width: s - 2, height: s - 2, rx: 7 * k, fill: t.fill,
    stroke: t.special ? '#8c8c8c' : '#00000055', 'stroke-width': t.special ? 4 * k : 1.5,
  }));
  if (t.order) {
    g.append(el('rect', { x: x + 5 * k, y: y + 5 * k, width: s - 10 * k, height: 6 * k, rx: 3 * k, fill: ORDER_FILL[t.order] || '#999' }));
  }
  const letter = t.ch === 'N' ? `N${t.order || ''}` : t.ch;
  g.append(text(x + s / 2, y + s * 0.34, letter, { 'font-size': 22 * k, 'font-weight': 700, fill: t.ink }));
  const sub = t.ch === 'T' ? (t.need ? `${t.need} alike` : 'no need') : t.ch === 'N' ? `knight ${t.order || ''}` : t.name;
  // The name on a line of its own above the shield and the coin, so that neither hides
  // a letter of it ("countess", not "untess", on a phone too).
  g.append(text(x + s / 2, y + s * 0.58, sub, { class: 'label kotv-name', 'font-size': 9.5 * k, fill: t.ink }));
  if (t.inf !== undefined) {
    // The shield with the influence, bottom left as on the printed tiles.
    const sx = x + 10 * k;
    const sy = y + s - 10 * k;
    const r = 6.5 * k;
    g.append(el('path', {
      d: `M${sx - r},${sy - r} h${2 * r} v${r} q0,${r} ${-r},${1.4 * r} q${-r},${-0.4 * r} ${-r},${-1.4 * r} z`,
      class: 'kotv-shield', fill: '#fff', stroke: '#00000088', 'stroke-width': 1,
    }));
    g.append(text(sx, sy + 0.1 * r, t.inf, { 'font-size': 10 * k, 'font-weight': 700, fill: '#222' }));
  } else if (t.ch === 'T') {
    g.append(coin(x + s - 10 * k, y + s - 10 * k, 7.5 * k, `${t.gold}`));
  }
  g.append(el('title', {}, describe(code, influence)));
  return g;
}

function describe(code, influence) {
  const t = tileInfo(code, influence);
  if (t.ch === 'T') return `tax collector: ${t.gold} gold${t.need ? ` for ${t.need} identical subjects` : ', no need'}`;
  const inf = t.inf === undefined ? '' : `, influence ${t.inf}`;
  if (t.ch === 'N') return `knight of order ${t.order}${inf}`;
  if (t.special) return t.ch === 'P' ? 'priest: pay 1 gold, change direction' : 'wizard: swap a castle subject with the hill';
  return `${t.name}${inf}`;
}

function coin(cx, cy, r, label) {
  return el('g', { class: 'coin' },
    el('circle', { cx, cy, r, fill: '#f0c419', stroke: '#8a6d1a', 'stroke-width': 1.5 }),
    text(cx, cy + 0.5, label, { 'font-size': r * 1.15, 'font-weight': 700, fill: '#4a3a08' }));
}

function king(p, cx, cy, r) {
  return el('g', { class: `piece king p${p}`, 'data-king': p },
    el('circle', { cx, cy, r, fill: PLAYER_FILL[p], stroke: PLAYER_STROKE[p], 'stroke-width': 2 }),
    crown(cx, cy + 1, r * 1.25, PLAYER_INK[p], 'none'));
}

// The legal actions of the viewer that satisfy pred (given each action: its kind and
// args say what it does), only when it is the viewer's turn (a game with perfect
// information lists them to everybody); offers() gives their texts.
function offerMoves(state, pred) {
  const mine = state.you !== null && state.you !== undefined && state.to_move === state.you && state.status === 'playing';
  return mine ? (state.legal || []).filter((m) => m.args && pred(m)) : [];
}
const offers = (state, pred) => offerMoves(state, pred).map((m) => m.text);

function offerAttrs(texts) {
  return texts.length ? { 'data-moves': texts.join('|'), class: 'offer' } : {};
}

function drawValley(svg, model, marks) {
  const xOf = (f) => VX + f * (TILE + GAP);
  const yOf = (r) => VY + (4 - r) * (TILE + GAP);
  svg.append(el('rect', { x: VX - 10, y: VY - 10, width: 5 * (TILE + GAP) + 14, height: 5 * (TILE + GAP) + 14, rx: 10, class: 'kotv-valley' }));
  svg.append(text(VX + 2.5 * (TILE + GAP) - GAP / 2, 22, 'The valley', { class: 'label kotv-title' }));
  const kingsAt = new Map();
  model.players.forEach((p, i) => { if (p.king) kingsAt.set(p.king, [...(kingsAt.get(p.king) || []), i]); });
  for (let r = 0; r < 5; r++) {
    for (let f = 0; f < 5; f++) {
      const name = squareName(f, r);
      const sq = model.valley.get(name);
      const x = xOf(f);
      const y = yOf(r);
      const hole = model.holes.includes(name);
      const g = el('g', { class: `cell kotv-sq ${markClasses(name, marks)}${hole ? ' hole' : ''}`, 'data-cell': name, 'data-tile': sq.code || '' });
      g.append(el('rect', { x, y, width: TILE, height: TILE, rx: 8, class: 'ground' }));
      if (sq.code) g.append(tileFace(sq.code, x, y, TILE, model.influence));
      else g.append(text(x + TILE / 2, y + TILE / 2, 'empty', { 'font-size': 10, fill: '#00000066' }));
      if (sq.coins) g.append(coin(x + TILE - 10, y + TILE - 10, 8, `${sq.coins}`));
      const kings = kingsAt.get(name) || [];
      kings.forEach((p, k) => g.append(king(p, x + TILE - 12 - k * 16, y + 13, 11)));
      g.append(el('rect', { x: x - 1, y: y - 1, width: TILE + 2, height: TILE + 2, rx: 9, class: 'mark' }));
      // Below the tile's name, where it hides nothing of the tile.
      if (marks.targets.has(name)) g.append(el('circle', { cx: x + TILE / 2, cy: y + TILE - 8, r: 6, class: 'dot' }));
      svg.append(g);
    }
  }
  for (let f = 0; f < 5; f++) svg.append(text(xOf(f) + TILE / 2, VY + 5 * (TILE + GAP) + 10, String.fromCharCode(97 + f), { class: 'label kotv-coord' }));
  for (let r = 0; r < 5; r++) svg.append(text(VX - 24, yOf(r) + TILE / 2, String(r + 1), { class: 'label kotv-coord' }));
}

function drawHill(svg, model, state) {
  const priceX = HX + HT + 28;
  const rightX = HX + HT + 56;
  svg.append(text(priceX, 22, 'The hill', { class: 'label kotv-title' }));
  const top = VY;
  svg.append(el('path', {
    d: `M${HX - 10},${top + 6 * HPITCH + 6} L${HX + 8},${top - 12} L${rightX + HT - 8},${top - 12} L${rightX + HT + 10},${top + 6 * HPITCH + 6} Z`,
    class: 'kotv-hill',
  }));
  for (let row = 5; row >= 0; row--) {
    const y = top + (5 - row) * HPITCH;
    svg.append(coin(priceX, y + HT / 2, 13, `${model.prices[row]}`));
    [0, 1].forEach((c) => {
      const slot = `${c ? 'R' : 'L'}${row + 1}`;
      const code = model.hill[c][row];
      const x = c ? rightX : HX;
      const texts = offers(state, (m) => (m.kind === 'recruit' || m.kind === 'swap') && m.args.slot === slot);
      const a = offerAttrs(texts);
      const g = el('g', { 'data-slot': slot, 'data-tile': code || '', ...a, class: `kotv-slot ${a.class || ''}` });
      g.append(el('rect', { x, y, width: HT, height: HT, rx: 6, class: 'ground' }));
      if (code) g.append(tileFace(code, x, y, HT, model.influence));
      g.append(el('rect', { x: x - 2, y: y - 2, width: HT + 4, height: HT + 4, rx: 8, class: 'mark' }));
      svg.append(g);
    });
  }
  // The column letters under the hill: where a refill is chosen.
  const y = top + 6 * HPITCH + 8;
  [0, 1].forEach((c) => {
    const col = c ? 'R' : 'L';
    const a = offerAttrs(offers(state, (m) => m.kind === 'refill' && m.args.column === col));
    const x = c ? rightX : HX;
    svg.append(el('g', { 'data-hill-column': col, ...a, class: `kotv-slot kotv-col ${a.class || ''}` },
      el('rect', { x, y, width: HT, height: 22, rx: 5, class: 'ground' }),
      el('rect', { x: x - 2, y: y - 2, width: HT + 4, height: 26, rx: 6, class: 'mark' }),
      text(x + HT / 2, y + 11, c ? 'right' : 'left', { 'font-size': 12, fill: '#f3e6cc' })));
  });
  svg.append(text(priceX, y + 11, 'gold', { 'font-size': 11, fill: '#f3e6cc' }));
}

function pileIcon(x, y, label, count) {
  const g = el('g', { class: 'kotv-pile', 'data-pile': label, 'data-count': count });
  for (let i = 2; i >= 0; i--) g.append(el('rect', { x: x + i * 3, y: y - i * 3, width: 34, height: 34, rx: 4, fill: count ? '#6b4f36' : '#6b4f3640', stroke: '#3a2a1c', 'stroke-width': 1 }));
  g.append(text(x + 17, y + 17, label, { 'font-size': 13, 'font-weight': 700, fill: '#f3e6cc' }));
  g.append(text(x + 17, y + 48, `${count}`, { 'font-size': 12, fill: '#2b2522' }));
  return g;
}

function drawInfo(svg, model, state) {
  const x = INFO_X;
  let y = 22;
  const line = (s, attrs = {}) => { svg.append(text(x, y, s, { class: 'label kotv-info', ...attrs })); y += 21; };
  const round = model.phase === 'place' ? 'Set-up' : `Round ${model.round}${model.end ? ' (the last)' : ''}`;
  line(round, { 'font-weight': 700, 'font-size': 17 });
  line(PHASES[model.phase] || model.phase, { class: 'label kotv-info kotv-phase', 'data-phase': model.phase });
  if (model.phase !== 'over' && model.phase !== 'draw') {
    const p = model.turn;
    svg.append(king(p, x + 10, y - 1, 10));
    svg.append(text(x + 26, y, `Player ${p + 1}${p === state.you ? ' (you)' : ''} to act`, { class: 'label kotv-info kotv-turn', 'data-turn': p }));
    y += 23;
  }
  if (model.pending.length) {
    const what = model.pending.map(({ code, n }) => `${n > 1 ? `${n} ` : ''}${code === 'J' ? 'jester' : code === 'Z' ? 'wizard swap' : `tax ${code}`}${n > 1 ? 's' : ''}`);
    line(`To resolve: ${what.join(', ')}`, { class: 'label kotv-info kotv-pending' });
  }
  y += 4;
  line('Piles (face down)', { 'font-weight': 700 });
  ['I', 'II', 'III'].forEach((label, i) => {
    const count = model.piles[i];
    svg.append(pileIcon(x + i * 58, y - 8, label, count));
  });
  y += 62;
  if (model.tokensLeft) {
    line(`Supply: ${model.tokensLeft[0]} kingdom, ${model.tokensLeft[1]} tax tokens`);
  }
  y += 6;
  line('Tiles', { 'font-weight': 700 });
  const legend = ['Q', 'D', 'C', 'NA', 'F', 'W', 'J', 'P', 'Z', 'T3:5'];
  legend.forEach((code, i) => {
    const lx = x + (i % 5) * 72;
    const ly = y - 10 + Math.floor(i / 5) * 46;
    svg.append(tileFace(code, lx, ly, 40, model.influence));
  });
  y += 96;
  svg.append(text(x, y, 'Shield: influence. Grey border: specialist.', { class: 'label kotv-info', 'font-size': 11 }));
}

// A tax or kingdom action: the castle columns it turns tiles face down in and the tiles
// it names where a column's face-up tiles differ (its args: "names": "NA,NB,JN").
function turnDown(m) {
  if (m.kind !== 'tax' && m.kind !== 'kingdom') return null;
  const col = m.args.column;
  return { columns: m.kind === 'tax' ? [col] : ['Q', 'D', 'C', 'N', col], names: m.args.names ? m.args.names.split(',') : [] };
}

const columnOf = (name) => (name[0] === 'J' && name.length === 2 ? name[1] : name[0]);

// Whether an action turns down every picked tile: a named one as often as it is picked;
// any tile of a column where it names none (its face-up tiles are alike there).
function covers(td, picks) {
  const left = [...td.names];
  for (const pick of picks) {
    const col = columnOf(pick);
    if (!td.columns.includes(col)) return false;
    if (!td.names.some((n) => columnOf(n) === col)) continue;
    const i = left.indexOf(pick);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

// A click on a face-up tile of the castle while a tax or kingdom waits: the tile joins
// the picks (kept on the drawing, data-picks). Once one offered action alone turns down
// every pick, the tile carries that action (data-moves) and the click goes on to the
// page, which plays it; until then the click stops here. A tile no action fits with the
// earlier picks starts the picks afresh.
function pickTile(e, svg, choices, code) {
  let picks = [...(svg.dataset.picks ? svg.dataset.picks.split(',') : []), code];
  let fit = choices.filter((m) => covers(turnDown(m), picks));
  if (!fit.length) {
    picks = [code];
    fit = choices.filter((m) => covers(turnDown(m), picks));
  }
  const tile = e.currentTarget;
  if (fit.length === 1) {
    tile.setAttribute('data-moves', fit[0].text);
    delete svg.dataset.picks;
    return;
  }
  e.stopPropagation();
  tile.removeAttribute('data-moves');
  svg.dataset.picks = fit.length ? picks.join(',') : '';
  for (const c of svg.querySelectorAll('.kotv-pick')) {
    const n = fit.length ? picks.filter((x) => x === c.dataset.tile).length : 0;
    if (n) c.setAttribute('data-picked', n);
    else c.removeAttribute('data-picked');
  }
}

// One chip of a castle column: a kind, face up or down, and how many.
function chip(x, y, w, code, n, down, influence) {
  const jesterIn = code.length === 2 && code[0] === 'J' ? code[1] : null;
  const t = tileInfo(jesterIn ? 'J' : code, influence);
  const g = el('g', { class: `kotv-chip${down ? ' down' : ''}`, 'data-tile': code, 'data-face': down ? 'down' : 'up', 'data-count': n });
  g.append(el('rect', { x, y, width: w, height: 20, rx: 4, fill: down ? '#4a423b' : t.fill, stroke: down ? '#00000088' : '#00000044', 'stroke-dasharray': down ? '3 2' : null }));
  if (t.order) g.append(el('rect', { x: x + 2, y: y + 2, width: 5, height: 16, rx: 2, fill: ORDER_FILL[t.order] }));
  const label = jesterIn ? 'jester' : t.ch === 'N' ? `N${t.order}` : t.ch;
  g.append(text(x + w / 2 - 6, y + 10.5, label, { 'font-size': 11, 'font-weight': 700, fill: down ? '#d5cabc' : t.ink }));
  g.append(text(x + w - 12, y + 10.5, `${n}`, { 'font-size': 11, fill: down ? '#d5cabc' : t.ink }));
  g.append(el('title', {}, `${n} ${jesterIn ? `jester${n > 1 ? 's' : ''} in the ${CHARS[jesterIn].name} column` : describe(code, influence)}, face ${down ? 'down' : 'up'}`));
  return g;
}

// The chips of column c: real subjects face up, jesters placed there face up, then the
// same face down.
function columnChips(player, c) {
  const inColumn = (code) => (code.length === 2 && code[0] === 'J' ? code[1] === c : code[0] === c);
  const chips = [];
  for (const [tiles, down] of [[player.up, false], [player.down, true]]) {
    for (const { code, n } of tiles) if (inColumn(code) && code[0] !== 'J') chips.push({ code, n, down });
    for (const { code, n } of tiles) if (inColumn(code) && code[0] === 'J') chips.push({ code, n, down });
  }
  return chips;
}

function castleHeight(model) {
  let most = 1;
  for (const p of model.players) for (const c of COLUMNS) most = Math.max(most, columnChips(p, c).length);
  return 78 + most * 23;
}

function drawCastle(svg, model, state, p, x, y, w, h, narrow) {
  const pl = model.players[p];
  // Narrow: gold and kingdom tokens on a line of their own under the name.
  const hx = narrow ? x + 36 + 178 - w : x;
  const hy = narrow ? y + 20 : y;
  const top = narrow ? 40 : 0;
  const active = model.phase !== 'over' && model.phase !== 'draw' && model.turn === p;
  const g = el('g', { class: `kotv-castle p${p}${active ? ' active' : ''}`, 'data-castle': p });
  g.append(el('rect', { x, y, width: w, height: h, rx: 10, class: 'kotv-castle-bg' }));
  g.append(king(p, x + 18, y + 18, 11));
  const who = `Player ${p + 1}${p === state.you ? ' (you)' : ''}${p === model.first ? ', starting player' : ''}`;
  g.append(text(x + 36, y + 18, who, { class: 'label kotv-info', 'font-weight': 700 }));
  g.append(coin(hx + w - 178, hy + 18, 11, `${pl.gold}`));
  g.append(text(hx + w - 163, hy + 18, 'gold', { class: 'label kotv-info', 'font-size': 12 }));
  // Kingdom tokens: a crown and how many.
  g.append(crown(hx + w - 108, hy + 18, 18, '#f0c419', '#8a6d1a'));
  g.append(text(hx + w - 95, hy + 18, `${pl.crowns} kingdom`, { class: 'label kotv-info', 'font-size': 12, 'data-crowns': pl.crowns }));
  if (pl.reputation !== undefined) {
    // The reputation and its parts; the kingdom tokens are what the others leave.
    const kingdom = pl.reputation - pl.influence - pl.orders - pl.couples - pl.gold;
    const parts = [['influence', pl.influence], ['kingdom', kingdom], ['orders', pl.orders], ['couples', pl.couples], ['gold', pl.gold]]
      .filter(([, v]) => v).map(([k, v]) => `${k} ${v}`);
    const sum = parts.length ? `= ${parts.join(' + ')}` : '';
    // Narrow: the parts on a line of their own, so that they stay inside the castle.
    g.append(text(x + 36, y + (narrow ? 20 : 0) + 38, `reputation ${pl.reputation}${sum && !narrow ? ` ${sum}` : ''}`, { class: 'label kotv-info', 'font-size': 12, 'data-reputation': pl.reputation }));
    if (sum && narrow) g.append(text(x + 36, y + 74, sum, { class: 'label kotv-info', 'font-size': 12 }));
  }
  const cw = (w - 20) / 6;
  const choices = p === model.turn ? offerMoves(state, (m) => turnDown(m) !== null) : [];
  const gives = p === model.turn ? offerMoves(state, (m) => m.kind === 'swap') : [];
  y += top;
  h -= top;
  COLUMNS.forEach((c, i) => {
    const cx = x + 10 + i * cw;
    // The column offers what names it: a jester placed there, a tax of it, a kingdom
    // with its farmer or wife (several: the page asks which).
    const texts = p === model.turn ? offers(state, (m) => ['jester', 'tax', 'kingdom'].includes(m.kind) && m.args.column === c) : [];
    const a = offerAttrs(texts);
    const col = el('g', { 'data-column': c, ...a, class: `kotv-column ${a.class || ''}` });
    col.append(el('rect', { x: cx + 1, y: y + 50, width: cw - 2, height: h - 56, rx: 6, class: 'ground' }));
    col.append(el('rect', { x: cx - 1, y: y + 48, width: cw + 2, height: h - 52, rx: 7, class: 'mark' }));
    const taxed = pl.taxed.includes(c);
    col.append(text(cx + cw / 2 - (taxed ? 8 : 0), y + 62, `${c} ${CHARS[c].name}`, { 'font-size': 11, 'font-weight': 700, fill: CHARS[c].fill }));
    if (taxed) {
      // A tax token: this column can never be taxed again by this player.
      col.append(el('g', { class: 'kotv-taxed', 'data-taxed': c },
        el('circle', { cx: cx + cw - 9, cy: y + 62, r: 7, fill: '#7a5a0c' }),
        text(cx + cw - 9, y + 62.5, 'T', { 'font-size': 9, 'font-weight': 700, fill: '#fff' })));
    }
    columnChips(pl, c).forEach((ch, k) => {
      const g2 = chip(cx + 4, y + 74 + k * 23, cw - 8, ch.code, ch.n, ch.down, model.influence);
      // Face-up tiles that a waiting tax or kingdom may turn down are picked by clicking.
      const fits = ch.down ? [] : choices.filter((m) => covers(turnDown(m), [ch.code]));
      if (fits.length) {
        g2.classList.add('kotv-pick', 'offer');
        g2.addEventListener('click', (e) => pickTile(e, svg, choices, ch.code));
      }
      if (!ch.down && gives.some((m) => m.args.give === ch.code)) {
        g2.classList.add('kotv-pick', 'kotv-give', 'offer');
        g2.addEventListener('click', (e) => giveTile(e, svg, gives, ch.code));
      }
      col.append(g2);
    });
    g.append(col);
  });
  svg.append(g);
}

// A click on a castle tile the waiting wizard swap may give: it is marked, and the hill
// slots then offer only the swaps that give it, so the hill tile tapped next plays one.
// A second click on it lets go.
function giveTile(e, svg, gives, code) {
  e.stopPropagation();
  const swaps = new Set(gives.map((m) => m.text));
  const giving = new Set(gives.filter((m) => m.args.give === code).map((m) => m.text));
  const again = svg.dataset.give === code;
  if (again) delete svg.dataset.give;
  else svg.dataset.give = code;
  for (const c of svg.querySelectorAll('.kotv-give')) {
    if (!again && c === e.currentTarget) c.setAttribute('data-picked', 1);
    else c.removeAttribute('data-picked');
  }
  for (const slot of svg.querySelectorAll('[data-slot]')) {
    const all = slot.dataset.offers ?? slot.getAttribute('data-moves') ?? '';
    slot.dataset.offers = all;
    const kept = again ? all : all.split('|').filter((t) => !swaps.has(t) || giving.has(t)).join('|');
    if (kept) slot.setAttribute('data-moves', kept);
    else slot.removeAttribute('data-moves');
  }
}

// Phones: the valley, then the hill, the panel and each castle one under the other,
// NARROW units wide, so that a 390 px screen shows them at nearly full size.
const NARROW = 420;
// The position editor changes this table's fields by clicks (kotvedit.js), not ranks.
export const editTable = true;

const narrowScreen = () => typeof matchMedia === 'function' && matchMedia('(max-width: 600px)').matches;

export function draw(state, marks) {
  const model = parse(state);
  const top = VY + 6 * HPITCH + 48;
  const narrow = narrowScreen();
  const ch = castleHeight(model) + (narrow ? 40 : 0);
  const rows = narrow ? model.n : Math.ceil(model.n / 2);
  // Narrow: the hill under the valley, the panel under the hill, then the castles.
  const hillY = VY + 5 * (TILE + GAP) + 24;
  const infoY = hillY + top - 10;
  const infoH = narrow ? 350 : top - 14;
  const castleY = narrow ? infoY + infoH + 12 : top;
  const width = narrow ? NARROW : W;
  const H = castleY + rows * (ch + 12) + 8;
  const svg = svgRoot(width, H, 'king-of-the-valley table');
  svg.classList.add('kotv');
  if (narrow) svg.classList.add('narrow');
  svg.append(el('rect', { x: 0, y: 0, width, height: H, class: 'frame', rx: 8 }));
  const hill = narrow ? el('g', { transform: `translate(${20 - (HX - 10)} ${hillY})` }) : svg;
  const info = narrow ? el('g', { transform: `translate(${24 - INFO_X} ${infoY})` }) : svg;
  info.append(el('rect', { x: INFO_X - 14, y: 4, width: W - INFO_X + 8, height: infoH, rx: 8, class: 'kotv-panel' }));
  drawValley(svg, model, marks);
  drawHill(hill, model, state);
  drawInfo(info, model, state);
  if (narrow) svg.append(hill, info);
  const cwid = narrow ? width - 20 : (W - 30) / 2;
  for (let p = 0; p < model.n; p++) {
    const x = narrow ? 10 : 10 + (p % 2) * (cwid + 10);
    const y = castleY + (narrow ? p : Math.floor(p / 2)) * (ch + 12);
    drawCastle(svg, model, state, p, x, y, cwid, ch, narrow);
  }
  return svg;
}
