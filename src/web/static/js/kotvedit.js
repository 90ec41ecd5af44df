// kotvedit.js - the position editor's clicks on a King of the Valley table: its
// position text (docs/games/king-of-the-valley.md, "Position text") is name=value
// fields, not ranks, so a click is turned into a change of the fields it touches: a
// tile put on a valley square or a hill slot (taken from the face-down piles while
// they hold one, so the table's count still agrees), a tile added to a player's castle
// column face up or face down, a king put on a square or taken off, one tile removed,
// each player's gold, the phase and the player to act. The game's parser alone decides whether the result is a
// position; nothing here checks it.
import { t } from './i18n.js';

const COLUMNS = ['Q', 'D', 'C', 'N', 'F', 'W'];
// The table's order of tile codes, for the palette; tax collectors last.
const ORDER = ['Q', 'D', 'C', 'NA', 'NB', 'NC', 'ND', 'F', 'W', 'J', 'P', 'Z'];
// Observation piece kinds of the tile codes (src/games/kingofthevalley/kotv_observe.c).
const KINDS = {
  Q: 'queen', D: 'duke', C: 'countess', NA: 'knight-a', NB: 'knight-b', NC: 'knight-c',
  ND: 'knight-d', F: 'farmer', W: 'wife', J: 'jester', P: 'priest', Z: 'wizard',
};

// The text as its fields in order: [[name, value], ...].
const fieldsOf = (text) => text.trim().split(/\s+/).filter(Boolean).map((f) => {
  const i = f.indexOf('=');
  return i < 0 ? [f, null] : [f.slice(0, i), f.slice(i + 1)];
});
const textOf = (fields) => fields.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join(' ');
const get = (fields, name) => (fields.find(([k]) => k === name) || [])[1];
function put(fields, name, value) {
  const f = fields.find(([k]) => k === name);
  if (f) f[1] = value;
  else fields.push([name, value]);
}

// A list field ("Q,2D,JN" or "-") as [{n, code}] and back.
const itemsOf = (v) => (!v || v === '-' ? [] : v.split(',').map((x) => {
  const m = /^(\d*)(.*)$/.exec(x);
  return { n: m[1] ? Number(m[1]) : 1, code: m[2] };
}));
const listText = (items) => items.filter((x) => x.n > 0).map((x) => `${x.n > 1 ? x.n : ''}${x.code}`).join(',') || '-';

// The valley as [rank 5..1][file a..e] of {code, coins}, and back.
function valleyOf(v) {
  return (v || '').split('/').map((rank) => rank.split(',').map((sq) => {
    const [code, coins] = sq.split('+');
    return { code: code === '-' ? null : code, coins: coins ? Number(coins) : 0 };
  }));
}
const valleyText = (rows) => rows.map((r) => r.map((sq) => `${sq.code || '-'}${sq.coins ? `+${sq.coins}` : ''}`).join(',')).join('/');
const squareAt = (rows, name) => {
  const r = rows[5 - Number(name[1])];
  return r ? r[name.charCodeAt(0) - 97] : undefined;
};

const hillOf = (v) => (v || '-/-').split('/').map((c) => (c === '-' ? [] : c.split(',')));
const hillText = (cols) => cols.map((c) => c.join(',') || '-').join('/');

const playersOf = (fields) => Number(get(fields, 'players')) || 2;

// The tiles a position's table holds, by code, in the table's order: every tile on the
// board, in a castle or in a pile of the game's start.
export function tileSet(text) {
  const fields = fieldsOf(text);
  const codes = new Set();
  for (const row of valleyOf(get(fields, 'valley'))) for (const sq of row) if (sq.code) codes.add(sq.code);
  for (const col of hillOf(get(fields, 'hill'))) for (const c of col) codes.add(c);
  for (const [k, v] of fields) {
    if (!/^(pile\d|up\d|down\d)$/.test(k)) continue;
    for (const { code } of itemsOf(v)) codes.add(/^J[QDCNFW]$/.test(code) ? 'J' : code);
  }
  const rank = (c) => (ORDER.includes(c) ? ORDER.indexOf(c) : ORDER.length);
  return [...codes].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b, 'en', { numeric: true }));
}

// A tile's name in the page's words: "queen", "knight of order A", "tax collector: 3
// alike, 5 gold".
export function tileName(code) {
  const tax = /^T(\d+):(\d+)$/.exec(code);
  if (tax) return tax[1] === '0' ? t('kotv.tile.T0', { gold: tax[2] }) : t('kotv.tile.T', { need: tax[1], gold: tax[2] });
  if (code.startsWith('N')) return t('kotv.tile.N', { order: code.slice(1) });
  return t(`kotv.tile.${code}`);
}

