// newgame.js - the new-game form: the game, its rule options (from the game's own option
// table, so a new option appears here by itself, by its title and help in words), each
// seat human or AI with a level, and the seed. Only the options that pick the game to
// play show at once; the fine points, whose defaults are the recommended rules, and the
// seed wait under "Advanced", as lichess folds its variants' details. Starting a game keeps every seat's secret link in this browser (to show
// them as invitations) and opens the first human seat's link.
import * as api from './api.js';
import { h, seatWords } from './dom.js';
import { hasMessage, t } from './i18n.js';
import { gameName, gameSummary, levelName } from './words.js';
import { readTimeControl, timeControlField } from './timecontrol.js';
import { rulesHref } from './learn.js';

// A value as a player reads it: "whole-line" as "whole line"; the default says so.
const valueWords = (o, v) => {
  const words = hasMessage(`value.${v}`) ? t(`value.${v}`) : v.replace(/-/g, ' ');
  return v === o.default ? t('form.default', { value: words }) : words;
};

// An option's name and help in the page's language where the catalogue has them
// (opt.FAMILY.NAME: the options shown at once), else the game's own words.
function optionWords(g, o) {
  const key = `opt.${g.family}.${o.name}`;
  return { title: hasMessage(key) ? t(key) : o.title, help: hasMessage(`${key}.help`) ? t(`${key}.help`) : o.help };
}

function optionField(g, o) {
  const words = optionWords(g, o);
  const id = `rule-${o.name}`;
  let input;
  if (o.type === 'choice') {
    input = h('select', { id, name: o.name }, ...o.choices.map((c) => h('option', { value: c, selected: c === o.default }, valueWords(o, c))));
  } else if (o.type === 'integer') {
    input = h('input', { id, name: o.name, type: 'number', min: o.min, max: o.max, value: o.default, required: true });
  } else if (o.type === 'text') {
    // Free text the game checks itself (a set-up id, say): typed, with the usual values
    // offered.
    const list = `${id}-values`;
    input = h('span', { class: 'text-option' },
      h('input', { id, name: o.name, type: 'text', value: o.default, list, spellcheck: false }),
      h('datalist', { id: list }, ...(o.suggestions ?? []).map((v) => h('option', { value: v }))));
  } else {
    // A file option names a file on the server, which the server does not read for a
    // browser: shown for completeness, fixed at its default.
    input = h('input', { id, name: o.name, type: 'text', value: o.default, readonly: true });
  }
  const help = o.type === 'file' ? t('form.file-option', { help: words.help }) : words.help;
  return h('label', { class: 'field', 'data-rule': o.name }, h('span', { class: 'name' }, words.title), input, h('span', { class: 'help' }, help));
}

function seatField(i) {
  const kind = h('select', { id: `seat-${i}`, name: `seat-${i}`, 'aria-label': t('form.who-label', { seat: seatWords(i) }) },
    h('option', { value: 'human', selected: i === 0 }, t('player.human')),
    h('option', { value: 'ai', selected: i !== 0 }, t('player.ai')),
    h('option', { value: 'open' }, t('form.open-seat')));
  const level = h('select', { id: `level-${i}`, name: `level-${i}`, 'aria-label': t('form.level-label', { seat: seatWords(i) }) },
    ...Array.from({ length: 10 }, (_, k) => h('option', { value: k + 1, selected: k + 1 === 5 }, levelName(k + 1))));
  const sync = () => { level.disabled = kind.value !== 'ai'; };
  kind.addEventListener('change', sync);
  sync();
  return h('div', { class: 'seat-field' }, h('span', { class: `swatch p${i}` }), ` ${seatWords(i)} `, kind, ' ', level);
}

