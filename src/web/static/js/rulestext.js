// rulestext.js - the rules pages' and tutorials' texts (learn-pages.js, written in
// English) in the page's language: /rules/LANG.json maps each English text to its
// translation, as a gettext catalogue maps its msgids, so that the pages' data keeps
// one copy of the boards and positions. A text the language lacks stays in English.
import { currentLanguage } from './i18n.js';

let loading = null;

// Resolves to a function from an English text to the page's language's.
export function rulesWords() {
  if (!loading) {
    const lang = currentLanguage();
    loading = lang === 'en' ? Promise.resolve({})
      : fetch(`/rules/${lang}.json`).then((r) => (r.ok ? r.json() : {})).catch(() => ({}));
  }
  return loading.then((map) => (text) => map[text] ?? text);
}
