/*
 * test_kotv_perft.c - King of the Valley against the plain reference generator.
 *
 * Positions are fully determined (the piles are counts; a draw is a chance action with
 * one branch per kind of tile left), so perft counts every action, chance included.
 * Three layers: the committed table tests/perft/king-of-the-valley.perft (every number
 * checked against the interface's generic make/unmake perft, the shallow ones re-derived
 * by tests/support/kotv_reference); random games from the set-up of every player count
 * and rule option, comparing at every position the position texts, the player to act,
 * the legal actions (as texts), the chance outcomes and their probabilities, and the
 * scores at the end; and the same over games whose random choices favour specialists,
 * so that priests, wizards, tax collectors and kingdoms come up often. The events seen
 * are counted and the test insists that each kind occurred. The comparing is
 * tests/support/perft_pair's.
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
#include "support/kotv_reference.h"
#include "support/perft_pair.h"

enum {
    TEXT_CAP = 8192, /* a position text */
    GAMES_SCALE = 4, /* random games per case and layer: GAMES_SCALE x PerftCase.games */
};

typedef struct Events {
    long positions, perfts, games, chance_nodes;
    long recruits, passes, legs_single, legs_identical, priests, wizard_swaps, jesters;
    long taxes, kingdoms, refills, ends_triggered, short_refills;
} Events;

/* --- the reference, as the harness reaches it -------------------------------------------- */

/* The reference's rules and position. */
typedef struct KotvRef {
    KrefRules rules;
    KrefPos pos;
} KotvRef;

static void *ref_open(const PerftPair *p, const char *text, char *err, size_t cap)
{
    KotvRef *ref = malloc(sizeof *ref);
    assert_non_null(ref);
    if (!kref_rules(p->g->players, p->settings, p->n_settings, &ref->rules))
        snprintf(err, cap, "the reference does not know these rules");
    else if (kref_parse_position(&ref->rules, text, &ref->pos, err, cap))
        return ref;
    free(ref);
    return NULL;
}

static void ref_format_position(const void *ref, char *out, size_t cap)
{
    const KotvRef *r = ref;
    kref_format_position(&r->rules, &r->pos, out, cap);
}

/* At the end, scores: reputation, then influence to break ties. */
static void ref_status(const void *ref, RefStatus *out)
{
    const KotvRef *r = ref;
    const int tm = kref_to_move(&r->pos);
    out->to_move = tm == -2 ? PLAYER_NONE : tm == -1 ? PLAYER_CHANCE : tm;
    out->has_scores = tm == -2;
    for (int q = 0; out->has_scores && q < r->rules.players; q++)
        out->scores[q] =
            kref_reputation(&r->rules, &r->pos, q) + 0.001 * kref_influence(&r->pos, q);
}

static int ref_actions(const void *ref, PairAction *out)
{
    const KotvRef *r = ref;
    KrefText *texts = malloc(sizeof *texts * KREF_MAX_ACTIONS);
    double *prob = malloc(sizeof *prob * KREF_MAX_ACTIONS);
    assert_true(texts != NULL && prob != NULL);
    const bool chance = kref_to_move(&r->pos) == -1;
    const int n = chance ? kref_chance(&r->rules, &r->pos, texts, prob)
                         : kref_legal(&r->rules, &r->pos, texts);
    for (int i = 0; i < n; i++) {
        snprintf(out[i].text, sizeof out[i].text, "%s", texts[i]);
        out[i].prob = chance ? prob[i] : 0;
    }
    free(prob);
    free(texts);
    return n;
}

static bool ref_play(void *ref, const char *text)
{
    KotvRef *r = ref;
    kref_play(&r->rules, &r->pos, text);
    return true;
}

static uint64_t ref_perft(void *ref, int depth)
{
    const KotvRef *r = ref;
    return kref_perft(&r->rules, &r->pos, depth);
}

/* One malloc'd block, which the harness frees (no close); set-ups are drawn by seed, and
 * the reference starts from the game's (no start text). */
static const PerftReference KOTV_REFERENCE = {
    ref_open, NULL, NULL, ref_format_position,
    ref_status, ref_actions, ref_play, ref_perft,
};

static void pair_open(PerftPair *p, const char *const *settings, int n_settings,
                      const char *text, uint64_t seed)
{
    perft_pair_open(p, &KOTV_REFERENCE, "king-of-the-valley", settings, n_settings, text,
                    seed);
}

static const KrefPos *ref_position(const PerftPair *p)
{
    return &((const KotvRef *)p->ref)->pos;
}

