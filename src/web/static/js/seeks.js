// seeks.js - finding an opponent on the home page (docs/API.md, "Seeks and challenges"):
// the lobby's seeks, each accepted with one click that lands both players on the game;
// one form of terms (game, players, clock, colour, rated, rating range) that posts a seek
// or, signed in, challenges a named player; and a signed-in player's challenges, to
// accept or decline, or to see answered. The page polls: a seek's poster is seen while
// his page is open, so a seek left behind expires, and he goes to the game once it is
// accepted.
import * as api from './api.js';
import { allGames, gameInfo } from './catalog.js';
import { describeControl } from './clockview.js';
import { h } from './dom.js';
import { t } from './i18n.js';
import { rememberGame, storeTokens, storedTokens } from './mygames.js';
import { readTimeControl, timeControlField } from './timecontrol.js';
import { gameName } from './words.js';

// This browser's open seeks, [{id, token}], kept like its games (mygames.js): a poster
// back after a day finds his correspondence seek's game.
const KEY = 'crown.seeks';
const POLL_MS = 3000;

const mySeeks = () => storedTokens(KEY);
const keepSeeks = (list) => storeTokens(KEY, list);

// To the game an offer made: its seat kept in "your games" first.
function play(answer) {
  const id = answer.url.match(/^\/g\/([0-9a-f]{24})/)[1];
  rememberGame(id, answer.token);
  location.assign(answer.url);
}

// "5 min + 3 s · rated · 1400-1600 · you play first", an offer's terms in words.
function termsText(o) {
  const parts = [describeControl(o.clock), o.rated ? t('seek.rated') : t('seek.casual')];
  if (o.players > 2) parts.push(t('seek.players', { count: o.players }));
  if (o.rating) parts.push(t('seek.range', { min: o.rating.min, max: o.rating.max }));
  if (o.colour !== 'random') parts.push(t(`seek.seat.${o.colour}`));
  return parts.join(' · ');
}

// "Alice (1500?)": a poster with his rating in the game, "?" while it is provisional.
const posterText = (o) => (o.from ? `${o.from} (${o.from_rating}${o.provisional ? '?' : ''})` : t('seek.anonymous'));

const STATES = ['open', 'accepted', 'declined', 'cancelled', 'expired'];
const stateText = (s) => (STATES.includes(s) ? t(`seek.state.${s}`) : s);

function termsForm(signedIn) {
  const games = allGames();
  const game = h('select', { id: 'seek-game', name: 'game' }, ...games.map((g) => h('option', { value: g.name }, gameName(g.name))));
  const players = h('select', { id: 'seek-players', name: 'players' });
  const playersField = h('label', { class: 'field' }, h('span', { class: 'name' }, t('form.players')), players);
  const syncPlayers = () => {
    const info = gameInfo(game.value) || { min_players: 2, max_players: 2 };
    players.replaceChildren(...Array.from({ length: info.max_players - info.min_players + 1 }, (_, k) => h('option', { value: info.min_players + k }, String(info.min_players + k))));
    playersField.hidden = info.max_players === info.min_players;
  };
  game.addEventListener('change', syncPlayers);
  syncPlayers();
  const clock = timeControlField('seek-clock');
  const colour = h('select', { id: 'seek-colour', name: 'colour' },
    ...['random', 'first', 'second'].map((c) => h('option', { value: c }, t(`seek.choice.${c}`))));
  const rated = h('input', { id: 'seek-rated', type: 'checkbox', name: 'rated' });
  const min = h('input', { id: 'seek-min', type: 'number', min: 0, max: 4000, step: 1, placeholder: '0', 'aria-label': t('seek.range-min') });
  const max = h('input', { id: 'seek-max', type: 'number', min: 0, max: 4000, step: 1, placeholder: '4000', 'aria-label': t('seek.range-max') });
  const el = h('div', { class: 'seek-terms' },
    h('label', { class: 'field' }, h('span', { class: 'name' }, t('form.game')), game), playersField, clock,
    h('label', { class: 'field' }, h('span', { class: 'name' }, t('seek.colour')), colour),
    signedIn ? h('label', { class: 'check' }, rated, ` ${t('seek.rated-label')}`) : h('p', { class: 'help' }, t('seek.sign-in-rated')),
    h('div', { class: 'field seek-range' }, h('span', { class: 'name' }, t('seek.range-label')), h('span', {}, min, ' – ', max)));
  const read = () => {
    const body = { game: game.value, players: Number(players.value), colour: colour.value, rated: rated.checked };
    const c = readTimeControl(clock);
    if (c) body.clock = c;
    if (min.value !== '' || max.value !== '') body.rating = { min: Number(min.value || 0), max: Number(max.value || 4000) };
    return body;
  };
  return { el, read };
}

