/*
 * store_pg.c - the PostgreSQL backend of the store (see store.h): the games of several
 * `crown serve` processes in one database, through libpq.
 *
 * Tables as in SQLite (games, seats, moves; games.updated and games.finished for the
 * retention) plus ai_work: one row per game whose AI seat is to move, naming the process that plays it (owner) and until when its claim
 * holds (lease_until). The write that leaves an AI to move inserts the row for its own
 * process in the same transaction; every process renews its leases each second, so
 * the rows of a killed process run out and another takes them over (FOR UPDATE SKIP
 * LOCKED, so two sweepers never take the same row). A stale writer is refused by the
 * version check that opens every write, so a move is committed once whoever thinks it.
 *
 * The per-address limits that must hold across processes (games created an hour, games
 * with an AI at once) are counted in address_creates and address_holds, each check a
 * transaction under an advisory lock on the address, so two processes never both let
 * the last one through. What lives only as long as its process (event streams, hints
 * waiting) is counted in live_holds, keyed by the process, and counts while the process
 * beats in processes: a killed process's holds stop counting once its beat is old.
 *
 * Every commit notifies channel crown_games with "ID VERSION", every AI claim with
 * "ID think"; a listener thread per
 * process (its own connection) passes those on to the server, renews the leases and
 * sweeps orphaned AI work. Requests use a small pool of connections, one per call.
 */
#include "web/store_backend.h"

#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    PG_POOL = 4,        /* connections for requests */
    PG_TICK_MS = 1000,  /* lease renewal and orphan sweep */
    PG_SWEEP_MAX = 16,  /* orphaned AI moves taken over per tick */
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

/* The schema, one step per version (the same versions as SQLite's; ai_work only here,
 * where several processes share the games). */
static const char *const MIGRATIONS[] = {
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,"
    " rules TEXT NOT NULL, start TEXT NOT NULL, seed BIGINT NOT NULL,"
    " created BIGINT NOT NULL, version BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS seats("
    " game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,"
    " player TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY(game_id, seat));"
    "CREATE TABLE IF NOT EXISTS moves("
    " game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " text TEXT NOT NULL, PRIMARY KEY(game_id, ply));",
    "ALTER TABLE games ADD COLUMN updated BIGINT NOT NULL DEFAULT 0;"
    "UPDATE games SET updated=created;"
    "CREATE TABLE ai_work("
    " game_id TEXT PRIMARY KEY REFERENCES games(id), version BIGINT NOT NULL,"
    " owner TEXT NOT NULL, lease_until TIMESTAMPTZ NOT NULL);"
    "CREATE INDEX ai_work_lease ON ai_work(lease_until);"
    "CREATE INDEX ai_work_owner ON ai_work(owner);",
    // 3: whether a game is known to be over (the retention's sweeps), indexed for them.
    ("ALTER TABLE games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX games_stale ON games(finished, updated);"),
    // 4: what a game is beyond its moves, as one JSON object (web/meta.h).
    "ALTER TABLE games ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';",
    // 5: per-address limits across processes: games created (the last hour's), and the
    // holds of games with an AI (see pg_hold_take).
    ("CREATE TABLE address_creates(addr TEXT NOT NULL, at BIGINT NOT NULL);"
     "CREATE INDEX address_creates_addr ON address_creates(addr, at);"
     "CREATE TABLE address_holds(game_id TEXT PRIMARY KEY, addr TEXT NOT NULL,"
     " kind INTEGER NOT NULL, at BIGINT NOT NULL);"
     "CREATE INDEX address_holds_addr ON address_holds(addr, kind);"),
    // 6: when a running clock runs out (ms since 1970, 0: none), for the flags of games
    // no process holds (pg_claim_flags).
    ("ALTER TABLE games ADD COLUMN flag_at BIGINT NOT NULL DEFAULT 0;"
     "CREATE INDEX games_flag ON games(flag_at) WHERE flag_at>0;"),
    // 7: the processes sharing the database and their last beat, and the holds that live
    // with a process (open event streams, hints waiting; see pg_live_take).
    ("CREATE TABLE processes(owner TEXT PRIMARY KEY, beat TIMESTAMPTZ NOT NULL);"
     "CREATE TABLE live_holds(owner TEXT NOT NULL, id BIGINT NOT NULL, addr TEXT NOT NULL,"
     " game_id TEXT, kind INTEGER NOT NULL, PRIMARY KEY(owner, id));"
     "CREATE INDEX live_holds_addr ON live_holds(addr, kind);"
     "CREATE INDEX live_holds_game ON live_holds(game_id, kind) WHERE game_id IS NOT NULL;"),
};
_Static_assert(sizeof MIGRATIONS / sizeof MIGRATIONS[0] == STORE_SCHEMA_VERSION,
               "one migration per schema version");

static PgStore *pg(Store *st)
{
    return (PgStore *)st;
}

/* libpq's messages end with a newline: trimmed for ours. */
static Status pg_error(ErrBuf *err, const char *what, const char *msg)
{
    const size_t n = strcspn(msg, "\n");
    return err_set(err, STATUS_IO, "database: %s: %.*s", what, (int)n, msg);
}

