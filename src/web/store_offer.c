/*
 * store_offer.c - seeks and challenges in the store (store_offer.h): each call a list of
 * statements for store_run, the same text for SQLite and PostgreSQL. Expiry runs in
 * the transaction of every read, so that no reader sees an offer past its time and no
 * sweeping thread is needed.
 */
#include "web/store_offer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/store_backend.h"

/* An offer's columns, then the reader's seat in its game and that seat's token (NULL
 * until accepted), and the poster's rating (NULL before his first rated game). */
#define OFFER_COLUMNS                                                                      \
    "o.id, o.token, o.from_user, o.from_name, o.to_user, o.to_name, o.game, o.players,"    \
    " o.body, o.rated, o.colour, o.rating_min, o.rating_max, o.days, o.state, o.created,"  \
    " o.seen, o.game_id, o.from_seat, s.seat, s.token, r.rating, r.rd"

/* The poster's rating in the offer's game, for those who choose among offers. */
#define OFFER_RATING " LEFT JOIN ratings r ON r.user_id=o.from_user AND r.game=o.game"

static void text(char *out, size_t cap, const char *v)
{
    snprintf(out, cap, "%s", v ? v : "");
}

static int64_t whole(const char *v)
{
    return v ? strtoll(v, NULL, 10) : 0;
}

static void read_offer(const StoreRows *r, int row, StoreOffer *o)
{
    memset(o, 0, sizeof *o);
    text(o->id, sizeof o->id, store_cell(r, row, 0));
    text(o->token, sizeof o->token, store_cell(r, row, 1));
    o->from_user = whole(store_cell(r, row, 2));
    text(o->from_name, sizeof o->from_name, store_cell(r, row, 3));
    o->to_user = whole(store_cell(r, row, 4));
    text(o->to_name, sizeof o->to_name, store_cell(r, row, 5));
    text(o->game, sizeof o->game, store_cell(r, row, 6));
    o->players = (int)whole(store_cell(r, row, 7));
    text(o->body, sizeof o->body, store_cell(r, row, 8));
    o->rated = whole(store_cell(r, row, 9)) != 0;
    o->colour = (int)whole(store_cell(r, row, 10));
    o->rating_min = (int)whole(store_cell(r, row, 11));
    o->rating_max = (int)whole(store_cell(r, row, 12));
    o->days = (int)whole(store_cell(r, row, 13));
    text(o->state, sizeof o->state, store_cell(r, row, 14));
    o->created = whole(store_cell(r, row, 15));
    o->seen = whole(store_cell(r, row, 16));
    text(o->game_id, sizeof o->game_id, store_cell(r, row, 17));
    o->from_seat = (int)whole(store_cell(r, row, 18));
    const char *seat = store_cell(r, row, 19);
    o->seat = seat ? atoi(seat) : -1;
    text(o->seat_token, sizeof o->seat_token, store_cell(r, row, 20));
    const char *rating = store_cell(r, row, 21), *rd = store_cell(r, row, 22);
    o->from_rating = rating ? strtod(rating, NULL) : STORE_RATING_DEFAULT;
    o->from_rd = rd ? strtod(rd, NULL) : STORE_RD_DEFAULT;
}

/* The two statements every read starts with: open offers past their time expire (their
 * `seen` then says when they closed, as store_offer_move's does), long-closed ones go. */
static void expiry(const OfferAges *ages, char (*p)[24], const char **params, StoreStmt *m)
{
    store_num(p[0], 24, ages->live_before);
    store_num(p[1], 24, ages->corr_before);
    store_num(p[2], 24, ages->now);
    store_num(p[3], 24, ages->purge_before);
    for (int i = 0; i < 4; i++)
        params[i] = p[i];
    m[0] = (StoreStmt){"UPDATE offers SET state='expired', seen=$3 WHERE state='open' AND"
                       " (days=0 AND seen<$1 OR days>0 AND seen<$2)", 3, params, NULL};
    m[1] = (StoreStmt){"DELETE FROM offers WHERE state<>'open' AND seen<$1", 1, params + 3,
                       NULL};
}