export async function showNewGame(root) {
  let games;
  try {
    games = (await api.listGames()).games;
  } catch (e) {
    root.replaceChildren(h('p', { class: 'message' }, e.message));
    return;
  }
  const select = h('select', { id: 'game-select', name: 'game' },
    ...games.map((g) => h('option', { value: g.name }, gameName(g.name))));
  const summary = h('p', { id: 'game-summary', class: 'summary' });
  const howTo = h('a', { id: 'game-rules', href: '/learn' }, t('form.how-to'));
  const allowHints = h('input', { id: 'allow-hints', type: 'checkbox', name: 'hints' });
  // A rated game, for a signed-in player: between two accounts, his seat and one left
  // open for another account to take (the server checks the seats; docs/API.md).
  const rated = h('input', { id: 'rated', type: 'checkbox', name: 'rated' });
  const ratedField = h('label', { class: 'check', hidden: true }, rated, ` ${t('form.rated')}`);
  api.me().then((who) => { ratedField.hidden = !who.signed_in; }, () => {});
  const players = h('select', { id: 'players', name: 'players' });
  const playersField = h('label', { class: 'field' }, h('span', { class: 'name' }, t('form.players')), players);
  const rules = h('fieldset', { id: 'rules' });
  const advancedRules = h('div', { id: 'advanced-rules' });
  const seats = h('fieldset', { id: 'seats' });
  const seed = h('input', { id: 'seed', name: 'seed', type: 'number', min: 0, step: 1, placeholder: t('form.seed-random') });
  const message = h('p', { id: 'message', class: 'message', role: 'alert' });
  const start = h('button', { id: 'start', type: 'submit' }, t('form.start'));
  const clock = timeControlField();
  const form = h('form', { id: 'new-game', class: 'new-game' },
    h('label', { class: 'field' }, h('span', { class: 'name' }, t('form.game')), select), summary,
    h('p', { class: 'how-to' }, howTo),
    playersField,
    h('h2', {}, t('form.players')), seats, clock,
    h('h2', {}, t('form.rules')), rules,
    h('label', { class: 'check' }, allowHints, ` ${t('form.allow-hints')}`),
    ratedField,
    h('details', { id: 'advanced', class: 'advanced' },
      h('summary', {}, t('form.advanced')),
      advancedRules,
      h('label', { class: 'field' }, h('span', { class: 'name' }, t('form.seed')), seed,
        h('span', { class: 'help' }, t('form.seed-help')))),
    start, message);
  root.replaceChildren(h('section', { class: 'intro' }, h('h1', {}, t('form.title')),
    h('p', {}, t('form.intro'))), form);

  const current = () => games.find((g) => g.name === select.value);
  function drawSeats() {
    const n = Number(players.value);
    seats.replaceChildren(h('legend', {}, t('form.who')), ...Array.from({ length: n }, (_, i) => seatField(i)));
  }
  function drawGame() {
    const g = current();
    summary.textContent = gameSummary(g.name, g.summary);
    howTo.href = rulesHref(g.name);
    players.replaceChildren(...Array.from({ length: g.max_players - g.min_players + 1 }, (_, k) =>
      h('option', { value: g.min_players + k }, String(g.min_players + k))));
    playersField.hidden = g.min_players === g.max_players;
    const main = g.options.filter((o) => !o.advanced);
    const more = g.options.filter((o) => o.advanced);
    rules.replaceChildren(h('legend', {}, t('form.rule-options')), ...main.map((o) => optionField(g, o)),
      h('p', { class: 'rules-note' }, more.length ? t('form.more-options', { count: more.length })
        : t(main.length ? 'form.all-options' : 'form.no-options')));
    advancedRules.replaceChildren(...(more.length ? [h('h3', {}, t('form.more-rules')), ...more.map((o) => optionField(g, o))] : []));
    drawSeats();
  }
  select.addEventListener('change', drawGame);
  players.addEventListener('change', drawSeats);
  const wanted = new URLSearchParams(location.search).get('game');
  if (wanted && games.some((g) => g.name === wanted)) select.value = wanted;
  drawGame();

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const g = current();
    const spec = { game: g.name, seats: [], rules: {} };
    for (let i = 0; i < Number(players.value); i++) {
      const kind = form.querySelector(`#seat-${i}`).value;
      spec.seats.push(kind === 'human' || kind === 'open' ? kind : `ai:${form.querySelector(`#level-${i}`).value}`);
    }
    for (const o of g.options) {
      const v = form.querySelector(`#rule-${CSS.escape(o.name)}`).value;
      if (v !== o.default) spec.rules[o.name] = v;
    }
    if (seed.value !== '') spec.seed = Number(seed.value);
    if (readTimeControl(clock)) spec.clock = readTimeControl(clock);
    if (allowHints.checked) spec.hints = true;
    if (rated.checked && !ratedField.hidden) spec.rated = true;
    start.disabled = true;
    message.textContent = '';
    try {
      const made = await api.createGame(spec);
      const links = made.seats.map((s) => s.url);
      localStorage.setItem(`crown.links.${made.id}`, JSON.stringify(links));
      const mine = made.seats.find((s) => spec.seats[s.seat] === 'human');
      location.assign(mine ? mine.url : made.watch_url);
    } catch (err) {
      message.textContent = err.message;
      start.disabled = false;
    }
  });
}
