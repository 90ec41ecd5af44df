/*
 * store.c - the store's entry points (store.h): picks the backend by the --db text,
 * hands every call to it, and runs the schema migrations the backends share in shape.
 */
#include "web/store_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool is_pg_url(const char *db)
{
    return strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0;
}

Status store_open(const char *db, Store **out, ErrBuf *err)
{
    *out = NULL;
    if (db == NULL || db[0] == '\0')
        return err_set(err, STATUS_PARSE, "no database named: give a file or a postgresql:// URL");
    return is_pg_url(db) ? store_pg_open(db, out, err) : store_sqlite_open(db, out, err);
}

void store_close(Store *st)
{
    if (st != NULL) {
        store_unwatch(st);
        st->ops->close(st);
    }
}

bool store_shared(const Store *st)
{
    return st->shared;
}

Status store_insert_game(Store *st, const StoredGame *g, bool ai_next, ErrBuf *err)
{
    return st->ops->insert_game(st, g, ai_next, err);
}

Status store_append(Store *st, const char *id, int first_ply, const char *const *texts, int n,
                    const StoreStamp *stamp, ErrBuf *err)
{
    return st->ops->append(st, id, first_ply, texts, n, stamp, err);
}

Status store_truncate(Store *st, const char *id, int keep, const StoreStamp *stamp,
                      ErrBuf *err)
{
    return st->ops->truncate(st, id, keep, stamp, err);
}

Status store_set_meta(Store *st, const char *id, const char *meta, const StoreStamp *stamp,
                      ErrBuf *err)
{
    return st->ops->set_meta(st, id, meta, stamp, err);
}

void stored_game_free(StoredGame *g)
{
    free(g->meta);
    g->meta = NULL;
    free(g->rules);
    free(g->start);
    for (int i = 0; i < g->n_moves; i++)
        free(g->moves[i]);
    free(g->moves);
    g->rules = g->start = NULL;
    g->moves = NULL;
    g->n_moves = 0;
}

Status store_load(Store *st, const char *id, StoredGame *out, ErrBuf *err)
{
    StoredGame g;
    memset(&g, 0, sizeof g);
    Status s = st->ops->load(st, id, &g, err);
    // What every backend's rows must add up to, whatever wrote them.
    if (s == STATUS_OK && (g.players < 1 || g.players > MAX_PLAYERS))
        s = err_set(err, STATUS_IO, "database: game %s has %d players", id, g.players);
    for (int i = 0; s == STATUS_OK && i < g.players; i++)
        if (g.player[i][0] == '\0')
            s = err_set(err, STATUS_IO, "database: game %s is missing seats", id);
    if (s != STATUS_OK) {
        stored_game_free(&g);
        return s;
    }
    *out = g;
    return STATUS_OK;
}

Status store_version(Store *st, const char *id, uint64_t *out, ErrBuf *err)
{
    return st->ops->version(st, id, out, err);
}

long store_count_games(Store *st)
{
    return st->ops->count_games(st);
}

Status store_claim_flags(Store *st, int64_t now_ms, int64_t lease_ms,
                         char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err)
{
    *n = 0;
    return st->ops->claim_flags(st, now_ms, lease_ms, ids, cap, n, err);
}

Status store_list_open(Store *st, char (*ids)[SECRET_ID_LEN + 1], int cap, int *n,
                       ErrBuf *err)
{
    *n = 0;
    return st->ops->list_open(st, ids, cap, n, err);
}

Status store_list_stale(Store *st, int64_t before, bool over, char (*ids)[SECRET_ID_LEN + 1],
                        int cap, int *n, ErrBuf *err)
{
    *n = 0;
    return st->ops->list_stale(st, before, over, ids, cap, n, err);
}

Status store_mark_over(Store *st, const char *id, uint64_t version, ErrBuf *err)
{
    return st->ops->mark_over(st, id, version, err);
}

Status store_delete_game(Store *st, const char *id, int64_t before, ErrBuf *err)
{
    return st->ops->delete_game(st, id, before, err);
}

Status store_ai_claim(Store *st, const char *id, bool *mine, ErrBuf *err)
{
    *mine = true;
    return st->ops->ai_claim ? st->ops->ai_claim(st, id, mine, err) : STATUS_OK;
}

/* The count of a store one process uses: that process's own limiter lets one request
 * through at a time per slot, so a read and then a write suffice (two requests at once
 * just after a restart might both pass the last slot, once). */
static Status count_create_alone(Store *st, const char *addr, int per_hour, bool *ok,
                                 int *retry_s, ErrBuf *err)
{
    char now[24], limit[16];
    store_num(now, sizeof now, (int64_t)time(NULL));
    store_num(limit, sizeof limit, per_hour);
    const char *p[] = {addr, now};
    const StoreStmt count[] = {
        {"DELETE FROM address_creates WHERE addr=$1 AND at<=CAST($2 AS INTEGER)-3600", 2, p,
         NULL},
        {"SELECT COUNT(*), COALESCE(MIN(at) + 3600 - CAST($2 AS INTEGER), 0) FROM"
         " address_creates WHERE addr=$1", 2, p, NULL},
    };
    StoreRows r;
    Status s = store_run(st, count, 2, &r, err);
    if (s != STATUS_OK)
        return s;
    const char *n = store_cell(&r, 0, 0), *wait = store_cell(&r, 0, 1);
    *ok = (n ? atol(n) : 0) < per_hour;
    *retry_s = wait && atoi(wait) > 0 ? atoi(wait) : 1;
    store_rows_free(&r);
    const StoreStmt take = {"INSERT INTO address_creates(addr, at) VALUES($1, $2)", 2, p, NULL};
    return *ok ? store_run(st, &take, 1, NULL, err) : STATUS_OK;
}

