/*
 * http.h - the HTTP side of the server on libmicrohttpd: a few epoll loops, requests
 * that may block answered by worker threads, request bodies collected up to a bound,
 * requests refused unless their Host names this server, their Origin is its own or a
 * configured site's and their body is JSON, the client's token read from the Authorization header (or ?token= for reading), writes
 * rate-limited per address, the security headers on every answer, and each request
 * routed to the JSON API, the event streams or the built-in front-end files.
 */
#ifndef CROWN_WEB_HTTP_H
#define CROWN_WEB_HTTP_H

#include "core/status.h"

typedef struct Server Server;
typedef struct HttpWorkers HttpWorkers;

/* Starts listening on srv->cfg.bind / port; sets srv->daemon and srv->port. */
Status http_start(Server *srv, ErrBuf *err);
/* Stops listening, answers the requests in hand and closes every connection. */
void http_stop(Server *srv);

#endif
