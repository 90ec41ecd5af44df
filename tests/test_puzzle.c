/*
 * test_puzzle.c - puzzles (play/puzzle.h) and `crown puzzles`: puzzles found in the
 * one-soldier table (solved here in a fraction of a second) each checked move by move
 * against that table by the test's own reading of it; a wrong move refused with the
 * right one named; short proven puzzles confirmed by a search that never sees the
 * table; the command's JSON lines, and its message when the table is missing.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "play/puzzle.h"
#include "play/registry.h"
#include "solve/kvs_retro.h"
#include "solve/kvs_table.h"
#include "support/slow_build.h"
#include "support/temp_path.h"

/* One-soldier starts the games wander from (the table holds only such positions). */
static const char *const STARTS[] = {"5/3S1/Kk3/3s1/5 1 1", "k4/1s3/5/3S1/4K 1 1",
                                     "2k2/s4/5/4S/2K2 2 2"};

typedef struct Small {
    char dir[100];
    char path[128];
    Game *g;
    KvsTable *t;
} Small;

static void small_open(Small *f)
{
    temp_path(f->dir, sizeof f->dir, "crown-test-puzzle-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/t.kvt", f->dir);
    KvsIndex ix;
    kvs_index_init(&ix, 1);
    KvsSolveOptions opt = {.rules = {1, true, false}, .threads = 2};
    KvsSolveStats st;
    ErrBuf err;
    uint8_t *values;
    assert_int_equal(kvs_solve(&ix, &opt, &values, &st, &err), STATUS_OK);
    assert_int_equal(kvs_table_write(f->path, &ix, &opt.rules, values, &st, &err), STATUS_OK);
    free(values);
    assert_int_equal(game_create(registry_find("kings-valley"), 0, NULL, 0, &f->g, &err),
                     STATUS_OK);
    assert_int_equal(kvs_table_open(f->path, f->g, &f->t, &err), STATUS_OK);
}

static void small_close(Small *f)
{
    kvs_table_close(f->t);
    game_destroy(f->g);
    remove(f->path);
    rmdir(f->dir);
}

typedef struct Found {
    Puzzle *list;
    int n, cap;
} Found;

static bool keep(void *ctx, const Puzzle *p)
{
    Found *f = ctx;
    assert_true(f->n < f->cap);
    f->list[f->n++] = *p;
    return true;
}

/* Up to `count` puzzles of the table found from STARTS[start], added to *found. */
static void find_in(const Small *f, const PuzzleJudge *j, Found *found, size_t start,
                    uint64_t seed, int min_plies, int max_plies, long count)
{
    PuzzleFindOptions o = {.count = count, .seed = seed, .min_plies = min_plies,
                           .max_plies = max_plies, .start = STARTS[start], .table = f->t,
                           .max_games = 5000};
    ErrBuf err;
    assert_int_equal(puzzle_find(j, f->g, &o, keep, found, NULL, &err), STATUS_OK);
}

static void texts_of(const Puzzle *p, const char **sol)
{
    for (int k = 0; k < p->plies; k++)
        sol[k] = p->solution[k];
}

/* The table's verdict on one puzzle, read here without the judge: at each of the
 * solver's positions exactly one move wins and it is the solution's; each reply is
 * as long a defence as any. */
static void assert_proven(const Small *f, const Puzzle *p)
{
    const Game *g = f->g;
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    MoveList *ml = malloc(sizeof *ml);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    ErrBuf err;
    assert_int_equal(g->ops->parse_position(g, s, p->position, &err), STATUS_OK);
    const int solver = g->ops->to_move(g, s);
    assert_true(p->plies >= 1 && p->plies % 2 == 1); // it ends on the solver's move
    for (int i = 0; i < p->plies; i++) {
        Move m;
        assert_int_equal(game_parse_action(g, s, p->solution[i], &m, &err), STATUS_OK);
        assert_int_equal(kvs_probe_moves(f->t, g, s, ml, vals, &err), STATUS_OK);
        int wins = 0, at = -1, best = 0;
        for (int k = 0; k < ml->count; k++) {
            wins += vals[k].outcome > 0;
            if (ml->moves[k] == m)
                at = k;
            if (kvs_value_compare(vals[k], vals[best]) > 0)
                best = k;
        }
        assert_true(at >= 0);
        if (g->ops->to_move(g, s) == solver) {
            if (wins != 1 || vals[at].outcome != 1)
                fail_msg("%s ply %d: %s is not the only win (%d wins)", p->position, i + 1,
                         p->solution[i], wins);
        } else {
            assert_int_equal(kvs_value_compare(vals[at], vals[best]), 0);
        }
        g->ops->make(g, s, m, undo);
    }
    free(vals);
    free(ml);
    free(undo);
    free(s);
}