// The palette: every tile of the table, each player's king, and removal.
export function tools(startText) {
  const n = playersOf(fieldsOf(startText));
  return [
    { tool: 'remove', label: t('editor.remove') },
    ...tileSet(startText).map((code) => ({ tool: `tile:${code}`, label: t('editor.tile', { name: tileName(code), code }) })),
    ...Array.from({ length: n }, (_, p) => ({ tool: `king:${p}`, seat: p })),
  ];
}

// The drawing made clickable where the editor changes something: the hill's slots,
// each castle's columns and their tiles get names in data-cell (the valley's squares
// have theirs), so that the keyboard reaches them as it reaches squares.
export function markCells(svg) {
  for (const s of svg.querySelectorAll('[data-slot]')) s.setAttribute('data-cell', s.getAttribute('data-slot'));
  for (const castle of svg.querySelectorAll('[data-castle]')) {
    const p = Number(castle.getAttribute('data-castle')) + 1;
    for (const col of castle.querySelectorAll('[data-column]')) {
      const c = col.getAttribute('data-column');
      col.setAttribute('data-cell', `${p}${c}`);
      for (const chip of col.querySelectorAll('.kotv-chip')) {
        chip.setAttribute('data-cell', `${p}${c}${chip.getAttribute('data-face') === 'down' ? '-' : '+'}${chip.getAttribute('data-tile')}`);
      }
    }
  }
}

// One tile of `code` out of the first pile that holds one (a tile in play must come from
// somewhere: the table counts them all).
function takeFromPiles(fields, code) {
  for (const pile of ['pile1', 'pile2', 'pile3']) {
    const items = itemsOf(get(fields, pile));
    const it = items.find((x) => x.code === code);
    if (it && it.n > 0) {
      it.n -= 1;
      put(fields, pile, listText(items));
      return;
    }
  }
}

// A castle column's code of a tile: a jester is written with its column (JQ).
const castleCode = (code, col) => (code === 'J' ? `J${col}` : code);
const columnOfCode = (code) => (/^J[QDCNFW]$/.test(code) ? code[1] : code[0]);

// The text after a click on `cell` (a data-cell name) with `tool` chosen; `down`: castle
// tiles go face down. null when the click changes nothing.
export function apply(text, cell, tool, down) {
  const fields = fieldsOf(text);
  const [what, arg] = tool.split(/:(.*)/s);
  if (/^[a-e][1-5]$/.test(cell)) {
    const rows = valleyOf(get(fields, 'valley'));
    const sq = squareAt(rows, cell);
    if (!sq) return null;
    if (what === 'king') {
      const kings = (get(fields, 'kings') || '').split(',');
      const p = Number(arg);
      kings[p] = kings[p] === cell ? '-' : cell;
      put(fields, 'kings', kings.join(','));
    } else if (what === 'tile') {
      if (sq.code === arg) return null;
      takeFromPiles(fields, arg);
      sq.code = arg;
      sq.coins = 0;
      put(fields, 'valley', valleyText(rows));
    } else if (sq.code) {
      sq.code = null;
      sq.coins = 0;
      put(fields, 'valley', valleyText(rows));
    } else {
      // An empty square: removal takes off the kings standing there.
      const kings = (get(fields, 'kings') || '').split(',').map((k) => (k === cell ? '-' : k));
      put(fields, 'kings', kings.join(','));
    }
    return textOf(fields);
  }
  const slot = /^([LR])([1-6])$/.exec(cell);
  if (slot) {
    const cols = hillOf(get(fields, 'hill'));
    const col = cols[slot[1] === 'L' ? 0 : 1];
    const row = Number(slot[2]) - 1;
    if (what === 'tile') {
      // A column is packed from the bottom: a tile put above its top lands on the top.
      takeFromPiles(fields, arg);
      if (row < col.length) col[row] = arg;
      else col.push(arg);
    } else if (what === 'remove' && row < col.length) {
      col.splice(row, 1);
    } else {
      return null;
    }
    put(fields, 'hill', hillText(cols));
    return textOf(fields);
  }
  const castle = /^([1-4])([QDCNFW])(?:([+-])(.+))?$/.exec(cell);
  if (castle) {
    const p = castle[1];
    if (what === 'tile') {
      const col = castle[2];
      const code = castleCode(arg, COLUMNS.includes(columnOfCode(arg)) ? columnOfCode(arg) : col);
      const key = `${down ? 'down' : 'up'}${p}`;
      const items = itemsOf(get(fields, key));
      const it = items.find((x) => x.code === code);
      if (it) it.n += 1;
      else items.push({ n: 1, code });
      takeFromPiles(fields, arg);
      put(fields, key, listText(items));
      return textOf(fields);
    }
    if (what !== 'remove') return null;
    // Removal: the tile clicked, or the column's last of the face chosen.
    const key = `${castle[3] ? (castle[3] === '-' ? 'down' : 'up') : down ? 'down' : 'up'}${p}`;
    const items = itemsOf(get(fields, key));
    const it = castle[4] ? items.find((x) => x.code === castle[4]) : items.filter((x) => columnOfCode(x.code) === castle[2]).at(-1);
    if (!it) return null;
    it.n -= 1;
    put(fields, key, listText(items));
    return textOf(fields);
  }
  return null;
}

