/*
 * strbuf.h - a growable text buffer for formatting positions, moves and reports.
 *
 * The text is always NUL-terminated. If an allocation fails the buffer keeps what it
 * had and sets `failed`, so formatting code needs no error path of its own; callers
 * that care check sb_failed() once at the end.
 */
#ifndef CROWN_CORE_STRBUF_H
#define CROWN_CORE_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

#include "core/mem.h"

typedef struct StrBuf {
    char *data; /* NUL-terminated; never NULL after sb_init */
    size_t len;
    size_t cap;
    bool failed;
    const Mem *mem; /* where longer text goes (NULL: the C library); kept by sb_free */
    char small[64]; /* first bytes live inline so short strings need no malloc */
} StrBuf;

void sb_init(StrBuf *sb);
/* sb_init for a buffer whose longer text comes from `mem`, which must outlive it. */
void sb_init_mem(StrBuf *sb, const Mem *mem);
void sb_free(StrBuf *sb);
void sb_clear(StrBuf *sb);
void sb_putc(StrBuf *sb, char c);
void sb_puts(StrBuf *sb, const char *s);
void sb_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The text without its leading and trailing white space: returns where it starts and
 * writes its length, for parsers that read a token in place. */
const char *text_trim(const char *text, size_t *len);
static inline const char *sb_str(const StrBuf *sb)
{
    return sb->data;
}
static inline bool sb_failed(const StrBuf *sb)
{
    return sb->failed;
}

#endif
