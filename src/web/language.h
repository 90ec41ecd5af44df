/*
 * language.h - the languages the server speaks, and the one a request is answered in:
 * the player's remembered choice (the crown_lang cookie the page's switch writes), else
 * the browser's Accept-Language with its q-values, else English (docs/I18N.md).
 */
#ifndef CROWN_WEB_LANGUAGE_H
#define CROWN_WEB_LANGUAGE_H

/* The cookie the page's language switch writes (js/i18n.js). */
#define LANGUAGE_COOKIE "crown_lang"

enum { LANGUAGE_COUNT = 6 };

/* The languages with a catalogue, English first: "en" "ja" "nl" "de" "fr" "es". */
const char *language_code(int lang);

/* The language to serve: the cookie's when it names one of ours, else the best of
 * Accept-Language (highest q, the first listed among equals; a tag matches by its
 * primary subtag, "*" means English; q=0 refuses), else English. Either may be NULL. */
int language_choose(const char *cookie, const char *accept_language);

#endif
