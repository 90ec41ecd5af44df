// mygames.js - the games this browser plays, kept in localStorage ("crown.mine") so the
// home page can list them: each game's id and this browser's seat token. Only what the
// link already held is kept; everything else is asked of the server when shown. Such
// lists of ids and tokens are kept by storedTokens and storeTokens, seeks.js's too.
const KEY = 'crown.mine';
const CAP = 60;

// A list of {id, token} kept in localStorage under `key`: this browser's games here, its
// open seeks in seeks.js. Anything malformed is left out.
export function storedTokens(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) || '[]');
    return Array.isArray(list) ? list.filter((g) => g && /^[0-9a-f]{24}$/.test(g.id) && typeof g.token === 'string') : [];
  } catch {
    return [];
  }
}

export function storeTokens(key, list, cap = CAP) {
  try {
    localStorage.setItem(key, JSON.stringify(list.slice(0, cap)));
  } catch {
    // Storage full or refused (private mode): the list is a convenience, the links work.
  }
}

export const myGames = () => storedTokens(KEY);
const save = (list) => storeTokens(KEY, list);

// The newest first; a game seen again moves to the front.
export function rememberGame(id, token) {
  if (!token) return;
  save([{ id, token }, ...myGames().filter((g) => g.id !== id)]);
}

export function forgetGame(id) {
  save(myGames().filter((g) => g.id !== id));
}
