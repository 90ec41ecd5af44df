/*
 * test_tune.c - evaluation tuning (src/play/tune_*.c): the fit recovers the weights and
 * the scale of a synthetic linear evaluation whose results follow its own sigmoid; a
 * data file of self-play positions reads back to the same positions; bad files are
 * refused with a message naming the line and the fault; the weights table is written in
 * the form the evaluation includes; King Down's weighted evaluation with its default
 * weights is its evaluation; and the win chances' scale is recovered from scores whose
 * results follow its curve, scored positions read back with their scores.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "core/strbuf.h"
#include "play/registry.h"
#include "play/tune_data.h"
#include "play/tune_fit.h"
#include "play/tune_games.h"
#include "support/temp_path.h"

/* --- a linear toy evaluation: three features, three weights ---------------------------- */

enum { FEATURES = 3 };

typedef struct LinState {
    int8_t f[FEATURES]; /* the first player's features */
    int8_t turn;
} LinState;

static const char *const lin_names[FEATURES] = {"alpha", "beta", "gamma"};
static const int lin_defaults[FEATURES] = {0, 0, 0};

static Status lin_configure(Game *g, ErrBuf *err)
{
    (void)err;
    g->state_size = sizeof(LinState);
    return STATUS_OK;
}

static int lin_to_move(const Game *g, const GameState *s)
{
    (void)g;
    return ((const LinState *)s)->turn;
}

static int lin_weighted(const Game *g, const GameState *s, const int *w)
{
    (void)g;
    const LinState *l = (const LinState *)s;
    int e = 0;
    for (int i = 0; i < FEATURES; i++)
        e += w[i] * l->f[i];
    return l->turn == 0 ? e : -e;
}

static int lin_evaluate(const Game *g, const GameState *s)
{
    return lin_weighted(g, s, lin_defaults);
}

static const GameOps lin_ops = {
    .name = "toy-linear",
    .min_players = 2,
    .max_players = 2,
    .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM,
    .configure = lin_configure,
    .to_move = lin_to_move,
    .evaluate = lin_evaluate,
    .eval_weight_count = FEATURES,
    .eval_weight_names = lin_names,
    .eval_weight_defaults = lin_defaults,
    .evaluate_weighted = lin_weighted,
};

static double first_sigmoid(double k, int e)
{
    return 1.0 / (1.0 + pow(10.0, -k * e / 400.0));
}

static void test_fit_recovers_weights(void **state)
{
    (void)state;
    Game *g;
    ErrBuf err;
    assert_int_equal(game_create(&lin_ops, 2, NULL, 0, &g, &err), STATUS_OK);
    const int truth[FEATURES] = {40, -25, 70};
    const double k_truth = 1.3;
    TuneData d;
    tune_data_init(&d, g);
    Rng rng;
    rng_seed(&rng, 18);
    // The results are the true model's expected scores, so its weights are the optimum.
    for (int i = 0; i < 3000; i++) {
        LinState s = {.turn = (int8_t)rng_below(&rng, 2)};
        for (int k = 0; k < FEATURES; k++)
            s.f[k] = (int8_t)((int)rng_below(&rng, 9) - 4);
        const int first = lin_weighted(g, (const GameState *)&s, truth) * (s.turn == 0 ? 1 : -1);
        assert_int_equal(tune_data_add(&d, (const GameState *)&s, first_sigmoid(k_truth, first), NULL, &err),
                         STATUS_OK);
    }
    assert_int_equal(tune_check_game(g, &err), STATUS_OK);
    const TuneFit f = {.data = &d, .jobs = 2, .first_step = 16, .max_passes = 200};
    const double k = tune_fit_scale(&f, truth);
    if (fabs(k - k_truth) > 0.01)
        fail_msg("K %.4f, want %.4f", k, k_truth);
    assert_true(tune_error(&f, truth, k_truth) < 1e-12);
    int w[FEATURES] = {0, 0, 0};
    const double before = tune_error(&f, w, k_truth);
    const double after = tune_fit_weights(&f, w, k_truth);
    assert_true(after < before);
    for (int i = 0; i < FEATURES; i++)
        if (w[i] != truth[i])
            fail_msg("weight %s: %d, want %d", lin_names[i], w[i], truth[i]);
    // The same fit on one thread gives the same error to the last bit.
    const TuneFit one = {.data = &d, .jobs = 1};
    assert_true(tune_error(&one, w, k_truth) == tune_error(&f, w, k_truth));
    tune_data_free(&d);
    game_destroy(g);
}

static void test_not_tunable(void **state)
{
    (void)state;
    Game *g;
    ErrBuf err;
    assert_int_equal(game_create(registry_find("kings-castle"), 0, NULL, 0, &g, &err), STATUS_OK);
    if (g->ops->evaluate_weighted == NULL) {
        assert_int_equal(tune_check_game(g, &err), STATUS_UNSUPPORTED);
        assert_non_null(strstr(err.msg, "no evaluation weights"));
    }
    game_destroy(g);
}

/* --- King Down: data files and the weights table ----------------------------------------- */

