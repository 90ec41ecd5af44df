/*
 * weblog.h - the server's log of what the HTTP library reports. libmicrohttpd writes a
 * line for every stream it closes and every connection it turns away: 10,000 lines for
 * 10,000 streams, and as many for an attacker's refused connections. Here the routine
 * ones are only counted and summed up once a minute (never under --quiet; a closed
 * stream, the normal end of a game page, never), and any other line is written at most
 * once a minute, with how often it came meanwhile.
 */
#ifndef CROWN_WEB_WEBLOG_H
#define CROWN_WEB_WEBLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct WebLog WebLog;

/* A log writing to out; quiet: no summaries of routine lines. NULL without memory. */
WebLog *weblog_new(FILE *out, bool quiet);
/* Writes what is still held back (the last summary) at clock time now_ms, then frees.
 * NULL is fine. */
void weblog_free(WebLog *l, int64_t now_ms);
/* One line of the library's (no newline needed), at clock time now_ms. Thread-safe. */
void weblog_library(WebLog *l, const char *line, int64_t now_ms);

#endif
