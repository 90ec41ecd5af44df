/*
 * nnue_stack.h - a search's evaluation by network, kept up to date as the search moves:
 * one accumulator per ply of the line, each remembering the features it was computed
 * for. A position is evaluated from the accumulator of the ply above (its parent, as a
 * depth-first search visits them) or, failing that, of its own ply (a sibling), by
 * adding the features that appeared and removing those that went: a move changes a few
 * of them, so the first layer costs a few columns instead of all of them. Stockfish's
 * refresh cache does the same by diffing a stored board against the new one; here the
 * game's sorted feature lists are the board, so any game with the hook gets it and no
 * game's make or unmake knows about networks.
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

/* The value of s, `ply` actions below the search's root, for the player to move; the
 * same as nnue_evaluate, whatever was evaluated before. */
int nnue_stack_evaluate(NnueStack *st, const GameState *s, int ply);

/* Accumulators (one per perspective and position) computed since creation: from
 * scratch, and in all. */
void nnue_stack_counts(const NnueStack *st, uint64_t *refreshes, uint64_t *evaluations);

#endif
