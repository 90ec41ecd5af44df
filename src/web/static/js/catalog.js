// catalog.js - the games this server offers as GET /api/games describes them: each
// game's title, family (which picks its board drawer), whether crown has solved it, and
// the kinds of its special actions with their labels and help. Loaded once before any
// page is drawn, then read synchronously, so that no module keeps a table of its own
// keyed by game names.
import * as api from './api.js';

const games = new Map();

// Reads the catalog; a server that cannot answer leaves it empty, and the pages fall
// back to the games' names.
export async function loadCatalog() {
  try {
    const list = await api.listGames();
    for (const g of list.games) games.set(g.name, g);
  } catch {
    // The page says what failed where it needs the server next.
  }
}

// Every game of the catalog, in the server's order.
export const allGames = () => [...games.values()];

// The catalog's entry of a game, or null for a game this server does not know.
export const gameInfo = (name) => games.get(name) || null;

// Every game's registry name, in the server's order.
export const catalogNames = () => [...games.keys()];

// The kind `key` of a game's special actions ({key, label, help}), or null.
export function actionKind(game, key) {
  const g = games.get(game);
  return (g && g.action_kinds.find((k) => k.key === key)) || null;
}
