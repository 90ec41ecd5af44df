/*
 * language.c - the language of the app's first paint (language.h): the choice from the
 * cookie or Accept-Language, and index.html made once per language with its catalogue.
 */
#include "web/language.h"

#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "web/assets.h"

static const char *const CODES[LANGUAGE_COUNT] = {"en", "ja", "nl", "de", "fr", "es"};

struct LanguagePages {
    StrBuf page[LANGUAGE_COUNT];
    char etag[LANGUAGE_COUNT][80];
};

const char *language_code(int lang)
{
    return lang >= 0 && lang < LANGUAGE_COUNT ? CODES[lang] : CODES[0];
}

/* Ours among a language tag's primary subtag ("ja" of "ja-JP"), or -1. */
static int language_of_tag(const char *tag, size_t len)
{
    size_t primary = 0;
    while (primary < len && tag[primary] != '-' && tag[primary] != '_')
        primary++;
    if (primary == 1 && tag[0] == '*')
        return 0;
    for (int i = 0; i < LANGUAGE_COUNT; i++)
        if (primary == strlen(CODES[i]) && strncasecmp(tag, CODES[i], primary) == 0)
            return i;
    return -1;
}

/* A q-value ("1", "0.8", "0.125") in thousandths, or -1 when it is not one. */
static int q_value(const char *s, size_t len)
{
    if (len == 0 || (s[0] != '0' && s[0] != '1'))
        return -1;
    int q = (s[0] - '0') * 1000;
    if (len == 1)
        return q;
    if (s[1] != '.' || len > 5)
        return -1;
    int scale = 100;
    for (size_t i = 2; i < len; i++, scale /= 10) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        q += (s[i] - '0') * scale;
    }
    return q <= 1000 ? q : -1;
}

/* One "tag;q=0.8" item of Accept-Language: our language it names and its weight, or
 * -1 for a tag we do not have or a malformed item. */
static int accept_item(const char *item, size_t len, int *weight)
{
    size_t tag_len = 0;
    while (tag_len < len && item[tag_len] != ';')
        tag_len++;
    const char *tag = item;
    while (tag_len > 0 && isspace((unsigned char)tag[tag_len - 1]))
        tag_len--;
    *weight = 1000;
    const char *p = item + tag_len;
    const char *end = item + len;
    while (p < end) {
        // Parameters: ";q=0.8", possibly with spaces; anything else is ignored.
        while (p < end && (*p == ';' || isspace((unsigned char)*p)))
            p++;
        const char *param = p;
        while (p < end && *p != ';')
            p++;
        size_t plen = (size_t)(p - param);
        while (plen > 0 && isspace((unsigned char)param[plen - 1]))
            plen--;
        if (plen >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
            *weight = q_value(param + 2, plen - 2);
            if (*weight < 0)
                return -1;
        }
    }
    return tag_len ? language_of_tag(tag, tag_len) : -1;
}

int language_choose(const char *cookie, const char *accept_language)
{
    if (cookie) {
        const int lang = language_of_tag(cookie, strlen(cookie));
        if (lang >= 0 && strlen(cookie) == strlen(CODES[lang]))
            return lang;
    }
    int best = 0;
    int best_weight = 0;
    if (accept_language == NULL)
        return best;
    for (const char *p = accept_language; *p;) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        const char *item = p;
        while (*p && *p != ',')
            p++;
        int weight = 0;
        const int lang = accept_item(item, (size_t)(p - item), &weight);
        if (lang >= 0 && weight > best_weight) {
            best = lang;
            best_weight = weight;
        }
    }
    return best;
}

/* Text for HTML element content. */
static void put_escaped(StrBuf *sb, const char *s)
{
    for (; *s; s++) {
        if (*s == '&')
            sb_puts(sb, "&amp;");
        else if (*s == '<')
            sb_puts(sb, "&lt;");
        else if (*s == '>')
            sb_puts(sb, "&gt;");
        else
            sb_putc(sb, *s);
    }
}

/* index.html in one language: <html lang>, each data-i18n element's words from the
 * catalogue, and the catalogue itself as a JSON data block the page reads first
 * (js/i18n.js; JSON_ESCAPE_SLASH keeps "</script>" out of it). */
