/*
 * test_kings_castle_perft.c - King's Castle against the plain reference generator.
 *
 * Three layers: the committed table tests/perft/kings-castle.perft (its shallow numbers
 * re-derived by tests/support/kc_reference, every number checked against the fast perft
 * hook and the interface's generic make/unmake perft); random games from the start; and
 * random positions strewn with men in and around the Castle (so that throws at walls and
 * doors, phalanx captures, splits and the Throne come up often), played on for a few
 * moves. At every visited position the move lists (as texts), the position texts and the
 * results of the two must agree, under every rule option; perft is compared now and
 * again. The events seen are counted, and the test insists that each kind occurred. The
 * comparing is tests/support/perft_pair's.
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
#include "support/kc_reference.h"
#include "support/perft_pair.h"
#include "support/slow_build.h"

_Static_assert((int)KCREF_MAX_MOVES <= (int)PERFT_PAIR_MAX_REF_ACTIONS,
               "the harness holds every move the reference lists");

/* Events seen in the random games, to show that the rules in question were exercised. */
typedef struct Events {
    long positions, perfts;
    long throws, throws_across_door, captures, splits, castle_entries;
    long throne_taken, throne_lost, throne_wins, repetitions, swaps;
} Events;

/* --- the reference, as the harness reaches it --------------------------------------------- */

/* The reference game, and the move it played last, for the events. */
typedef struct KcRef {
    KcRefGame *game;
    KcRefMove last;
} KcRef;

static KcRefGame *game_of(const void *ref)
{
    return ((const KcRef *)ref)->game;
}

static void *ref_open(const PerftPair *p, const char *text, char *err, size_t cap)
{
    KcRefRules rules;
    KcRef *ref = calloc(1, sizeof *ref);
    assert_non_null(ref);
    if (kcref_rules(p->settings, p->n_settings, &rules, err, cap))
        ref->game = kcref_game_new(&rules, text, err, cap);
    if (ref->game != NULL)
        return ref;
    free(ref);
    return NULL;
}

static void ref_close(void *ref)
{
    free(game_of(ref));
    free(ref);
}

static void ref_start_text(const PerftPair *p, char *out, size_t cap)
{
    (void)p;
    snprintf(out, cap, "6/7/8/9/10/11/10/9/8/7/6 w 0");
}

static void ref_format_position(const void *ref, char *out, size_t cap)
{
    kcref_format_position(kcref_current(game_of(ref)), out, cap);
}

static void ref_status(const void *ref, RefStatus *out)
{
    const KcRefGame *g = game_of(ref);
    const KcRefResult r = kcref_result(g, &out->why);
    ref_status_two_player(out, kcref_current(g)->to_move, r != KCREF_ONGOING,
                          r == KCREF_WHITE_WINS ? 0 : r == KCREF_BLACK_WINS ? 1 : -1);
}

static int ref_actions(const void *ref, PairAction *out)
{
    const KcRefGame *g = game_of(ref);
    KcRefMove *moves = malloc(sizeof *moves * KCREF_MAX_MOVES);
    assert_non_null(moves);
    const int n = kcref_legal_moves(g, moves);
    for (int i = 0; i < n; i++)
        kcref_format_move(kcref_current(g), moves[i], out[i].text);
    free(moves);
    return n;
}

static bool ref_play(void *ref, const char *text)
{
    KcRef *r = ref;
    if (!kcref_find_move(r->game, text, &r->last))
        return false;
    kcref_play(r->game, r->last);
    return true;
}

static uint64_t ref_perft(void *ref, int depth)
{
    return kcref_perft(game_of(ref), depth);
}

static const PerftReference KC_REFERENCE = {
    ref_open, ref_close, ref_start_text, ref_format_position,
    ref_status, ref_actions, ref_play, ref_perft,
};

static void pair_open(PerftPair *p, const char *const *settings, int n_settings,
                      const char *text)
{
    perft_pair_open(p, &KC_REFERENCE, "kings-castle", settings, n_settings, text, 1);
}