static void test_table_puzzles_are_proven(void **state)
{
    (void)state;
    Small f;
    small_open(&f);
    PuzzleJudge j;
    puzzle_table_judge(f.t, &j);
    Found found = {.list = malloc(sizeof(Puzzle) * 300), .cap = 300};
    int longer = 0;
    for (size_t k = 0; k < sizeof STARTS / sizeof STARTS[0]; k++)
        find_in(&f, &j, &found, k, 7 + k, 1, 9, 100);
    assert_true(found.n >= 100);
    for (int i = 0; i < found.n; i++) {
        const Puzzle *p = &found.list[i];
        assert_proven(&f, p);
        assert_true(p->proven);
        assert_true(p->rating >= 400 && p->rating <= 2800);
        assert_true(p->n_themes >= 1);
        longer += p->plies > 1;
        // The judge's own check agrees with the test's reading.
        const char *sol[PUZZLE_MAX_PLIES];
        texts_of(p, sol);
        ErrBuf err;
        if (puzzle_check(&j, f.g, p->position, sol, p->plies, &err) != STATUS_OK)
            fail_msg("%s: %s", p->position, err.msg);
    }
    assert_true(longer > 0);
    free(found.list);
    small_close(&f);
}

/* A wrong first move and an illegal text are refused with what is wrong. */
static void test_check_refuses_wrong_lines(void **state)
{
    (void)state;
    Small f;
    small_open(&f);
    PuzzleJudge j;
    puzzle_table_judge(f.t, &j);
    Found found = {.list = malloc(sizeof(Puzzle) * 40), .cap = 40};
    find_in(&f, &j, &found, 0, 3, 3, 9, 40);
    assert_true(found.n >= 1);
    const Puzzle *p = &found.list[0];
    const char *sol[PUZZLE_MAX_PLIES];
    texts_of(p, sol);
    ErrBuf err;
    // Another legal first move.
    GameState *s = game_state_new(f.g);
    MoveList *ml = malloc(sizeof *ml);
    assert_int_equal(f.g->ops->parse_position(f.g, s, p->position, &err), STATUS_OK);
    f.g->ops->gen_moves(f.g, s, ml);
    StrBuf t;
    sb_init(&t);
    for (int k = 0; k < ml->count; k++) {
        sb_clear(&t);
        f.g->ops->format_move(f.g, s, ml->moves[k], &t);
        if (strcmp(sb_str(&t), sol[0]) != 0)
            break;
    }
    const char *first = sol[0];
    sol[0] = sb_str(&t);
    assert_int_equal(puzzle_check(&j, f.g, p->position, sol, p->plies, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "ply 1"));
    assert_non_null(strstr(err.msg, first));
    sol[0] = "z9-z9";
    assert_int_equal(puzzle_check(&j, f.g, p->position, sol, p->plies, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "ply 1"));
    sb_free(&t);
    free(ml);
    free(s);
    free(found.list);
    small_close(&f);
}

/* Short proven puzzles hold for a search that never sees the table: its only proven win
 * at the win's depth and four deeper. */
static void test_search_confirms_short_proven_puzzles(void **state)
{
    (void)state;
    Small f;
    small_open(&f);
    PuzzleJudge j;
    puzzle_table_judge(f.t, &j);
    Found found = {.list = malloc(sizeof(Puzzle) * 200), .cap = 200};
    find_in(&f, &j, &found, 1, 11, 1, 5, 200);
    ErrBuf err;
    int checked = 0;
    for (int i = 0; i < found.n && checked < 6; i++) {
        const Puzzle *p = &found.list[i];
        int win = 0;
        assert_int_equal(sscanf(p->value, "win in %d", &win), 1);
        if (win > 3)
            continue;
        PuzzleSearch *ps;
        assert_int_equal(puzzle_search_new(f.g, win, true, &ps, &err), STATUS_OK);
        PuzzleJudge sj;
        puzzle_search_judge(ps, &sj);
        const char *sol[PUZZLE_MAX_PLIES];
        texts_of(p, sol);
        if (puzzle_check(&sj, f.g, p->position, sol, p->plies, &err) != STATUS_OK)
            fail_msg("%s: %s", p->position, err.msg);
        puzzle_search_free(ps);
        checked++;
    }
    assert_true(checked >= 3);
    free(found.list);
    small_close(&f);
}

