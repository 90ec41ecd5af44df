// review.js - reviewing a game on its page: the board at any position (buttons, and the
// arrow, Home and End keys), the moves grouped by turns with round numbers, and an
// analysis that asks the server's AI about every position (POST .../analysis, one at a
// time, the server queueing them with the hints): an evaluation graph, each position's
// standing for the players in words and a win chance, the moves where the chance swung
// most with the AI's move there, and the record to download. Positions come from the
// server (GET .../positions): the page never replays rules itself.
import * as api from './api.js';
import { drawerFor } from './boards/index.js';
import * as textBoard from './boards/text.js';
import { h } from './dom.js';
import { analysisHref } from './analysis.js';
import { evalGraph, loadChart } from './evalgraph.js';
import { resultText } from './finish.js';
import { gameInfo } from './catalog.js';
import { createSolution } from './solution.js';
import { roundNumberOf, roundsOf } from './turns.js';
import { gameName, moveWords, seatName } from './words.js';
import { t } from './i18n.js';

// A chance to win in words, for the player it belongs to.
export function standing(c, proven) {
  if (proven) return t(c > 0.5 ? 'standing.wins' : 'standing.loses');
  if (c >= 0.9) return t('standing.winning');
  if (c >= 0.7) return t('standing.clearly-better');
  if (c >= 0.56) return t('standing.better');
  if (c > 0.44) return t('standing.even');
  if (c > 0.3) return t('standing.worse');
  if (c > 0.1) return t('standing.clearly-worse');
  return t('standing.losing');
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export const pct = (c) => `${Math.round(c * 100)}%`;
const noMarks = () => ({ selected: null, targets: new Set(), movable: new Set(), last: new Set(), hint: new Set(), values: new Map() });

// A button that opens the review of the game whose page this is; ctx: {root, section,
// id, token, state()}.
export function reviewButton(ctx) {
  return h('button', { id: 'review-open', type: 'button', class: 'review-open', onclick: () => openReview(ctx) }, t('review.open'));
}

export async function openReview(ctx) {
  const { id, token } = ctx;
  const game = ctx.state();
  const n = game.moves.length;
  const two = game.players === 2;
  const rv = { ply: n, positions: null, analysis: new Array(n + 1).fill(null), graph: null, running: false, closed: false };
  // A finished King's Valley game's solved values on the list, when a table answers.
  const solution = createSolution(id, token, 'review-solution');

  const board = h('div', { id: 'review-board', class: 'board-box' });
  const where = h('p', { id: 'review-where', class: 'review-where', 'aria-live': 'polite' });
  const explore = h('a', { id: 'review-explore', class: 'button-link', hidden: true }, t('review.explore'));
  const step = (label, text, fn) => h('button', { type: 'button', 'aria-label': label, title: label, onclick: fn }, text);
  const nav = h('div', { class: 'review-nav', role: 'group', 'aria-label': t('review.nav') },
    step(t('review.first'), '|◀', () => go(0)), step(t('review.previous'), '◀', () => go(rv.ply - 1)),
    step(t('review.next'), '▶', () => go(rv.ply + 1)), step(t('review.last'), '▶|', () => go(n)));
  const evalLine = h('p', { id: 'review-eval', class: 'review-eval' });
  const list = h('ol', { id: 'review-moves', class: 'review-moves', 'aria-label': t('review.moves-label') });
  // The server analyses a game once it is over, and during one of perfect information
  // only for a player against AIs (who may ask hints anyway): a game between people
  // still going is not offered what would be refused.
  const perfect = (gameInfo(game.game) || {}).perfect_information !== false;
  const canAnalyse = game.status === 'over' || (perfect && game.you !== null && game.you !== undefined &&
    game.seats.every((s) => s.seat === game.you || s.ai));
  const analyseBtn = h('button', { id: 'review-analyse', type: 'button', hidden: !canAnalyse }, t('review.analyse'));
  const people = game.seats.filter((s) => !s.ai).length >= 2;
  const why = t(!perfect ? 'review.why-hidden' : people ? 'review.why-people' : 'review.why-over');
  const noAnalysis = canAnalyse ? null : h('p', { id: 'review-no-analysis', class: 'review-progress' }, why);
  const progress = h('p', { id: 'review-progress', class: 'review-progress', role: 'status' });
  const graphBox = h('div', { id: 'review-graph', class: 'review-graph', role: 'img', 'aria-label': t('review.graph') });
  const swings = h('ol', { id: 'review-swings', class: 'review-swings' });
  const message = h('p', { class: 'message', role: 'alert' });
  const exportBtn = h('button', { id: 'review-export', type: 'button' }, t('review.export'));
  const close = h('button', { id: 'review-close', type: 'button' }, t('review.close'));
  const section = h('section', { id: 'review', class: 'review game' },
    h('div', { class: 'board-area' }, board, nav, where, h('p', {}, explore)),
    h('aside', { class: 'panel' },
      h('h1', { class: 'game-title' }, t('review.title', { game: gameName(game.game) })),
      game.result ? h('p', { id: 'review-result', class: 'result' }, resultText(game)) : null,
      evalLine,
      h('h2', {}, t('game.moves')), list,
      h('h2', {}, t('review.analysis')), noAnalysis, analyseBtn, progress, graphBox,
      h('h2', { id: 'review-swings-title', hidden: true }, t('review.swings')), swings,
      message,
      h('p', { class: 'buttons' }, exportBtn, close, h('a', { href: '/import' }, t('review.another')))));
  ctx.section.hidden = true;
  ctx.root.append(section);

  const say = (t) => { message.textContent = t || ''; };

  function firstChance(k) {
    const a = rv.analysis[k];
    if (!a) return null;
    if (a.over) {
      const r = game.result && game.result.returns;
      if (!r) return null;
      return r[0] > Math.max(...r.slice(1)) ? 1 : r[0] < Math.max(...r.slice(1)) ? 0 : 0.5;
    }
    if (a.to_move === null || a.to_move === undefined) return null;
    return two && a.to_move === 1 ? 1 - a.win_chance : a.win_chance;
  }

  function drawBoard() {
    const pos = rv.positions[rv.ply];
    const st = { ...game, ...pos, legal: [], moves: game.moves.slice(0, rv.ply), status: pos.to_move === null ? 'over' : 'playing' };
    const marks = noMarks();
    const last = game.moves[rv.ply - 1];
    if (last && last.cells) for (const c of last.cells) marks.last.add(c);
    const a = rv.analysis[rv.ply];
    if (a && a.cells) for (const c of a.cells) marks.hint.add(c);
    const drawer = drawerFor(game.game);
    let pic;
    try {
      pic = drawer && (st.observation || st.position || st.view) ? drawer.draw(st, marks) : textBoard.draw(st);
    } catch (e) {
      pic = textBoard.draw(st);
    }
    board.replaceChildren(pic);
    board.dataset.ply = rv.ply;
  }

  function describe() {
    const pos = rv.positions[rv.ply];
    where.textContent = rv.ply === 0 ? t('review.start', { count: n }) : t('review.after', { ply: rv.ply, count: n, move: moveWords(game.game, game.moves[rv.ply - 1]).text });
    const a = rv.analysis[rv.ply];
    if (!a) {
      evalLine.textContent = pos.to_move === null ? '' : capital(t('review.to-move', { seat: seatName(game.game, pos.to_move) }));
      return;
    }
    // The result itself is said once, in the box under the title.
    if (a.over) { evalLine.textContent = t('review.ended'); return; }
    if (a.to_move === null) { evalLine.textContent = `${t('game.chance')}.`; return; }
    evalLine.textContent = capital(t('review.eval', { seat: seatName(game.game, a.to_move), standing: standing(a.win_chance, a.proven), pct: pct(a.win_chance), move: a.read ?? a.move }));
  }

  // A turn in the words of the game's drawer, if it tells turns (King's Guard's).
  const drawer = drawerFor(game.game);
  const told = (turn) => (drawer && drawer.turnWords ? drawer.turnWords(game.moves.slice(turn.first, turn.last + 1)) : null);

  function drawList() {
    const last = rv.ply - 1;
    list.replaceChildren(...roundsOf(game.moves).map((round) => h('li', { value: round.number },
      ...round.turns.map((turn) => {
        const current = last >= turn.first && last <= turn.last;
        return h('button', {
          type: 'button', class: `turn p${turn.seat ?? 'c'}${current ? ' current' : ''}`, 'aria-current': current ? 'true' : null,
          'data-ply': turn.last + 1, onclick: () => go(turn.last + 1),
        }, turn.seat === null ? `(${t('moves.chance')}: ${turn.texts.join(', ')})` : (told(turn) || turn.texts).join(', '));
      }))));
    const cur = list.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  // Positions come in pages (GET .../positions?from=K, docs/API.md), each asked for when
  // a position of it is first shown: a long game costs the server what is looked at.
  const pages = new Map();
  function loadPage(k) {
    const from = Math.floor(k / api.POSITIONS_PAGE) * api.POSITIONS_PAGE;
    if (!pages.has(from)) {
      pages.set(from, api.positions(id, token, from).then((r) => {
        r.positions.forEach((p, i) => { rv.positions[r.from + i] = p; });
      }, (e) => { pages.delete(from); throw e; }));
    }
    return pages.get(from);
  }

  async function go(k) {
    if (!rv.positions) return;
    const ply = Math.max(0, Math.min(n, k));
    if (!rv.positions[ply]) {
      try {
        await loadPage(ply);
      } catch (e) {
        say(e.message);
        return;
      }
      if (rv.closed) return;
    }
    rv.ply = ply;
    linkAnalysis();
    drawBoard();
    describe();
    drawList();
    // The turning moves played up to the position shown are marked on its board.
    solution.decorate({ ...game, moves: game.moves.slice(0, rv.ply) }, list, board);
  }

  // The analysis board holds the game from its start as its main line, at this position
  // (or, until the start is read, this position alone); only a position the review may
  // show as text goes there.
  function linkAnalysis() {
    const spec = { game: game.game, rules: game.rules, players: game.players };
    const start = rv.positions[0];
    const texts = game.moves.map((m) => m.text);
    const whole = start && start.position && texts.every((t) => typeof t === 'string');
    const here = rv.positions[rv.ply];
    explore.hidden = !whole && !(here && here.position);
    if (whole) explore.href = analysisHref({ ...spec, position: start.position }, texts, rv.ply);
    else if (here && here.position) explore.href = analysisHref({ ...spec, position: here.position });
  }

  function drawSwings() {
    if (!two) return;
    const found = [];
    for (let k = 0; k < n; k++) {
      const seat = game.moves[k].seat;
      const before = firstChance(k);
      const after = firstChance(k + 1);
      if (seat === null || before === null || after === null || !rv.analysis[k] || !rv.analysis[k].move) continue;
      const drop = seat === 0 ? before - after : after - before;
      if (drop >= 0.1) found.push({ k, seat, drop, before: seat === 0 ? before : 1 - before, after: seat === 0 ? after : 1 - after });
    }
    found.sort((x, y) => y.drop - x.drop);
    const top = found.slice(0, 3).sort((x, y) => x.k - y.k);
    const rounds = roundsOf(game.moves);
    // Only an analysis of every position may say that no action turned the game.
    const complete = rv.analysis.every((x) => x !== null);
    swings.previousElementSibling.hidden = top.length === 0 && (!complete || rv.running);
    swings.replaceChildren(...top.map((s) => h('li', {},
      h('button', { type: 'button', class: 'swing', 'data-ply': s.k, onclick: () => go(s.k) },
        t('review.swing', { round: roundNumberOf(rounds, s.k), seat: capital(seatName(game.game, s.seat)), move: moveWords(game.game, game.moves[s.k]).text, before: pct(s.before), after: pct(s.after), best: rv.analysis[s.k].read ?? rv.analysis[s.k].move })))));
    if (!top.length && !rv.running && complete) swings.replaceChildren(h('li', {}, t('review.no-swings')));
  }

  async function analyse() {
    if (rv.running) return;
    rv.running = true;
    analyseBtn.disabled = true;
    say('');
    const UPlot = await loadChart();
    const label = t(two ? 'review.graph-first' : 'review.graph-mover');
    const values = () => rv.analysis.map((_, k) => { const c = firstChance(k); return c === null ? null : Math.round(c * 1000) / 10; });
    if (UPlot) {
      graphBox.setAttribute('aria-label', t('review.graph-label', { label }));
      rv.graph = evalGraph(UPlot, graphBox, values(), label, (k) => go(k));
    } else {
      graphBox.replaceChildren(h('p', { class: 'unavailable' }, t('review.no-graph')));
      graphBox.removeAttribute('role');
    }
    for (let k = 0; k <= n && !rv.closed; k++) {
      progress.textContent = t('review.analysing', { k, n });
      try {
        rv.analysis[k] = await api.analyse(id, token, k);
      } catch (e) {
        if (e.status === 429) { k--; await new Promise((r) => setTimeout(r, 1000)); continue; }
        say(e.message);
        break;
      }
      if (rv.graph) rv.graph.update(values());
      if (k === rv.ply) { describe(); drawBoard(); }
    }
    rv.running = false;
    analyseBtn.disabled = false;
    const done = rv.analysis.every((a) => a !== null);
    progress.textContent = done ? t('review.analysed', { count: n + 1 }) : '';
    graphBox.dataset.done = done ? 'yes' : 'no';
    drawSwings();
  }

  async function download() {
    say('');
    try {
      const text = await api.recordText(id, token);
      const a = h('a', { href: URL.createObjectURL(new Blob([text], { type: 'text/plain' })), download: `${game.game}-${id}.crown.txt` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      say(e.message);
    }
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest('input, textarea, select')) return;
    const to = { ArrowLeft: rv.ply - 1, ArrowRight: rv.ply + 1, Home: 0, End: n }[ev.key];
    if (to === undefined || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault();
    go(to);
  }

  function leave() {
    rv.closed = true;
    document.removeEventListener('keydown', onKey);
    section.remove();
    ctx.section.hidden = false;
  }

  analyseBtn.addEventListener('click', analyse);
  exportBtn.addEventListener('click', download);
  close.addEventListener('click', leave);
  document.addEventListener('keydown', onKey);

  try {
    rv.positions = [];
    await loadPage(n);
  } catch (e) {
    board.replaceChildren(h('p', { class: 'message' }, e.message));
    return;
  }
  await go(n);
  section.querySelector('.review-nav button').focus({ preventScroll: true });
}
