// analysis.js - the analysis board at /analysis: a position of any game (from a game's
// page, its review, a shared link or the position editor) explored as a tree of
// variations. Moves are played on the board, by buttons or typed; a new move where the
// tree already goes on starts a branch, and any node of the tree is a click away. The
// server reads every position (POST /api/observe with the line from the root), so the
// page never knows a rule, and its engine (POST /api/analysis, the hint's search) says
// who stands better and its best line wherever the board is. The address always holds
// the start position and the line shown, so it is the link to share.
import * as api from './api.js';
import { drawerFor } from './boards/index.js';
import { clickToMove } from './boardclick.js';
import * as textBoard from './boards/text.js';
import { h, seatWords } from './dom.js';
import { t } from './i18n.js';
import { actionLabel } from './learn.js';
import { pct, standing } from './review.js';
import { gameName } from './words.js';

// The link of the analysis board of spec ({game, rules, players, position}), showing
// `line` (action texts from the position) up to `at` of them.
export function analysisHref(spec, line = [], at = line.length) {
  const q = new URLSearchParams({ game: spec.game });
  if (spec.players) q.set('players', String(spec.players));
  for (const [k, v] of Object.entries(spec.rules || {})) q.set(`r.${k}`, v);
  if (spec.position) q.set('pos', spec.position);
  for (const m of line) q.append('m', m);
  if (at !== line.length) q.set('at', String(at));
  return `/analysis?${q}`;
}

// The spec, line and place a link names (analysisHref's inverse).
export function readAnalysisHref(search) {
  const q = new URLSearchParams(search);
  const rules = {};
  for (const [k, v] of q) if (k.startsWith('r.')) rules[k.slice(2)] = v;
  const spec = { game: q.get('game') || '', rules };
  if (q.get('players')) spec.players = Number(q.get('players'));
  if (q.get('pos')) spec.position = q.get('pos');
  const line = q.getAll('m');
  const at = q.has('at') ? Math.max(0, Math.min(line.length, Number(q.get('at')) || 0)) : line.length;
  return { spec, line, at };
}

export const capital = (s) => s[0].toUpperCase() + s.slice(1);
const noMarks = () => ({ selected: null, targets: new Set(), movable: new Set(), last: new Set(), hint: new Set(), values: new Map() });

