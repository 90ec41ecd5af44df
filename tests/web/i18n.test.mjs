// i18n.test.mjs - the web app's message catalogues (src/web/static/i18n/*.json) kept
// whole: every language has exactly English's keys, each plural message its "other"
// form, each translation the same {placeholders} as the English; every key is used by
// the front end and every key it uses exists; and the language a browser asks for is
// the one chosen; every game's rule options (GET /api/games of a real `crown serve`)
// have their name, help and choices in the catalogue; a game's explanations of an
// illegal move (illegal.NAME) and its parsers' reasons (parse.NAME) are the C sources'
// own sentences, every reason of the position, tiles and move parsers is translated, the
// server's refusals serverwords.js knows (error.*) are sentences src/ writes and none of
// the shapes a page meets goes unknown, the
// server's words come out in Japanese as a page says them, and a real server's answers
// to illegal moves, typed moves and positions that do not read are recognised. No browser.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LANGUAGES, preferredLanguage } from '../../src/web/static/js/i18n.js';
import { PAGES, TUTORIALS } from '../../src/web/static/js/learn-pages.js';
import { explanation, isKnown, knownRefusals, serverWords } from '../../src/web/static/js/serverwords.js';
import { loadMessages } from '../../src/web/static/js/i18n.js';
import { api, startServer } from './server.mjs';

const STATIC = new URL('../../src/web/static/', import.meta.url).pathname;
const SRC = new URL('../../src/', import.meta.url).pathname;
const read = (lang) => JSON.parse(readFileSync(join(STATIC, 'i18n', `${lang}.json`), 'utf8'));
const english = read('en');

// The files below dir whose names match `re`, each path in full.
function filesUnder(dir, re) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(p, re);
    return re.test(e.name) ? [p] : [];
  });
}

// Every front-end file's text: the JavaScript modules and the page.
const sources = () => filesUnder(STATIC, /\.(js|html)$/).map((p) => readFileSync(p, 'utf8')).join('\n');
// The C files whose words the server says from the catalogues (web/messages.h): the
// Lab's report marks them with their keys (report.*), the mails say them (mail.*).
const SERVER_SAYS = { report: 'lab/lab_report.c', mail: 'web/mail.c' };
const serverSources = () => Object.values(SERVER_SAYS).map((f) => readFileSync(join(SRC, f), 'utf8')).join('\n');

