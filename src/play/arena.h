/*
 * arena.h - an arena tournament's scores (docs/TOURNAMENTS.md, "Arena"): in a fixed time
 * players are paired again as soon as they are free, and the table is kept in arena
 * points, as lichess keeps its arenas: a win 2, a draw 1, a loss 0, doubled while a
 * player is "on fire" after two wins in a row. Places go by points, then performance
 * (game points per game), then seed.
 */
#ifndef CROWN_PLAY_ARENA_H
#define CROWN_PLAY_ARENA_H

#include <stdbool.h>

#include "play/pairing.h"

typedef struct ArenaScore {
    int player;
    int score; /* arena points */
    int games, wins, draws, losses;
    double performance; /* game points per game, 0 to 1; 0 before any game */
    bool on_fire;       /* the last two games were wins: the next one counts double */
    int place;          /* 1-based after arena_sort; equal points and performance share */
} ArenaScore;

/* The table of players 0 .. players-1 after games[0..n), in the order they ended, into
 * out[0..players) (out[i] is player i). Byes are passed over: an arena has none.
 * Refuses what pairing_check_results refuses, with out untouched. */
Status arena_scores(int players, const PairingResult *games, int n, ArenaScore *out,
                    ErrBuf *err);

/* Sorts the table by points, then performance (higher first), then seed, and sets each
 * place. */
void arena_sort(ArenaScore *table, int players);

#endif
