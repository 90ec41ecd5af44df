/*
 * test_kv_internals.c - King's Valley fast paths against their plain definitions:
 * the trap rule's shortcuts (two and three moves deep) and plan reuse against the plain
 * search of R-KV-16, the whole filter against a plain one, the lazy trap test
 * (candidates tested one by one, the random-move sampler, the search) against the whole
 * filter, the playout hook against the interface's random loop (same distribution of
 * results), the evaluation's colour symmetry, and the search hints (the noisy action and
 * check) against what the rules say they mean.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "support/rule_text.h"
#include "play/registry.h"
#include "games/kingsvalley/kv_internal.h"
#include "support/search_pair.h"
#include "support/slow_build.h"

static Game *make_game(const char *name, const char *rule)
{
    Game *g;
    ErrBuf err;
    const char *rules[1] = {rule};
    assert_int_equal(rule_text_create(registry_find(name), 0, rules, rule ? 1 : 0, &g, &err),
                     STATUS_OK);
    return g;
}

/* Random 7x7 games (without the trap rule, so that trapped positions occur too): at every
 * position, for both players and every depth, the fast reach equals the plain one. */
static void test_reach_matches_plain_search(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley-7x7", "trap=off");
    const KvConfig *c = g->config;
    KvState *s = (KvState *)game_state_new(g);
    Rng rng;
    rng_seed(&rng, 7);
    MoveList ml;
    KvUndo u;
    int checked = 0, reachable = 0;
    for (int game = 0; game < SLOW_BUILD_SHARE(40); game++) {
        g->ops->new_game(g, (GameState *)s, 0);
        while (!game_is_over(g, (GameState *)s)) {
            for (int p = 0; p < 2; p++) {
                for (int d = 1; d <= 3; d++) {
                    const bool fast = kv_can_reach_valley(c, s->men, s->king, p, d);
                    const bool plain = kv_can_reach_valley_plain(c, s->men, s->king, p, d);
                    assert_int_equal(fast, plain);
                    KvPlan plan;
                    if (kv_reach_plan(c, s->men, s->king, p, d, &plan)) {
                        // Every plan found is a real witness of the shortest-enough path.
                        assert_true(plan.count <= d - 1);
                        assert_true(kv_plan_works(c, s->men, s->king, p, &plan));
                        reachable++;
                    }
                    checked++;
                }
            }
            g->ops->gen_moves(g, (GameState *)s, &ml);
            kv_make(c, s, ml.moves[rng_below(&rng, (uint32_t)ml.count)], &u);
        }
    }
    assert_true(checked > SLOW_BUILD_SHARE(10000));
    print_message("reach checked %d times, %d reachable\n", checked, reachable);
    assert_true(reachable > checked / 20 && reachable < checked);
    free(s);
    game_destroy(g);
}

/* The trap filter by the plain definition: each candidate kept if it wins at once, or if
 * afterwards the players concerned can reach the Valley by the plain search; none kept
 * means all kept. */
static int plain_trap_filter(const KvConfig *c, const KvState *s, KvTrap trap, Move *moves,
                             int n)
{
    const int p = s->turn;
    int kept = 0;
    Move out[KV_MAX_CELLS * KV_DIRS];
    for (int i = 0; i < n; i++) {
        const int from = kv_from(moves[i]), to = kv_to(moves[i]);
        uint64_t men[2] = {s->men[0], s->men[1]};
        uint8_t king[2] = {s->king[0], s->king[1]};
        men[p] ^= (1ULL << from) | (1ULL << to);
        if (from == s->king[p])
            king[p] = (uint8_t)to;
        if (king[p] == c->valley ||
            (kv_can_reach_valley_plain(c, men, king, 1 - p, 4) &&
             (trap == KV_TRAP_OPPONENT || kv_can_reach_valley_plain(c, men, king, p, 4))))
            out[kept++] = moves[i];
    }
    if (kept == 0)
        return n;
    for (int i = 0; i < kept; i++)
        moves[i] = out[i];
    return kept;
}

/* The candidates the lazy test keeps, tested one by one with the memo given, are
 * gen_moves' list, or gen_moves lists every candidate when the lazy test keeps none. */
