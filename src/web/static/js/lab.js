// lab.js - the Lab page (/lab): set up a self-play study (game, rules, rule sets to
// compare, players, games), watch it wait its turn in the server's queue and then its
// progress, stop it, and open past studies' reports. The server runs studies only when
// started with --lab DIR; otherwise the page says how. Its refusals (an address's limits,
// 429; a full queue, 503) are shown in its own words.
import * as api from './api.js';
import { h } from './dom.js';
import { hasMessage, t } from './i18n.js';

const POLL_MS = 500;

function field(label, input, help) {
  return h('label', { class: 'field' }, h('span', { class: 'name' }, label), input, h('span', { class: 'help' }, help));
}

// What the state cell says: progress while running, the place while queued.
function stateText(s) {
  if (s.progress) return t('lab.progress', { done: s.progress.done, total: s.progress.total });
  if (s.state === 'queued') return t('lab.queued-place', { place: s.place });
  return hasMessage(`lab.state.${s.state}`) ? t(`lab.state.${s.state}`) : s.state;
}

// stop: given for a study this page started (it holds the owner token) that has not ended.
function studyRow(s, stop) {
  const links = s.state === 'done'
    ? [h('a', { href: `/api/lab/${s.id}/report`, target: '_blank', rel: 'noopener', class: 'lab-report' }, t('lab.report')), ' ',
      h('a', { href: `/api/lab/${s.id}/summary`, target: '_blank', rel: 'noopener' }, 'summary.json')]
    : [s.error ? t(s.state === 'stopped' ? 'lab.stopped-why' : 'lab.failed-why', { error: s.error }) : ''];
  if (stop) {
    const queued = s.state === 'queued';
    links.push(h('button', { type: 'button', class: 'lab-stop', 'aria-label': t(queued ? 'lab.remove-label' : 'lab.stop-label', { id: s.id }), onclick: stop },
      t(queued ? 'lab.remove' : 'lab.stop')));
  }
  const progress = s.progress
    ? h('progress', { max: s.progress.total, value: s.progress.done, 'aria-label': t('lab.played-label', { id: s.id }) })
    : null;
  return h('tr', { class: `lab-study lab-${s.state}`, 'data-id': s.id },
    h('td', {}, s.id), h('td', {}, s.game), h('td', {}, s.players), h('td', {}, s.sets.join(' | ')),
    h('td', {}, String(s.games)), h('td', { class: 'lab-state' }, stateText(s), progress ? ' ' : '', progress ?? ''),
    h('td', {}, ...links));
}

// A refusal in the server's words, with when to come back if it said and the words do not
// (the server's English read, as the translation's words differ).
function refusal(e) {
  if (e.retryAfter && !/try again in/i.test(e.serverText || e.message)) return t('lab.retry', { error: e.message, s: e.retryAfter });
  return e.message;
}

export async function showLab(root) {
  let lab;
  try {
    lab = await api.labStudies();
  } catch (e) {
    root.replaceChildren(h('section', { class: 'lab' }, h('h1', {}, t('chrome.lab')), h('p', { class: 'lab-off error' }, e.message)));
    return;
  }
  const { games } = await api.listGames();
  const gameSelect = h('select', { id: 'lab-game', name: 'game' }, ...games.map((g) => h('option', { value: g.name }, g.name)));
  const players = h('input', { id: 'lab-players', type: 'text', value: 'random,random', spellcheck: false });
  gameSelect.addEventListener('change', () => {
    const g = games.find((x) => x.name === gameSelect.value);
    players.value = Array.from({ length: g.min_players }, () => 'random').join(',');
  });
  const rules = h('input', { id: 'lab-rules', type: 'text', placeholder: 'NAME=VALUE,...', spellcheck: false });
  const compare = h('textarea', { id: 'lab-compare', rows: 2, placeholder: t('lab.compare-placeholder'), spellcheck: false });
  const count = h('input', { id: 'lab-games', type: 'number', min: 1, max: lab.max_games, value: 20 });
  const status = h('p', { class: 'lab-status', role: 'status' });
  const table = h('tbody', { id: 'lab-studies' });
  const run = h('button', { type: 'submit', id: 'lab-run' }, t('lab.run'));
  const form = h('form', { class: 'lab-form' },
    field(t('lab.game'), gameSelect, t('lab.game-help')),
    field(t('lab.rules'), rules, t('lab.rules-help')),
    field(t('lab.compare'), compare, t('lab.compare-help')),
    field(t('lab.players'), players, t('lab.players-help')),
    field(t('lab.games'), count, t('lab.games-help', { count: lab.max_games })),
    run);
  let timer = null;
  let watched = null; // the study started here last, whose turns the status line announces
  let watchedState = null;
  const owned = new Map(); // id -> owner token of the studies started from this page
  // Counts the studies started here: a list asked for before the last start may not hold
  // it yet, and must not announce that it left the queue.
  let starts = 0;
  function announce(s) {
    if (s.state === watchedState) return;
    watchedState = s.state;
    if (s.state === 'queued') status.textContent = t('lab.is-queued', { id: s.id, place: s.place });
    else if (s.state === 'running') status.textContent = t('lab.started', { id: s.id });
    else if (s.state === 'done') status.textContent = t('lab.done');
    else status.textContent = s.error ? t('lab.stopped-with', { error: s.error }) : t('lab.stopped');
  }
  async function stop(id) {
    try {
      await api.stopStudy(id, owned.get(id));
      owned.delete(id);
      await refresh();
    } catch (e) {
      status.textContent = refusal(e);
    }
  }
  async function refresh() {
    const asked = starts;
    const now = await api.labStudies();
    if (asked !== starts) return; // stale: the refresh after the start draws the page
    table.replaceChildren(...now.studies.map((s) =>
      studyRow(s, owned.has(s.id) && (s.state === 'queued' || s.state === 'running') ? () => stop(s.id) : null)));
    const mine = watched && now.studies.find((s) => s.id === watched);
    if (mine) {
      announce(mine);
    } else if (watched && watchedState === 'queued') {
      status.textContent = t('lab.left-queue', { id: watched });
      watched = null;
    }
    if (now.running === null && !now.queued) {
      if (timer) clearInterval(timer);
      timer = null;
    } else if (!timer) {
      timer = setInterval(() => refresh().catch((e) => { status.textContent = e.message; }), POLL_MS);
    }
  }
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const spec = { game: gameSelect.value, players: players.value.trim(), games: Number(count.value), rules: rules.value.trim() };
    const sets = compare.value.split('\n').map((l) => l.trim()).filter((l) => l);
    if (sets.length) spec.compare = sets;
    try {
      const s = await api.startStudy(spec);
      starts++;
      owned.set(s.id, s.owner_token);
      watched = s.id;
      watchedState = null;
      announce(s);
      await refresh();
    } catch (e) {
      status.textContent = refusal(e);
    }
  });
  root.replaceChildren(h('section', { class: 'lab' },
    h('h1', {}, t('chrome.lab')),
    h('p', {}, t('lab.intro')),
    form, status,
    h('h2', {}, t('lab.studies')),
    h('table', { class: 'lab-table' },
      h('thead', {}, h('tr', {}, ...['study', 'game', 'players', 'sets', 'games', 'state'].map((col) => h('th', {}, t(`lab.col.${col}`))), h('th', {}))),
      table)));
  await refresh();
}