Status store_count_create(Store *st, const char *addr, int per_hour, bool *ok, int *retry_s,
                          ErrBuf *err)
{
    *ok = true;
    return st->ops->count_create ? st->ops->count_create(st, addr, per_hour, ok, retry_s, err)
                                 : count_create_alone(st, addr, per_hour, ok, retry_s, err);
}

Status store_hold_take(Store *st, const char *addr, const char *id, int kind, int limit,
                       int idle_s, bool *ok, ErrBuf *err)
{
    *ok = true;
    return st->ops->hold_take ? st->ops->hold_take(st, addr, id, kind, limit, idle_s, ok, err)
                              : STATUS_OK;
}

Status store_hold_give(Store *st, const char *id, ErrBuf *err)
{
    return st->ops->hold_give ? st->ops->hold_give(st, id, err) : STATUS_OK;
}

Status store_live_take(Store *st, const char *addr, const char *game, int kind,
                       int addr_limit, int game_limit, int dead_s, int64_t *hold,
                       StoreRefusal *refused, ErrBuf *err)
{
    *hold = 0;
    *refused = STORE_ADMITTED;
    return st->ops->live_take ? st->ops->live_take(st, addr, game, kind, addr_limit, game_limit,
                                                   dead_s, hold, refused, err)
                              : STATUS_OK;
}

Status store_live_give(Store *st, int64_t hold, ErrBuf *err)
{
    return st->ops->live_give && hold != 0 ? st->ops->live_give(st, hold, err) : STATUS_OK;
}

Status store_live_beat(Store *st, int dead_s, ErrBuf *err)
{
    return st->ops->live_beat ? st->ops->live_beat(st, dead_s, err) : STATUS_OK;
}

Status store_watch(Store *st, const StoreWatch *w, ErrBuf *err)
{
    return st->ops->watch ? st->ops->watch(st, w, err) : STATUS_OK;
}

void store_unwatch(Store *st)
{
    if (st->ops->unwatch)
        st->ops->unwatch(st);
}

Status store_migrate(void *db, StoreExec exec, StoreQueryLong query, const char *const *steps,
                     int n, ErrBuf *err)
{
    Status s = exec(db, "CREATE TABLE IF NOT EXISTS schema_version(version INTEGER NOT NULL)",
                    err);
    long have = 0;
    if (s == STATUS_OK)
        s = query(db, "SELECT COALESCE(MAX(version), 0) FROM schema_version", &have, err);
    if (s != STATUS_OK)
        return s;
    if (have > n)
        return err_set(err, STATUS_IO, "the database's schema is version %ld, newer than this "
                       "crown's %d: use a newer crown", have, n);
    for (long v = have; v < n; v++) {
        ErrBuf why;
        if (exec(db, steps[v], &why) != STATUS_OK)
            return err_set(err, STATUS_IO, "upgrading the database to schema version %ld: %s",
                           v + 1, why.msg);
    }
    if (have == n)
        return STATUS_OK;
    char sql[96];
    snprintf(sql, sizeof sql, "DELETE FROM schema_version; INSERT INTO schema_version VALUES(%d)",
             n);
    return exec(db, sql, err);
}

Status store_run(Store *st, const StoreStmt *stmts, int n, StoreRows *out, ErrBuf *err)
{
    if (out != NULL)
        *out = (StoreRows){0, 0, NULL};
    const Status s = st->ops->run(st, stmts, n, out, err);
    if (s != STATUS_OK && out != NULL)
        store_rows_free(out);
    return s;
}

Status store_rows_push(StoreRows *out, const char *const *values, ErrBuf *err)
{
    const size_t at = (size_t)out->rows * (size_t)out->cols;
    char **cell = realloc(out->cell, sizeof *cell * (at + (size_t)out->cols + 1));
    if (cell == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    out->cell = cell;
    for (int c = 0; c < out->cols; c++) {
        cell[at + (size_t)c] = values[c] ? strdup(values[c]) : NULL;
        if (values[c] && cell[at + (size_t)c] == NULL) {
            for (int k = 0; k < c; k++)
                free(cell[at + (size_t)k]);
            return err_set(err, STATUS_NOMEM, "out of memory");
        }
    }
    out->rows++;
    return STATUS_OK;
}

const char *store_cell(const StoreRows *rows, int r, int c)
{
    if (rows == NULL || r < 0 || r >= rows->rows || c < 0 || c >= rows->cols)
        return NULL;
    return rows->cell[(size_t)r * (size_t)rows->cols + (size_t)c];
}

void store_rows_free(StoreRows *rows)
{
    const size_t n = (size_t)rows->rows * (size_t)rows->cols;
    for (size_t i = 0; i < n; i++)
        free(rows->cell[i]);
    free(rows->cell);
    *rows = (StoreRows){0, 0, NULL};
}

void store_num(char *buf, size_t cap, int64_t v)
{
    snprintf(buf, cap, "%lld", (long long)v);
}

void store_real(char *buf, size_t cap, double v)
{
    snprintf(buf, cap, "%.17g", v);
}
