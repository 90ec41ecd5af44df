/*
 * store_puzzle.c - puzzle ratings in the store (store_puzzle.h): statements for
 * store_run, the same text for SQLite and PostgreSQL.
 */
#include "web/store_puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/store_backend.h"

/* Reads row i (game, rating, rd, volatility, count) into *o. */
static void read_rating(const StoreRows *r, int i, StorePuzzleRating *o)
{
    const char *g = store_cell(r, i, 0);
    snprintf(o->game, sizeof o->game, "%s", g ? g : "");
    o->r.rating = strtod(store_cell(r, i, 1) ? store_cell(r, i, 1) : "1500", NULL);
    o->r.rd = strtod(store_cell(r, i, 2) ? store_cell(r, i, 2) : "350", NULL);
    o->r.volatility = strtod(store_cell(r, i, 3) ? store_cell(r, i, 3) : "0.06", NULL);
    o->count = store_cell(r, i, 4) ? atoi(store_cell(r, i, 4)) : 0;
}

/* Runs a query of at most one rating row: *found false when it returned none. */
static Status one_rating(Store *st, const StoreStmt *m, StorePuzzleRating *out, bool *found,
                         ErrBuf *err)
{
    StoreRows r;
    const Status s = store_run(st, m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    *found = r.rows > 0;
    if (*found)
        read_rating(&r, 0, out);
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_puzzle_player(Store *st, int64_t user, const char *game, StorePuzzleRating *out,
                           ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u, game};
    const StoreStmt m = {"SELECT game, rating, rd, volatility, puzzles FROM puzzle_ratings"
                         " WHERE user_id=$1 AND game=$2", 2, p, NULL};
    bool found = false;
    const Status s = one_rating(st, &m, out, &found, err);
    if (s == STATUS_OK && !found) {
        snprintf(out->game, sizeof out->game, "%s", game);
        out->r = glicko2_new();
        out->count = 0;
    }
    return s;
}

Status store_puzzle_get(Store *st, const char *game, const char *puzzle, StorePuzzleRating *out,
                        ErrBuf *err)
{
    const char *p[] = {game, puzzle};
    const StoreStmt m = {"SELECT game, rating, rd, volatility, attempts FROM puzzle_stats"
                         " WHERE game=$1 AND puzzle=$2", 2, p, NULL};
    bool found = false;
    const Status s = one_rating(st, &m, out, &found, err);
    if (s == STATUS_OK && !found)
        out->count = 0;
    return s;
}

Status store_puzzle_tried(Store *st, int64_t user, const char *game, const char *puzzle,
                          bool *tried, ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u, game, puzzle};
    const StoreStmt m = {"SELECT 1 FROM puzzle_attempts WHERE user_id=$1 AND game=$2 AND"
                         " puzzle=$3", 3, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    *tried = r.rows > 0;
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_puzzle_rate(Store *st, int64_t user, const char *game, const char *puzzle,
                         const StorePuzzleRating *player, const Glicko2 *player_after,
                         const StorePuzzleRating *puz, const Glicko2 *puzzle_after,
                         int64_t now, ErrBuf *err)
{
    char u[24], at[24], pc[16], qc[16], pr[3][32], qr[3][32];
    store_num(u, sizeof u, user);
    store_num(at, sizeof at, now);
    store_num(pc, sizeof pc, player->count);
    store_num(qc, sizeof qc, puz->count);
    store_real(pr[0], sizeof pr[0], player_after->rating);
    store_real(pr[1], sizeof pr[1], player_after->rd);
    store_real(pr[2], sizeof pr[2], player_after->volatility);
    store_real(qr[0], sizeof qr[0], puzzle_after->rating);
    store_real(qr[1], sizeof qr[1], puzzle_after->rd);
    store_real(qr[2], sizeof qr[2], puzzle_after->volatility);
    const char *a[] = {u, game, puzzle, at};
    const char *p[] = {u, game, pr[0], pr[1], pr[2], at, pc};
    const char *q[] = {game, puzzle, qr[0], qr[1], qr[2], qc};
    // Each upsert changes its row only while the count is still the one read: a second
    // writer's rating built on the same reading changes nothing and is refused whole.
    const StoreStmt m[] = {
        {"INSERT INTO puzzle_attempts(user_id, game, puzzle, at) VALUES($1, $2, $3, $4)"
         " ON CONFLICT DO NOTHING RETURNING user_id", 4, a, "tried already"},
        {"INSERT INTO puzzle_ratings(user_id, game, rating, rd, volatility, puzzles, updated)"
         " VALUES($1, $2, $3, $4, $5, 1, $6) ON CONFLICT(user_id, game) DO UPDATE SET"
         " rating=excluded.rating, rd=excluded.rd, volatility=excluded.volatility,"
         " puzzles=puzzle_ratings.puzzles + 1, updated=excluded.updated"
         " WHERE puzzle_ratings.puzzles=$7 RETURNING user_id", 7, p, "rating moved"},
        {"INSERT INTO puzzle_stats(game, puzzle, rating, rd, volatility, attempts)"
         " VALUES($1, $2, $3, $4, $5, 1) ON CONFLICT(game, puzzle) DO UPDATE SET"
         " rating=excluded.rating, rd=excluded.rd, volatility=excluded.volatility,"
         " attempts=puzzle_stats.attempts + 1 WHERE puzzle_stats.attempts=$6"
         " RETURNING game", 6, q, "rating moved"},
    };
    StoreRows r;
    const Status s = store_run(st, m, 3, &r, err);
    if (s == STATUS_NOT_FOUND)
        return STATUS_CONFLICT;
    if (s == STATUS_OK)
        store_rows_free(&r);
    return s;
}

Status store_puzzle_ratings(Store *st, int64_t user, StorePuzzleRating *out, int cap, int *n,
                            ErrBuf *err)
{
    *n = 0;
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u};
    const StoreStmt m = {"SELECT game, rating, rd, volatility, puzzles FROM puzzle_ratings"
                         " WHERE user_id=$1 ORDER BY game", 1, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++)
        read_rating(&r, i, &out[(*n)++]);
    store_rows_free(&r);
    return STATUS_OK;
}
