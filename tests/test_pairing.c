/*
 * test_pairing.c - tournament pairings and standings (src/play/pairing.c, swiss.c,
 * standings.c): FIDE's Berger tables written out for 4, 6 and 8 players and checked
 * board by board, an odd field's byes, gauntlets; Swiss rounds worked by hand (a
 * rematch avoided by a float, a bye), a round refused when only rematches remain, and a
 * long Swiss checked for its promises; standings with Sonneborn-Berger and Buchholz
 * worked by hand, shared places, and refusals of bad input; an arena's points with its
 * streaks worked by hand, and its places by points then performance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/arena.h"
#include "play/pairing.h"
#include "play/standings.h"
#include "play/swiss.h"

/* A round written as the tables write it, 1-based "white-black" boards separated by
 * spaces ("1-4 2-3"), with "5-bye" for a bye, against what the code paired (0-based). */
static void assert_round(const Pairing *got, int count, const char *want)
{
    char text[400] = "";
    for (int i = 0; i < count; i++) {
        char one[32];
        if (got[i].black == PAIRING_BYE)
            snprintf(one, sizeof one, "%s%d-bye", i ? " " : "", got[i].white + 1);
        else
            snprintf(one, sizeof one, "%s%d-%d", i ? " " : "", got[i].white + 1, got[i].black + 1);
        strncat(text, one, sizeof text - strlen(text) - 1);
    }
    if (strcmp(text, want) != 0)
        fail_msg("paired '%s', want '%s'", text, want);
}

static void check_berger(int players, const char *const *rounds, int n_rounds)
{
    Pairing out[PAIRING_MAX_PLAYERS / 2 + 1];
    int count;
    ErrBuf err;
    assert_int_equal(pairing_round_robin_rounds(players), n_rounds);
    for (int r = 0; r < n_rounds; r++) {
        assert_int_equal(pairing_round_robin(players, r, out, &count, &err), STATUS_OK);
        assert_round(out, count, rounds[r]);
    }
}

/* FIDE Handbook C.05, Annex 1: the Berger tables for 3-4, 5-6 and 7-8 players. */
static void test_berger_tables(void **state)
{
    (void)state;
    static const char *const four[] = {"1-4 2-3", "4-3 1-2", "2-4 3-1"};
    check_berger(4, four, 3);
    static const char *const six[] = {"1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5",
                                      "6-5 1-4 2-3", "3-6 4-2 5-1"};
    check_berger(6, six, 5);
    static const char *const eight[] = {"1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6",
                                        "8-6 7-5 1-4 2-3", "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4",
                                        "4-8 5-3 6-2 7-1"};
    check_berger(8, eight, 7);
    // Five players: player 6 of the six-player table is the bye, listed last.
    static const char *const five[] = {"2-5 3-4 1-bye", "5-3 1-2 4-bye", "3-1 4-5 2-bye",
                                       "1-4 2-3 5-bye", "4-2 5-1 3-bye"};
    check_berger(5, five, 5);
    // A second cycle reverses every colour: a double round-robin balances each pair.
    Pairing out[4];
    int count;
    ErrBuf err;
    assert_int_equal(pairing_round_robin(4, 3, out, &count, &err), STATUS_OK);
    assert_round(out, count, "4-1 3-2");
    assert_int_equal(pairing_round_robin(4, 6, out, &count, &err), STATUS_OK);
    assert_round(out, count, "1-4 2-3");
    // Two players: one game a round, colours alternating.
    assert_int_equal(pairing_round_robin(2, 0, out, &count, &err), STATUS_OK);
    assert_round(out, count, "1-2");
    assert_int_equal(pairing_round_robin(2, 1, out, &count, &err), STATUS_OK);
    assert_round(out, count, "2-1");
}

/* Every pair meets exactly once a cycle, and nobody's colours differ by more than one. */
static void test_round_robin_balance(void **state)
{
    (void)state;
    for (int n = 2; n <= 21; n++) {
        int met[21][21] = {{0}}, whites[21] = {0}, games[21] = {0};
        Pairing out[12];
        int count;
        ErrBuf err;
        for (int r = 0; r < pairing_round_robin_rounds(n); r++) {
            assert_int_equal(pairing_round_robin(n, r, out, &count, &err), STATUS_OK);
            for (int i = 0; i < count; i++) {
                if (out[i].black == PAIRING_BYE)
                    continue;
                met[out[i].white][out[i].black]++;
                met[out[i].black][out[i].white]++;
                whites[out[i].white]++;
                games[out[i].white]++;
                games[out[i].black]++;
            }
        }
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++)
                assert_int_equal(met[a][b], a != b);
            const int d = 2 * whites[a] - games[a];
            assert_true(d >= -1 && d <= 1);
        }
    }
}

