// i18n.js - the page's words in the player's language: one message catalogue per
// language (i18n/LANG.json, English the source), loaded once before any page is drawn,
// then read synchronously with t(key, params). The language is the one chosen with the
// switch in the header (kept in localStorage), else the browser's first language we
// have, else English; <html lang> says it. A message is a string with {name}
// placeholders, or, where it counts something, an object of Intl.PluralRules categories
// ({one, other, ...}) chosen by params.count. docs/I18N.md tells how to add a message or
// a language.

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
  const lang = preferredLanguage(stored, navigator.languages || [navigator.language]);
  const own = lang === 'en' ? Promise.resolve(null) : fetchCatalogue(lang).catch((e) => { console.error(e); return null; });
  try {
    state.english = await fetchCatalogue('en');
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

// The English catalogue: the server's own words, which serverwords.js reads patterns from.
export const englishMessages = () => state.english;

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

// Choosing a language: remembered, then the page is drawn again in it.
export function setLanguage(lang) {
  try { localStorage.setItem(KEY, lang); } catch { /* storage off: this page only */ }
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
