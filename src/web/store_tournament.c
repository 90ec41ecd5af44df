/*
 * store_tournament.c - tournaments in the store (store_tournament.h): each call a list
 * of statements for store_run, the same text for SQLite and PostgreSQL.
 */
#include "web/store_tournament.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/store_backend.h"

static const char *cell(const StoreRows *r, int row, int col)
{
    const char *c = store_cell(r, row, col);
    return c ? c : "";
}

/* Runs m[0..n), whose last returns a row when it changed one (its `none` otherwise). */
static Status run_changed(Store *st, const StoreStmt *m, int n, ErrBuf *err)
{
    StoreRows r;
    const Status s = store_run(st, m, n, &r, err);
    if (s == STATUS_OK)
        store_rows_free(&r);
    return s;
}

#define TOUR_COLUMNS                                                                       \
    "t.id, t.name, t.game, t.rules, t.clock, t.format, t.rounds, t.max_players, t.starts," \
    " t.created, t.state, t.round, t.creator, t.creator_user,"                             \
    " (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id=t.id), t.version"

static void read_tour(const StoreRows *r, int i, StoreTour *o)
{
    memset(o, 0, sizeof *o);
    snprintf(o->id, sizeof o->id, "%s", cell(r, i, 0));
    snprintf(o->name, sizeof o->name, "%s", cell(r, i, 1));
    snprintf(o->game, sizeof o->game, "%s", cell(r, i, 2));
    snprintf(o->rules, sizeof o->rules, "%s", cell(r, i, 3));
    snprintf(o->clock, sizeof o->clock, "%s", cell(r, i, 4));
    snprintf(o->format, sizeof o->format, "%s", cell(r, i, 5));
    o->rounds = atoi(cell(r, i, 6));
    o->max_players = atoi(cell(r, i, 7));
    o->starts = strtoll(cell(r, i, 8), NULL, 10);
    o->created = strtoll(cell(r, i, 9), NULL, 10);
    snprintf(o->state, sizeof o->state, "%s", cell(r, i, 10));
    o->round = atoi(cell(r, i, 11));
    snprintf(o->creator, sizeof o->creator, "%s", cell(r, i, 12));
    o->creator_user = strtoll(cell(r, i, 13), NULL, 10);
    o->players = atoi(cell(r, i, 14));
    o->version = strtoull(cell(r, i, 15), NULL, 10);
}

