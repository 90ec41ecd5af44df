/*
 * config.h - the settings of `crown serve` (ServeConfig) with their defaults, and the
 * fixed bounds on what a request may carry: plain values every layer of the server may
 * read, so that none has to reach up to the object that holds them.
 */
#ifndef CROWN_WEB_CONFIG_H
#define CROWN_WEB_CONFIG_H

#include <stdbool.h>

/* Who gets the limits of a player at home (--limits, homelimits.h). */
typedef enum LimitsMode {
    LIMITS_AUTO,   /* loopback clients */
    LIMITS_HOME,   /* every client: a server at home, as ./play starts it */
    LIMITS_PUBLIC, /* none */
} LimitsMode;

typedef struct ServeConfig {
    const char *bind;    /* address to listen on: IPv4 or IPv6 text */
    int port;            /* 0: any free port (the address line says which) */
    const char *db_path; /* SQLite file */
    int ai_threads;      /* AI worker threads */
    double write_rate;   /* writes (POST) a second per client address, sustained */
    double write_burst;  /* ... and in a burst */
    int max_connections; /* open connections in all */
    int max_per_ip;      /* open connections from one address */
    /* The request head's deadline, counted from the connection's accept (and a
     * request body's: this plus its bytes at SERVER_MIN_BODY_RATE), and the connections
     * one address (and each IPv6 /64) may have waiting for a head. */
    int head_timeout_s;
    int heads_per_ip;
    /* Limits that hold under abuse (docs/API.md, "Limits"); per client address unless
     * said. 0 in the *_s retention fields: never. */
    int creates_per_hour;  /* games created */
    int ai_games;          /* unfinished games with a human and an AI seat, at once */
    int aiai_games;        /* unfinished games of AI seats only, at once */
    /* The same three for a player at home (homelimits.h); an option given for the
     * public limit sets its twin here too, so that it binds every client. */
    LimitsMode limits;
    int home_creates_per_hour;
    int home_ai_games;
    int home_aiai_games;
    int ai_max_plies;      /* actions in a game beyond which its AI no longer plays */
    int ai_seconds;        /* AI think time per game (since it was loaded) */
    int ai_queue;          /* hints queued for the AI workers */
    int hint_timeout_s;    /* a hint not started by then is refused with 503 */
    int streams_per_ip;    /* open event streams */
    int streams_per_game;  /* open event streams of one game, from anywhere */
    int keep_alive_s;      /* a stream sent nothing for this long gets a keep-alive */
    /* A process sharing the store that has not beaten for this long is taken for dead:
     * its streams and hints no longer count (store_live_beat). */
    int dead_after_s;
    int idle_s;            /* a game nobody touched for this long leaves memory */
    int day_s;             /* a day of a days-per-move clock and of mail links (mail.h):
                            * 86400 but in tests */
    int login_tries;       /* failed sign-ins of an account before it waits (an
                            * address has four times as many; loginlimit.h) */
    bool password_low;     /* --password-cost low: the cheapest argon2id, for tests */
    long abandon_s;        /* an unfinished game unchanged for this long is deleted */
    long finished_s;       /* a finished game unchanged for this long is deleted */
    /* Web security: the names the site is reached under besides the server's own
     * address (--public-url; --allow-origin, comma-separated); NULL for none. */
    const char *public_url;
    const char *allow_origins;
    /* Reverse proxies whose X-Forwarded-For names the client (--trusted-proxy,
     * comma-separated addresses and CIDR blocks; realip.h); NULL for none. */
    const char *trusted_proxies;
    /* The machine's address other machines reach when bind is every address (the
     * invite links' host, GET /api/info), or NULL. */
    const char *share_host;
    const char *tablebase; /* a solved table for ai:10 and hints; NULL: the default places */
    const char *lab_dir;   /* --lab: studies from the browser kept here; NULL: the lab is off */
    /* Mail (mailer.h): the SMTP server's URL (smtp:// or smtps://; NULL: mail is off),
     * the sender's address, and a file holding "USER:PASSWORD" for the server, or NULL. */
    const char *smtp_url;
    const char *smtp_from;
    const char *smtp_credentials;
    bool quiet;            /* --quiet: no summaries of the library's routine lines */
    int lab_max_games;     /* games of one such study, every rule set; of one address's */
    int lab_keep;          /* study folders kept in lab_dir */
    int lab_starts;        /* studies one address may start an hour */
} ServeConfig;

/* Bounds on what a request may carry. */
enum {
    SERVER_MAX_BODY = 16 * 1024,        /* bytes of a request body */
    SERVER_MAX_IMPORT_BODY = 256 * 1024, /* ... of POST /api/import's, a game record */
    SERVER_CONN_MEMORY = 32 * 1024,     /* the library's memory per connection */
    SERVER_MAX_URL = 8 * 1024,          /* bytes of a URL (path and query) */
    SERVER_MAX_HEADERS = 16 * 1024,     /* bytes of a request's headers in all */
    SERVER_CONN_TIMEOUT_S = 120,        /* idle seconds before a connection is closed */
    SERVER_MIN_BODY_RATE = 1024,        /* bytes a second a request body must come at */
    SERVER_HTTP_THREADS = 2,            /* libmicrohttpd's event-loop threads */
    SERVER_WORKERS = 16,                /* threads for requests that may block */
};

/* The lab's defaults (--lab-max-games, --lab-keep, --lab-starts-per-hour). */
enum {
    LAB_DEFAULT_MAX_GAMES = 2000, /* games of one study, every set; and of one address's */
    LAB_DEFAULT_KEEP = 200,       /* study folders kept in DIR */
    LAB_DEFAULT_STARTS = 10,      /* studies one address may start an hour */
};

/* The defaults of `crown serve` (docs/API.md); ai_threads 0 and db_path NULL, for the
 * caller to choose. */
void serve_config_defaults(ServeConfig *cfg);

#endif
