// positioneditor.js - the analysis board's position editor: a position of any game set
// up by hand and checked by the game's own parser (POST /api/observe), whose refusal is
// shown in its words. Four games write their board as ranks of a FEN (a digit run of
// empty cells, a letter a piece, a stack in brackets): for them a piece picked from the
// game's own pieces is placed (or a cell emptied) by a click, and the side to move is a
// choice; where pieces stack (King's Guard) a click puts the piece on top of the stack,
// and "remove the top piece" (or a click with Alt or Shift) takes the top one off.
// King of the Valley's table is edited through kotvedit.js. Every game can also be set
// up in the position's text itself. The board is one stop of the keyboard's Tab order
// (keyboard.js). The page never checks a position itself: while the game refuses one,
// the board is drawn from the last one it accepted with the cells changed.
import * as api from './api.js';
import { analysisHref, capital } from './analysis.js';
import { drawerFor } from './boards/index.js';
import * as textBoard from './boards/text.js';
import { h, seatWords } from './dom.js';
import { t } from './i18n.js';
import { keyboardBoard } from './keyboard.js';
import * as kotv from './kotvedit.js';
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

// A stack's token from its pieces, bottom first: '' empty, a letter, or '(..)'.
const tokenOf = (letters) => (letters.length > 1 ? `(${letters.join('')})` : letters[0] || '');