static Game *king_down(void)
{
    Game *g;
    ErrBuf err;
    assert_int_equal(game_create(registry_find("king-down"), 0, NULL, 0, &g, &err), STATUS_OK);
    return g;
}

typedef struct Collect {
    StrBuf lines;
    long positions, games;
} Collect;

static bool collect(void *ctx, long index, const char *lines, int positions, const char *error)
{
    Collect *c = ctx;
    if (error != NULL)
        fail_msg("game %ld: %s", index + 1, error);
    assert_int_equal(index, c->games);
    c->games++;
    sb_puts(&c->lines, lines);
    c->positions += positions;
    return true;
}

static char *write_temp(const char *text)
{
    char *path = malloc(512);
    assert_non_null(path);
    temp_path(path, 512, "crown-tune-XXXXXX");
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Plays t's games (t->game_done and ctx are set here) into d, from their file, and checks
 * that the positions (with their scores when scored) write the very same file again. */
static void generate_and_reload(TuneGames t, TuneData *d)
{
    const Game *g = t.game;
    Collect c = {.games = 0};
    sb_init(&c.lines);
    tune_data_header(g, &c.lines);
    t.game_done = collect;
    t.ctx = &c;
    assert_int_equal(tune_games_run(&t), t.games);
    assert_true(c.positions > 0 && c.positions <= t.games * t.per_game);
    char *path = write_temp(sb_str(&c.lines));
    tune_data_init(d, g);
    ErrBuf err;
    if (tune_data_load(d, path, &err) != STATUS_OK)
        fail_msg("%s", err.msg);
    assert_int_equal(d->count, c.positions);
    const bool scored = t.score_limits.nodes > 0;
    assert_int_equal(d->scored, scored ? d->count : 0);
    StrBuf again;
    sb_init(&again);
    tune_data_header(g, &again);
    for (long i = 0; i < d->count; i++) {
        assert_true(d->result[i] == 0 || d->result[i] == 0.5 || d->result[i] == 1);
        assert_int_equal(tune_data_line(g, tune_data_state(d, i), d->result[i],
                                        scored ? &d->score[i] : NULL, &again, &err),
                         STATUS_OK);
    }
    assert_string_equal(sb_str(&again), sb_str(&c.lines));
    sb_free(&again);
    unlink(path);
    free(path);
    sb_free(&c.lines);
}

static void test_round_trip(void **state)
{
    (void)state;
    Game *g = king_down();
    const TuneGames t = {.game = g, .games = 2, .seed = 5, .players = "ai,ai",
                         .limits = {.depth = 1}, .random_plies = 4, .skip_plies = 8,
                         .per_game = 10, .jobs = 2};
    TuneData d;
    generate_and_reload(t, &d);
    // Kept positions are quiet: nobody to move is in check.
    for (long i = 0; i < d.count; i++)
        assert_false(g->ops->in_check(g, tune_data_state(&d, i)));
    tune_data_free(&d);
    game_destroy(g);
}

static void expect_refused(const Game *g, const char *text, const char *words)
{
    char *path = write_temp(text);
    TuneData d;
    tune_data_init(&d, g);
    ErrBuf err;
    assert_int_not_equal(tune_data_load(&d, path, &err), STATUS_OK);
    if (strstr(err.msg, words) == NULL)
        fail_msg("for %s: '%s' does not say '%s'", text, err.msg, words);
    assert_int_equal(d.count, 0);
    assert_null(d.states);
    unlink(path);
    free(path);
}

/* Adds n toy positions with scores (the first player's) spread over +-600 and results by
 * the curve of scale s_truth: its chances themselves, or drawn from them when drawn. */
static void add_scored(TuneData *d, double s_truth, int n, bool drawn, Rng *rng)
{
    ErrBuf err;
    for (int i = 0; i < n; i++) {
        const LinState st = {.turn = (int8_t)rng_below(rng, 2)};
        const int score = (int)rng_below(rng, 1201) - 600;
        const double p = 1.0 / (1.0 + exp(-score / s_truth));
        const double u = (double)rng_below(rng, 1000000) / 1e6;
        const double result = drawn ? (u < p ? 1 : 0) : p;
        assert_int_equal(tune_data_add(d, (const GameState *)&st, result, &score, &err),
                         STATUS_OK);
    }
}

static void test_chance_scale_fit(void **state)
{
    (void)state;
    Game *g;
    ErrBuf err;
    assert_int_equal(game_create(&lin_ops, 2, NULL, 0, &g, &err), STATUS_OK);
    Rng rng;
    rng_seed(&rng, 15);
    TuneData d;
    tune_data_init(&d, g);
    // Results that are the curve's own chances: its scale is the exact optimum.
    add_scored(&d, 240.0, 2000, false, &rng);
    assert_int_equal(d.scored, d.count);
    double s = tune_fit_chance_scale(&d);
    if (fabs(s - 240.0) > 0.5)
        fail_msg("scale %.3f, want 240", s);
    double loss_fit, loss_off;
    assert_true(tune_chance_error(&d, s, &loss_fit) < tune_chance_error(&d, 300.0, &loss_off));
    assert_true(loss_fit < loss_off);
    tune_data_free(&d);
    // Won and lost games drawn from the curve: near it.
    add_scored(&d, 120.0, 20000, true, &rng);
    s = tune_fit_chance_scale(&d);
    if (fabs(s - 120.0) > 6.0)
        fail_msg("scale %.3f, want about 120", s);
    tune_data_free(&d);
    game_destroy(g);
}

static void test_scored_round_trip(void **state)
{
    (void)state;
    ErrBuf err;
    Game *g;
    assert_int_equal(game_create(registry_find("kings-guard-8x8"), 2, NULL, 0, &g, &err),
                     STATUS_OK);
    assert_int_equal(tune_scores_check(g, &err), STATUS_OK);
    const TuneGames t = {.game = g, .games = 2, .seed = 3, .players = "ai,ai",
                         .limits = {.depth = 1}, .random_plies = 4, .skip_plies = 4,
                         .per_game = 4, .jobs = 2, .score_limits = {.nodes = 300}};
    TuneData d;
    generate_and_reload(t, &d);
    tune_data_free(&d);
    game_destroy(g);
    // King of the Valley's hints are MCTS's: no score to fit.
    assert_int_equal(game_create(registry_find("king-of-the-valley"), 2, NULL, 0, &g, &err),
                     STATUS_OK);
    assert_int_equal(tune_scores_check(g, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "no score to fit"));
    game_destroy(g);
}

static void test_bad_files(void **state)
{
    (void)state;
    Game *g = king_down();
    static const char start[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    char text[512];
    expect_refused(g, "", "empty file");
    expect_refused(g, "hello\n", "not a tuning data file");
    expect_refused(g, "# crown tune data\ngame kings-valley\n", "positions of kings-valley");
    snprintf(text, sizeof text, "# crown tune data\n1\t%s\n", start);
    expect_refused(g, text, "before the 'game NAME' line");
    snprintf(text, sizeof text, "# crown tune data\ngame king-down\n0.5\t%s\n2\t%s\n", start, start);
    expect_refused(g, text, ":4: the result must be 1, 0.5 or 0, not '2'");
    expect_refused(g, "# crown tune data\ngame king-down\n1 no tab\n", ":3: expected a result");
    expect_refused(g, "# crown tune data\ngame king-down\n1\tnot a position\n", ":3: bad position");
    snprintf(text, sizeof text, "# crown tune data\ngame king-down\n1\t%s\t12x\n", start);
    expect_refused(g, text, ":3: the score must be a whole number");
    snprintf(text, sizeof text, "# crown tune data\ngame king-down\n1\t%s\t999999\n", start);
    expect_refused(g, text, "not a forced result");
    TuneData d;
    tune_data_init(&d, g);
    ErrBuf err;
    assert_int_equal(tune_data_load(&d, "/nonexistent/crown-tune", &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "cannot open '/nonexistent/crown-tune'"));
    game_destroy(g);
}

static void test_weights_table(void **state)
{
    (void)state;
    Game *g = king_down();
    const GameOps *ops = g->ops;
    assert_true(ops->eval_weight_count > 0);
    StrBuf out;
    sb_init(&out);
    tune_write_table(g, ops->eval_weight_defaults, "A note.", &out);
    assert_non_null(strstr(sb_str(&out), "GENERATED by crown tune"));
    assert_non_null(strstr(sb_str(&out), " * A note.\n */\n"));
    char line[96];
    snprintf(line, sizeof line, "\nWEIGHT(%s, %d)\n", ops->eval_weight_names[0],
             ops->eval_weight_defaults[0]);
    assert_non_null(strstr(sb_str(&out), line));
    sb_free(&out);
    // The weighted evaluation with the defaults is the evaluation, and other weights change it.
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    int *w = malloc(sizeof *w * (size_t)ops->eval_weight_count);
    assert_true(s != NULL && undo != NULL && w != NULL);
    memcpy(w, ops->eval_weight_defaults, sizeof *w * (size_t)ops->eval_weight_count);
    w[0] += 50; // the first weight is a piece value: every position with material moves
    ops->new_game(g, s, 3);
    Rng rng;
    rng_seed(&rng, 3);
    MoveList list;
    int differ = 0;
    for (int ply = 0; ply < 60 && !game_is_over(g, s); ply++) {
        assert_int_equal(ops->evaluate_weighted(g, s, ops->eval_weight_defaults),
                         ops->evaluate(g, s));
        differ += ops->evaluate_weighted(g, s, w) != ops->evaluate(g, s);
        const int n = ops->gen_moves(g, s, &list);
        ops->make(g, s, list.moves[rng_below(&rng, (uint32_t)n)], undo);
    }
    assert_true(differ > 0);
    free(w);
    free(undo);
    free(s);
    game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fit_recovers_weights),
        cmocka_unit_test(test_not_tunable),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_chance_scale_fit),
        cmocka_unit_test(test_scored_round_trip),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_weights_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
