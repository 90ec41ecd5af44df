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
 * are counted and the test insists that each kind occurred.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/rng.h"
#include "games/kingofthevalley/kingofthevalley.h"
#include "support/kotv_reference.h"

enum {
    MAX_SETTINGS = 4,
    LOG_CAP = 32768,
    LINE_CAP = 8192,
    MAX_DEPTHS = 8,
    LIST_TEXT = 32768,
    GAMES_SCALE = 4, /* random games per case and layer: GAMES_SCALE x Case.games */
};

typedef struct Events {
    long positions, perfts, games, chance_nodes;
    long recruits, passes, legs_single, legs_identical, priests, wizard_swaps, jesters;
    long taxes, kingdoms, refills, ends_triggered, short_refills;
} Events;

typedef struct Pair {
    const char *settings[MAX_SETTINGS];
    int n_settings;
    Game *g;
    GameState *s;
    void *undo;
    KrefRules rules;
    KrefPos *ref;
    char log[LOG_CAP];
} Pair;

static void describe(const Pair *p, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "king-of-the-valley");
    for (int i = 0; i < p->n_settings && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, " %s", p->settings[i]);
}

static void log_add(Pair *p, const char *text)
{
    size_t len = strlen(p->log);
    if (len + strlen(text) + 3 < sizeof p->log)
        snprintf(p->log + len, sizeof p->log - len, " %s;", text);
}

/* Opens the pair at a position text, or at the set-up of `seed` when text is NULL. */
static void pair_open(Pair *p, const char *const *settings, int n, const char *text,
                      uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->n_settings = n;
    for (int i = 0; i < n; i++)
        p->settings[i] = settings[i];
    ErrBuf err;
    err_clear(&err);
    if (game_create(&kotv_ops, 0, settings, n, &p->g, &err) != STATUS_OK)
        fail_msg("game_create: %s", err.msg);
    p->s = game_state_new(p->g);
    p->undo = game_undo_new(p->g);
    p->ref = malloc(sizeof *p->ref);
    assert_true(p->s != NULL && p->undo != NULL && p->ref != NULL);
    if (!kref_rules(p->g->players, settings, n, &p->rules))
        fail_msg("the reference does not know these rules");
    char *start = NULL;
    if (text == NULL) {
        kotv_ops.new_game(p->g, p->s, seed);
        StrBuf sb;
        sb_init(&sb);
        kotv_ops.format_position(p->g, p->s, &sb);
        start = strdup(sb_str(&sb));
        sb_free(&sb);
        text = start;
    } else if (kotv_ops.parse_position(p->g, p->s, text, &err) != STATUS_OK) {
        fail_msg("fast parse of '%s': %s", text, err.msg);
    }
    char rerr[128];
    if (!kref_parse_position(&p->rules, text, p->ref, rerr, sizeof rerr))
        fail_msg("reference parse of '%s': %s", text, rerr);
    snprintf(p->log, sizeof p->log, "%s :", text);
    free(start);
}

static void pair_close(Pair *p)
{
    free(p->ref);
    free(p->undo);
    free(p->s);
    game_destroy(p->g);
}

typedef char Text[KREF_TEXT];

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void join(Text *t, int n, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", t[i]);
}

/* The fast game's actions (or chance outcomes with probabilities) as sorted texts. */
static int fast_actions(const Pair *p, Text *out, Move *moves, double *prob)
{
    MoveList *ml = malloc(sizeof *ml);
    ChanceList *cl = malloc(sizeof *cl);
    assert_true(ml != NULL && cl != NULL);
    int n;
    const Move *src;
    if (kotv_ops.to_move(p->g, p->s) == PLAYER_CHANCE) {
        n = kotv_ops.chance_outcomes(p->g, p->s, cl);
        src = cl->outcomes;
    } else {
        n = kotv_ops.gen_moves(p->g, p->s, ml);
        src = ml->moves;
    }
    // Sort texts with their moves and probabilities alongside.
    for (int i = 0; i < n; i++) {
        StrBuf sb;
        sb_init(&sb);
        kotv_ops.format_move(p->g, p->s, src[i], &sb);
        snprintf(out[i], sizeof out[i], "%s", sb_str(&sb));
        sb_free(&sb);
        moves[i] = src[i];
        prob[i] = kotv_ops.to_move(p->g, p->s) == PLAYER_CHANCE ? cl->prob[i] : 0;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(out[j - 1], out[j]) > 0; j--) {
            Text t;
            memcpy(t, out[j], sizeof t);
            memcpy(out[j], out[j - 1], sizeof t);
            memcpy(out[j - 1], t, sizeof t);
            const Move m = moves[j];
            moves[j] = moves[j - 1];
            moves[j - 1] = m;
            const double d = prob[j];
            prob[j] = prob[j - 1];
            prob[j - 1] = d;
        }
    free(ml);
    free(cl);
    return n;
}

