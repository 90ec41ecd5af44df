/*
 * match_runner.h - what `crown match` and `crown sprt` share: one game of a match played
 * from its start between the seats of the match (by play/self_play.c, refereed by the
 * turn runner), and its games played on play/pool.c's threads until told to stop.
 * Game i seats the specs rotated by i and starts from start group i / players, so the
 * games of a group play one start with every seating.
 */
#ifndef CROWN_CLI_MATCH_RUNNER_H
#define CROWN_CLI_MATCH_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/engine_client.h"
#include "play/clock.h"
#include "cli/match_starts.h"
#include "core/game.h"
#include "core/status.h"
#include "play/seats.h"

typedef struct MatchGame {
    double returns[MAX_PLAYERS]; /* per spec (entry of --players), not per seat */
    double score[MAX_PLAYERS];   /* per spec: ops->score at the end, when the game has it */
    int actions;
    uint64_t moves_hash; /* the start and every action: equal games, equal hashes */
    char *record_text;   /* when the runner keeps records */
    bool failed;
    char error[ERRBUF_LEN];
    char forfeit[400]; /* the result line when a forfeit ended the game, else empty */
} MatchGame;

typedef struct MatchRunner {
    const Game *game;
    const Seats *specs; /* seat k of game i is specs->seat[(k + i) % n] */
    const MatchStarts *starts;
    uint64_t seed;    /* the match seed: every game's agents and chance derive from it */
    bool keep_record; /* fill MatchGame.record_text */
    SearchLimits limits; /* the command line's, for outside engines' go */
    PlayClock tc;        /* the clock every game starts with (play_clock_on), or off */
    /* Per spec: the options of its outside engine (specs->seat[k].outside). */
    const EngineOption *engine_options[MAX_PLAYERS];
    int n_engine_options[MAX_PLAYERS];
} MatchRunner;

/* Plays game `index` to its end, or a forfeit, into *out (zeroed first); a failure is
 * recorded in out->failed and out->error, never aborts. clients[k] is the calling
 * thread's outside engine of spec k (engine_client_init'ed), used when that spec is
 * one; clients may be NULL when no spec is. Pointers, so that a caller whose threads
 * keep one engine per entrant (crown tournament) hands each game the two it needs. */
void match_play_game(const MatchRunner *r, int index, EngineClient *const *clients,
                     MatchGame *out);

/* Called under the pool's lock as each game ends, in the order they end; returns false
 * to start no more games (those running still finish and are reported). */
typedef bool MatchDone(void *ctx, int index, const MatchGame *game);

/* Plays games 0, 1, 2, ... into games[0..max_games) on `jobs` threads (1..64) until
 * max_games have started or `done` returned false; returns how many started. */
int match_run(const MatchRunner *r, MatchGame *games, int max_games, int jobs, MatchDone *done,
              void *ctx);

/* The number of different games among the finished ones of games[0..n). */
int match_distinct_games(const MatchGame *games, int n);

#endif