/* Runs sql with text parameters; STATUS_OK when the result is `want`. *res (when not
 * NULL) keeps the result for the caller to read and PQclear. */
static Status run(PGconn *c, const char *sql, int n, const char *const *params,
                  ExecStatusType want, PGresult **res, ErrBuf *err)
{
    PGresult *r = PQexecParams(c, sql, n, NULL, params, NULL, NULL, 0);
    Status s = STATUS_OK;
    if (PQresultStatus(r) != want)
        s = pg_error(err, "query", r ? PQresultErrorMessage(r) : PQerrorMessage(c));
    if (res != NULL && s == STATUS_OK)
        *res = r;
    else
        PQclear(r);
    return s;
}

static Status run_cmd(PGconn *c, const char *sql, int n, const char *const *params, ErrBuf *err)
{
    return run(c, sql, n, params, PGRES_COMMAND_OK, NULL, err);
}

/* Ends the transaction: COMMIT when s is OK (a COMMIT that did not commit is an error,
 * since then nothing is durable), else ROLLBACK. */
static Status finish(PGconn *c, Status s, ErrBuf *err)
{
    if (s == STATUS_OK) {
        PGresult *r = PQexec(c, "COMMIT");
        if (PQresultStatus(r) != PGRES_COMMAND_OK || strcmp(PQcmdStatus(r), "COMMIT") != 0)
            s = pg_error(err, "commit", r ? PQresultErrorMessage(r) : PQerrorMessage(c));
        PQclear(r);
        if (s == STATUS_OK || PQtransactionStatus(c) == PQTRANS_IDLE)
            return s;
    }
    PQclear(PQexec(c, "ROLLBACK"));
    return s;
}

static Status connect_db(const char *url, PGconn **out, ErrBuf *err)
{
    PGconn *c = PQconnectdb(url);
    if (PQstatus(c) != CONNECTION_OK) {
        const Status s = pg_error(err, "cannot connect to PostgreSQL",
                                  c ? PQerrorMessage(c) : "out of memory");
        PQfinish(c);
        return s;
    }
    // Quiet NOTICEs (CREATE TABLE IF NOT EXISTS): libpq would print them on stderr.
    PQclear(PQexec(c, "SET client_min_messages=warning"));
    *out = c;
    return STATUS_OK;
}

/* Takes a free connection of the pool, reconnecting one the server dropped. */
static PGconn *acquire(PgStore *st, int *slot, ErrBuf *err)
{
    pthread_mutex_lock(&st->mu);
    int i;
    for (;;) {
        for (i = 0; i < PG_POOL && st->busy[i]; i++) {
        }
        if (i < PG_POOL)
            break;
        pthread_cond_wait(&st->freed, &st->mu);
    }
    st->busy[i] = true;
    pthread_mutex_unlock(&st->mu);
    // A server that closed the connection (restarted, say) has left its goodbye in the
    // socket: reading what is there, without waiting, tells a dead connection from a
    // live one before a request fails on it.
    if (st->conn[i] == NULL || !PQconsumeInput(st->conn[i]) ||
        PQstatus(st->conn[i]) != CONNECTION_OK) {
        PQfinish(st->conn[i]);
        st->conn[i] = NULL;
        if (connect_db(st->url, &st->conn[i], err) != STATUS_OK) {
            pthread_mutex_lock(&st->mu);
            st->busy[i] = false;
            pthread_cond_signal(&st->freed);
            pthread_mutex_unlock(&st->mu);
            return NULL;
        }
    }
    *slot = i;
    return st->conn[i];
}

/* Runs the first statement of a call on the pool's connection `slot`. A connection that
 * turns out dead at that point (the server restarted since it was last used) did nothing,
 * so the statement runs once more on a new one: only for statements that may run twice
 * (BEGIN, reads, the claim). */
static Status run_first(PgStore *st, int slot, const char *sql, int n,
                        const char *const *params, ExecStatusType want, PGresult **res,
                        ErrBuf *err)
{
    Status s = run(st->conn[slot], sql, n, params, want, res, err);
    if (s != STATUS_OK && PQstatus(st->conn[slot]) == CONNECTION_BAD) {
        PQfinish(st->conn[slot]);
        st->conn[slot] = NULL;
        if (connect_db(st->url, &st->conn[slot], err) == STATUS_OK)
            s = run(st->conn[slot], sql, n, params, want, res, err);
    }
    return s;
}

static void release(PgStore *st, int slot)
{
    pthread_mutex_lock(&st->mu);
    st->busy[slot] = false;
    pthread_cond_signal(&st->freed);
    pthread_mutex_unlock(&st->mu);
}

static Status migrate_exec(void *db, const char *sql, ErrBuf *err)
{
    PGresult *r = PQexec(db, sql);
    const Status s = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK
                         ? STATUS_OK
                         : pg_error(err, "schema", r ? PQresultErrorMessage(r) : "no result");
    PQclear(r);
    return s;
}

static Status query_long(void *db, const char *sql, long *out, ErrBuf *err)
{
    PGresult *r = NULL;
    Status s = run(db, sql, 0, NULL, PGRES_TUPLES_OK, &r, err);
    if (s == STATUS_OK) {
        *out = PQntuples(r) == 1 ? atol(PQgetvalue(r, 0, 0)) : 0;
        PQclear(r);
    }
    return s;
}

