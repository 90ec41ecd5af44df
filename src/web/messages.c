/*
 * messages.c - the catalogues in C (messages.h): one JSON object per language, parsed
 * once from the embedded files; the formatting follows js/i18n.js's t() so that a
 * message reads the same whether the page or the server says it.
 */
#include "web/messages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/assets.h"
#include "web/language.h"

struct Messages {
    json_t *cat[LANGUAGE_COUNT];
};

Status messages_new(Messages **out, ErrBuf *err)
{
    *out = NULL;
    Messages *m = calloc(1, sizeof *m);
    if (m == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    for (int i = 0; i < LANGUAGE_COUNT; i++) {
        char path[32];
        snprintf(path, sizeof path, "/i18n/%s.json", language_code(i));
        const WebAsset *a = assets_find(path);
        json_error_t jerr;
        m->cat[i] = a ? json_loadb((const char *)a->data, a->size, 0, &jerr) : NULL;
        if (!json_is_object(m->cat[i])) {
            messages_free(m);
            return err_set(err, STATUS_IO, "the embedded catalogue %s is missing or not JSON",
                           path);
        }
    }
    *out = m;
    return STATUS_OK;
}

void messages_free(Messages *m)
{
    if (m == NULL)
        return;
    for (int i = 0; i < LANGUAGE_COUNT; i++)
        json_decref(m->cat[i]);
    free(m);
}

const json_t *messages_catalogue(const Messages *m, int lang)
{
    return m->cat[lang >= 0 && lang < LANGUAGE_COUNT ? lang : 0];
}

bool messages_has(const Messages *m, const char *key)
{
    return json_object_get(m->cat[0], key) != NULL;
}

/* The plural category of a whole number n in the language (CLDR's rules for integers,
 * which Intl.PluralRules applies in the browser). */
static const char *plural_category(const char *code, long long n)
{
    const bool million = n != 0 && n % 1000000 == 0;
    if (strcmp(code, "ja") == 0)
        return "other";
    if (strcmp(code, "fr") == 0)
        return n == 0 || n == 1 ? "one" : million ? "many" : "other";
    if (strcmp(code, "es") == 0)
        return n == 1 ? "one" : million ? "many" : "other";
    return n == 1 ? "one" : "other";
}

static void put_text(StrBuf *out, const char *s, size_t n, bool html)
{
    for (size_t i = 0; i < n; i++) {
        const char c = s[i];
        if (html && c == '&')
            sb_puts(out, "&amp;");
        else if (html && c == '<')
            sb_puts(out, "&lt;");
        else if (html && c == '>')
            sb_puts(out, "&gt;");
        else
            sb_putc(out, c);
    }
}

/* A parameter's value as text: a string as it is, a number in digits. */
static void put_value(StrBuf *out, const json_t *v, bool html)
{
    if (json_is_string(v)) {
        put_text(out, json_string_value(v), json_string_length(v), html);
    } else if (json_is_integer(v)) {
        sb_printf(out, "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        sb_printf(out, "%g", json_real_value(v));
    }
}

void messages_format(const Messages *m, int lang, const char *key, const json_t *params,
                     bool html, StrBuf *out)
{
    const int l = lang >= 0 && lang < LANGUAGE_COUNT ? lang : 0;
    const json_t *msg = json_object_get(m->cat[l], key);
    if (msg == NULL)
        msg = json_object_get(m->cat[0], key);
    if (json_is_object(msg)) {
        const json_t *count = json_object_get(params, "count");
        long long n = json_is_integer(count) ? (long long)json_integer_value(count) : 0;
        if (json_is_string(count))
            n = strtoll(json_string_value(count), NULL, 10);
        const json_t *form = json_object_get(msg, plural_category(language_code(l), n));
        msg = form ? form : json_object_get(msg, "other");
    }
    const char *text = json_string_value(msg);
    if (text == NULL) {
        put_text(out, key, strlen(key), html);
        return;
    }
    // {name} is a placeholder when params has it; anything else stays as written.
    for (const char *p = text; *p;) {
        const char *open = strchr(p, '{');
        const char *close = open ? strchr(open, '}') : NULL;
        if (close == NULL) {
            put_text(out, p, strlen(p), html);
            break;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(close - open - 1), open + 1);
        const json_t *v = (size_t)(close - open - 1) < sizeof name ? json_object_get(params, name)
                                                                    : NULL;
        put_text(out, p, (size_t)(open - p), html);
        if (v)
            put_value(out, v, html);
        else
            put_text(out, open, (size_t)(close + 1 - open), html);
        p = close + 1;
    }
}

/* A "game" placeholder's registry name (kings-valley) said as the game's name in `lang`
 * (name.kings-valley), as the pages name a game; a name without one stays as it is. */
static void name_game(const Messages *m, int lang, json_t *params)
{
    const char *game = json_string_value(json_object_get(params, "game"));
    char key[96];
    if (game == NULL || (size_t)snprintf(key, sizeof key, "name.%s", game) >= sizeof key ||
        !messages_has(m, key))
        return;
    StrBuf name;
    sb_init(&name);
    messages_format(m, lang, key, NULL, false, &name);
    if (!sb_failed(&name))
        json_object_set_new(params, "game", json_string(sb_str(&name)));
    sb_free(&name);
}

/* An attribute value's text with the entities an escaped JSON text uses undone. */
static char *unescape_attr(const char *s, size_t n)
{
    static const struct {
        const char *entity;
        char c;
    } ENTITIES[] = {{"&quot;", '"'}, {"&#39;", '\''}, {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}};
    char *out = malloc(n + 1);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        bool done = false;
        for (size_t e = 0; e < sizeof ENTITIES / sizeof ENTITIES[0] && !done; e++) {
            const size_t len = strlen(ENTITIES[e].entity);
            if (i + len <= n && strncmp(s + i, ENTITIES[e].entity, len) == 0) {
                out[o++] = ENTITIES[e].c;
                i += len;
                done = true;
            }
        }
        if (!done)
            out[o++] = s[i++];
    }
    out[o] = '\0';
    return out;
}

void messages_apply(const Messages *m, int lang, const char *html, StrBuf *out)
{
    static const char LANG_ATTR[] = "<html lang=\"en\">";
    static const char KEY_ATTR[] = "data-i18n=\"";
    static const char ARGS_ATTR[] = " data-i18n-args=\"";
    const char *p = html;
    for (;;) {
        const char *at_lang = strstr(p, LANG_ATTR);
        const char *at_key = strstr(p, KEY_ATTR);
        const char *next = at_lang && (at_key == NULL || at_lang < at_key) ? at_lang : at_key;
        if (next == NULL) {
            sb_puts(out, p);
            return;
        }
        sb_printf(out, "%.*s", (int)(next - p), p);
        if (next == at_lang) {
            sb_printf(out, "<html lang=\"%s\">", language_code(lang));
            p = next + strlen(LANG_ATTR);
            continue;
        }
        // data-i18n="KEY"[ data-i18n-args="JSON"] ...>WORDS<: the words replaced.
        const char *key = next + strlen(KEY_ATTR);
        const char *quote = strchr(key, '"');
        const char *args = NULL, *args_end = NULL;
        if (quote && strncmp(quote + 1, ARGS_ATTR, strlen(ARGS_ATTR)) == 0) {
            args = quote + 1 + strlen(ARGS_ATTR);
            args_end = strchr(args, '"');
        }
        const char *gt = quote ? strchr(args_end ? args_end : quote, '>') : NULL;
        const char *lt = gt ? strchr(gt, '<') : NULL;
        if (lt == NULL || quote - key >= 64) {
            sb_puts(out, next);
            return;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(quote - key), key);
        json_t *params = NULL;
        if (args_end) {
            char *text = unescape_attr(args, (size_t)(args_end - args));
            json_error_t jerr;
            params = text ? json_loads(text, 0, &jerr) : NULL;
            free(text);
            if (json_is_object(params))
                name_game(m, lang, params);
        }
        sb_printf(out, "%.*s", (int)(gt + 1 - next), next);
        messages_format(m, lang, name, params, true, out);
        json_decref(params);
        p = lt;
    }
}