static void test_gauntlet(void **state)
{
    (void)state;
    Pairing out[2];
    int count;
    ErrBuf err;
    assert_int_equal(pairing_gauntlet_rounds(4), 3);
    static const char *const want[] = {"1-2", "3-1", "1-4", "2-1", "1-3", "4-1"};
    for (int r = 0; r < 6; r++) {
        assert_int_equal(pairing_gauntlet(4, r, out, &count, &err), STATUS_OK);
        assert_round(out, count, want[r]);
    }
    assert_int_equal(pairing_gauntlet(1, 0, out, &count, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "2 to"));
    assert_int_equal(pairing_round_robin(4, -1, out, &count, &err), STATUS_UNSUPPORTED);
}

/* A result "white-black points" on 1-based players. */
static PairingResult game(int white, int black, double points)
{
    return (PairingResult){{white - 1, black == 0 ? PAIRING_BYE : black - 1}, points};
}

/* Six players. Round 1 (top half against bottom half, colours alternating from board
 * 1): 1-4, 5-2, 3-6. Results: 1 beats 4, 5 and 2 draw, 6 beats 3 with black.
 * Standings: 1 and 6 on 1; 2 and 5 on 1/2; 3 and 4 on 0, ordered by seed within each:
 * 1 6 | 2 5 | 3 4.
 * Round 2: 1 meets 6 (the group's bottom half); 2 would meet 5, but they have met, and
 * 2's group has no one else, so 2 floats down to meet 3; 5 meets 4. Colours: 1 had
 * white and 6 black, so 6 has white; 2 had black, 3 white: 2 has white; 4 had black,
 * 5 white: 4 has white. */
static void test_swiss_worked_six(void **state)
{
    (void)state;
    Pairing out[4];
    int count;
    ErrBuf err;
    assert_int_equal(swiss_pair(6, NULL, 0, out, &count, &err), STATUS_OK);
    assert_round(out, count, "1-4 5-2 3-6");
    const PairingResult r1[] = {game(1, 4, 1), game(5, 2, 0.5), game(3, 6, 0)};
    assert_int_equal(swiss_pair(6, r1, 3, out, &count, &err), STATUS_OK);
    assert_round(out, count, "6-1 2-3 4-5");
}

/* Five players. Round 1: the bye to the lowest seed, 5; then 1-3, 4-2. Results: 1 and
 * 3 draw, 4 beats 2; 5's bye is a point. Standings: 4, 5 on 1; 1, 3 on 1/2; 2 on 0.
 * Round 2: the bye to 2, the lowest without one. 4 would meet 5, but then 1 and 3,
 * who have met, remain: so 4 takes the next candidate, 1 (from the group below), and
 * 5 meets 3. Colours: 4 and 1 both had white and want black equally; the higher placed,
 * 4, has his wish, so 1 has white. 5 has no colour yet and 3 had black: 3 has white.
 * The pair of 4, the higher placed, is board 1. */
static void test_swiss_worked_five(void **state)
{
    (void)state;
    Pairing out[4];
    int count;
    ErrBuf err;
    assert_int_equal(swiss_pair(5, NULL, 0, out, &count, &err), STATUS_OK);
    assert_round(out, count, "1-3 4-2 5-bye");
    const PairingResult r1[] = {game(1, 3, 0.5), game(4, 2, 1), game(5, 0, 1)};
    assert_int_equal(swiss_pair(5, r1, 3, out, &count, &err), STATUS_OK);
    assert_round(out, count, "1-4 3-5 2-bye");
}

/* Four players after a whole round-robin have no opponent left. */
static void test_swiss_exhausted(void **state)
{
    (void)state;
    const PairingResult all[] = {game(1, 4, 1), game(2, 3, 1), game(4, 3, 0.5),
                                 game(1, 2, 0),  game(2, 4, 1), game(3, 1, 0)};
    Pairing out[3] = {{7, 7}, {7, 7}, {7, 7}};
    int count = 99;
    ErrBuf err;
    assert_int_equal(swiss_pair(4, all, 6, out, &count, &err), STATUS_CONFLICT);
    assert_non_null(strstr(err.msg, "rematch"));
    assert_int_equal(count, 99);
    assert_int_equal(out[0].white, 7);
    const PairingResult bad[] = {game(1, 9, 1)};
    assert_int_equal(swiss_pair(4, bad, 1, out, &count, &err), STATUS_UNSUPPORTED);
    const PairingResult bad_points[] = {{{0, 1}, 0.7}};
    assert_int_equal(swiss_pair(4, bad_points, 1, out, &count, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "score"));
    assert_int_equal(swiss_pair(1, NULL, 0, out, &count, &err), STATUS_UNSUPPORTED);
}

/* Eleven players, seven rounds, results decided by seed with some draws: no rematch, at
 * most one bye each, every player on the board each round, colours within two. */