/* Everything observable must agree. Leaves the agreed sorted texts and the fast moves in
 * `texts` / `moves` and returns their count. */
static int compare_position(const Pair *p, Text *texts, Move *moves)
{
    char rules[256];
    describe(p, rules, sizeof rules);
    char *ref_pos = malloc(KREF_POSITION_TEXT);
    assert_non_null(ref_pos);
    kref_format_position(&p->rules, p->ref, ref_pos, KREF_POSITION_TEXT);
    StrBuf sb;
    sb_init(&sb);
    kotv_ops.format_position(p->g, p->s, &sb);
    if (strcmp(sb_str(&sb), ref_pos) != 0)
        fail_msg("[%s] position text\n  fast %s\n  ref  %s\n  moves: %s", rules, sb_str(&sb),
                 ref_pos, p->log);
    sb_free(&sb);
    ErrBuf err;
    if (!kotv_ops.is_ok(p->g, p->s, &err))
        fail_msg("[%s] is_ok at '%s': %s", rules, ref_pos, err.msg);
    const int tm = kotv_ops.to_move(p->g, p->s), rtm = kref_to_move(p->ref);
    const int want = rtm == -2 ? PLAYER_NONE : rtm == -1 ? PLAYER_CHANCE : rtm;
    if (tm != want)
        fail_msg("[%s] at '%s' fast to_move %d, reference %d\n  moves: %s", rules, ref_pos, tm,
                 want, p->log);
    double prob[KREF_MAX_ACTIONS], rprob[KREF_MAX_ACTIONS];
    Text *ref = malloc(sizeof *ref * KREF_MAX_ACTIONS);
    char *a = malloc(LIST_TEXT), *b = malloc(LIST_TEXT);
    assert_true(ref != NULL && a != NULL && b != NULL);
    const int nf = fast_actions(p, texts, moves, prob);
    int nr;
    if (tm == PLAYER_CHANCE) {
        nr = kref_chance(&p->rules, p->ref, ref, rprob);
        // Sort with probabilities.
        for (int i = 1; i < nr; i++)
            for (int j = i; j > 0 && strcmp(ref[j - 1], ref[j]) > 0; j--) {
                Text t;
                memcpy(t, ref[j], sizeof t);
                memcpy(ref[j], ref[j - 1], sizeof t);
                memcpy(ref[j - 1], t, sizeof t);
                const double d = rprob[j];
                rprob[j] = rprob[j - 1];
                rprob[j - 1] = d;
            }
    } else {
        nr = kref_legal(&p->rules, p->ref, ref);
        qsort(ref, (size_t)nr, sizeof ref[0], cmp_text);
    }
    join(texts, nf, a, LIST_TEXT);
    join(ref, nr, b, LIST_TEXT);
    if (strcmp(a, b) != 0)
        fail_msg("[%s] actions at '%s'\n  fast (%d): %s\n  ref  (%d): %s\n  moves: %s", rules,
                 ref_pos, nf, a, nr, b, p->log);
    if (tm == PLAYER_CHANCE)
        for (int i = 0; i < nf; i++)
            if (fabs(prob[i] - rprob[i]) > 1e-12)
                fail_msg("[%s] at '%s' chance %s: %g, reference %g", rules, ref_pos, texts[i],
                         prob[i], rprob[i]);
    if (tm == PLAYER_NONE) {
        for (int q = 0; q < p->g->players; q++) {
            const double want_score =
                kref_reputation(&p->rules, p->ref, q) + 0.001 * kref_influence(p->ref, q);
            if (fabs(kotv_ops.score(p->g, p->s, q) - want_score) > 1e-9)
                fail_msg("[%s] at '%s' score of player %d: %g, reference %g", rules, ref_pos, q + 1,
                         kotv_ops.score(p->g, p->s, q), want_score);
        }
    }
    free(ref);
    free(a);
    free(b);
    free(ref_pos);
    return nf;
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

static void pair_play(Pair *p, Text *texts, const Move *moves, int i, Events *ev)
{
    const char *text = texts[i];
    // A player's action must parse back to the same move.
    if (kotv_ops.to_move(p->g, p->s) >= 0) {
        Move back = MOVE_NONE;
        ErrBuf err;
        err_clear(&err);
        if (kotv_ops.parse_move(p->g, p->s, text, &back, &err) != STATUS_OK || back != moves[i])
            fail_msg("action '%s' does not parse back: %s\n  moves: %s", text, err.msg, p->log);
    } else {
        ev->chance_nodes++;
    }
    KrefPos *before = malloc(sizeof *before);
    assert_non_null(before);
    *before = *p->ref;
    kotv_ops.make(p->g, p->s, moves[i], p->undo);
    kref_play(&p->rules, p->ref, text);
    note_event(text, before, p->ref, ev);
    free(before);
    log_add(p, text);
}

static void compare_perft(const Pair *p, int depth, Events *ev)
{
    const uint64_t want = kref_perft(&p->rules, p->ref, depth);
    const uint64_t fast = game_perft(p->g, p->s, depth);
    const uint64_t generic = game_perft_generic(p->g, p->s, depth);
    ev->perfts++;
    if (fast != want || generic != want) {
        char rules[256];
        describe(p, rules, sizeof rules);
        fail_msg("[%s] perft %d: reference %llu, fast %llu, generic %llu\n  moves: %s", rules,
                 depth, (unsigned long long)want, (unsigned long long)fast,
                 (unsigned long long)generic, p->log);
    }
}

/* Picks an action: uniformly, or (specialists) preferring summons of priests, wizards
 * and tax collectors, recruiting, claiming kingdoms and taking jesters. */
static int pick(const Pair *p, Rng *rng, Text *texts, int n, bool specialists)
{
    if (kotv_ops.to_move(p->g, p->s) == PLAYER_CHANCE) {
        // Chance by its probabilities.
        ChanceList cl;
        kotv_ops.chance_outcomes(p->g, p->s, &cl);
        const Move m = game_sample_chance(p->g, p->s, rng);
        StrBuf sb;
        sb_init(&sb);
        kotv_ops.format_move(p->g, p->s, m, &sb);
        int found = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(texts[i], sb_str(&sb)) == 0)
                found = i;
        sb_free(&sb);
        return found;
    }
    if (specialists && rng_below(rng, 4) != 0) {
        int good[KREF_MAX_ACTIONS], ng = 0;
        for (int i = 0; i < n; i++) {
            const char *t = texts[i];
            bool g = strncmp(t, "recruit", 7) == 0 || strncmp(t, "kingdom", 7) == 0;
            if (t[2] == '-' && strchr(t, ':') == NULL) {
                const int to = (t[4] - '1') * 5 + (t[3] - 'a');
                g = strchr("PZTJ", p->ref->valley[to][0]) != NULL;
            } else if (t[2] == '-') {
                const int sq = (t[7] - '1') * 5 + (t[6] - 'a');
                g = strchr("ZTJN", p->ref->valley[sq][0]) != NULL;
            }
            if (g)
                good[ng++] = i;
        }
        if (ng > 0)
            return good[rng_below(rng, (uint32_t)ng)];
    }
    return (int)rng_below(rng, (uint32_t)n);
}