static void check_lazy_test(const Game *g, const KvState *s, void *memo)
{
    MoveList ml, cand, kept;
    g->ops->gen_moves(g, (const GameState *)s, &ml);
    g->ops->gen_candidates(g, (const GameState *)s, &cand);
    kept.count = 0;
    for (int i = 0; i < cand.count; i++)
        if (g->ops->candidate_legal(g, (const GameState *)s, cand.moves[i], memo))
            kept.moves[kept.count++] = cand.moves[i];
    const MoveList *expect = kept.count ? &kept : &cand;
    assert_int_equal(ml.count, expect->count);
    assert_memory_equal(ml.moves, expect->moves, sizeof(Move) * (size_t)ml.count);
}

/* Random 7x7 positions, from games played without the trap rule (so that trapped kings
 * occur) and from games played under it (long games with crowded boards): the four-move
 * reach of both players, with a working plan when reachable, and the filter's verdict
 * under trap=both and trap=opponent equal the plain search's (at every third position);
 * and at every position, the lazy test (one memo carried across all positions) agrees
 * with gen_moves. */
static void test_trap_filter_matches_plain(void **state)
{
    (void)state;
    Game *free_play = make_game("kings-valley-7x7", "trap=off");
    Game *both = make_game("kings-valley-7x7", "trap=both");
    Game *opponent = make_game("kings-valley-7x7", "trap=opponent");
    const KvConfig *c = free_play->config;
    const Game *filters[2] = {both, opponent};
    void *memo[2];
    for (int f = 0; f < 2; f++) {
        assert_true(filters[f]->ops->candidate_legal && filters[f]->legal_memo_size > 0);
        memo[f] = calloc(1, filters[f]->legal_memo_size);
        assert_non_null(memo[f]);
    }
    KvState *s = (KvState *)game_state_new(free_play);
    Rng rng;
    rng_seed(&rng, 11);
    MoveList ml;
    KvUndo u;
    int positions = 0, unreachable = 0, removed = 0, lazy_checked = 0;
    for (int game = 0; game < SLOW_BUILD_SHARE(24); game++) {
        // Odd games follow the rule itself.
        const Game *play = game % 2 ? both : free_play;
        free_play->ops->new_game(free_play, (GameState *)s, 0);
        while (!game_is_over(play, (GameState *)s)) {
            for (int f = 0; f < 2; f++)
                check_lazy_test(filters[f], s, memo[f]);
            lazy_checked++;
            if (rng_below(&rng, 3) == 0) {
                positions++;
                for (int p = 0; p < 2; p++) {
                    KvPlan plan;
                    const bool fast = kv_reach_plan(c, s->men, s->king, p, 4, &plan);
                    assert_int_equal(fast, kv_can_reach_valley_plain(c, s->men, s->king, p, 4));
                    if (fast)
                        assert_true(plan.count <= 3 && kv_plan_works(c, s->men, s->king, p, &plan));
                    unreachable += !fast;
                }
                for (int f = 0; f < 2; f++) {
                    const KvConfig *fc = filters[f]->config;
                    Move fast[KV_MAX_CELLS * KV_DIRS], plain[KV_MAX_CELLS * KV_DIRS];
                    const int n = kv_gen_pseudo(fc, s, fast);
                    memcpy(plain, fast, sizeof(Move) * (size_t)n);
                    const int n_fast = kv_trap_filter(fc, s, fast, n);
                    const int n_plain = plain_trap_filter(fc, s, fc->trap, plain, n);
                    assert_int_equal(n_fast, n_plain);
                    assert_memory_equal(fast, plain, sizeof(Move) * (size_t)n_fast);
                    removed += n - n_fast;
                }
            }
            play->ops->gen_moves(play, (GameState *)s, &ml);
            kv_make(play->config, s, ml.moves[rng_below(&rng, (uint32_t)ml.count)], &u);
        }
    }
    print_message("trap filter checked at %d positions: %d unreachable kings, %d moves removed;"
                  " lazy test at %d\n",
                  positions, unreachable, removed, lazy_checked);
    assert_true(positions > SLOW_BUILD_SHARE(100) && unreachable > 0 && removed > 0 &&
                lazy_checked > SLOW_BUILD_SHARE(3000));
    free(memo[0]);
    free(memo[1]);
    free(s);
    game_destroy(opponent);
    game_destroy(both);
    game_destroy(free_play);
}

