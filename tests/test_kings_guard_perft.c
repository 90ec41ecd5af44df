/*
 * test_kings_guard_perft.c - the King's Guard games against the plain reference generator.
 *
 * Four layers: the start positions of both boards, counted per action and per whole
 * turn; the committed table tests/perft/kings-guard.perft (numbers from
 * tests/support/kg_reference, checked against the fast perft hook and the generic
 * make/unmake perft); random games in which every position's legal actions, text and
 * result must match the reference, with perft compared now and then; and thousands of
 * random positions built to be unusual (tall and full towers, kings next to enemy
 * stacks, turns in progress), each compared and played into for a few actions.
 *
 * Perft per action counts the leaves `depth` actions deep (pick up, place, end each
 * count one). Perft per turn counts leaves `depth` whole turns deep, a turn being one
 * sequence of placements from one start square (R-KG-22); the game offers no hook
 * for it, so it is computed here through the interface: a turn is over when the player
 * to move changes or the game ends. The comparing is tests/support/perft_pair's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/rng.h"
#include "support/kg_reference.h"
#include "support/perft_pair.h"

enum { MAX_SETTINGS = 4 };

/* --- the reference, as the harness reaches it ------------------------------------------------ */

static void *ref_open(const PerftPair *p, const char *text, char *err, size_t cap)
{
    KgRefRules rules;
    if (!kgref_rules_for(p->game, p->settings, p->n_settings, &rules, err, cap))
        return NULL;
    return kgref_game_new(&rules, text, err, cap);
}

static void ref_close(void *ref)
{
    kgref_game_free(ref);
}

static void ref_start_text(const PerftPair *p, char *out, size_t cap)
{
    KgRefRules rules;
    char err[128];
    if (!kgref_rules_for(p->game, p->settings, p->n_settings, &rules, err, sizeof err))
        fail_msg("%s: reference rules: %s", p->game, err);
    kgref_start_text(&rules, out, cap);
}

static void ref_format_position(const void *ref, char *out, size_t cap)
{
    const KgRefGame *g = ref;
    kgref_format_position(&g->rules, kgref_current(g), out, cap);
}

static void ref_status(const void *ref, RefStatus *out)
{
    const KgRefResult r = kgref_result(ref, &out->why);
    ref_status_two_player(out, kgref_current(ref)->to_move, r != KGREF_ONGOING,
                          r == KGREF_FIRST_WINS ? 0 : r == KGREF_SECOND_WINS ? 1 : -1);
}

static int ref_actions(const void *ref, PairAction *out)
{
    KgRefAction actions[KGREF_MAX_ACTIONS];
    const int n = kgref_legal(ref, actions);
    for (int i = 0; i < n; i++)
        kgref_format_action(ref, actions[i], out[i].text);
    return n;
}

static bool ref_play(void *ref, const char *text)
{
    KgRefAction a;
    if (!kgref_find_action(ref, text, &a))
        return false;
    kgref_play(ref, a);
    return true;
}

static uint64_t ref_perft(void *ref, int depth)
{
    return kgref_perft(ref, depth);
}

static const PerftReference KG_REFERENCE = {
    ref_open, ref_close, ref_start_text, ref_format_position,
    ref_status, ref_actions, ref_play, ref_perft,
};

/* --- whole-turn perft through the interface ------------------------------------------------ */

static uint64_t turns_perft(const Game *g, GameState *s, int depth);

static uint64_t finish_turn(const Game *g, GameState *s, int mover, int depth)
{
    const int tm = g->ops->to_move(g, s);
    if (tm != mover)
        return turns_perft(g, s, depth - 1);
    MoveList *list = malloc(sizeof *list);
    void *undo = game_undo_new(g);
    assert_true(list != NULL && undo != NULL);
    const int n = g->ops->gen_moves(g, s, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        g->ops->make(g, s, list->moves[i], undo);
        total += finish_turn(g, s, mover, depth);
        g->ops->unmake(g, s, list->moves[i], undo);
    }
    free(undo);
    free(list);
    return total;
}

static uint64_t turns_perft(const Game *g, GameState *s, int depth)
{
    if (depth == 0)
        return 1;
    const int tm = g->ops->to_move(g, s);
    if (tm == PLAYER_NONE)
        return 0;
    return finish_turn(g, s, tm, depth);
}

