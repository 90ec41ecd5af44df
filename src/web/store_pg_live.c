/*
 * store_pg_live.c - the per-address limits that must hold across the processes sharing a
 * PostgreSQL store (see store_pg.c): games created an hour, games with an AI at once,
 * and what lives only as long as its process (event streams, hints waiting).
 *
 * The first two are counted in address_creates and address_holds, each check a
 * transaction under an advisory lock on the address, so two processes never both let
 * the last one through. The last is counted in live_holds, keyed by the process, and
 * counts while the process beats in processes: a killed process's holds stop counting
 * once its beat is old.
 */
#include "web/store_pg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One statement and its text parameters. */
typedef struct PgStmt {
    const char *sql;
    const char *const *p;
    int n;
} PgStmt;

/* A check of counts under locks: BEGIN and an advisory lock on each of `lock` (an
 * address, then a game, so that two checks never wait for each other crosswise),
 * `cleanup` (when sql is not NULL), then `count` (one row of two numbers at most, into
 * got[]); if each number is under its limit (a limit below 0 is none), `take`. Seconds
 * are the database's clock, the same for every process. */
typedef struct PgAdmit {
    const char *lock[2]; /* NULL: none */
    PgStmt cleanup, count, take;
    long limit[2];
    bool lazy; /* commit without waiting for the disk (PG_TX_LAZY) */
} PgAdmit;

static Status admit(PgStore *st, const PgAdmit *a, bool *ok, long got[2], ErrBuf *err)
{
    *ok = false;
    got[0] = got[1] = 0;
    PgTx tx;
    Status s = pg_begin(st, a->lazy ? PG_TX_LAZY : PG_TX_WRITE, &tx, err);
    for (int i = 0; i < 2 && s == STATUS_OK && a->lock[i] != NULL; i++)
        s = pg_run(tx.c, "SELECT pg_advisory_xact_lock(hashtext($1))", 1, &a->lock[i],
                   PGRES_TUPLES_OK, NULL, err);
    if (s == STATUS_OK && a->cleanup.sql != NULL)
        s = pg_run_cmd(tx.c, a->cleanup.sql, a->cleanup.n, a->cleanup.p, err);
    PGresult *r = NULL;
    if (s == STATUS_OK && (s = pg_run(tx.c, a->count.sql, a->count.n, a->count.p,
                                      PGRES_TUPLES_OK, &r, err)) == STATUS_OK) {
        for (int i = 0; i < 2 && i < PQnfields(r); i++)
            got[i] = atol(PQgetvalue(r, 0, i));
        PQclear(r);
        *ok = true;
        for (int i = 0; i < 2; i++)
            *ok = *ok && (a->limit[i] < 0 || got[i] < a->limit[i]);
        if (*ok)
            s = pg_run_cmd(tx.c, a->take.sql, a->take.n, a->take.p, err);
    }
    s = pg_end(&tx, s, err);
    if (s != STATUS_OK)
        *ok = false;
    return s;
}

#define PG_NOW "extract(epoch from now())::bigint"

Status pg_count_create(Store *base, const char *addr, int per_hour, bool *ok, int *retry_s,
                       ErrBuf *err)
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

Status pg_hold_take(Store *base, const char *addr, const char *id, int kind, int limit,
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

Status pg_hold_give(Store *base, const char *id, ErrBuf *err)
{
    const char *p[] = {id};
    return pg_call(pg(base), "DELETE FROM address_holds WHERE game_id=$1", 1, p,
                   PGRES_COMMAND_OK, NULL, err);
}

/* A live hold's process beat within $4 seconds; the holds of the others are left for
 * pg_live_beat's sweep, so a check reads only what it counts. */
#define PG_LIVE_COUNT(col, param)                                                          \
    "(SELECT count(*) FROM live_holds h JOIN processes p ON p.owner=h.owner"               \
    " WHERE h." col "=" param " AND h.kind=$3::integer"                                    \
    " AND p.beat > now() - $4::integer * interval '1 second')"

/* The holds of live processes and their beats are lazy (PG_TX_LAZY): a hold a crash of
 * the database loses only loosens a limit until its stream closes. */
Status pg_live_take(Store *base, const char *addr, const char *game, int kind, int addr_limit,
                    int game_limit, int dead_s, int64_t *hold, StoreRefusal *refused,
                    ErrBuf *err)
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

Status pg_live_give(Store *base, int64_t hold, ErrBuf *err)
{
    PgStore *st = pg(base);
    char n[24];
    snprintf(n, sizeof n, "%lld", (long long)hold);
    const char *p[] = {st->owner, n};
    PgTx tx;
    Status s = pg_begin(st, PG_TX_LAZY, &tx, err);
    if (s == STATUS_OK)
        s = pg_run_cmd(tx.c, "DELETE FROM live_holds WHERE owner=$1 AND id=$2::bigint", 2, p,
                       err);
    return pg_end(&tx, s, err);
}

/* The beat, then the sweep of the processes that stopped beating and their holds (one
 * statement, so no hold outlives its process's row), by one process at a time: sweepers
 * never wait for each other, and a process that skips the sweep still beats. */
Status pg_live_beat(Store *base, int dead_s, ErrBuf *err)
{
    PgStore *st = pg(base);
    const char *p[] = {st->owner};
    PgTx tx;
    Status s = pg_begin(st, PG_TX_LAZY, &tx, err);
    if (s == STATUS_OK)
        s = pg_run_cmd(tx.c, "INSERT INTO processes(owner, beat) VALUES($1, now())"
                             " ON CONFLICT (owner) DO UPDATE SET beat=now()", 1, p, err);
    PGresult *r = NULL;
    bool sweeper = false;
    if (s == STATUS_OK && dead_s > 0 &&
        (s = pg_run(tx.c, "SELECT pg_try_advisory_xact_lock(7265637)", 0, NULL,
                    PGRES_TUPLES_OK, &r, err)) == STATUS_OK) {
        sweeper = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
        PQclear(r);
    }
    if (sweeper) {
        char dead[16];
        snprintf(dead, sizeof dead, "%d", dead_s);
        const char *q[] = {dead};
        s = pg_run_cmd(tx.c, "WITH gone AS (DELETE FROM processes"
                             " WHERE beat <= now() - $1::integer * interval '1 second'"
                             " RETURNING owner)"
                             " DELETE FROM live_holds WHERE owner IN (SELECT owner FROM gone)",
                       1, q, err);
    }
    return pg_end(&tx, s, err);
}
