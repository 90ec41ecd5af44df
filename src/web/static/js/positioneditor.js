// positioneditor.js - the analysis board's position editor: a position of any game set
// up by hand and checked by the game's own parser (POST /api/observe), whose refusal is
// shown in its words. Four games write their board as ranks of a FEN (a digit run of
// empty cells, a letter a piece, a stack in brackets): for them a piece picked from the
// game's own pieces is placed (or a cell emptied) by a click, and the side to move is a
// choice. Every game, King of the Valley's tiles included, can be set up in the
// position's text itself. The page never checks a position itself: while the game
// refuses one, the board is drawn from the last one it accepted with the cells changed.
import * as api from './api.js';
import { analysisHref, capital } from './analysis.js';
import { drawerFor } from './boards/index.js';
import * as textBoard from './boards/text.js';
import { h, seatWords } from './dom.js';
import { t } from './i18n.js';
import { PAGES } from './learn-pages.js';

// A rank of the board field as one token per cell: '' empty, a letter, or '(..)'.
function cellsOfRank(rank) {
  const out = [];
  for (let i = 0; i < rank.length;) {
    const d = /^\d+/.exec(rank.slice(i));
    if (d) { for (let k = 0; k < Number(d[0]); k++) out.push(''); i += d[0].length; continue; }
    if (rank[i] === '(') {
      const end = rank.indexOf(')', i);
      if (end < 0) return null;
      out.push(rank.slice(i, end + 1));
      i = end + 1;
      continue;
    }
    out.push(rank[i]);
    i += 1;
  }
  return out;
}

// The board of a position text whose first word is FEN ranks, or null.
function boardOf(text) {
  const [first, ...rest] = text.trim().split(/\s+/);
  if (!first || !first.includes('/') || first.includes('=')) return null;
  const ranks = first.split('/').map(cellsOfRank);
  return ranks.every(Boolean) ? { ranks, rest } : null;
}

function boardText(b) {
  const ranks = b.ranks.map((r) => {
    let s = '';
    let run = 0;
    for (const t of r) {
      if (t === '') { run += 1; continue; }
      if (run) s += String(run);
      run = 0;
      s += t;
    }
    return run ? s + String(run) : s;
  });
  return [ranks.join('/'), ...b.rest].join(' ');
}

const ownerOf = (letter) => (letter === letter.toUpperCase() ? 0 : 1);
const lettersOf = (t) => (t.startsWith('(') ? t.slice(1, -1).split('') : t ? [t] : []);

// Which cell of the observation each token of the board field is: the observation's
// rows in one order or the other, each by column, whichever agrees with the pieces
// (upper case the first player's). null when the shapes differ.
function cellMap(obs, board) {
  const rows = new Map();
  for (const c of obs.observation.cells) {
    if (c.zone !== 0) continue;
    if (!rows.has(c.row)) rows.set(c.row, []);
    rows.get(c.row).push(c);
  }
  const keys = [...rows.keys()].sort((a, b) => a - b);
  for (const k of keys) rows.get(k).sort((a, b) => a.col - b.col);
  let best = null;
  for (const order of [keys, [...keys].reverse()]) {
    if (order.length !== board.ranks.length || order.some((k, i) => rows.get(k).length !== board.ranks[i].length)) continue;
    let agree = 0;
    const map = new Map();
    order.forEach((k, i) => rows.get(k).forEach((c, j) => {
      map.set(c.name, [i, j]);
      const t = board.ranks[i][j];
      const top = c.pieces.at(-1);
      if (!t ? !c.pieces.length : top && top.owner === ownerOf(lettersOf(t).at(-1))) agree += 1;
    }));
    if (!best || agree > best.agree) best = { agree, map };
  }
  return best ? best.map : null;
}

// The pieces each letter stands for, learnt from positions the game drew.
function learnPieces(obs, board, map, into) {
  const byName = new Map(obs.observation.cells.map((c) => [c.name, c]));
  for (const [name, [i, j]] of map) {
    const t = board.ranks[i][j];
    const c = byName.get(name);
    if (t.length === 1 && c && c.pieces.length === 1 && !into.has(t)) into.set(t, c.pieces[0]);
  }
}