static void note_event(const char *text, const KrefPos *before, const KrefPos *after,
                       Events *ev)
{
    if (strncmp(text, "recruit", 7) == 0)
        ev->recruits++;
    else if (strcmp(text, "pass") == 0)
        ev->passes++;
    else if (strncmp(text, "swap", 4) == 0)
        ev->wizard_swaps++;
    else if (strncmp(text, "jester", 6) == 0)
        ev->jesters++;
    else if (strncmp(text, "tax", 3) == 0)
        ev->taxes++;
    else if (strncmp(text, "kingdom", 7) == 0)
        ev->kingdoms++;
    else if (strncmp(text, "refill", 6) == 0)
        ev->refills++;
    else if (strchr(text, ':'))
        ev->legs_identical++;
    else if (text[2] == '-') {
        const int to = (text[4] - '1') * 5 + (text[3] - 'a');
        if (before->valley[to][0] == 'P')
            ev->priests++;
        else
            ev->legs_single++;
    }
    if (after->end && !before->end)
        ev->ends_triggered++;
    int after_empty = 0;
    for (int sq = 0; sq < 25; sq++)
        after_empty += after->valley[sq][0] == '\0';
    if (strncmp(text, "refill", 6) == 0 && after_empty > 0)
        ev->short_refills++;
}

/* Plays the action in both; a player's action must parse back to itself. */
static void pair_play(PerftPair *p, const PairAction *a, Events *ev)
{
    if (p->g->ops->to_move(p->g, p->s) >= 0)
        perft_pair_expect_parses_back(p, a);
    else
        ev->chance_nodes++;
    KrefPos *before = malloc(sizeof *before);
    assert_non_null(before);
    *before = *ref_position(p);
    perft_pair_play(p, a);
    note_event(a->text, before, ref_position(p), ev);
    free(before);
}

/* Picks an action: uniformly, or (specialists) preferring summons of priests, wizards
 * and tax collectors, recruiting, claiming kingdoms and taking jesters. */
static int pick(const PerftPair *p, Rng *rng, const PairActions *acts, bool specialists)
{
    const int n = acts->count;
    if (p->g->ops->to_move(p->g, p->s) == PLAYER_CHANCE) {
        // Chance by its probabilities.
        const Move m = game_sample_chance(p->g, p->s, rng);
        int found = 0;
        for (int i = 0; i < n; i++)
            if (acts->at[i].move == m)
                found = i;
        return found;
    }
    if (specialists && rng_below(rng, 4) != 0) {
        int good[KREF_MAX_ACTIONS], ng = 0;
        for (int i = 0; i < n; i++) {
            const char *t = acts->at[i].text;
            bool g = strncmp(t, "recruit", 7) == 0 || strncmp(t, "kingdom", 7) == 0;
            if (t[2] == '-' && strchr(t, ':') == NULL) {
                const int to = (t[4] - '1') * 5 + (t[3] - 'a');
                g = strchr("PZTJ", ref_position(p)->valley[to][0]) != NULL;
            } else if (t[2] == '-') {
                const int sq = (t[7] - '1') * 5 + (t[6] - 'a');
                g = strchr("ZTJN", ref_position(p)->valley[sq][0]) != NULL;
            }
            if (g)
                good[ng++] = i;
        }
        if (ng > 0)
            return good[rng_below(rng, (uint32_t)ng)];
    }
    return (int)rng_below(rng, (uint32_t)n);
}

static void walk(PerftPair *p, Rng *rng, int perft_every, int perft_depth, bool specialists,
                 Events *ev)
{
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    for (;;) {
        const int n = perft_pair_compare(p, acts, 0);
        ev->positions++;
        if (perft_every > 0 && ev->positions % perft_every == 0) {
            perft_pair_compare_perft(p, perft_depth);
            ev->perfts++;
        }
        if (n == 0)
            break;
        pair_play(p, &acts->at[pick(p, rng, acts, specialists)], ev);
    }
    ev->games++;
    free(acts);
}

/* --- (a) the committed table ----------------------------------------------------------- */

/* The reference re-derives D1-D3, so that an edited table is caught. */
static void test_perft_table(void **state)
{
    static const PerftTableCheck check = {
        .reference = &KOTV_REFERENCE,
        .game = "king-of-the-valley",
        .min_positions = 10,
        .reference_depth = 3,
    };
    perft_pair_check_table(*state, &check);
}

/* --- (b) random games ------------------------------------------------------------------- */

static const PerftCase CASES[] = {
    {{0}, 0, 6},
    {{"players=3"}, 1, 3},
    {{"players=4"}, 1, 3},
    {{"hill-refill=i-iii"}, 1, 2},
    {{"short-column=allow"}, 1, 2},
    {{"jester-couples=on"}, 1, 1},
    {{"token-supply=unlimited", "players=4"}, 2, 2},
    {{"max-rounds=5", "players=3"}, 2, 1},
    {{"old-holes=first", "short-column=allow"}, 2, 2},
    {{"priest-coins=after"}, 1, 2},
    {{"identical=tile"}, 1, 2},
};