/* The harness's comparison, and the counting perft must count the listed moves. */
static int compare_position(const PerftPair *p, PairActions *acts)
{
    const int n = perft_pair_compare(p, acts, 0);
    const int counted = (int)game_perft(p->g, p->s, 1);
    if (counted != n)
        fail_msg("the counting perft says %d moves, the list has %d\n  moves: %s", counted, n,
                 p->log);
    return n;
}

static int count_men(const KcRefPos *p, char who)
{
    int n = 0;
    for (int r = 0; r < KCREF_SIDE; r++)
        for (int q = 0; q < KCREF_SIDE; q++)
            n += p->cell[r][q] == who;
    return n;
}

/* Sorts out what the move just played did, from the reference positions. */
static void note_events(const KcRefPos *before, const KcRefPos *after, KcRefMove m,
                        Events *ev)
{
    const char me = before->to_move ? 'B' : 'W', them = before->to_move ? 'W' : 'B';
    const char throne_before = before->cell[5][5], throne_after = after->cell[5][5];
    if (throne_after == me && throne_before != me)
        ev->throne_taken++;
    if (throne_before == them && throne_after != them)
        ev->throne_lost++;
    if (m.kind == KCREF_SWAP)
        ev->swaps++;
    if (m.kind != KCREF_SLIDE)
        return;
    const int lost = count_men(before, them) - count_men(after, them) -
                     (throne_before == them && throne_after != them);
    if (lost > 0)
        ev->captures++;
    if (m.k == 1) {
        // A single that moved an opposing man threw it; at the Castle when the man went
        // in or out through a door.
        int from_q = 0, from_r = 0, to_q = 0, to_r = 0, moved = 0;
        for (int r = 0; r < KCREF_SIDE; r++)
            for (int q = 0; q < KCREF_SIDE; q++) {
                if (before->cell[r][q] == them && after->cell[r][q] != them) {
                    from_q = q - 5;
                    from_r = r - 5;
                    moved++;
                }
                if (before->cell[r][q] != them && after->cell[r][q] == them) {
                    to_q = q - 5;
                    to_r = r - 5;
                }
            }
        if (moved > 0) {
            ev->throws++;
            if (kcref_in_castle(from_q, from_r) != kcref_in_castle(to_q, to_r))
                ev->throws_across_door++;
        }
        return;
    }
    if (m.k < kcref_line_length(before, m.q, m.r, m.dir))
        ev->splits++;
    // The front went in through a door when it started outside and ended inside.
    static const int DQ[6] = {1, 1, 0, -1, -1, 0}, DR[6] = {0, -1, -1, 0, 1, 1};
    if (!kcref_in_castle(m.q, m.r) &&
        kcref_in_castle(m.q + m.dist * DQ[m.dir], m.r + m.dist * DR[m.dir]))
        ev->castle_entries++;
}

/* Plays the move in both; its text must parse back to it. */
static void pair_play(PerftPair *p, const PairAction *a, Events *ev)
{
    perft_pair_expect_parses_back(p, a);
    const KcRefPos before = *kcref_current(game_of(p->ref));
    perft_pair_play(p, a);
    const KcRef *ref = p->ref;
    note_events(&before, kcref_current(ref->game), ref->last, ev);
}

static bool is_slide(const char *text)
{
    return strchr(text, '-') != NULL || strchr(text, 'x') != NULL;
}

/* Picks the next move: now and then one that repeats an earlier position, so that
 * repetition draws happen often enough to be compared. */
