/*
 * status.h - error reporting at input boundaries.
 *
 * Functions that read outside input (positions, moves, options, files) return a
 * Status and write a one-line human message into a caller-owned ErrBuf. They never
 * abort and never leave their output half-modified.
 */
#ifndef CROWN_CORE_STATUS_H
#define CROWN_CORE_STATUS_H

#include <stdarg.h>

typedef enum Status {
    STATUS_OK = 0,
    STATUS_PARSE,       /* text could not be read */
    STATUS_ILLEGAL,     /* well-formed but against the rules */
    STATUS_UNSUPPORTED, /* the request makes no sense for this game or algorithm */
    STATUS_IO,          /* a file could not be read or written */
    STATUS_NOMEM,       /* an allocation failed */
    /* Refusals of a game in play, for front ends that map them onto their own codes
     * (the web API's HTTP statuses): */
    STATUS_NOT_FOUND,    /* no such game, seat or thing */
    STATUS_NOT_YOUR_TURN, /* someone else (or chance) is to act */
    STATUS_CONFLICT,     /* the game's state does not allow it now (over, moved on) */
    STATUS_CORRUPT,      /* stored data this build can no longer read */
} Status;

enum { ERRBUF_LEN = 256 };

typedef struct ErrBuf {
    char msg[ERRBUF_LEN];
} ErrBuf;

/* Writes a printf-style message into err (when err is not NULL) and returns code. */
Status err_set(ErrBuf *err, Status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Clears the message. */
void err_clear(ErrBuf *err);

#endif
