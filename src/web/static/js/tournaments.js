// tournaments.js - the tournaments at /tournaments (the list, a page at a time, and the
// form that creates one) and /tournaments/ID (its players, joining and leaving, the
// creator's AI seats, start and cancelling, the rounds with links to watch and play, the
// standings and a round-robin's crosstable). The page follows the tournament live: its
// event stream says when it changed (an entrant, a pairing, a result, its state) and the
// page reads it again then; only while the stream is down (refused, or the server gone)
// does it ask every thirty seconds, until the stream is back. The creator's and the
// entrant's secret tokens stay in this browser's localStorage.
import * as api from './api.js';
import { allGames } from './catalog.js';
import { describePlayer, h } from './dom.js';
import { formatNumber, t } from './i18n.js';
import { gameName } from './words.js';

const STORE = 'crown-tournaments';
// How often the page asks while its event stream is down.
const SLOW_POLL_MS = 30000;

function tokens() {
  try { return JSON.parse(localStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
}

function keep(id, kind, token) {
  const all = tokens();
  all[id] = { ...(all[id] || {}), [kind]: token };
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { /* private mode: this visit only */ }
}

function forget(id, kind) {
  const all = tokens();
  if (all[id]) delete all[id][kind];
  try { localStorage.setItem(STORE, JSON.stringify(all)); } catch (e) { /* private mode */ }
}

const formatName = (f) => t(`tour.format.${f}`);
const stateName = (s) => t(`tour.state.${s}`);
const entrantName = (e) => (e.player === 'human' ? e.name : describePlayer(e.player));
const startTime = (secs) => new Date(secs * 1000).toLocaleString();
const points = (p) => formatNumber(p, { maximumFractionDigits: 1 });
// A table that scrolls sideways by itself when wider than a phone, reachable by Tab.
const scroller = (label, table) => h('div', { class: 'tour-scroll', tabindex: '0', role: 'region', 'aria-label': label }, table);

function resultText(r) {
  if (r === null || r === undefined) return t('tour.playing');
  return r === 1 ? '1–0' : r === 0 ? '0–1' : '½–½';
}

// The two-player games of this server, for the form.
const twoPlayerGames = () => allGames().filter((g) => g.min_players <= 2 && g.max_players >= 2).map((g) => g.name);

function field(label, input) {
  return h('label', { class: 'tour-field' }, h('span', {}, label), input);
}

function createForm(onError) {
  const name = h('input', { type: 'text', name: 'name', maxlength: '32', required: '' });
  const game = h('select', { name: 'game' }, ...twoPlayerGames().map((g) => h('option', { value: g }, gameName(g))));
  const format = h('select', { name: 'format' },
    ...['round-robin', 'swiss', 'arena'].map((f) => h('option', { value: f }, formatName(f))));
  const rounds = h('input', { type: 'number', name: 'rounds', min: '1', max: '20', value: '5' });
  const duration = h('input', { type: 'number', name: 'duration', min: '1', max: '180', value: '30' });
  const minutes = h('input', { type: 'number', name: 'minutes', min: '0', max: '180', value: '5' });
  const increment = h('input', { type: 'number', name: 'increment', min: '0', max: '60', value: '3' });
  const starts = h('input', { type: 'number', name: 'starts', min: '0', max: '10080', value: '10' });
  const max = h('input', { type: 'number', name: 'max', min: '2', max: '64', value: '16' });
  const form = h('form', { class: 'tour-form', 'aria-labelledby': 'tour-create' },
    h('h2', { id: 'tour-create' }, t('tour.create')),
    field(t('tour.field.name'), name), field(t('tour.field.game'), game), field(t('tour.field.format'), format),
    field(t('tour.field.rounds'), rounds), field(t('tour.field.duration'), duration), field(t('tour.field.minutes'), minutes),
    field(t('tour.field.increment'), increment), field(t('tour.field.starts'), starts), field(t('tour.field.max'), max),
    h('button', { type: 'submit' }, t('tour.submit')));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = {
      name: name.value.trim(), game: game.value, format: format.value,
      starts_in: Math.round(Number(starts.value) * 60), max_players: Number(max.value),
    };
    if (format.value === 'swiss') body.rounds = Number(rounds.value);
    if (format.value === 'arena') body.duration = Math.round(Number(duration.value) * 60);
    if (Number(minutes.value) > 0) body.clock = { initial: Number(minutes.value) * 60, increment: Number(increment.value) };
    try {
      const made = await api.createTournament(body);
      keep(made.id, 'creator', made.token);
      location.href = `/tournaments/${made.id}`;
    } catch (e) {
      onError(e.message);
    }
  });
  return form;
}

