/*
 * test_lab.c - crown lab: the statistics against known values; a small study of every
 * game (random players, fixed seed) whose results and summary agree with each other
 * (counts add up, intervals hold their rates, lengths match), whose rows do not depend on
 * the thread count, whose shards merged give the same bytes as the whole, and whose
 * report is written with its plots; comparisons and ladders; the games' own figures;
 * bad input refused.
 */
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cli/cli.h"
#include "lab/lab_run.h"
#include "lab/lab_results.h"
#include "lab/lab_stats.h"
#include "lab/lab_study.h"
#include "support/temp_path.h"

/* A scratch folder for one test, removed by the next call or at exit. Each test makes its
 * own in the same lines, then runs its studies there (run_study). */
typedef struct Scratch {
    char root[100];
} Scratch;

static void scratch_make(Scratch *s)
{
    temp_path(s->root, sizeof s->root, "crown-lab-test-XXXXXX");
    assert_non_null(mkdtemp(s->root));
}

static void scratch_remove(Scratch *s)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", s->root);
    assert_int_equal(system(cmd), 0);
}

/* Runs `crown lab ...` in this process with the words of `line` (space-separated;
 * "@" stands for the scratch folder). */
static int lab(const Scratch *s, const char *line)
{
    char buf[2048], *argv[64], crown[] = "crown", lab_word[] = "lab";
    int argc = 0;
    argv[argc++] = crown;
    argv[argc++] = lab_word;
    char expanded[2048] = "";
    size_t len = 0;
    for (const char *p = line; *p && len + 64 < sizeof expanded; p++)
        len += (size_t)(*p == '@' ? snprintf(expanded + len, sizeof expanded - len, "%s", s->root)
                                  : snprintf(expanded + len, sizeof expanded - len, "%c", *p));
    snprintf(buf, sizeof buf, "%s", expanded);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    fflush(stdout);
    return cmd_lab(argc, argv);
}

static char *slurp(const char *root, const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/%s", root, dir, name);
    char *text = temp_read(path, NULL);
    if (text == NULL)
        fail_msg("cannot read %s", path);
    return text;
}

static void assert_same_file(const Scratch *s, const char *a, const char *b, const char *name)
{
    char *x = slurp(s->root, a, name), *y = slurp(s->root, b, name);
    if (strcmp(x, y) != 0)
        fail_msg("%s differs between %s and %s", name, a, b);
    free(x);
    free(y);
}

static void check_rate(const json_t *r, long k, long n)
{
    const double rate = json_real_value(json_object_get(r, "rate"));
    const double lo = json_real_value(json_object_get(r, "lo"));
    const double hi = json_real_value(json_object_get(r, "hi"));
    assert_true(n == 0 || fabs(rate - (double)k / (double)n) < 1e-5);
    assert_true(lo <= rate + 1e-9 && rate <= hi + 1e-9 && lo >= 0 && hi <= 1);
}

static long jint(const json_t *o, const char *key)
{
    return (long)json_integer_value(json_object_get(o, key));
}

/* The summary in DIR agrees with its results: per set the outcomes of each seat and each
 * player add up to the games, two-player seats mirror each other, end reasons add up,
 * every interval holds its rate, and the mean length is the rows' mean. */