/* Whole-turn perft of the game (through the interface) and of the reference must agree. */
static void compare_turns(const PerftPair *p, int depth)
{
    const uint64_t want = kgref_perft_turns(p->ref, depth);
    const uint64_t got = turns_perft(p->g, p->s, depth);
    if (got != want)
        fail_msg("turn perft %d at '%s': reference %llu, game %llu", depth, p->log,
                 (unsigned long long)want, (unsigned long long)got);
}

/* --- (a) the start positions ----------------------------------------------------------------- */

typedef struct StartCase {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    uint64_t actions[7]; /* perft per action, depths 1.. (0 ends the list) */
    uint64_t turns[3];   /* perft per turn */
} StartCase;

static void test_start_numbers(void **state)
{
    (void)state;
    static const StartCase cases[] = {
        {"kings-guard", {0}, 0, {10, 35, 349, 1221, 12179, 42890, 0}, {35, 1221, 44362}},
        {"kings-guard", {"steps=all"}, 1, {10, 67, 669, 4481, 43669, 0}, {67, 4481, 0}},
        {"kings-guard-8x8", {0}, 0, {9, 31, 277, 953, 8459, 29888, 0}, {31, 953, 34820}},
        {"kings-guard-8x8", {"king-file=d"}, 1, {9, 31, 277, 953, 8459, 29888, 0},
         {31, 953, 34820}},
        {"kings-guard-8x8", {"steps=all"}, 1, {9, 59, 527, 3449, 29999, 0}, {59, 3449, 0}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const StartCase *sc = &cases[c];
        PerftPair p;
        perft_pair_open(&p, &KG_REFERENCE, sc->game, sc->settings, sc->n_settings, NULL, 1);
        for (int d = 1; d <= 7 && sc->actions[d - 1] != 0; d++)
            perft_pair_expect_leaves(&p, "the start", d, sc->actions[d - 1],
                                     PERFT_FAST | PERFT_GENERIC | (d <= 4 ? PERFT_REFERENCE : 0));
        for (int d = 1; d <= 3 && sc->turns[d - 1] != 0; d++) {
            assert_int_equal(turns_perft(p.g, p.s, d), sc->turns[d - 1]);
            if (d <= 2)
                assert_int_equal(kgref_perft_turns(p.ref, d), sc->turns[d - 1]);
        }
        perft_pair_close(&p);
    }
}

/* --- (b) the committed table ------------------------------------------------------------------ */

/* Tk counts whole turns: the game's through the interface, re-derived by the reference
 * at T1 so that an edited table is caught. */
static void check_turn_count(const PerftPair *p, const PerftLine *line, const PerftCount *c)
{
    if (c->kind != 'T')
        fail_msg("perft table line %d: unknown count %c%d", line->line_no, c->kind, c->depth);
    const uint64_t got = turns_perft(p->g, p->s, c->depth);
    if (got != c->leaves)
        fail_msg("perft table line %d T%d: table %llu, game %llu", line->line_no, c->depth,
                 (unsigned long long)c->leaves, (unsigned long long)got);
    if (c->depth == 1 && kgref_perft_turns(p->ref, c->depth) != c->leaves)
        fail_msg("perft table line %d T1: the reference disagrees", line->line_no);
}

/* Dk per action, Tk per whole turn; the reference re-derives D1-D2 and T1. */
static void test_perft_table(void **state)
{
    static const PerftTableCheck check = {
        .reference = &KG_REFERENCE,
        .min_positions = 12,
        .reference_depth = 2,
        .check_count = check_turn_count,
    };
    perft_pair_check_table(*state, &check);
}

/* --- (c) random games --------------------------------------------------------------------------- */

typedef struct RandomCase {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    int games;
    int perft_every; /* compare perft 2 at every n-th position */
} RandomCase;

static long run_game(const RandomCase *c, uint64_t seed, PairActions *acts, long *perfts)
{
    PerftPair p;
    perft_pair_open(&p, &KG_REFERENCE, c->game, c->settings, c->n_settings, NULL, 1);
    Rng rng;
    rng_seed(&rng, seed);
    long positions = 0;
    for (;;) {
        const int n = perft_pair_compare(&p, acts, PAIR_GAME_ORDER);
        positions++;
        if (c->perft_every > 0 && positions % c->perft_every == 0) {
            perft_pair_compare_perft(&p, 2);
            (*perfts)++;
        }
        if (n == 0)
            break;
        // "end" half as often as placements: longer turns, taller towers.
        int i = (int)rng_below(&rng, (uint32_t)n);
        if (strcmp(acts->at[i].text, "end") == 0 && n > 1 && rng_below(&rng, 2) == 0)
            i = (int)rng_below(&rng, (uint32_t)(n - 1));
        perft_pair_play(&p, &acts->at[i]);
    }
    perft_pair_close(&p);
    return positions;
}

static void test_random_games(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-guard", {0}, 0, 16, 23},
        {"kings-guard", {"steps=all"}, 1, 10, 29},
        {"kings-guard", {"no-move=draw", "max-plies=60"}, 2, 8, 17},
        {"kings-guard", {"repetition=off", "max-plies=40"}, 2, 6, 17},
        {"kings-guard-8x8", {0}, 0, 16, 23},
        {"kings-guard-8x8", {"king-file=d", "steps=all"}, 2, 10, 29},
        {"kings-guard-8x8", {"max-plies=1"}, 1, 2, 1},
        {"kings-guard-8x8", {"max-plies=0"}, 1, 1, 1},
    };
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    long positions = 0, perfts = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int k = 0; k < cases[i].games; k++)
            positions += run_game(&cases[i], 0x6B67000 + 100 * i + (uint64_t)k, acts, &perfts);
    free(acts);
    print_message("%ld positions compared, %ld perft comparisons\n", positions, perfts);
}