// The player to act (1-based, as the text writes it) and the text with another.
export const sides = (text) => Array.from({ length: playersOf(fieldsOf(text)) }, (_, i) => String(i + 1));
export const sideOf = (text) => get(fieldsOf(text), 'turn');
export function withSide(text, side) {
  const fields = fieldsOf(text);
  put(fields, 'turn', side);
  return textOf(fields);
}

// The phases a position can be in (kotv_phase_names), its own and the text in another.
export const PHASES = ['place', 'recruit', 'summon', 'kingdom', 'refill', 'draw', 'over'];
export const phaseOf = (text) => get(fieldsOf(text), 'phase');
export function withPhase(text, phase) {
  const fields = fieldsOf(text);
  put(fields, 'phase', phase);
  return textOf(fields);
}

// Each player's gold, and the text with one player's changed.
export const golds = (text) => (get(fieldsOf(text), 'gold') || '').split(',').map(Number);
export function withGold(text, p, gold) {
  const fields = fieldsOf(text);
  const all = (get(fields, 'gold') || '').split(',');
  all[p] = String(gold);
  put(fields, 'gold', all.join(','));
  return textOf(fields);
}

// The piece an observation would show for a tile code.
function pieceOf(code, owner = null, value = 0) {
  const tax = /^T(\d+):(\d+)$/.exec(code);
  if (tax) return { kind: 'tax-collector', owner, value: Number(tax[1]) * 100 + Number(tax[2]) };
  return { kind: KINDS[code] || 'jester', owner, value };
}

// The last accepted observation with the board, hill, kings and castles of a text the
// game refused, so that the table shows what was clicked while the status says why it
// is not a position. Tiles the observation cannot show are left out.
export function patch(obs, text) {
  const fields = fieldsOf(text);
  const out = structuredClone(obs);
  const zone = (name) => out.zones.findIndex((z) => z.name === name);
  const rows = valleyOf(get(fields, 'valley'));
  const kings = (get(fields, 'kings') || '').split(',');
  const hill = hillOf(get(fields, 'hill'));
  for (const c of out.cells) {
    if (c.zone === zone('valley')) {
      const sq = squareAt(rows, c.name);
      if (!sq) continue;
      c.pieces = [];
      if (sq.code && (KINDS[sq.code] || sq.code.startsWith('T'))) c.pieces.push(pieceOf(sq.code));
      if (sq.coins) c.pieces.push({ kind: 'coin', owner: null, value: sq.coins });
      kings.forEach((k, p) => { if (k === c.name) c.pieces.push({ kind: 'king', owner: p, value: 0 }); });
    } else if (c.zone === zone('hill')) {
      const code = hill[c.col] && hill[c.col][c.row];
      c.pieces = code && (KINDS[code] || code.startsWith('T')) ? [pieceOf(code)] : [];
    } else {
      const z = out.zones[c.zone];
      if (!z || !z.name.startsWith('castle-')) continue;
      const p = Number(z.name.slice(7));
      const col = COLUMNS[c.col];
      const items = itemsOf(get(fields, `${c.row ? 'down' : 'up'}${p}`)).filter((x) => columnOfCode(x.code) === col && KINDS[x.code.startsWith('J') ? 'J' : x.code]);
      c.pieces = items.map((x) => pieceOf(x.code.startsWith('J') ? 'J' : x.code, p - 1, x.n));
    }
  }
  return out;
}
