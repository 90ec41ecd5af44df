/*
 * langpages.c - index.html made once per language (langpages.h): its words from the
 * catalogues (messages.h), the catalogue itself in the page.
 */
#include "web/langpages.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "web/assets.h"
#include "web/language.h"
#include "web/messages.h"

struct LanguagePages {
    StrBuf page[LANGUAGE_COUNT];
    char etag[LANGUAGE_COUNT][80];
};

/* index.html in one language: its marked words and <html lang> (messages_apply), and
 * the catalogue itself as a JSON data block the page reads first (js/i18n.js;
 * JSON_ESCAPE_SLASH keeps "</script>" out of it). */
static Status build_page(const Messages *msgs, const WebAsset *index, int lang, StrBuf *out,
                         ErrBuf *err)
{
    char *dump = json_dumps(messages_catalogue(msgs, lang), JSON_COMPACT | JSON_ESCAPE_SLASH);
    // The markup is ours and NUL-free; a copy gives the scan its terminator.
    char *html = malloc(index->size + 1);
    StrBuf page;
    sb_init(&page);
    if (dump && html) {
        memcpy(html, index->data, index->size);
        html[index->size] = '\0';
        messages_apply(msgs, lang, html, &page);
        const char *head = strstr(sb_str(&page), "</head>");
        const size_t before = head ? (size_t)(head - sb_str(&page)) : page.len;
        sb_printf(out, "%.*s", (int)before, sb_str(&page));
        sb_printf(out, "<script type=\"application/json\" id=\"i18n-messages\" "
                       "data-lang=\"%s\">%s</script>\n%s", language_code(lang), dump,
                  sb_str(&page) + before);
    }
    const bool failed = dump == NULL || html == NULL || sb_failed(&page) || sb_failed(out);
    free(html);
    free(dump);
    sb_free(&page);
    return failed ? err_set(err, STATUS_NOMEM, "out of memory") : STATUS_OK;
}

Status language_pages_new(LanguagePages **out, const Messages *msgs, ErrBuf *err)
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
        const Status st = build_page(msgs, index, i, &pages->page[i], err);
        if (st != STATUS_OK) {
            language_pages_free(pages);
            return st;
        }
        // The page changes with the build and the language: the asset's tag, then ours.
        const size_t n = strlen(index->etag);
        snprintf(pages->etag[i], sizeof pages->etag[i], "%.*s-%s\"",
                 (int)(n > 1 ? n - 1 : 0), index->etag, language_code(i));
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
