/*
 * context.h - the web server as one object: its settings and the parts it is made of.
 * There is no global state; every layer reaches the server through the Server pointer.
 *
 * This header sits low, under the sessions, the AI queue and the handlers, so that they
 * can all see the server without a circle of includes. It names the parts only as
 * opaque pointers; the parts of the layers above it (the transport's daemon, gate,
 * workers and event hub; the lab) are created, used and freed only up there
 * (server.c, http.c, gate.c, sse.c, routes.c).
 */
#ifndef CROWN_WEB_CONTEXT_H
#define CROWN_WEB_CONTEXT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "web/config.h"

struct MHD_Daemon;
typedef struct AiPool AiPool;
typedef struct Credentials Credentials;
typedef struct Gate Gate;
typedef struct HttpWorkers HttpWorkers;
typedef struct Janitor Janitor;
typedef struct LabServer LabServer;
typedef struct LanguagePages LanguagePages;
typedef struct Messages Messages;
typedef struct LoginLimit LoginLimit;
typedef struct Mailer Mailer;
typedef struct Perfect Perfect;
typedef struct Quota Quota;
typedef struct RateLimiter RateLimiter;
typedef struct Server Server;
typedef struct SessionTable SessionTable;
typedef struct SseHub SseHub;
typedef struct TourLive TourLive;
typedef struct Store Store;
typedef struct TrustedProxies TrustedProxies;
typedef struct WebLog WebLog;

struct Server {
    ServeConfig cfg;
    Store *store;
    SessionTable *sessions;
    AiPool *ai;
    RateLimiter *rate;
    RateLimiter *creates; /* games created per address per hour */
    RateLimiter *creates_home; /* ... by a player at home (homelimits.h) */
    RateLimiter *tournament_creates; /* tournaments created per address per hour */
    RateLimiter *reads;   /* expensive reads (pages of positions) per address */
    WebLog *log;          /* the library's lines, counted and rate-limited (weblog.h) */
    Quota *quota;
    Credentials *cred;    /* password hashing and sign-in session ids (credential.h) */
    LoginLimit *logins;   /* failed sign-ins per account (loginlimit.h) */
    LoginLimit *address_logins; /* ... per client address */
    TrustedProxies *proxies; /* --trusted-proxy; NULL: every client is its TCP peer */
    Janitor *janitor;
    Mailer *mailer;       /* the mail queue's sender (mailer.h), or NULL without --smtp */
    struct MHD_Daemon *daemon;
    SseHub *sse;         /* the event streams' keep-alives and hang-ups */
    atomic_long open_streams; /* event streams open now: counted by sse.c */
    TourLive *tour_live; /* tournaments' event streams (tour_live.h) */
    Gate *gate;          /* the listening socket and the first heads' check */
    HttpWorkers *http_workers; /* the threads for requests that may block */
    atomic_bool stopping;
    int port;            /* the port actually bound */
    Perfect *perfect;    /* the solved tables found at start (play/perfect.h) */
    LabServer *lab;      /* the Lab page's studies (web/lab_api.h), or NULL when off */
    char *games_json;    /* GET /api/games: fixed for the life of the server */
    size_t games_json_len;
    Messages *messages;   /* the message catalogues (messages.h), loaded at start */
    LanguagePages *pages; /* the app's page in each language (language.h), built at start */
};

#endif
