/*
 * server.h - starting and stopping the whole server: the domain's parts (the store,
 * sessions, rate limits, AI workers, the housekeeping thread), the lab, and the HTTP
 * side on top, in an order that lets every thread finish. The Server object itself is
 * described in context.h.
 */
#ifndef CROWN_WEB_SERVER_H
#define CROWN_WEB_SERVER_H

#include "core/status.h"
#include "web/context.h"

/* Everything but the HTTP daemon: the store, sessions, rate limits and AI workers, ready
 * for api_handle. The web fuzz target drives the API through this without a socket;
 * server_stop releases it too. */
Status server_open(Server *srv, const ServeConfig *cfg, ErrBuf *err);
/* server_open, then the HTTP daemon. */
Status server_start(Server *srv, const ServeConfig *cfg, ErrBuf *err);
/* Stops everything started, in an order that lets every thread finish. */
void server_stop(Server *srv);

#endif