static void check_study(const Scratch *s, const char *dir, long games_per_set)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/summary.json", s->root, dir);
    json_error_t jerr;
    json_t *sum = json_load_file(path, 0, &jerr);
    if (sum == NULL)
        fail_msg("%s: %s", path, jerr.text);
    LabStudy *st = calloc(1, sizeof *st);
    LabRows rows = {0};
    ErrBuf err;
    snprintf(path, sizeof path, "%s/%s", s->root, dir);
    assert_int_equal(lab_study_load(st, path, &err), STATUS_OK);
    assert_int_equal(lab_results_read(st, path, &rows, &err), STATUS_OK);
    assert_int_equal(jint(sum, "rows"), rows.count);
    size_t i, k;
    json_t *set, *t;
    json_array_foreach(json_object_get(sum, "sets"), i, set) {
        const long n = jint(set, "games");
        assert_int_equal(n + jint(set, "failed"), games_per_set);
        double length = 0;
        for (long r = 0; r < rows.count; r++)
            if (rows.row[r].set == (int)i && !rows.row[r].failed)
                length += rows.row[r].length;
        if (n > 0)
            assert_true(fabs(json_number_value(json_object_get(json_object_get(set, "length"),
                                                               "mean")) -
                             length / (double)n) < 1e-3 * (1 + length / (double)n));
        const char *lists[] = {"seats", "by_player"};
        for (int l = 0; l < 2; l++) {
            const json_t *list = json_object_get(set, lists[l]);
            json_array_foreach(list, k, t) {
                assert_int_equal(jint(t, "games"), n);
                assert_int_equal(jint(t, "wins") + jint(t, "draws") + jint(t, "shared") +
                                     jint(t, "losses"),
                                 n);
                check_rate(json_object_get(t, "win"), jint(t, "wins"), n);
                check_rate(json_object_get(t, "draw"), jint(t, "draws"), n);
                check_rate(json_object_get(t, "loss"), jint(t, "losses"), n);
            }
            if (json_array_size(list) == 2) {
                const json_t *a = json_array_get(list, 0), *b = json_array_get(list, 1);
                assert_int_equal(jint(a, "wins"), jint(b, "losses"));
                assert_int_equal(jint(a, "draws"), jint(b, "draws"));
            }
        }
        long reasons = 0;
        json_array_foreach(json_object_get(set, "end_reasons"), k, t) {
            reasons += jint(t, "count");
            check_rate(json_object_get(t, "rate"), jint(t, "count"), n);
        }
        assert_int_equal(reasons, n);
        long hist = 0;
        json_array_foreach(json_object_get(json_object_get(set, "length"), "histogram"), k, t)
            hist += (long)json_integer_value(t);
        assert_int_equal(hist, n);
    }
    lab_rows_free(&rows);
    free(st);
    json_decref(sum);
}

static void test_wilson(void **state)
{
    (void)state;
    LabRate r = lab_wilson(10, 20);
    assert_true(fabs(r.lo - 0.2993) < 1e-4 && fabs(r.hi - 0.7007) < 1e-4);
    r = lab_wilson(0, 10);
    assert_true(r.rate == 0 && r.lo == 0 && fabs(r.hi - 0.2775) < 1e-4);
    r = lab_wilson(10, 10);
    assert_true(r.rate == 1 && r.hi == 1 && fabs(r.lo - 0.7225) < 1e-4);
    r = lab_wilson(0, 0);
    assert_true(r.lo == 0 && r.hi == 1);
    for (long n = 1; n < 60; n += 7)
        for (long k = 0; k <= n; k++) {
            r = lab_wilson(k, n);
            assert_true(r.lo <= r.rate && r.rate <= r.hi && r.lo >= 0 && r.hi <= 1);
        }
}

static void test_tests_and_quantiles(void **state)
{
    (void)state;
    assert_true(lab_two_proportion_p(30, 60, 30, 60) == 1);
    // 60% of 100 against 40% of 100: z = 2.828, p = 0.00468.
    assert_true(fabs(lab_two_proportion_p(60, 100, 40, 100) - 0.00468) < 1e-4);
    assert_true(lab_two_proportion_p(0, 10, 0, 10) == 1);
    assert_true(fabs(lab_mean_difference_p(10, 4, 100, 11, 4, 100) - 0.000407) < 1e-5);
    const double v[] = {1, 2, 3, 4, 10};
    assert_true(lab_quantile(v, 5, 0.5) == 3 && lab_quantile(v, 5, 0) == 1 &&
                lab_quantile(v, 5, 1) == 10 && fabs(lab_quantile(v, 5, 0.875) - 7) < 1e-12);
}

static void test_elo_ladder(void **state)
{
    (void)state;
    // Level 1 scores 25% against level 2 over 400 games (virtual draw included).
    double points[4] = {0, 100, 300, 0}, games[4] = {0, 400, 400, 0}, elo[2], margin[2];
    assert_true(lab_elo_fit(2, points, games, elo, margin));
    const double expect = 400 * log10(300.5 / 100.5);
    assert_true(elo[0] == 0 && fabs(elo[1] - expect) < 0.01);
    assert_true(margin[1] > 30 && margin[1] < 80);
    // Three levels in a chain, each beating the one below three times in four.
    double p3[9] = {0, 30, 0, 90, 0, 30, 0, 90, 0}, g3[9] = {0, 120, 0, 120, 0, 120, 0, 120, 0};
    double e3[3], m3[3];
    assert_true(lab_elo_fit(3, p3, g3, e3, m3));
    assert_true(e3[1] > 150 && e3[2] > e3[1] + 150 && m3[2] > m3[1]);
    // A level that met nobody cannot be placed.
    double p0[9] = {0}, g0[9] = {0, 4, 0, 4, 0, 0, 0, 0, 0};
    assert_false(lab_elo_fit(3, p0, g0, e3, m3));
}

