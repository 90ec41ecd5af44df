/*
 * store_pg.c - the PostgreSQL backend of the store (see store.h): the games of several
 * `crown serve` processes in one database, through libpq. Here the pool of connections,
 * the one way a call runs on it (pg_begin and pg_end around a transaction, pg_call for a
 * statement alone), the schema and the games; the counts across processes are in
 * store_pg_live.c, the listener in store_pg_watch.c.
 *
 * Tables as in SQLite (games, seats, moves; games.updated and games.finished for the
 * retention) plus ai_work: one row per game whose AI seat is to move, naming the process
 * that plays it (owner) and until when its claim holds (lease_until). The write that
 * leaves an AI to move inserts the row for its own process in the same transaction;
 * every process renews its leases each second, so the rows of a killed process run out
 * and another takes them over (FOR UPDATE SKIP LOCKED, so two sweepers never take the
 * same row). A stale writer is refused by the version check that opens every write, so
 * a move is committed once whoever thinks it.
 *
 * Every commit notifies channel crown_games with "ID VERSION", every AI claim with
 * "ID think", for the other processes' listeners. Requests use a small pool of
 * connections, one per call.
 */
#include "web/store_pg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* libpq's messages end with a newline: trimmed for ours. */
static Status pg_error(ErrBuf *err, const char *what, const char *msg)
{
    const size_t n = strcspn(msg, "\n");
    return err_set(err, STATUS_IO, "database: %s: %.*s", what, (int)n, msg);
}