static int pick_move(const PerftPair *p, Rng *rng, const PairActions *acts, bool seek_repeats)
{
    KcRefGame *ref = game_of(p->ref);
    const int n = acts->count;
    if (seek_repeats && rng_below(rng, 8) != 0) {
        KcRefMove *moves = malloc(sizeof *moves * KCREF_MAX_MOVES);
        int *repeats = malloc(sizeof *repeats * (size_t)n);
        assert_true(moves != NULL && repeats != NULL);
        const int nm = kcref_legal_moves(ref, moves);
        assert_int_equal(nm, n);
        int nrep = 0;
        for (int i = 0; i < nm; i++) {
            kcref_play(ref, moves[i]);
            const bool repeats_one = kcref_occurrences(ref) >= 1;
            kcref_undo(ref);
            if (!repeats_one)
                continue;
            char t[KCREF_MOVE_TEXT];
            kcref_format_move(kcref_current(ref), moves[i], t);
            for (int j = 0; j < n; j++)
                if (strcmp(acts->at[j].text, t) == 0)
                    repeats[nrep++] = j;
        }
        const int pick = nrep > 0 ? repeats[rng_below(rng, (uint32_t)nrep)] : -1;
        free(repeats);
        free(moves);
        if (pick >= 0)
            return pick;
    }
    // Slides are rarer than placements; favour them so that the men interact.
    if (rng_below(rng, 3) != 0) {
        int slides = 0;
        for (int i = 0; i < n; i++)
            slides += is_slide(acts->at[i].text);
        if (slides > 0) {
            int k = (int)rng_below(rng, (uint32_t)slides);
            for (int i = 0; i < n; i++)
                if (is_slide(acts->at[i].text) && k-- == 0)
                    return i;
        }
    }
    return (int)rng_below(rng, (uint32_t)n);
}

/* Plays up to `plies` moves from the pair's position, comparing every position. */
static void walk(PerftPair *p, Rng *rng, int plies, int perft_every, int perft_depth,
                 bool seek_repeats, Events *ev)
{
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    for (int ply = 0;; ply++) {
        const int n = compare_position(p, acts);
        ev->positions++;
        if (perft_every > 0 && ev->positions % perft_every == 0) {
            perft_pair_compare_perft(p, perft_depth);
            ev->perfts++;
        }
        if (n == 0) {
            const char *why;
            const KcRefResult r = kcref_result(game_of(p->ref), &why);
            if (strcmp(why, "own man on the Throne") == 0)
                ev->throne_wins++;
            if (r == KCREF_DRAW && strcmp(why, "third occurrence") == 0)
                ev->repetitions++;
            break;
        }
        if (ply >= plies)
            break;
        int i = pick_move(p, rng, acts, seek_repeats);
        if (strcmp(acts->at[n - 1].text, "swap") == 0 && rng_below(rng, 2) == 0)
            i = n - 1; // sorted texts: "swap" comes after the cell names

        pair_play(p, &acts->at[i], ev);
    }
    free(acts);
}

/* --- (a) the committed table -------------------------------------------------------------- */

/* The reference re-derives D1-D2, so that an edited table is caught. */
static void test_perft_table(void **state)
{
    static const PerftTableCheck check = {
        .reference = &KC_REFERENCE,
        .game = "kings-castle",
        .min_positions = 10,
        .reference_depth = 2,
    };
    perft_pair_check_table(*state, &check);
}

/* --- (b) random games from the start ------------------------------------------------------ */

static const PerftCase CASES[] = {
    {{0}, 0, 6},
    {{"swap=off"}, 1, 1},
    {{"single-range=full"}, 1, 3},
    {{"single-throne=cross"}, 1, 2},
    {{"capture-limit=entered"}, 1, 3},
    {{"throne-entry=move"}, 1, 3},
    {{"throne-loss=broken"}, 1, 3},
    {{"no-move=draw"}, 1, 1},
    {{"repetition=off"}, 1, 1},
    {{"max-plies=30"}, 1, 1},
    {{"throne-entry=move", "throne-loss=broken", "single-range=full"}, 3, 2},
};

static void test_random_games(void **state)
{
    (void)state;
    Events ev = {0};
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        for (int k = 0; k < CASES[c].games; k++) {
            PerftPair p;
            pair_open(&p, CASES[c].settings, CASES[c].n_settings, NULL);
            Rng rng;
            rng_seed(&rng, 0xC4570000u + 100 * c + (uint64_t)k);
            walk(&p, &rng, 120, 37, 2, k % 2 == 1, &ev);
            perft_pair_close(&p);
        }
    }
    print_message("%ld positions compared, %ld perft comparisons; %ld swaps, %ld repetition "
                  "draws\n",
                  ev.positions, ev.perfts, ev.swaps, ev.repetitions);
    assert_true(ev.swaps > 0 && ev.repetitions > 0);
}

/* --- (c) random positions ------------------------------------------------------------------ */