/* kv_random_legal draws uniformly from gen_moves' list: at positions where the rule
 * removes some moves and where it falls back to all of them, every draw is on the list and
 * the counts pass a chi-square test against uniform (summed over the positions, as a
 * normal deviate of the total). */
static void test_random_legal_is_uniform(void **state)
{
    (void)state;
    Game *free_play = make_game("kings-valley-7x7", "trap=off");
    Game *both = make_game("kings-valley-7x7", "trap=both");
    const KvConfig *c = both->config;
    KvState *s = (KvState *)game_state_new(free_play);
    Rng walk, draw;
    rng_seed(&walk, 31);
    rng_seed(&draw, 37);
    MoveList ml;
    Move scratch[KV_MAX_CELLS * KV_DIRS];
    KvUndo u;
    // A table of reach results, as a search keeps: the draws at one position meet the same
    // boards again and again.
    enum { TABLE = 1 << 12 };
    KvReachEntry *table = calloc(TABLE, sizeof *table);
    assert_non_null(table);
    KvReachCache cache;
    kv_reach_cache_init(&cache, table, TABLE);
    // Positions where the rule removes some moves, and where it would remove them all (the
    // fallback makes every candidate legal): a king shut in by moves made without the rule.
    enum { PARTIAL = 12, FALLBACK = 3 };
    int partial = 0, fallback = 0;
    double chi2 = 0, df = 0;
    int game = 0;
    for (; game < 400 && (partial < PARTIAL || fallback < FALLBACK); game++) {
        free_play->ops->new_game(free_play, (GameState *)s, 0);
        while (!game_is_over(free_play, (GameState *)s)) {
            both->ops->gen_moves(both, (GameState *)s, &ml);
            const int n_pseudo = kv_gen_pseudo(c, s, scratch);
            bool take = ml.count < n_pseudo && ml.count > 1 && partial < PARTIAL;
            if (!take && ml.count == n_pseudo && fallback < FALLBACK) {
                int pass = 0;
                for (int i = 0; i < n_pseudo; i++)
                    pass += kv_trap_allows(c, s, scratch[i], &cache);
                take = pass == 0;
            }
            if (take) {
                enum { PER_MOVE = 400 };
                int hits[KV_MAX_CELLS * KV_DIRS] = {0};
                for (int k = 0; k < PER_MOVE * ml.count; k++) {
                    const Move m = kv_random_legal(c, s, &draw, &cache, scratch);
                    int i = 0;
                    while (i < ml.count && ml.moves[i] != m)
                        i++;
                    assert_true(i < ml.count);
                    hits[i]++;
                }
                for (int i = 0; i < ml.count; i++)
                    chi2 += (hits[i] - PER_MOVE) * (double)(hits[i] - PER_MOVE) / PER_MOVE;
                df += ml.count - 1;
                if (ml.count == n_pseudo)
                    fallback++;
                else
                    partial++;
            }
            free_play->ops->gen_moves(free_play, (GameState *)s, &ml);
            kv_make(c, s, ml.moves[rng_below(&walk, (uint32_t)ml.count)], &u);
        }
    }
    assert_int_equal(partial, PARTIAL);
    assert_int_equal(fallback, FALLBACK);
    const double z = (chi2 - df) / sqrt(2 * df);
    print_message("sampler: %d games walked; chi-square %.1f on %.0f degrees of freedom "
                  "(z = %.2f)\n",
                  game, chi2, df, z);
    assert_true(z > -4 && z < 4);
    free(table);
    free(s);
    game_destroy(both);
    game_destroy(free_play);
}

/* The search with the lazy hooks finds the value it finds over gen_moves' lists, and a
 * legal best move, at fixed depth, from positions of random games. */
