/*
 * serve.c - `crown serve`: reads the options, finds (and creates) the database's
 * folder, starts the server, prints the address to open and runs until SIGINT or
 * SIGTERM. Signals are taken synchronously with sigwait in this thread, blocked in all
 * the others, so no handler runs in the middle of a request.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "play/perfect.h"
#include "web/mail.h"
#include "web/netaddr.h"
#include "web/serve.h"
#include "web/server.h"
#include "web/store.h"

enum { PATH_CAP = 4096 };

/* One "crown: ..." line on stderr, the form of every command's errors (cli_error); the
 * web server has its own, since src/web does not include src/cli. Returns 1. */
static int serve_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int serve_error(const char *fmt, ...)
{
    char line[ERRBUF_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "crown: %s\n", line);
    return 1;
}

/* Makes every missing folder of `dir` (mkdir -p). */
static bool make_dirs(char *dir)
{
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        const bool ok = mkdir(dir, 0700) == 0 || errno == EEXIST;
        *p = '/';
        if (!ok)
            return false;
    }
    return mkdir(dir, 0700) == 0 || errno == EEXIST;
}

/* $XDG_DATA_HOME/crown/crown.db, else ~/.local/share/crown/crown.db; the folder is made. */
static bool default_db(char *out, size_t cap)
{
    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char dir[PATH_CAP];
    if (xdg && xdg[0] == '/')
        snprintf(dir, sizeof dir, "%s/crown", xdg);
    else if (home && home[0])
        snprintf(dir, sizeof dir, "%s/.local/share/crown", home);
    else
        return serve_error("no data folder: set HOME or XDG_DATA_HOME, or give --db FILE"), false;
    if (!make_dirs(dir))
        return serve_error("cannot create %s: %s", dir, strerror(errno)), false;
    const int n = snprintf(out, cap, "%s/crown.db", dir);
    if (n < 0 || (size_t)n >= cap)
        return serve_error("the data folder's name is too long: give --db FILE"), false;
    return true;
}

static bool read_long(const char *flag, const char *text, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    const long v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < lo || v > hi)
        return serve_error("%s wants a whole number from %ld to %ld, not '%s'", flag, lo, hi, text),
               false;
    *out = v;
    return true;
}

