// lab.js - the Lab page (/lab): set up a self-play study (game, rules, rule sets to
// compare, players, games), watch it wait its turn in the server's queue and then its
// progress, stop it, and open past studies' reports. The server runs studies only when
// started with --lab DIR; otherwise the page says how. Its refusals (an address's limits,
// 429; a full queue, 503) are shown in its own words.
import * as api from './api.js';
import { h } from './dom.js';

const POLL_MS = 500;

function field(label, input, help) {
  return h('label', { class: 'field' }, h('span', { class: 'name' }, label), input, h('span', { class: 'help' }, help));
}

// What the state cell says: progress while running, the place while queued.
function stateText(s) {
  if (s.progress) return `${s.progress.done}/${s.progress.total} games`;
  if (s.state === 'queued') return `queued, place ${s.place}`;
  return s.state;
}

// stop: given for a study this page started (it holds the owner token) that has not ended.
function studyRow(s, stop) {
  const links = s.state === 'done'
    ? [h('a', { href: `/api/lab/${s.id}/report`, target: '_blank', rel: 'noopener', class: 'lab-report' }, 'report'), ' ',
      h('a', { href: `/api/lab/${s.id}/summary`, target: '_blank', rel: 'noopener' }, 'summary.json')]
    : [s.error ? `${s.state === 'stopped' ? 'stopped' : 'failed'}: ${s.error}` : ''];
  if (stop) {
    const verb = s.state === 'queued' ? 'Remove' : 'Stop';
    links.push(h('button', { type: 'button', class: 'lab-stop', 'aria-label': `${verb} study ${s.id}`, onclick: stop }, verb));
  }
  const progress = s.progress
    ? h('progress', { max: s.progress.total, value: s.progress.done, 'aria-label': `games played of ${s.id}` })
    : null;
  return h('tr', { class: `lab-study lab-${s.state}`, 'data-id': s.id },
    h('td', {}, s.id), h('td', {}, s.game), h('td', {}, s.players), h('td', {}, s.sets.join(' | ')),
    h('td', {}, String(s.games)), h('td', { class: 'lab-state' }, stateText(s), progress ? ' ' : '', progress ?? ''),
    h('td', {}, ...links));
}

// A refusal in the server's words, with when to come back if it said and the words do not.
function refusal(e) {
  if (e.retryAfter && !/try again in/i.test(e.message)) return `${e.message} (try again in ${e.retryAfter} s)`;
  return e.message;
}

export async function showLab(root) {
  let lab;
  try {
    lab = await api.labStudies();
  } catch (e) {
    root.replaceChildren(h('section', { class: 'lab' }, h('h1', {}, 'Lab'), h('p', { class: 'lab-off error' }, e.message)));
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
  const compare = h('textarea', { id: 'lab-compare', rows: 2, placeholder: 'one rule set a line: NAME=VALUE,...', spellcheck: false });
  const count = h('input', { id: 'lab-games', type: 'number', min: 1, max: lab.max_games, value: 20 });
  const status = h('p', { class: 'lab-status', role: 'status' });
  const table = h('tbody', { id: 'lab-studies' });
  const run = h('button', { type: 'submit', id: 'lab-run' }, 'Run study');
  const form = h('form', { class: 'lab-form' },
    field('game', gameSelect, 'the game and variant'),
    field('rules', rules, 'settings of every set, e.g. max-plies=80'),
    field('compare', compare, 'each line a rule set compared with the baseline'),
    field('players', players, 'one per seat: ai:LEVEL, random, greedy, mcts:LEVEL ...'),
    field('games', count, `games per rule set (at most ${lab.max_games} in all)`),
    run);
  let timer = null;
  let watched = null; // the study started here last, whose turns the status line announces
  let watchedState = null;
  const owned = new Map(); // id -> owner token of the studies started from this page
  function announce(s) {
    if (s.state === watchedState) return;
    watchedState = s.state;
    if (s.state === 'queued') status.textContent = `Study ${s.id} is queued: place ${s.place}. It starts by itself when the studies before it end.`;
    else if (s.state === 'running') status.textContent = `Study ${s.id} started.`;
    else if (s.state === 'done') status.textContent = 'The study is done.';
    else status.textContent = `The study stopped${s.error ? `: ${s.error}` : '.'}`;
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
    const now = await api.labStudies();
    table.replaceChildren(...now.studies.map((s) =>
      studyRow(s, owned.has(s.id) && (s.state === 'queued' || s.state === 'running') ? () => stop(s.id) : null)));
    const mine = watched && now.studies.find((s) => s.id === watched);
    if (mine) {
      announce(mine);
    } else if (watched && watchedState === 'queued') {
      status.textContent = `Study ${watched} left the queue.`;
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
    h('h1', {}, 'Lab'),
    h('p', {}, 'Self-play studies: how often each seat wins, why games end, how long they last, and what a rule changes. One study runs at a time on the server; the others wait their turn in a queue.'),
    form, status,
    h('h2', {}, 'Studies'),
    h('table', { class: 'lab-table' },
      h('thead', {}, h('tr', {}, ...['study', 'game', 'players', 'rule sets', 'games', 'state', ''].map((t) => h('th', {}, t)))),
      table)));
  await refresh();
}
