/*
 * sse.h - server-sent events: a stream per watcher of a game that sends the game's
 * state (as GET /api/games/ID returns it for that viewer) at once and again after every
 * change, so moves reach every player's screen without reloading. A stream with nothing
 * to send holds no thread: its connection is suspended until its session changes, a
 * keep-alive is due or the client hangs up (the hub's one thread sees to the last two).
 */
#ifndef CROWN_WEB_SSE_H
#define CROWN_WEB_SSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct MHD_Connection;
struct MHD_Response;
typedef struct Server Server;
typedef struct Session Session;
typedef struct SseHub SseHub;
typedef struct SseStream SseStream;
typedef struct SseEvent SseEvent;

/* The hub: keep-alives and hang-ups of suspended streams; srv->sessions must exist. */
Status sse_hub_start(Server *srv, SseHub **out, ErrBuf *err);
/* Waits for a round of broadcasts in progress, so that once the server is stopping
 * (every later round only resumes) no stream stays suspended: before the daemon stops. */
void sse_hub_quiesce(SseHub *h);
/* After the HTTP daemon has stopped (every stream freed). NULL is fine. */
void sse_hub_stop(SseHub *h);

/* A response whose body is the event stream of s as `viewer` (a seat or -1) sees it,
 * for connection c; NULL when memory is short. The caller has counted the stream in
 * s->nstreams, in addr's QUOTA_STREAMS and, on a shared store, as `hold`
 * (store_live_take; 0: none) and holds a reference to s: the stream owns all four from
 * here and gives them back when it closes (at once when NULL is returned). */
struct MHD_Response *sse_response(Server *srv, struct MHD_Connection *c, Session *s,
                                  int viewer, const char *addr, int64_t hold);
/* Lets go of s's shared events, when s is destroyed. */
void sse_events_free(Session *s);
/* Resumes every waiting stream of s after a change (or at shutdown); s->mu held. */
void sse_wake_locked(Session *s);

#endif
