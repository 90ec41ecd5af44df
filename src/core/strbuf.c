/*
 * strbuf.c - growable NUL-terminated text; see strbuf.h for the failure policy.
 */
#include "core/strbuf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_init(StrBuf *sb)
{
    sb->data = sb->small;
    sb->len = 0;
    sb->cap = sizeof sb->small;
    sb->failed = false;
    sb->mem = NULL;
    sb->small[0] = '\0';
}

void sb_init_mem(StrBuf *sb, const Mem *mem)
{
    sb_init(sb);
    sb->mem = mem;
}

void sb_free(StrBuf *sb)
{
    if (sb->data != sb->small)
        mem_free(sb->mem, sb->data);
    sb_init_mem(sb, sb->mem);
}

void sb_clear(StrBuf *sb)
{
    sb->len = 0;
    sb->data[0] = '\0';
}

/* Makes room for `extra` more bytes plus the terminator; false if that failed. */
static bool reserve(StrBuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t cap = sb->cap * 2;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = mem_alloc(sb->mem, cap);
    if (p == NULL) {
        sb->failed = true;
        return false;
    }
    memcpy(p, sb->data, sb->len + 1);
    if (sb->data != sb->small)
        mem_free(sb->mem, sb->data);
    sb->data = p;
    sb->cap = cap;
    return true;
}

void sb_putc(StrBuf *sb, char c)
{
    if (!reserve(sb, 1))
        return;
    sb->data[sb->len++] = c;
    sb->data[sb->len] = '\0';
}

void sb_puts(StrBuf *sb, const char *s)
{
    size_t n = strlen(s);
    if (!reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n + 1);
    sb->len += n;
}

void sb_printf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_puts(sb, tmp);
        return;
    }
    if (!reserve(sb, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

const char *text_trim(const char *text, size_t *len)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    *len = n;
    return text;
}
