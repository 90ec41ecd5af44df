/*
 * limits.h - what every search is given (SearchLimits) and what it gives back
 * (SearchResult), plus the score scale shared by alpha-beta, the agent and its callers.
 *
 * Scores are integers in centi-units from the view of the player to move. A proven
 * result is SCORE_WIN - n (win in n actions) or -SCORE_WIN + n (loss in n actions);
 * every heuristic score lies strictly inside (-SCORE_WIN_BOUND, SCORE_WIN_BOUND).
 */
#ifndef CROWN_SEARCH_LIMITS_H
#define CROWN_SEARCH_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"

enum {
    SEARCH_MAX_PLY = 128,                /* deepest line alpha-beta follows, in actions */
    SEARCH_PV_CAP = 64,                  /* moves of a principal variation kept in a SearchResult */
    SCORE_WIN = 1000000,                 /* a win right now; a win in n actions is SCORE_WIN - n */
    SCORE_WIN_BOUND = SCORE_WIN - 10000, /* |score| >= this: a proven win or loss */
    SCORE_EVAL_MAX = SCORE_WIN_BOUND - 1, /* evaluations are clamped to +-this */
    SCORE_INF = SCORE_WIN + 1,            /* outside every real score */
};

typedef struct SearchProgress SearchProgress;

/* When a search must stop; the first limit reached wins. In a SearchLimits given to a
 * search 0 (or anything negative) means "no limit of this kind"; with no limit at all a
 * search runs until it is stopped (or, for alpha-beta, until SEARCH_MAX_PLY). */
typedef struct SearchLimits {
    int depth;           /* alpha-beta: max depth in actions; 0 = none */
    uint64_t nodes;      /* alpha-beta: max nodes; MCTS: max iterations (playouts); 0 = none */
    int64_t movetime_ms; /* wall time per move; 0 = none */
    /* Only these root moves are searched (UCI's searchmoves), when one of them is
     * legal; NULL or 0: every move. Not owned; it must outlive the search. */
    const Move *root_moves;
    int root_move_count;
    const SearchProgress *progress; /* NULL: silent */
} SearchLimits;

typedef struct SearchResult {
    Move best;      /* always a legal move of the searched position */
    bool has_score; /* alpha-beta gives a score */
    int score;    /* centi-units from the mover's view; SCORE_WIN - n for a win in n actions etc. */
    double value; /* MCTS: mean return of the mover at the root in [-1, 1] */
    Move pv[SEARCH_PV_CAP];
    int pv_len;
    uint64_t nodes; /* alpha-beta nodes, or MCTS iterations */
    int depth;      /* completed iteration depth (alpha-beta) or max tree depth (MCTS) */
    int64_t time_ms;
} SearchResult;

/* What a search tells while it runs, for analysis front ends (UCI's `info` lines). The
 * calls come from the searching thread; none changes the search or its node counts. */
struct SearchProgress {
    /* After each completed iteration (alpha-beta): the answer so far, with the deepest
     * ply reached (seldepth) and the permille of the transposition table in use. */
    void (*iteration)(void *ctx, const SearchResult *so_far, int seldepth, int hashfull);
    /* As each root move's search starts, once the search has run a second (UCI's
     * currmove): the move and its number, from 1, in this iteration's order. */
    void (*root_move)(void *ctx, Move move, int number, int depth);
    void *ctx;
};

/* Keeps in `list` only the moves `limits` restricts the root to, when at least one of
 * them is in it (a restriction naming no legal move is ignored). Returns the count. */
int search_keep_root_moves(const SearchLimits *limits, MoveList *list);

/* True if `score` is a proven win or loss rather than a heuristic value. */
static inline bool score_is_decisive(int score)
{
    return score >= SCORE_WIN_BOUND || score <= -SCORE_WIN_BOUND;
}

#endif