static Status build_page(const WebAsset *index, int lang, StrBuf *out, ErrBuf *err)
{
    char path[32];
    snprintf(path, sizeof path, "/i18n/%s.json", CODES[lang]);
    const WebAsset *cat = assets_find(path);
    json_error_t jerr;
    json_t *messages = cat ? json_loadb((const char *)cat->data, cat->size, 0, &jerr) : NULL;
    if (!json_is_object(messages)) {
        json_decref(messages);
        return err_set(err, STATUS_IO, "the embedded catalogue %s is missing or not JSON", path);
    }
    char *dump = json_dumps(messages, JSON_COMPACT | JSON_ESCAPE_SLASH);
    // The markup is ours and NUL-free; a copy gives the scan below its terminator.
    char *html = malloc(index->size + 1);
    if (dump == NULL || html == NULL) {
        free(dump);
        free(html);
        json_decref(messages);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    memcpy(html, index->data, index->size);
    html[index->size] = '\0';
    static const char LANG_ATTR[] = "<html lang=\"en\">";
    static const char KEY_ATTR[] = "data-i18n=\"";
    const char *p = html;
    for (;;) {
        const char *at_lang = strstr(p, LANG_ATTR);
        const char *at_key = strstr(p, KEY_ATTR);
        const char *at_head = strstr(p, "</head>");
        const char *next = at_lang;
        if (next == NULL || (at_key && at_key < next))
            next = at_key;
        if (next == NULL || (at_head && at_head < next))
            next = at_head;
        if (next == NULL) {
            sb_puts(out, p);
            break;
        }
        sb_printf(out, "%.*s", (int)(next - p), p);
        if (next == at_lang) {
            sb_printf(out, "<html lang=\"%s\">", CODES[lang]);
            p = next + strlen(LANG_ATTR);
        } else if (next == at_head) {
            sb_printf(out, "<script type=\"application/json\" id=\"i18n-messages\" "
                           "data-lang=\"%s\">%s</script>\n</head>", CODES[lang], dump);
            p = next + strlen("</head>");
        } else {
            // data-i18n="KEY" ...>WORDS<: the words replaced by the message.
            const char *key = next + strlen(KEY_ATTR);
            const char *quote = strchr(key, '"');
            const char *gt = quote ? strchr(quote, '>') : NULL;
            const char *lt = gt ? strchr(gt, '<') : NULL;
            if (lt == NULL) {
                sb_puts(out, next);
                break;
            }
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(quote - key), key);
            const char *msg = json_string_value(json_object_get(messages, name));
            sb_printf(out, "%.*s", (int)(gt + 1 - next), next);
            if (msg)
                put_escaped(out, msg);
            else
                sb_printf(out, "%.*s", (int)(lt - gt - 1), gt + 1);
            p = lt;
        }
    }
    free(html);
    free(dump);
    json_decref(messages);
    return sb_failed(out) ? err_set(err, STATUS_NOMEM, "out of memory") : STATUS_OK;
}

Status language_pages_new(LanguagePages **out, ErrBuf *err)
{
    *out = NULL;
    const WebAsset *index = assets_find("/index.html");
    if (index == NULL)
        return err_set(err, STATUS_IO, "the embedded page /index.html is missing");
    LanguagePages *pages = calloc(1, sizeof *pages);
    if (pages == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    for (int i = 0; i < LANGUAGE_COUNT; i++)
        sb_init(&pages->page[i]);
    for (int i = 0; i < LANGUAGE_COUNT; i++) {
        const Status st = build_page(index, i, &pages->page[i], err);
        if (st != STATUS_OK) {
            language_pages_free(pages);
            return st;
        }
        // The page changes with the build and the language: the asset's tag, then ours.
        const size_t n = strlen(index->etag);
        snprintf(pages->etag[i], sizeof pages->etag[i], "%.*s-%s\"",
                 (int)(n > 1 ? n - 1 : 0), index->etag, CODES[i]);
    }
    *out = pages;
    return STATUS_OK;
}

void language_pages_free(LanguagePages *pages)
{
    if (pages == NULL)
        return;
    for (int i = 0; i < LANGUAGE_COUNT; i++)
        sb_free(&pages->page[i]);
    free(pages);
}

const char *language_page(const LanguagePages *pages, int lang, size_t *size, const char **etag)
{
    const int i = lang >= 0 && lang < LANGUAGE_COUNT ? lang : 0;
    *size = pages->page[i].len;
    *etag = pages->etag[i];
    return sb_str(&pages->page[i]);
}
