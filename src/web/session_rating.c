/*
 * session_rating.c - a rated game's end turned into both players' new Glicko-2 ratings
 * (each game its own rating period, play/glicko2.h), whoever ends it and however (a
 * move, a resignation, an agreed draw, a flag). Both ratings are read, grown by the
 * time each player was idle and updated as one rating period of one game; the new
 * ratings and their history rows go with the game's end in its own write (StoreStamp.
 * also), the result in its meta (GameMeta.rating_*), so that the game ends rated or not
 * at all, once, whatever the processes; a rating moved meanwhile refuses the end as a
 * conflict, and the end is judged again. A game whose ratings could not be read then is
 * rated afterwards in a transaction of its own (session_rate_locked), or its result read
 * back from the history when another writer came first.
 */
#include "web/session.h"
#include "web/session_internal.h"

#include <time.h>

#include "play/finish.h"
#include "play/glicko2.h"
#include "web/context.h"
#include "web/store_rating.h"

enum { ATTEMPTS = 4 };

static const double DAY_S = 86400.0;

/* Seat 0's score against seat 1 (1, 0.5 or 0) from the seats' returns. */
static double first_score(const double ret[MAX_PLAYERS])
{
    return ret[0] > ret[1] ? 1.0 : ret[0] < ret[1] ? 0.0 : 0.5;
}

Glicko2 session_rating_now(double rating, double rd, double volatility, int64_t updated,
                           int64_t now)
{
    Glicko2 r = {rating, rd, volatility};
    // Each game is its own rating period; the time since the player's last one counts in
    // days, so a rating left alone for a year becomes uncertain again.
    if (updated > 0 && now > updated)
        glicko2_idle(&r, (double)(now - updated) / DAY_S);
    return r;
}

/* Both players' ratings after one game, seat 0 scoring score0, at `now`. */
static Status new_ratings(const StoreRated before[2], double score0, int64_t now,
                          StoreRated after[2], ErrBuf *err)
{
    Glicko2 r[2], out[2];
    for (int i = 0; i < 2; i++)
        r[i] = session_rating_now(before[i].rating, before[i].rd, before[i].volatility,
                                  before[i].games > 0 ? before[i].updated : 0, now);
    const Status st = glicko2_game(&r[0], &r[1], score0, GLICKO2_TAU, &out[0], &out[1], err);
    for (int i = 0; st == STATUS_OK && i < 2; i++)
        after[i] = (StoreRated){before[i].user, out[i].rating, out[i].rd, out[i].volatility,
                                before[i].games + 1, now};
    return st;
}

/* The result in the meta: each seat's rating after the game and its change. */
static void note_result(GameMeta *m, const double before[2], const StoreRated after[2])
{
    m->rating_done = true;
    for (int i = 0; i < 2; i++) {
        m->rating_after[i] = after[i].rating;
        m->rating_change[i] = after[i].rating - before[i];
    }
}

void session_rating_prepare_locked(Server *srv, const Session *s, const double ret[MAX_PLAYERS],
                                   GameMeta *m, StoreRatingWrite **w)
{
    *w = NULL;
    if (!m->rated || m->rating_done || s->game->players != 2)
        return;
    const char *names[2] = {m->account[0], m->account[1]};
    const int64_t now = (int64_t)time(NULL);
    const double score0 = first_score(ret);
    StoreRated before[2], after[2];
    ErrBuf err;
    // Ratings that cannot be read leave the end to be written alone, and rated later.
    if (store_rating_pair(srv->store, s->game->ops->name, names, before, &err) != STATUS_OK ||
        new_ratings(before, score0, now, after, &err) != STATUS_OK)
        return;
    const double score[2] = {score0, 1.0 - score0};
    *w = store_rating_prepare(s->id, s->game->ops->name, before, after, score, now);
    if (*w != NULL)
        note_result(m, (const double[2]){before[0].rating, before[1].rating}, after);
}

/* One attempt at rating a game that ended unrated: STATUS_NOT_FOUND when another writer
 * came first (try again). */
static Status rate_once(Server *srv, const Session *s, const StoreRated before[2],
                        double score0, StoreRated after[2], ErrBuf *err)
{
    const int64_t now = (int64_t)time(NULL);
    Status st = new_ratings(before, score0, now, after, err);
    if (st != STATUS_OK)
        return st;
    const double score[2] = {score0, 1.0 - score0};
    return store_rating_write(srv->store, s->id, s->game->ops->name, before, after, score, now,
                              err);
}

/* The result as the history holds it, when the game is rated already: true with
 * after[] filled in seats' order. */
static bool rated_already(Server *srv, const Session *s, const StoreRated pair[2],
                          StoreRated after[2], double before[2])
{
    StoreRatedGame g[2];
    int n = 0;
    ErrBuf err;
    if (store_rating_of_game(srv->store, s->id, g, &n, &err) != STATUS_OK || n != 2)
        return false;
    for (int i = 0; i < 2; i++) {
        after[i] = pair[i];
        before[i] = pair[i].rating;
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (g[j].user == pair[i].user) {
                after[i] = pair[i];
                after[i].rating = g[j].rating;
                after[i].rd = g[j].rd;
                before[i] = g[j].rating_before;
            }
    return true;
}

void session_rate_locked(Server *srv, Session *s)
{
    if (!s->meta.rated || s->meta.rating_done || s->game->players != 2 ||
        !session_over_locked(s))
        return;
    const char *names[2] = {s->meta.account[0], s->meta.account[1]};
    StoreRated pair[2], after[2];
    double before[2] = {0, 0};
    ErrBuf err;
    bool done = false;
    for (int attempt = 0; attempt < ATTEMPTS && !done; attempt++) {
        // A seat without its account (deleted, never taken) leaves the game unrated.
        if (store_rating_pair(srv->store, s->game->ops->name, names, pair, &err) != STATUS_OK)
            return;
        if (rated_already(srv, s, pair, after, before)) {
            done = true;
            break;
        }
        double ret[MAX_PLAYERS];
        session_returns_locked(s, ret);
        const Status st = rate_once(srv, s, pair, first_score(ret), after, &err);
        if (st == STATUS_OK) {
            before[0] = pair[0].rating;
            before[1] = pair[1].rating;
            done = true;
        } else if (st != STATUS_NOT_FOUND) {
            return; // the store: the next load of the game rates it
        }
    }
    if (!done)
        return;
    GameMeta m = s->meta;
    note_result(&m, before, after);
    session_set_meta_locked(srv, s, &m, &err);
}