Status store_offer_add(Store *st, const StoreOffer *o, const OfferAges *ages, int cap,
                       ErrBuf *err)
{
    char from[24], to[24], players[16], rated[4], colour[16], lo[16], hi[16], days[16],
        at[24], most[16];
    store_num(from, sizeof from, o->from_user);
    store_num(to, sizeof to, o->to_user);
    store_num(players, sizeof players, o->players);
    store_num(rated, sizeof rated, o->rated);
    store_num(colour, sizeof colour, o->colour);
    store_num(lo, sizeof lo, o->rating_min);
    store_num(hi, sizeof hi, o->rating_max);
    store_num(days, sizeof days, o->days);
    store_num(at, sizeof at, o->created);
    store_num(most, sizeof most, cap);
    char cut[4][24];
    const char *cp[4];
    StoreStmt m[4];
    expiry(ages, cut, cp, m);
    const char *q[] = {o->from_addr, most};
    // A row only while the address is under its cap: none fails the transaction. The cap
    // is cast, since SQLite finds any number less than a text.
    m[2] = (StoreStmt){"SELECT 1 WHERE (SELECT COUNT(*) FROM offers WHERE from_addr=$1 AND"
                       " state='open') < CAST($2 AS INTEGER)", 2, q, "too many open offers"};
    const char *p[] = {o->id, o->token, o->from_user ? from : NULL,
                       o->from_user ? o->from_name : NULL, o->to_user ? to : NULL,
                       o->to_user ? o->to_name : NULL, o->game, players, o->body, rated, colour,
                       lo, hi, days, at, o->from_addr};
    m[3] = (StoreStmt){"INSERT INTO offers(id, token, from_user, from_name, to_user, to_name,"
                       " game, players, body, rated, colour, rating_min, rating_max, days,"
                       " state, created, seen, from_addr) VALUES($1, $2, $3, $4, $5, $6, $7,"
                       " $8, $9, $10, $11, $12, $13, $14, 'open', $15, $15, $16)", 16, p, NULL};
    const Status s = store_run(st, m, 4, NULL, err);
    return s == STATUS_NOT_FOUND ? STATUS_CONFLICT : s;
}

Status store_offer_get(Store *st, const char *id, const OfferAges *ages, StoreOffer *out,
                       ErrBuf *err)
{
    char cut[4][24];
    const char *cp[4];
    StoreStmt m[3];
    expiry(ages, cut, cp, m);
    const char *p[] = {id};
    m[2] = (StoreStmt){"SELECT " OFFER_COLUMNS " FROM offers o" OFFER_RATING " LEFT JOIN seats s"
                       " ON s.game_id=o.game_id AND s.seat=o.from_seat WHERE o.id=$1", 1, p,
                       "no such seek or challenge"};
    StoreRows r;
    const Status s = store_run(st, m, 3, &r, err);
    if (s == STATUS_OK) {
        read_offer(&r, 0, out);
        store_rows_free(&r);
    }
    return s;
}

Status store_offer_list(Store *st, int64_t user, const OfferAges *ages, StoreOffer *out,
                        int cap, int *n, ErrBuf *err)
{
    *n = 0;
    char cut[4][24], u[24], c[16];
    const char *cp[4];
    StoreStmt m[3];
    expiry(ages, cut, cp, m);
    store_num(u, sizeof u, user);
    store_num(c, sizeof c, cap);
    const char *seeks[] = {c}, *mine[] = {u, c};
    // An open seek has no game: no seat joins it.
    m[2] = user == 0 ? (StoreStmt){"SELECT " OFFER_COLUMNS " FROM offers o" OFFER_RATING " LEFT JOIN seats s"
                                   " ON s.game_id=o.game_id WHERE o.to_user IS NULL AND"
                                   " o.state='open' ORDER BY o.created, o.id LIMIT $1", 1,
                                   seeks, NULL}
                     : (StoreStmt){"SELECT " OFFER_COLUMNS " FROM offers o" OFFER_RATING " LEFT JOIN seats s"
                                   " ON s.game_id=o.game_id AND s.user_id=$1"
                                   " WHERE o.to_user=$1 OR (o.from_user=$1 AND"
                                   " o.to_user IS NOT NULL)"
                                   " ORDER BY o.created DESC, o.id LIMIT $2", 2, mine, NULL};
    StoreRows r;
    const Status s = store_run(st, m, 3, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++)
        read_offer(&r, i, &out[(*n)++]);
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_offer_seen(Store *st, const char *id, int64_t user, int64_t now, ErrBuf *err)
{
    char u[24], at[24];
    store_num(u, sizeof u, user);
    store_num(at, sizeof at, now);
    const char *p[] = {id ? id : "", at, u};
    const StoreStmt m = {id ? "UPDATE offers SET seen=$2 WHERE id=$1 AND state='open'"
                            : "UPDATE offers SET seen=$2 WHERE from_user=$3 AND state='open'"
                              " AND $1=''",
                         3, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_offer_move(Store *st, const char *id, const char *from, const char *to,
                        int64_t now, ErrBuf *err)
{
    char at[24];
    store_num(at, sizeof at, now);
    const char *p[] = {id, from, to, at};
    const StoreStmt m = {"UPDATE offers SET state=$3, seen=$4 WHERE id=$1 AND state=$2"
                         " RETURNING id", 4, p, "the seek or challenge is no longer open"};
    const Status s = store_run(st, &m, 1, NULL, err);
    return s == STATUS_NOT_FOUND ? STATUS_CONFLICT : s;
}

Status store_offer_started(Store *st, const char *id, const char *game_id, int from_seat,
                           ErrBuf *err)
{
    char seat[16];
    store_num(seat, sizeof seat, from_seat);
    const char *p[] = {id, game_id, seat};
    const StoreStmt m = {"UPDATE offers SET game_id=$2, from_seat=$3 WHERE id=$1", 3, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}