/* Every game: a small study, the same rows with one thread and two, and three shards
 * merged into the same bytes as the whole. */
static void test_every_game_study(void **state)
{
    (void)state;
    static const char *const studies[] = {
        "kings-valley --players random,ai:1",
        "retrieve-the-king --players random,random",
        "kings-valley-7x7 --players random,random",
        "kings-valley-labyrinth --players random,random",
        "kings-guard --players random,random",
        "kings-guard-8x8 --players random,random",
        "kings-castle --players random,random",
        "king-down --players random,random",
        "king-of-the-valley --rule players=3 --players random,greedy,random",
    };
    for (size_t i = 0; i < sizeof studies / sizeof studies[0]; i++) {
        Scratch s;
        scratch_make(&s);
        char line[512];
        snprintf(line, sizeof line, "%s --games 5 --seed 11 --jobs 2 --out @/whole", studies[i]);
        assert_int_equal(lab(&s, line), 0);
        // One thread gives the same rows as two (checked on a few games, to save time).
        if (i % 4 == 0) {
            snprintf(line, sizeof line, "%s --games 5 --seed 11 --out @/one", studies[i]);
            assert_int_equal(lab(&s, line), 0);
            assert_same_file(&s, "whole", "one", "results.csv");
        }
        for (int k = 1; k <= 3; k++) {
            snprintf(line, sizeof line, "%s --games 5 --seed 11 --shard %d/3 --out @/s%d",
                     studies[i], k, k);
            assert_int_equal(lab(&s, line), 0);
        }
        assert_int_equal(lab(&s, "merge @/s3 @/s1 @/s2 --out @/merged"), 0);
        check_study(&s, "whole", 5);
        check_study(&s, "s2", 5 - 3); /* games 2 and 5 of 5 */
        const char *files[] = {"study.json", "results.csv", "summary.json", "report.html"};
        for (int f = 0; f < 4; f++)
            assert_same_file(&s, "whole", "merged", files[f]);
        char *report = slurp(s.root, "whole", "report.html");
        assert_non_null(strstr(report, "</html>"));
        if (system("command -v gnuplot >/dev/null") == 0)
            assert_non_null(strstr(report, "<svg"));
        assert_null(strstr(report, "http://www.w3.org/1999/xlink\" xlink:href=\"http"));
        free(report);
        scratch_remove(&s);
    }
}

/* FNV-1a of a file of the scratch folder. */
static uint64_t file_hash(const Scratch *s, const char *dir, const char *name)
{
    char *text = slurp(s->root, dir, name);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 0x100000001b3ULL;
    free(text);
    return h;
}

/* Studies' results as they were before the lab's games moved to play/self_play.c and
 * play/pool.c: those may change, the games they play may not. Only a change of the rules
 * or of the agents (which changes the bench signature too) may change these hashes. */
static void test_results_pinned(void **state)
{
    (void)state;
    static const struct {
        const char *study;
        uint64_t hash;
    } pins[] = {
        {"king-of-the-valley --rule players=3 --players random,greedy,random",
         0x6db40894f974b2f1ULL}, /* the points as before, then the characters picked */
        {"kings-valley --players random,ai:1", 0x55b8fcbb0e446fa5ULL},
        {"king-down --players random,random", 0x4878f75098643beeULL},
    };
    for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
        Scratch s;
        scratch_make(&s);
        char line[512];
        snprintf(line, sizeof line, "%s --games 6 --seed 11 --jobs 2 --out @/pin", pins[i].study);
        assert_int_equal(lab(&s, line), 0);
        const uint64_t h = file_hash(&s, "pin", "results.csv");
        if (h != pins[i].hash)
            fail_msg("%s: results.csv hash %#llx, pinned %#llx", pins[i].study,
                     (unsigned long long)h, (unsigned long long)pins[i].hash);
        scratch_remove(&s);
    }
}

/* A game whose abort flag is set ends before its first move, marked failed, so that a
 * server stopping waits for one move rather than whole games; unset, it plays out. */
