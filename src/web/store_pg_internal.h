/*
 * store_pg_internal.h - what the files of the PostgreSQL backend share: the store's
 * struct, the statement runners and the one way a call uses a connection of the pool
 * (PgTx, pg_call). store_pg.c holds the pool and the games, store_pg_live.c the counts
 * across processes, store_pg_watch.c the listener thread; only they include this.
 */
#ifndef CROWN_WEB_STORE_PG_INTERNAL_H
#define CROWN_WEB_STORE_PG_INTERNAL_H

#include <libpq-fe.h>
#include <pthread.h>
#include <stdatomic.h>

#include "web/store_backend.h"

enum {
    PG_POOL = 4, /* connections for requests */
};
/* How long a claim on an AI move holds without renewal: a few ticks, so a busy listener
 * does not lose its claims, yet a dead process's moves resume within seconds. */
#define PG_LEASE "interval '5 seconds'"

typedef struct PgStore {
    Store base; /* first: a Store * is a PgStore * */
    char *url;
    char owner[17]; /* this process's name on its claims and holds: random hex */
    atomic_llong last_hold; /* the last hold number this process gave out */
    pthread_mutex_t mu;
    pthread_cond_t freed;
    PGconn *conn[PG_POOL];
    bool busy[PG_POOL];

    /* the listener */
    StoreWatch watch;
    bool watching;
    int stop_pipe[2];
    pthread_t thread;
} PgStore;

static inline PgStore *pg(Store *st)
{
    return (PgStore *)st;
}

/* Runs sql with text parameters; STATUS_OK when the result is `want`. *res (when not
 * NULL) keeps the result for the caller to read and PQclear. */
Status pg_run(PGconn *c, const char *sql, int n, const char *const *params,
              ExecStatusType want, PGresult **res, ErrBuf *err);
Status pg_run_cmd(PGconn *c, const char *sql, int n, const char *const *params, ErrBuf *err);

/* A new connection to url, NOTICEs quieted. */
Status pg_connect(const char *url, PGconn **out, ErrBuf *err);

/* How a call's transaction begins and ends. */
typedef enum PgTxKind {
    PG_TX_WRITE,    /* BEGIN; the COMMIT waits for the disk */
    PG_TX_LAZY,     /* BEGIN for what a crash of the database may lose: the COMMIT does not
                     * wait for the disk, often most of a short transaction's time */
    PG_TX_SNAPSHOT, /* one snapshot for several reads (REPEATABLE READ READ ONLY): nothing
                     * to make durable, so how its end went is not asked */
} PgTxKind;

/* A transaction on a connection of the pool, from pg_begin to pg_end. */
typedef struct PgTx {
    PgStore *st;
    int slot; /* the pool's connection; -1: none was free to take */
    PGconn *c; /* for the statements: a new one when BEGIN found the old one dead */
    PgTxKind kind;
} PgTx;

/* Takes a connection of the pool and begins a transaction of `kind` on it. Whatever it
 * returns, pg_end(tx, s) follows; the statements between run only while s is OK. */
Status pg_begin(PgStore *st, PgTxKind kind, PgTx *tx, ErrBuf *err);

/* Ends the transaction (COMMIT when s is OK, and a COMMIT that did not commit is an
 * error; else ROLLBACK), gives the connection back and returns the call's status. */
Status pg_end(PgTx *tx, Status s, ErrBuf *err);

/* One statement that commits on its own, on a connection of the pool; *res as pg_run. */
Status pg_call(PgStore *st, const char *sql, int n, const char *const *params,
               ExecStatusType want, PGresult **res, ErrBuf *err);

/* The operations of store_pg_live.c and store_pg_watch.c (see store_backend.h). */
Status pg_count_create(Store *base, const char *addr, int per_hour, bool *ok, int *retry_s,
                       ErrBuf *err);
Status pg_hold_take(Store *base, const char *addr, const char *id, int kind, int limit,
                    int idle_s, bool *ok, ErrBuf *err);
Status pg_hold_give(Store *base, const char *id, ErrBuf *err);
Status pg_live_take(Store *base, const char *addr, const char *game, int kind, int addr_limit,
                    int game_limit, int dead_s, int64_t *hold, StoreRefusal *refused,
                    ErrBuf *err);
Status pg_live_give(Store *base, int64_t hold, ErrBuf *err);
Status pg_live_beat(Store *base, int dead_s, ErrBuf *err);
Status pg_tour_notify(Store *base, const char *id, uint64_t version, ErrBuf *err);
Status pg_watch(Store *base, const StoreWatch *w, ErrBuf *err);
void pg_unwatch(Store *base);

/* The schema's steps, PG_MIGRATIONS[v - 1] bringing version v - 1 to v
 * (store_pg_schema.c); there are STORE_SCHEMA_VERSION of them. */
extern const char *const PG_MIGRATIONS[];

#endif