// /tournaments
export async function showTournaments(root) {
  document.title = `${t('tour.title')} · crown`;
  const status = h('p', { class: 'tour-status', role: 'status' });
  const list = h('div', { class: 'tour-list' });
  root.replaceChildren(h('h1', {}, t('tour.title')), list, status, createForm((msg) => { status.textContent = msg; }));
  const row = (x) => h('tr', {},
    h('td', {}, h('a', { href: `/tournaments/${x.id}` }, x.name)), h('td', {}, gameName(x.game)),
    h('td', {}, formatName(x.format)), h('td', {}, `${x.players}/${x.max_players}`),
    h('td', {}, stateName(x.state)), h('td', {}, startTime(x.starts)));
  const rows = h('tbody');
  // The finished ones stay for review: the list comes a page at a time.
  const more = h('button', { type: 'button', id: 'tour-more', hidden: '' }, t('tour.more'));
  let next = 0;
  const page = async () => {
    const got = await api.listTournaments(next);
    rows.append(...got.tournaments.map(row));
    next = got.next;
    more.hidden = next === null;
    return got.tournaments.length;
  };
  more.addEventListener('click', async () => {
    try { await page(); } catch (e) { status.textContent = e.message; }
  });
  try {
    if (!(await page())) {
      list.replaceChildren(h('p', {}, t('tour.none')));
      root.dataset.ready = 'tournaments';
      return;
    }
    root.dataset.ready = 'tournaments';
    list.replaceChildren(scroller(t('tour.title'), h('table', { class: 'tour-table' },
      h('thead', {}, h('tr', {}, ...['name', 'game', 'format', 'players', 'state', 'starts'].map((k) => h('th', { scope: 'col' }, t(`tour.col.${k}`))))),
      rows)), more);
  } catch (e) {
    status.textContent = e.message;
  }
}

function playersSection(tour, mine, act) {
  const items = tour.entrants.map((e) => {
    const li = h('li', {}, entrantName(e));
    if (tour.you && tour.you.seed === e.seed) li.append(' ', t('tour.you'));
    if (mine.creator && tour.state === 'open') {
      li.append(' ', h('button', { type: 'button', class: 'tour-remove', 'aria-label': t('tour.remove', { name: entrantName(e) }) }, '×'));
      li.lastChild.addEventListener('click', () => act(() => api.tournamentAction(tour.id, mine.creator, 'leave', { entry: e.entry })));
    }
    return li;
  });
  const box = h('section', { class: 'tour-players', 'aria-labelledby': 'tour-players' },
    h('h2', { id: 'tour-players' }, t('tour.entrants')), h('ol', {}, ...items));
  if (tour.state !== 'open') return box;
  if (tour.you) {
    const leave = h('button', { type: 'button', id: 'tour-leave' }, t('tour.leave'));
    leave.addEventListener('click', () => act(async () => {
      await api.tournamentAction(tour.id, mine.entrant, 'leave');
      forget(tour.id, 'entrant');
    }));
    box.append(leave);
  } else {
    const name = h('input', { type: 'text', id: 'tour-your-name', maxlength: '32', value: '' });
    const join = h('form', { class: 'tour-join' }, field(t('tour.your-name'), name), h('button', { type: 'submit', id: 'tour-join-button' }, t('tour.join')));
    join.addEventListener('submit', (ev) => {
      ev.preventDefault();
      act(async () => {
        const body = name.value.trim() ? { name: name.value.trim() } : {};
        const r = await api.tournamentAction(tour.id, null, 'join', body);
        keep(tour.id, 'entrant', r.token);
      });
    });
    box.append(join);
  }
  if (mine.creator) {
    const level = h('select', { id: 'tour-ai-level' }, ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((l) => h('option', { value: String(l) }, describePlayer(`ai:${l}`))));
    const add = h('form', { class: 'tour-join' }, field(t('tour.ai-level'), level), h('button', { type: 'submit', id: 'tour-add-ai' }, t('tour.add-ai')));
    add.addEventListener('submit', (ev) => {
      ev.preventDefault();
      act(() => api.tournamentAction(tour.id, mine.creator, 'join', { player: `ai:${level.value}` }));
    });
    const start = h('button', { type: 'button', id: 'tour-start' }, t('tour.start'));
    start.addEventListener('click', () => act(() => api.tournamentAction(tour.id, mine.creator, 'start')));
    const cancel = h('button', { type: 'button', id: 'tour-cancel' }, t('tour.cancel'));
    cancel.addEventListener('click', () => act(() => api.tournamentAction(tour.id, mine.creator, 'cancel')));
    box.append(add, start, cancel);
  }
  return box;
}