static void report(const char *what, const Events *ev)
{
    print_message("%s: %ld games, %ld positions, %ld perft comparisons, %ld chance nodes; "
                  "%ld recruits, %ld passes, %ld single and %ld identical summons, %ld priests, "
                  "%ld wizard swaps, %ld jesters, %ld taxes, %ld kingdoms, %ld refills (%ld "
                  "short), %ld ends triggered\n",
                  what, ev->games, ev->positions, ev->perfts, ev->chance_nodes, ev->recruits,
                  ev->passes, ev->legs_single, ev->legs_identical, ev->priests, ev->wizard_swaps,
                  ev->jesters, ev->taxes, ev->kingdoms, ev->refills, ev->short_refills,
                  ev->ends_triggered);
}

static void run_cases(bool specialists, uint64_t seed_base, Events *ev)
{
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++)
        for (int k = 0; k < GAMES_SCALE * CASES[c].games; k++) {
            PerftPair p;
            const uint64_t seed = seed_base + 100 * c + (uint64_t)k;
            pair_open(&p, CASES[c].settings, CASES[c].n_settings, NULL, seed);
            Rng rng;
            rng_seed(&rng, seed);
            walk(&p, &rng, k % 5 == 4 ? 601 : 97, k % 5 == 4 ? 3 : 2, specialists, ev);
            perft_pair_close(&p);
        }
}

static void test_random_games(void **state)
{
    (void)state;
    Events ev = {0};
    run_cases(false, 0x4B0700u, &ev);
    report("uniform random games", &ev);
    assert_true(ev.recruits > 0 && ev.legs_identical > 0 && ev.refills > 0 &&
                ev.ends_triggered > 0 && ev.chance_nodes > 0);
}

/* Replaces the value of field `key` in a position text. */
static void set_field(char *text, size_t cap, const char *key, const char *value)
{
    char needle[32];
    snprintf(needle, sizeof needle, " %s=", key);
    char *at = strstr(text, needle);
    assert_non_null(at);
    at += strlen(needle);
    char *end = strchr(at, ' ');
    char *rest = strdup(end ? end : "");
    snprintf(at, cap - (size_t)(at - text), "%s%s", value, rest);
    free(rest);
}

/* Games whose piles are almost empty from the start: the hill runs short at once, so the
 * end of the game, short hill columns and empty valley squares come up. */
static void test_endgame_games(void **state)
{
    (void)state;
    Events ev = {0};
    static const char *const piles[][3] = {
        {"-", "-", "W,F,D/C,F,W"}, {"2F,W", "-", "F,W,F/-"}, {"Q", "D,J", "W/F"}, {"-", "-", "-/-"}};
    static const PerftCase ends[] = {
        {{0}, 0, 1},
        {{"short-column=allow"}, 1, 1},
        {{"players=4"}, 1, 1},
        {{"players=3", "short-column=allow"}, 2, 1},
    };
    for (size_t c = 0; c < sizeof ends / sizeof ends[0]; c++)
        for (size_t k = 0; k < sizeof piles / sizeof piles[0]; k++)
            for (int rep = 0; rep < 4; rep++) {
                const uint64_t seed = 0xE4D000u + 100 * c + 10 * k + (uint64_t)rep;
                Game *g = perft_game_create("king-of-the-valley", ends[c].settings,
                                            ends[c].n_settings);
                GameState *s = game_state_new(g);
                g->ops->new_game(g, s, seed);
                StrBuf sb;
                sb_init(&sb);
                g->ops->format_position(g, s, &sb);
                char text[TEXT_CAP];
                snprintf(text, sizeof text, "%s", sb_str(&sb));
                sb_free(&sb);
                free(s);
                game_destroy(g);
                set_field(text, sizeof text, "pile2", piles[k][0]);
                set_field(text, sizeof text, "pile3", piles[k][1]);
                set_field(text, sizeof text, "hill", piles[k][2]);
                PerftPair p;
                pair_open(&p, ends[c].settings, ends[c].n_settings, text, 0);
                Rng rng;
                rng_seed(&rng, seed);
                walk(&p, &rng, 13, 3, rep % 2 == 1, &ev);
                perft_pair_close(&p);
            }
    report("games with nearly empty piles", &ev);
    assert_true(ev.short_refills > 0 && ev.ends_triggered > 0);
}

static void test_specialist_games(void **state)
{
    (void)state;
    Events ev = {0};
    run_cases(true, 0x5BEC00u, &ev);
    report("games favouring specialists", &ev);
    assert_true(ev.priests > 0 && ev.wizard_swaps > 0 && ev.jesters > 0 && ev.taxes > 0 &&
                ev.kingdoms > 0 && ev.recruits > 0);
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    char path[PERFT_TABLE_PATH];
    perft_table_path(argv[0], "king-of-the-valley.perft", path, sizeof path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_specialist_games),
        cmocka_unit_test(test_endgame_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