static const StoreOps PG_OPS;
static Status pg_live_beat(Store *base, int dead_s, ErrBuf *err);

static void pg_close(Store *base)
{
    PgStore *st = pg(base);
    // Stopping in order: hand this process's pending AI moves to the others at once
    // rather than after the lease.
    if (st->conn[0] != NULL && PQstatus(st->conn[0]) == CONNECTION_OK) {
        ErrBuf err;
        const char *p[] = {st->owner};
        run_cmd(st->conn[0], "UPDATE ai_work SET lease_until=now() - interval '1 second' "
                             "WHERE owner=$1", 1, p, &err);
        // And its holds: a stopping server gives them back all at once, not stream by
        // stream (sse.c).
        run_cmd(st->conn[0], "DELETE FROM live_holds WHERE owner=$1", 1, p, &err);
        run_cmd(st->conn[0], "DELETE FROM processes WHERE owner=$1", 1, p, &err);
    }
    for (int i = 0; i < PG_POOL; i++)
        PQfinish(st->conn[i]);
    pthread_mutex_destroy(&st->mu);
    pthread_cond_destroy(&st->freed);
    free(st->url);
    free(st);
}

Status store_pg_open(const char *url, Store **out, ErrBuf *err)
{
    *out = NULL;
    PgStore *st = calloc(1, sizeof *st);
    if (st == NULL || (st->url = strdup(url)) == NULL) {
        free(st);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    st->base.ops = &PG_OPS;
    st->base.shared = true;
    pthread_mutex_init(&st->mu, NULL);
    pthread_cond_init(&st->freed, NULL);
    Status s = secret_hex(st->owner, (sizeof st->owner - 1) / 2)
                   ? STATUS_OK
                   : err_set(err, STATUS_IO, "no randomness for the process's name");
    if (s == STATUS_OK)
        s = connect_db(url, &st->conn[0], err);
    if (s == STATUS_OK) {
        // Processes starting together migrate one after the other: the lock is the
        // transaction's, so a killed migrator releases it.
        PGconn *c = st->conn[0];
        s = run_cmd(c, "BEGIN", 0, NULL, err);
        if (s == STATUS_OK)
            s = run(c, "SELECT pg_advisory_xact_lock(7265636)", 0, NULL, PGRES_TUPLES_OK, NULL,
                    err);
        if (s == STATUS_OK)
            s = store_migrate(c, migrate_exec, query_long, MIGRATIONS, STORE_SCHEMA_VERSION,
                              err);
        s = finish(c, s, err);
    }
    if (s == STATUS_OK)
        s = pg_live_beat(&st->base, 0, err); // alive before its first hold, beats or not
    if (s != STATUS_OK) {
        pg_close(&st->base);
        return s;
    }
    *out = &st->base;
    return STATUS_OK;
}

/* --- writes ----------------------------------------------------------------------------- */

/* The version check that opens every write to a game (see store.h). */
static Status set_version(PGconn *c, const char *id, const StoreStamp *stamp, ErrBuf *err)
{
    char v[24], expect[24], now[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)stamp->version);
    snprintf(expect, sizeof expect, "%llu", (unsigned long long)stamp->expect);
    snprintf(now, sizeof now, "%lld", (long long)time(NULL));
    const char *p[] = {id, v, now, expect};
    PGresult *r = NULL;
    Status s = run(c, "UPDATE games SET version=$2, updated=$3, finished=0 WHERE id=$1 AND version=$4", 4, p,
                   PGRES_COMMAND_OK, &r, err);
    if (s == STATUS_OK) {
        if (strcmp(PQcmdTuples(r), "1") != 0)
            s = err_set(err, STATUS_CONFLICT, "game %s changed since version %s", id, expect);
        PQclear(r);
    }
    return s;
}

/* The AI work row after a write, and the notice to the other processes; both take
 * effect only when the transaction commits. */
static Status after_write(PgStore *st, PGconn *c, const char *id, uint64_t version,
                          bool ai_next, ErrBuf *err)
{
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)version);
    const char *p[] = {id, v, st->owner};
    Status s = ai_next ? run_cmd(c, "INSERT INTO ai_work(game_id, version, owner, lease_until) "
                                    "VALUES($1, $2, $3, now() + " PG_LEASE ") "
                                    "ON CONFLICT (game_id) DO UPDATE SET version=EXCLUDED.version,"
                                    " owner=EXCLUDED.owner, lease_until=EXCLUDED.lease_until",
                         3, p, err)
                       : run_cmd(c, "DELETE FROM ai_work WHERE game_id=$1", 1, p, err);
    if (s == STATUS_OK)
        s = run(c, "SELECT pg_notify('crown_games', $1::text || ' ' || $2::text)", 2, p,
                PGRES_TUPLES_OK, NULL, err);
    return s;
}