static void test_swiss_long(void **state)
{
    (void)state;
    enum { N = 11, ROUNDS = 7 };
    PairingResult history[N * ROUNDS];
    int n = 0;
    ErrBuf err;
    for (int round = 0; round < ROUNDS; round++) {
        Pairing out[N / 2 + 1];
        int count;
        assert_int_equal(swiss_pair(N, history, n, out, &count, &err), STATUS_OK);
        assert_int_equal(count, N / 2 + 1);
        int seen[N] = {0};
        for (int i = 0; i < count; i++) {
            const int w = out[i].white, b = out[i].black;
            seen[w]++;
            if (b == PAIRING_BYE) {
                assert_int_equal(i, count - 1);
                history[n++] = (PairingResult){out[i], 1};
                continue;
            }
            seen[b]++;
            for (int j = 0; j < n; j++) {
                const Pairing p = history[j].pair;
                assert_false((p.white == w && p.black == b) || (p.white == b && p.black == w));
            }
            // The better seed wins, unless the two are neighbours: then a draw.
            const double pts = abs(w - b) == 1 ? 0.5 : w < b ? 1 : 0;
            history[n++] = (PairingResult){out[i], pts};
        }
        for (int k = 0; k < N; k++)
            assert_int_equal(seen[k], 1);
    }
    for (int k = 0; k < N; k++) {
        int byes = 0, d = 0;
        for (int j = 0; j < n; j++) {
            byes += history[j].pair.white == k && history[j].pair.black == PAIRING_BYE;
            d += history[j].pair.white == k && history[j].pair.black != PAIRING_BYE;
            d -= history[j].pair.black == k;
        }
        assert_true(byes <= 1);
        assert_true(d >= -2 && d <= 2);
    }
}

static void assert_near(double got, double want)
{
    if (fabs(got - want) > 1e-9)
        fail_msg("got %g, want %g", got, want);
}

/* Four players, a round-robin: 1-2 1-0, 3-4 draw, 1-3 draw, 2-4 1-0, 4-1 0-1, 2-3 0-1.
 * Points: 1: 2.5, 2: 1, 3: 2, 4: 0.5.
 * Sonneborn-Berger: 1: 1 (beat 2) + 2/2 (drew 3) + 0.5 (beat 4) = 2.5; 2: 0.5 (beat 4);
 * 3: 0.5/2 (drew 4) + 2.5/2 (drew 1) + 1 (beat 2) = 2.5; 4: 2/2 (drew 3) = 1.
 * Buchholz: 1: 1 + 2 + 0.5 = 3.5; 2: 5; 3: 4; 4: 5.5. */
static void test_standings_worked(void **state)
{
    (void)state;
    const PairingResult rr[] = {game(1, 2, 1), game(3, 4, 0.5), game(1, 3, 0.5),
                                game(2, 4, 1), game(4, 1, 0),   game(2, 3, 0)};
    Standing t[4];
    ErrBuf err;
    assert_int_equal(standings_compute(4, rr, 6, t, &err), STATUS_OK);
    const double points[] = {2.5, 1, 2, 0.5}, sb[] = {2.5, 0.5, 2.5, 1}, bh[] = {3.5, 5, 4, 5.5};
    for (int i = 0; i < 4; i++) {
        assert_near(t[i].points, points[i]);
        assert_near(t[i].sonneborn_berger, sb[i]);
        assert_near(t[i].buchholz, bh[i]);
        assert_int_equal(t[i].games, 3);
    }
    assert_int_equal(t[0].wins, 2);
    assert_int_equal(t[0].draws, 1);
    assert_int_equal(t[1].losses, 2);
    const TieBreak by_sb[] = {TIEBREAK_SONNEBORN_BERGER};
    standings_sort(t, 4, by_sb, 1);
    const int order[] = {0, 2, 1, 3};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(t[i].player, order[i]);
        assert_int_equal(t[i].place, i + 1);
    }
}

/* Ties: equal points broken by the tie-break, or a shared place when it is equal too;
 * a bye counts the player's own points in Buchholz. */
