/*
 * messages.h - the web app's message catalogues (src/web/static/i18n/LANG.json, embedded)
 * as the server itself uses them: loaded once at start, a message said in a language
 * with its {placeholders} filled and its plural form chosen, and an HTML text whose
 * marked elements (data-i18n="KEY", with data-i18n-args="{&quot;name&quot;: value}" where
 * the message has placeholders) are put in a language. The app's page (language.h), the
 * Lab's reports and the mails say their words through it (docs/I18N.md).
 */
#ifndef CROWN_WEB_MESSAGES_H
#define CROWN_WEB_MESSAGES_H

#include <jansson.h>
#include <stdbool.h>

#include "core/status.h"
#include "core/strbuf.h"

typedef struct Messages Messages;

/* The catalogues of every language (language.h); an error when one is missing or is not
 * a JSON object (a broken build). */
Status messages_new(Messages **out, ErrBuf *err);
void messages_free(Messages *m);

/* The catalogue of `lang` as its JSON object (borrowed). */
const json_t *messages_catalogue(const Messages *m, int lang);

/* Whether English (and so every language) has message `key`. */
bool messages_has(const Messages *m, const char *key);

/* Appends message `key` in `lang` (in English when that language lacks it; the key
 * itself when English does too): each {name} the value params has for it (a string as
 * it is, an integer in digits), a plural message's form chosen by params' "count" by the
 * language's rules (Intl.PluralRules' categories, as js/i18n.js). With html, the
 * message and the values are escaped as element text. params may be NULL. */
void messages_format(const Messages *m, int lang, const char *key, const json_t *params,
                     bool html, StrBuf *out);

/* Appends `html` with `<html lang="en">` made `lang`'s and each element marked
 * data-i18n="KEY" (its words up to the next tag) given message KEY in `lang`, filled
 * from its data-i18n-args; a "game" argument (a registry name, kings-valley) is said as
 * the game's name.GAME message. */
void messages_apply(const Messages *m, int lang, const char *html, StrBuf *out);

#endif
