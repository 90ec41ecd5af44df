/*
 * test_kv_features.c - the 7x7 King's Valley games' network inputs (kv_features.c):
 * the features of a few positions drawn as diagrams, from both seats; the same
 * position turned half round with the colours swapped gives the other seat the same
 * features; and every move along random games changes exactly two features of each
 * perspective (one gone, one new), which keeps the search's accumulator updates cheap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "games/kingsvalley/kv_internal.h"
#include "play/registry.h"
#include "search/nnue.h"

static Game *make_game(const char *name)
{
    Game *g;
    ErrBuf err;
    assert_int_equal(game_create(registry_find(name), 0, NULL, 0, &g, &err), STATUS_OK);
    return g;
}

static int features_of(const Game *g, const GameState *s, int perspective, uint16_t *out)
{
    const int n = g->ops->nnue_features(g, s, perspective, out, NNUE_MAX_ACTIVE);
    for (int i = 1; i < n; i++)
        assert_true(out[i - 1] < out[i]);
    for (int i = 0; i < n; i++)
        assert_true(out[i] < g->ops->nnue_feature_count);
    return n;
}

/* The features of `text` from `perspective`, against the list `want` (ends with -1). */
static void expect_features(const Game *g, const char *text, int perspective, const int *want)
{
    GameState *s = game_state_new(g);
    ErrBuf err;
    assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
    uint16_t got[NNUE_MAX_ACTIVE];
    const int n = features_of(g, s, perspective, got);
    int i = 0;
    for (; want[i] >= 0; i++) {
        assert_true(i < n);
        if (got[i] != want[i])
            fail_msg("%s from seat %d: feature %d is %d, not %d", text, perspective, i, got[i],
                     want[i]);
    }
    assert_int_equal(n, i);
    free(s);
}

/* Blocks of 49: own king 0, own soldiers 49, other king 98, other soldiers 147; cell =
 * rank * 7 + file from a1, turned (48 - cell) for the second seat. */
static void test_diagrams(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley-7x7");
    assert_string_equal(g->ops->nnue_feature_set, "kv-7x7-man-square-1");
    assert_int_equal(g->ops->nnue_feature_count, 196);
    // The start: the same from both seats.
    const int start[] = {3,   49 + 0,  49 + 1,  49 + 2,  49 + 4,  49 + 5,  49 + 6,  98 + 45,
                         147 + 42, 147 + 43, 147 + 44, 147 + 46, 147 + 47, 147 + 48, -1};
    expect_features(g, "sssksss/7/7/7/7/7/SSSKSSS 1 0", 0, start);
    expect_features(g, "sssksss/7/7/7/7/7/SSSKSSS 1 0", 1, start);
    // 7 . . . k . . S     The first king on c3 (16), a soldier of his on g7 (48);
    // 6 . . . . . . .     the second king on d7 (45), one of his soldiers on a1 (0).
    // 5 . . . . . . .
    // 4 . . . . . . .
    // 3 . . K . . . .
    // 2 . . . . . . .
    // 1 s . . . . . .
    //   a b c d e f g
    const char *small = "3k2S/7/7/7/2K4/7/s6 2 9";
    const int first[] = {16, 49 + 48, 98 + 45, 147 + 0, -1};
    const int second[] = {3, 49 + 48, 98 + 32, 147 + 0, -1};
    expect_features(g, small, 0, first);
    expect_features(g, small, 1, second);
    game_destroy(g);

    // The Labyrinth: the pillars are no features; the men are, as on 7x7.
    g = make_game("kings-valley-labyrinth");
    assert_string_equal(g->ops->nnue_feature_set, "kv-labyrinth-man-square-1");
    expect_features(g, "sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS 1 0", 1, start);
    game_destroy(g);
}

/* The position turned half round with the colours swapped: what the other seat sees. */
static void turn_and_swap(const KvConfig *c, const KvState *s, KvState *m)
{
    memset(m, 0, sizeof *m);
    for (int p = 0; p < 2; p++) {
        uint64_t men = s->men[p];
        while (men) {
            const int sq = bits_pop(&men);
            m->men[1 - p] |= 1ULL << (c->cells - 1 - sq);
        }
        m->king[1 - p] = (uint8_t)(c->cells - 1 - s->king[p]);
    }
    m->turn = (uint8_t)(1 - s->turn);
}

static void test_symmetry_and_two_per_move(void **state)
{
    (void)state;
    const char *games[] = {"kings-valley-7x7", "kings-valley-labyrinth"};
    for (size_t gi = 0; gi < 2; gi++) {
        Game *g = make_game(games[gi]);
        const KvConfig *c = g->config;
        KvState *s = (KvState *)game_state_new(g), *m = (KvState *)game_state_new(g);
        Rng rng;
        rng_seed(&rng, 5 + gi);
        MoveList ml;
        KvUndo u;
        int checked = 0;
        for (int game = 0; game < 20; game++) {
            g->ops->new_game(g, (GameState *)s, 0);
            uint16_t before[2][NNUE_MAX_ACTIVE];
            int nb[2] = {0, 0};
            bool first = true;
            while (!game_is_over(g, (GameState *)s)) {
                turn_and_swap(c, s, m);
                for (int p = 0; p < 2; p++) {
                    uint16_t a[NNUE_MAX_ACTIVE], b[NNUE_MAX_ACTIVE];
                    const int na = features_of(g, (GameState *)s, p, a);
                    assert_int_equal(features_of(g, (GameState *)m, 1 - p, b), na);
                    assert_memory_equal(a, b, (size_t)na * sizeof a[0]);
                    // A move: one feature gone, one come, the rest kept.
                    if (!first) {
                        int same = 0;
                        for (int i = 0, j = 0; i < nb[p] && j < na;) {
                            if (before[p][i] == a[j])
                                same++, i++, j++;
                            else if (before[p][i] < a[j])
                                i++;
                            else
                                j++;
                        }
                        assert_int_equal(na, nb[p]);
                        assert_int_equal(same, na - 1);
                    }
                    memcpy(before[p], a, sizeof a);
                    nb[p] = na;
                }
                first = false;
                checked++;
                g->ops->gen_moves(g, (GameState *)s, &ml);
                kv_make(c, s, ml.moves[rng_below(&rng, (uint32_t)ml.count)], &u);
            }
        }
        assert_true(checked > 200);
        free(s);
        free(m);
        game_destroy(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diagrams),
        cmocka_unit_test(test_symmetry_and_two_per_move),
    };
    return cmocka_run_group_tests_name("kv_features", tests, NULL, NULL);
}