Status store_tour_create(Store *st, const StoreTour *t, ErrBuf *err)
{
    char rounds[16], maxp[16], starts[24], created[24], user[24];
    store_num(rounds, sizeof rounds, t->rounds);
    store_num(maxp, sizeof maxp, t->max_players);
    store_num(starts, sizeof starts, t->starts);
    store_num(created, sizeof created, t->created);
    store_num(user, sizeof user, t->creator_user);
    const char *p[] = {t->id, t->name, t->game, t->rules, t->clock, t->format, rounds, maxp,
                       starts, created, t->creator, t->creator_user ? user : NULL};
    const StoreStmt m = {"INSERT INTO tournaments(id, name, game, rules, clock, format, rounds,"
                         " max_players, starts, created, state, round, creator, creator_user,"
                         " lease) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', -1,"
                         " $11, $12, 0)", 12, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_tour_get(Store *st, const char *id, StoreTour *out, ErrBuf *err)
{
    const char *p[] = {id};
    const StoreStmt m = {"SELECT " TOUR_COLUMNS " FROM tournaments t WHERE t.id=$1", 1, p,
                         "no such tournament"};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    read_tour(&r, 0, out);
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_tour_list(Store *st, int offset, StoreTour *out, int cap, int *n, ErrBuf *err)
{
    *n = 0;
    char c[16], o[16];
    store_num(c, sizeof c, cap);
    store_num(o, sizeof o, offset);
    const char *p[] = {c, o};
    // The ones still to play first, soonest start first; then the latest ended.
    const StoreStmt m = {"SELECT " TOUR_COLUMNS " FROM tournaments t ORDER BY"
                         " CASE WHEN t.state IN ('open', 'running') THEN 0 ELSE 1 END,"
                         " CASE WHEN t.state IN ('open', 'running') THEN t.starts"
                         " ELSE -t.starts END, t.id LIMIT $1 OFFSET $2", 2, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++)
        read_tour(&r, i, &out[(*n)++]);
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_tour_entrants(Store *st, const char *id, StoreEntrant **out, int *n, ErrBuf *err)
{
    *out = NULL;
    *n = 0;
    const char *p[] = {id};
    const StoreStmt m = {"SELECT entry, player, name, token, user_id FROM tournament_players"
                         " WHERE tournament_id=$1 ORDER BY entry", 1, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    StoreEntrant *e = calloc(r.rows > 0 ? (size_t)r.rows : 1, sizeof *e);
    if (e == NULL) {
        store_rows_free(&r);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    for (int i = 0; i < r.rows; i++) {
        e[i].entry = atoi(cell(&r, i, 0));
        snprintf(e[i].player, sizeof e[i].player, "%s", cell(&r, i, 1));
        snprintf(e[i].name, sizeof e[i].name, "%s", cell(&r, i, 2));
        snprintf(e[i].token, sizeof e[i].token, "%s", cell(&r, i, 3));
        e[i].user = strtoll(cell(&r, i, 4), NULL, 10);
    }
    *out = e;
    *n = r.rows;
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_tour_games(Store *st, const char *id, StoreTourGame **out, int *n, ErrBuf *err)
{
    *out = NULL;
    *n = 0;
    const char *p[] = {id};
    const StoreStmt m = {"SELECT round, board, white, black, game_id, result FROM"
                         " tournament_games WHERE tournament_id=$1 ORDER BY round, board",
                         1, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    StoreTourGame *g = calloc(r.rows > 0 ? (size_t)r.rows : 1, sizeof *g);
    if (g == NULL) {
        store_rows_free(&r);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    for (int i = 0; i < r.rows; i++) {
        g[i].round = atoi(cell(&r, i, 0));
        g[i].board = atoi(cell(&r, i, 1));
        g[i].white = atoi(cell(&r, i, 2));
        g[i].black = atoi(cell(&r, i, 3));
        snprintf(g[i].game_id, sizeof g[i].game_id, "%s", cell(&r, i, 4));
        g[i].done = store_cell(&r, i, 5) != NULL;
        g[i].result = g[i].done ? strtod(cell(&r, i, 5), NULL) : 0.0;
    }
    *out = g;
    *n = r.rows;
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_tour_join(Store *st, const char *id, const StoreEntrant *e, int *entry,
                       ErrBuf *err)
{
    char user[24];
    store_num(user, sizeof user, e->user);
    const char *lock[] = {id};
    const char *dup[] = {id, user};
    const char *p[] = {id, e->player, e->name, e->token, e->user ? user : NULL};
    // The row's update first: it locks the tournament in PostgreSQL, so two joins at
    // once are counted one after the other against the limit.
    const StoreStmt m[] = {
        {"UPDATE tournaments SET version=version+1 WHERE id=$1 AND state='open' AND"
         " (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id=$1) < max_players"
         " RETURNING id", 1, lock, "the tournament has started or is full"},
        {"SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM tournament_players WHERE"
         " tournament_id=$1 AND user_id=$2)", 2, dup, "you are in this tournament already"},
        {"INSERT INTO tournament_players(tournament_id, entry, player, name, token, user_id)"
         " VALUES($1, (SELECT COALESCE(MAX(entry), -1) + 1 FROM tournament_players WHERE"
         " tournament_id=$1), $2, $3, $4, $5) RETURNING entry", 5, p, NULL},
    };
    StoreRows r;
    Status s = store_run(st, m, 3, &r, err);
    if (s == STATUS_NOT_FOUND && strstr(err->msg, "already"))
        s = STATUS_CONFLICT;
    if (s != STATUS_OK)
        return s;
    *entry = atoi(cell(&r, 0, 0));
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_tour_leave(Store *st, const char *id, int entry, ErrBuf *err)
{
    char k[16];
    store_num(k, sizeof k, entry);
    const char *p[] = {id, k};
    const StoreStmt m[] = {
        {"DELETE FROM tournament_players WHERE tournament_id=$1 AND entry=$2"
         " AND EXISTS (SELECT 1 FROM tournaments WHERE id=$1 AND state='open')"
         " RETURNING entry", 2, p, "the tournament has started, or no such entrant"},
        {"UPDATE tournaments SET version=version+1 WHERE id=$1 RETURNING id", 1, p, NULL},
    };
    return run_changed(st, m, 2, err);
}

Status store_tour_set_start(Store *st, const char *id, int64_t at, ErrBuf *err)
{
    char a[24];
    store_num(a, sizeof a, at);
    const char *p[] = {id, a};
    const StoreStmt m = {"UPDATE tournaments SET starts=$2, version=version+1 WHERE id=$1 AND"
                         " state='open' RETURNING id", 2, p, "the tournament has started already"};
    return run_changed(st, &m, 1, err);
}

Status store_tour_due(Store *st, int64_t now, int64_t now_ms, char (*ids)[SECRET_ID_LEN + 1],
                      int cap, int *n, ErrBuf *err)
{
    *n = 0;
    char a[24], ms[24], c[16];
    store_num(a, sizeof a, now);
    store_num(ms, sizeof ms, now_ms);
    store_num(c, sizeof c, cap);
    const char *p[] = {a, ms, c};
    const StoreStmt m = {"SELECT id FROM tournaments WHERE lease<$2 AND (state='running' OR"
                         " (state='open' AND starts<=$1)) ORDER BY starts, id LIMIT $3", 3, p,
                         NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++)
        snprintf(ids[(*n)++], SECRET_ID_LEN + 1, "%s", cell(&r, i, 0));
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_tour_claim(Store *st, const char *id, int64_t now_ms, int64_t lease_ms, bool *ok,
                        ErrBuf *err)
{
    *ok = false;
    char now[24], until[24];
    store_num(now, sizeof now, now_ms);
    store_num(until, sizeof until, now_ms + lease_ms);
    const char *p[] = {id, now, until};
    const StoreStmt m = {"UPDATE tournaments SET lease=$3 WHERE id=$1 AND lease<$2 RETURNING id",
                         3, p, "held"};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s == STATUS_NOT_FOUND)
        return STATUS_OK;
    if (s != STATUS_OK)
        return s;
    store_rows_free(&r);
    *ok = true;
    return STATUS_OK;
}

Status store_tour_release(Store *st, const char *id, ErrBuf *err)
{
    const char *p[] = {id};
    const StoreStmt m = {"UPDATE tournaments SET lease=0 WHERE id=$1", 1, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_tour_pair(Store *st, const char *id, int round, const StoreTourGame *boards,
                       int n, ErrBuf *err)
{
    StoreStmt *m = calloc((size_t)n + 1, sizeof *m);
    char(*text)[5][24] = calloc((size_t)n + 1, sizeof *text);
    const char **params = calloc(((size_t)n + 1) * 7, sizeof *params);
    if (m == NULL || text == NULL || params == NULL) {
        free(m);
        free(text);
        free(params);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    store_num(text[n][0], sizeof text[n][0], round);
    store_num(text[n][1], sizeof text[n][1], round - 1);
    const char **head = &params[(size_t)n * 7];
    head[0] = id;
    head[1] = text[n][0];
    head[2] = text[n][1];
    m[0] = (StoreStmt){"UPDATE tournaments SET round=$2, state='running', version=version+1"
                       " WHERE id=$1 AND round=$3 RETURNING id", 3, head, "paired already"};
    for (int i = 0; i < n; i++) {
        const StoreTourGame *b = &boards[i];
        const char **q = &params[(size_t)i * 7];
        store_num(text[i][0], sizeof text[i][0], round);
        store_num(text[i][1], sizeof text[i][1], b->board);
        store_num(text[i][2], sizeof text[i][2], b->white);
        store_num(text[i][3], sizeof text[i][3], b->black);
        snprintf(text[i][4], sizeof text[i][4], "%g", b->result);
        q[0] = id;
        q[1] = text[i][0];
        q[2] = text[i][1];
        q[3] = text[i][2];
        q[4] = text[i][3];
        q[5] = b->game_id[0] ? b->game_id : NULL;
        q[6] = b->done ? text[i][4] : NULL;
        m[i + 1] = (StoreStmt){"INSERT INTO tournament_games(tournament_id, round, board,"
                               " white, black, game_id, result) VALUES($1, $2, $3, $4, $5, $6,"
                               " $7)", 7, q, NULL};
    }
    StoreRows r;
    Status s = store_run(st, m, n + 1, n == 0 ? &r : NULL, err);
    if (s == STATUS_OK && n == 0)
        store_rows_free(&r);
    if (s == STATUS_NOT_FOUND)
        s = STATUS_CONFLICT;
    free(m);
    free(text);
    free(params);
    return s;
}

Status store_tour_result(Store *st, const char *id, int round, int board, double white_points,
                         ErrBuf *err)
{
    char r[16], b[16], w[24];
    store_num(r, sizeof r, round);
    store_num(b, sizeof b, board);
    snprintf(w, sizeof w, "%g", white_points);
    const char *p[] = {id, r, b, w};
    const StoreStmt m[] = {
        {"UPDATE tournament_games SET result=$4 WHERE tournament_id=$1 AND round=$2 AND"
         " board=$3", 4, p, NULL},
        {"UPDATE tournaments SET version=version+1 WHERE id=$1", 1, p, NULL},
    };
    return store_run(st, m, 2, NULL, err);
}

Status store_tour_end(Store *st, const char *id, const char *state, ErrBuf *err)
{
    const char *p[] = {id, state};
    const StoreStmt m = {"UPDATE tournaments SET state=$2, version=version+1 WHERE id=$1", 2,
                         p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_tour_cancel(Store *st, const char *id, int64_t now, ErrBuf *err)
{
    char a[24];
    store_num(a, sizeof a, now);
    const char *p[] = {id, a};
    // Its start becomes the moment it was cancelled (if that is sooner), from which the
    // sweep counts the hour its entrants have to see it.
    const StoreStmt m = {"UPDATE tournaments SET state='cancelled', version=version+1,"
                         " starts=CASE WHEN starts>$2 THEN $2 ELSE starts END WHERE id=$1 AND"
                         " state='open' RETURNING id", 2, p, "the tournament is no longer open: it has"
                         " started, or was cancelled"};
    return run_changed(st, &m, 1, err);
}

Status store_tour_sweep(Store *st, int64_t before, ErrBuf *err)
{
    char b[24];
    store_num(b, sizeof b, before);
    const char *p[] = {b};
#define TOUR_GONE "(SELECT id FROM tournaments WHERE state='cancelled' AND starts<$1)"
    const StoreStmt m[] = {
        {"DELETE FROM tournament_games WHERE tournament_id IN " TOUR_GONE, 1, p, NULL},
        {"DELETE FROM tournament_players WHERE tournament_id IN " TOUR_GONE, 1, p, NULL},
        {"DELETE FROM tournaments WHERE id IN " TOUR_GONE, 1, p, NULL},
    };
#undef TOUR_GONE
    return store_run(st, m, 3, NULL, err);
}

Status store_tour_notify(Store *st, const char *id, uint64_t version, ErrBuf *err)
{
    return st->ops->tour_notify ? st->ops->tour_notify(st, id, version, err) : STATUS_OK;
}
