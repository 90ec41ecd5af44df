// mygames.js - the games this browser plays, kept in localStorage ("crown.mine") so the
// home page can list them: each game's id and this browser's seat token. Only what the
// link already held is kept; everything else is asked of the server when shown.
const KEY = 'crown.mine';
const CAP = 60;

export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || '[]');
    return Array.isArray(list) ? list.filter((g) => g && /^[0-9a-f]{24}$/.test(g.id) && typeof g.token === 'string') : [];
  } catch {
    return [];
  }
}

function save(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, CAP)));
  } catch {
    // Storage full or refused (private mode): the list is a convenience, the links work.
  }
}

// The newest first; a game seen again moves to the front.
export function rememberGame(id, token) {
  if (!token) return;
  save([{ id, token }, ...myGames().filter((g) => g.id !== id)]);
}

export function forgetGame(id) {
  save(myGames().filter((g) => g.id !== id));
}