static void test_lazy_search_is_the_same_search(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley-7x7", "trap=both");
    GameOps plain_ops = *g->ops;
    plain_ops.gen_candidates = NULL;
    plain_ops.candidate_legal = NULL;
    Game plain = *g;
    plain.ops = &plain_ops;
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, 0);
    Rng rng;
    rng_seed(&rng, 41);
    MoveList ml;
    void *undo = game_undo_new(g);
    int searched = 0;
    for (int ply = 0; ply < 60 && !game_is_over(g, s); ply++) {
        if (ply % 10 == 0 && searched < SLOW_BUILD_SHARE(6)) {
            search_pair_expect_same(g, &plain, s, 4, 1u << 20);
            searched++;
        }
        g->ops->gen_moves(g, s, &ml);
        g->ops->make(g, s, ml.moves[rng_below(&rng, (uint32_t)ml.count)], undo);
    }
    assert_true(searched >= SLOW_BUILD_SHARE(5));
    free(undo);
    free(s);
    game_destroy(g);
}

/* Runs n playouts from the start, by the hook or by the generic loop; returns the first
 * player's wins and the mean length. */
static void playout_stats(const Game *g, bool hook, int n, uint64_t seed, int *wins,
                          double *mean_plies)
{
    KvState *s = (KvState *)game_state_new(g);
    KvState *start = (KvState *)game_state_new(g);
    g->ops->new_game(g, (GameState *)start, 0);
    MoveList ml;
    void *undo = game_undo_new(g);
    Rng rng;
    rng_seed(&rng, seed);
    long plies = 0;
    *wins = 0;
    for (int i = 0; i < n; i++) {
        memcpy(s, start, g->state_size);
        double ret[MAX_PLAYERS];
        if (hook) {
            g->ops->playout(g, (GameState *)s, &rng, ret);
        } else {
            while (!game_is_over(g, (GameState *)s)) {
                g->ops->gen_moves(g, (GameState *)s, &ml);
                g->ops->make(g, (GameState *)s, ml.moves[rng_below(&rng, (uint32_t)ml.count)],
                             undo);
            }
            g->ops->returns(g, (GameState *)s, ret);
        }
        ErrBuf err;
        assert_true(g->ops->is_ok(g, (GameState *)s, &err));
        *wins += ret[0] > 0;
        plies += s->ply;
    }
    *mean_plies = (double)plies / n;
    free(undo);
    free(s);
    free(start);
}

static void test_playout_hook_matches_generic_distribution(void **state)
{
    (void)state;
    const char *games[] = {"kings-valley", "kings-valley-labyrinth", "retrieve-the-king"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        Game *g = make_game(games[i], NULL);
        enum { N = 6000 };
        int w_hook, w_gen;
        double len_hook, len_gen;
        playout_stats(g, true, N, 11, &w_hook, &len_hook);
        playout_stats(g, false, N, 12, &w_gen, &len_gen);
        // Binomial standard error at N = 6000 is about 0.65 points: allow five of them.
        const double diff = (double)(w_hook - w_gen) / N;
        if (diff > 0.033 || diff < -0.033)
            fail_msg("%s: first-player wins %d (hook) vs %d (generic)", games[i], w_hook, w_gen);
        if (len_hook / len_gen > 1.08 || len_gen / len_hook > 1.08)
            fail_msg("%s: mean length %.1f (hook) vs %.1f (generic)", games[i], len_hook,
                     len_gen);
        game_destroy(g);
    }
}

/* The same position with colours and sides swapped (board turned upside down) must be
 * worth the same to the player to move. */