/* --- (d) random positions ------------------------------------------------------------------------ */

/* A random position with many stacks on few squares: tall and full towers, kings among
 * enemy stacks. `window` > 0 crowds everything into a window x window corner of a random
 * place of the board. Returns the text in out. */
static void random_position(const KgRefRules *r, Rng *rng, int window, char *out, size_t cap)
{
    KgRefPos pos;
    memset(&pos, 0, sizeof pos);
    pos.origin_file = pos.origin_rank = -1;
    const int guards = r->files == 9 ? 9 : 8;
    int w = window > 0 ? window : r->files;
    int h = window > 0 ? window : r->ranks;
    if (w > r->files)
        w = r->files;
    if (h > r->ranks)
        h = r->ranks;
    const int f0 = (int)rng_below(rng, (uint32_t)(r->files - w + 1));
    const int r0 = (int)rng_below(rng, (uint32_t)(r->ranks - h + 1));
    // Guards first, each on a random square of the window with room left; then the kings
    // on top of two distinct stacks (or empty squares).
    for (int p = 0; p < 2; p++) {
        const int n = guards / 2 + (int)rng_below(rng, (uint32_t)(guards - guards / 2 + 1));
        for (int i = 0; i < n; i++) {
            for (int tries = 0; tries < 20; tries++) {
                const int f = f0 + (int)rng_below(rng, (uint32_t)w);
                const int k = r0 + (int)rng_below(rng, (uint32_t)h);
                char *st = pos.stack[k][f];
                const size_t len = strlen(st);
                if ((int)len < r->limit) {
                    st[len] = p == 0 ? 'G' : 'g';
                    st[len + 1] = '\0';
                    break;
                }
            }
        }
    }
    for (int p = 0; p < 2; p++) {
        for (int tries = 0; tries < 1000; tries++) {
            const int f = (int)rng_below(rng, (uint32_t)r->files);
            const int k = (int)rng_below(rng, (uint32_t)r->ranks);
            const bool near = window > 0 && tries < 500;
            const int ff = near ? f0 + (int)rng_below(rng, (uint32_t)w) : f;
            const int kk = near ? r0 + (int)rng_below(rng, (uint32_t)h) : k;
            char *st = pos.stack[kk][ff];
            const size_t len = strlen(st);
            if ((int)len < r->limit && strchr(st, 'K') == NULL && strchr(st, 'k') == NULL) {
                st[len] = p == 0 ? 'K' : 'k';
                st[len + 1] = '\0';
                break;
            }
        }
    }
    pos.to_move = (int)rng_below(rng, 2);
    pos.turns = (int)rng_below(rng, 40);
    kgref_format_position(r, &pos, out, cap);
}

