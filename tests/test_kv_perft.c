/*
 * test_kv_perft.c - the King's Valley games against the plain reference generator.
 *
 * Three layers: the perft numbers the issue gives for the kings-valley start; the
 * committed table tests/perft/kings-valley.perft (numbers from tests/support/kv_reference,
 * checked here against both the fast perft hook and the generic make/unmake perft); and
 * random games through the game interface in which every visited position's text and
 * result, and its move list (at every position, or in long 7x7 trap games at every few),
 * must match the reference, with perft compared now and again. Positions are reached
 * only by play, half the time steering back to earlier positions, so the reference and
 * the fast game share history and repetition draws are compared too. The comparing is
 * tests/support/perft_pair's; this file gives it the reference and the games to play.
 *
 * Run with a test name pattern as argument to run only those tests; CROWN_ROOT locates
 * the table when not run from the source root.
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
#include "core/rng.h"
#include "support/kv_reference.h"
#include "support/perft_pair.h"

/* --- the reference, as the harness reaches it ----------------------------------------- */

static void *ref_open(const PerftPair *p, const char *text, char *err, size_t cap)
{
    KvRefRules rules;
    if (!kvref_rules_for(p->game, p->settings, p->n_settings, &rules, err, cap))
        return NULL;
    return kvref_game_new(&rules, text, err, cap);
}

static void ref_start_text(const PerftPair *p, char *out, size_t cap)
{
    snprintf(out, cap, "%s", kvref_start_text(p->game));
}

static void ref_format_position(const void *ref, char *out, size_t cap)
{
    kvref_format_position(kvref_current(ref), out, cap);
}

static void ref_status(const void *ref, RefStatus *out)
{
    const KvRefResult r = kvref_result(ref, &out->why);
    ref_status_two_player(out, kvref_current(ref)->to_move, r != KVREF_ONGOING,
                          r == KVREF_FIRST_WINS ? 0 : r == KVREF_SECOND_WINS ? 1 : -1);
}

static int ref_actions(const void *ref, PairAction *out)
{
    KvRefMove moves[KVREF_MAX_MOVES];
    const int n = kvref_legal_moves(ref, moves);
    for (int i = 0; i < n; i++)
        kvref_format_move(moves[i], out[i].text);
    return n;
}

/* The text comes from the agreed move list, so only its syntax needs reading (a legality
 * check would regenerate the list, which is slow under the trap rule). */
static bool ref_play(void *ref, const char *text)
{
    KvRefGame *g = ref;
    KvRefMove m;
    if (!kvref_parse_move(g->rules.size, text, &m))
        return false;
    kvref_play(g, m);
    return true;
}

static uint64_t ref_perft(void *ref, int depth)
{
    return kvref_perft(ref, depth);
}

/* The reference game is one malloc'd block: the harness frees it (no close). */
static const PerftReference KV_REFERENCE = {
    ref_open, NULL, ref_start_text, ref_format_position,
    ref_status, ref_actions, ref_play, ref_perft,
};

/* --- (a) the numbers given with the issue ------------------------------------------ */

static void test_given_start_numbers(void **state)
{
    (void)state;
    static const uint64_t want[] = {10, 110, 1570, 21708};
    PerftPair p;
    perft_pair_open(&p, &KV_REFERENCE, "kings-valley", NULL, 0, NULL, 1);
    for (int d = 1; d <= 4; d++)
        perft_pair_expect_leaves(&p, "the start numbers given with the issue", d, want[d - 1],
                                 PERFT_FAST | PERFT_GENERIC | PERFT_REFERENCE);
    perft_pair_close(&p);
}

/* --- (b) the committed table ---------------------------------------------------------- */

/* The reference re-derives D1 and D2 (only D1 under the 7x7 trap rule, where each of its
 * move generations is costly), so that an edited table is caught. */
static int table_reference_depth(const PerftPair *p)
{
    return ((const KvRefGame *)p->ref)->rules.trap == KVREF_TRAP_OFF ? 2 : 1;
}

static void test_perft_table(void **state)
{
    static const PerftTableCheck check = {
        .reference = &KV_REFERENCE,
        .min_positions = 10,
        .reference_depth_for = table_reference_depth,
    };
    perft_pair_check_table(*state, &check);
}

/* --- (c) random games against the reference ------------------------------------------ */

enum { MAX_SETTINGS = 4 };

typedef struct RandomCase {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    int games;
    int perft_every; /* compare perft at every n-th position */
    int perft_depth;
    int full_plies;  /* move lists are compared at every position before this ply, */
    int list_every;  /* and at every n-th one after it (text and result always) */
} RandomCase;

/* Picks the next move: half the time one that repeats an earlier position when there is
 * such a move, so that repetition draws happen often enough to be compared. */
static int pick_move(const PerftPair *p, Rng *rng, const PairActions *acts)
{
    KvRefGame *ref = p->ref;
    int repeats[KVREF_MAX_MOVES];
    int nrep = 0;
    for (int i = 0; i < acts->count; i++) {
        KvRefMove m;
        assert_true(kvref_parse_move(ref->rules.size, acts->at[i].text, &m));
        kvref_play(ref, m);
        if (kvref_occurrences(ref) >= 2)
            repeats[nrep++] = i;
        kvref_undo(ref);
    }
    if (nrep > 0 && rng_below(rng, 2) == 0)
        return repeats[rng_below(rng, (uint32_t)nrep)];
    return (int)rng_below(rng, (uint32_t)acts->count);
}

/* How the reference says games ended, so the output shows which rules were reached. */
static const char *const ENDINGS[] = {"king on the Valley", "king locked", "ply limit",
                                      "threefold repetition", "no legal move"};