int cmd_serve(int argc, char **argv)
{
    ServeConfig cfg;
    serve_config_defaults(&cfg);
    // The whole-number options: flag, bounds, where it goes.
    struct {
        const char *flag;
        long lo, hi;
        int *i;
        long *l;
    } const NUMBERS[] = {
        {"--port", 0, 65535, &cfg.port, NULL},
        {"--lab-max-games", 1, 1000000, &cfg.lab_max_games, NULL},
        {"--lab-keep", 1, 1000000, &cfg.lab_keep, NULL},
        {"--lab-starts-per-hour", 1, 1000000, &cfg.lab_starts, NULL},
        {"--ai-threads", 1, 64, &cfg.ai_threads, NULL},
        {"--creates-per-hour", 1, 1000000, &cfg.creates_per_hour, NULL},
        {"--ai-games", 0, 100000, &cfg.ai_games, NULL},
        {"--aiai-games", 0, 100000, &cfg.aiai_games, NULL},
        {"--ai-max-plies", 1, 1000000, &cfg.ai_max_plies, NULL},
        {"--ai-seconds", 1, 1000000, &cfg.ai_seconds, NULL},
        {"--ai-queue", 1, 10000, &cfg.ai_queue, NULL},
        {"--hint-timeout", 1, 3600, &cfg.hint_timeout_s, NULL},
        {"--max-connections", 1, 1000000, &cfg.max_connections, NULL},
        {"--max-per-ip", 1, 1000000, &cfg.max_per_ip, NULL},
        {"--head-timeout", 1, 3600, &cfg.head_timeout_s, NULL},
        {"--heads-per-ip", 1, 100000, &cfg.heads_per_ip, NULL},
        {"--streams-per-ip", 1, 100000, &cfg.streams_per_ip, NULL},
        {"--streams-per-game", 1, 100000, &cfg.streams_per_game, NULL},
        {"--keep-alive", 1, 3600, &cfg.keep_alive_s, NULL},
        {"--dead-after", 2, 3600, &cfg.dead_after_s, NULL},
        {"--idle", 1, 1000000, &cfg.idle_s, NULL},
        {"--day-seconds", 1, 86400, &cfg.day_s, NULL},
        {"--login-tries", 1, 1000, &cfg.login_tries, NULL},
        {"--abandon-after", 0, 100L * 365 * 86400, NULL, &cfg.abandon_s},
        {"--delete-finished-after", 0, 100L * 365 * 86400, NULL, &cfg.finished_s},
    };
    // The limits with a twin for a player at home: giving one's option sets both.
    struct {
        int *public, *home;
    } const TWINS[] = {
        {&cfg.creates_per_hour, &cfg.home_creates_per_hour},
        {&cfg.ai_games, &cfg.home_ai_games},
        {&cfg.aiai_games, &cfg.home_aiai_games},
    };
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        if (strcmp(a, "--quiet") == 0) {
            cfg.quiet = true;
            continue;
        }
        if (v == NULL)
            return serve_error("%s needs a value (crown serve --help)", a), 2;
        size_t k = 0;
        while (k < sizeof NUMBERS / sizeof NUMBERS[0] && strcmp(a, NUMBERS[k].flag) != 0)
            k++;
        if (k < sizeof NUMBERS / sizeof NUMBERS[0]) {
            if (!read_long(a, v, NUMBERS[k].lo, NUMBERS[k].hi, &n))
                return 2;
            if (NUMBERS[k].i) {
                *NUMBERS[k].i = (int)n;
                for (size_t t = 0; t < sizeof TWINS / sizeof TWINS[0]; t++)
                    if (TWINS[t].public == NUMBERS[k].i)
                        *TWINS[t].home = (int)n;
            } else {
                *NUMBERS[k].l = n;
            }
        } else if (strcmp(a, "--bind") == 0 || strcmp(a, "--listen") == 0) {
            cfg.bind = v;
        } else if (strcmp(a, "--limits") == 0) {
            if (strcmp(v, "auto") == 0)
                cfg.limits = LIMITS_AUTO;
            else if (strcmp(v, "home") == 0)
                cfg.limits = LIMITS_HOME;
            else if (strcmp(v, "public") == 0)
                cfg.limits = LIMITS_PUBLIC;
            else
                return serve_error("--limits wants auto, home or public, not '%s'", v), 2;
        } else if (strcmp(a, "--password-cost") == 0) {
            if (strcmp(v, "low") != 0 && strcmp(v, "normal") != 0)
                return serve_error("--password-cost wants normal or low (tests only), not "
                                   "'%s'", v), 2;
            cfg.password_low = strcmp(v, "low") == 0;
        } else if (strcmp(a, "--db") == 0) {
            cfg.db_path = v;
        } else if (strcmp(a, "--public-url") == 0) {
            if (strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0)
                return serve_error("--public-url wants the URL players open, such as "
                                   "https://crown.example.org, not '%s'", v), 2;
            cfg.public_url = v;
        } else if (strcmp(a, "--smtp") == 0) {
            if (strncmp(v, "smtp://", 7) != 0 && strncmp(v, "smtps://", 8) != 0)
                return serve_error("--smtp wants smtp://HOST:PORT or smtps://HOST:PORT, not "
                                   "'%s'", v), 2;
            cfg.smtp_url = v;
        } else if (strcmp(a, "--smtp-from") == 0) {
            if (mail_address_refusal(v) != NULL)
                return serve_error("--smtp-from: %s", mail_address_refusal(v)), 2;
            cfg.smtp_from = v;
        } else if (strcmp(a, "--smtp-credentials") == 0) {
            cfg.smtp_credentials = v;
        } else if (strcmp(a, "--allow-origin") == 0) {
            cfg.allow_origins = v;
        } else if (strcmp(a, "--trusted-proxy") == 0) {
            cfg.trusted_proxies = v;
        } else if (strcmp(a, "--tablebase") == 0) {
            cfg.tablebase = v;
        } else if (strcmp(a, "--lab") == 0) {
            cfg.lab_dir = v;
        } else if (strcmp(a, "--rate") == 0) {
            if (!read_long(a, v, 1, 100000, &n))
                return 2;
            cfg.write_rate = (double)n;
            cfg.write_burst = (double)(n * 6);
        } else {
            return serve_error("unknown option '%s' (crown serve --help)", a), 2;
        }
        i++;
    }
    if ((cfg.smtp_url == NULL) != (cfg.smtp_from == NULL) ||
        (cfg.smtp_credentials != NULL && cfg.smtp_url == NULL))
        return serve_error("mail needs both --smtp URL and --smtp-from ADDRESS "
                           "(--smtp-credentials FILE only with them)"), 2;
    char db[PATH_CAP];
    if (cfg.db_path == NULL) {
        if (!default_db(db, sizeof db))
            return 1;
        cfg.db_path = db;
    }
    // Every open connection is a file descriptor: take all the system allows, and keep
    // the connections a few hundred short of it for the database, the files, the pipes.
    struct rlimit fds;
    if (getrlimit(RLIMIT_NOFILE, &fds) == 0) {
        if (fds.rlim_cur < fds.rlim_max) {
            fds.rlim_cur = fds.rlim_max;
            setrlimit(RLIMIT_NOFILE, &fds);
            getrlimit(RLIMIT_NOFILE, &fds);
        }
        if (fds.rlim_cur != RLIM_INFINITY && fds.rlim_cur < (rlim_t)cfg.max_connections + 256) {
            const long room = (long)fds.rlim_cur - 256;
            cfg.max_connections = room < 16 ? 16 : (int)room;
        }
    }
    if (cfg.ai_threads == 0) {
        const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        cfg.ai_threads = cpus < 1 ? 1 : cpus > 8 ? 8 : (int)cpus;
    }

    // Block the stop signals before any thread starts, so that every thread inherits the
    // mask and only sigwait below sees them. A peer closing early must not kill us either.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    const bool v6 = strchr(cfg.bind, ':') != NULL;
    const bool any = strcmp(cfg.bind, "0.0.0.0") == 0 || strcmp(cfg.bind, "::") == 0;
    // On every address, invite links name one that other machines reach.
    char share[64];
    if (any && netaddr_reachable(v6, share, sizeof share))
        cfg.share_host = share;
    Server srv;
    ErrBuf err;
    if (server_start(&srv, &cfg, &err) != STATUS_OK)
        return serve_error("%s", err.msg), 1;
    printf("crown serve: open http://%s%s%s:%d/ in a browser%s\n", v6 ? "[" : "",
           any ? (v6 ? "::1" : "127.0.0.1") : cfg.bind, v6 ? "]" : "", srv.port,
           any ? " (listening on every address of this machine)" : "");
    if (cfg.quiet) {
    } else if (cfg.public_url != NULL)
        printf("crown serve: players open %s\n", cfg.public_url);
    else if (cfg.share_host != NULL)
        printf("crown serve: other machines open http://%s%s%s:%d/\n", v6 ? "[" : "",
               cfg.share_host, v6 ? "]" : "", srv.port);
    if (!cfg.quiet) {
        // A URL's user and password stay off the screen: scheme, then what follows '@'.
        const char *scheme_end = strstr(cfg.db_path, "://");
        const char *at = scheme_end ? strrchr(scheme_end, '@') : NULL;
        printf("crown serve: %ld games in %.*s%s; %d AI threads; Ctrl-C stops\n",
               store_count_games(srv.store), at ? (int)(scheme_end + 3 - cfg.db_path) : 0,
               cfg.db_path, at ? at + 1 : cfg.db_path, cfg.ai_threads);
        StrBuf tables;
        sb_init(&tables);
        perfect_describe(srv.perfect, &tables);
        // One line per table, each under the program's name like the lines above.
        for (const char *line = sb_str(&tables); *line;) {
            const char *end = strchr(line, '\n');
            const int n = end ? (int)(end - line) : (int)strlen(line);
            printf("crown serve: %.*s\n", n, line);
            line += n + (end != NULL);
        }
        sb_free(&tables);
    }
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    if (!cfg.quiet)
        printf("crown serve: stopping\n");
    fflush(stdout);
    server_stop(&srv);
    return 0;
}