/* A random position: men strewn with a density that favours the Castle and its doors,
 * the Throne sometimes taken, either side to move. */
static void random_position(Rng *rng, char *out, size_t cap)
{
    KcRefPos p;
    memset(&p, 0, sizeof p);
    memset(p.cell, '.', sizeof p.cell);
    const int density = 10 + (int)rng_below(rng, 45); // percent, outside
    const int inner = 20 + (int)rng_below(rng, 60);   // percent, near the centre
    const int white_share = 30 + (int)rng_below(rng, 41);
    for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++)
        for (int q = -KCREF_RADIUS; q <= KCREF_RADIUS; q++) {
            const int dist = abs(q) > abs(r) ? (abs(q) > abs(q + r) ? abs(q) : abs(q + r))
                                             : (abs(r) > abs(q + r) ? abs(r) : abs(q + r));
            if (dist > KCREF_RADIUS || (q == 0 && r == 0))
                continue;
            const int chance = dist <= 3 ? inner : density;
            if ((int)rng_below(rng, 100) < chance)
                p.cell[r + 5][q + 5] =
                    (int)rng_below(rng, 100) < white_share ? 'W' : 'B';
        }
    const int throne = (int)rng_below(rng, 4);
    if (throne == 1)
        p.cell[5][5] = 'W';
    else if (throne == 2)
        p.cell[5][5] = 'B';
    p.to_move = (int)rng_below(rng, 2);
    p.ply = 2 + (int)rng_below(rng, 60);
    kcref_format_position(&p, out, cap);
}

static void test_random_positions(void **state)
{
    (void)state;
    static const PerftCase POS_CASES[] = {
        {{0}, 0, 700},
        {{"single-range=full"}, 1, 200},
        {{"single-throne=cross"}, 1, 200},
        {{"single-throne=cross", "single-range=full"}, 2, 200},
        {{"capture-limit=entered"}, 1, 300},
        {{"throne-entry=move"}, 1, 200},
        {{"throne-loss=broken"}, 1, 200},
        {{"throne-entry=move", "throne-loss=broken"}, 2, 100},
        {{"no-move=draw", "repetition=off"}, 2, 60},
        {{"max-plies=70"}, 1, 60},
    };
    Events ev = {0};
    for (size_t c = 0; c < sizeof POS_CASES / sizeof POS_CASES[0]; c++) {
        Rng rng;
        rng_seed(&rng, 0x9051710Eu + 1000 * c);
        for (int k = 0; k < SLOW_BUILD_SHARE(POS_CASES[c].games); k++) {
            char text[KCREF_POSITION_TEXT];
            random_position(&rng, text, sizeof text);
            PerftPair p;
            pair_open(&p, POS_CASES[c].settings, POS_CASES[c].n_settings, text);
            walk(&p, &rng, 8, 23, 2, k % 3 == 0, &ev);
            perft_pair_close(&p);
        }
    }
    print_message("%ld positions compared, %ld perft comparisons; seen: %ld throws (%ld "
                  "through a door), %ld captures, %ld splits, %ld phalanxes entering the "
                  "Castle, %ld Throne taken, %ld Throne lost, %ld Throne wins, %ld repetition "
                  "draws\n",
                  ev.positions, ev.perfts, ev.throws, ev.throws_across_door, ev.captures,
                  ev.splits, ev.castle_entries, ev.throne_taken, ev.throne_lost,
                  ev.throne_wins, ev.repetitions);
    assert_true(ev.throws > SLOW_BUILD_SHARE(50) && ev.throws_across_door > SLOW_BUILD_SHARE(10) &&
                ev.captures > SLOW_BUILD_SHARE(50));
    assert_true(ev.splits > SLOW_BUILD_SHARE(50) && ev.castle_entries > SLOW_BUILD_SHARE(10));
    assert_true(ev.throne_taken > SLOW_BUILD_SHARE(20) && ev.throne_lost > SLOW_BUILD_SHARE(5) &&
                ev.throne_wins > SLOW_BUILD_SHARE(5));
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    char path[PERFT_TABLE_PATH];
    perft_table_path(argv[0], "kings-castle.perft", path, sizeof path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