static Status pg_insert_game(Store *base, const StoredGame *g, bool ai_next, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    char players[16], seed[24], created[24], version[24];
    snprintf(players, sizeof players, "%d", g->players);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
    snprintf(created, sizeof created, "%lld", (long long)g->created);
    snprintf(version, sizeof version, "%llu", (unsigned long long)g->version);
    const char *p[] = {g->id,  g->game, players, g->rules, g->start,
                       seed,   created, version, g->meta ? g->meta : "{}"};
    Status s = run_first(st, slot, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err);
    c = st->conn[slot];
    if (s == STATUS_OK)
        s = run_cmd(c, "INSERT INTO games(id, game, players, rules, start, seed, created, version,"
                       " updated, meta) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $7, $9)", 9, p,
                    err);
    for (int i = 0; i < g->players && s == STATUS_OK; i++) {
        char seat[16];
        snprintf(seat, sizeof seat, "%d", i);
        const char *q[] = {g->id, seat, g->player[i], g->token[i]};
        s = run_cmd(c, "INSERT INTO seats(game_id, seat, player, token) VALUES($1, $2, $3, $4)", 4,
                    q, err);
    }
    for (int i = 0; i < g->n_moves && s == STATUS_OK; i++) {
        char ply[16];
        snprintf(ply, sizeof ply, "%d", i);
        const char *q[] = {g->id, ply, g->moves[i]};
        s = run_cmd(c, "INSERT INTO moves(game_id, ply, text) VALUES($1, $2, $3)", 3, q, err);
    }
    if (s == STATUS_OK && ai_next)
        s = after_write(st, c, g->id, g->version, true, err);
    s = finish(c, s, err);
    release(st, slot);
    return s;
}

static Status pg_append(Store *base, const char *id, int first_ply, const char *const *texts,
                        int n, const StoreStamp *stamp, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    Status s = run_first(st, slot, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err);
    c = st->conn[slot];
    if (s == STATUS_OK)
        s = set_version(c, id, stamp, err);
    for (int i = 0; i < n && s == STATUS_OK; i++) {
        char ply[16];
        snprintf(ply, sizeof ply, "%d", first_ply + i);
        const char *p[] = {id, ply, texts[i]};
        s = run_cmd(c, "INSERT INTO moves(game_id, ply, text) VALUES($1, $2, $3)", 3, p, err);
    }
    if (s == STATUS_OK && stamp->meta != NULL) {
        char flag[24];
        snprintf(flag, sizeof flag, "%lld", (long long)stamp->flag_at);
        const char *p[] = {id, stamp->meta, flag};
        s = run_cmd(c, "UPDATE games SET meta=$2, flag_at=$3 WHERE id=$1", 3, p, err);
    }
    if (s == STATUS_OK)
        s = after_write(st, c, id, stamp->version, stamp->ai_next, err);
    s = finish(c, s, err);
    release(st, slot);
    return s;
}

static Status pg_truncate(Store *base, const char *id, int keep, const StoreStamp *stamp,
                          ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    char k[16];
    snprintf(k, sizeof k, "%d", keep);
    const char *p[] = {id, k};
    Status s = run_first(st, slot, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err);
    c = st->conn[slot];
    if (s == STATUS_OK)
        s = set_version(c, id, stamp, err);
    if (s == STATUS_OK)
        s = run_cmd(c, "DELETE FROM moves WHERE game_id=$1 AND ply>=$2", 2, p, err);
    if (s == STATUS_OK)
        s = after_write(st, c, id, stamp->version, stamp->ai_next, err);
    s = finish(c, s, err);
    release(st, slot);
    return s;
}

static Status pg_set_meta(Store *base, const char *id, const char *meta,
                          const StoreStamp *stamp, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    char flag[24];
    snprintf(flag, sizeof flag, "%lld", (long long)stamp->flag_at);
    const char *p[] = {id, meta, flag};
    Status s = run_first(st, slot, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err);
    c = st->conn[slot];
    if (s == STATUS_OK)
        s = set_version(c, id, stamp, err);
    if (s == STATUS_OK)
        s = run_cmd(c, "UPDATE games SET meta=$2, flag_at=$3 WHERE id=$1", 3, p, err);
    if (s == STATUS_OK)
        s = after_write(st, c, id, stamp->version, stamp->ai_next, err);
    s = finish(c, s, err);
    release(st, slot);
    return s;
}

/* --- reads ------------------------------------------------------------------------------ */

