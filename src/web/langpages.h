/*
 * langpages.h - the app's page in each language, built once at start from the embedded
 * index.html and message catalogues (docs/I18N.md), with <html lang>, the words of the
 * page's own markup and the whole catalogue in it, so that the first paint is already
 * in the language language_choose picks.
 */
#ifndef CROWN_WEB_LANGPAGES_H
#define CROWN_WEB_LANGPAGES_H

#include <stddef.h>

#include "core/status.h"

typedef struct LanguagePages LanguagePages;
typedef struct Messages Messages;

/* The app's page in every language, its words from msgs (messages.h); an error when the
 * embedded page is missing (a broken build). */
Status language_pages_new(LanguagePages **out, const Messages *msgs, ErrBuf *err);
void language_pages_free(LanguagePages *pages);

/* The page in `lang` and its entity tag (quoted). */
const char *language_page(const LanguagePages *pages, int lang, size_t *size, const char **etag);

#endif