/* True if the player to move can capture a king with the first piece of some turn. */
static bool capture_on_offer(const PerftPair *p)
{
    const Game *g = p->g;
    MoveList *picks = malloc(sizeof *picks), *places = malloc(sizeof *places);
    void *u1 = game_undo_new(g), *u2 = game_undo_new(g);
    assert_true(picks != NULL && places != NULL && u1 != NULL && u2 != NULL);
    bool found = false;
    const int mover = g->ops->to_move(g, p->s);
    const int n = g->ops->gen_moves(g, p->s, picks);
    for (int i = 0; i < n && !found; i++) {
        g->ops->make(g, p->s, picks->moves[i], u1);
        const int m = g->ops->gen_moves(g, p->s, places);
        for (int j = 0; j < m && !found; j++) {
            g->ops->make(g, p->s, places->moves[j], u2);
            double r[MAX_PLAYERS] = {0};
            g->ops->returns(g, p->s, r);
            found = g->ops->to_move(g, p->s) == PLAYER_NONE && r[mover] > 0;
            g->ops->unmake(g, p->s, places->moves[j], u2);
        }
        g->ops->unmake(g, p->s, picks->moves[i], u1);
    }
    free(u2);
    free(u1);
    free(places);
    free(picks);
    return found;
}

/* A stack of exactly the height limit in the position text. */
static bool has_full_tower(const char *text, int limit, bool mover_on_top, int mover)
{
    for (const char *p = strchr(text, '('); p != NULL; p = strchr(p + 1, '(')) {
        const char *end = strchr(p, ')');
        if (end == NULL || end - p - 1 != limit)
            continue;
        const bool first = end[-1] == 'G' || end[-1] == 'K';
        if (!mover_on_top || first == (mover == 0))
            return true;
    }
    return false;
}

/* Turns from here (turn perft 1), counting no further than `cap` + 1: tall towers can
 * have millions of turns. */
static uint64_t count_turns_upto(const Game *g, GameState *s, int mover, uint64_t cap)
{
    if (g->ops->to_move(g, s) != mover)
        return 1;
    MoveList *list = malloc(sizeof *list);
    void *undo = game_undo_new(g);
    assert_true(list != NULL && undo != NULL);
    const int n = g->ops->gen_moves(g, s, list);
    uint64_t total = 0;
    for (int i = 0; i < n && total <= cap; i++) {
        g->ops->make(g, s, list->moves[i], undo);
        total += count_turns_upto(g, s, mover, cap - total);
        g->ops->unmake(g, s, list->moves[i], undo);
    }
    free(undo);
    free(list);
    return total;
}

static void test_random_positions(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-guard", {0}, 0, 4000, 3},
        {"kings-guard", {"steps=all"}, 1, 1000, 5},
        {"kings-guard-8x8", {0}, 0, 3000, 3},
        {"kings-guard-8x8", {"steps=all", "no-move=draw"}, 2, 1000, 5},
    };
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    long positions = 0, perfts = 0, turn_perfts = 0, full = 0, dismantle = 0, attacks = 0;
    long over = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const RandomCase *rc = &cases[c];
        KgRefRules rules;
        char err[128];
        assert_true(kgref_rules_for(rc->game, rc->settings, rc->n_settings, &rules, err,
                                    sizeof err));
        Rng rng;
        rng_seed(&rng, 0x706F73 + c);
        for (int k = 0; k < rc->games; k++) {
            char text[KGREF_POSITION_TEXT];
            const int windows[4] = {0, 2, 3, 4};
            random_position(&rules, &rng, windows[k % 4], text, sizeof text);
            PerftPair p;
            perft_pair_open(&p, &KG_REFERENCE, rc->game, rc->settings, rc->n_settings, text, 0);
            const int mover = p.g->ops->to_move(p.g, p.s);
            full += has_full_tower(text, rules.limit, false, 0);
            dismantle += mover >= 0 && has_full_tower(text, rules.limit, true, mover);
            attacks += mover >= 0 && capture_on_offer(&p);
            // The position itself, then a few random actions into it.
            for (int step = 0; step < 6; step++) {
                const int n = perft_pair_compare(&p, acts, PAIR_GAME_ORDER);
                positions++;
                if (step == 0 && k % rc->perft_every == 0) {
                    perft_pair_compare_perft(&p, 2);
                    perfts++;
                    if (mover >= 0 && count_turns_upto(p.g, p.s, mover, 3000) <= 3000) {
                        compare_turns(&p, 1);
                        turn_perfts++;
                    }
                }
                if (n == 0) {
                    over++;
                    break;
                }
                const int i = (int)rng_below(&rng, (uint32_t)n);
                perft_pair_play(&p, &acts->at[i]);
            }
            perft_pair_close(&p);
        }
    }
    free(acts);
    print_message("%ld positions compared; of the random ones %ld with a full tower, %ld "
                  "with one to dismantle, %ld with a king capture on offer, %ld finished; "
                  "%ld perft 2, %ld turn perft\n",
                  positions, full, dismantle, attacks, over, perfts, turn_perfts);
}