static void test_game_aborted(void **state)
{
    (void)state;
    LabStudy *st = calloc(1, sizeof *st);
    assert_non_null(st);
    const SearchLimits limits = {0};
    ErrBuf err = {.msg = ""};
    assert_int_equal(lab_study_plain(st, "king-down", "", NULL, 0, "random,random", 1, 11,
                                     &limits, &err),
                     STATUS_OK);
    atomic_bool abort;
    atomic_init(&abort, true);
    LabRow row;
    lab_play_game(st, 0, &abort, &row);
    assert_true(row.failed);
    assert_string_equal(row.reason, "stopped before the game ended");
    assert_int_equal(row.length, 0);
    atomic_store(&abort, false);
    lab_play_game(st, 0, &abort, &row);
    assert_false(row.failed);
    assert_true(row.length > 0);
    free(st);
}

static json_t *load_summary(const Scratch *s, const char *dir)
{
    char *text = slurp(s->root, dir, "summary.json");
    json_t *j = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(j);
    return j;
}

/* Runs the study `crown lab ARGS`, which writes to @/DIR, checks it (check_study) and
 * returns its summary. */
static json_t *run_study(const Scratch *s, const char *args, const char *dir, long games)
{
    assert_int_equal(lab(s, args), 0);
    check_study(s, dir, games);
    return load_summary(s, dir);
}

static void test_compare_and_ladder(void **state)
{
    (void)state;
    Scratch s;
    scratch_make(&s);
    json_t *j = run_study(&s,
                          "kings-valley-7x7 --players random,random --compare trap=opponent "
                          "--compare max-plies=30 --games 6 --out @/cmp",
                          "cmp", 6);
    const json_t *cmp = json_object_get(j, "comparisons");
    assert_int_equal(json_array_size(cmp), 2);
    const json_t *d = json_object_get(json_array_get(cmp, 1), "mean_length");
    const double p = json_real_value(json_object_get(d, "p"));
    assert_true(p >= 0 && p <= 1);
    assert_string_equal(json_string_value(json_object_get(
                            json_array_get(json_object_get(j, "sets"), 2), "rules")),
                        "max-plies=30");
    json_decref(j);

    j = run_study(&s, "kings-valley --ladder 1,2,3 --games 2 --depth 1 --out @/lad", "lad", 2);
    assert_int_equal(json_array_size(json_object_get(j, "sets")), 3);
    const json_t *ladders = json_object_get(j, "ladders");
    assert_int_equal(json_array_size(ladders), 1);
    const json_t *levels = json_object_get(json_array_get(ladders, 0), "levels");
    assert_int_equal(json_array_size(levels), 3);
    assert_true(json_real_value(json_object_get(json_array_get(levels, 0), "elo")) == 0);
    json_decref(j);
    scratch_remove(&s);
}

/* The rows of DIR, read back. */
static void read_rows(const Scratch *s, const char *dir, LabStudy *st, LabRows *rows)
{
    char path[256];
    ErrBuf err;
    snprintf(path, sizeof path, "%s/%s", s->root, dir);
    assert_int_equal(lab_study_load(st, path, &err), STATUS_OK);
    assert_int_equal(lab_results_read(st, path, rows, &err), STATUS_OK);
}

/* The games' own figures: King of the Valley's point sources add up to each player's
 * reputation (the whole part of its score), rules that are off never fire, and rules
 * that are on fire in some game. */
static void test_game_figures(void **state)
{
    (void)state;
    Scratch s;
    scratch_make(&s);
    LabStudy *st = calloc(1, sizeof *st);
    LabRows rows = {0};
    assert_int_equal(lab(&s, "king-of-the-valley --rule players=4 --players greedy,random,"
                             "random,random --games 4 --seed 3 --out @/kotv"),
                     0);
    read_rows(&s, "kotv", st, &rows);
    for (long i = 0; i < rows.count; i++) {
        const LabRow *r = &rows.row[i];
        assert_int_equal(r->n_metrics, 15);
        double picks = 0;
        for (int k = 0; k < r->players; k++) {
            double points = 0;
            for (int m = 0; m < 5; m++)
                points += r->metrics[m][k];
            assert_true(fabs(points - floor(r->scores[k])) < 1e-9);
            for (int m = 5; m < 15; m++) {
                assert_true(r->metrics[m][k] >= 0 && r->metrics[m][k] == floor(r->metrics[m][k]));
                picks += r->metrics[m][k];
            }
        }
        assert_true(picks > 0);
    }
    lab_rows_free(&rows);
    assert_int_equal(lab(&s, "kings-valley-7x7 --players random,random --games 6 --seed 3 "
                             "--compare trap=off --out @/kv"),
                     0);
    read_rows(&s, "kv", st, &rows);
    double fired[2] = {0, 0};
    for (long i = 0; i < rows.count; i++)
        fired[rows.row[i].set] += rows.row[i].metrics[0][0] + rows.row[i].metrics[0][1];
    assert_true(fired[0] > 0 && fired[1] == 0);
    lab_rows_free(&rows);
    assert_int_equal(lab(&s, "kings-castle --players random,random --games 6 --seed 3 "
                             "--compare swap=off --out @/kc"),
                     0);
    read_rows(&s, "kc", st, &rows);
    for (long i = 0; i < rows.count; i++)
        if (rows.row[i].set == 1)
            assert_true(rows.row[i].metrics[4][0] == 0);
    lab_rows_free(&rows);
    free(st);
    scratch_remove(&s);
}

