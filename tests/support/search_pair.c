/*
 * search_pair.c - two fresh alpha-beta searches of one position compared by value, and
 * the second one's move checked against the first game's legal moves (search_pair.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/game.h"
#include "search/alphabeta.h"
#include "search_pair.h"

void search_pair_expect_same(const Game *a, const Game *b, const GameState *s, int depth,
                             size_t tt_bytes)
{
    // Without reductions: they depend on the order of equally ranked moves, which the
    // two generators may list differently.
    const AlphaBetaConfig cfg = {.tt_bytes = tt_bytes, .no_reductions = true};
    const SearchLimits limits = {.depth = depth};
    AlphaBeta *ab_a, *ab_b;
    ErrBuf err;
    if (alphabeta_new(a, &cfg, &ab_a, &err) != STATUS_OK)
        fail_msg("alphabeta_new: %s", err.msg);
    if (alphabeta_new(b, &cfg, &ab_b, &err) != STATUS_OK)
        fail_msg("alphabeta_new: %s", err.msg);
    SearchResult ra, rb;
    alphabeta_search(ab_a, s, &limits, NULL, &ra);
    alphabeta_search(ab_b, s, &limits, NULL, &rb);
    assert_int_equal(ra.score, rb.score);
    MoveList legal;
    const int n = a->ops->gen_moves(a, s, &legal);
    bool found = false;
    for (int i = 0; i < n; i++)
        found |= legal.moves[i] == rb.best;
    assert_true(found);
    alphabeta_free(ab_a);
    alphabeta_free(ab_b);
}
