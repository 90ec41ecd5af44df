/*
 * language.c - the language a page is said in (language.h): the choice from the cookie
 * or Accept-Language.
 */
#include "web/language.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>


static const char *const CODES[LANGUAGE_COUNT] = {"en", "ja", "nl", "de", "fr", "es"};

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
