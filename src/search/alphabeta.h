/*
 * alphabeta.h - negamax principal-variation search with iterative deepening for
 * two-player zero-sum games of perfect information without chance.
 *
 * One AlphaBeta object is one searcher: it owns its transposition table, ordering
 * tables (killers, history), per-ply move lists and undo records, so a search allocates
 * nothing. It is not thread-safe; only the stop flag may be set from another thread.
 */
#ifndef CROWN_SEARCH_ALPHABETA_H
#define CROWN_SEARCH_ALPHABETA_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/mem.h"
#include "core/status.h"
#include "search/limits.h"
#include "search/nnue.h"

enum {
    ALPHABETA_DEFAULT_TT_BYTES = 16u << 20,
};

typedef struct AlphaBetaConfig {
    size_t tt_bytes;     /* transposition table size; 0 = ALPHABETA_DEFAULT_TT_BYTES */
    int eval_noise;      /* >0: add a pseudo-random +-eval_noise to every evaluation */
    uint64_t noise_seed; /* which noise: the same seed gives the same noise per position */
    /* Variety: the root moves are tried in an order shuffled by variety_seed, and once
     * iterative deepening ends (not cut by a limit) the answer is drawn, by the seed
     * and the position, among the root moves whose value at the last completed depth
     * is within the game's variety_margin of the best, as one null-window search per
     * move, confirmed by a PV search where it passes, shows (only equal ones when the best is a proven win or loss, so a won or
     * lost value never changes). That test spends at most the nodes the search did. */
    bool variety;
    uint64_t variety_seed;
    /* Past the horizon, games that give evaluate_static (and noisy) are searched by
     * quiescence: only their noisy actions, standing pat on the static evaluation. This
     * turns it off: evaluate at the horizon, as for every other game. */
    bool no_quiescence;
    /* Late move reductions off: the search's value then no longer depends on the order
     * in which equally ranked moves come (tests comparing two move generators). */
    bool no_reductions;
    /* An evaluation network (search/nnue.h) in place of the game's evaluation, or NULL;
     * it outlives the searcher. */
    const Nnue *net;
    const Mem *mem; /* where its tables come from (NULL: the C library); outlives it */
} AlphaBetaConfig;

typedef struct AlphaBeta AlphaBeta;

/* Whether alpha-beta can play g: two players, GAME_ZERO_SUM and GAME_PERFECT_INFO,
 * no GAME_HAS_CHANCE, and an evaluate hook. STATUS_UNSUPPORTED with the reason if not. */
Status alphabeta_check_game(const Game *g, ErrBuf *err);

/* Creates a searcher for g (which must outlive it and pass alphabeta_check_game).
 * cfg may be NULL for the defaults. On error *out is NULL. */
Status alphabeta_new(const Game *g, const AlphaBetaConfig *cfg, AlphaBeta **out, ErrBuf *err);
void alphabeta_free(AlphaBeta *ab);

/* Forgets everything learnt (TT, killers, history): the next search behaves exactly
 * like one of a new searcher with the same configuration. */
void alphabeta_clear(AlphaBeta *ab);

/* The transposition table's size in bytes. */
size_t alphabeta_tt_bytes(const AlphaBeta *ab);

/* Replaces the transposition table by one of `bytes` (which also clears it). On error
 * the old table is kept. */
Status alphabeta_resize_tt(AlphaBeta *ab, size_t bytes, ErrBuf *err);

/* Searches s, where a player (not chance) is to move and the game is not over, within
 * `limits`. `stop`, if not NULL, is polled about every quarter millisecond; setting it makes
 * the search unwind and return its best so far. s is not modified. out->best is always
 * a legal move: depth 1 is completed even when the time is up at once (a node limit
 * still applies), and an iteration cut short only replaces the last completed one when
 * its first root moves were finished with an exact score. Deterministic given the
 * searcher's history, the configuration and the limits, unless movetime_ms or stop
 * intervene. With variety, out->best may be a root move other than the best found (the
 * score is still the best's, which it is within the margin of; its PV is that move
 * alone). */
void alphabeta_search(AlphaBeta *ab, const GameState *s, const SearchLimits *limits,
                      atomic_bool *stop, SearchResult *out);

#endif
