// game.js - a game on the page: the board (drawn by the game's drawer), clicking a
// piece to see where it may go and clicking again to move, multi-action turns step by
// step, moves typed in notation, the move list, result, hint, undo against the AI, the
// AI's thinking indicator and the seats' links. Every state comes from the server (the
// referee); the page never decides what is legal, it only offers what the server lists.
import * as api from './api.js';
import { drawerFor } from './boards/index.js';
import * as textBoard from './boards/text.js';
import { describePlayer, h, ORDINAL } from './dom.js';
import { gameName, gameSummary, hintText, seatName as seatTitle, whyNot } from './words.js';
import { t } from './i18n.js';
import { serverWords } from './serverwords.js';
import { Composer } from './compose.js';
import { keyboardBoard } from './keyboard.js';
import { openReview, reviewButton } from './review.js';
import { analysisHref } from './analysis.js';
import { finishControls, resultText } from './finish.js';
import { takebackControls } from './takeback.js';
import { actionLabel, rulesHref } from './learn.js';
import { createComeback } from './comeback.js';
import { createSolution } from './solution.js';
import { drawMoves } from './movelist.js';
import { ratingBeside } from './profile.js';

export function showGame(root, id, token) {
  const ui = {
    id,
    token,
    state: null,
    selected: null,
    hint: null,    // {move, cells, score} for the current ply
    busy: false,   // a move or undo is on its way
    stop: null,
  };

  const board = h('div', { id: 'board', class: 'board-box' });
  // What a drawer says in words beside its board (King Down's armies, the Labyrinth's
  // pillars): its beside(state).
  const beside = h('div', { id: 'beside', class: 'beside', hidden: true });
  // A turn being put together on the page (compose.js): what it says, done, cancel.
  const composer = new Composer(id);
  const composeSay = h('span', { id: 'compose-text' });
  // Ending the turn early is a special action like the others: labelled and explained
  // in words on the button (learn.js), since a phone cannot hover.
  const composeDone = h('button', { id: 'compose-done', type: 'button', class: 'action' }, t('game.done'));
  const composeBar = h('div', { id: 'compose', class: 'compose', hidden: true }, composeSay,
    composeDone, h('button', { id: 'compose-cancel', type: 'button', onclick: () => cancelCompose() }, t('game.cancel')));
  const actions = h('div', { id: 'actions', class: 'actions' });
  const actionHelp = h('p', { id: 'action-help', class: 'action-help', hidden: true });
  const chooser = h('div', { id: 'chooser', class: 'chooser', hidden: true });
  const title = h('h1', { id: 'title', class: 'game-title' });
  const summary = h('p', { class: 'summary' });
  const status = h('p', { id: 'status', class: 'status' });
  // On a phone the panel comes below the board, which may be taller than the screen (King
  // of the Valley's table): the same words stay in view above it, stuck to the top.
  const turnBar = h('p', { id: 'turn-bar', class: 'turn-bar', 'aria-hidden': 'true' });
  const thinking = h('p', { id: 'thinking', class: 'thinking', hidden: true }, h('span', { class: 'spinner' }), ' ', h('span'));
  const result = h('p', { id: 'result', class: 'result', hidden: true });
  const message = h('p', { id: 'message', class: 'message', role: 'alert' });
  const input = h('input', { id: 'move-input', list: 'legal-list', autocomplete: 'off', placeholder: t('game.type-move'), 'aria-label': t('game.move-label') });
  const datalist = h('datalist', { id: 'legal-list' });
  const typed = h('form', { id: 'type-move', class: 'type-move' }, input, datalist, h('button', { type: 'submit' }, t('game.play')));
  const hintBtn = h('button', { id: 'hint', type: 'button' }, t('game.hint'));
  const undoBtn = h('button', { id: 'undo', type: 'button' }, t('game.undo'));
  const moves = h('ol', { id: 'moves', class: 'moves' });
  const seats = h('div', { id: 'seats', class: 'seats' });
  const comeback = createComeback(id);
  const solution = createSolution(id, token); // a finished solved game's verdict
  const record = h('a', { id: 'record-link', href: `/api/games/${id}/record`, target: '_blank', rel: 'noopener' }, t('game.record'));
  const rules = h('a', { id: 'rules-link', href: '/learn' }, t('game.rules'));
  const finish = finishControls(id, token, (st) => applyState(st), (text) => say(text));
  const takeback = takebackControls(id, token, (st) => applyState(st), (text) => say(text));

  root.replaceChildren(h('section', { class: 'game' },
    h('div', { class: 'board-area' }, turnBar, board, beside, actionHelp, composeBar, chooser, actions),
    h('aside', { class: 'panel' },
      title, summary, comeback.clocks, status, thinking, result, message, typed,
      h('div', { class: 'buttons' }, hintBtn, undoBtn, takeback.button), takeback.element, finish.element,
      h('h2', {}, t('game.moves')), moves,
      h('h2', {}, t('form.players')), seats, comeback.el,
      h('p', { class: 'links' }, h('a', { href: '/' }, t('form.title')), ' · ', rules, ' · ', record))));

  // Keyboard play on the board (keyboard.js); the review of the game (review.js).
  keyboardBoard(board);
  const reviewCtx = { root, section: root.firstElementChild, id, token, state: () => ui.state };
  root.querySelector('.links').append(' · ', reviewButton(reviewCtx));
  // The analysis board from this position: as much help as a hint or a review, so only
  // once the game is over or for a seat whose opponents are all AIs.
  const analysisLink = h('a', { id: 'analysis-open', href: '/analysis' }, t('game.analysis'));
  const analysisItem = h('span', { hidden: true }, ' · ', analysisLink);
  root.querySelector('.links').append(analysisItem);

  const myTurn = () => ui.state && ui.state.you !== null && ui.state.to_move === ui.state.you && ui.state.status === 'playing';
  // A message marked paused is the stream's own, cleared when it reconnects.
  const say = (text) => { message.textContent = text || ''; delete message.dataset.paused; };

  // --- what the board shows -------------------------------------------------------------

  // Legal moves with at least one cell start at cells[0] and end at their last cell.
  function shortValue(text) {
    const m = /^(win|loss) in (\d+)$/.exec(text);
    return m ? (m[1] === 'win' ? 'W' : 'L') + m[2] : '=';
  }

  function marks() {
    const st = composer.shown(ui.state);
    const legal = myTurn() ? st.legal : [];
    const targets = new Set();
    const movable = new Set();
    for (const m of legal) if (m.cells.length) movable.add(m.cells[0]);
    if (ui.selected) for (const m of legal) if (m.cells.length >= 2 && m.cells[0] === ui.selected) targets.add(m.cells.at(-1));
    const lastMove = st.moves.length ? st.moves.at(-1) : null;
    // A solved game's hint carries every move's exact value: the selected piece's
    // targets show theirs ("W9" win in 9 plies, "L4" loss in 4, "=" draw).
    const values = new Map();
    if (ui.hint && ui.hint.values && ui.selected) {
      for (const v of ui.hint.values) {
        if (v.cells.length >= 2 && v.cells[0] === ui.selected) values.set(v.cells.at(-1), shortValue(v.value));
      }
    }
    return {
      values,
      selected: ui.selected,
      targets,
      movable,
      last: new Set(lastMove && lastMove.cells ? lastMove.cells : []),
      // A hinted turn of several actions marks every cell it touches: the stack taken
      // and where its pieces go (King's Guard).
      hint: new Set(ui.hint ? [...ui.hint.cells, ...(ui.hint.turn || []).flatMap((a) => a.cells)] : []),
    };
  }

  function drawBoard() {
    const st = composer.shown(ui.state);
    const drawer = drawerFor(st.game);
    let pic;
    try {
      // A drawer reads state.observation (or, until its game has one, state.position or
      // state.view).
      pic = drawer && (st.observation || st.position || st.view) ? drawer.draw(st, marks()) : textBoard.draw(st);
    } catch (e) {
      // A drawer that cannot read a position must not take the game away: fall back.
      console.error(e);
      pic = textBoard.draw(st);
    }
    board.replaceChildren(pic);
    const said = drawer && drawer.beside && st.observation ? drawer.beside(st) : null;
    beside.hidden = !said;
    beside.replaceChildren(...(said ? [said] : []));
    Object.assign(board.dataset, {
      ply: st.ply, version: st.version, status: st.status, you: st.you ?? '',
      toMove: st.to_move ?? '', thinking: st.thinking ?? '', selected: ui.selected ?? '',
      compose: composer.acts.length || '',
    });
  }

  function seatName(seat) {
    const st = ui.state;
    const who = describePlayer(st.seats[seat].player);
    return t('game.seat-who', { seat: seatTitle(st.game, seat), who: seat === st.you ? t('game.you') : who });
  }

  function render() {
    const st = ui.state;
    drawBoard();
    title.textContent = gameName(st.game);
    summary.textContent = gameSummary(st.game, st.summary);
    status.textContent = st.status === 'over' ? t('lobby.over')
      : st.to_move === null ? t('game.chance')
        : myTurn() ? t('game.your-move', { seat: seatTitle(st.game, st.you) }) : t('lobby.to-move', { seat: seatName(st.to_move) });
    turnBar.textContent = st.status === 'over' ? resultText(st) || t('lobby.over') : status.textContent;
    turnBar.classList.toggle('mine', myTurn());
    thinking.hidden = st.thinking === null;
    if (st.thinking !== null) thinking.lastElementChild.textContent = t('game.thinking', { seat: seatName(st.thinking) });
    result.hidden = !st.result;
    result.textContent = resultText(st);
    finish.update(st);
    takeback.update(st);
    rules.href = rulesHref(st.game);
    if (st.ai_error) say(t('game.ai-error', { error: st.ai_error }));

    // Actions that touch no cell (end a turn, swap) are buttons; so is every move of a
    // game whose board the page cannot draw.
    const clickable = drawerFor(st.game) && (st.observation || st.position || st.view);
    // Actions the board offers itself (a hill slot, a castle column) need no button:
    // King of the Valley's wizard may have 45 swaps.
    const onBoard = new Set([...board.querySelectorAll('[data-moves]')].flatMap((e) => e.getAttribute('data-moves').split('|')));
    const buttons = myTurn() ? st.legal.filter((m) => (m.cells.length === 0 || !clickable) && !onBoard.has(m.text)) : [];
    actions.replaceChildren(...buttons.map((m) => h('button', { type: 'button', class: 'action', 'data-move': m.text, onclick: () => play(m.text) }, ...actionLabel(m, st.game))));
    const help = myTurn() ? st.turn_help : null;
    actionHelp.hidden = !help;
    actionHelp.textContent = help ? serverWords(help) : '';
    datalist.replaceChildren(...(myTurn() ? st.legal : []).map((m) => h('option', { value: m.text })));
    input.disabled = !myTurn();
    typed.querySelector('button').disabled = !myTurn();
    // Once the game is over nothing is played any more: the move box, Hint and Undo
    // leave the page to the end's own actions (finish.js: rematch, review).
    const over = st.status === 'over';
    typed.hidden = over;
    hintBtn.disabled = !myTurn();
    hintBtn.hidden = over || st.you === null || st.hints === false;
    const othersAi = st.seats.every((s) => s.seat === st.you || s.ai);
    undoBtn.hidden = over || st.you === null || !othersAi;
    undoBtn.disabled = !st.moves.some((m) => m.seat === st.you) || st.status === 'over';
    analysisItem.hidden = !st.position || !(st.status === 'over' || (st.you !== null && othersAi));
    if (st.position) analysisLink.href = analysisHref({ game: st.game, rules: st.rules, players: st.players, position: st.position });

    drawMoves(moves, st.moves, st.game); // by rounds and turns (movelist.js)
    moves.scrollTop = moves.scrollHeight;
    renderSeats();
    solution.decorate(st, moves, board);
  }

  let ratingsRead = false; // the players' ratings read again after the game's end
  function renderSeats() {
    const st = ui.state;
    // The links to hand out are in the share box (share.js). A seat an account sits in
    // is named by it (api_lobby.c's "accounts").
    const names = st.accounts || [];
    // In a rated game each account's rating in this game follows its name (profile.js),
    // read again once the game's result has moved it.
    const fresh = st.rating_change !== null && st.rating_change !== undefined && !ratingsRead;
    if (fresh) ratingsRead = true;
    seats.replaceChildren(...st.seats.map((s) => {
      const name = names[s.seat];
      const account = name && name !== 'deleted player';
      const p = h('p', { class: `seat p${s.seat}` }, h('span', { class: 'swatch' }),
        ` ${seatTitle(st.game, s.seat, true)}: `,
        name ? h(account ? 'a' : 'span', account ? { class: 'seat-account', href: `/u/${encodeURIComponent(name)}` } : { class: 'seat-account' },
          s.seat === st.you ? t('seat.you', { seat: account ? name : t('profile.deleted') }) : account ? name : t('profile.deleted'))
          : s.seat === st.you ? t('seat.you', { seat: describePlayer(s.player) }) : describePlayer(s.player));
      if (st.rated && account) {
        const slot = h('span', { class: 'seat-rating' });
        p.append(slot);
        ratingBeside(name, st.game, st.rating_change ? st.rating_change[s.seat] : null, fresh).then((el) => slot.replaceWith(el));
      }
      return p;
    }));
  }

  // --- state updates --------------------------------------------------------------------

  let shownVersion = -1;
  function applyState(st) {
    // Event streams and answers may cross; never go back to an older version.
    if (st.version < shownVersion) return;
    const moved = !ui.state || st.ply !== ui.state.ply;
    shownVersion = st.version;
    ui.state = st;
    comeback.update(st);
    if (moved) {
      ui.hint = null;
      ui.selected = null;
      chooser.hidden = true;
      composer.clear();
      composeBar.hidden = true;
    }
    // When every move left starts from one cell (the rest of a King's Guard turn), it
    // is already selected.
    if (myTurn() && !ui.selected) {
      const starts = new Set(st.legal.filter((m) => m.cells.length >= 2).map((m) => m.cells[0]));
      const singles = st.legal.filter((m) => m.cells.length === 1);
      if (starts.size === 1 && singles.length === 0) ui.selected = [...starts][0];
    }
    render();
  }

  async function play(text) {
    if (ui.busy || !myTurn()) return;
    ui.busy = true;
    say('');
    chooser.hidden = true;
    try {
      applyState(await api.playMove(id, token, text, ui.state.ply));
    } catch (e) {
      say(e.message);
      ui.selected = null;
      render();
      if (e.status === 409) refresh();
    } finally {
      ui.busy = false;
    }
  }

  // Several moves share a piece's from and to cells: ask which. A drawer may picture
  // the choices (King Down's promotions: boards/kingdown.js's choiceFace); then the
  // picker opens on the board at `cell`, the square they lead to, as lichess does.
  function choose(options, cell) {
    const drawer = drawerFor(ui.state.game);
    const face = (m) => (drawer && drawer.choiceFace ? drawer.choiceFace(ui.state, m) : null);
    const faces = options.map(face);
    const pictured = faces.every(Boolean);
    chooser.replaceChildren(h('span', { class: 'chooser-title' }, pictured && drawer.choiceTitle ? drawer.choiceTitle() : `${t('game.which')} `),
      ...options.map((m, i) => {
        const f = faces[i];
        return h('button', { type: 'button', class: f ? 'choice pictured' : 'choice', 'data-move': m.text, 'aria-label': f ? f.label : null, onclick: () => play(m.text) },
          f ? f.picture : null, f ? h('span', {}, f.label) : m.text);
      }),
      h('button', { type: 'button', class: 'cancel', onclick: () => { chooser.hidden = true; } }, t('game.cancel')));
    chooser.classList.toggle('on-board', Boolean(pictured && cell));
    chooser.classList.toggle('two-columns', options.length > 5);
    chooser.style.left = chooser.style.top = '';
    chooser.hidden = false;
    if (pictured && cell) placeOnBoard(chooser, cell);
  }

  // Puts `box` (absolutely placed in the board's area) over the board at `cell`, running
  // towards the board's middle, and never past the board's edges nor off the screen.
  function placeOnBoard(box, cell) {
    const target = board.querySelector(`[data-cell="${cell}"]`);
    if (!target) return;
    const area = board.parentElement.getBoundingClientRect();
    const b = board.getBoundingClientRect();
    const t = target.getBoundingClientRect();
    const { width: w, height: ht } = box.getBoundingClientRect();
    const clamp = (v, lo, hi) => Math.max(lo, Math.min(v, hi));
    const left = clamp(t.left + t.width / 2 - w / 2, b.left, b.right - w);
    const downwards = t.top + t.height / 2 < b.top + b.height / 2;
    const top = clamp(downwards ? t.top : t.bottom - ht, b.top, b.bottom - ht);
    box.style.left = `${Math.max(0, left - area.left)}px`;
    box.style.top = `${Math.max(0, top - area.top)}px`;
    box.scrollIntoView({ block: 'nearest' });
  }

  // --- a turn put together on the page (King's Guard) ------------------------------------

  // At the start of a turn (only pick-ups offered) or while one is being put together.
  function composes() {
    const drawer = drawerFor(ui.state.game);
    return myTurn() && drawer && drawer.composeTurns &&
      (composer.active || ui.state.legal.every((m) => m.cells.length <= 1));
  }

  function cancelCompose() {
    if (!composer.active) return;
    composer.clear();
    composeBar.hidden = true;
    ui.selected = null;
    say('');
    drawBoard();
  }

  function commitCompose(last) {
    const text = composer.text(last);
    composer.clear();
    composeBar.hidden = true;
    return play(text);
  }

  async function composeClick(cell) {
    let text;
    if (!composer.active) {
      const pick = ui.state.legal.find((m) => m.cells.length === 1 && m.cells[0] === cell);
      if (!pick) {
        say(whyNot(ui.state, cell, ORDINAL));
        return undefined;
      }
      text = pick.text;
    } else {
      const place = composer.view.legal.find((m) => m.cells.length >= 2 && m.cells[0] === ui.selected && m.cells.at(-1) === cell);
      // A click anywhere but where the next piece may go drops the turn.
      if (!place) return cancelCompose();
      text = place.text;
    }
    ui.busy = true;
    say('');
    let view;
    try {
      view = await composer.add(text);
    } catch (e) {
      say(e.message);
      composer.clear();
      ui.selected = null;
    } finally {
      ui.busy = false;
    }
    if (view && view.turn_over) return commitCompose();
    if (view) {
      const start = view.legal.find((m) => m.cells.length >= 2);
      ui.selected = start ? start.cells[0] : ui.selected;
      const placed = composer.acts.length - 1;
      // The action that ends the turn early, as the game offers it (King's Guard's).
      const end = view.legal.find((m) => m.kind === 'end');
      const canEnd = Boolean(end);
      composeSay.textContent = placed === 0
        ? t('game.stack-picked', { cell: ui.selected })
        : t(canEnd ? 'game.stack-placed-end' : 'game.stack-placed', { count: placed, cell: ui.selected });
      if (end) composeDone.replaceChildren(...actionLabel(end, ui.state.game));
      composeDone.dataset.move = end ? end.text : '';
      composeDone.hidden = !canEnd;
      composeBar.hidden = false;
    } else {
      composeBar.hidden = true;
    }
    drawBoard();
    return undefined;
  }

  composeDone.addEventListener('click', () => { if (composer.active && !ui.busy && composeDone.dataset.move) commitCompose(composeDone.dataset.move); });
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    chooser.hidden = true;
    if (composer.active) cancelCompose();
  });

  function clickCell(cell) {
    if (myTurn() && !ui.busy && composes()) return composeClick(cell);
    if (!myTurn() || ui.busy) {
      if (!ui.busy) say(whyNot(ui.state, cell, ORDINAL));
      return;
    }
    const legal = ui.state.legal;
    chooser.hidden = true;
    if (ui.selected && ui.selected !== cell) {
      const to = legal.filter((m) => m.cells.length >= 2 && m.cells[0] === ui.selected && m.cells.at(-1) === cell);
      if (to.length === 1) return play(to[0].text);
      if (to.length > 1) return choose(to, cell);
    }
    const singles = legal.filter((m) => m.cells.length === 1 && m.cells[0] === cell);
    const starts = legal.some((m) => m.cells.length >= 2 && m.cells[0] === cell);
    // A second click on the selected piece lets go of it, unless it is the only piece
    // that may move (the rest of a King's Guard turn) or it has a one-cell action.
    const forced = new Set(legal.filter((m) => m.cells.length >= 2).map((m) => m.cells[0])).size === 1;
    if (starts && (ui.selected !== cell || (forced && singles.length === 0))) {
      ui.selected = cell;
    } else if (singles.length === 1) {
      return play(singles[0].text);
    } else if (singles.length > 1) {
      return choose(singles);
    } else {
      ui.selected = null;
      say(whyNot(ui.state, cell, ORDINAL));
    }
    drawBoard();
  }

  board.addEventListener('click', (e) => {
    const c = e.target.closest('[data-cell]');
    if (c) return clickCell(c.getAttribute('data-cell'));
    if (composer.active) return cancelCompose();
    // A drawer may offer actions that touch no cell on other things it draws (a hill
    // slot, a castle column): data-moves holds their texts, '|' between. Only what the
    // server lists is played; several are asked about.
    const o = e.target.closest('[data-moves]');
    if (!o || !myTurn() || ui.busy) return undefined;
    const texts = o.getAttribute('data-moves').split('|');
    const offered = ui.state.legal.filter((m) => texts.includes(m.text));
    chooser.hidden = true;
    if (offered.length === 1) return play(offered[0].text);
    if (offered.length > 1) choose(offered);
    return undefined;
  });

  typed.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) play(text).then(() => { if (!message.textContent) input.value = ''; });
  });

  hintBtn.addEventListener('click', async () => {
    hintBtn.disabled = true;
    say(t('game.hint-thinking'));
    try {
      const ply = ui.state.ply;
      const r = await api.hint(id, token);
      if (ui.state.ply === ply) {
        ui.hint = r;
        const drawer = drawerFor(ui.state.game);
        const told = r.turn && drawer && drawer.turnWords ? drawer.turnWords(r.turn) : null;
        say(hintText(r, told ? told.join(', ') : null));
        drawBoard();
      }
    } catch (e) {
      say(e.message);
    } finally {
      hintBtn.disabled = !myTurn();
    }
  });

  undoBtn.addEventListener('click', async () => {
    if (ui.busy) return;
    ui.busy = true;
    say('');
    try {
      applyState(await api.undo(id, token));
    } catch (e) {
      say(e.message);
    } finally {
      ui.busy = false;
    }
  });

  async function refresh() {
    try {
      applyState(await api.getState(id, token));
    } catch (e) {
      if (!ui.state) {
        root.replaceChildren(h('p', { class: 'message' }, e.message, ' ', h('a', { href: '/' }, t('chrome.start-new'))));
        if (ui.stop) ui.stop();
      } else {
        say(e.message);
      }
    }
  }

  // A drawer may lay a board out for phones (King of the Valley): redraw when the
  // screen turns or the window narrows.
  if (typeof matchMedia === 'function') matchMedia('(max-width: 600px)').addEventListener('change', () => { if (ui.state) drawBoard(); });

  refresh().then(() => {
    if (!ui.state) return;
    // A reconnected stream may come from a restarted server, whose versions start again
    // from what it stored: accept whatever it sends first.
    // While the stream is refused (the game's or the address's streams are full) the
    // page says so and tries again; the board's data-stream tells tests which it is.
    ui.stop = api.watch(id, token, applyState, () => {
      shownVersion = -1;
      board.dataset.stream = 'open';
      if (message.dataset.paused) say('');
    }, (ms) => {
      board.dataset.stream = 'down';
      say(t('game.paused', { s: Math.ceil(ms / 1000) }));
      message.dataset.paused = 'true';
    });
    if (new URLSearchParams(location.hash.slice(1)).has('review')) openReview(reviewCtx);
  });
}