/* Reads game, seats and moves; the caller holds a snapshot transaction. */
static Status load_in(PGconn *c, const char *id, StoredGame *g, ErrBuf *err)
{
    const char *p[] = {id};
    PGresult *r = NULL;
    Status s = run(c, "SELECT game, players, rules, start, seed, created, version, meta "
                      "FROM games WHERE id=$1", 1, p, PGRES_TUPLES_OK, &r, err);
    if (s != STATUS_OK)
        return s;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return err_set(err, STATUS_ILLEGAL, "no such game");
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->game, sizeof g->game, "%s", PQgetvalue(r, 0, 0));
    g->players = atoi(PQgetvalue(r, 0, 1));
    g->rules = strdup(PQgetvalue(r, 0, 2));
    g->start = strdup(PQgetvalue(r, 0, 3));
    g->seed = strtoull(PQgetvalue(r, 0, 4), NULL, 10);
    g->created = strtoll(PQgetvalue(r, 0, 5), NULL, 10);
    g->version = strtoull(PQgetvalue(r, 0, 6), NULL, 10);
    g->meta = strdup(PQgetvalue(r, 0, 7));
    PQclear(r);
    if (g->rules == NULL || g->start == NULL || g->meta == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");

    if ((s = run(c, "SELECT seat, player, token FROM seats WHERE game_id=$1", 1, p,
                 PGRES_TUPLES_OK, &r, err)) != STATUS_OK)
        return s;
    for (int i = 0; i < PQntuples(r); i++) {
        const int seat = atoi(PQgetvalue(r, i, 0));
        if (seat < 0 || seat >= MAX_PLAYERS)
            continue; // no such seat: store_load checks that every seat is there
        snprintf(g->player[seat], sizeof g->player[seat], "%s", PQgetvalue(r, i, 1));
        snprintf(g->token[seat], sizeof g->token[seat], "%s", PQgetvalue(r, i, 2));
    }
    PQclear(r);

    if ((s = run(c, "SELECT ply, text FROM moves WHERE game_id=$1 ORDER BY ply", 1, p,
                 PGRES_TUPLES_OK, &r, err)) != STATUS_OK)
        return s;
    const int n = PQntuples(r);
    if (n > 0 && (g->moves = calloc((size_t)n, sizeof *g->moves)) == NULL)
        s = err_set(err, STATUS_NOMEM, "out of memory");
    for (int i = 0; i < n && s == STATUS_OK; i++) {
        if (atoi(PQgetvalue(r, i, 0)) != i)
            s = err_set(err, STATUS_IO, "database: game %s has a gap in its moves", id);
        else if ((g->moves[i] = strdup(PQgetvalue(r, i, 1))) == NULL)
            s = err_set(err, STATUS_NOMEM, "out of memory");
        else
            g->n_moves = i + 1;
    }
    PQclear(r);
    return s;
}

static Status pg_load(Store *base, const char *id, StoredGame *g, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    // One snapshot for the three reads: a version never comes without its moves.
    Status s = run_first(st, slot, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", 0, NULL,
                         PGRES_COMMAND_OK, NULL, err);
    c = st->conn[slot];
    if (s == STATUS_OK)
        s = load_in(c, id, g, err);
    PQclear(PQexec(c, s == STATUS_OK ? "COMMIT" : "ROLLBACK"));
    release(st, slot);
    return s;
}

static Status pg_version(Store *base, const char *id, uint64_t *out, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    const char *p[] = {id};
    PGresult *r = NULL;
    Status s = run_first(st, slot, "SELECT version FROM games WHERE id=$1", 1, p, PGRES_TUPLES_OK,
                         &r, err);
    if (s == STATUS_OK) {
        if (PQntuples(r) == 1)
            *out = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
        else
            s = err_set(err, STATUS_ILLEGAL, "no such game");
        PQclear(r);
    }
    release(st, slot);
    return s;
}

static long pg_count_games(Store *base)
{
    PgStore *st = pg(base);
    int slot;
    ErrBuf err;
    PGconn *c = acquire(st, &slot, &err);
    if (c == NULL)
        return -1;
    long n = -1;
    query_long(c, "SELECT COUNT(*) FROM games", &n, &err);
    release(st, slot);
    return n;
}

/* --- retention --------------------------------------------------------------------------- */

/* Runs a query whose rows start with a game id and reads up to cap of them. */
static Status list_ids(PgStore *st, const char *sql, int np, const char *const *p,
                       char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err)
{
    int slot;
    if (acquire(st, &slot, err) == NULL)
        return STATUS_IO;
    PGresult *r = NULL;
    Status s = run_first(st, slot, sql, np, p, PGRES_TUPLES_OK, &r, err);
    if (s == STATUS_OK) {
        for (int i = 0; i < PQntuples(r) && *n < cap; i++)
            snprintf(ids[(*n)++], sizeof ids[0], "%s", PQgetvalue(r, i, 0));
        PQclear(r);
    }
    release(st, slot);
    return s;
}

static Status pg_list_stale(Store *base, int64_t before, bool over,
                            char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err)
{
    char b[24], limit[16];
    snprintf(b, sizeof b, "%lld", (long long)before);
    snprintf(limit, sizeof limit, "%d", cap);
    const char *p[] = {over ? "1" : "0", b, limit};
    return list_ids(pg(base), "SELECT id FROM games WHERE finished=$1 AND updated<$2 LIMIT $3",
                    3, p, ids, cap, n, err);
}

/* Rows another process is claiming are skipped, not waited for, and each claimed row is
 * put off by the lease in the same statement: exactly one process takes each flag. */
static Status pg_claim_flags(Store *base, int64_t now_ms, int64_t lease_ms,
                             char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err)
{
    char now[24], until[24], limit[16];
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    snprintf(until, sizeof until, "%lld", (long long)(now_ms + lease_ms));
    snprintf(limit, sizeof limit, "%d", cap);
    const char *p[] = {now, until, limit};
    return list_ids(pg(base), "UPDATE games SET flag_at=$2 WHERE id IN (SELECT id FROM games "
                    "WHERE flag_at>0 AND flag_at<=$1 ORDER BY flag_at LIMIT $3 "
                    "FOR UPDATE SKIP LOCKED) RETURNING id", 3, p, ids, cap, n, err);
}

