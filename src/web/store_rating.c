/*
 * store_rating.c - ratings in the store (store_rating.h): each call a list of statements
 * for store_run, the same text for SQLite and PostgreSQL. A game is rated once because
 * its history rows' primary key (account, game) refuses a second writer, and a rating
 * moved by another game meanwhile is caught by the count of games it was read at.
 */
#include "web/store_rating.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/store_backend.h"

static double cell_real(const StoreRows *r, int row, int col, double dflt)
{
    const char *c = store_cell(r, row, col);
    return c ? strtod(c, NULL) : dflt;
}

static int64_t cell_int(const StoreRows *r, int row, int col)
{
    const char *c = store_cell(r, row, col);
    return c ? strtoll(c, NULL, 10) : 0;
}

static void cell_text(const StoreRows *r, int row, int col, char *out, size_t cap)
{
    const char *c = store_cell(r, row, col);
    snprintf(out, cap, "%s", c ? c : "");
}

Status store_user_ratings(Store *st, int64_t user, StoreRating *out, int cap, int *n,
                          ErrBuf *err)
{
    *n = 0;
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u};
    const StoreStmt m = {"SELECT game, rating, rd, volatility, games, updated FROM ratings"
                         " WHERE user_id=$1 ORDER BY game", 1, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++) {
        StoreRating *o = &out[(*n)++];
        cell_text(&r, i, 0, o->game, sizeof o->game);
        o->rating = cell_real(&r, i, 1, 1500.0);
        o->rd = cell_real(&r, i, 2, 350.0);
        o->volatility = cell_real(&r, i, 3, 0.06);
        o->games = (int)cell_int(&r, i, 4);
        o->updated = cell_int(&r, i, 5);
    }
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_rating_pair(Store *st, const char *game, const char *const names[2],
                         StoreRated out[2], ErrBuf *err)
{
    char key[2][CREDENTIAL_NAME_MAX + 1];
    credential_name_key(names[0], key[0], sizeof key[0]);
    credential_name_key(names[1], key[1], sizeof key[1]);
    const char *p[] = {game, key[0], key[1]};
    const StoreStmt m = {"SELECT u.id, r.rating, r.rd, r.volatility, r.games, r.updated,"
                         " u.name_key FROM users u"
                         " LEFT JOIN ratings r ON r.user_id=u.id AND r.game=$1"
                         " WHERE u.name_key IN ($2, $3) AND u.deleted=0", 3, p, NULL};
    StoreRows r;
    Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    bool found[2] = {false, false};
    StoreRated got[2] = {{0}, {0}};
    for (int i = 0; i < r.rows; i++) {
        const char *k = store_cell(&r, i, 6);
        for (int j = 0; j < 2; j++) {
            if (k == NULL || strcmp(k, key[j]) != 0)
                continue;
            got[j] = (StoreRated){cell_int(&r, i, 0), cell_real(&r, i, 1, 1500.0),
                                  cell_real(&r, i, 2, 350.0), cell_real(&r, i, 3, 0.06),
                                  (int)cell_int(&r, i, 4), cell_int(&r, i, 5)};
            found[j] = true;
        }
    }
    store_rows_free(&r);
    if (!found[0] || !found[1] || got[0].user == got[1].user)
        return err_set(err, STATUS_NOT_FOUND, "a rated game's account is gone");
    out[0] = got[0];
    out[1] = got[1];
    return STATUS_OK;
}

/* The text parameters of one account's side of store_rating_write. */
typedef struct SideText {
    char user[24], opponent[24], score[32], before[32], rating[32], rd[32], vol[32], games[16],
        old_games[16];
} SideText;

static void side_text(SideText *t, const StoreRated *before, const StoreRated *after,
                      const StoreRated *opponent, double score)
{
    store_num(t->user, sizeof t->user, after->user);
    store_num(t->opponent, sizeof t->opponent, opponent->user);
    store_real(t->score, sizeof t->score, score);
    store_real(t->before, sizeof t->before, before->rating);
    store_real(t->rating, sizeof t->rating, after->rating);
    store_real(t->rd, sizeof t->rd, after->rd);
    store_real(t->vol, sizeof t->vol, after->volatility);
    store_num(t->games, sizeof t->games, after->games);
    store_num(t->old_games, sizeof t->old_games, before->games);
}

