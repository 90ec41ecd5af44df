/*
 * language.h - the language the app's page is first drawn in, chosen by the server: the
 * player's remembered choice (the crown_lang cookie the page's switch writes), else the
 * browser's Accept-Language with its q-values, else English; and the page in each
 * language, built once at start from the embedded index.html and message catalogues
 * (docs/I18N.md), with <html lang>, the words of the page's own markup and the whole
 * catalogue in it, so that the first paint is already in that language.
 */
#ifndef CROWN_WEB_LANGUAGE_H
#define CROWN_WEB_LANGUAGE_H

#include <stddef.h>

#include "core/status.h"

/* The cookie the page's language switch writes (js/i18n.js). */
#define LANGUAGE_COOKIE "crown_lang"

enum { LANGUAGE_COUNT = 6 };

/* The languages with a catalogue, English first: "en" "ja" "nl" "de" "fr" "es". */
const char *language_code(int lang);

/* The language to serve: the cookie's when it names one of ours, else the best of
 * Accept-Language (highest q, the first listed among equals; a tag matches by its
 * primary subtag, "*" means English; q=0 refuses), else English. Either may be NULL. */
int language_choose(const char *cookie, const char *accept_language);

typedef struct LanguagePages LanguagePages;

/* The app's page in every language; an error when an embedded catalogue is missing or
 * is not JSON (a broken build). */
Status language_pages_new(LanguagePages **out, ErrBuf *err);
void language_pages_free(LanguagePages *pages);

/* The page in `lang` and its entity tag (quoted). */
const char *language_page(const LanguagePages *pages, int lang, size_t *size, const char **etag);

#endif
