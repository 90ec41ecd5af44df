/*
 * server.h - the web server as one object: its settings and the parts it is made of
 * (store, sessions, AI workers, rate limiter, HTTP daemon). There is no global state;
 * every handler reaches the server through the Server pointer libmicrohttpd hands back.
 */
#ifndef CROWN_WEB_SERVER_H
#define CROWN_WEB_SERVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "play/perfect.h"
#include "web/ai.h"
#include "web/ratelimit.h"
#include "web/session.h"
#include "web/store.h"

typedef struct ServeConfig {
    const char *bind;    /* address to listen on: IPv4 or IPv6 text */
    int port;            /* 0: any free port (the address line says which) */
    const char *db_path; /* SQLite file */
    int ai_threads;      /* AI worker threads */
    double write_rate;   /* writes (POST) a second per client address, sustained */
    double write_burst;  /* ... and in a burst */
    int max_connections; /* open connections in all */
    int max_per_ip;      /* open connections from one address */
    const char *tablebase; /* a solved table for ai:10 and hints; NULL: the default places */
} ServeConfig;

/* Bounds on what a request may carry. */
enum {
    SERVER_MAX_BODY = 16 * 1024,        /* bytes of a request body */
    SERVER_CONN_MEMORY = 64 * 1024,     /* request line + headers per connection */
    SERVER_CONN_TIMEOUT_S = 120,        /* idle seconds before a connection is closed */
    SERVER_SSE_PING_S = 15,             /* keep-alive comment on an idle event stream */
};

struct Server {
    ServeConfig cfg;
    Store *store;
    SessionTable *sessions;
    AiPool *ai;
    RateLimiter *rate;
    struct MHD_Daemon *daemon;
    atomic_bool stopping;
    int port;            /* the port actually bound */
    Perfect *perfect;    /* the solved tables found at start (play/perfect.h) */
    char *games_json;    /* GET /api/games: fixed for the life of the server */
    size_t games_json_len;
};

/* Everything but the HTTP daemon: the store, sessions, rate limits and AI workers, ready
 * for api_handle. The web fuzz target drives the API through this without a socket;
 * server_stop releases it too. */
Status server_open(Server *srv, const ServeConfig *cfg, ErrBuf *err);
/* server_open, then the HTTP daemon. */
Status server_start(Server *srv, const ServeConfig *cfg, ErrBuf *err);
/* Stops everything started, in an order that lets every thread finish. */
void server_stop(Server *srv);

#endif