struct StoreRatingWrite {
    SideText t[2];
    char when[24], game_id[SECRET_ID_LEN + 1], game[64];
    const char *h[2][11], *r[2][8];
    StoreStmt m[4];
};

StoreRatingWrite *store_rating_prepare(const char *game_id, const char *game,
                                       const StoreRated before[2], const StoreRated after[2],
                                       const double score[2], int64_t at)
{
    StoreRatingWrite *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    side_text(&w->t[0], &before[0], &after[0], &after[1], score[0]);
    side_text(&w->t[1], &before[1], &after[1], &after[0], score[1]);
    store_num(w->when, sizeof w->when, at);
    snprintf(w->game_id, sizeof w->game_id, "%s", game_id);
    snprintf(w->game, sizeof w->game, "%s", game);
    for (int i = 0; i < 2; i++) {
        const SideText *t = &w->t[i];
        const char *hv[] = {t->user, w->game_id, w->game, t->opponent, t->score, t->before,
                            t->rating, t->rd, t->vol, w->when, t->games};
        const char *rv[] = {t->user, w->game, t->rating, t->rd, t->vol, t->games, w->when,
                            t->old_games};
        memcpy(w->h[i], hv, sizeof hv);
        memcpy(w->r[i], rv, sizeof rv);
    }
    // The history rows first: the second writer of a game stops at its primary key.
    static const char HISTORY[] =
        "INSERT INTO rating_history(user_id, game_id, game, opponent_id, score,"
        " rating_before, rating, rd, volatility, at, games)"
        " VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        " ON CONFLICT(user_id, game_id) DO NOTHING RETURNING user_id";
    static const char RATING[] =
        "INSERT INTO ratings(user_id, game, rating, rd, volatility, games, updated)"
        " VALUES($1, $2, $3, $4, $5, $6, $7) ON CONFLICT(user_id, game) DO UPDATE SET"
        " rating=excluded.rating, rd=excluded.rd, volatility=excluded.volatility,"
        " games=excluded.games, updated=excluded.updated WHERE ratings.games=$8"
        " RETURNING user_id";
    for (int i = 0; i < 2; i++) {
        w->m[i] = (StoreStmt){HISTORY, 11, w->h[i], "the game is rated already"};
        w->m[2 + i] = (StoreStmt){RATING, 8, w->r[i], "the rating changed meanwhile"};
    }
    return w;
}

void store_rating_stamp(const StoreRatingWrite *w, StoreStamp *stamp)
{
    stamp->also = w->m;
    stamp->n_also = 4;
}

void store_rating_free(StoreRatingWrite *w)
{
    free(w);
}

