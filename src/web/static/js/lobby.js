// lobby.js - the home page's lists: this browser's games (mygames.js), each with whose
// turn it is, the opponents and when the last move was played, asked of the server; and
// the server's open games (GET /api/open), with a button to take the open seat and a
// link to watch. The new-game form follows below them (app.js).
import * as api from './api.js';
import { describeControl } from './clockview.js';
import { describePlayer, h, ORDINAL } from './dom.js';
import { resultText } from './finish.js';
import { gameName } from './words.js';
import { forgetGame, myGames, rememberGame } from './mygames.js';
import { yourTurn } from './notify.js';

export function ago(ms, now = Date.now()) {
  if (!ms) return 'not yet';
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  const d = Math.round(s / 86400);
  return `${d} day${d > 1 ? 's' : ''} ago`;
}

function opponents(st) {
  return st.seats.filter((s) => s.seat !== st.you).map((s) => {
    const open = (st.open_seats || []).includes(s.seat);
    return `${ORDINAL[s.seat]}: ${open ? 'open seat' : describePlayer(s.player)}`;
  }).join(', ');
}

function turnText(st) {
  // The result as the finished game's own page says it to this seat: "You lost on time".
  if (st.status === 'over') return st.result ? resultText(st) : 'Game over';
  if (yourTurn(st)) return 'Your turn';
  if (st.to_move === null) return 'chance to act';
  return `${ORDINAL[st.to_move]} player to move`;
}

async function myGameRow(g) {
  const url = `/g/${g.id}#token=${g.token}`;
  try {
    const st = await api.getState(g.id, g.token);
    const mine = yourTurn(st);
    return h('li', { class: `mygame${mine ? ' your-turn' : ''}${st.status === 'over' ? ' over' : ''}`, 'data-id': g.id },
      h('a', { href: url, class: 'game-link' }, gameName(st.game)),
      h('span', { class: 'turn' }, turnText(st)),
      h('span', { class: 'meta' }, `vs ${opponents(st)} · last move ${ago(st.moved_at)}`),
      h('button', { type: 'button', class: 'forget', 'aria-label': `Forget the ${gameName(st.game)} game`, onclick: (e) => { forgetGame(g.id); e.target.closest('li').remove(); } }, 'Forget'));
  } catch (e) {
    // A game the server no longer has (deleted after long disuse) leaves the list.
    if (e.status === 404) { forgetGame(g.id); return null; }
    return h('li', { class: 'mygame', 'data-id': g.id }, h('a', { href: url, class: 'game-link' }, 'a game'), h('span', { class: 'meta' }, e.message));
  }
}

async function take(id, button, message) {
  button.disabled = true;
  try {
    const r = await fetch(`/api/games/${id}/join`, { method: 'POST' });
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
    rememberGame(id, data.token);
    location.assign(data.url);
  } catch (e) {
    message.textContent = e.message;
    button.disabled = false;
  }
}

function openRow(g, message) {
  const seat = g.seats.find((s) => s.open);
  const creator = g.seats.filter((s) => !s.open).map((s) => s.name).join(', ');
  const button = h('button', { type: 'button', class: 'take', 'data-id': g.id }, `Take the ${seat.name}'s seat`);
  button.addEventListener('click', () => take(g.id, button, message));
  return h('li', { class: 'open-game', 'data-id': g.id },
    h('span', { class: 'game-link' }, gameName(g.game)),
    h('span', { class: 'meta' }, `${describeControl(g.clock)} · ${creator} waiting · created ${ago(g.created * 1000)}`),
    button, h('a', { href: g.watch_url, class: 'watch' }, 'Watch'));
}

export async function showLobby(root) {
  const message = h('p', { id: 'lobby-message', class: 'message', role: 'alert' });
  const mine = h('ul', { id: 'my-games', class: 'game-list' });
  const open = h('ul', { id: 'open-games', class: 'game-list' });
  root.replaceChildren(h('section', { id: 'lobby', class: 'lobby', 'aria-label': 'your games and open games' },
    h('h1', {}, 'Your games'), mine,
    h('h2', {}, 'Open games: take a seat'), open, message));

  const list = myGames();
  const rows = (await Promise.all(list.map(myGameRow))).filter(Boolean);
  // Games waiting for this player first, then the rest as they were last seen.
  rows.sort((a, b) => b.classList.contains('your-turn') - a.classList.contains('your-turn'));
  mine.replaceChildren(...(rows.length ? rows : [h('li', { class: 'empty' }, 'No games in this browser yet: start one below or take an open seat.')]));
  mine.dataset.loaded = 'true';

  try {
    const games = (await (await fetch('/api/open')).json()).games || [];
    const known = new Set(list.map((g) => g.id));
    const offered = games.filter((g) => !known.has(g.id));
    open.replaceChildren(...(offered.length ? offered.map((g) => openRow(g, message)) : [h('li', { class: 'empty' }, 'No game is waiting for a player.')]));
  } catch (e) {
    open.replaceChildren(h('li', { class: 'empty' }, `The open games cannot be read: ${e.message}`));
  }
  open.dataset.loaded = 'true';
}
