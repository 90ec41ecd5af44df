/*
 * sse.h - server-sent events: a stream per watcher of a game that sends the game's
 * state (as GET /api/games/ID returns it for that viewer) at once and again after every
 * change, so moves reach every player's screen without reloading.
 */
#ifndef CROWN_WEB_SSE_H
#define CROWN_WEB_SSE_H

struct MHD_Response;
typedef struct Server Server;
typedef struct Session Session;

/* A response whose body is the event stream of s as `viewer` (a seat or -1) sees it;
 * NULL when memory is short. The caller has counted the stream in s->streams and in
 * addr's QUOTA_STREAMS and holds a reference to s: the stream owns all three from here
 * and gives them back when it closes (at once when NULL is returned). */
struct MHD_Response *sse_response(Server *srv, Session *s, int viewer, const char *addr);

#endif