Status store_rating_write(Store *st, const char *game_id, const char *game,
                          const StoreRated before[2], const StoreRated after[2],
                          const double score[2], int64_t at, ErrBuf *err)
{
    StoreRatingWrite *w = store_rating_prepare(game_id, game, before, after, score, at);
    if (w == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    const Status s = store_run(st, w->m, 4, NULL, err);
    free(w);
    return s;
}

/* Reads rows of (user, game_id, game, opponent, score, before, rating, rd, at). */
static void read_games(const StoreRows *r, StoreRatedGame *out, int cap, int *n)
{
    *n = 0;
    for (int i = 0; i < r->rows && i < cap; i++) {
        StoreRatedGame *o = &out[(*n)++];
        o->user = cell_int(r, i, 0);
        cell_text(r, i, 1, o->game_id, sizeof o->game_id);
        cell_text(r, i, 2, o->game, sizeof o->game);
        cell_text(r, i, 3, o->opponent, sizeof o->opponent);
        o->score = cell_real(r, i, 4, 0);
        o->rating_before = cell_real(r, i, 5, 1500.0);
        o->rating = cell_real(r, i, 6, 1500.0);
        o->rd = cell_real(r, i, 7, 350.0);
        o->at = cell_int(r, i, 8);
    }
}

#define GAME_COLUMNS                                                                       \
    "SELECT h.user_id, h.game_id, h.game, COALESCE(o.name, ''), h.score, h.rating_before," \
    " h.rating, h.rd, h.at FROM rating_history h LEFT JOIN users o ON o.id=h.opponent_id"

static Status run_games(Store *st, const StoreStmt *m, StoreRatedGame *out, int cap, int *n,
                        ErrBuf *err)
{
    *n = 0;
    StoreRows r;
    const Status s = store_run(st, m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    read_games(&r, out, cap, n);
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_rating_of_game(Store *st, const char *game_id, StoreRatedGame out[2], int *n,
                            ErrBuf *err)
{
    const char *p[] = {game_id};
    const StoreStmt m = {GAME_COLUMNS " WHERE h.game_id=$1 ORDER BY h.user_id", 1, p, NULL};
    return run_games(st, &m, out, 2, n, err);
}

Status store_rating_history(Store *st, int64_t user, StoreRatedGame *out, int cap, int *n,
                            ErrBuf *err)
{
    char u[24], c[16];
    store_num(u, sizeof u, user);
    store_num(c, sizeof c, cap);
    const char *p[] = {u, c};
    const StoreStmt m = {GAME_COLUMNS " WHERE h.user_id=$1 ORDER BY h.games DESC LIMIT $2", 2,
                         p, NULL};
    return run_games(st, &m, out, cap, n, err);
}

/* The record of row game in out[0..*n), added when new; NULL when out is full. */
static StoreRecord *record_of(StoreRecord *out, int cap, int *n, const char *game)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(out[i].game, game) == 0)
            return &out[i];
    if (*n == cap)
        return NULL;
    StoreRecord *r = &out[(*n)++];
    memset(r, 0, sizeof *r);
    snprintf(r->game, sizeof r->game, "%s", game);
    return r;
}

Status store_rating_records(Store *st, int64_t user, StoreRecord *out, int cap, int *n,
                            ErrBuf *err)
{
    *n = 0;
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u};
    const StoreStmt m = {"SELECT game, score, COUNT(*) FROM rating_history WHERE user_id=$1"
                         " GROUP BY game, score ORDER BY game", 1, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows; i++) {
        const char *game = store_cell(&r, i, 0);
        StoreRecord *o = record_of(out, cap, n, game ? game : "");
        const double score = cell_real(&r, i, 1, 0);
        const int count = (int)cell_int(&r, i, 2);
        if (o == NULL)
            break;
        if (score > 0.75)
            o->wins += count;
        else if (score < 0.25)
            o->losses += count;
        else
            o->draws += count;
    }
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_leaderboard(Store *st, const char *game, double max_rd, StoreLeader *out,
                         int cap, int *n, ErrBuf *err)
{
    *n = 0;
    char rd[32], c[16];
    store_real(rd, sizeof rd, max_rd);
    store_num(c, sizeof c, cap);
    const char *p[] = {game, rd, c};
    const StoreStmt m = {"SELECT u.name, r.rating, r.rd, r.games, r.volatility, r.updated"
                         " FROM ratings r"
                         " JOIN users u ON u.id=r.user_id"
                         " WHERE r.game=$1 AND r.rd<$2 AND r.games>0 AND u.deleted=0"
                         " ORDER BY r.rating DESC, u.name_key LIMIT $3", 3, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++) {
        StoreLeader *o = &out[(*n)++];
        cell_text(&r, i, 0, o->name, sizeof o->name);
        o->rating = cell_real(&r, i, 1, 1500.0);
        o->rd = cell_real(&r, i, 2, 350.0);
        o->games = (int)cell_int(&r, i, 3);
        o->volatility = cell_real(&r, i, 4, 0.06);
        o->updated = cell_int(&r, i, 5);
    }
    store_rows_free(&r);
    return STATUS_OK;
}