static void test_standings_ties_and_byes(void **state)
{
    (void)state;
    // 1 and 2 draw, 3 and 4 draw, 1 beats 3, 4 beats 2: 1 and 4 on 1.5, 2 and 3 on 0.5.
    // Sonneborn-Berger: 1: 0.5/2 + 0.5 = 0.75; 4: 0.5/2 + 0.5 = 0.75: shared.
    // Buchholz: 1: 0.5 + 0.5 = 1; 4: 1. Wins: one each. Everything equal: place 1 twice.
    const PairingResult r[] = {game(1, 2, 0.5), game(3, 4, 0.5), game(1, 3, 1), game(4, 2, 1)};
    Standing t[4];
    ErrBuf err;
    assert_int_equal(standings_compute(4, r, 4, t, &err), STATUS_OK);
    const TieBreak all[] = {TIEBREAK_SONNEBORN_BERGER, TIEBREAK_BUCHHOLZ, TIEBREAK_WINS};
    standings_sort(t, 4, all, 3);
    assert_int_equal(t[0].player, 0);
    assert_int_equal(t[1].player, 3);
    assert_int_equal(t[0].place, 1);
    assert_int_equal(t[1].place, 1);
    assert_int_equal(t[2].place, 3);
    assert_int_equal(t[3].place, 3);
    // Three players, a bye each round: 1 beats 2 (3 bye), 1 beats 3 with black (2 bye),
    // 2 beats 3 (1 bye). Points 1: 3, 2: 2, 3: 1. Buchholz: 1: 2 + 1 + 3 (own, the bye)
    // = 6; 2: 3 + 2 + 1 = 6; 3: 1 + 3 + 2 = 6.
    const PairingResult b[] = {game(1, 2, 1), game(3, 0, 1), game(3, 1, 0),
                               game(2, 0, 1), game(2, 3, 1), game(1, 0, 1)};
    assert_int_equal(standings_compute(3, b, 6, t, &err), STATUS_OK);
    for (int i = 0; i < 3; i++) {
        assert_near(t[i].points, 3 - i);
        assert_near(t[i].buchholz, 6);
        assert_int_equal(t[i].byes, 1);
        assert_int_equal(t[i].games, 2);
    }
    Standing keep[2] = {{.player = 42}, {.player = 43}};
    const PairingResult self[] = {{{1, 1}, 1}};
    assert_int_equal(standings_compute(2, self, 1, keep, &err), STATUS_UNSUPPORTED);
    assert_int_equal(keep[0].player, 42);
    const PairingResult third[] = {{{0, 1}, 0.25}};
    assert_int_equal(standings_compute(2, third, 1, keep, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "score"));
}

/* An arena worked by hand: player 0 wins twice, is on fire, wins again for 4, draws
 * on fire for 2 (and cools), then loses; the others' wins and draws count plain. */
static void test_arena_worked(void **state)
{
    (void)state;
    const PairingResult g[] = {
        {{0, 1}, 1.0}, {{0, 2}, 1.0}, {{1, 2}, 0.5}, {{0, 1}, 1.0}, {{2, 0}, 0.5}, {{1, 0}, 1.0},
    };
    ArenaScore t[3];
    ErrBuf err;
    assert_int_equal(arena_scores(3, g, 4, t, &err), STATUS_OK);
    assert_int_equal(t[0].score, 8);
    assert_true(t[0].on_fire);
    assert_int_equal(arena_scores(3, g, 6, t, &err), STATUS_OK);
    assert_int_equal(t[0].score, 10);
    assert_false(t[0].on_fire);
    assert_int_equal(t[0].wins, 3);
    assert_int_equal(t[0].draws, 1);
    assert_int_equal(t[0].losses, 1);
    assert_true(fabs(t[0].performance - 0.7) < 1e-9);
    assert_int_equal(t[1].score, 3);
    assert_true(fabs(t[1].performance - 0.375) < 1e-9);
    assert_int_equal(t[2].score, 2);
    arena_sort(t, 3);
    assert_int_equal(t[0].player, 0);
    assert_int_equal(t[1].player, 1);
    assert_int_equal(t[2].player, 2);
    assert_int_equal(t[2].place, 3);

    // Level on points: performance first, then a shared place, listed by seed.
    const PairingResult h[] = {{{0, 1}, 1.0}, {{3, 2}, 0.5}, {{2, 3}, 0.5}, {{1, PAIRING_BYE}, 1.0}};
    ArenaScore u[4];
    assert_int_equal(arena_scores(4, h, 4, u, &err), STATUS_OK);
    assert_int_equal(u[1].games, 1); // the bye is passed over
    arena_sort(u, 4);
    const int order[] = {0, 2, 3, 1}, place[] = {1, 2, 2, 4};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(u[i].player, order[i]);
        assert_int_equal(u[i].place, place[i]);
    }
    const PairingResult bad[] = {{{0, 7}, 1.0}};
    assert_int_equal(arena_scores(4, bad, 1, u, &err), STATUS_UNSUPPORTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_berger_tables),
        cmocka_unit_test(test_round_robin_balance),
        cmocka_unit_test(test_gauntlet),
        cmocka_unit_test(test_swiss_worked_six),
        cmocka_unit_test(test_swiss_worked_five),
        cmocka_unit_test(test_swiss_exhausted),
        cmocka_unit_test(test_swiss_long),
        cmocka_unit_test(test_standings_worked),
        cmocka_unit_test(test_standings_ties_and_byes),
        cmocka_unit_test(test_arena_worked),
    };
    return cmocka_run_group_tests_name("pairing", tests, NULL, NULL);
}