/* King Down by set-up family: the families are the documented ones and hold every game;
 * a fixed set-up is one family. */
static void test_setup_families(void **state)
{
    (void)state;
    Scratch s;
    scratch_make(&s);
    json_t *j = run_study(&s,
                          "king-down --players random,random --games 12 --seed 5 --jobs 2 "
                          "--compare setup=classic --out @/kd",
                          "kd", 12);
    const json_t *sets = json_object_get(j, "sets");
    size_t i;
    json_t *f;
    long games = 0;
    json_array_foreach(json_object_get(json_array_get(sets, 0), "setup_families"), i, f) {
        char zone[16], pieces[32];
        assert_int_equal(sscanf(json_string_value(json_object_get(f, "family")),
                                "%15[a-z]/%31[a-z+]", zone, pieces),
                         2);
        assert_true(strcmp(zone, "edge") == 0 || strcmp(zone, "wing") == 0 ||
                    strcmp(zone, "centre") == 0);
        assert_true(strcmp(pieces, "queen+paladin") == 0 || strcmp(pieces, "queen") == 0 ||
                    strcmp(pieces, "paladin") == 0 || strcmp(pieces, "neither") == 0);
        games += jint(f, "games");
        check_rate(json_object_get(f, "draw"), 0, 0);
    }
    assert_int_equal(games, jint(json_array_get(sets, 0), "games"));
    assert_true(json_array_size(json_object_get(json_array_get(sets, 0), "setup_families")) > 1);
    const json_t *classic = json_object_get(json_array_get(sets, 1), "setup_families");
    assert_int_equal(json_array_size(classic), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(classic, 0), "family")),
                        "centre/queen");
    assert_int_equal(jint(json_array_get(classic, 0), "games"), 12);
    json_decref(j);
    char *report = slurp(s.root, "kd", "report.html");
    assert_non_null(strstr(report, "By set-up family"));
    free(report);
    // Games without families say none.
    assert_int_equal(lab(&s, "kings-valley --players random,random --games 2 --out @/kv"), 0);
    j = load_summary(&s, "kv");
    assert_int_equal(json_array_size(json_object_get(
                         json_array_get(json_object_get(j, "sets"), 0), "setup_families")),
                     0);
    json_decref(j);
    scratch_remove(&s);
}

/* King of the Valley: each character's pick rate (seats that picked it) and its win rate
 * when picked; and a custom tiles table compared with the built-in one. */
