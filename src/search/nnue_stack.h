/*
 * nnue_stack.h - a search's evaluation by network, kept up to date as the search moves:
 * one accumulator per ply of the line being searched. Before each move the search
 * pushes (nnue_stack_push), which keeps a snapshot of the position the move leaves
 * (the game's nnue_snapshot: its pieces' bitboards, say) and marks the ply below as not
 * yet summed. An evaluation then brings the accumulator down from the nearest ply above
 * that has one, adding and removing only the features each move changed (the game's
 * nnue_delta of two snapshots), as Stockfish's do_move records its dirty pieces and
 * updates lazily: a move changes a few features, so a ply costs a few columns, and
 * nodes that are never evaluated (most interior ones) cost only the snapshot. A game
 * without those hooks has its accumulators summed afresh at each evaluation, which for
 * these small first layers costs less than comparing feature lists would.
 */
#ifndef CROWN_SEARCH_NNUE_STACK_H
#define CROWN_SEARCH_NNUE_STACK_H

#include <stdint.h>

#include "core/game.h"
#include "core/mem.h"
#include "core/status.h"
#include "search/nnue.h"

typedef struct NnueStack NnueStack;

/* For searches of g (which must have the features hook) with net; both outlive it. */
Status nnue_stack_new(const Game *g, const Nnue *net, const Mem *mem, NnueStack **out, ErrBuf *err);
void nnue_stack_free(NnueStack *st);

/* Forgets every ply: the next search starts from another root. */
void nnue_stack_reset(NnueStack *st);

/* Before a move (or a pass) is made in s, `child_ply - 1` actions below the root,
 * whose result will be evaluated at child_ply. */
void nnue_stack_push(NnueStack *st, const GameState *s, int child_ply);

/* The value of s, `ply` actions below the search's root, for the player to move; the
 * same as nnue_evaluate, provided every action on the way from the root since the last
 * reset was pushed. */
int nnue_stack_evaluate(NnueStack *st, const GameState *s, int ply);

/* Accumulators (one per perspective and position) computed since creation: from
 * scratch, and in all. */
void nnue_stack_counts(const NnueStack *st, uint64_t *refreshes, uint64_t *evaluations);

#endif