const forms = (msg) => (typeof msg === 'string' ? [msg] : Object.values(msg));
const placeholders = (msg) => [...new Set(forms(msg).flatMap((f) => [...f.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();

test('i18n: a catalogue for every language of the switch, and no other', () => {
  const files = readdirSync(join(STATIC, 'i18n')).map((f) => f.replace(/\.json$/, '')).sort();
  assert.deepEqual(files, Object.keys(LANGUAGES).sort());
});

for (const lang of Object.keys(LANGUAGES).filter((l) => l !== 'en')) {
  test(`i18n: ${lang} has every English message and no other, with the same placeholders`, () => {
    const cat = read(lang);
    const missing = Object.keys(english).filter((k) => !(k in cat));
    const extra = Object.keys(cat).filter((k) => !(k in english));
    assert.deepEqual(missing, [], `${lang} lacks these messages`);
    assert.deepEqual(extra, [], `${lang} has messages English does not`);
    for (const [k, msg] of Object.entries(cat)) {
      assert.ok(typeof msg === 'string' ? msg.trim() : msg.other, `${lang} ${k}: empty, or a plural without "other"`);
      assert.deepEqual(placeholders(msg), placeholders(english[k]), `${lang} ${k}: placeholders differ from English`);
    }
  });
}

test('i18n: every message is used by the front end or the server, and every one they ask for exists', () => {
  const text = `${sources()}\n${serverSources()}`;
  // A key is used when it appears as a quoted string, or when a template builds it from
  // a fixed prefix (t(`game.${name}`)).
  const literals = new Set([...text.matchAll(/['"]([a-z][a-z0-9-]*(?:\.[a-zA-Z0-9-]+)+)['"]/g)].map((m) => m[1]));
  const prefixes = [...text.matchAll(/`([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)*\.)\$\{/g)].map((m) => m[1]);
  const unused = Object.keys(english).filter((k) => !literals.has(k) && !prefixes.some((p) => k.startsWith(p)));
  assert.deepEqual(unused, [], 'messages no page uses');
  const asked = [...text.matchAll(/\bt\(\s*'([^']+)'/g), ...text.matchAll(/data-i18n="([^"]+)"/g)].map((m) => m[1]);
  const unknown = [...new Set(asked.filter((k) => !(k in english)))];
  assert.deepEqual(unknown, [], 'messages the pages ask for that English lacks');
  const said = [...serverSources().matchAll(new RegExp(`"((?:${Object.keys(SERVER_SAYS).join('|')})\\.[a-z0-9.-]+)"`, 'g'))].map((m) => m[1]);
  assert.deepEqual([...new Set(said.filter((k) => !(k in english)))], [], 'messages the server says that English lacks');
});

// Words shown to players are said with t(); an English literal left in the front end
// shows English in every language. A literal counts as English words when it has two
// words one of which is a common English word, or starts "Capital word ...", or is one
// capitalised word. Not scanned: learn-pages.js (its texts are the rules catalogue's
// msgids, rules/LANG.json), serverwords.js (the server's English sentences it recognises), an Error's message
// (the console's, or already through serverWords), and t()'s keys.
const NOT_SCANNED = /(^|\/)(learn-pages|serverwords)\.js$/;
// Identifiers that look like words: King Down's army and power names (the action kinds'
// labels, said through act.king-down.*), key names, the languages' own names, and the
// name the API gives a deleted account's seat (compared, then shown as profile.deleted).
const NOT_WORDS = new Set(['Frost', 'Flame', 'Stratus', 'Mud', 'Spirit', 'Shadow', 'Freeze', 'Ice Wall', 'Strike', 'Haste',
  'Flight', 'Sacrifice', 'March', 'Leap', 'Holy Light', 'Mercy', 'Death Touch', 'Darkness', 'Escape', 'Enter',
  'English', 'Nederlands', 'Deutsch', 'Français', 'Español', 'deleted player']);
const COMMON = /(^| )(the|a|an|of|to|is|are|your|you|and|or|in|on|for|with|no|not|from|by|at|it|this|be|can|cannot|has|was|its|than|as|need|move|moves|player|empty)( |$)/i;

function englishLiterals(file, text) {
  const found = [];
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  code.split('\n').forEach((line, i) => {
    if (/new Error\(|console\./.test(line)) return;
    for (const m of line.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g)) {
      if (/\b(t|hasMessage)\(\s*$/.test(line.slice(0, m.index))) continue;
      const s = (m[1] ?? m[2] ?? m[3]).replace(/\$\{[^}]*\}/g, '{}');
      if (NOT_WORDS.has(s)) continue;
      const twoWords = /[A-Za-z]{2,}[,:;.!?']? +[A-Za-z(]{2,}/.test(s);
      if ((twoWords && (COMMON.test(s) || /^[A-Z][a-z]+ /.test(s))) || /^[A-Z][a-z]{2,}[.!?]?$/.test(s)) found.push(`${file}:${i + 1}: ${s}`);
    }
  });
  return found;
}

test('i18n: no English words shown to players outside the catalogue', () => {
  const found = filesUnder(join(STATIC, 'js'), /\.js$/).filter((p) => !NOT_SCANNED.test(p))
    .flatMap((p) => englishLiterals(p.slice(STATIC.length), readFileSync(p, 'utf8')));
  // The page's own words: every element with text of its own says it by data-i18n, but
  // the name crown and <noscript>, which shows where no script can translate it.
  const html = readFileSync(join(STATIC, 'index.html'), 'utf8').replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)[\s\S]*?<\/\1>/g, '');
  for (const m of html.matchAll(/<([a-z0-9]+)([^>]*)>([^<]*[A-Za-z][^<]*)</g)) {
    if (!/data-i18n=/.test(m[2]) && m[1] !== 'noscript' && !/^\s*(&#\d+;\s*)?crown\s*$/.test(m[3])) found.push(`index.html: <${m[1]}> ${m[3].trim()}`);
  }
  assert.deepEqual(found, [], 'English words outside t(): give each a message in the catalogues');
  // The scan itself sees what it should.
  assert.equal(englishLiterals('x.js', "h('p', {}, 'Your move now');\nconst k = t('game.play');").length, 1);
});

test('i18n: the switch\'s choice first, then the browser\'s languages, then English', () => {
  assert.equal(preferredLanguage(null, ['ja-JP', 'en']), 'ja');
  assert.equal(preferredLanguage(null, ['pt-BR', 'NL-be', 'de']), 'nl');
  assert.equal(preferredLanguage('fr', ['de-DE']), 'fr');
  assert.equal(preferredLanguage('xx', ['es-419']), 'es');
  assert.equal(preferredLanguage(null, ['pt', 'zh-CN']), 'en');
  assert.equal(preferredLanguage(null, []), 'en');
});

// The English texts of a game's rules page and tutorial, as rulestext.js looks them up.
const rulesTexts = (game) => [PAGES[game].intro,
  ...PAGES[game].sections.flatMap((s) => [s.h, ...s.p, ...(s.boards || []).map((b) => b.caption)]),
  ...(TUTORIALS[game] || []).flatMap((st) => [st.prompt, st.right])];

test('i18n: the rules pages and tutorials whole in every language, and no translation of a text they no longer have', () => {
  const texts = new Set(Object.keys(PAGES).flatMap(rulesTexts));
  const dir = join(STATIC, 'rules');
  const files = readdirSync(dir);
  assert.deepEqual(files.map((f) => f.replace(/\.json$/, '')).sort(), Object.keys(LANGUAGES).filter((l) => l !== 'en').sort());
  for (const f of files) {
    const lang = f.replace(/\.json$/, '');
    assert.ok(lang !== 'en' && lang in LANGUAGES, `rules/${f}: not a translated language of the switch`);
    const map = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    const stale = Object.keys(map).filter((k) => !texts.has(k));
    assert.deepEqual(stale, [], `rules/${f} translates texts the rules pages no longer have`);
    for (const [k, v] of Object.entries(map)) assert.ok(typeof v === 'string' && v.trim(), `rules/${f}: "${k.slice(0, 40)}" has no translation`);
    // Every page and tutorial is whole in every language.
    for (const game of Object.keys(PAGES)) {
      assert.deepEqual(rulesTexts(game).filter((k) => !(k in map)), [], `rules/${f} lacks texts of ${game}'s page`);
    }
  }
});

// The new-game form says each option by opt.FAMILY.NAME and its help by ….help, each
// choice by value.VALUE (newgame.js): a game's new option fails here until translated.
// A choice that is a number or one letter (a board file) reads the same everywhere.
test('i18n: every rule option of every game has its name, help and choices in the catalogue', async () => {
  const srv = await startServer();
  try {
    const r = await api(srv, 'GET', '/api/games');
    assert.equal(r.status, 200);
    const missing = new Set();
    for (const g of r.body.games) {
      for (const o of g.options) {
        for (const k of [`opt.${g.family}.${o.name}`, `opt.${g.family}.${o.name}.help`]) if (!(k in english)) missing.add(k);
        for (const c of o.choices ?? []) if (!/^([0-9]+|[a-z])$/.test(c) && !(`value.${c}` in english)) missing.add(`value.${c}`);
      }
    }
    assert.deepEqual([...missing], [], 'rule options the catalogue does not translate');
  } finally {
    await srv.stop();
  }
});

// Every C string literal below dir (src/), adjacent literals joined as the compiler
// joins them and string macros written out.
function cStrings(dir = SRC) {
  return filesUnder(dir, /\.c$/).flatMap((p) => [...expandStrings(readFileSync(p, 'utf8')).matchAll(/"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*/g)]
    .map((m) => [...m[0].matchAll(/"((?:[^"\\\n]|\\.)*)"/g)].map((x) => x[1]).join('').replace(/\\(.)/g, '$1')));
}

// A catalogue message as a pattern over C format strings: each {placeholder} where the
// format has conversions (%s, %.30s, %c%d).
const CONV = '%[-+ #0-9.*]*[a-z]+';
const formatPattern = (msg) => new RegExp(`^${msg.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(`${CONV}(?:${CONV})*`)}$`);
const PATTERNED = /^(illegal|parse)\./;

// The browser knows an explanation by its English message (serverwords.js): a sentence
// the C code no longer writes would never match, so each must still be in the sources,
// its {placeholders} where the format has conversions. A sentence the C code puts
// together from two ("%s %s" of a square and "holds none of your men") passes when one
// of its parts is a literal of the sources and the rest a format.
test('i18n: every explanation (illegal.*) and parse error (parse.*) the catalogue translates is one the C code writes', () => {
  const strings = cStrings();
  const written = (msg) => {
    const re = formatPattern(msg);
    return strings.some((s) => re.test(s));
  };
  const parts = strings.filter((s) => s.length >= 5 && !s.includes('%'));
  const stale = Object.entries(english).filter(([k]) => PATTERNED.test(k)).filter(([, msg]) =>
    !written(msg) && !parts.some((part) => msg.includes(part) && written(msg.replace(part, '{part}')))).map(([k]) => k);
  assert.deepEqual(stale, [], 'explanations no C format string makes');
});

// The server's refusals serverwords.js knows by a fixed pattern (error.*): each must
// still match a sentence src/ writes (its conversions stood in for by a word or a
// number), so a reworded C sentence fails here until its pattern follows; and each
// sentence of src/web of the shapes a page meets (a store failing, a rate limit, the
// Lab's refusals, a passkey refused, sign in first, the tournament's creator only) must
// be known. The browser's own words (the server not reached, a bare status) have no C,
// nor has a bare "try again later" today.
const CLIENT_ONLY = new Set(['error.unreachable', 'error.status', 'error.try-later']);
const COVERED = [/^cannot .* now: try again$/, / cannot be read now$/, /^too many .* from your address/,
  /^your address('s)? has /, /^your address's studies/, /^sign in to /, /^only the (tournament|study)'s /,
  /^the passkey is refused: /, /^the authenticator did not /, /^the client data's (challenge|origin)/,
  /^this (game|tournament) has \S+ event streams/, /^the AI workers were all busy/, /^the lab('s)? /, /^(no )?study '/, /^a study (here|from)/, /^the server is stopping: no study/];
// A format's sentences with its conversions stood in for: a number, and for a %s each of
// a few words it is given (a seat, a thing counted).
const WORDS = ['first', 'first player', 'games', 'tournaments'];
function sampled(format) {
  const n = format.replace(/%l{0,2}[dui]|%zu/g, '12').replace(/%c/g, 'a');
  return WORDS.map((w) => n.replace(/%(\.\d+)?s/g, w));
}
test('i18n: every server refusal serverwords.js knows is a sentence of src/, and every covered one of src/web is known', () => {
  const all = cStrings().flatMap(sampled);
  const stale = knownRefusals().filter(({ re, key }) => !CLIENT_ONLY.has(key) && !all.some((s) => re.test(s))).map(({ key }) => key);
  assert.deepEqual([...new Set(stale)], [], 'refusals no C sentence makes any more (reworded? follow it in serverwords.js and the catalogues)');
  const web = cStrings(join(SRC, 'web'));
  const unknown = [...new Set(web.filter((f) => COVERED.some((re) => re.test(f))).filter((f) => !sampled(f).some(isKnown)))];
  assert.deepEqual(unknown, [], 'refusals a page meets that serverwords.js does not know (add error.* messages)');
});

// The reasons the games' parsers give for a position text (the analysis board, the
// editors, /api/observe, imports), a record (imports), a game's rule settings, players,
// clock and turn, a King of the Valley tiles file, or a typed move (the game page's move
// box, the analysis board) that does not read: each err_set format of the parser and of
// the functions it calls, however deep (a static one of its file, or one defined in
// another file of its directory), must be a message of the catalogue (or one of
// serverwords.js's fixed messages), so a new or reworded reason fails here until it is
// translated. Out of memory is not the player's to read.
const PARSERS = [['games/kingsvalley/kv_notation.c', 'kv_parse_position'], ['games/kingscastle/kc_notation.c', 'kc_parse_position'],
  ['games/kingsguard/kg_notation.c', 'kg_parse_position'], ['games/kingdown/kd_notation.c', 'kd_parse_fen'],
  ['games/kingdown/kd_setup.c', 'kd_parse_setup'], ['games/kingofthevalley/kotv_position_text.c', 'kotv_parse_position'],
  ['games/kingofthevalley/kotv_tiles.c', 'kotv_tiles_parse'], ['core/game_api.c', 'game_parse_plies'],
  ['core/game_api.c', 'game_create'], ['core/record.c', 'record_parse'], ['play/seats.c', 'seats_parse'],
  ['play/clock.c', 'play_clock_parse'], ['play/turn.c', 'play_parse_turn'], ['play/turn.c', 'play_parse_action'],
  ['play/turn.c', 'play_parse_next'], ['core/game_api.c', 'game_parse_action'],
  // The move parsers (each game's ops_parse_move and parse_actions).
  ...['kingsvalley/kv', 'kingscastle/kc', 'kingsguard/kg', 'kingdown/kd', 'kingofthevalley/kotv']
    .map((g) => [`games/${g}_ops.c`, 'ops_parse_move']), ['games/kingsguard/kg_ops.c', 'ops_parse_actions']];

// The functions whose phrases a parser's reason carries as its %s.
const PHRASES = [['games/kingofthevalley/kotv_action_text.c', 'kotv_decision_name']];

// A function's definition (not a prototype) in a C text, to its closing brace in column 0.
function definition(text, name) {
  const m = new RegExp(`^[A-Za-z][^;{]*\\b${name}\\([^;{]*\\)\\s*\\{`, 'm').exec(text);
  return m ? text.slice(m.index, text.indexOf('\n}\n', m.index)) : null;
}

// A C text with each string macro (#define NAME "..." "...") written out where it is
// used, so that a message made with one ("empty move: " MOVE_FORMS) reads whole.
function expandStrings(text) {
  let out = text;
  for (const m of text.matchAll(/^#define (\w+)((?:[ \t]|\\\n)*(?:"(?:[^"\\\n]|\\.)*"(?:[ \t]|\\\n)*)+)$/gm)) {
    const literal = [...m[2].matchAll(/"(?:[^"\\\n]|\\.)*"/g)].map((x) => x[0]).join(' ');
    const at = out.indexOf(m[0]) + m[0].length;
    out = out.slice(0, at) + out.slice(at).replace(new RegExp(`\\b${m[1]}\\b`, 'g'), literal);
  }
  return out;
}

function parserFormats(file, fn) {
  const dir = join(SRC, file, '..');
  const texts = new Map(readdirSync(dir).filter((f) => f.endsWith('.c')).map((f) => [f, expandStrings(readFileSync(join(dir, f), 'utf8'))]));
  // A name called from a file: that file's own definition (its static functions are its
  // own), else a non-static one of another file of the directory.
  const find = (from, name) => {
    const own = definition(texts.get(from), name);
    if (own) return [from, own];
    for (const [f, text] of texts) {
      const body = f === from ? null : definition(text, name);
      if (body && !body.startsWith('static')) return [f, body];
    }
    return null;
  };
  const seen = new Map();
  const todo = [[file.split('/').pop(), fn]];
  while (todo.length) {
    const [from, name] = todo.pop();
    const found = find(from, name);
    if (!found || seen.has(found.join(':'))) continue;
    seen.set(found.join(':'), found[1]);
    for (const m of found[1].matchAll(/\b([a-z_][a-z0-9_]*)\(/g)) todo.push([found[0], m[1]]);
  }
  assert.ok(seen.size > 0, `${file}: no function ${fn}`);
  return [...seen.values()].flatMap((body) => [...body.matchAll(/err_set\(err, (STATUS_\w+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+)/g)]
    .filter((m) => m[1] !== 'STATUS_NOMEM')
    .map((m) => [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((x) => x[1]).join('').replace(/\\(.)/g, '$1')));
}

test('i18n: every reason a game\'s parser gives for a position text, a tiles file or a typed move is in the catalogue', () => {
  const patterns = Object.entries(english).filter(([k, m]) => PATTERNED.test(k) && typeof m === 'string').map(([, m]) => formatPattern(m));
  const formats = PARSERS.flatMap(([file, fn]) => parserFormats(file, fn));
  assert.ok(formats.length > 100, `${formats.length} reasons found`);
  const missing = [...new Set(formats.filter((f) => !patterns.some((re) => re.test(f)) && !isKnown(f)))];
  assert.deepEqual(missing, [], 'parse errors the catalogue does not translate (add parse.* messages)');
  // The words a reason takes from a function of fixed phrases (King of the Valley's
  // decision at hand: "'x' is not an action: phase 1: recruit ...") are messages too,
  // said in the language as a nested {why}.
  for (const [file, fn] of PHRASES) {
    const body = definition(readFileSync(join(SRC, file), 'utf8'), fn);
    assert.ok(body, `${file}: no function ${fn}`);
    const phrases = [...body.matchAll(/return "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
    assert.ok(phrases.length > 0, `${fn}: no phrases`);
    assert.deepEqual(phrases.filter((f) => !patterns.some((re) => re.test(f))), [], `${fn}'s phrases the catalogue lacks`);
  }
});

// What a Japanese page shows for the server's words: i18n.js loaded as the page loads it
// (the server's catalogue in the page, English fetched), with the browser's globals
// stood in for the while.
test('i18n: the server\'s reasons said in Japanese, nested reasons, seats and typed moves too', async () => {
  const ja = readFileSync(join(STATIC, 'i18n', 'ja.json'), 'utf8');
  const realFetch = globalThis.fetch;
  Object.assign(globalThis, {
    localStorage: { getItem: () => 'ja', setItem: () => {} },
    document: { getElementById: () => ({ dataset: { lang: 'ja' }, textContent: ja }), documentElement: {}, cookie: '' },
    fetch: async (url) => ({ ok: true, json: async () => JSON.parse(readFileSync(join(STATIC, url), 'utf8')) }),
  });
  try {
    await loadMessages();
  } finally {
    delete globalThis.localStorage;
    delete globalThis.document;
    globalThis.fetch = realFetch;
  }
  assert.equal(serverWords('bad position: the first player needs exactly one king, not 0'),
    '局面が正しくありません：先手の王はちょうど 1 つでなければなりません（0 個あります）');
  assert.equal(serverWords("tiles file 'my tiles.txt': line 3: unknown tile 'XX' (tiles: Q D C NA NB NC ND F W J P Z, T<need>:<gold> with need 0-9 and gold 0-99)"),
    'タイルファイル「my tiles.txt」：3 行目：不明なタイル「XX」（タイル：Q D C NA NB NC ND F W J P Z、T<need>:<gold> で need は 0-9、gold は 0-99）');
  assert.equal(serverWords('the record: rank 9 describes 6 squares, not 5'), '棋譜：9 段目は 6 マス分あります（5 マスのはずです）');
  // A typed move that does not read (the move box): King of the Valley's decision at
  // hand and King's Castle's reasons, as a real server words them (the test below).
  assert.equal(serverWords("'zz' is not an action: placing the king (place c3)"), "'zz' はアクションではありません：王の配置（place c3）");
  assert.equal(serverWords("'d4-': the cell after '-' is missing"), "'d4-'：'-' の後のマスがありません");
  assert.equal(serverWords('c4:e4 is not a line of your men (it has an empty cell)'), 'c4:e4 は自分の兵の列ではありません（空きマスがあります）');
  // The server's own refusals to a player (accounts, the lobby, tournaments), a game's
  // registry name said as its name.
  assert.equal(serverWords('wrong name or password'), '名前かパスワードが違います');
  assert.equal(serverWords("your kings-valley rating, 1700, is outside this seek's range 1200-1500"),
    'あなたのキングスバレーのレーティング 1700 は、この対局募集の範囲 1200-1500 の外です');
  // A store failing, a rate limit, a passkey refused (its reason said where it is one of
  // webauthn.c's fixed ones, else as written), sign in first.
  assert.equal(serverWords('cannot keep the passkey now: try again'), 'いまはこれを行えません：もう一度お試しください');
  assert.equal(serverWords('too many tournaments created from your address: at most 3 an hour; try again in 120 s'),
    'このアドレスから作られたトーナメントが多すぎます。1時間に最大 3 件です。120 秒後にもう一度お試しください');
  assert.equal(serverWords('the passkey is refused: the authenticator did not verify the user'),
    'パスキーは受け付けられません：認証器が利用者を確認しませんでした');
  assert.equal(serverWords('the passkey is refused: the signature is empty'), 'パスキーは受け付けられません：the signature is empty');
  assert.equal(serverWords('sign in to challenge a player (POST /api/login)'), '先にログインしてください：これにはアカウントが必要です');
  assert.equal(serverWords('no such thing the server says'), 'no such thing the server says');
});

test('i18n: a real server\'s explanations of illegal moves and of positions that do not read are known to the catalogue', async () => {
  const srv = await startServer();
  try {
    // Typed moves that do not read, each game's move box's (King of the Valley's opening
    // decision is its king's placing, a {why} said in the language too).
    const tries = [['kings-valley', ['c1-c3', 'zz', 'b1-b9', 'a1-a1', 'b1-d3']], ['king-down', ['e2e5', 'e7e5', 'e3e4', 'zz9', 'e2e4e2e4e2e4e2e4e2e4e2e4']],
      ['kings-guard', ['end', 'e1', 'zz', 'c3-zz']], ['kings-castle', ['zz', 'd4-', 'd4-z99', 'c4:', 'c4:e5-g4', 'z99', 'c4:e4-g4']],
      ['king-of-the-valley', ['zz', 'place c3 d4', 'pass x', 'c3-e5', 'draw']]];
    const unknown = [];
    for (const [game, moves] of tries) {
      const made = (await api(srv, 'POST', '/api/games', { body: { game, seats: ['human', 'human'], rules: game === 'king-down' ? { setup: 'classic' } : {} } })).body;
      assert.ok(made.id, JSON.stringify(made));
      for (const move of moves) {
        // By the seat to move (King of the Valley's first player is drawn by lot).
        let r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { body: { move }, token: made.seats[0].token });
        if (/^it is not your turn/.test(r.body.error)) r = await api(srv, 'POST', `/api/games/${made.id}/moves`, { body: { move }, token: made.seats[1].token });
        const found = r.status === 200 || explanation(r.body.error, english);
        if (!found || (found.params?.why !== undefined && !explanation(found.params.why, english))) unknown.push(`${game} ${move}: ${r.body.error}`);
      }
    }
    // Position texts that do not read (the analysis board, the editors): "bad position:
    // REASON", the reason itself a message too.
    const positions = [['kings-valley', ['xyz', 'SSKSS/5/5/5/sskss 3 0', 'SSKSS/5/5/5 1 0', 'SSQSS/5/5/5/sskss 1 0']],
      ['king-down', ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 foo:1']],
      ['kings-castle', ['zz']], ['kings-guard', ['zz']], ['king-of-the-valley', ['foo=1', 'players=9']]];
    // Records that do not read (imports): "the record: REASON", a line's reason too.
    for (const record of ['hello', 'crown-record 1\ngame nosuch\nstart -', 'crown-record 1\ngame kings-valley\nrule max-plies=x\nstart -']) {
      const r = await api(srv, 'POST', '/api/import', { body: { record } });
      assert.equal(r.status, 400, `'${record}' reads`);
      const found = explanation(r.body.error, english);
      const inner = found && found.params.why !== undefined ? explanation(found.params.why, english) : found;
      if (!inner || (inner.params.why !== undefined && !explanation(inner.params.why, english))) unknown.push(`import: ${r.body.error}`);
    }
    // A line of the analysis board with a typed move that does not read: "action N of
    // 'moves' (TEXT): REASON", the reason a message too.
    for (const [game, moves] of [['kings-castle', ['d4', 'zz']], ['king-of-the-valley', ['place']]]) {
      const r = await api(srv, 'POST', '/api/observe', { body: { game, moves } });
      assert.equal(r.status, 400, `${game} ${moves} reads`);
      const found = explanation(r.body.error, english);
      if (!found || found.key !== 'parse.observe-action' || !explanation(found.params.why, english)) unknown.push(`${game} ${moves}: ${r.body.error}`);
    }
    for (const [game, texts] of positions) {
      for (const position of texts) {
        const r = await api(srv, 'POST', '/api/observe', { body: { game, position } });
        assert.equal(r.status, 400, `${game} '${position}' reads`);
        const found = explanation(r.body.error, english);
        if (!found || (found.params.why !== undefined && !explanation(found.params.why, english))) unknown.push(`${game} '${position}': ${r.body.error}`);
      }
    }
    assert.deepEqual(unknown, [], 'explanations the browser would show in English');
  } finally {
    await srv.stop();
  }
});
