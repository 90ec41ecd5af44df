/*
 * solution.h - a played game of King's Valley or Retrieve the King against its solved
 * table: each ply's value for the side to move, and the moves where the theoretical
 * result changed hands (a win given away, a draw turned into a loss).
 *
 * Values are those of the real game: a win or loss that needs more plies than the
 * max-plies limit leaves counts as a draw, so a game drawn at the limit has no mistake
 * in it, while a winner who repeats into a threefold-repetition draw does.
 */
#ifndef CROWN_PLAY_SOLUTION_H
#define CROWN_PLAY_SOLUTION_H

#include <stdbool.h>

#include "core/record.h"
#include "solve/kvs_table.h"

typedef struct SolutionPly {
    int mover;       /* the seat that played this ply's move */
    bool known;      /* the table holds the position before the move */
    KvsValue before; /* its value for the mover, within the plies left */
    bool after_known;
    KvsValue after;  /* the value for the same mover once the move is played */
    bool changed;    /* the move made the mover's result worse: win to draw or loss, ... */
} SolutionPly;

/* One entry per move of r into out[0..r->count). Positions the table does not hold
 * (other soldier counts) are left unknown, and never count as a change. */
Status solution_of_record(const KvsTable *t, const GameRecord *r, SolutionPly *out,
                          ErrBuf *err);

#endif