function roundsSection(tour) {
  const name = (seed) => entrantName(tour.entrants[seed]);
  const rounds = tour.pairings.map((boards, i) => h('section', { class: 'tour-round', 'aria-labelledby': `tour-round-${i}` },
    h('h3', { id: `tour-round-${i}` }, t('tour.round-n', { round: i + 1 })),
    h('ul', {}, ...boards.map((b) => h('li', {},
      b.black === null ? `${name(b.white)}: ${t('tour.bye')}` : `${name(b.white)} – ${name(b.black)}: ${resultText(b.result)}`,
      ...(b.watch_url ? [' ', h('a', { href: b.watch_url }, t('tour.watch'))] : []))))));
  return h('section', { 'aria-labelledby': 'tour-rounds' }, h('h2', { id: 'tour-rounds' }, t('tour.pairings')), ...rounds);
}

function standingsSection(tour) {
  if (tour.format === 'arena') return arenaSection(tour);
  const swiss = tour.format === 'swiss';
  const head = ['place', 'player', 'points', swiss ? 'buchholz' : 'sb', 'wdl'];
  return h('section', { 'aria-labelledby': 'tour-standings' }, h('h2', { id: 'tour-standings' }, t('tour.standings')),
    scroller(t('tour.standings'), h('table', { class: 'tour-table tour-standings' },
      h('thead', {}, h('tr', {}, ...head.map((k) => h('th', { scope: 'col' }, t(`tour.col.${k}`))))),
      h('tbody', {}, ...tour.standings.map((s) => h('tr', {},
        h('td', {}, String(s.place)), h('td', {}, entrantName(tour.entrants[s.seed])), h('td', {}, points(s.points)),
        h('td', {}, points(swiss ? s.buchholz : s.sonneborn_berger)), h('td', {}, `${s.wins}–${s.draws}–${s.losses}`)))))));
}

// An arena's table: its points (a fire after two wins in a row doubles the next game),
// then the performance that breaks ties.
function arenaSection(tour) {
  const head = ['place', 'player', 'score', 'performance', 'wdl'];
  return h('section', { 'aria-labelledby': 'tour-standings' }, h('h2', { id: 'tour-standings' }, t('tour.standings')),
    scroller(t('tour.standings'), h('table', { class: 'tour-table tour-standings' },
      h('thead', {}, h('tr', {}, ...head.map((k) => h('th', { scope: 'col' }, t(`tour.col.${k}`))))),
      h('tbody', {}, ...tour.standings.map((s) => h('tr', {},
        h('td', {}, String(s.place)),
        h('td', {}, entrantName(tour.entrants[s.seed]), ...(s.on_fire ? [' ', h('span', { title: t('tour.on-fire') }, t('tour.on-fire'))] : [])),
        h('td', {}, String(s.score)), h('td', {}, formatNumber(s.performance, { style: 'percent' })),
        h('td', {}, `${s.wins}–${s.draws}–${s.losses}`)))))));
}