export async function openEditor(root, analysisSection, spec) {
  const start = await api.observe({ game: spec.game, rules: spec.rules, players: spec.players });
  const ed = { text: spec.position || start.position, good: null, asked: 0, pick: '', pieces: new Map(), shown: null };
  const drawer = drawerFor(spec.game);
  const stacks = Boolean(drawer && drawer.stacks);
  // King of the Valley's position is fields, not ranks: its clicks are kotvedit.js's.
  const table = drawer && drawer.editTable ? kotv : null;
  const board = h('div', { id: 'editor-board', class: 'board-box' });
  const palette = h('div', { id: 'editor-palette', class: 'editor-palette', role: 'group', 'aria-label': t('editor.palette') });
  const side = h('select', { id: 'editor-side', 'aria-label': t('editor.side-label') });
  const faceDown = h('input', { type: 'checkbox', id: 'editor-face-down' });
  // King of the Valley's gold, a number per player, and its phase.
  const golds = h('p', { id: 'editor-gold', class: 'editor-gold', hidden: !table });
  const phase = h('select', { id: 'editor-phase' }, ...(table ? table.PHASES.map((x) => h('option', { value: x }, t(`kotv.phase.${x}`))) : []));
  const stackWords = h('p', { id: 'editor-stack', class: 'editor-stack', 'aria-live': 'polite' });
  const text = h('textarea', { id: 'editor-text', class: 'editor-text', rows: 3, 'aria-label': t('editor.text-label'), spellcheck: 'false' });
  const status = h('p', { id: 'editor-status', class: 'editor-ok', role: 'status' });
  const analyseBtn = h('button', { type: 'button', id: 'editor-analyse' }, t('editor.analyse'));
  const help = h('p', { class: 'help' });
  const section = h('section', { id: 'editor', class: 'review game analysis' },
    h('div', { class: 'board-area' }, board),
    h('aside', { class: 'panel' },
      h('h1', { class: 'game-title' }, t('analysis.edit')), help, palette,
      h('p', { hidden: !table }, h('label', {}, faceDown, ` ${t('editor.face-down')}`)),
      golds,
      h('p', { hidden: !table }, h('label', {}, `${t('editor.phase')} `, phase)),
      stackWords,
      h('p', {}, h('label', {}, `${t('editor.side')} `, side)),
      h('p', {}, h('label', { for: 'editor-text' }, t('editor.text'))), text, status,
      h('p', { class: 'buttons' }, analyseBtn,
        h('button', { type: 'button', id: 'editor-start', onclick: () => setText(start.position) }, t('analysis.at-start')),
        h('button', { type: 'button', id: 'editor-clear', onclick: clear }, t('editor.clear')),
        h('button', { type: 'button', id: 'editor-cancel', onclick: close }, t('game.cancel')))));
  analysisSection.hidden = true;
  root.append(section);
  keyboardBoard(board);

  const startBoard = table ? null : boardOf(start.position);
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
  // The side to move: the FEN's second word in the game's own letters, or King of the
  // Valley's player to act.
  const fenSides = startBoard && /^[wb]$/.test(startBoard.rest[0]) ? ['w', 'b'] : startBoard && /^[12]$/.test(startBoard.rest[0]) ? ['1', '2'] : null;
  const sides = table ? table.sides(start.position) : fenSides;
  const sideOf = (x) => (table ? table.sideOf(x) : (boardOf(x) || { rest: [] }).rest[0]);
  let drawPalette = () => {};
  const button = (attrs, label) => h('button', { type: 'button', ...attrs, 'aria-pressed': String(ed.pick === (attrs['data-token'] ?? attrs['data-tool'])), onclick: () => { ed.pick = attrs['data-token'] ?? attrs['data-tool']; drawPalette(); } }, label);
  if (table) {
    help.textContent = t('editor.help-table');
    const entries = table.tools(start.position);
    ed.pick = entries[1] ? entries[1].tool : entries[0].tool;
    drawPalette = () => palette.replaceChildren(...entries.map((x) => button({ 'data-tool': x.tool }, x.seat === undefined ? capital(x.label) : capital(t('editor.king', { seat: seatWords(x.seat) })))));
    drawPalette();
    section.querySelector('#editor-clear').hidden = true;
    golds.replaceChildren(...table.golds(start.position).map((_, p) => h('label', {}, `${capital(t('editor.gold', { seat: seatWords(p) }))} `,
      h('input', { type: 'number', min: 0, max: 9999, 'data-seat': p, oninput: (e) => { if (e.target.value !== '') setText(table.withGold(ed.text, p, Math.trunc(Number(e.target.value)))); } }))));
  } else if (map) {
    help.textContent = t(stacks ? 'editor.help-stack' : 'editor.help');
    const entries = [...ed.pieces].sort(([a], [b]) => ownerOf(a) - ownerOf(b) || a.localeCompare(b));
    ed.pick = entries.length ? entries[0][0] : '';
    drawPalette = () => {
      palette.replaceChildren(button({ 'data-token': '' }, t('editor.empty')),
        ...entries.map(([token, p]) => button({ 'data-token': token }, capital(t('editor.piece', { seat: seatWords(p.owner), kind: p.kind, token })))),
        ...(stacks ? [button({ 'data-tool': 'pop' }, t('editor.pop'))] : []));
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

  // The pieces of the square last clicked, bottom first, in words.
  function showStack() {
    const b = boardOf(ed.text);
    const at = ed.shown && map ? map.get(ed.shown) : null;
    const token = at && b && b.ranks[at[0]] ? b.ranks[at[0]][at[1]] : undefined;
    if (!stacks || token === undefined) { stackWords.textContent = ''; return; }
    const pieces = lettersOf(token).map((l) => {
      const p = ed.pieces.get(l);
      return p ? t('editor.stack-piece', { seat: seatWords(p.owner), kind: p.kind }) : l;
    });
    stackWords.textContent = pieces.length ? t('editor.stack', { cell: ed.shown, pieces: pieces.join(', ') }) : t('editor.stack-empty', { cell: ed.shown });
  }

  function drawBoard() {
    const b = boardOf(ed.text);
    const base = ed.good;
    showStack();
    if (!base) { board.replaceChildren(); return; }
    let obs = base.observation;
    // A refused position is drawn as the last accepted one with its cells changed.
    if (obs && base.position !== ed.text && table) {
      obs = table.patch(obs, ed.text);
    } else if (map && b && obs && base.position !== ed.text) {
      obs = structuredClone(obs);
      for (const c of obs.cells) {
        const at = map.get(c.name);
        const tok = at && b.ranks[at[0]] ? b.ranks[at[0]][at[1]] : undefined;
        if (tok !== undefined) c.pieces = lettersOf(tok).map((l) => ed.pieces.get(l)).filter(Boolean);
      }
    }
    const st = { ...base, observation: obs, legal: [], you: null, moves: [], seats: [], ai_error: null };
    let pic;
    try {
      pic = drawer && obs ? drawer.draw(st, { selected: null, targets: new Set(), movable: new Set(), last: new Set(), hint: new Set(), values: new Map() }) : textBoard.draw(st);
      if (table) table.markCells(pic);
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

  function setText(x, fromField = false) {
    ed.text = x;
    if (!fromField) text.value = x;
    if (sides && sides.includes(sideOf(x))) side.value = sideOf(x);
    if (table && table.PHASES.includes(table.phaseOf(x))) phase.value = table.phaseOf(x);
    if (table) table.golds(x).forEach((g, p) => { const i = golds.querySelector(`[data-seat="${p}"]`); if (i && Number.isInteger(g)) i.value = String(g); });
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
    if (!c) return;
    const name = c.getAttribute('data-cell');
    if (table) {
      const next = table.apply(ed.text, name, e.altKey || e.shiftKey ? 'remove' : ed.pick, faceDown.checked);
      if (next !== null) setText(next);
      return;
    }
    const b = boardOf(ed.text);
    const at = map ? map.get(name) : null;
    if (!at || !b || !b.ranks[at[0]] || b.ranks[at[0]][at[1]] === undefined) return;
    const letters = lettersOf(b.ranks[at[0]][at[1]]);
    // On a stack a piece goes on top and the top one comes off; elsewhere a piece
    // takes the cell.
    if (stacks && (ed.pick === 'pop' || e.altKey || e.shiftKey)) b.ranks[at[0]][at[1]] = tokenOf(letters.slice(0, -1));
    else if (stacks && ed.pick) b.ranks[at[0]][at[1]] = tokenOf([...letters, ed.pick]);
    else b.ranks[at[0]][at[1]] = ed.pick;
    ed.shown = name;
    setText(boardText(b));
  });
  phase.addEventListener('change', () => setText(table.withPhase(ed.text, phase.value)));
  side.addEventListener('change', () => {
    if (table) { setText(table.withSide(ed.text, side.value)); return; }
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