Status pg_run(PGconn *c, const char *sql, int n, const char *const *params,
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

Status pg_run_cmd(PGconn *c, const char *sql, int n, const char *const *params, ErrBuf *err)
{
    return pg_run(c, sql, n, params, PGRES_COMMAND_OK, NULL, err);
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

Status pg_connect(const char *url, PGconn **out, ErrBuf *err)
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

/* --- the pool ----------------------------------------------------------------------------- */

static void release(PgStore *st, int slot)
{
    pthread_mutex_lock(&st->mu);
    st->busy[slot] = false;
    pthread_cond_signal(&st->freed);
    pthread_mutex_unlock(&st->mu);
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
        if (pg_connect(st->url, &st->conn[i], err) != STATUS_OK) {
            release(st, i);
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
    Status s = pg_run(st->conn[slot], sql, n, params, want, res, err);
    if (s != STATUS_OK && PQstatus(st->conn[slot]) == CONNECTION_BAD) {
        PQfinish(st->conn[slot]);
        st->conn[slot] = NULL;
        if (pg_connect(st->url, &st->conn[slot], err) == STATUS_OK)
            s = pg_run(st->conn[slot], sql, n, params, want, res, err);
    }
    return s;
}

Status pg_begin(PgStore *st, PgTxKind kind, PgTx *tx, ErrBuf *err)
{
    static const char *const BEGIN[] = {
        [PG_TX_WRITE] = "BEGIN",
        [PG_TX_LAZY] = "BEGIN",
        [PG_TX_SNAPSHOT] = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
    };
    *tx = (PgTx){.st = st, .slot = -1, .kind = kind};
    if (acquire(st, &tx->slot, err) == NULL)
        return STATUS_IO;
    Status s = run_first(st, tx->slot, BEGIN[kind], 0, NULL, PGRES_COMMAND_OK, NULL, err);
    tx->c = st->conn[tx->slot];
    // Still atomic, and seen by every other process at once: what is lazy is only the
    // wait for the disk.
    if (s == STATUS_OK && kind == PG_TX_LAZY)
        s = pg_run_cmd(tx->c, "SET LOCAL synchronous_commit TO off", 0, NULL, err);
    return s;
}

Status pg_end(PgTx *tx, Status s, ErrBuf *err)
{
    if (tx->slot < 0)
        return s;
    if (tx->kind == PG_TX_SNAPSHOT)
        PQclear(PQexec(tx->c, s == STATUS_OK ? "COMMIT" : "ROLLBACK"));
    else
        s = finish(tx->c, s, err);
    release(tx->st, tx->slot);
    return s;
}

Status pg_call(PgStore *st, const char *sql, int n, const char *const *params,
               ExecStatusType want, PGresult **res, ErrBuf *err)
{
    int slot;
    if (acquire(st, &slot, err) == NULL)
        return STATUS_IO;
    const Status s = run_first(st, slot, sql, n, params, want, res, err);
    release(st, slot);
    return s;
}

/* --- open and close ------------------------------------------------------------------- */

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
    Status s = pg_run(db, sql, 0, NULL, PGRES_TUPLES_OK, &r, err);
    if (s == STATUS_OK) {
        *out = PQntuples(r) == 1 ? atol(PQgetvalue(r, 0, 0)) : 0;
        PQclear(r);
    }
    return s;
}

static const StoreOps PG_OPS;

static void pg_close(Store *base)
{
    PgStore *st = pg(base);
    // Stopping in order: hand this process's pending AI moves to the others at once
    // rather than after the lease.
    if (st->conn[0] != NULL && PQstatus(st->conn[0]) == CONNECTION_OK) {
        ErrBuf err;
        const char *p[] = {st->owner};
        pg_run_cmd(st->conn[0], "UPDATE ai_work SET lease_until=now() - interval '1 second' "
                                "WHERE owner=$1", 1, p, &err);
        // And its holds: a stopping server gives them back all at once, not stream by
        // stream (sse.c).
        pg_run_cmd(st->conn[0], "DELETE FROM live_holds WHERE owner=$1", 1, p, &err);
        pg_run_cmd(st->conn[0], "DELETE FROM processes WHERE owner=$1", 1, p, &err);
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
    if (s == STATUS_OK) {
        // Processes starting together migrate one after the other: the lock is the
        // transaction's, so a killed migrator releases it.
        PgTx tx;
        s = pg_begin(st, PG_TX_WRITE, &tx, err);
        if (s == STATUS_OK)
            s = pg_run(tx.c, "SELECT pg_advisory_xact_lock(7265636)", 0, NULL, PGRES_TUPLES_OK,
                       NULL, err);
        if (s == STATUS_OK)
            s = store_migrate(tx.c, migrate_exec, query_long, PG_MIGRATIONS, STORE_SCHEMA_VERSION,
                              err);
        s = pg_end(&tx, s, err);
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
    Status s = pg_run(c, "UPDATE games SET version=$2, updated=$3, finished=0"
                         " WHERE id=$1 AND version=$4", 4, p, PGRES_COMMAND_OK, &r, err);
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
    Status s = ai_next
                   ? pg_run_cmd(c, "INSERT INTO ai_work(game_id, version, owner, lease_until) "
                                   "VALUES($1, $2, $3, now() + " PG_LEASE ") "
                                   "ON CONFLICT (game_id) DO UPDATE SET version=EXCLUDED.version,"
                                   " owner=EXCLUDED.owner, lease_until=EXCLUDED.lease_until",
                                3, p, err)
                   : pg_run_cmd(c, "DELETE FROM ai_work WHERE game_id=$1", 1, p, err);
    if (s == STATUS_OK)
        s = pg_run(c, "SELECT pg_notify('crown_games', $1::text || ' ' || $2::text)", 2, p,
                   PGRES_TUPLES_OK, NULL, err);
    return s;
}

/* A write to a stored game: its version checked and moved on first, its AI work and the
 * notice last (end_write), the call's own statements between. */
static Status begin_write(PgStore *st, const char *id, const StoreStamp *stamp, PgTx *tx,
                          ErrBuf *err)
{
    Status s = pg_begin(st, PG_TX_WRITE, tx, err);
    if (s == STATUS_OK)
        s = set_version(tx->c, id, stamp, err);
    return s;
}

static Status run_one(PGconn *c, const StoreStmt *m, StoreRows *rows, ErrBuf *err);

/* The end of a write: the rows that go with it (StoreStamp.also), then the AI work and
 * the notice. */
static Status end_write(PgTx *tx, const char *id, const StoreStamp *stamp, Status s,
                        ErrBuf *err)
{
    for (int i = 0; i < stamp->n_also && s == STATUS_OK; i++) {
        StoreRows rows = {0, 0, NULL};
        s = run_one(tx->c, &stamp->also[i], &rows, err);
        store_rows_free(&rows);
        if (s == STATUS_NOT_FOUND)
            s = STATUS_CONFLICT;
    }
    if (s == STATUS_OK)
        s = after_write(tx->st, tx->c, id, stamp->version, stamp->ai_next, err);
    return pg_end(tx, s, err);
}

static Status insert_move(PGconn *c, const char *id, int ply, const char *text, ErrBuf *err)
{
    char n[16];
    snprintf(n, sizeof n, "%d", ply);
    const char *p[] = {id, n, text};
    return pg_run_cmd(c, "INSERT INTO moves(game_id, ply, text) VALUES($1, $2, $3)", 3, p, err);
}

static Status update_meta(PGconn *c, const char *id, const char *meta, int64_t flag_at,
                          ErrBuf *err)
{
    char flag[24];
    snprintf(flag, sizeof flag, "%lld", (long long)flag_at);
    const char *p[] = {id, meta, flag};
    return pg_run_cmd(c, "UPDATE games SET meta=$2, flag_at=$3 WHERE id=$1", 3, p, err);
}

static Status pg_insert_game(Store *base, const StoredGame *g, bool ai_next, ErrBuf *err)
{
    PgStore *st = pg(base);
    char players[16], seed[24], created[24], version[24];
    snprintf(players, sizeof players, "%d", g->players);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->seed);
    snprintf(created, sizeof created, "%lld", (long long)g->created);
    snprintf(version, sizeof version, "%llu", (unsigned long long)g->version);
    const char *p[] = {g->id,  g->game, players, g->rules, g->start,
                       seed,   created, version, g->meta ? g->meta : "{}"};
    PgTx tx;
    Status s = pg_begin(st, PG_TX_WRITE, &tx, err);
    if (s == STATUS_OK)
        s = pg_run_cmd(tx.c, "INSERT INTO games(id, game, players, rules, start, seed, created,"
                             " version, updated, meta) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $7,"
                             " $9)", 9, p, err);
    for (int i = 0; i < g->players && s == STATUS_OK; i++) {
        char seat[16];
        snprintf(seat, sizeof seat, "%d", i);
        const char *q[] = {g->id, seat, g->player[i], g->token[i]};
        s = pg_run_cmd(tx.c, "INSERT INTO seats(game_id, seat, player, token)"
                             " VALUES($1, $2, $3, $4)", 4, q, err);
    }
    for (int i = 0; i < g->n_moves && s == STATUS_OK; i++)
        s = insert_move(tx.c, g->id, i, g->moves[i], err);
    if (s == STATUS_OK && ai_next)
        s = after_write(st, tx.c, g->id, g->version, true, err);
    return pg_end(&tx, s, err);
}

static Status pg_append(Store *base, const char *id, int first_ply, const char *const *texts,
                        int n, const StoreStamp *stamp, ErrBuf *err)
{
    PgTx tx;
    Status s = begin_write(pg(base), id, stamp, &tx, err);
    for (int i = 0; i < n && s == STATUS_OK; i++)
        s = insert_move(tx.c, id, first_ply + i, texts[i], err);
    if (s == STATUS_OK && stamp->meta != NULL)
        s = update_meta(tx.c, id, stamp->meta, stamp->flag_at, err);
    return end_write(&tx, id, stamp, s, err);
}

static Status pg_truncate(Store *base, const char *id, int keep, const StoreStamp *stamp,
                          ErrBuf *err)
{
    char k[16];
    snprintf(k, sizeof k, "%d", keep);
    const char *p[] = {id, k};
    PgTx tx;
    Status s = begin_write(pg(base), id, stamp, &tx, err);
    if (s == STATUS_OK)
        s = pg_run_cmd(tx.c, "DELETE FROM moves WHERE game_id=$1 AND ply>=$2", 2, p, err);
    if (s == STATUS_OK && stamp->meta != NULL) // a takeback's clock goes with it
        s = update_meta(tx.c, id, stamp->meta, stamp->flag_at, err);
    return end_write(&tx, id, stamp, s, err);
}

static Status pg_set_meta(Store *base, const char *id, const char *meta,
                          const StoreStamp *stamp, ErrBuf *err)
{
    PgTx tx;
    Status s = begin_write(pg(base), id, stamp, &tx, err);
    if (s == STATUS_OK)
        s = update_meta(tx.c, id, meta, stamp->flag_at, err);
    return end_write(&tx, id, stamp, s, err);
}

/* --- reads ------------------------------------------------------------------------------ */

/* Reads game, seats and moves; the caller holds a snapshot transaction. */
static Status load_in(PGconn *c, const char *id, StoredGame *g, ErrBuf *err)
{
    const char *p[] = {id};
    PGresult *r = NULL;
    Status s = pg_run(c, "SELECT game, players, rules, start, seed, created, version, meta "
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

    if ((s = pg_run(c, "SELECT seat, player, token FROM seats WHERE game_id=$1", 1, p,
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

    if ((s = pg_run(c, "SELECT ply, text FROM moves WHERE game_id=$1 ORDER BY ply", 1, p,
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
    // One snapshot for the three reads: a version never comes without its moves.
    PgTx tx;
    Status s = pg_begin(pg(base), PG_TX_SNAPSHOT, &tx, err);
    if (s == STATUS_OK)
        s = load_in(tx.c, id, g, err);
    return pg_end(&tx, s, err);
}

static Status pg_version(Store *base, const char *id, uint64_t *out, ErrBuf *err)
{
    const char *p[] = {id};
    PGresult *r = NULL;
    Status s = pg_call(pg(base), "SELECT version FROM games WHERE id=$1", 1, p, PGRES_TUPLES_OK,
                       &r, err);
    if (s == STATUS_OK) {
        if (PQntuples(r) == 1)
            *out = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
        else
            s = err_set(err, STATUS_ILLEGAL, "no such game");
        PQclear(r);
    }
    return s;
}

static long pg_count_games(Store *base)
{
    ErrBuf err;
    PGresult *r = NULL;
    long n = -1;
    if (pg_call(pg(base), "SELECT COUNT(*) FROM games", 0, NULL, PGRES_TUPLES_OK, &r, &err) ==
        STATUS_OK) {
        n = PQntuples(r) == 1 ? atol(PQgetvalue(r, 0, 0)) : 0;
        PQclear(r);
    }
    return n;
}

/* --- retention --------------------------------------------------------------------------- */

/* Runs a query whose rows start with a game id and reads up to cap of them. */
static Status list_ids(PgStore *st, const char *sql, int np, const char *const *p,
                       char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err)
{
    PGresult *r = NULL;
    Status s = pg_call(st, sql, np, p, PGRES_TUPLES_OK, &r, err);
    if (s == STATUS_OK) {
        for (int i = 0; i < PQntuples(r) && *n < cap; i++)
            snprintf(ids[(*n)++], sizeof ids[0], "%s", PQgetvalue(r, i, 0));
        PQclear(r);
    }
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
    char v[24];
    snprintf(v, sizeof v, "%llu", (unsigned long long)version);
    const char *p[] = {id, v};
    PGresult *r = NULL;
    // One statement, so it commits on its own; the version keeps a note about an older
    // game off one that another process has changed since.
    Status s = pg_call(pg(base), "UPDATE games SET finished=1 WHERE id=$1 AND version=$2", 2, p,
                       PGRES_COMMAND_OK, &r, err);
    if (s == STATUS_OK) {
        if (strcmp(PQcmdTuples(r), "1") != 0)
            s = err_set(err, STATUS_CONFLICT, "game %s changed since it was found over", id);
        PQclear(r);
    }
    return s;
}

static Status pg_delete_game(Store *base, const char *id, int64_t before, ErrBuf *err)
{
    char b[24];
    snprintf(b, sizeof b, "%lld", (long long)before);
    const char *p[] = {id, b};
    PgTx tx;
    Status s = pg_begin(pg(base), PG_TX_WRITE, &tx, err);
    // The game's row locked first, and only while still stale: a process that writes the
    // game meanwhile waits for this transaction and then finds no game (its version
    // check fails), and one that wrote it first has made it fresh, so it stays.
    PGresult *r = NULL;
    if (s == STATUS_OK &&
        (s = pg_run(tx.c, "SELECT 1 FROM games WHERE id=$1 AND updated<$2 FOR UPDATE", 2, p,
                    PGRES_TUPLES_OK, &r, err)) == STATUS_OK) {
        if (PQntuples(r) != 1)
            s = err_set(err, STATUS_CONFLICT, "game %s changed since it was found stale", id);
        PQclear(r);
    }
    static const char *const SQL[] = {
        "DELETE FROM ai_work WHERE game_id=$1", "DELETE FROM seats WHERE game_id=$1",
        "DELETE FROM moves WHERE game_id=$1", "DELETE FROM games WHERE id=$1"};
    for (size_t i = 0; i < sizeof SQL / sizeof SQL[0] && s == STATUS_OK; i++)
        s = pg_run_cmd(tx.c, SQL[i], 1, p, err);
    return pg_end(&tx, s, err);
}

/* --- AI claims ---------------------------------------------------------------------------- */

static Status pg_ai_claim(Store *base, const char *id, bool *mine, ErrBuf *err)
{
    PgStore *st = pg(base);
    *mine = false;
    const char *p[] = {id, st->owner};
    PGresult *r = NULL;
    // Ours already (the write that left the AI to move was), or free because its holder
    // stopped renewing it. No row: no AI move is pending in the store.
    // The claim tells the other processes that this game's AI is thinking.
    Status s = pg_call(st, "WITH c AS (UPDATE ai_work SET owner=$2, lease_until=now() + "
                       PG_LEASE " WHERE game_id=$1 AND (owner=$2 OR lease_until < now())"
                       " RETURNING game_id)"
                       " SELECT pg_notify('crown_games', game_id || ' think') FROM c",
                       2, p, PGRES_TUPLES_OK, &r, err);
    if (s == STATUS_OK) {
        *mine = PQntuples(r) == 1;
        PQclear(r);
    }
    return s;
}

/* --- plain rows (store_run) ---------------------------------------------------------- */

/* One statement of pg_run_all: its rows into *rows, or how many it changed. */
static Status run_one(PGconn *c, const StoreStmt *m, StoreRows *rows, ErrBuf *err)
{
    PGresult *r = PQexecParams(c, m->sql, m->n, NULL, m->params, NULL, NULL, 0);
    const ExecStatusType rs = PQresultStatus(r);
    Status s = STATUS_OK;
    bool none = false;
    if (rs == PGRES_TUPLES_OK) {
        const char *values[STORE_ROW_CAP];
        rows->cols = PQnfields(r) < STORE_ROW_CAP ? PQnfields(r) : STORE_ROW_CAP;
        for (int i = 0; i < PQntuples(r) && s == STATUS_OK; i++) {
            for (int k = 0; k < rows->cols; k++)
                values[k] = PQgetisnull(r, i, k) ? NULL : PQgetvalue(r, i, k);
            s = store_rows_push(rows, values, err);
        }
        none = PQntuples(r) == 0;
    } else if (rs == PGRES_COMMAND_OK) {
        none = atol(PQcmdTuples(r)) == 0;
    } else {
        s = pg_error(err, "run", r ? PQresultErrorMessage(r) : PQerrorMessage(c));
    }
    PQclear(r);
    if (s == STATUS_OK && none && m->none != NULL)
        s = err_set(err, STATUS_NOT_FOUND, "%s", m->none);
    return s;
}

static Status pg_run_all(Store *base, const StoreStmt *stmts, int n, StoreRows *out,
                         ErrBuf *err)
{
    PgTx tx;
    Status s = pg_begin(pg(base), PG_TX_WRITE, &tx, err);
    for (int i = 0; i < n && s == STATUS_OK; i++) {
        StoreRows rows = {0, 0, NULL};
        s = run_one(tx.c, &stmts[i], &rows, err);
        if (s == STATUS_OK && out != NULL && i == n - 1)
            *out = rows;
        else
            store_rows_free(&rows);
    }
    return pg_end(&tx, s, err);
}

static const StoreOps PG_OPS = {
    .close = pg_close,
    .run = pg_run_all,
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
    .tour_notify = pg_tour_notify,
    .watch = pg_watch,
    .unwatch = pg_unwatch,
};