/* Runs `crown ARGS` with stdout to `out`; returns its exit status. */
static int run_crown(const char *args, char *out, size_t cap)
{
    const char *bin = getenv("CROWN_BIN");
    assert_non_null(bin);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    const size_t n = fread(out, 1, cap - 1, p);
    out[n] = '\0';
    const int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The command's lines are JSON with the fields; the same seed gives the same
 * set; a game without its table says how to make one. */
static void test_cli_json_lines(void **state)
{
    (void)state;
    Small f;
    small_open(&f);
    char out_path[200], args[1024];
    snprintf(out_path, sizeof out_path, "%s/p.jsonl", f.dir);
    snprintf(args, sizeof args,
             "puzzles kings-valley --count 4 --seed 5 --tablebase %s --position '%s' "
             "--out %s",
             f.path, STARTS[0], out_path);
    char *text = malloc(1 << 16);
    assert_int_equal(run_crown(args, text, 1 << 16), 0);
    size_t size;
    char *lines = temp_read(out_path, &size);
    int n = 0;
    for (char *line = strtok(lines, "\n"); line; line = strtok(NULL, "\n"), n++) {
        json_error_t jerr;
        json_t *j = json_loads(line, 0, &jerr);
        assert_non_null(j);
        json_t *sol = json_object_get(j, "solution");
        assert_string_equal(json_string_value(json_object_get(j, "game")), "kings-valley");
        assert_non_null(json_string_value(json_object_get(j, "position")));
        assert_true(json_array_size(sol) >= 1);
        assert_int_equal(json_integer_value(json_object_get(j, "plies")),
                         (json_int_t)json_array_size(sol));
        assert_true(json_array_size(json_object_get(j, "themes")) >= 1);
        assert_true(json_integer_value(json_object_get(j, "rating")) >= 400);
        assert_true(json_is_true(json_object_get(j, "proven")));
        json_decref(j);
    }
    assert_int_equal(n, 4);
    free(lines);
    // The written set passes --verify against the table.
    snprintf(args, sizeof args, "puzzles kings-valley --verify %s --tablebase %s", out_path,
             f.path);
    assert_int_equal(run_crown(args, text, 1 << 16), 0);
    assert_non_null(strstr(text, "checked 4 puzzles against the solved table: 0 wrong"));
    remove(out_path);
    // No table in the data directory: the command says so and how to make it.
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "puzzles retrieve-the-king --count 1");
    setenv("XDG_DATA_HOME", f.dir, 1);
    assert_int_equal(run_crown(cmd, text, 1 << 16), 1);
    assert_non_null(strstr(text, "crown solve kings-valley"));
    assert_non_null(strstr(text, "retrieve-the-king"));
    assert_int_equal(run_crown("puzzles kings-valley --count 1 --rule locked-king-loses=off",
                               text, 1 << 16),
                     1);
    assert_non_null(strstr(text, "crown solve kings-valley --rule locked-king-loses=off"));
    unsetenv("XDG_DATA_HOME");
    // A game with chance has no puzzles; a bad count is refused.
    assert_int_equal(run_crown("puzzles king-of-the-valley --count 1", text, 1 << 16), 1);
    assert_non_null(strstr(text, "chance"));
    assert_int_equal(run_crown("puzzles kings-castle --count 0", text, 1 << 16), 2);
    free(text);
    small_close(&f);
}

/* A sample of every shipped set checked again by search, without any table: a searched
 * puzzle at the depths that found it, a proven one by the search's own proof of its
 * win where that is short enough to see. */
static void test_shipped_sample_holds(void **state)
{
    (void)state;
    static const char *const GAMES[] = {"kings-valley", "retrieve-the-king", "kings-valley-7x7",
                                        "kings-valley-labyrinth", "kings-guard", "kings-guard-8x8",
                                        "kings-castle", "king-down"};
    char dir[100], args[1024];
    char *text = malloc(1 << 16);
    temp_path(dir, sizeof dir, "crown-test-puzzle-XXXXXX");
    assert_non_null(mkdtemp(dir));
    setenv("XDG_DATA_HOME", dir, 1); // no table: the search alone
    int sets = 0;
    for (size_t i = 0; i < sizeof GAMES / sizeof GAMES[0]; i++) {
        char path[200];
        snprintf(path, sizeof path, "src/web/static/data/puzzles/%s.jsonl", GAMES[i]);
        if (access(path, R_OK) != 0)
            continue;
        // The proven sets are checked whole against the table when they are made; here a
        // search that never sees the table confirms a sample of them (two seconds for 50;
        // a quarter of them in a sanitizer build), and one puzzle of each searched set,
        // whose checks cost seconds each.
        snprintf(args, sizeof args, "puzzles %s --verify %s --sample %d", GAMES[i], path,
                 i < 2 ? SLOW_BUILD_SHARE(50) : 1);
        if (run_crown(args, text, 1 << 16) != 0)
            fail_msg("%s: %s", GAMES[i], text);
        assert_non_null(strstr(text, "by search: 0 wrong"));
        sets++;
    }
    unsetenv("XDG_DATA_HOME");
    rmdir(dir);
    free(text);
    assert_true(sets >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_puzzles_are_proven),
        cmocka_unit_test(test_check_refuses_wrong_lines),
        cmocka_unit_test(test_search_confirms_short_proven_puzzles),
        cmocka_unit_test(test_cli_json_lines),
        cmocka_unit_test(test_shipped_sample_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
