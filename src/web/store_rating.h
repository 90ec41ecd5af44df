/*
 * store_rating.h - ratings in the store (beside store_account.h): the two accounts of a
 * rated game read, the game's result written once (both ratings and a history row each,
 * in one transaction that refuses a game rated already and a rating another game moved
 * meanwhile), an account's history, and the leaderboard of a game. The arithmetic is
 * not here (play/glicko2.h, session_rating.c); every call is one store_run transaction, the
 * same SQL for SQLite and PostgreSQL, so processes sharing a database rate each game once.
 */
#ifndef CROWN_WEB_STORE_RATING_H
#define CROWN_WEB_STORE_RATING_H

#include <stdint.h>

#include "web/store_account.h"

/* One account's rating in one game as stored: the defaults (1500, 350, 0.06, no games,
 * updated 0) when it has none yet. */
typedef struct StoreRated {
    int64_t user;
    double rating, rd, volatility;
    int games;
    int64_t updated; /* when its last rated game ended (seconds since 1970), 0: never */
} StoreRated;

/* One game's rating of an account, as stored at its last rated game. */
typedef struct StoreRating {
    char game[64];
    double rating, rd, volatility;
    int games;
    int64_t updated; /* when that game ended (seconds since 1970), 0: never */
} StoreRating;
/* The account's ratings, one per game it has played rated, up to cap. */
Status store_user_ratings(Store *st, int64_t user, StoreRating *out, int cap, int *n,
                          ErrBuf *err);

/* The ratings in `game` of the accounts called names[0] and names[1]: STATUS_NOT_FOUND
 * when either has no account (deleted, say). */
Status store_rating_pair(Store *st, const char *game, const char *const names[2],
                         StoreRated out[2], ErrBuf *err);

/* Writes a rated game's result in one transaction: after[i] (its games one more than
 * before[i]'s) with a history row each (score[i], the rating before and after, `at`).
 * STATUS_NOT_FOUND, changing nothing, when the game is rated already or either rating
 * is no longer `before` (another game ended meanwhile): the caller reads again. */
Status store_rating_write(Store *st, const char *game_id, const char *game,
                          const StoreRated before[2], const StoreRated after[2],
                          const double score[2], int64_t at, ErrBuf *err);

/* The same writes, made to go with the game's end in the game's own write
 * (StoreStamp.also), so that a game ends and is rated in one transaction: prepared
 * (malloc'd; NULL when out of memory), put on the stamp, freed after the write. A
 * refusal then refuses the end with STATUS_CONFLICT. */
typedef struct StoreRatingWrite StoreRatingWrite;
StoreRatingWrite *store_rating_prepare(const char *game_id, const char *game,
                                       const StoreRated before[2], const StoreRated after[2],
                                       const double score[2], int64_t at);
void store_rating_stamp(const StoreRatingWrite *w, StoreStamp *stamp);
void store_rating_free(StoreRatingWrite *w);

/* A rated game of an account as its history shows it. */
typedef struct StoreRatedGame {
    int64_t user;
    char game_id[SECRET_ID_LEN + 1];
    char game[64];
    char opponent[CREDENTIAL_NAME_MAX + 1]; /* "" for a deleted account */
    double score, rating_before, rating, rd;
    int64_t at;
} StoreRatedGame;

/* Game game_id as each of its rated accounts saw it (up to two rows); *n is 0 while the
 * game is not rated (yet). */
Status store_rating_of_game(Store *st, const char *game_id, StoreRatedGame out[2], int *n,
                            ErrBuf *err);

/* The account's rated games, newest first, up to cap. */
Status store_rating_history(Store *st, int64_t user, StoreRatedGame *out, int cap, int *n,
                            ErrBuf *err);

/* An account's wins, draws and losses in rated games, per game. */
typedef struct StoreRecord {
    char game[64];
    int wins, draws, losses;
} StoreRecord;

/* The account's record in each game it played rated, up to cap games. */
Status store_rating_records(Store *st, int64_t user, StoreRecord *out, int cap, int *n,
                            ErrBuf *err);

/* One line of a leaderboard. */
typedef struct StoreLeader {
    char name[CREDENTIAL_NAME_MAX + 1];
    double rating, rd, volatility;
    int games;
    int64_t updated; /* when its last rated game ended (seconds since 1970) */
} StoreLeader;

/* The accounts rated in `game` with a stored deviation under max_rd, best first, up to
 * cap (the deviation grows while a player is idle: the caller judges it at its time). */
Status store_leaderboard(Store *st, const char *game, double max_rd, StoreLeader *out,
                         int cap, int *n, ErrBuf *err);

#endif