function crosstableSection(tour) {
  const n = tour.entrants.length;
  return h('section', { class: 'tour-cross', 'aria-labelledby': 'tour-cross' }, h('h2', { id: 'tour-cross' }, t('tour.crosstable')),
    scroller(t('tour.crosstable'), h('table', { class: 'tour-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('tour.col.player')),
        ...Array.from({ length: n }, (_, j) => h('th', { scope: 'col' }, String(j + 1))))),
      h('tbody', {}, ...tour.crosstable.map((row, i) => h('tr', {},
        h('th', { scope: 'row' }, `${i + 1}. ${entrantName(tour.entrants[i])}`),
        ...row.map((v, j) => h('td', {}, i === j ? '×' : v === null ? '' : points(v)))))))));
}

// /tournaments/ID
export async function showTournament(root, id) {
  const status = h('p', { class: 'tour-status', role: 'status' });
  const live = h('p', { class: 'tour-live', 'aria-live': 'polite' });
  const body = h('div');
  root.replaceChildren(body, live, status);
  let shown = -1; // the version drawn
  let poll = null; // the slow poll, while the stream is down
  let close = null; // the stream's
  let loading = null;
  let again = false;
  const draw = (tour) => {
    const mine = tokens()[id] || {};
    document.title = `${tour.name} · crown`;
    const line = [gameName(tour.game), formatName(tour.format), stateName(tour.state)];
    if (tour.state === 'open') line.push(t('tour.starts-at', { time: startTime(tour.starts) }));
    if (tour.state === 'running' && tour.format === 'arena') line.push(t('tour.ends-at', { time: startTime(tour.ends) }));
    else if (tour.state === 'running') line.push(t('tour.round', { round: tour.round, rounds: tour.rounds }));
    const parts = [h('h1', {}, tour.name), h('p', { class: 'tour-line' }, line.join(' · '))];
    if (tour.state === 'cancelled') parts.push(h('p', { class: 'tour-cancelled' }, t('tour.cancelled-note')));
    parts.push(playersSection(tour, mine, act));
    if (tour.you && tour.you.games.some((g) => !g.done)) {
      parts.push(h('p', { class: 'tour-mine' }, ...tour.you.games.filter((g) => !g.done).map((g) => h('a', { href: g.url }, t('tour.play')))));
    }
    if (tour.pairings.length) parts.push(standingsSection(tour), roundsSection(tour));
    if (tour.crosstable && tour.pairings.length) parts.push(crosstableSection(tour));
    body.replaceChildren(...parts);
    body.id = 'tournament';
    body.dataset.state = tour.state;
    body.dataset.entrants = String(tour.entrants.length);
    body.dataset.version = String(tour.version);
  };
  const stop = () => {
    if (close) close();
    close = null;
    clearInterval(poll);
    poll = null;
  };
  // Reads the tournament and draws it; a call while one is under way reads once more
  // after it, so that the last change is never missed.
  const load = async () => {
    if (loading) { again = true; return loading; }
    loading = (async () => {
      do {
        again = false;
        const mine = tokens()[id] || {};
        try {
          const tour = await api.getTournament(id, mine.entrant || mine.creator);
          shown = tour.version;
          draw(tour);
          status.textContent = '';
          // Over: nothing more will change.
          if (tour.state === 'finished' || tour.state === 'cancelled') stop();
        } catch (e) {
          status.textContent = e.message;
        }
      } while (again);
      loading = null;
    })();
    return loading;
  };
  const follow = () => {
    close = api.watchTournament(id, (version) => { if (version !== shown) load(); },
      () => {
        // Live again: the slow poll stops. What changed meanwhile comes as the stream's
        // first event (a new stream sends the version at once; a resumed one, if newer).
        clearInterval(poll);
        poll = null;
        live.textContent = '';
      },
      (ms) => {
        live.textContent = t('tour.live-down', { seconds: Math.ceil(ms / 1000) });
        if (poll === null) poll = setInterval(load, SLOW_POLL_MS);
      });
  };
  // A button's request, then the page drawn again at once.
  async function act(fn) {
    try {
      await fn();
      status.textContent = '';
    } catch (e) {
      status.textContent = e.message;
    }
    await load();
  }
  await load();
  const state = body.dataset.state;
  if (state !== 'finished' && state !== 'cancelled') follow();
}
