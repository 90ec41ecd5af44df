/*
 * store_pg_watch.c - the listener thread of a PostgreSQL store (see store_pg.c): on its
 * own connection, it passes the notices of channel crown_games ("ID VERSION" for every
 * commit, "ID think" for every AI claim, "ID tour VERSION" for a tournament's change, sent
 * by pg_tour_notify) on to the server, renews this process's leases
 * on AI moves and takes over the orphaned ones, once a tick. A lost connection is
 * replaced, and the server told that it may have missed changes.
 */
#include "web/store_pg_internal.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    PG_TICK_MS = 1000,  /* lease renewal and orphan sweep */
    PG_SWEEP_MAX = 16,  /* orphaned AI moves taken over per tick */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Renews this process's claims, then takes over those whose holders stopped renewing. */
static void tick(PgStore *st, PGconn *c)
{
    ErrBuf err;
    const char *p[] = {st->owner};
    pg_run_cmd(c, "UPDATE ai_work SET lease_until=now() + " PG_LEASE " WHERE owner=$1", 1, p,
               &err);
    PGresult *r = NULL;
    if (pg_run(c, "UPDATE ai_work SET owner=$1, lease_until=now() + " PG_LEASE
                  " WHERE game_id IN (SELECT game_id FROM ai_work WHERE lease_until < now()"
                  " ORDER BY lease_until LIMIT 16 FOR UPDATE SKIP LOCKED) RETURNING game_id",
               1, p, PGRES_TUPLES_OK, &r, &err) != STATUS_OK)
        return;
    for (int i = 0; i < PQntuples(r); i++)
        st->watch.orphaned(st->watch.ctx, PQgetvalue(r, i, 0));
    PQclear(r);
}

/* Hands every notice libpq has read to the server. */
static void drain(PgStore *st, PGconn *c)
{
    PGnotify *n;
    while ((n = PQnotifies(c)) != NULL) {
        char id[SECRET_ID_LEN + 1];
        unsigned long long version;
        char what[8];
        if (sscanf(n->extra, "%24s %llu", id, &version) == 2)
            st->watch.changed(st->watch.ctx, id, (uint64_t)version);
        else if (sscanf(n->extra, "%24s %7s", id, what) == 2 && strcmp(what, "think") == 0)
            st->watch.thinking(st->watch.ctx, id);
        else if (sscanf(n->extra, "%24s %7s %llu", id, what, &version) == 3 &&
                 strcmp(what, "tour") == 0)
            st->watch.tournament(st->watch.ctx, id, (uint64_t)version);
        PQfreemem(n);
    }
}

Status pg_tour_notify(Store *base, const char *id, uint64_t version, ErrBuf *err)
{
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)version);
    const char *p[] = {id, v};
    return pg_call(pg(base), "SELECT pg_notify('crown_games', $1::text || ' tour ' || $2::text)",
                   2, p, PGRES_TUPLES_OK, NULL, err);
}

static void *listen_main(void *arg)
{
    PgStore *st = arg;
    PGconn *c = NULL;
    int64_t next_tick = 0;
    bool missed = false; /* a connection was lost and not yet replaced */
    for (;;) {
        if (c == NULL || PQstatus(c) != CONNECTION_OK) {
            const bool lost = c != NULL;
            PQfinish(c);
            c = NULL;
            ErrBuf err;
            if (pg_connect(st->url, &c, &err) == STATUS_OK &&
                pg_run_cmd(c, "LISTEN crown_games", 0, NULL, &err) != STATUS_OK) {
                PQfinish(c);
                c = NULL;
            }
            // Listening again: whatever was notified meanwhile is lost, so check all.
            if (c != NULL && (lost || missed))
                st->watch.missed(st->watch.ctx);
            missed = c == NULL;
        }
        const int64_t now = now_ms();
        if (c != NULL && now >= next_tick) {
            tick(st, c);
            next_tick = now + PG_TICK_MS;
        }
        if (c != NULL)
            drain(st, c); // notices that came in during the tick's queries
        struct pollfd fds[2] = {{.fd = st->stop_pipe[0], .events = POLLIN},
                                {.fd = c ? PQsocket(c) : -1, .events = POLLIN}};
        const int64_t wait = c ? next_tick - now_ms() : PG_TICK_MS; // retry a lost server
        poll(fds, 2, wait < 0 ? 0 : (int)wait);
        if (fds[0].revents != 0)
            break;
        // A broken connection fails here and is replaced at the top of the loop.
        if (c != NULL && (fds[1].revents & POLLIN) && PQconsumeInput(c))
            drain(st, c);
    }
    PQfinish(c);
    return NULL;
}

Status pg_watch(Store *base, const StoreWatch *w, ErrBuf *err)
{
    PgStore *st = pg(base);
    if (st->watching)
        return STATUS_OK;
    st->watch = *w;
    if (pipe(st->stop_pipe) != 0)
        return err_set(err, STATUS_IO, "cannot start the database listener: no pipe");
    if (pthread_create(&st->thread, NULL, listen_main, st) != 0) {
        close(st->stop_pipe[0]);
        close(st->stop_pipe[1]);
        return err_set(err, STATUS_IO, "cannot start the database listener thread");
    }
    st->watching = true;
    return STATUS_OK;
}

void pg_unwatch(Store *base)
{
    PgStore *st = pg(base);
    if (!st->watching)
        return;
    const char x = 'x';
    const ssize_t w = write(st->stop_pipe[1], &x, 1); // a pipe of one byte cannot be full
    (void)w;
    pthread_join(st->thread, NULL);
    close(st->stop_pipe[0]);
    close(st->stop_pipe[1]);
    st->watching = false;
}