export async function showSeeks(root) {
  let who = { signed_in: false };
  try { who = await api.me(); } catch { /* signed out: seeks work without an account */ }
  const message = h('p', { id: 'seek-message', class: 'message', role: 'alert' });
  const list = h('ul', { id: 'seeks', class: 'game-list' });
  const waiting = h('div', { id: 'seek-waiting', hidden: true });
  const challenges = h('ul', { id: 'challenges', class: 'game-list' });
  const terms = termsForm(who.signed_in);
  const post = h('button', { id: 'seek-post', type: 'submit' }, t('seek.post'));
  const opponent = h('input', { id: 'challenge-name', name: 'to', autocomplete: 'off', maxlength: 20 });
  const challenge = h('button', { id: 'challenge-send', type: 'button' }, t('seek.challenge'));
  const form = h('form', { id: 'seek-form', class: 'seek-form' }, terms.el, post,
    who.signed_in ? h('div', { class: 'field challenge-field' },
      h('label', { class: 'name', for: 'challenge-name' }, t('seek.challenge-label')), h('span', {}, opponent, ' ', challenge)) : null);
  root.replaceChildren(h('section', { id: 'find', class: 'lobby', 'aria-label': t('seek.label') },
    h('h2', {}, t('seek.title')), list, waiting,
    h('details', { class: 'seek-details' }, h('summary', {}, t('seek.new')), form),
    who.signed_in ? [h('h2', {}, t('seek.challenges')), challenges] : null, message));

  const fail = (e) => { message.textContent = e.message; };

  async function refreshSeeks() {
    try {
      const mine = new Set(mySeeks().map((s) => s.id));
      const seeks = (await api.seeks()).seeks;
      list.replaceChildren(...(seeks.length ? seeks.map((s) => seekRow(s, mine.has(s.id))) : [h('li', { class: 'empty' }, t('seek.empty'))]));
    } catch (e) {
      list.replaceChildren(h('li', { class: 'empty' }, t('seek.failed', { error: e.message })));
    }
    list.dataset.loaded = 'true';
  }

  function seekRow(s, mine) {
    const button = mine
      ? h('button', { type: 'button', class: 'seek-cancel', 'data-id': s.id }, t('seek.cancel'))
      : h('button', { type: 'button', class: 'seek-accept', 'data-id': s.id }, t('seek.accept'));
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        if (!mine) return play(await api.acceptSeek(s.id));
        const own = mySeeks().find((x) => x.id === s.id);
        await api.cancelSeek(s.id, own && own.token);
        keepSeeks(mySeeks().filter((x) => x.id !== s.id));
        await refreshSeeks();
        await pollMine();
      } catch (e) {
        fail(e);
        button.disabled = false;
      }
      return undefined;
    });
    return h('li', { class: 'seek', 'data-id': s.id },
      h('span', { class: 'game-link' }, gameName(s.game)),
      h('span', { class: 'meta' }, t('seek.meta', { terms: termsText(s), from: posterText(s) })), button);
  }

  // This browser's own seeks: still open (the poster seen), or accepted: to the game.
  async function pollMine() {
    const kept = [];
    const all = mySeeks();
    for (const s of all) {
      try {
        const now = await api.seek(s.id, s.token);
        if (now.state === 'accepted' && now.url) {
          // Forgotten first: back on this page later, it must not lead there again.
          keepSeeks(all.filter((x) => x.id !== s.id));
          return play(now);
        }
        if (now.state === 'open') kept.push(s);
        else message.textContent = t('seek.closed', { state: stateText(now.state) });
      } catch (e) {
        if (e.status !== 404) kept.push(s);
      }
    }
    keepSeeks(kept);
    waiting.hidden = kept.length === 0;
    waiting.replaceChildren(h('p', { class: 'seek-wait' }, t('seek.waiting', { count: kept.length })));
    return undefined;
  }

  async function refreshChallenges() {
    if (!who.signed_in) return;
    try {
      const { incoming, outgoing } = await api.challenges();
      const rows = [...incoming.map((c) => challengeRow(c, true)), ...outgoing.map((c) => challengeRow(c, false))];
      challenges.replaceChildren(...(rows.length ? rows : [h('li', { class: 'empty' }, t('seek.no-challenges'))]));
    } catch (e) {
      challenges.replaceChildren(h('li', { class: 'empty' }, t('seek.failed', { error: e.message })));
    }
    challenges.dataset.loaded = 'true';
  }

  function action(label, cls, run) {
    const b = h('button', { type: 'button', class: cls }, label);
    b.addEventListener('click', async () => {
      b.disabled = true;
      try { await run(); } catch (e) { fail(e); b.disabled = false; }
    });
    return b;
  }

  function challengeRow(c, incoming) {
    const open = c.state === 'open';
    const who2 = incoming ? t('seek.from', { name: c.from }) : t('seek.to', { name: c.to });
    const buttons = [];
    if (open && incoming) {
      buttons.push(action(t('seek.accept'), 'challenge-accept', async () => play(await api.answerChallenge(c.id, 'accept'))),
        action(t('seek.decline'), 'challenge-decline', async () => { await api.answerChallenge(c.id, 'decline'); await refreshChallenges(); }));
    } else if (open) {
      buttons.push(action(t('seek.cancel'), 'challenge-cancel', async () => { await api.answerChallenge(c.id, 'cancel'); await refreshChallenges(); }));
    } else if (c.url) {
      buttons.push(h('a', { href: c.url, class: 'challenge-play', onclick: () => rememberGame(c.game_id, c.token) }, t('seek.play')));
    }
    return h('li', { class: `challenge ${c.state}`, 'data-id': c.id },
      h('span', { class: 'game-link' }, gameName(c.game)),
      h('span', { class: 'turn' }, stateText(c.state)),
      h('span', { class: 'meta' }, `${who2} · ${termsText(c)}`), ...buttons);
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    post.disabled = true;
    message.textContent = '';
    try {
      const made = await api.postSeek(terms.read());
      keepSeeks([...mySeeks(), { id: made.id, token: made.token }]);
      await refreshSeeks();
      await pollMine();
    } catch (err) {
      fail(err);
    }
    post.disabled = false;
  });
  challenge.addEventListener('click', async () => {
    if (!form.reportValidity()) return;
    challenge.disabled = true;
    message.textContent = '';
    try {
      const { rating, ...body } = terms.read(); // a range is a seek's: a challenge names its player
      await api.challenge({ ...body, to: opponent.value.trim() });
      opponent.value = '';
      await refreshChallenges();
    } catch (err) {
      fail(err);
    }
    challenge.disabled = false;
  });

  await Promise.all([refreshSeeks(), pollMine(), refreshChallenges()]);
  const timer = setInterval(() => { refreshSeeks(); pollMine(); refreshChallenges(); }, POLL_MS);
  window.addEventListener('pagehide', () => clearInterval(timer));
}
