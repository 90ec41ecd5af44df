/*
 * test_sprt.c - the SPRT's arithmetic (src/cli/sprt.c): log-likelihood ratios of known
 * result counts, against values computed independently from the same formulas
 * (fishtest's GSPRT with the logistic Elo model), bounds, Elo estimates, and decisions
 * on synthetic results.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "cli/sprt.h"

static void assert_near(double got, double want, double tolerance)
{
    if (fabs(got - want) > tolerance)
        fail_msg("got %.6f, want %.6f", got, want);
}

static void test_known_llr(void **state)
{
    (void)state;
    const SprtConfig c = {0, 5, 0.05, 0.05};
    SprtState s;
    sprt_trinomial(&c, 60, 100, 40, &s);
    assert_near(s.llr, 0.534944, 1e-5);
    assert_near(s.lower, -2.944439, 1e-5);
    assert_near(s.upper, 2.944439, 1e-5);
    assert_near(s.score, 0.55, 1e-4);
    assert_near(s.elo, 34.86, 0.01);
    assert_true(s.elo_low < s.elo && s.elo < s.elo_high);
    assert_int_equal(s.decision, SPRT_CONTINUE);
    // Ten times the games, ten times the evidence.
    sprt_trinomial(&c, 600, 1000, 400, &s);
    assert_near(s.llr, 5.349439, 1e-4);
    assert_int_equal(s.decision, SPRT_ACCEPT_H1);
    // Even results speak against elo1 = 5.
    sprt_trinomial(&c, 500, 1000, 500, &s);
    assert_near(s.llr, -0.414154, 1e-5);
    assert_near(s.elo, 0, 1e-9);

    const SprtConfig nonreg = {-5, 0, 0.05, 0.05};
    const long pairs[5] = {10, 40, 80, 50, 20};
    sprt_pentanomial(&nonreg, pairs, &s);
    assert_near(s.llr, 0.904014, 1e-5);
    assert_near(s.score, 0.5375, 1e-4);
    // One pair won twice: little evidence yet, not a division by a zero variance.
    const SprtConfig wide = {0, 50, 0.05, 0.05};
    const long one[5] = {0, 0, 0, 0, 1};
    sprt_pentanomial(&wide, one, &s);
    assert_near(s.llr, 0.133837, 1e-5);
    // docs/STRENGTH.md's worked example of the 1e-3 in empty outcomes: four pairs won
    // twice, elo0 0, elo1 10.
    const SprtConfig ten = {0, 10, 0.05, 0.05};
    const long four[5] = {0, 0, 0, 0, 4};
    sprt_pentanomial(&ten, four, &s);
    assert_near(s.llr, 0.1135, 1e-4);
    const long none[5] = {0};
    sprt_pentanomial(&wide, none, &s);
    assert_near(s.llr, 0, 1e-12);
    assert_int_equal(s.decision, SPRT_CONTINUE);
}

/* Results drawn one pair at a time from a fixed pattern: a clearly stronger test agent
 * is accepted (H1), an equal one rejected (H0) when elo1 is large enough to tell. */
static void test_decisions(void **state)
{
    (void)state;
    const SprtConfig c = {0, 30, 0.05, 0.05};
    // 2 points, 1.5, 1 repeating: a mean score of 0.75.
    long pairs[5] = {0};
    SprtState s = {0};
    int n = 0;
    while (s.decision == SPRT_CONTINUE && n < 10000) {
        pairs[4 - n % 3]++;
        n++;
        sprt_pentanomial(&c, pairs, &s);
    }
    assert_int_equal(s.decision, SPRT_ACCEPT_H1);
    assert_true(n < 200);
    // 0, 1, 2, 1 points repeating: equal strength.
    long even[5] = {0};
    static const int pattern[4] = {0, 2, 4, 2};
    s = (SprtState){0};
    n = 0;
    while (s.decision == SPRT_CONTINUE && n < 100000) {
        even[pattern[n % 4]]++;
        n++;
        sprt_pentanomial(&c, even, &s);
    }
    assert_int_equal(s.decision, SPRT_ACCEPT_H0);
    assert_true(s.llr <= s.lower);
    assert_true(s.elo_low < 0 && s.elo_high > 0);
}

static void test_config_check(void **state)
{
    (void)state;
    char msg[128];
    assert_int_equal(sprt_config_check(&(SprtConfig){0, 5, 0.05, 0.05}, msg, sizeof msg), 0);
    assert_int_equal(sprt_config_check(&(SprtConfig){5, 0, 0.05, 0.05}, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "--elo0"));
    assert_int_equal(sprt_config_check(&(SprtConfig){0, 5, 0, 0.05}, msg, sizeof msg), -1);
    assert_int_equal(sprt_config_check(&(SprtConfig){0, 5, 0.05, 0.7}, msg, sizeof msg), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_llr),
        cmocka_unit_test(test_decisions),
        cmocka_unit_test(test_config_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
