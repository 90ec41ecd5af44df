/*
 * kvs_retro.h - the retrograde solver of 5x5 King's Valley: every position's value for
 * the side to move (win or loss in so many plies, or draw) under perfect play.
 *
 * Terminal positions first (a locked king loses, a king that can slide onto the Valley
 * wins in 1, a side without a move loses or draws), then ply by ply backwards: the
 * predecessors of positions lost in n are won in n + 1; each predecessor of a position
 * won in n loses one of its moves not yet known to lose, and once none is left it is
 * lost in n + 1. Undecided positions at the end are draws. Work is split over threads by
 * index ranges with atomic byte updates; a checkpoint file after each ply lets a killed
 * solve resume.
 */
#ifndef CROWN_SOLVE_KVS_RETRO_H
#define CROWN_SOLVE_KVS_RETRO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "solve/kvs_index.h"

/* Values in a finished table: 0 draw (or an unused entry), else plies to the end + 1;
 * an odd number of plies is a win for the side to move, an even one a loss. A solve
 * whose longest result needs more than a byte minus the largest move count (223 plies in
 * the game) stops with an error. */
enum { KVS_DRAW = 0 };

typedef struct KvsRules {
    int soldiers;           /* per side: 4 for the game, fewer for tests */
    bool locked_king_loses; /* the rule option of that name */
    bool no_move_draws;     /* no-move=draw: a side without moves draws instead of losing */
} KvsRules;

typedef struct KvsSolveOptions {
    KvsRules rules;
    int threads;             /* 1 or more */
    const char *checkpoint;  /* file for the working table after each ply, or NULL */
    int checkpoint_seconds;  /* at least this long between two checkpoints (0: every ply) */
    bool progress;           /* a progress bar on stderr */
    int stop_after;          /* > 0: checkpoint and stop (STATUS_CONFLICT) after that many
                                backward plies, as a kill would; for the tests */
} KvsSolveOptions;

typedef struct KvsSolveStats {
    uint64_t won, lost, drawn, unused; /* positions with the side to move winning, ... */
    int longest;                       /* the most plies of any decided position */
    uint64_t longest_index;            /* the first such position */
    int passes;                        /* backward plies run */
    double seconds;                    /* wall time of this run (not of resumed parts) */
    bool resumed;                      /* a checkpoint was taken up */
} KvsSolveStats;

/* Solves the game; on success *table is a malloc'd array of ix->size values (above) for
 * the caller to free. */
Status kvs_solve(const KvsIndex *ix, const KvsSolveOptions *opt, uint8_t **table,
                 KvsSolveStats *stats, ErrBuf *err);

/* Counts the values of a finished table into stats (all but seconds and passes). */
void kvs_table_stats(const KvsIndex *ix, const uint8_t *table, KvsSolveStats *stats);

#endif