enum { N_ENDINGS = 5 };

static void tally_ending(const KvRefGame *ref, long *endings)
{
    const char *why;
    kvref_result(ref, &why);
    for (int i = 0; i < N_ENDINGS; i++)
        if (strcmp(why, ENDINGS[i]) == 0)
            endings[i]++;
}

/* Plays the case's games; returns the number of positions visited. */
static long run_case(const RandomCase *c, uint64_t seed, long *perfts, long *endings,
                     long *lists)
{
    long positions = 0, compared = 0;
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    for (int k = 0; k < c->games; k++) {
        PerftPair p;
        perft_pair_open(&p, &KV_REFERENCE, c->game, c->settings, c->n_settings, NULL, 1);
        Rng rng;
        rng_seed(&rng, seed + (uint64_t)k);
        for (int ply = 0;; ply++) {
            const bool full = ply < c->full_plies || ply % c->list_every == 0;
            const int n = perft_pair_compare(&p, acts, full ? 0 : PAIR_SKIP_REFERENCE_ACTIONS);
            positions++;
            compared += full;
            if (full && c->perft_every > 0 && compared % c->perft_every == 0) {
                perft_pair_compare_perft(&p, c->perft_depth);
                (*perfts)++;
            }
            if (n == 0) {
                tally_ending(p.ref, endings);
                break;
            }
            perft_pair_play(&p, &acts->at[pick_move(&p, &rng, acts)]);
        }
        perft_pair_close(&p);
    }
    free(acts);
    *lists += compared;
    return positions;
}

static void run_cases(const RandomCase *cases, size_t n, uint64_t seed)
{
    long positions = 0, perfts = 0, lists = 0, endings[N_ENDINGS] = {0};
    for (size_t i = 0; i < n; i++) {
        long before = positions;
        positions += run_case(&cases[i], seed + 1000 * (uint64_t)i, &perfts, endings, &lists);
        print_message("  %-24s", cases[i].game);
        for (int k = 0; k < cases[i].n_settings; k++)
            print_message(" %s", cases[i].settings[k]);
        print_message(": %ld positions\n", positions - before);
    }
    print_message("%ld positions (%ld move lists compared), %ld perft comparisons; games ended by",
                  positions, lists, perfts);
    for (int i = 0; i < N_ENDINGS; i++)
        print_message("%s %s %ld", i ? "," : "", ENDINGS[i], endings[i]);
    print_message("\n");
}

/* Move lists compared at every position. */
#define EVERY_PLY KVREF_MAX_HISTORY, 1

static void test_random_5x5(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-valley", {0}, 0, 60, 7, 3, EVERY_PLY},
        {"kings-valley", {"first-move-soldier=off"}, 1, 30, 11, 3, EVERY_PLY},
        {"kings-valley", {"locked-king-loses=off"}, 1, 40, 11, 3, EVERY_PLY},
        {"kings-valley", {"locked-king-loses=off", "first-move-soldier=off"}, 2, 20, 13, 3,
         EVERY_PLY},
        {"kings-valley", {"max-plies=12"}, 1, 30, 5, 3, EVERY_PLY},
        {"kings-valley", {"max-plies=0"}, 1, 1, 1, 2, EVERY_PLY},
        {"retrieve-the-king", {0}, 0, 50, 7, 3, EVERY_PLY},
        {"retrieve-the-king", {"locked-king-loses=off"}, 1, 30, 11, 3, EVERY_PLY},
        {"retrieve-the-king", {"first-move-soldier=off", "max-plies=40"}, 2, 20, 11, 3,
         EVERY_PLY},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 0x5000);
}

static void test_random_labyrinth(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-valley-labyrinth", {0}, 0, 12, 13, 3, EVERY_PLY},
        {"kings-valley-labyrinth", {"locked-king-loses=off"}, 1, 8, 17, 3, EVERY_PLY},
        {"kings-valley-labyrinth", {"first-move-soldier=off", "max-plies=60"}, 2, 8, 17, 3,
         EVERY_PLY},
        {"kings-valley-7x7", {"trap=off"}, 1, 8, 17, 3, EVERY_PLY},
        {"kings-valley-7x7", {"trap=off", "locked-king-loses=off", "max-plies=80"}, 3, 6, 17, 3,
         EVERY_PLY},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 0x7000);
}

/* The trap filter makes every 7x7 move generation cost the reference thousands of
 * hypothetical positions (tens of thousands late in a game, when paths are scarce), so
 * move lists are compared at every position of the opening and then every few plies;
 * texts and results are compared at every position. */
static void test_random_7x7_trap(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-valley-7x7", {0}, 0, 2, 31, 2, 30, 10},
        {"kings-valley-7x7", {"max-plies=50"}, 1, 3, 37, 2, 50, 1},
        {"kings-valley-7x7", {"trap=opponent"}, 1, 1, 31, 2, 30, 10},
        {"kings-valley-7x7", {"locked-king-loses=off", "max-plies=120"}, 2, 2, 0, 0, 30, 10},
        {"kings-valley-7x7", {"first-move-soldier=off", "max-plies=30"}, 2, 2, 0, 0, 30, 1},
        {"kings-valley-7x7", {"trap=opponent", "locked-king-loses=off", "max-plies=120"}, 3, 2,
         0, 0, 30, 10},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 0x9000);
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    char path[PERFT_TABLE_PATH];
    perft_table_path(argv[0], "kings-valley.perft", path, sizeof path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_given_start_numbers),
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_5x5),
        cmocka_unit_test(test_random_labyrinth),
        cmocka_unit_test(test_random_7x7_trap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
