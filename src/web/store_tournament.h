/*
 * store_tournament.h - tournaments in the store, beside the games (store.h): a
 * tournament's settings and state, its entrants in the order they joined (their seeds),
 * and its boards round by round with each board's game and result. Each call is one
 * transaction of the store's generic runner (store_run), in SQL both backends read, so
 * that processes sharing PostgreSQL see one tournament, and a lease on its row lets only
 * one of them pair its rounds (web/tournament.h). Each change moves the tournament's
 * version on, for its event streams (web/tour_live.h).
 */
#ifndef CROWN_WEB_STORE_TOURNAMENT_H
#define CROWN_WEB_STORE_TOURNAMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "web/secret.h"
#include "web/store.h"

enum {
    STORE_TOUR_NAME_CAP = 64,
    STORE_TOUR_RULES_CAP = 1024, /* the rules as a JSON object */
    STORE_TOUR_CLOCK_CAP = 160,  /* the clock in gameclock's stored form, or "null" */
    STORE_TOUR_ENTRANT_NAME_CAP = 40,
};

/* A tournament's row. state: "open" (taking entrants), "running", "finished" or
 * "cancelled" (by its creator, or too few to play when it was due); round: the last
 * round paired (0-based), -1 before the first. */
typedef struct StoreTour {
    char id[SECRET_ID_LEN + 1];
    char name[STORE_TOUR_NAME_CAP];
    char game[64];
    char rules[STORE_TOUR_RULES_CAP];
    char clock[STORE_TOUR_CLOCK_CAP];
    char format[16]; /* "round-robin", "swiss" or "arena" */
    int rounds;      /* Swiss: rounds to play; round-robin: 0 (one cycle); arena: seconds */
    int max_players;
    int64_t starts;  /* when it begins by itself (seconds since 1970) */
    int64_t created;
    char state[16];
    int round;
    char creator[SECRET_TOKEN_LEN + 1]; /* the creator's secret token */
    int64_t creator_user;               /* the creator's account, 0: none */
    int players;                        /* entrants now (reads only) */
    uint64_t version;                   /* moved on by every change (reads only) */
} StoreTour;

/* An entrant: seed = place in the order of entry. player: "human" or an AI spec. */
typedef struct StoreEntrant {
    int entry;
    char player[STORE_PLAYER_LEN];
    char name[STORE_TOUR_ENTRANT_NAME_CAP];
    char token[SECRET_TOKEN_LEN + 1];
    int64_t user; /* account, 0: none */
} StoreEntrant;

/* A board of a round: white and black are seeds, black -1 for a bye; game_id "" for a
 * bye; result: white's points once done. */
typedef struct StoreTourGame {
    int round, board, white, black;
    char game_id[SECRET_ID_LEN + 1];
    bool done;
    double result;
} StoreTourGame;

Status store_tour_create(Store *st, const StoreTour *t, ErrBuf *err);
/* The tournament id; STATUS_NOT_FOUND "no such tournament" when unknown. */
Status store_tour_get(Store *st, const char *id, StoreTour *out, ErrBuf *err);
/* Up to cap tournaments after the first `offset` in the list's order: the unfinished
 * first (by start), then the latest ended. */
Status store_tour_list(Store *st, int offset, StoreTour *out, int cap, int *n, ErrBuf *err);
/* The entrants in order of entry (malloc'd into *out, *n of them). */
Status store_tour_entrants(Store *st, const char *id, StoreEntrant **out, int *n, ErrBuf *err);
/* The boards of every round paired, by round then board (malloc'd). */
Status store_tour_games(Store *st, const char *id, StoreTourGame **out, int *n, ErrBuf *err);

/* A new entrant while the tournament is open and not full: STATUS_NOT_FOUND when it is
 * neither; STATUS_CONFLICT when the account (user != 0) is in already. */
Status store_tour_join(Store *st, const char *id, const StoreEntrant *e, int *entry,
                       ErrBuf *err);
/* Removes entry `entry` while the tournament is open; STATUS_NOT_FOUND otherwise. */
Status store_tour_leave(Store *st, const char *id, int entry, ErrBuf *err);
/* Moves the start to `at` while the tournament is open (its creator starting it now). */
Status store_tour_set_start(Store *st, const char *id, int64_t at, ErrBuf *err);

/* Up to cap ids of tournaments with work due by `now` (open ones whose start has come,
 * running ones) whose lease is free at now_ms. */
Status store_tour_due(Store *st, int64_t now, int64_t now_ms, char (*ids)[SECRET_ID_LEN + 1],
                      int cap, int *n, ErrBuf *err);
/* Takes the tournament's lease until now_ms + lease_ms unless another holds it (*ok
 * false); store_tour_release gives it back. */
Status store_tour_claim(Store *st, const char *id, int64_t now_ms, int64_t lease_ms, bool *ok,
                        ErrBuf *err);
Status store_tour_release(Store *st, const char *id, ErrBuf *err);
/* Records round `round`'s boards (byes with their result) and makes it the current
 * round, running; STATUS_CONFLICT when the tournament's round is no longer round - 1
 * (paired already). */
Status store_tour_pair(Store *st, const char *id, int round, const StoreTourGame *boards,
                       int n, ErrBuf *err);
/* A board's result (white's points). */
Status store_tour_result(Store *st, const char *id, int round, int board, double white_points,
                         ErrBuf *err);
/* Cancels the tournament while it is open (its creator's call), its start moved to `now`
 * if later; STATUS_NOT_FOUND once it has started. */
Status store_tour_cancel(Store *st, const char *id, int64_t now, ErrBuf *err);
/* Deletes the cancelled tournaments (by their creator, or with too few entrants at their
 * start) whose start is before `before`, with their entrants. */
Status store_tour_sweep(Store *st, int64_t before, ErrBuf *err);
/* Ends the tournament: state "finished" or "cancelled". */
Status store_tour_end(Store *st, const char *id, const char *state, ErrBuf *err);

/* Every call above that changes a tournament moves its version on. This tells the other
 * processes sharing the store that tournament id is now at `version` (their StoreWatch's
 * tournament callback); nothing for a store only one process uses. */
Status store_tour_notify(Store *st, const char *id, uint64_t version, ErrBuf *err);

#endif