/* --- (e) the playout hook ---------------------------------------------------------------------- */

typedef struct Tally {
    int first, second, draws;
} Tally;

static void tally(Tally *t, const double r[MAX_PLAYERS])
{
    if (r[0] > 0)
        t->first++;
    else if (r[1] > 0)
        t->second++;
    else
        t->draws++;
}

/* |a - b| of two frequencies out of n each, in standard errors of the difference. */
static double sigmas(int a, int b, int n)
{
    const double pa = (double)a / n, pb = (double)b / n;
    const double var = (pa * (1 - pa) + pb * (1 - pb)) / n;
    const double d = pa > pb ? pa - pb : pb - pa;
    return var > 0 ? d / __builtin_sqrt(var) : (d > 0 ? 1e9 : 0);
}

/* The fast playout must play uniformly random actions like the generic loop: the
 * outcome frequencies of the two, from the same positions, must agree. */
static void test_playout_hook(void **state)
{
    (void)state;
    static const struct {
        const char *game, *setting, *text;
    } cases[] = {
        {"kings-guard-8x8", "max-plies=150", "g3k2g/1g4g1/2g2g2/3gg3/3GG3/2G2G2/1G4G1/G3K2G 1 0"},
        {"kings-guard", "max-plies=250",
         "1(gg)2k3g/3(gg)3g1/6g2/9/2g1g4/3G5/9/2G1GG3/1G4G(GG)1/G4K3 1 20"},
        {"kings-guard-8x8", "steps=all", "7k/8/3G4/8/3(Gg)4/8/8/K7 1 12 d4:1"},
        {"kings-guard-8x8", "max-plies=40", "7k/8/8/8/8/8/(GGGg)7/K(GGg)(gggg)5 2 0"},
    };
    enum { N = 3000 };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *settings[1] = {cases[c].setting};
        PerftPair p;
        perft_pair_open(&p, &KG_REFERENCE, cases[c].game, settings, 1, cases[c].text, 0);
        const Game *g = p.g;
        GameState *s = game_state_new(g);
        MoveList *list = malloc(sizeof *list);
        assert_true(s != NULL && list != NULL);
        Rng rng;
        rng_seed(&rng, 99 + c);
        Tally fast = {0, 0, 0}, plain = {0, 0, 0};
        for (int i = 0; i < N; i++) {
            double r[MAX_PLAYERS] = {0};
            memcpy(s, p.s, g->state_size);
            g->ops->playout(g, s, &rng, r);
            ErrBuf err;
            if (!g->ops->is_ok(g, s, &err) || g->ops->to_move(g, s) != PLAYER_NONE)
                fail_msg("playout left a bad state: %s", err.msg);
            tally(&fast, r);
            memcpy(s, p.s, g->state_size);
            while (g->ops->to_move(g, s) != PLAYER_NONE) {
                const int n = g->ops->gen_moves(g, s, list);
                g->ops->make(g, s, list->moves[rng_below(&rng, (uint32_t)n)], p.undo);
            }
            g->ops->returns(g, s, r);
            tally(&plain, r);
        }
        print_message("%s: playout hook %d/%d/%d, generic loop %d/%d/%d (wins/losses/draws)\n",
                      cases[c].text, fast.first, fast.second, fast.draws, plain.first,
                      plain.second, plain.draws);
        assert_true(sigmas(fast.first, plain.first, N) < 4);
        assert_true(sigmas(fast.second, plain.second, N) < 4);
        assert_true(sigmas(fast.draws, plain.draws, N) < 4);
        free(list);
        free(s);
        perft_pair_close(&p);
    }
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    char path[PERFT_TABLE_PATH];
    perft_table_path(argv[0], "kings-guard.perft", path, sizeof path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_numbers),
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_playout_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
