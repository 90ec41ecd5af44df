// lobby.js - the home page's lists: this browser's games (mygames.js), each with whose
// turn it is, the opponents and when the last move was played, asked of the server; and
// the server's open games (GET /api/open), with a button to take the open seat and a
// link to watch. The new-game form follows below them (app.js).
import * as api from './api.js';
import { describeControl, formatLeft } from './clockview.js';
import { describePlayer, h, seatWords } from './dom.js';
import { t } from './i18n.js';
import { serverWords } from './serverwords.js';
import { resultText } from './finish.js';
import { gameName, seatName } from './words.js';
import { forgetGame, myGames, rememberGame } from './mygames.js';
import { waitingTitle, yourTurn } from './notify.js';

export function ago(ms, now = Date.now()) {
  if (!ms) return t('ago.never');
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 45) return t('ago.now');
  if (s < 3600) return t('ago.minutes', { count: Math.round(s / 60) });
  if (s < 86400) return t('ago.hours', { count: Math.round(s / 3600) });
  return t('ago.days', { count: Math.round(s / 86400) });
}

function opponents(st) {
  return st.seats.filter((s) => s.seat !== st.you).map((s) => {
    const open = (st.open_seats || []).includes(s.seat);
    return `${seatWords(s.seat, true)}: ${open ? t('lobby.open-seat') : describePlayer(s.player)}`;
  }).join(', ');
}

function turnText(st) {
  // The result as the finished game's own page says it to this seat: "You lost on time".
  if (st.status === 'over') return st.result ? resultText(st) : t('lobby.over');
  const turn = yourTurn(st) ? t('lobby.your-turn')
    : st.to_move === null ? t('lobby.chance') : t('lobby.to-move', { seat: seatWords(st.to_move) });
  // A correspondence game: the days and hours the player to move has left.
  const c = st.clock;
  if (!c || !c.days || c.running === null) return turn;
  return `${turn} · ${t('lobby.time-left', { left: formatLeft(c.left_ms[c.running]) })}`;
}

async function myGameRow(g) {
  const url = `/g/${g.id}#token=${g.token}`;
  try {
    const st = await api.getState(g.id, g.token);
    const mine = yourTurn(st);
    return h('li', { class: `mygame${mine ? ' your-turn' : ''}${st.status === 'over' ? ' over' : ''}`, 'data-id': g.id },
      h('a', { href: url, class: 'game-link' }, gameName(st.game)),
      h('span', { class: 'turn' }, turnText(st)),
      h('span', { class: 'meta' }, t('lobby.mine-meta', { opponents: opponents(st), ago: ago(st.moved_at) })),
      h('button', { type: 'button', class: 'forget', 'aria-label': t('lobby.forget-label', { game: gameName(st.game) }), onclick: (e) => { forgetGame(g.id); e.target.closest('li').remove(); } }, t('lobby.forget')));
  } catch (e) {
    // A game the server no longer has (deleted after long disuse) leaves the list.
    if (e.status === 404) { forgetGame(g.id); return null; }
    return h('li', { class: 'mygame', 'data-id': g.id }, h('a', { href: url, class: 'game-link' }, t('lobby.a-game')), h('span', { class: 'meta' }, e.message));
  }
}

async function take(id, button, message) {
  button.disabled = true;
  try {
    const r = await fetch(`/api/games/${id}/join`, { method: 'POST' });
    const data = await r.json();
    if (!r.ok) throw new Error(serverWords(data.error || `the server answered ${r.status}`));
    rememberGame(id, data.token);
    location.assign(data.url);
  } catch (e) {
    message.textContent = e.message;
    button.disabled = false;
  }
}

function openRow(g, message) {
  const seat = g.seats.find((s) => s.open);
  const creator = g.seats.filter((s) => !s.open).map((s) => seatName(g.game, s.seat)).join(', ');
  const button = h('button', { type: 'button', class: 'take', 'data-id': g.id }, t('lobby.take', { seat: seatName(g.game, seat.seat) }));
  button.addEventListener('click', () => take(g.id, button, message));
  return h('li', { class: 'open-game', 'data-id': g.id },
    h('span', { class: 'game-link' }, gameName(g.game)),
    h('span', { class: 'meta' }, t('lobby.open-meta', { clock: describeControl(g.clock), creator, ago: ago(g.created * 1000) })),
    button, h('a', { href: g.watch_url, class: 'watch' }, t('lobby.watch')));
}

export async function showLobby(root) {
  const message = h('p', { id: 'lobby-message', class: 'message', role: 'alert' });
  const mine = h('ul', { id: 'my-games', class: 'game-list' });
  const open = h('ul', { id: 'open-games', class: 'game-list' });
  root.replaceChildren(h('section', { id: 'lobby', class: 'lobby', 'aria-label': t('lobby.label') },
    h('h1', {}, t('lobby.mine')), mine,
    h('h2', {}, t('lobby.open')), open, message));

  const list = myGames();
  const rows = (await Promise.all(list.map(myGameRow))).filter(Boolean);
  // Games waiting for this player first, then the rest as they were last seen.
  rows.sort((a, b) => b.classList.contains('your-turn') - a.classList.contains('your-turn'));
  mine.replaceChildren(...(rows.length ? rows : [h('li', { class: 'empty' }, t('lobby.mine-empty'))]));
  mine.dataset.loaded = 'true';
  // The tab says how many games wait for this player, like each game's page says its own.
  document.title = waitingTitle(rows.filter((r) => r.classList.contains('your-turn')).length);

  try {
    const games = (await (await fetch('/api/open')).json()).games || [];
    const known = new Set(list.map((g) => g.id));
    const offered = games.filter((g) => !known.has(g.id));
    open.replaceChildren(...(offered.length ? offered.map((g) => openRow(g, message)) : [h('li', { class: 'empty' }, t('lobby.open-empty'))]));
  } catch (e) {
    open.replaceChildren(h('li', { class: 'empty' }, t('lobby.open-failed', { error: e.message })));
  }
  open.dataset.loaded = 'true';
}
