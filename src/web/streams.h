/*
 * streams.h - the limits on a game's event streams, counted in its session (session.h's
 * nstreams and seat_streams) by this process; the transport (http.c, sse.c) asks before it
 * opens a stream and gives back when the stream closes.
 */
#ifndef CROWN_WEB_STREAMS_H
#define CROWN_WEB_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Server Server;
typedef struct Session Session;

/* Counts a new stream of s for `viewer` (a seat or -1) in s->nstreams, or puts in msg
 * why not: a seat's token always gets a stream (up to STREAMS_PER_SEAT each, its tabs),
 * whatever spectators hold, so that watchers cannot cut the players off their own
 * updates; spectators share --streams-per-game. */
enum { STREAMS_PER_SEAT = 4 };
bool streams_count_open(const Server *srv, Session *s, int viewer, char *msg, size_t n);
/* Gives back what streams_count_open counted. */
void streams_count_close(Session *s, int viewer);
/* Gives back what any event stream held: its place in addr's stream quota and its hold
 * in a shared store (store_live_take; 0: none). A stopping server gives back all its
 * holds at once when it closes the store. */
void streams_give_back(Server *srv, const char *addr, int64_t hold);
/* A stream's reader callback hands out what is left of out[*off..len), at most max
 * bytes into buf, and moves *off on: the count to return to libmicrohttpd. */
size_t streams_copy_out(const char *out, size_t len, size_t *off, char *buf, size_t max);

#endif
