/*
 * greedy.h - a baseline player for games with a score: it takes the action whose
 * immediate outcome scores best for the player to move.
 *
 * "Immediate" is the rest of the player's own turn: the searcher follows every sequence
 * of consecutive actions by the player to move (a turn made of several actions, such as
 * the phases of a tile game), stopping where chance or another player acts or the game
 * ends, and scores the state reached with GameOps.score for that player. Each first
 * action is worth the best score of its sequences; among equally good first actions it
 * picks one at random. A node budget bounds the look-ahead: beyond it the state reached
 * so far is scored as it is. It needs only core/game.h: any game with a score hook.
 */
#ifndef CROWN_SEARCH_GREEDY_H
#define CROWN_SEARCH_GREEDY_H

#include "core/game.h"
#include "core/mem.h"
#include "core/rng.h"
#include "core/status.h"
#include "search/limits.h"

enum {
    GREEDY_DEFAULT_NODES = 200000, /* states visited per decision at most */
    GREEDY_MAX_DEPTH = 64,         /* consecutive actions followed at most */
};

typedef struct Greedy Greedy;

/* STATUS_OK if g can be played greedily (it has a score hook), else STATUS_UNSUPPORTED
 * with a message. err may be NULL. */
Status greedy_check_game(const Game *g, ErrBuf *err);

/* Creates a greedy player for g (which must outlive it). On error *out is NULL. */
Status greedy_new(const Game *g, const Mem *mem, Greedy **out, ErrBuf *err);
void greedy_free(Greedy *gr);

/* Chooses for the player to move in s (a player, not chance; the game not over); s is
 * not modified. limits->nodes, when nonzero, replaces GREEDY_DEFAULT_NODES. out->best is
 * a legal move, out->value the best score found, out->nodes the states visited, out->pv
 * the best sequence. Deterministic given the Rng state. */
void greedy_search(Greedy *gr, const GameState *s, const SearchLimits *limits, Rng *rng,
                   SearchResult *out);

#endif
