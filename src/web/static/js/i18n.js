// i18n.js - the page's words in the player's language: one message catalogue per
// language (i18n/LANG.json, English the source), loaded once before any page is drawn,
// then read synchronously with t(key, params). The server chooses the language of the
// first paint (src/web/language.c: the crown_lang cookie, else Accept-Language) and
// sends its catalogue inside the page with <html lang> already set; a choice this
// browser kept only in localStorage still wins, and is written to the cookie for the
// next page. Without the server's choice: the switch's, else the browser's first
// language we have, else English. A message is a string with {name} placeholders, or,
// where it counts something, an object of Intl.PluralRules categories ({one, other,
// ...}) chosen by params.count. docs/I18N.md tells how to add a message or a language.

// The languages with a catalogue, each named in its own words for the switch.
export const LANGUAGES = { en: 'English', ja: '日本語', nl: 'Nederlands', de: 'Deutsch', fr: 'Français', es: 'Español' };
const KEY = 'crown.lang';

const state = { lang: 'en', messages: {}, english: {}, plural: null };

// The language this browser asks for: the switch's choice, else navigator.languages.
export function preferredLanguage(stored = null, wanted = []) {
  if (stored && LANGUAGES[stored]) return stored;
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES[base]) return base;
  }
  return 'en';
}

async function fetchCatalogue(lang) {
  const r = await fetch(`/i18n/${lang}.json`);
  if (!r.ok) throw new Error(`the ${lang} messages cannot be read (${r.status})`);
  return r.json();
}

// Loads the catalogues. A language that cannot be read leaves the page in English
// rather than without words.
export async function loadMessages() {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch { /* storage off: not remembered */ }
  if (!Object.hasOwn(LANGUAGES, stored ?? '')) stored = null;
  const sent = served();
  // A choice kept before the server read the cookie wins, and the cookie learns it.
  if (stored && sent && stored !== sent.lang) remember(stored);
  const lang = stored || (sent ? sent.lang : preferredLanguage(null, navigator.languages || [navigator.language]));
  const inPage = sent && sent.lang === lang ? sent.messages : null;
  const load = (l) => (l === lang && inPage ? Promise.resolve(inPage) : fetchCatalogue(l));
  const own = lang === 'en' ? Promise.resolve(null) : load(lang).catch((e) => { console.error(e); return null; });
  try {
    state.english = await load('en');
  } catch (e) {
    console.error(e); // the keys show where the words would be
  }
  const messages = await own;
  state.messages = messages ?? state.english;
  state.lang = messages ? lang : 'en';
  state.plural = new Intl.PluralRules(state.lang);
  document.documentElement.lang = state.lang;
}

export const currentLanguage = () => state.lang;

// Whether the catalogue has a message (for words that only some games have).
export const hasMessage = (key) => key in state.messages || key in state.english;

// The message `key` in the page's language with its {placeholders} filled from params;
// the English one where the language lacks it, the key itself where both do (so a
// missing message shows, and the catalogue test names it).
export function t(key, params = {}) {
  let msg = state.messages[key] ?? state.english[key] ?? key;
  if (typeof msg === 'object') {
    const n = Number(params.count);
    msg = msg[state.plural.select(n)] ?? msg.other;
  }
  return msg.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}

// A number in the page's language's digits and separators.
export const formatNumber = (n, opts) => new Intl.NumberFormat(state.lang, opts).format(n);

// The language the server drew the page in and its catalogue, from the page itself
// (a JSON data block, never run), or null.
function served() {
  const block = typeof document !== 'undefined' && document.getElementById('i18n-messages');
  if (!block || !Object.hasOwn(LANGUAGES, block.dataset.lang ?? '')) return null;
  try {
    return { lang: block.dataset.lang, messages: JSON.parse(block.textContent) };
  } catch {
    return null;
  }
}

// The choice kept where the server reads it (a year; the page's own path and below).
function remember(lang) {
  document.cookie = `crown_lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

// Choosing a language: remembered, then the page is drawn again in it.
export function setLanguage(lang) {
  try { localStorage.setItem(KEY, lang); } catch { /* storage off: this page only */ }
  remember(lang);
  location.reload();
}

// The header's switch, on every page.
export function languageSwitch() {
  const select = document.createElement('select');
  select.id = 'language';
  select.className = 'language';
  select.setAttribute('aria-label', t('chrome.language'));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement('option');
    o.value = code;
    o.lang = code;
    o.textContent = name;
    o.selected = code === state.lang;
    select.append(o);
  }
  select.addEventListener('change', () => setLanguage(select.value));
  return select;
}

// The words written into index.html, each element marked with its message's key in
// data-i18n, in the page's language.
export function translateStatic(root) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
}
