// app.js - the entry point of the crown web app: shows the new-game form at / and a
// game at /g/ID, taking the seat's token from the link's #token=... part (kept out of
// the path, so it never reaches server logs or Referer headers); a record to review is
// imported at /import.
import { showNewGame } from './newgame.js';
import { showGame } from './game.js';
import { showImport } from './import.js';

const root = document.getElementById('app');
const path = location.pathname;
const m = path.match(/^\/g\/([0-9a-f]{24})\/?$/);
if (path === '/' || path === '/index.html') {
  showNewGame(root);
} else if (path === '/import') {
  showImport(root);
} else if (m) {
  const params = new URLSearchParams(location.hash.slice(1));
  showGame(root, m[1], params.get('token'));
} else {
  root.textContent = 'There is no such page. ';
  const a = document.createElement('a');
  a.href = '/';
  a.textContent = 'Start a new game';
  root.append(a);
}
