/*
 * store_offer.h - offers of a game in the store (schema step 9): seeks, open to anyone in
 * the lobby, and challenges, to one named account. An offer keeps the game as POST
 * /api/games reads it, who made it, its terms (rated, colour, rating range), and its
 * state: open until accepted, declined, cancelled or expired; an accepted one names the
 * game it made. One table for both, so that both expire and are taken the same way, in
 * SQL both backends read (store_run), shared by every process of a PostgreSQL store.
 */
#ifndef CROWN_WEB_STORE_OFFER_H
#define CROWN_WEB_STORE_OFFER_H

#include <stdbool.h>
#include <stdint.h>

#include "web/credential.h"
#include "web/secret.h"
#include "web/store.h"
#include "web/store_account.h"

enum {
    OFFER_BODY_CAP = 2048, /* the game's creation body as JSON text */
    OFFER_STATE_CAP = 16,
};

/* The offers' table, schema step 9 of both backends (BIGINT is SQLite's INTEGER too).
 * body is the game as POST /api/games reads it; seen is when the poster was last seen,
 * for expiry, or when the offer closed; game_id and from_seat the game an acceptance
 * made; from_addr the poster's address, whose open offers are counted. */
#define STORE_OFFER_SCHEMA                                                                 \
    "CREATE TABLE offers(id TEXT PRIMARY KEY, token TEXT NOT NULL,"                        \
    " from_user BIGINT REFERENCES users(id), from_name TEXT,"                              \
    " to_user BIGINT REFERENCES users(id), to_name TEXT, game TEXT NOT NULL,"              \
    " players INTEGER NOT NULL, body TEXT NOT NULL, rated INTEGER NOT NULL,"               \
    " colour INTEGER NOT NULL, rating_min INTEGER NOT NULL, rating_max INTEGER NOT NULL,"  \
    " days INTEGER NOT NULL, state TEXT NOT NULL, created BIGINT NOT NULL,"                \
    " seen BIGINT NOT NULL, game_id TEXT, from_seat INTEGER, from_addr TEXT NOT NULL);"    \
    "CREATE INDEX offers_open ON offers(state, seen);"                                     \
    "CREATE INDEX offers_addr ON offers(from_addr) WHERE state='open';"                    \
    "CREATE INDEX offers_to ON offers(to_user) WHERE to_user IS NOT NULL;"                 \
    "CREATE INDEX offers_from ON offers(from_user) WHERE from_user IS NOT NULL;"

typedef struct StoreOffer {
    char id[SECRET_ID_LEN + 1];
    char token[SECRET_TOKEN_LEN + 1]; /* the poster's proof (a seek's anonymous poster) */
    int64_t from_user;                /* 0: an anonymous poster */
    char from_name[CREDENTIAL_NAME_MAX + 1];
    int64_t to_user;                  /* 0: a seek */
    char to_name[CREDENTIAL_NAME_MAX + 1];
    char game[64];
    int players;
    char body[OFFER_BODY_CAP];
    bool rated;
    int colour;                       /* the poster's seat, -1: drawn */
    int rating_min, rating_max;       /* the acceptor's rating in the game; 0, 0: any */
    int days;                         /* correspondence: days per move; 0: live or none */
    char state[OFFER_STATE_CAP];      /* open, accepted, declined, cancelled, expired */
    int64_t created, seen;            /* seconds since 1970 */
    char game_id[SECRET_ID_LEN + 1];  /* "" until accepted */
    int from_seat;                    /* the poster's seat in game_id */
    char from_addr[64];               /* the poster's address (written, not read back) */
    /* Read only: the reader's seat in game_id (the poster's for store_offer_get, the
     * account's for store_offer_list) and its token; -1 and "" for none. */
    int seat;
    char seat_token[SECRET_TOKEN_LEN + 1];
    /* Read only: the poster's rating in the game and its deviation (the defaults before
     * his first rated game, and for an anonymous poster). */
    double from_rating, from_rd;
} StoreOffer;

/* When open offers expire and old ones go (seconds since 1970): an open offer whose
 * poster was last seen before live_before (days 0) or corr_before (days > 0) expires
 * `now`; one closed (accepted, declined, cancelled, expired) before purge_before is
 * deleted. */
typedef struct OfferAges {
    int64_t live_before, corr_before, purge_before, now;
} OfferAges;

/* Stores a new open offer, unless its poster's address holds `cap` open ones already
 * (after expiring by ages): STATUS_CONFLICT then. */
Status store_offer_add(Store *st, const StoreOffer *o, const OfferAges *ages, int cap,
                       ErrBuf *err);
/* Offer id (after expiring by ages); STATUS_NOT_FOUND when there is none. */
Status store_offer_get(Store *st, const char *id, const OfferAges *ages, StoreOffer *out,
                       ErrBuf *err);
/* The open seeks, oldest first (user 0), or the challenges to and from account `user`,
 * newest first, up to cap (after expiring by ages). */
Status store_offer_list(Store *st, int64_t user, const OfferAges *ages, StoreOffer *out,
                        int cap, int *n, ErrBuf *err);
/* The poster is still there: his open offer id (or, with id NULL, every open offer of
 * account user) is seen at `now`. */
Status store_offer_seen(Store *st, const char *id, int64_t user, int64_t now, ErrBuf *err);
/* Moves offer id from state `from` to `to` (one taker wins a race); STATUS_CONFLICT when
 * it is no longer in `from`. */
Status store_offer_move(Store *st, const char *id, const char *from, const char *to,
                        int64_t now, ErrBuf *err);
/* An accepted offer's game and the poster's seat in it. */
Status store_offer_started(Store *st, const char *id, const char *game_id, int from_seat,
                           ErrBuf *err);

#endif