static Status pg_list_open(Store *base, char (*ids)[SECRET_ID_LEN + 1], int cap, int *n,
                           ErrBuf *err)
{
    char limit[16];
    snprintf(limit, sizeof limit, "%d", cap);
    const char *p[] = {limit};
    // meta_format writes "open" only while a seat waits (web/meta.c).
    return list_ids(pg(base), "SELECT id FROM games WHERE finished=0 AND meta LIKE "
                    "'%\"open\":%' ORDER BY created DESC LIMIT $1", 1, p, ids, cap, n, err);
}

static Status pg_mark_over(Store *base, const char *id, uint64_t version, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)version);
    const char *p[] = {id, v};
    PGresult *r = NULL;
    // One statement, so it commits on its own; the version keeps a note about an older
    // game off one that another process has changed since.
    Status s = run_first(st, slot, "UPDATE games SET finished=1 WHERE id=$1 AND version=$2", 2, p,
                         PGRES_COMMAND_OK, &r, err);
    if (s == STATUS_OK) {
        if (strcmp(PQcmdTuples(r), "1") != 0)
            s = err_set(err, STATUS_CONFLICT, "game %s changed since it was found over", id);
        PQclear(r);
    }
    release(st, slot);
    return s;
}

static Status pg_delete_game(Store *base, const char *id, int64_t before, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    char b[24];
    snprintf(b, sizeof b, "%lld", (long long)before);
    const char *p[] = {id, b};
    Status s = run_first(st, slot, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err);
    c = st->conn[slot];
    // The game's row locked first, and only while still stale: a process that writes the
    // game meanwhile waits for this transaction and then finds no game (its version
    // check fails), and one that wrote it first has made it fresh, so it stays.
    PGresult *r = NULL;
    if (s == STATUS_OK &&
        (s = run(c, "SELECT 1 FROM games WHERE id=$1 AND updated<$2 FOR UPDATE", 2, p,
                 PGRES_TUPLES_OK, &r, err)) == STATUS_OK) {
        if (PQntuples(r) != 1)
            s = err_set(err, STATUS_CONFLICT, "game %s changed since it was found stale", id);
        PQclear(r);
    }
    static const char *const SQL[] = {
        "DELETE FROM ai_work WHERE game_id=$1", "DELETE FROM seats WHERE game_id=$1",
        "DELETE FROM moves WHERE game_id=$1", "DELETE FROM games WHERE id=$1"};
    for (size_t i = 0; i < sizeof SQL / sizeof SQL[0] && s == STATUS_OK; i++)
        s = run_cmd(c, SQL[i], 1, p, err);
    s = finish(c, s, err);
    release(st, slot);
    return s;
}

/* --- AI claims ---------------------------------------------------------------------------- */

static Status pg_ai_claim(Store *base, const char *id, bool *mine, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    *mine = false;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    const char *p[] = {id, st->owner};
    PGresult *r = NULL;
    // Ours already (the write that left the AI to move was), or free because its holder
    // stopped renewing it. No row: no AI move is pending in the store.
    // The claim tells the other processes that this game's AI is thinking.
    Status s = run_first(st, slot, "WITH c AS (UPDATE ai_work SET owner=$2, lease_until=now() + "
                         PG_LEASE " WHERE game_id=$1 AND (owner=$2 OR lease_until < now())"
                         " RETURNING game_id)"
                         " SELECT pg_notify('crown_games', game_id || ' think') FROM c",
                         2, p, PGRES_TUPLES_OK, &r, err);
    if (s == STATUS_OK) {
        *mine = PQntuples(r) == 1;
        PQclear(r);
    }
    release(st, slot);
    return s;
}

/* --- per-address limits ------------------------------------------------------------ */

/* One statement and its text parameters. */
typedef struct PgStmt {
    const char *sql;
    const char *const *p;
    int n;
} PgStmt;

/* BEGIN for what a crash of the database may lose (the holds of live processes and their
 * beats: a lost hold only loosens a limit until its stream closes): its commit does not
 * wait for the disk, often most of a short transaction's time. Still atomic, and seen by
 * every other process at once. */
static Status begin_lazy(PgStore *st, int slot, ErrBuf *err)
{
    Status s = run_first(st, slot, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err);
    if (s == STATUS_OK)
        s = run_cmd(st->conn[slot], "SET LOCAL synchronous_commit TO off", 0, NULL, err);
    return s;
}

/* A check of counts under locks: BEGIN and an advisory lock on each of `lock` (an
 * address, then a game, so that two checks never wait for each other crosswise),
 * `cleanup` (when sql is not NULL), then `count` (one row of two numbers at most, into
 * got[]); if each number is under its limit (a limit below 0 is none), `take`. Seconds
 * are the database's clock, the same for every process. */
typedef struct PgAdmit {
    const char *lock[2]; /* NULL: none */
    PgStmt cleanup, count, take;
    long limit[2];
    bool lazy; /* commit without waiting for the disk (begin_lazy) */
} PgAdmit;

