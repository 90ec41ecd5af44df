// api.js - the JSON API of crown serve (docs/API.md) as small async functions, and the
// event streams of a game and of a tournament. Every failure becomes an Error whose message is the server's
// own explanation, in the page's language where serverwords.js knows it.
import { serverWords } from './serverwords.js';

async function call(method, path, { body, token } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error(serverWords('the server cannot be reached'));
  }
  const type = res.headers.get('content-type') || '';
  const data = type.startsWith('application/json') ? await res.json() : await res.text();
  if (!res.ok) {
    const err = new Error(serverWords((data && data.error) || `the server answered ${res.status}`));
    err.status = res.status;
    // The server's own English, for a page that reads what it says (not shown).
    err.serverText = (data && data.error) || '';
    // A 429 or 503 says when to come back (seconds), or 0 when it does not.
    err.retryAfter = Number(res.headers.get('retry-after')) || 0;
    throw err;
  }
  return data;
}

export const listGames = () => call('GET', '/api/games');
export const serverInfo = () => call('GET', '/api/info');
export const createGame = (spec) => call('POST', '/api/games', { body: spec });
export const getState = (id, token) => call('GET', `/api/games/${id}`, { token });
export const playMove = (id, token, move, ply) => call('POST', `/api/games/${id}/moves`, { token, body: { move, ply } });
export const undo = (id, token) => call('POST', `/api/games/${id}/undo`, { token });
export const hint = (id, token) => call('POST', `/api/games/${id}/hint`, { token });
// Review: every position of the record, the AI's view of one, the record's text.
// A page of them: at most POSITIONS_PAGE from the position after `from` actions.
export const POSITIONS_PAGE = 100;
export const positions = (id, token, from = 0) => call('GET', `/api/games/${id}/positions?from=${from}`, { token });
export const analyse = (id, token, ply) => call('POST', `/api/games/${id}/analysis`, { token, body: { ply } });
export const recordText = (id, token) => call('GET', `/api/games/${id}/record`, { token });
// A record's text becomes a game of people's seats (import.js).
export const importRecord = (record) => call('POST', '/api/import', { body: { record } });
// resign, offer-draw, accept-draw, decline-draw, rematch (finish.js)
export const finish = (id, token, action) => call('POST', `/api/games/${id}/${action}`, { token });
// Any position's observation and legal moves (learn.js)
export const observe = (spec) => call('POST', '/api/observe', { body: spec });
// The engine's view of any position, for the analysis board (analysis.js).
export const analysePosition = (spec) => call('POST', '/api/analysis', { body: spec });
export const solution = (id, token) => call('GET', `/api/games/${id}/solution`, { token });
export const preview = (id, move) => call('POST', `/api/games/${id}/preview`, { body: { move } });
// A signed-in player's try at a shipped puzzle, rated on the server (puzzles.js).
export const puzzleResult = (game, id, solved) => call('POST', `/api/puzzles/${game}/${id}/result`, { body: { solved } });
// Tournaments (tournaments.js): action is join, leave, start or cancel. The list comes
// a page at a time: `next` is the offset of the page after, null at the end.
export const listTournaments = (offset = 0) => call('GET', `/api/tournaments?offset=${offset}`);
export const createTournament = (spec) => call('POST', '/api/tournaments', { body: spec });
export const getTournament = (id, token) => call('GET', `/api/tournaments/${id}`, { token });
export const tournamentAction = (id, token, action, body = {}) => call('POST', `/api/tournaments/${id}/${action}`, { token, body });

// An event stream at url: handlers[name](data) for each event of that name (its data
// parsed); onOpen() whenever the stream (re)connects; onDown(ms) when it is down and the
// next try is ms away. The browser reconnects by itself after a network hiccup (sending
// the last event's id, Last-Event-ID), but gives up for good on an answer that is not a
// stream (a 429 when the streams of the game, the tournament or the address are full, a
// 503): then a new stream is tried after a back-off, 1 s doubling to 30 s with jitter so
// that a refused crowd does not come back at once. Returns a function that closes it.
function stream(url, handlers, onOpen, onDown) {
  let es = null;
  let timer = null;
  let delay = 1000;
  const connect = () => {
    timer = null;
    es = new EventSource(url);
    for (const [name, fn] of Object.entries(handlers)) es.addEventListener(name, (ev) => fn(JSON.parse(ev.data)));
    es.addEventListener('open', () => { delay = 1000; if (onOpen) onOpen(); });
    es.addEventListener('error', () => {
      if (es.readyState !== EventSource.CLOSED) return; // the browser retries itself
      es.close();
      const wait = Math.round(delay * (0.5 + Math.random() / 2));
      delay = Math.min(delay * 2, 30000);
      if (onDown) onDown(wait);
      timer = setTimeout(connect, wait);
    });
  };
  connect();
  return () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    es.close();
  };
}

