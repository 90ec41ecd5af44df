// app.js - the entry point of the crown web app: shows the home page (this browser's games, open seats, the new-game form) at /, a game
// at /g/ID, taking the seat's token from the link's #token=... part (kept out of the
// path, so it never reaches server logs or Referer headers); a record to review is
// imported at /import; the rules pages are /learn and /learn/GAME; studies run from
// the Lab page at /lab; any position is explored on the analysis board at /analysis;
// accounts sign in at /login and are kept at /account; a player's ratings are at
// /u/NAME and the leaderboards at /leaderboard and /leaderboard/GAME;
// puzzles are at /puzzles, /puzzles/GAME and /puzzles/GAME/ID; tournaments at
// /tournaments and /tournaments/ID.
// Only what every page needs is imported here; each page's own module (and what it
// imports) is fetched when its path is shown, so that a page loads none of the others'
// scripts.
import { h } from './dom.js';
import { loadCatalog } from './catalog.js';
import { serverInfo } from './api.js';
import { languageSwitch, loadMessages, t, translateStatic } from './i18n.js';
import { showAccountMenu } from './account.js';

// Every page reads its words from the messages of the page's language and the games'
// names from the catalog: they come first.
await Promise.all([loadMessages(), loadCatalog()]);
translateStatic(document);
document.querySelector('.language-box').append(languageSwitch());
// The header links to the Lab only on a server that runs it (--lab).
serverInfo().then((info) => { document.querySelector('.lab-link').hidden = !info.lab; }, () => {});
showAccountMenu(document.querySelector('.account-menu'));

const root = document.getElementById('app');
const path = location.pathname;
const m = path.match(/^\/g\/([0-9a-f]{24})\/?$/);
if (path === '/' || path === '/index.html') {
  // The home page: this browser's games and the open ones (lobby.js), then the form.
  // Seeks and challenges (seeks.js) follow the lobby.
  const lobby = h('div', { class: 'lobby-box' });
  const seeks = h('div', { class: 'seeks-box' });
  const form = h('div');
  const [{ showLobby }, { showSeeks }, { dailyBox }, { showNewGame }] = await Promise.all([
    import('./lobby.js'), import('./seeks.js'), import('./puzzles.js'), import('./newgame.js')]);
  root.replaceChildren(lobby, seeks, dailyBox(), form);
  showLobby(lobby);
  showSeeks(seeks);
  showNewGame(form);
} else if (path === '/import') {
  (await import('./import.js')).showImport(root);
} else if (/^\/learn(\/[a-z0-9-]*)?\/?$/.test(path)) {
  (await import('./learn.js')).showLearn(root, path.split('/')[2] || '');
} else if (path === '/lab') {
  (await import('./lab.js')).showLab(root);
} else if (path === '/login') {
  (await import('./account.js')).showLogin(root);
} else if (path === '/account') {
  (await import('./account.js')).showAccount(root);
} else if (/^\/u\/[A-Za-z0-9_-]{1,40}\/?$/.test(path)) {
  (await import('./profile.js')).showProfile(root, path.split('/')[2]);
} else if (/^\/leaderboard(\/[a-z0-9-]+)?\/?$/.test(path)) {
  (await import('./profile.js')).showLeaderboard(root, path.split('/')[2] || '');
} else if (path === '/analysis') {
  (await import('./analysis.js')).showAnalysis(root, location.search);
} else if (/^\/puzzles(\/[a-z0-9-]+(\/[0-9a-f]+)?)?\/?$/.test(path)) {
  (await import('./puzzles.js')).showPuzzles(root, path.split('/')[2] || '', path.split('/')[3] || '');
} else if (/^\/tournaments\/?$/.test(path)) {
  (await import('./tournaments.js')).showTournaments(root);
} else if (/^\/tournaments\/[0-9a-f]{24}\/?$/.test(path)) {
  (await import('./tournaments.js')).showTournament(root, path.split('/')[2]);
} else if (m) {
  const params = new URLSearchParams(location.hash.slice(1));
  const [{ rememberGame }, { showGame }] = await Promise.all([import('./mygames.js'), import('./game.js')]);
  rememberGame(m[1], params.get('token'));
  showGame(root, m[1], params.get('token'));
} else {
  root.textContent = `${t('chrome.no-page')} `;
  const a = document.createElement('a');
  a.href = '/';
  a.textContent = t('chrome.start-new');
  root.append(a);
}