static Status admit(PgStore *st, const PgAdmit *a, bool *ok, long got[2], ErrBuf *err)
{
    int slot;
    *ok = false;
    got[0] = got[1] = 0;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    PGresult *r = NULL;
    Status s = a->lazy ? begin_lazy(st, slot, err)
                       : run_first(st, slot, "BEGIN", 0, NULL, PGRES_COMMAND_OK, NULL, err);
    c = st->conn[slot]; // a new one if the old had died
    for (int i = 0; i < 2 && s == STATUS_OK && a->lock[i] != NULL; i++)
        s = run(c, "SELECT pg_advisory_xact_lock(hashtext($1))", 1, &a->lock[i],
                PGRES_TUPLES_OK, NULL, err);
    if (s == STATUS_OK && a->cleanup.sql != NULL)
        s = run_cmd(c, a->cleanup.sql, a->cleanup.n, a->cleanup.p, err);
    if (s == STATUS_OK && (s = run(c, a->count.sql, a->count.n, a->count.p, PGRES_TUPLES_OK,
                                   &r, err)) == STATUS_OK) {
        for (int i = 0; i < 2 && i < PQnfields(r); i++)
            got[i] = atol(PQgetvalue(r, 0, i));
        PQclear(r);
        *ok = true;
        for (int i = 0; i < 2; i++)
            *ok = *ok && (a->limit[i] < 0 || got[i] < a->limit[i]);
        if (*ok)
            s = run_cmd(c, a->take.sql, a->take.n, a->take.p, err);
    }
    s = finish(c, s, err);
    release(st, slot);
    if (s != STATUS_OK)
        *ok = false;
    return s;
}

#define PG_NOW "extract(epoch from now())::bigint"

static Status pg_count_create(Store *base, const char *addr, int per_hour, bool *ok,
                              int *retry_s, ErrBuf *err)
{
    const char *p[] = {addr};
    long got[2];
    const PgAdmit a = {
        {addr, NULL},
        {"DELETE FROM address_creates WHERE addr=$1 AND at<=" PG_NOW "-3600", p, 1},
        {"SELECT count(*), coalesce(min(at) + 3600 - " PG_NOW ", 0)"
         " FROM address_creates WHERE addr=$1", p, 1},
        {"INSERT INTO address_creates(addr, at) VALUES($1, " PG_NOW ")", p, 1},
        {per_hour, -1},
        false,
    };
    const Status s = admit(pg(base), &a, ok, got, err);
    *retry_s = got[1] > 0 ? (int)got[1] : 1;
    return s;
}

/* A hold is live while its game is unfinished and changed within $2 seconds, or for a
 * minute before the game is stored; dead ones are deleted as the address is checked. */
#define PG_HOLD_LIVE                                                                        \
    "((g.id IS NULL AND h.at>" PG_NOW "-60) OR"                                            \
    " (g.finished=0 AND g.updated>" PG_NOW "-$2::bigint))"

static Status pg_hold_take(Store *base, const char *addr, const char *id, int kind, int limit,
                           int idle_s, bool *ok, ErrBuf *err)
{
    char k[16], idle[24];
    snprintf(k, sizeof k, "%d", kind);
    snprintf(idle, sizeof idle, "%d", idle_s);
    const char *live[] = {addr, idle, k};
    const char *row[] = {id, addr, k};
    long got[2];
    const PgAdmit a = {
        {addr, NULL},
        {"DELETE FROM address_holds d USING address_holds h LEFT JOIN games g"
         " ON g.id=h.game_id WHERE d.game_id=h.game_id AND h.addr=$1"
         " AND NOT " PG_HOLD_LIVE, live, 2},
        {"SELECT count(*) FROM address_holds h LEFT JOIN games g"
         " ON g.id=h.game_id WHERE h.addr=$1 AND h.kind=$3::integer AND " PG_HOLD_LIVE, live, 3},
        {"INSERT INTO address_holds(game_id, addr, kind, at)"
         " VALUES($1, $2, $3::integer, " PG_NOW ")"
         " ON CONFLICT (game_id) DO NOTHING", row, 3},
        {limit, -1},
        false,
    };
    return admit(pg(base), &a, ok, got, err);
}

static Status pg_hold_give(Store *base, const char *id, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    const char *p[] = {id};
    const Status s = run_first(st, slot, "DELETE FROM address_holds WHERE game_id=$1", 1, p,
                               PGRES_COMMAND_OK, NULL, err);
    release(st, slot);
    return s;
}

/* A live hold's process beat within $4 seconds; the holds of the others are left for
 * pg_live_beat's sweep, so a check reads only what it counts. */
#define PG_LIVE_COUNT(col, param)                                                          \
    "(SELECT count(*) FROM live_holds h JOIN processes p ON p.owner=h.owner"               \
    " WHERE h." col "=" param " AND h.kind=$3::integer"                                    \
    " AND p.beat > now() - $4::integer * interval '1 second')"