export async function openEditor(root, analysisSection, spec) {
  const start = await api.observe({ game: spec.game, rules: spec.rules, players: spec.players });
  const ed = { text: spec.position || start.position, good: null, asked: 0, pick: '', pieces: new Map() };
  const board = h('div', { id: 'editor-board', class: 'board-box' });
  const palette = h('div', { id: 'editor-palette', class: 'editor-palette', role: 'group', 'aria-label': t('editor.palette') });
  const side = h('select', { id: 'editor-side', 'aria-label': t('editor.side-label') });
  const text = h('textarea', { id: 'editor-text', class: 'editor-text', rows: 3, 'aria-label': t('editor.text-label'), spellcheck: 'false' });
  const status = h('p', { id: 'editor-status', class: 'editor-ok', role: 'status' });
  const analyseBtn = h('button', { type: 'button', id: 'editor-analyse' }, t('editor.analyse'));
  const help = h('p', { class: 'help' });
  const section = h('section', { id: 'editor', class: 'review game analysis' },
    h('div', { class: 'board-area' }, board),
    h('aside', { class: 'panel' },
      h('h1', { class: 'game-title' }, t('analysis.edit')), help, palette,
      h('p', {}, h('label', {}, `${t('editor.side')} `, side)),
      h('p', {}, h('label', { for: 'editor-text' }, t('editor.text'))), text, status,
      h('p', { class: 'buttons' }, analyseBtn,
        h('button', { type: 'button', id: 'editor-start', onclick: () => setText(start.position) }, t('analysis.at-start')),
        h('button', { type: 'button', id: 'editor-clear', onclick: clear }, t('editor.clear')),
        h('button', { type: 'button', id: 'editor-cancel', onclick: close }, t('game.cancel')))));
  analysisSection.hidden = true;
  root.append(section);

  const startBoard = boardOf(start.position);
  const map = startBoard && start.observation ? cellMap(start, startBoard) : null;
  if (map) learnPieces(start, startBoard, map, ed.pieces);
  // A game that starts empty (King's Castle) shows its pieces on its rules page's boards.
  const shown = map && !ed.pieces.size && PAGES[spec.game] ? PAGES[spec.game].sections.flatMap((x) => x.boards || [])
    .filter((x) => x.position && (!x.game || x.game === spec.game)).slice(0, 4) : [];
  for (const x of shown) {
    const o = await api.observe({ ...spec, position: x.position }).catch(() => null);
    const b = o && boardOf(o.position);
    if (b) learnPieces(o, b, map, ed.pieces);
  }
  // The side to move is the FEN's second word, in the game's own letters.
  const sides = startBoard && /^[wb]$/.test(startBoard.rest[0]) ? ['w', 'b'] : startBoard && /^[12]$/.test(startBoard.rest[0]) ? ['1', '2'] : null;
  let drawPalette = () => {};
  if (map) {
    help.textContent = t('editor.help');
    const button = (token, label) => h('button', { type: 'button', 'data-token': token, 'aria-pressed': String(ed.pick === token), onclick: () => { ed.pick = token; drawPalette(); } }, label);
    const entries = [...ed.pieces].sort(([a], [b]) => ownerOf(a) - ownerOf(b) || a.localeCompare(b));
    ed.pick = entries.length ? entries[0][0] : '';
    drawPalette = () => {
      palette.replaceChildren(button('', t('editor.empty')), ...entries.map(([token, p]) => button(token, capital(t('editor.piece', { seat: seatWords(p.owner), kind: p.kind, token })))));
    };
    drawPalette();
  } else {
    help.textContent = t('editor.help-text');
    palette.hidden = true;
    section.querySelector('#editor-clear').hidden = true;
  }
  if (sides) {
    side.replaceChildren(...sides.map((v, i) => h('option', { value: v }, capital(seatWords(i)))));
  } else {
    side.closest('p').hidden = true;
  }

  function close() {
    section.remove();
    analysisSection.hidden = false;
  }

  function drawBoard() {
    const b = boardOf(ed.text);
    const base = ed.good;
    if (!base) { board.replaceChildren(); return; }
    let obs = base.observation;
    // A refused position is drawn as the last accepted one with its cells changed.
    if (map && b && obs && base.position !== ed.text) {
      obs = structuredClone(obs);
      for (const c of obs.cells) {
        const at = map.get(c.name);
        const t = at && b.ranks[at[0]] ? b.ranks[at[0]][at[1]] : undefined;
        if (t !== undefined) c.pieces = lettersOf(t).map((l) => ed.pieces.get(l)).filter(Boolean);
      }
    }
    const st = { ...base, observation: obs, legal: [], you: null, moves: [], seats: [], ai_error: null };
    const drawer = drawerFor(spec.game);
    let pic;
    try {
      pic = drawer && obs ? drawer.draw(st, { selected: null, targets: new Set(), movable: new Set(), last: new Set(), hint: new Set(), values: new Map() }) : textBoard.draw(st);
    } catch (e) {
      pic = textBoard.draw(st);
    }
    board.replaceChildren(pic);
  }

  async function check() {
    const asked = ++ed.asked;
    const typed = ed.text;
    try {
      const obs = await api.observe({ ...spec, position: typed });
      if (asked !== ed.asked) return;
      ed.good = obs;
      if (map) learnPieces(obs, boardOf(obs.position) || { ranks: [] }, map, ed.pieces);
      status.className = 'editor-ok';
      status.textContent = t(obs.status === 'over' ? 'editor.ok-over' : 'editor.ok');
      analyseBtn.disabled = false;
      section.dataset.valid = 'yes';
    } catch (e) {
      if (asked !== ed.asked) return;
      status.className = 'editor-error';
      status.textContent = t('editor.bad', { error: e.message.replace(/^bad position: /, '') });
      analyseBtn.disabled = true;
      section.dataset.valid = 'no';
    }
    drawBoard();
  }

  function setText(t, fromField = false) {
    ed.text = t;
    if (!fromField) text.value = t;
    const b = boardOf(t);
    if (sides && b && sides.includes(b.rest[0])) side.value = b.rest[0];
    section.dataset.valid = '';
    drawBoard();
    check();
  }

  function clear() {
    const b = boardOf(ed.text);
    if (!b) return;
    for (const r of b.ranks) r.fill('');
    setText(boardText(b));
  }

  board.addEventListener('click', (e) => {
    const c = e.target.closest('[data-cell]');
    const b = boardOf(ed.text);
    const at = c && map ? map.get(c.getAttribute('data-cell')) : null;
    if (!at || !b || !b.ranks[at[0]] || b.ranks[at[0]][at[1]] === undefined) return;
    b.ranks[at[0]][at[1]] = ed.pick;
    setText(boardText(b));
  });
  side.addEventListener('change', () => {
    const b = boardOf(ed.text);
    if (!b || !b.rest.length) return;
    b.rest[0] = side.value;
    setText(boardText(b));
  });
  let typing = null;
  text.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => setText(text.value.trim(), true), 300);
  });
  analyseBtn.addEventListener('click', () => {
    if (section.dataset.valid === 'yes') location.assign(analysisHref({ ...spec, position: ed.good.position }));
  });
  setText(ed.text);
}
