/*
 * mcts.h - Monte Carlo tree search (UCT) for any number of players, with chance and,
 * for hidden-information games, determinization (single-observer ISMCTS).
 *
 * An Mcts object owns a node arena that grows by doubling up to a memory cap and is
 * reused by every search, so iterations allocate nothing once it has grown. It is not
 * thread-safe; only the stop flag may be set from another thread. Returns are assumed
 * to lie in [-1, 1] (win 1, loss -1 for two players; games of more players or with
 * scores normalise theirs) and are scaled to [0, 1] for the UCT formula.
 */
#ifndef CROWN_SEARCH_MCTS_H
#define CROWN_SEARCH_MCTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/game.h"
#include "core/mem.h"
#include "core/rng.h"
#include "core/status.h"
#include "search/limits.h"

enum {
    MCTS_DEFAULT_MAX_BYTES = 256u << 20,
};

typedef struct MctsConfig {
    double exploration; /* C of UCT, on returns scaled to [0, 1] */
    size_t max_bytes;   /* the node arena never grows past this; 0 = MCTS_DEFAULT_MAX_BYTES */
    /* Judge new nodes and finished games by ops->guided_playout when the game has one
     * (its policy and its values) instead of uniform playouts and returns(). */
    bool guided;
    /* Root children of equal visits and mean: drawn with the search's Rng rather than
     * the first expanded. */
    bool random_ties;
    const Mem *mem; /* where its tree comes from (NULL: the C library); outlives it */
} MctsConfig;

/* Plain UCT: random playouts (ops->playout when the game has one), no evaluation,
 * C = sqrt(2), the default memory cap. This is what the "mcts" and "uct" agents use. */
void mcts_config_uct(MctsConfig *cfg);
/* UCT as above with the game's guided playouts where it has them: what the "ai" agent
 * uses for games alpha-beta cannot play. Equal to plain UCT for other games. */
void mcts_config_guided(MctsConfig *cfg);

typedef struct Mcts Mcts;

/* Creates a searcher for g (which must outlive it). cfg may be NULL for plain UCT.
 * Any game can be searched; one with chance events must have chance_outcomes. On
 * error *out is NULL. */
Status mcts_new(const Game *g, const MctsConfig *cfg, Mcts **out, ErrBuf *err);
void mcts_free(Mcts *m);

/* Changes the memory cap of the arena for the next searches (0 = the default). */
void mcts_set_max_bytes(Mcts *m, size_t bytes);

/* Searches s, where a player (not chance) is to move and the game is not over, with
 * limits->nodes as the number of iterations and limits->movetime_ms as a time cap (at
 * least one iteration runs; with neither limit it runs until *stop is set). Each
 * iteration copies s; when the game lacks GAME_PERFECT_INFO and has a determinize hook,
 * the copy is first determinized for the player to move, and the descent considers only
 * the children legal in that sample, chosen by UCT over availability counts (SO-ISMCTS).
 * Chance events inside the tree are sampled, not stored (open loop). When the arena is
 * full the tree stops growing but iterations go on. The answer is the most visited root
 * child (ties: the better mean, then the earlier expanded or, with random_ties, one
 * drawn with rng), always a legal move of s;
 * out->value is the mean return of the player to move over all iterations (of the
 * guided values when the config is guided and the game has them).
 * Deterministic given the Rng state and the limits, unless movetime_ms or stop
 * intervene. s is not modified. */
void mcts_search(Mcts *m, const GameState *s, const SearchLimits *limits, Rng *rng,
                 atomic_bool *stop, SearchResult *out);

#endif