static Status pg_live_take(Store *base, const char *addr, const char *game, int kind,
                           int addr_limit, int game_limit, int dead_s, int64_t *hold,
                           StoreRefusal *refused, ErrBuf *err)
{
    PgStore *st = pg(base);
    char k[16], dead[16], n[24], game_key[SECRET_ID_LEN + 8];
    const long long id = atomic_fetch_add(&st->last_hold, 1) + 1;
    snprintf(k, sizeof k, "%d", kind);
    snprintf(dead, sizeof dead, "%d", dead_s);
    snprintf(n, sizeof n, "%lld", id);
    // A game's lock apart from any address's, whatever the two texts are.
    snprintf(game_key, sizeof game_key, "game %.*s", SECRET_ID_LEN, game ? game : "");
    const char *count[] = {addr, game, k, dead};
    const char *row[] = {st->owner, n, addr, game, k};
    long got[2];
    bool ok = false;
    const PgAdmit a = {
        {addr, game ? game_key : NULL},
        {NULL, NULL, 0},
        {"SELECT " PG_LIVE_COUNT("addr", "$1") ", " PG_LIVE_COUNT("game_id", "$2"), count, 4},
        {"INSERT INTO live_holds(owner, id, addr, game_id, kind)"
         " VALUES($1, $2::bigint, $3, $4, $5::integer)", row, 5},
        {addr_limit, game ? game_limit : -1},
        true,
    };
    const Status s = admit(st, &a, &ok, got, err);
    if (s == STATUS_OK && ok)
        *hold = id;
    else if (s == STATUS_OK)
        *refused = got[0] >= addr_limit ? STORE_ADDR_FULL : STORE_GAME_FULL;
    return s;
}

static Status pg_live_give(Store *base, int64_t hold, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    char n[24];
    snprintf(n, sizeof n, "%lld", (long long)hold);
    const char *p[] = {st->owner, n};
    Status s = begin_lazy(st, slot, err);
    if (s == STATUS_OK)
        s = run_cmd(st->conn[slot], "DELETE FROM live_holds WHERE owner=$1 AND id=$2::bigint", 2,
                    p, err);
    s = finish(st->conn[slot], s, err);
    release(st, slot);
    return s;
}

/* The beat, then the sweep of the processes that stopped beating and their holds (one
 * statement, so no hold outlives its process's row), by one process at a time: sweepers
 * never wait for each other, and a process that skips the sweep still beats. */
static Status pg_live_beat(Store *base, int dead_s, ErrBuf *err)
{
    PgStore *st = pg(base);
    int slot;
    PGconn *c = acquire(st, &slot, err);
    if (c == NULL)
        return STATUS_IO;
    const char *p[] = {st->owner};
    Status s = begin_lazy(st, slot, err);
    c = st->conn[slot];
    if (s == STATUS_OK)
        s = run_cmd(c, "INSERT INTO processes(owner, beat) VALUES($1, now())"
                       " ON CONFLICT (owner) DO UPDATE SET beat=now()", 1, p, err);
    PGresult *r = NULL;
    bool sweeper = false;
    if (s == STATUS_OK && dead_s > 0 &&
        (s = run(c, "SELECT pg_try_advisory_xact_lock(7265637)", 0, NULL, PGRES_TUPLES_OK, &r,
                 err)) == STATUS_OK) {
        sweeper = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
        PQclear(r);
    }
    if (sweeper) {
        char dead[16];
        snprintf(dead, sizeof dead, "%d", dead_s);
        const char *q[] = {dead};
        s = run_cmd(c, "WITH gone AS (DELETE FROM processes"
                       " WHERE beat <= now() - $1::integer * interval '1 second' RETURNING owner)"
                       " DELETE FROM live_holds WHERE owner IN (SELECT owner FROM gone)",
                    1, q, err);
    }
    s = finish(c, s, err);
    release(st, slot);
    return s;
}

/* --- the listener --------------------------------------------------------------------- */

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
    run_cmd(c, "UPDATE ai_work SET lease_until=now() + " PG_LEASE " WHERE owner=$1", 1, p, &err);
    PGresult *r = NULL;
    if (run(c, "UPDATE ai_work SET owner=$1, lease_until=now() + " PG_LEASE
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
        PQfreemem(n);
    }
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
            if (connect_db(st->url, &c, &err) == STATUS_OK &&
                run_cmd(c, "LISTEN crown_games", 0, NULL, &err) != STATUS_OK) {
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

static Status pg_watch(Store *base, const StoreWatch *w, ErrBuf *err)
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

static void pg_unwatch(Store *base)
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

static const StoreOps PG_OPS = {
    .close = pg_close,
    .insert_game = pg_insert_game,
    .append = pg_append,
    .truncate = pg_truncate,
    .set_meta = pg_set_meta,
    .load = pg_load,
    .version = pg_version,
    .count_games = pg_count_games,
    .list_stale = pg_list_stale,
    .list_open = pg_list_open,
    .mark_over = pg_mark_over,
    .claim_flags = pg_claim_flags,
    .delete_game = pg_delete_game,
    .ai_claim = pg_ai_claim,
    .count_create = pg_count_create,
    .hold_take = pg_hold_take,
    .hold_give = pg_hold_give,
    .live_take = pg_live_take,
    .live_give = pg_live_give,
    .live_beat = pg_live_beat,
    .watch = pg_watch,
    .unwatch = pg_unwatch,
};