static void test_evaluation_is_colour_symmetric(void **state)
{
    (void)state;
    const char *games[] = {"kings-valley", "kings-valley-labyrinth"};
    for (size_t gi = 0; gi < 2; gi++) {
        Game *g = make_game(games[gi], NULL);
        const KvConfig *c = g->config;
        KvState *s = (KvState *)game_state_new(g), *m = (KvState *)game_state_new(g);
        Rng rng;
        rng_seed(&rng, 3);
        MoveList ml;
        KvUndo u;
        for (int game = 0; game < SLOW_BUILD_SHARE(30); game++) {
            g->ops->new_game(g, (GameState *)s, 0);
            while (!game_is_over(g, (GameState *)s)) {
                memset(m, 0, sizeof *m);
                for (int p = 0; p < 2; p++) {
                    uint64_t men = s->men[p];
                    while (men) {
                        const int sq = bits_pop(&men);
                        const int flipped = (c->size - 1 - sq / c->size) * c->size + sq % c->size;
                        m->men[1 - p] |= 1ULL << flipped;
                        if (sq == s->king[p])
                            m->king[1 - p] = (uint8_t)flipped;
                    }
                }
                m->turn = (uint8_t)(1 - s->turn);
                m->ply = s->ply;
                assert_int_equal(kv_evaluate(c, s), kv_evaluate(c, m));
                g->ops->gen_moves(g, (GameState *)s, &ml);
                kv_make(c, s, ml.moves[rng_below(&rng, (uint32_t)ml.count)], &u);
            }
        }
        free(s);
        free(m);
        game_destroy(g);
    }
}

/* Random games of every variant: an action is noisy exactly when it is the mover's king
 * sliding onto the Valley, and such an action wins at once; the player to move is in check
 * exactly when, were it the opponent's turn, the opponent's king could slide there. */
static void test_search_hints_mean_what_the_rules_say(void **state)
{
    (void)state;
    const char *games[] = {"kings-valley", "retrieve-the-king", "kings-valley-7x7",
                           "kings-valley-labyrinth"};
    for (size_t gi = 0; gi < sizeof games / sizeof games[0]; gi++) {
        Game *g = make_game(games[gi], NULL);
        const KvConfig *c = g->config;
        KvState *s = (KvState *)game_state_new(g), *turned = (KvState *)game_state_new(g);
        void *undo = game_undo_new(g);
        Rng rng;
        rng_seed(&rng, 17);
        MoveList ml;
        Move pseudo[MOVELIST_CAP];
        int noisy = 0, checks = 0;
        for (int game = 0; game < SLOW_BUILD_SHARE(40); game++) {
            g->ops->new_game(g, (GameState *)s, 0);
            while (!game_is_over(g, (GameState *)s)) {
                memcpy(turned, s, g->state_size);
                turned->turn = (uint8_t)(1 - s->turn);
                const int np = kv_gen_pseudo(c, turned, pseudo);
                bool threat = false;
                for (int i = 0; i < np; i++)
                    threat |= kv_from(pseudo[i]) == turned->king[turned->turn] &&
                              kv_to(pseudo[i]) == c->valley;
                assert_int_equal(g->ops->in_check(g, (GameState *)s), threat);
                checks += threat;
                const int mover = s->turn;
                const int n = g->ops->gen_moves(g, (GameState *)s, &ml);
                for (int i = 0; i < n; i++) {
                    const Move m = ml.moves[i];
                    const bool slide = kv_from(m) == s->king[mover] && kv_to(m) == c->valley;
                    assert_int_equal(g->ops->noisy(g, (GameState *)s, m) > 0, slide);
                    if (!slide)
                        continue;
                    noisy++;
                    g->ops->make(g, (GameState *)s, m, undo);
                    assert_int_equal(s->result, mover == 0 ? KV_WIN_FIRST : KV_WIN_SECOND);
                    g->ops->unmake(g, (GameState *)s, m, undo);
                }
                g->ops->make(g, (GameState *)s, ml.moves[rng_below(&rng, (uint32_t)n)], undo);
            }
        }
        print_message("%s: %d noisy actions, %d positions in check\n", games[gi], noisy,
                      checks);
        assert_true(noisy > 0 && checks > 0);
        free(undo);
        free(turned);
        free(s);
        game_destroy(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reach_matches_plain_search),
        cmocka_unit_test(test_trap_filter_matches_plain),
        cmocka_unit_test(test_random_legal_is_uniform),
        cmocka_unit_test(test_lazy_search_is_the_same_search),
        cmocka_unit_test(test_playout_hook_matches_generic_distribution),
        cmocka_unit_test(test_evaluation_is_colour_symmetric),
        cmocka_unit_test(test_search_hints_mean_what_the_rules_say),
    };
    return cmocka_run_group_tests_name("kv_internals", tests, NULL, NULL);
}