static void walk(Pair *p, Rng *rng, int perft_every, int perft_depth, bool specialists,
                 Events *ev)
{
    Text *texts = malloc(sizeof *texts * MOVELIST_CAP);
    Move *moves = malloc(sizeof *moves * MOVELIST_CAP);
    assert_true(texts != NULL && moves != NULL);
    for (;;) {
        const int n = compare_position(p, texts, moves);
        ev->positions++;
        if (perft_every > 0 && ev->positions % perft_every == 0)
            compare_perft(p, perft_depth, ev);
        if (n == 0)
            break;
        pair_play(p, texts, moves, pick(p, rng, texts, n, specialists), ev);
    }
    ev->games++;
    free(texts);
    free(moves);
}

/* --- (a) the committed table ----------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* One line: "[name=value ...] <position> ;D1 n ;D2 n ...". */
static void check_table_line(char *line, int line_no, int ref_depth, Events *ev)
{
    const char *settings[MAX_SETTINGS];
    int ns = 0;
    char *p = line;
    if (*p == '[') {
        char *close = strchr(p, ']');
        if (close == NULL)
            fail_msg("perft table line %d: unclosed '['", line_no);
        *close = '\0';
        char *save = NULL;
        for (char *w = strtok_r(p + 1, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            if (ns == MAX_SETTINGS)
                fail_msg("perft table line %d: too many settings", line_no);
            settings[ns++] = w;
        }
        p = close + 1;
    }
    char *semi = strchr(p, ';');
    if (semi == NULL)
        fail_msg("perft table line %d: expected <position> ;D1 n", line_no);
    *semi = '\0';
    char *pos = trim(p);
    Pair pair;
    pair_open(&pair, settings, ns, pos, 0);
    for (char *f = semi + 1; f;) {
        char *next = strchr(f, ';');
        if (next)
            *next++ = '\0';
        int depth;
        unsigned long long n;
        if (sscanf(trim(f), "D%d %llu", &depth, &n) != 2 || depth < 1 || depth > MAX_DEPTHS)
            fail_msg("perft table line %d: bad field '%s'", line_no, f);
        const uint64_t fast = game_perft(pair.g, pair.s, depth);
        const uint64_t generic = game_perft_generic(pair.g, pair.s, depth);
        if (fast != n || generic != n)
            fail_msg("perft table line %d D%d: table %llu, fast %llu, generic %llu", line_no,
                     depth, n, (unsigned long long)fast, (unsigned long long)generic);
        if (depth <= ref_depth && kref_perft(&pair.rules, pair.ref, depth) != n)
            fail_msg("perft table line %d D%d: the reference disagrees with the table", line_no,
                     depth);
        ev->perfts++;
        f = next;
    }
    pair_close(&pair);
}

static void test_perft_table(void **state)
{
    (void)state;
    const char *root = getenv("CROWN_ROOT");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/perft/king-of-the-valley.perft", root ? root : ".");
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s (run from the source root or set CROWN_ROOT)", path);
    char *line = malloc(LINE_CAP);
    assert_non_null(line);
    int line_no = 0, checked = 0;
    Events ev = {0};
    while (fgets(line, LINE_CAP, f) != NULL) {
        line_no++;
        char *t = trim(line);
        if (t[0] == '\0' || t[0] == '#')
            continue;
        check_table_line(t, line_no, 3, &ev);
        checked++;
    }
    fclose(f);
    free(line);
    assert_true(checked >= 10);
    print_message("perft table: %d positions, %ld numbers\n", checked, ev.perfts);
}

/* --- (b) random games ------------------------------------------------------------------- */

typedef struct Case {
    const char *settings[MAX_SETTINGS];
    int n_settings;
    int games;
} Case;

static const Case CASES[] = {
    {{0}, 0, 6},
    {{"players=3"}, 1, 3},
    {{"players=4"}, 1, 3},
    {{"hill-refill=i-iii"}, 1, 2},
    {{"short-column=allow"}, 1, 2},
    {{"jester-couples=on"}, 1, 1},
    {{"token-supply=unlimited", "players=4"}, 2, 2},
    {{"turn-down=jesters-first"}, 1, 2},
    {{"max-rounds=5", "players=3"}, 2, 1},
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
            Pair p;
            const uint64_t seed = seed_base + 100 * c + (uint64_t)k;
            pair_open(&p, CASES[c].settings, CASES[c].n_settings, NULL, seed);
            Rng rng;
            rng_seed(&rng, seed);
            walk(&p, &rng, k % 5 == 4 ? 601 : 97, k % 5 == 4 ? 3 : 2, specialists, ev);
            pair_close(&p);
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
    static const Case ends[] = {
        {{0}, 0, 1},
        {{"short-column=allow"}, 1, 1},
        {{"players=4"}, 1, 1},
        {{"players=3", "short-column=allow"}, 2, 1},
    };
    for (size_t c = 0; c < sizeof ends / sizeof ends[0]; c++)
        for (size_t k = 0; k < sizeof piles / sizeof piles[0]; k++)
            for (int rep = 0; rep < 4; rep++) {
                const uint64_t seed = 0xE4D000u + 100 * c + 10 * k + (uint64_t)rep;
                Game *g = NULL;
                ErrBuf err;
                assert_int_equal(game_create(&kotv_ops, 0, ends[c].settings, ends[c].n_settings,
                                             &g, &err),
                                 STATUS_OK);
                GameState *s = game_state_new(g);
                kotv_ops.new_game(g, s, seed);
                StrBuf sb;
                sb_init(&sb);
                kotv_ops.format_position(g, s, &sb);
                char text[LINE_CAP];
                snprintf(text, sizeof text, "%s", sb_str(&sb));
                sb_free(&sb);
                free(s);
                game_destroy(g);
                set_field(text, sizeof text, "pile2", piles[k][0]);
                set_field(text, sizeof text, "pile3", piles[k][1]);
                set_field(text, sizeof text, "hill", piles[k][2]);
                Pair p;
                pair_open(&p, ends[c].settings, ends[c].n_settings, text, 0);
                Rng rng;
                rng_seed(&rng, seed);
                walk(&p, &rng, 13, 3, rep % 2 == 1, &ev);
                pair_close(&p);
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

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perft_table),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_specialist_games),
        cmocka_unit_test(test_endgame_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
