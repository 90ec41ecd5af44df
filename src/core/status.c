/*
 * status.c - the one place messages are written into an ErrBuf.
 */
#include "core/status.h"

#include <stdio.h>

Status err_set(ErrBuf *err, Status code, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void err_clear(ErrBuf *err)
{
    if (err != NULL)
        err->msg[0] = '\0';
}
