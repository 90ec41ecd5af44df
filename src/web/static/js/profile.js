// profile.js - players' ratings in the web app: a player's page at /u/NAME (a Glicko-2
// rating per game, marked "?" while provisional, its history drawn with uPlot as the
// review's graph is, recent rated games and wins, draws and losses), the leaderboards at
// /leaderboard and /leaderboard/GAME, and the ratings beside the board of a rated game.
// The numbers are the server's (GET /api/users/NAME, GET /api/leaderboard/GAME).
import * as api from './api.js';
import { catalogNames } from './catalog.js';
import { h } from './dom.js';
import { loadChart } from './evalgraph.js';
import { formatNumber, t } from './i18n.js';
import { gameName } from './words.js';

// A rating as players read it: rounded, with "?" while its RD is over 110.
export const ratingText = (r) => `${formatNumber(Math.round(r.rating))}${r.provisional ? '?' : ''}`;

// A change of rating: "+12" or "−7".
export const changeText = (d) => (Math.round(d) >= 0 ? `+${formatNumber(Math.round(d))}` : `−${formatNumber(-Math.round(d))}`);

const profileLink = (name) => h('a', { href: `/u/${encodeURIComponent(name)}` }, name);

// The players' pages read once per page view: the names beside a board ask again only
// when a game ends (its ratings moved).
const pages = new Map();
function userPage(name, fresh = false) {
  if (fresh || !pages.has(name)) pages.set(name, api.user(name).catch(() => null));
  return pages.get(name);
}

// The rating of `name` in `game` beside the board: "1500?" (a new player's), and after
// a rated game the change it made. Resolves to an element.
export async function ratingBeside(name, game, change, fresh) {
  const page = await userPage(name, fresh);
  const r = (page && page.ratings[game]) || { rating: 1500, provisional: true };
  return h('span', { class: 'seat-rating' }, ` (${ratingText(r)}`,
    change === null || change === undefined ? '' : h('span', { class: change >= 0 ? 'rating-up' : 'rating-down' }, ` ${changeText(change)}`),
    ')');
}

// The history graph of one game's rating: the rating after each rated game, oldest
// first, from the 1500 every player starts at when the history is whole.
async function historyGraph(box, points, games) {
  const UPlot = await loadChart();
  if (!UPlot || points.length < 1) {
    box.hidden = true;
    return;
  }
  const first = games - points.length;
  const ys = [...(first === 0 ? [1500] : []), ...points.map((p) => Math.round(p.rating))];
  const xs = ys.map((_, i) => i + (first === 0 ? 0 : first + 1));
  const low = Math.min(...ys);
  const high = Math.max(...ys);
  const size = () => ({ width: Math.max(200, Math.min(640, box.clientWidth || 300)), height: 160 });
  const u = new UPlot({
    ...size(),
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false }, y: { range: [Math.floor((low - 50) / 50) * 50, Math.ceil((high + 50) / 50) * 50] } },
    axes: [{ label: t('profile.axis-game'), size: 36, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] }, { label: t('profile.axis-rating'), size: 52 }],
    series: [{}, { label: t('profile.axis-rating'), stroke: '#2f5d8c', width: 2, points: { show: ys.length < 40 } }],
  }, [xs, ys], box);
  new ResizeObserver(() => u.setSize(size())).observe(box);
}

const resultWord = (r) => t(`profile.result.${r}`);

export async function showProfile(root, name) {
  root.replaceChildren(h('p', { class: 'loading' }, t('chrome.loading')));
  let page;
  try {
    page = await api.user(name);
  } catch (e) {
    root.replaceChildren(h('section', { class: 'profile-page' }, h('h1', {}, name), h('p', { role: 'alert' }, e.message)));
    return;
  }
  const games = Object.keys(page.ratings);
  const rec = page.record;
  const section = h('section', { class: 'profile-page' },
    h('h1', {}, page.name),
    h('p', { class: 'profile-record' }, t('profile.record', { wins: rec.wins, draws: rec.draws, losses: rec.losses })));
  if (games.length === 0) section.append(h('p', {}, t('profile.no-ratings')));
  const graphs = [];
  for (const game of games) {
    const r = page.ratings[game];
    const box = h('div', { class: 'rating-graph', role: 'img', 'aria-label': t('profile.graph-label', { game: gameName(game) }) });
    graphs.push([box, (page.history[game] || []), r.games]);
    section.append(h('section', { class: 'profile-game' },
      h('h2', {}, gameName(game), ' ', h('span', { class: 'profile-rating' }, ratingText(r))),
      h('p', {}, t('profile.game-line', { count: r.games, wins: r.wins, draws: r.draws, losses: r.losses, rd: Math.round(r.rd) }),
        r.provisional ? ` ${t('profile.provisional')}` : ''),
      box,
      h('p', {}, h('a', { href: `/leaderboard/${game}` }, t('profile.see-leaderboard', { game: gameName(game) })))));
  }
  if (page.recent.length > 0) {
    section.append(h('h2', {}, t('profile.recent')), h('table', { class: 'profile-recent' },
      h('thead', {}, h('tr', {}, ...['profile.col-game', 'profile.col-opponent', 'profile.col-result', 'profile.col-rating'].map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, ...page.recent.map((g) => h('tr', {},
        h('td', {}, h('a', { href: `/g/${g.id}` }, gameName(g.game))),
        h('td', {}, g.opponent ? profileLink(g.opponent) : t('profile.deleted')),
        h('td', { class: `result-${g.result}` }, resultWord(g.result)),
        h('td', {}, `${formatNumber(Math.round(g.rating))} (${changeText(g.change)})`))))));
  }
  section.append(h('p', {}, h('a', { href: '/leaderboard' }, t('profile.leaderboards'))));
  root.replaceChildren(section);
  for (const [box, points, n] of graphs) historyGraph(box, points, n);
}

// /leaderboard: every game with a link to its board; /leaderboard/GAME: its table.
export async function showLeaderboard(root, game) {
  const names = catalogNames();
  const nav = h('ul', { class: 'leaderboard-games' }, ...names.map((n) => h('li', {},
    n === game ? h('strong', { 'aria-current': 'page' }, gameName(n)) : h('a', { href: `/leaderboard/${n}` }, gameName(n)))));
  const section = h('section', { class: 'leaderboard-page' },
    h('h1', {}, game ? t('leaderboard.title-game', { game: gameName(game) }) : t('leaderboard.title')),
    h('p', {}, t('leaderboard.about')), h('nav', { 'aria-label': t('leaderboard.games') }, nav));
  root.replaceChildren(section);
  if (!game) return;
  let board;
  try {
    board = await api.leaderboard(game);
  } catch (e) {
    section.append(h('p', { role: 'alert' }, e.message));
    return;
  }
  if (board.players.length === 0) {
    section.append(h('p', {}, t('leaderboard.empty')));
    return;
  }
  section.append(h('table', { class: 'leaderboard' },
    h('thead', {}, h('tr', {}, ...['leaderboard.col-rank', 'leaderboard.col-player', 'leaderboard.col-rating', 'leaderboard.col-games'].map((k) => h('th', { scope: 'col' }, t(k))))),
    h('tbody', {}, ...board.players.map((p) => h('tr', {},
      h('td', {}, formatNumber(p.rank)), h('td', {}, profileLink(p.name)),
      h('td', {}, ratingText({ rating: p.rating, provisional: false })), h('td', {}, formatNumber(p.games)))))));
}
