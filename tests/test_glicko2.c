/*
 * test_glicko2.c - the Glicko-2 arithmetic (src/play/glicko2.c): Glickman's worked
 * example from "Example of the Glicko-2 system", one game as one period for both
 * players, the deviation's growth while idle and its cap, provisional ratings, and the
 * refusals of bad input with the output untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "play/glicko2.h"

static void assert_near(double got, double want, double tolerance)
{
    if (fabs(got - want) > tolerance)
        fail_msg("got %.6f, want %.6f", got, want);
}

/* The paper's example: a 1500/200/0.06 player beats a 1400/30 and loses to a 1550/100
 * and a 1700/300 in one period, tau 0.5. */
static void test_glickman_example(void **state)
{
    (void)state;
    const Glicko2 player = {1500, 200, 0.06};
    const Glicko2Game games[] = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
    Glicko2 out;
    ErrBuf err;
    assert_int_equal(glicko2_update(&player, games, 3, GLICKO2_TAU, &out, &err), STATUS_OK);
    // The paper's figures, rounded as it prints them...
    assert_near(out.rating, 1464.06, 0.01);
    assert_near(out.rd, 151.52, 0.01);
    assert_near(out.volatility, 0.05999, 0.00001);
    // ...and unrounded: the paper rounds each step (mu' = -0.2069), so exact arithmetic
    // lands at 1464.0507, as other implementations of the same steps do.
    assert_near(out.rating, 1464.0507, 0.0005);
    assert_near(out.rd, 151.5165, 0.0005);
    assert_near(out.volatility, 0.059996, 0.000001);
}

static void test_defaults_and_provisional(void **state)
{
    (void)state;
    Glicko2 r = glicko2_new();
    assert_near(r.rating, 1500, 0);
    assert_near(r.rd, 350, 0);
    assert_near(r.volatility, 0.06, 0);
    assert_true(glicko2_provisional(&r));
    r.rd = 110;
    assert_false(glicko2_provisional(&r));
    r.rd = 110.01;
    assert_true(glicko2_provisional(&r));
}

/* One game, one period: the winner gains what the loser loses when both are equally
 * sure, and both deviations shrink. */
static void test_one_game_period(void **state)
{
    (void)state;
    const Glicko2 a = glicko2_new(), b = glicko2_new();
    Glicko2 na, nb;
    ErrBuf err;
    assert_int_equal(glicko2_game(&a, &b, 1, GLICKO2_TAU, &na, &nb, &err), STATUS_OK);
    assert_true(na.rating > 1500 && nb.rating < 1500);
    assert_near(na.rating - 1500, 1500 - nb.rating, 1e-9);
    assert_true(na.rd < 350 && nb.rd < 350);
    // A draw between equals moves neither rating.
    assert_int_equal(glicko2_game(&a, &b, 0.5, GLICKO2_TAU, &na, &nb, &err), STATUS_OK);
    assert_near(na.rating, 1500, 1e-9);
    assert_near(nb.rating, 1500, 1e-9);
    // The outputs may be the inputs.
    Glicko2 x = glicko2_new(), y = {1700, 60, 0.06};
    assert_int_equal(glicko2_game(&x, &y, 1, GLICKO2_TAU, &x, &y, &err), STATUS_OK);
    assert_true(x.rating > 1500 && y.rating < 1700);
}

/* Idle periods: phi' = sqrt(phi^2 + t sigma^2) on the Glicko-2 scale, values computed
 * apart from the code, capped at 350; an empty period is the same as one idle period. */
static void test_idle_growth(void **state)
{
    (void)state;
    Glicko2 r = {1800, 50, 0.06};
    glicko2_idle(&r, 1);
    assert_near(r.rd, 51.07485, 1e-4);
    assert_near(r.rating, 1800, 0);
    r.rd = 50;
    glicko2_idle(&r, 10);
    assert_near(r.rd, 59.88659, 1e-4);
    r.rd = 50;
    glicko2_idle(&r, 0.5);
    assert_near(r.rd, 50.54028, 1e-4);
    r.rd = 50;
    glicko2_idle(&r, 1000);
    assert_true(r.rd < 350);
    glicko2_idle(&r, 1000);
    assert_near(r.rd, 350, 0);
    r.rd = 50;
    glicko2_idle(&r, -3);
    glicko2_idle(&r, (double)NAN);
    assert_near(r.rd, 50, 0);

    const Glicko2 p = {1800, 50, 0.06};
    Glicko2 out;
    ErrBuf err;
    assert_int_equal(glicko2_update(&p, NULL, 0, GLICKO2_TAU, &out, &err), STATUS_OK);
    assert_near(out.rd, 51.07485, 1e-4);
    assert_near(out.rating, 1800, 0);
}

static void test_refusals(void **state)
{
    (void)state;
    const Glicko2 good = {1500, 200, 0.06};
    const Glicko2Game game = {1400, 30, 1};
    const Glicko2 sentinel = {-1, -1, -1};
    Glicko2 out = sentinel;
    ErrBuf err;
    const Glicko2 bad_rd = {1500, 0, 0.06}, bad_vol = {1500, 200, 0};
    const Glicko2 bad_r = {(double)NAN, 200, 0.06};
    assert_int_equal(glicko2_update(&bad_rd, &game, 1, 0.5, &out, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "deviation"));
    assert_int_equal(glicko2_update(&bad_vol, &game, 1, 0.5, &out, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "volatility"));
    assert_int_equal(glicko2_update(&bad_r, &game, 1, 0.5, &out, &err), STATUS_UNSUPPORTED);
    assert_int_equal(glicko2_update(&good, &game, 1, 0, &out, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "tau"));
    const Glicko2Game bad_score = {1400, 30, 1.5}, bad_opp = {1400, -5, 1};
    assert_int_equal(glicko2_update(&good, &bad_score, 1, 0.5, &out, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "score"));
    assert_int_equal(glicko2_update(&good, &bad_opp, 1, 0.5, &out, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "opponent"));
    assert_int_equal(glicko2_update(&good, &game, -1, 0.5, &out, &err), STATUS_UNSUPPORTED);
    assert_memory_equal(&out, &sentinel, sizeof out);
    Glicko2 a2 = sentinel, b2 = sentinel;
    assert_int_equal(glicko2_game(&good, &bad_rd, 1, 0.5, &a2, &b2, &err), STATUS_UNSUPPORTED);
    assert_memory_equal(&a2, &sentinel, sizeof a2);
    assert_memory_equal(&b2, &sentinel, sizeof b2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glickman_example),
        cmocka_unit_test(test_defaults_and_provisional),
        cmocka_unit_test(test_one_game_period),
        cmocka_unit_test(test_idle_growth),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
