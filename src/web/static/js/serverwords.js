// serverwords.js - the server's words that reach players (errors, a hint's win chance,
// a draw's reason) in the page's language. The server speaks English, each message
// made from a fixed pattern; the known patterns are matched here and said with a
// message of the catalogue, their numbers and names carried over. A game's
// explanations of why a move is not legal (illegal.NAME) and its parsers' reasons why a
// position text or a tiles file does not read (parse.NAME) are the English messages
// themselves, each read as a pattern (explanation()). A message not known here is
// shown as the server wrote it.
import { currentLanguage, englishMessages, hasMessage, t } from './i18n.js';
import { seatWords } from './dom.js';

const ORDINALS = ['first', 'second', 'third', 'fourth'];
const seat = (word) => (ORDINALS.includes(word) ? seatWords(ORDINALS.indexOf(word)) : word);

// A game's registry name (kings-valley) as the pages name it, where the catalogue has it.
const gameName = (name) => (hasMessage(`name.${name}`) ? t(`name.${name}`) : name);

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// [pattern, key, the params from the match]
const KNOWN = [
  [/^you win by force in (\d+) moves?$/, 'hint.exact-win', (m) => ({ count: Number(m[1]) })],
  [/^the other side wins by force in (\d+) moves?$/, 'hint.exact-loss', (m) => ({ count: Number(m[1]) })],
  [/^about (\d+)% to win$/, 'hint.chance', (m) => ({ pct: m[1] })],
  [/^win in (\d+)$/, 'solved.win', (m) => ({ count: Number(m[1]) })],
  [/^loss in (\d+)$/, 'solved.loss', (m) => ({ count: Number(m[1]) })],
  [/^draw$/, 'solved.draw', () => ({})],
  [/^it is not your turn: chance acts next$/, 'error.turn-chance', () => ({})],
  [/^it is not your turn: the (\w+) player \(.*\) is to move$/, 'error.turn', (m) => ({ seat: seat(m[1]) })],
  [/^(the )?game is over$/, 'error.over', () => ({})],
  [/^the game is over: moves cannot be taken back$/, 'error.over-undo', () => ({})],
  [/^the game is over: no seat to take$/, 'error.over-seat', () => ({})],
  [/^the game is over: your time ran out$/, 'error.over-time', () => ({})],
  [/^the game is not over: a rematch comes after it$/, 'error.rematch-early', () => ({})],
  [/^your draw offer stands already$/, 'error.offer-stands', () => ({})],
  [/^your takeback request stands already$/, 'error.takeback-stands', () => ({})],
  [/^the open games cannot be read now$/, 'error.open-games', () => ({})],
  [/^too many games created from your address: at most (\d+) an/, 'error.too-many-games', (m) => ({ count: Number(m[1]) })],
  [/^your address has (\d+) games against the AI in play/, 'error.too-many-ai', (m) => ({ count: Number(m[1]) })],
  // Accounts, the lobby's seeks and challenges, tournaments and puzzles.
  [/^wrong name or password$/, 'error.wrong-login', () => ({})],
  [/^the password is wrong$/, 'error.password-wrong', () => ({})],
  [/^that name is taken: choose another$/, 'error.name-taken', () => ({})],
  [/^(?:there is )?no player called '(.*)'$/, 'error.no-player', (m) => ({ name: m[1] })],
  [/^confirm an e-mail address first: its mail has the link$/, 'error.confirm-mail', () => ({})],
  [/^an account has at most (\d+) passkeys: remove one first$/, 'error.passkeys-cap', (m) => ({ count: Number(m[1]) })],
  [/^you are in this tournament already$/, 'error.in-tournament', () => ({})],
  [/^you are not in this tournament$/, 'error.not-in-tournament', () => ({})],
  [/^a tournament needs two players at least$/, 'error.tournament-two', () => ({})],
  [/^you cannot challenge yourself$/, 'error.challenge-self', () => ({})],
  [/^this is your own seek: others accept it$/, 'error.own-seek', () => ({})],
  [/^your (\S+) rating, (-?\d+), is outside this seek's range (-?\d+)-(-?\d+)$/, 'error.seek-range',
    (m) => ({ game: gameName(m[1]), rating: m[2], min: m[3], max: m[4] })],
  [/^no such puzzle$/, 'error.no-puzzle', () => ({})],
  [/^no such tournament$/, 'error.no-tournament', () => ({})],
  [/^no such seek or challenge$/, 'error.no-offer', () => ({})],
  [/^the store is busy: try again$/, 'error.store-busy', () => ({})],
  [/^try again later$/, 'error.try-later', () => ({})],
  // The rate limits a page meets (tournaments, seeks and challenges, the Lab's studies).
  [/^too many tournaments created from your address: at most (\d+) an hour; try again in (\d+) s$/, 'error.too-many-tournaments',
    (m) => ({ count: Number(m[1]), seconds: m[2] })],
  [/^your address has (\d+) seeks and challenges waiting, the most it may/, 'error.too-many-offers', (m) => ({ count: Number(m[1]) })],
  [/^too many studies started from your address: at most (\d+) an hour; try again in (\d+) s$/, 'error.too-many-studies',
    (m) => ({ count: Number(m[1]), seconds: m[2] })],
  [/^your address has (\d+) studies running or queued, the most it may have at once/, 'error.lab-studies-cap', (m) => ({ count: Number(m[1]) })],
  [/^your address's studies running or queued have (\d+) games; with this one's (\d+) that is more than the (\d+) it may have at once/,
    'error.lab-games-cap', (m) => ({ games: m[1], more: m[2], max: m[3] })],
  [/^the lab's queue is full \((\d+) studies running or queued\): try again later$/, 'error.lab-queue-full', (m) => ({ count: Number(m[1]) })],
  [/^too many failed sign-ins .+: try again in (\d+) s$/, 'error.too-many-sign-ins', (m) => ({ seconds: m[1] })],
  [/^too many requests from your address: try again in (\d+) s$/, 'error.too-many-requests', (m) => ({ seconds: m[1] })],
  [/^too many pages of positions read from your address; try again in (\d+) s$/, 'error.too-many-reads', (m) => ({ seconds: m[1] })],
  [/^too many hints from your address wait for the AI (?:on this site's servers )?\(at most (\d+)\): try again when they are answered$/,
    'error.too-many-hints', (m) => ({ count: Number(m[1]) })],
  [/^your address has (\d+) AI-against-AI games in play, the most this server runs at once: wait until one ends$/,
    'error.too-many-ai-vs-ai', (m) => ({ count: Number(m[1]) })],
  [/^your address has (\d+) connections open, the most it may have: close some$/, 'error.too-many-connections', (m) => ({ count: Number(m[1]) })],
  [/^your address has (\d+) event streams open(?: on this site's servers)?, the most it may have: close some$/, 'error.too-many-streams',
    (m) => ({ count: Number(m[1]) })],
  [/^this (game|tournament) has (\d+) event streams open(?: on this site's servers)?, the most it may have: try again later$/,
    'error.watchers-full', (m) => ({ count: Number(m[2]) })],
  [/^the AI workers were all busy for (\d+) s: no hint now, try again later$/, 'error.hint-busy', (m) => ({ seconds: m[1] })],
  // The Lab's other refusals a player meets in the Lab page.
  [/^the server is stopping: no study starts now$/, 'error.lab-stopping', () => ({})],
  [/^the lab is off on this server/, 'error.lab-off', () => ({})],
  [/^a study here plays 1 to (\d+) games in all/, 'error.lab-games-range', (m) => ({ max: m[1] })],
  [/^a study from the browser is played by crown's own players/, 'error.lab-own-players', () => ({})],
  [/^study '(.*)' is not running or queued$/, 'error.lab-not-running', (m) => ({ id: m[1] })],
  [/^only the study's owner may stop it/, 'error.lab-owner', () => ({})],
  [/^no study '(.*)'$/, 'error.lab-no-study', (m) => ({ id: m[1] })],
  [/^study '(.*)' has no (\S+) \(yet\)$/, 'error.lab-not-yet', (m) => ({ id: m[1], name: m[2] })],
  // A browser's passkey that does not verify: the reason said too where it is one of
  // webauthn.c's fixed ones a player's device can cause, else as the server wrote it.
  [/^the passkey is refused: (.+)$/, 'error.passkey-refused', (m) => ({ why: serverWords(m[1]) })],
  [/^the authenticator did not see the user present$/, 'error.passkey-presence', () => ({})],
  [/^the authenticator did not verify the user$/, 'error.passkey-user', () => ({})],
  [/^the client data's challenge is not the one given$/, 'error.passkey-challenge', () => ({})],
  [/^the client data's origin is not this page's$/, 'error.passkey-origin', () => ({})],
  [/^a passkey is not used from another site's frame$/, 'error.passkey-frame', () => ({})],
  [/^the passkey was made for another site than (\S+)$/, 'error.passkey-site', (m) => ({ site: m[1] })],
  [/^the passkey's signature does not verify/, 'error.passkey-signature', () => ({})],
  // What only a player signed in, or a tournament's creator, may do: the pages offer it
  // to them alone, so the action itself goes without saying.
  [/^sign in to .+ \(POST \/api\/login\)$/, 'error.sign-in', () => ({})],
  [/^only the tournament's creator /, 'error.creator-only', () => ({})],
  // A store failing (one sentence per store operation): what failed is what the player
  // just asked for, so the translation says "this".
  [/^cannot .+ now: try again$/, 'error.store-now', () => ({})],
  [/^the passkey was used at the same time elsewhere: try again$/, 'error.store-now', () => ({})],
  [/^the rating is busy: try again$/, 'error.store-busy', () => ({})],
  [/^the \S+(?: \S+)? cannot be read now$/, 'error.store-read', () => ({})],
  [/^the server cannot be reached$/, 'error.unreachable', () => ({})],
  [/^the server answered (\d+)$/, 'error.status', (m) => ({ status: m[1] })],
  // What a turn asks for (a game's turn_help), one fixed sentence each.
  ...[['Armies: choose your king; each brings its powers.', 'turn.kd-king'],
    ['Armies: choose one of your king\'s two powers.', 'turn.kd-power'],
    ['Jester: choose the castle column it joins; it counts as that subject but scores nothing.', 'turn.kotv-jester'],
    ['Wizard: swap a face-up subject of your castle for a subject on the hill.', 'turn.kotv-wizard'],
    ['Tax collector: choose the column whose face-up tiles he turns down for his gold.', 'turn.kotv-tax'],
    ['Place your king: click a valley tile to start there.', 'turn.kotv-place'],
    ['Recruit: click a hill tile to buy it for the price of its row, or pass.', 'turn.kotv-recruit'],
    ['Summon: click your king, then the tile it stops on (and takes), or beyond two or three identical tiles it passes.', 'turn.kotv-summon'],
    ['Kingdom bonus: turn a full court face down for 5 gold and a kingdom token, or pass.', 'turn.kotv-kingdom'],
    ['Refill: choose the hill column whose bottom tiles fill the valley.', 'turn.kotv-refill'],
  ].map(([text, key]) => [new RegExp(`^${escapeRe(text)}$`), key, () => ({})]),
];

// Whether `text` is one of the fixed messages above (the catalogue test asks).
export const isKnown = (text) => KNOWN.some(([re]) => re.test(text));
// The server's refusals known above, each { re, key } (the catalogue test holds them to
// the C sources' sentences).
export const knownRefusals = () => KNOWN.filter(([, key]) => key.startsWith('error.')).map(([re, key]) => ({ re, key }));

// An English message as a pattern: each {placeholder} a group, a square or a number
// one word; a move (which may have spaces: "tax Q:NA"), a nested reason, a player's
// text quoted back, an example, a file's name or a rule's choices any text.
const WIDE = new Set(['move', 'why', 'text', 'example', 'file', 'choices']);
// The messages read as patterns.
const PATTERNED = /^(illegal|parse)\./;
function patternOf(message) {
  const names = [];
  const source = message.split(/\{(\w+)\}/).map((part, i) => {
    if (i % 2 === 0) return escapeRe(part);
    names.push(part);
    return WIDE.has(part) ? '(.+?)' : '(\\S+?)';
  }).join('');
  return { re: new RegExp(`^${source}$`), names };
}

const compiled = new WeakMap();

// The explanation `text` is, among the English catalogue's illegal.NAME and parse.NAME
// messages (the first that matches, in the catalogue's order): { key, params }, else
// null.
export function explanation(text, english) {
  if (!compiled.has(english)) {
    compiled.set(english, Object.entries(english)
      .filter(([k, m]) => PATTERNED.test(k) && typeof m === 'string')
      .map(([k, m]) => ({ key: k, ...patternOf(m) })));
  }
  for (const { key, re, names } of compiled.get(english)) {
    const m = re.exec(text);
    if (m) return { key, params: Object.fromEntries(names.map((n, i) => [n, m[i + 1]])) };
  }
  return null;
}

// English is the server's own: said as it wrote it, details and all.
export function serverWords(text) {
  const s = String(text ?? '');
  if (currentLanguage() === 'en') return s;
  for (const [re, key, params] of KNOWN) {
    const m = re.exec(s);
    if (m) return t(key, params(m));
  }
  const found = explanation(s, englishMessages());
  if (!found) return s;
  // A nested reason ("'e2e4' is not legal here: your king would be left in check",
  // "bad position: rank 9 ...") is said in the language too, and a seat ("the first
  // player") by the catalogue's seat words.
  const params = { ...found.params };
  if (params.why !== undefined) params.why = serverWords(params.why);
  if (params.seat !== undefined) params.seat = seat(params.seat);
  // Each family's keys spelled from a fixed prefix, as the catalogue test finds them.
  const name = found.key.slice(found.key.indexOf('.') + 1);
  return found.key.startsWith('illegal.') ? t(`illegal.${name}`, params) : t(`parse.${name}`, params);
}
