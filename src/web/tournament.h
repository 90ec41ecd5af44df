/*
 * tournament.h - tournaments in the web server (docs/TOURNAMENTS.md, "In the browser"):
 * round-robin, Swiss and arena events of a two-player game among people and AI seats. The
 * state lives in the store (store_tournament.h), so a tournament goes on across restarts
 * and whichever process sharing the store holds its lease pairs its next round: with the
 * play layer's pairings (play/pairing.h, play/swiss.h), each game made by the one game
 * creation of the sessions (session_create) and played like any other, the AI seats by
 * the AI workers; an arena pairs its free entrants again each step with the Swiss
 * module until its time is up, and scores them by play/arena.h. The housekeeping thread calls tournaments_tick about once a second;
 * the standings come from play/standings.h.
 */
#ifndef CROWN_WEB_TOURNAMENT_H
#define CROWN_WEB_TOURNAMENT_H

#include <jansson.h>

#include "play/arena.h"
#include "play/standings.h"
#include "web/config.h"
#include "web/store_tournament.h"

typedef struct Server Server;

enum {
    TOURNAMENT_MAX_PLAYERS = 64,
    TOURNAMENT_MAX_SWISS_ROUNDS = 20,
    TOURNAMENT_LEASE_MS = 30000, /* a pairing takes far less; a killed holder's runs out */
    TOURNAMENT_MIN_ARENA_S = 10,
    TOURNAMENT_MAX_ARENA_S = 3 * 3600,
    TOURNAMENT_KEEP_CANCELLED_S = 3600,
};

/* Tournaments an address may create an hour: a tournament makes many games, so a tenth
 * of the games it may create (--creates-per-hour), at least one. */
int tournament_creates_per_hour(const ServeConfig *cfg);

/* Checks a new tournament's game, rules (a JSON object of strings), clock (a request's
 * form, or NULL) and format, as its games will be made; the message says what is wrong. */
Status tournament_check(const StoreTour *t, const json_t *clock, ErrBuf *err);

/* Does what is due in tournament id now, under its lease: starts it when its time has
 * come (cancels it with fewer than two entrants), records the results of its games that
 * ended, and pairs the next round when the current one is over, or ends it after the
 * last. Nothing when another process holds the lease. */
Status tournament_advance(Server *srv, const char *id, ErrBuf *err);
/* tournament_advance for every tournament with work due (the housekeeping's call). */
void tournaments_tick(Server *srv);

/* Deletes the tournaments cancelled (by their creator, or for too few entrants at their
 * start) TOURNAMENT_KEEP_CANCELLED_S ago or more: long enough for their entrants to see
 * them cancelled. Finished ones stay, for review. */
void tournaments_sweep(Server *srv);

/* The rounds a tournament of `players` entrants plays (an arena: those paired so far). */
int tournament_rounds(const StoreTour *t, int players);
/* The standings after the games with results in games[0..n), sorted, with the format's
 * tie-breaks, into out[0..players). */
Status tournament_standings(const StoreTour *t, int players, const StoreTourGame *games, int n,
                            Standing *out, ErrBuf *err);

/* An arena's table after the games with results in games[0..n) (in the order paired),
 * sorted, into out[0..players). */
Status tournament_arena_standings(int players, const StoreTourGame *games, int n,
                                  ArenaScore *out, ErrBuf *err);

#endif