export async function showAnalysis(root, search) {
  const { spec, line, at } = readAnalysisHref(search);
  document.title = t('analysis.doc-title', { game: gameName(spec.game) });
  // A node: the action that leads to it from its parent (null at the root), its cells,
  // its children (the first the main line), and the server's reading of its position.
  const top = { move: null, cells: [], parent: null, children: [], obs: null, eval: null };
  const ui = { node: top, selected: null, engine: true, asked: 0, busy: false };

  const board = h('div', { id: 'analysis-board', class: 'board-box' });
  const chooser = h('div', { id: 'analysis-chooser', class: 'chooser', hidden: true });
  const actions = h('div', { id: 'analysis-actions', class: 'actions' });
  const where = h('p', { id: 'analysis-where', class: 'review-where', 'aria-live': 'polite' });
  const step = (label, text, fn) => h('button', { type: 'button', 'aria-label': label, title: label, onclick: fn }, text);
  const nav = h('div', { class: 'review-nav', role: 'group', 'aria-label': t('analysis.nav') },
    step(t('analysis.start'), '|◀', () => go(top)), step(t('analysis.back'), '◀', () => go(ui.node.parent || ui.node)),
    step(t('analysis.forward'), '▶', () => go(ui.node.children[0] || ui.node)),
    step(t('analysis.end'), '▶|', () => { let n = ui.node; while (n.children.length) n = n.children[0]; go(n); }));
  const engineBox = h('input', { type: 'checkbox', id: 'analysis-engine', checked: true });
  const evalLine = h('p', { id: 'analysis-eval', class: 'review-eval', 'aria-live': 'polite' });
  const bestLine = h('p', { id: 'analysis-line', class: 'analysis-line' });
  const tree = h('div', { id: 'analysis-tree', class: 'analysis-tree', 'aria-label': t('analysis.tree') });
  const input = h('input', { id: 'analysis-input', list: 'analysis-legal', autocomplete: 'off', placeholder: t('game.type-move'), 'aria-label': t('game.move-label') });
  const datalist = h('datalist', { id: 'analysis-legal' });
  const typed = h('form', { id: 'analysis-type', class: 'type-move' }, input, datalist, h('button', { type: 'submit' }, t('game.play')));
  const link = h('input', { id: 'analysis-link', class: 'share-url', readonly: true, 'aria-label': t('analysis.link') });
  const copy = h('button', { type: 'button', id: 'analysis-copy' }, t('analysis.copy'));
  const editBtn = h('button', { type: 'button', id: 'analysis-edit' }, t('analysis.edit'));
  const message = h('p', { id: 'analysis-message', class: 'message', role: 'alert' });
  const section = h('section', { id: 'analysis', class: 'review game analysis' },
    h('div', { class: 'board-area' }, board, chooser, actions, nav, where),
    h('aside', { class: 'panel' },
      h('h1', { class: 'game-title' }, t('analysis.title', { game: gameName(spec.game) })),
      h('p', { class: 'analysis-engine' }, h('label', {}, engineBox, ` ${t('analysis.engine')}`)),
      evalLine, bestLine, message, typed,
      h('h2', {}, t('analysis.moves')), tree,
      h('h2', {}, t('share.share')), h('p', { class: 'share-row' }, link, copy),
      h('p', { class: 'buttons' }, editBtn, h('a', { href: '/' }, t('form.title')))));
  root.replaceChildren(section);

  const say = (t) => { message.textContent = t || ''; };
  const pathOf = (n) => { const p = []; for (let k = n; k.parent; k = k.parent) p.unshift(k.move); return p; };
  const depthOf = (n) => pathOf(n).length;

  // The server's reading of n's position, asked once.
  function obsOf(n) {
    if (!n.obs) n.obs = api.observe({ ...spec, moves: pathOf(n) }).catch((e) => { n.obs = null; throw e; });
    return n.obs;
  }

  // The link names the start, the line to the node shown and on along its main line.
  function updateLink() {
    let n = ui.node;
    while (n.children.length) n = n.children[0];
    const href = analysisHref(spec, pathOf(n), depthOf(ui.node));
    history.replaceState(null, '', href);
    link.value = location.href;
  }

  function marks(obs) {
    const m = noMarks();
    m.selected = ui.selected;
    for (const mv of obs.legal) {
      if (mv.cells.length) m.movable.add(mv.cells[0]);
      if (ui.selected && mv.cells.length >= 2 && mv.cells[0] === ui.selected) m.targets.add(mv.cells.at(-1));
    }
    for (const c of ui.node.cells) m.last.add(c);
    if (ui.node.eval && ui.node.eval.cells) for (const c of ui.node.eval.cells) m.hint.add(c);
    return m;
  }

  function drawBoard(obs) {
    const st = { ...obs, you: null, moves: [], seats: [], ai_error: null, ply: depthOf(ui.node) };
    const drawer = drawerFor(spec.game);
    let pic;
    try {
      pic = drawer && obs.observation ? drawer.draw(st, marks(obs)) : textBoard.draw(st);
    } catch (e) {
      pic = textBoard.draw(st);
    }
    board.replaceChildren(pic);
    Object.assign(board.dataset, { depth: depthOf(ui.node), toMove: obs.to_move ?? '', selected: ui.selected ?? '', position: obs.position });
  }

  function moveButton(n) {
    const d = depthOf(n);
    return h('button', {
      type: 'button', class: `node${n === ui.node ? ' current' : ''}`, 'aria-current': n === ui.node ? 'true' : null,
      'data-depth': d, 'data-line': pathOf(n).join(' '), onclick: () => go(n),
    }, h('span', { class: 'node-number' }, `${d}.`), ` ${n.move}`);
  }

  // A line from n along first children; after a node that has siblings, as its parent's
  // main child, the siblings' lines in brackets (lichess's way).
  function lineEl(n, variation) {
    const parts = [];
    for (let k = n; k; k = k.children[0]) {
      parts.push(moveButton(k));
      const p = k.parent;
      if (p.children[0] === k) {
        for (const v of p.children.slice(1)) parts.push(lineEl(v, true));
      }
    }
    return h(variation ? 'span' : 'div', { class: variation ? 'variation' : 'mainline' }, ...parts);
  }

  function drawTree() {
    tree.replaceChildren(top.children.length ? lineEl(top.children[0], false)
      : h('p', { class: 'muted' }, t('analysis.empty')));
    const cur = tree.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  function describe(obs) {
    const d = depthOf(ui.node);
    const at = d === 0 ? t('analysis.at-start') : t('analysis.at', { d, move: ui.node.move });
    const who = obs.status === 'over' ? t('analysis.over-here') : obs.to_move === null ? t('analysis.chance') : t('analysis.to-move', { seat: seatWords(obs.to_move) });
    where.textContent = t('analysis.where', { at, who });
  }

  function drawEval(obs) {
    const e = ui.node.eval;
    if (!ui.engine) { evalLine.textContent = t('analysis.off'); bestLine.replaceChildren(); return; }
    if (obs.status === 'over') { evalLine.textContent = t('analysis.over'); bestLine.replaceChildren(); return; }
    if (obs.to_move === null) { evalLine.textContent = t('analysis.pick-chance'); bestLine.replaceChildren(); return; }
    if (!e) { evalLine.textContent = t('analysis.thinking'); bestLine.replaceChildren(); return; }
    if (e.error) { evalLine.textContent = t('analysis.no-eval', { error: e.error }); bestLine.replaceChildren(); return; }
    evalLine.textContent = capital(t('analysis.eval', { seat: seatWords(e.to_move), standing: standing(e.win_chance, e.proven), pct: pct(e.win_chance), score: e.score }));
    const moves = e.line && e.line.length ? e.line : [e.move];
    bestLine.replaceChildren(`${t('analysis.best')} `, ...moves.map((m, i) => h('button', {
      type: 'button', class: 'line-move', 'data-move': m, title: t('analysis.play-to'),
      onclick: () => playLine(moves.slice(0, i + 1)),
    }, m)));
  }

  function drawActions(obs) {
    // Chance's outcomes and the actions that touch no cell are buttons; every action
    // is also in the typed field's list.
    const drawer = drawerFor(spec.game);
    const clickable = drawer && obs.observation;
    const onBoard = new Set([...board.querySelectorAll('[data-moves]')].flatMap((e) => e.getAttribute('data-moves').split('|')));
    const buttons = obs.legal.filter((m) => (m.cells.length === 0 || !clickable) && !onBoard.has(m.text));
    actions.replaceChildren(
      ...buttons.map((m) => h('button', { type: 'button', class: 'action', 'data-move': m.text, onclick: () => play(m.text) }, ...actionLabel(m, spec.game))),
      ...(obs.chance || []).map((c) => h('button', { type: 'button', class: 'action chance', 'data-move': c.text, onclick: () => play(c.text) }, `${c.text} (${pct(c.probability)})`)));
    datalist.replaceChildren(...[...obs.legal, ...(obs.chance || [])].map((m) => h('option', { value: m.text })));
  }

  async function render() {
    const n = ui.node;
    let obs;
    try {
      obs = await obsOf(n);
    } catch (e) {
      say(t('analysis.bad-position', { error: e.message }));
      return;
    }
    // A node read from a link learns its action's cells (to mark them) from its parent.
    if (n.parent && !n.cells.length && !n.cellsAsked) {
      n.cellsAsked = true;
      const po = await obsOf(n.parent).catch(() => null);
      const m = po && [...po.legal, ...(po.chance || [])].find((x) => x.text === n.move);
      if (m && m.cells) n.cells = m.cells;
    }
    if (n !== ui.node) return; // gone elsewhere meanwhile
    drawBoard(obs);
    describe(obs);
    drawActions(obs);
    drawTree();
    drawEval(obs);
    updateLink();
    root.dataset.ready = 'analysis';
    if (ui.engine && (!n.eval || n.eval.again) && obs.to_move !== null && obs.status !== 'over') evaluate(n);
  }

  // One question to the engine at a time per node; an answer for a node no longer shown
  // is kept for when it is.
  async function evaluate(n) {
    if (n.asking) return;
    n.asking = true;
    try {
      n.eval = await api.analysePosition({ ...spec, moves: pathOf(n) });
    } catch (e) {
      // A busy engine (429, 503) is asked again when the node is shown again.
      n.eval = { error: e.message, again: e.status === 429 || e.status === 503 };
    }
    n.asking = false;
    if (n === ui.node) drawEval(await obsOf(n));
    if (n === ui.node) { const obs = await obsOf(n); drawBoard(obs); }
  }

  function go(n) {
    ui.node = n;
    ui.selected = null;
    chooser.hidden = true;
    say('');
    render();
  }

  // Plays `text` where the board is: the child of that text if the tree has it, else a
  // new child (a new branch when the node has children already).
  async function play(text) {
    if (ui.busy) return false;
    const from = ui.node;
    let child = from.children.find((c) => c.move === text);
    if (!child) {
      ui.busy = true;
      const obs = await obsOf(from).catch(() => null);
      const offered = obs && [...obs.legal, ...(obs.chance || [])].find((m) => m.text === text);
      child = { move: text, cells: offered && offered.cells ? offered.cells : [], parent: from, children: [], obs: null, eval: null };
      try {
        await obsOf(child);
      } catch (e) {
        ui.busy = false;
        say(e.message);
        return false;
      }
      ui.busy = false;
      // The server may have read a typed text as another; keep its own words.
      if (offered) child.move = offered.text;
      from.children.push(child);
    }
    go(child);
    return true;
  }

  async function playLine(texts) {
    for (const t of texts) if (!(await play(t))) return;
  }

  function choose(options) {
    const drawer = drawerFor(spec.game);
    const face = (m) => (drawer && drawer.choiceFace ? drawer.choiceFace({ you: null }, m) : null);
    chooser.replaceChildren(h('span', {}, `${t('game.which')} `),
      ...options.map((m) => {
        const f = face(m);
        return h('button', { type: 'button', class: f ? 'choice pictured' : 'choice', 'data-move': m.text, onclick: () => play(m.text) },
          f ? f.picture : null, f ? h('span', {}, f.label) : m.text);
      }),
      h('button', { type: 'button', class: 'cancel', onclick: () => { chooser.hidden = true; } }, t('game.cancel')));
    chooser.hidden = false;
  }

  async function clickCell(cell) {
    const obs = await obsOf(ui.node).catch(() => null);
    if (!obs) return;
    chooser.hidden = true;
    const c = clickToMove(obs.legal, ui.selected, cell);
    if (c.play) { play(c.play.text); return; }
    if (c.choose) { choose(c.choose); return; }
    ui.selected = c.select;
    drawBoard(obs);
  }

  board.addEventListener('click', (e) => {
    const c = e.target.closest('[data-cell]');
    if (c) { clickCell(c.getAttribute('data-cell')); return; }
    const o = e.target.closest('[data-moves]');
    if (o) {
      const texts = o.getAttribute('data-moves').split('|');
      if (texts.length === 1) play(texts[0]);
      else choose(texts.map((t) => ({ text: t, cells: [] })));
    }
  });
  typed.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text && (await play(text))) input.value = '';
  });
  engineBox.addEventListener('change', () => { ui.engine = engineBox.checked; render(); });
  copy.addEventListener('click', async () => {
    link.select();
    try { await navigator.clipboard.writeText(link.value); copy.textContent = t('share.copied'); } catch (e) { copy.textContent = t('share.select'); }
  });
  document.addEventListener('keydown', (e) => {
    if (!section.isConnected || e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft' && ui.node.parent) go(ui.node.parent);
    else if (e.key === 'ArrowRight' && ui.node.children[0]) go(ui.node.children[0]);
  });
  editBtn.addEventListener('click', async () => {
    const { openEditor } = await import('./positioneditor.js');
    const obs = await obsOf(ui.node).catch(() => null);
    openEditor(root, section, { ...spec, position: obs ? obs.position : spec.position });
  });

  // The link's line, read action by action from the start: the tree's main line.
  let n = top;
  for (const m of line) {
    const child = { move: m, cells: [], parent: n, children: [], obs: null, eval: null };
    n.children.push(child);
    n = child;
  }
  ui.node = top;
  for (let i = 0; i < at; i++) ui.node = ui.node.children[0];
  // A bad link says so, on the first position that cannot be read.
  try {
    await obsOf(top);
  } catch (e) {
    section.replaceChildren(h('p', { class: 'message', role: 'alert', id: 'analysis-message' },
      t('analysis.cannot-open', { error: e.message })), h('a', { href: '/' }, t('chrome.start-new')));
    root.dataset.ready = 'analysis';
    return;
  }
  render();
}