static void test_characters_and_tiles(void **state)
{
    (void)state;
    Scratch s;
    scratch_make(&s);
    char path[256];
    snprintf(path, sizeof path, "%s/tiles.txt", s.root);
    FILE *t = fopen(path, "w");
    assert_non_null(t);
    // The built-in piles without priests, a farmer for each.
    fputs("I Q 1\nI D 2\nI C 3\nI NA 2\nI NB 2\nI NC 2\nI ND 1\nI F 9\nI W 4\n"
          "I T0:3 1\nI T0:4 1\nI T3:5 1\n"
          "II Q 1\nII D 2\nII C 3\nII NA 1\nII NB 1\nII NC 2\nII ND 2\nII F 9\nII W 4\n"
          "II J 1\nII Z 1\nII T3:6 1\nII T4:7 1\nII T4:8 1\n"
          "III Q 1\nIII D 2\nIII C 3\nIII NA 2\nIII NB 2\nIII NC 1\nIII ND 2\nIII F 9\n"
          "III W 4\nIII J 2\nIII Z 1\nIII T5:9 1\nIII T5:10 1\n",
          t);
    fclose(t);
    char line[512];
    snprintf(line, sizeof line, "king-of-the-valley --rule players=3 --players random,greedy,"
                                "random --games 6 --seed 2 --jobs 2 --compare tiles=%s --out @/k",
             path);
    json_t *j = run_study(&s, line, "k", 6);
    const json_t *sets = json_object_get(j, "sets");
    assert_int_equal(json_array_size(sets), 2);
    assert_int_equal(json_array_size(json_object_get(j, "comparisons")), 1);
    for (size_t set = 0; set < 2; set++) {
        const long n = jint(json_array_get(sets, set), "games");
        size_t i;
        json_t *m;
        long picked = 0;
        json_array_foreach(json_object_get(json_array_get(sets, set), "metrics"), i, m) {
            if (strncmp(json_string_value(json_object_get(m, "metric")), "picked-", 7) != 0)
                continue;
            const long used = jint(m, "used");
            check_rate(json_object_get(m, "seats_with"), used, 3 * n);
            picked += used;
            if (strcmp(json_string_value(json_object_get(m, "metric")), "picked-priest") == 0 &&
                set == 1)
                assert_int_equal(used, 0); /* the table has none */
        }
        assert_true(picked > 0);
    }
    json_decref(j);
    char *report = slurp(s.root, "k", "report.html");
    assert_non_null(strstr(report, "picked-knight"));
    assert_non_null(strstr(report, "tiles.txt"));
    free(report);
    scratch_remove(&s);
}

static void test_bad_input(void **state)
{
    (void)state;
    Scratch s;
    scratch_make(&s);
    assert_int_not_equal(lab(&s, "no-such-game --players random,random --games 2 --out @/x"), 0);
    assert_int_not_equal(lab(&s, "kings-valley --players random,random --games 2"), 0);
    assert_int_not_equal(lab(&s, "kings-valley --players human,random --games 2 --out @/x"), 0);
    assert_int_not_equal(lab(&s, "kings-valley --players random --games 2 --out @/x"), 0);
    assert_int_not_equal(
        lab(&s, "kings-valley --players random,random --compare nope=1 --games 2 --out @/x"), 0);
    assert_int_not_equal(
        lab(&s, "kings-valley --players random,random --shard 3/2 --games 2 --out @/x"), 0);
    assert_int_not_equal(lab(&s, "kings-valley --ladder 1,1 --games 2 --out @/x"), 0);
    assert_int_not_equal(lab(&s, "kings-valley --ladder 0,3 --games 2 --out @/x"), 0);
    // Shards of one study: a missing one, one twice, and another study are refused.
    assert_int_equal(lab(&s, "kings-valley --players random,random --games 4 --shard 1/2 "
                             "--out @/a1"),
                     0);
    assert_int_equal(lab(&s, "kings-valley --players random,random --games 4 --shard 2/2 "
                             "--out @/a2"),
                     0);
    assert_int_equal(lab(&s, "kings-valley --players random,random --games 4 --seed 9 "
                             "--shard 2/2 --out @/b2"),
                     0);
    assert_int_not_equal(lab(&s, "merge @/a1 --out @/m"), 0);
    assert_int_not_equal(lab(&s, "merge @/a1 @/a1 --out @/m"), 0);
    assert_int_not_equal(lab(&s, "merge @/a1 @/b2 --out @/m"), 0);
    assert_int_equal(lab(&s, "merge @/a1 @/a2 --out @/m"), 0);
    // A damaged results file is refused with a message, not read.
    char path[256];
    snprintf(path, sizeof path, "%s/a2/results.csv", s.root);
    FILE *f = fopen(path, "a");
    assert_non_null(f);
    fputs("\"9\",\"1\",\"1\",\"\",\"x\",\"random,random\",\"1\",\"valley\",\"3\",\"1|-1\",\"\"\n", f);
    fclose(f);
    assert_int_not_equal(lab(&s, "merge @/a1 @/a2 --out @/m2"), 0);
    scratch_remove(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wilson),
        cmocka_unit_test(test_tests_and_quantiles),
        cmocka_unit_test(test_elo_ladder),
        cmocka_unit_test(test_every_game_study),
        cmocka_unit_test(test_results_pinned),
        cmocka_unit_test(test_game_aborted),
        cmocka_unit_test(test_compare_and_ladder),
        cmocka_unit_test(test_game_figures),
        cmocka_unit_test(test_setup_families),
        cmocka_unit_test(test_characters_and_tiles),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests_name("lab", tests, NULL, NULL);
}