// A game's states as the server sends them (onState(state)), as seen by the token's seat.
export function watch(id, token, onState, onOpen, onDown) {
  const q = token ? `?token=${encodeURIComponent(token)}` : '';
  return stream(`/api/games/${id}/events${q}`, { state: onState }, onOpen, onDown);
}

// A tournament's changes: onChange(version) each time it moves on (docs/API.md).
export function watchTournament(id, onChange, onOpen, onDown) {
  return stream(`/api/tournaments/${id}/events`, { change: (d) => onChange(d.version) }, onOpen, onDown);
}

// The Lab page (js/lab.js): the studies of a server started with --lab DIR.
export const labStudies = () => call('GET', '/api/lab');
export const startStudy = (spec) => call('POST', '/api/lab', { body: spec });
// A running study stops after the game in play; a queued one leaves the queue.
export const stopStudy = (id, token) => call('POST', `/api/lab/${id}/stop`, { body: { token } });

// Accounts (account.js): the session is an HttpOnly cookie the browser sends itself.
export const me = () => call('GET', '/api/me');
// Ratings: a player's page (ratings, history, recent rated games) and a game's leaderboard.
export const user = (name) => call('GET', `/api/users/${encodeURIComponent(name)}`);
export const leaderboard = (game) => call('GET', `/api/leaderboard/${encodeURIComponent(game)}`);
export const signup = (name, password) => call('POST', '/api/signup', { body: { name, password } });
export const login = (name, password) => call('POST', '/api/login', { body: { name, password } });
export const logout = () => call('POST', '/api/logout', { body: {} });
export const logoutAll = () => call('POST', '/api/logout-all', { body: {} });
export const changePassword = (password, newPassword) => call('POST', '/api/account/password', { body: { password, new_password: newPassword } });
export const deleteAccount = (password) => call('POST', '/api/account/delete', { body: { password } });
export const exportAccount = () => call('GET', '/api/account/export');
export const claimGames = (games) => call('POST', '/api/account/claim', { body: { games } });
// Passkeys (passkeys.js): the options for the browser's WebAuthn calls, and their answers.
export const passkeys = () => call('GET', '/api/passkeys');
export const passkeyRegisterOptions = () => call('POST', '/api/passkeys/register-options', { body: {} });
export const passkeyRegister = (body) => call('POST', '/api/passkeys/register', { body });
export const passkeyRename = (id, name) => call('POST', '/api/passkeys/rename', { body: { id, name } });
export const passkeyDelete = (id) => call('POST', '/api/passkeys/delete', { body: { id } });
export const passkeyLoginOptions = () => call('POST', '/api/passkeys/login-options', { body: {} });
export const passkeyLogin = (body) => call('POST', '/api/passkeys/login', { body });

// Seeks and challenges (seeks.js): a seek's poster proves himself with its token.
export const seeks = () => call('GET', '/api/seeks');
export const postSeek = (spec) => call('POST', '/api/seeks', { body: spec });
export const seek = (id, token) => call('GET', `/api/seeks/${id}`, { token });
export const acceptSeek = (id) => call('POST', `/api/seeks/${id}/accept`);
export const cancelSeek = (id, token) => call('POST', `/api/seeks/${id}/cancel`, { token });
export const challenges = () => call('GET', '/api/challenges');
export const challenge = (spec) => call('POST', '/api/challenges', { body: spec });
export const answerChallenge = (id, answer) => call('POST', `/api/challenges/${id}/${answer}`);

export const emailSettings = () => call('GET', '/api/account/email');
export const setEmail = (address) => call('POST', '/api/account/email', { body: { address } });
export const removeEmail = () => call('POST', '/api/account/email/delete', { body: {} });
export const setMailNotify = (choices) => call('POST', '/api/account/email/notify', { body: choices });
export const verifyEmail = (token) => call('POST', '/api/email/verify', { body: { token } });
export const unsubscribe = (token) => call('POST', '/api/email/unsubscribe', { body: { token } });
export const forgotPassword = (name) => call('POST', '/api/password/forgot', { body: { name } });
export const resetPassword = (token, password) => call('POST', '/api/password/reset', { body: { token, password } });
