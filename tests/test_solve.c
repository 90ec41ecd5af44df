/*
 * test_solve.c - the King's Valley solver against the rules code and a plain solver:
 * its moves and un-moves against the game's own moves, the index's symmetry folding,
 * every value of reduced games (no soldiers, one soldier a side) against a forward
 * fixed point computed through the game's interface, the table file's checks, and what
 * is read from a table: a played game's changes of result, the report, the ply limit.
 */
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
#include "cli/solve_report.h"
#include "core/record.h"
#include "play/perfect.h"
#include "play/solution.h"
#include "play/registry.h"
#include "solve/kvs_retro.h"
#include "solve/kvs_table.h"
#include "support/rule_text.h"
#include "support/slow_build.h"
#include "support/temp_path.h"

/* Sanitizer builds run several times slower: they check the same things on fewer
 * positions, and the plain solver only on the game without soldiers. */
#ifdef SLOW_BUILD
enum { RANDOM_POSITIONS = 1000 };
#else
enum { RANDOM_POSITIONS = 10000 };
#endif

static Game *make_game(const char *name, const char *lkl, const char *no_move)
{
    Game *g;
    ErrBuf err;
    char a[64], b[64];
    snprintf(a, sizeof a, "locked-king-loses=%s", lkl);
    snprintf(b, sizeof b, "no-move=%s", no_move);
    const char *rules[4] = {a, b, "repetition=off", "max-plies=1000"};
    assert_int_equal(rule_text_create(registry_find(name), 0, rules, 4, &g, &err), STATUS_OK);
    return g;
}

/* The game's text of p with `mover` (0 or 1) to move, one ply played. */
static void pos_text(const KvsPos *p, int mover, char *out)
{
    kvs_pos_text(p, mover, 1, out);
}

static bool same_pos(const KvsPos *a, const KvsPos *b)
{
    return a->soldiers[0] == b->soldiers[0] && a->soldiers[1] == b->soldiers[1] &&
           a->king[0] == b->king[0] && a->king[1] == b->king[1];
}

static KvsPos random_pos(const KvsIndex *ix, Rng *rng)
{
    const uint64_t i = rng_next(rng) % ix->size;
    const KvsPos p = kvs_index_position(ix, i);
    return kvs_transform(&ix->board, &p, (int)rng_below(rng, KVS_SYMS));
}

/* kvs_successors lists exactly the game's moves (valley slides apart), on random
 * positions with four and with two soldiers a side. */
static void test_successors_match_game(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", "off", "loss");
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    MoveList *ml = malloc(sizeof *ml);
    Rng rng;
    rng_seed(&rng, 7);
    for (int n = 2; n <= 4; n += 2) {
        KvsIndex *ix = malloc(sizeof *ix);
        kvs_index_init(ix, n);
        for (int iter = 0; iter < RANDOM_POSITIONS / 4; iter++) {
            const KvsPos p = random_pos(ix, &rng);
            const int mover = (int)rng_below(&rng, 2);
            char text[64];
            pos_text(&p, mover, text);
            ErrBuf err;
            assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
            KvsPos succ[KVS_MAX_SUCC];
            bool valley;
            const int ns = kvs_successors(&ix->board, &p, succ, &valley);
            bool used[KVS_MAX_SUCC] = {false};
            bool saw_valley = false;
            int matched = 0;
            g->ops->gen_moves(g, s, ml);
            for (int k = 0; k < ml->count; k++) {
                g->ops->make(g, s, ml->moves[k], undo);
                if (game_is_over(g, s)) {
                    saw_valley = true;
                } else {
                    StrBuf t;
                    sb_init(&t);
                    g->ops->format_position(g, s, &t);
                    KvsPos q;
                    int turn, sold;
                    assert_int_equal(kvs_pos_from_text(sb_str(&t), &q, &turn, &sold, &err), STATUS_OK);
                    sb_free(&t);
                    bool found = false;
                    for (int m = 0; m < ns && !found; m++)
                        if (!used[m] && same_pos(&succ[m], &q))
                            used[m] = found = true;
                    assert_true(found);
                    matched++;
                }
                g->ops->unmake(g, s, ml->moves[k], undo);
            }
            assert_int_equal(matched, ns);
            assert_int_equal(saw_valley, valley);
        }
        free(ix);
    }
    free(ml);
    free(undo);
    free(s);
    game_destroy(g);
}

/* Un-moves and moves are inverse: every predecessor of Y has Y among its successors,
 * and every successor of X has X among its predecessors. */
static void test_predecessors_invert_successors(void **state)
{
    (void)state;
    KvsIndex *ix = malloc(sizeof *ix);
    kvs_index_init(ix, 4);
    Rng rng;
    rng_seed(&rng, 11);
    KvsPos a[KVS_MAX_PRED], b[KVS_MAX_PRED];
    for (int iter = 0; iter < RANDOM_POSITIONS; iter++) {
        const KvsPos p = random_pos(ix, &rng);
        bool valley;
        const int ns = kvs_successors(&ix->board, &p, a, &valley);
        for (int k = 0; k < ns; k++) {
            const int np = kvs_predecessors(&ix->board, &a[k], b);
            int hits = 0;
            for (int m = 0; m < np; m++)
                hits += same_pos(&b[m], &p);
            assert_int_equal(hits, 1);
        }
        const int np = kvs_predecessors(&ix->board, &p, a);
        for (int k = 0; k < np; k++) {
            const int n2 = kvs_successors(&ix->board, &a[k], b, &valley);
            int hits = 0;
            for (int m = 0; m < n2; m++)
                hits += same_pos(&b[m], &p);
            assert_int_equal(hits, 1);
        }
    }
    free(ix);
}

/* Every image of a position has the position's index, and an entry in use maps back to
 * itself. */
static void test_index_folds_symmetry(void **state)
{
    (void)state;
    for (int n = 0; n <= 4; n++) {
        KvsIndex *ix = malloc(sizeof *ix);
        kvs_index_init(ix, n);
        assert_int_equal(ix->size, 75 * ix->per_pair);
        Rng rng;
        rng_seed(&rng, (uint64_t)n + 3);
        for (int iter = 0; iter < RANDOM_POSITIONS; iter++) {
            const uint64_t i = rng_next(&rng) % ix->size;
            const KvsPos p = kvs_index_position(ix, i);
            int stab;
            const uint64_t canon = kvs_index_of(ix, &p, &stab);
            assert_true(canon <= i);
            assert_int_equal(canon == i, kvs_index_canonical(ix, i));
            for (int t = 0; t < KVS_SYMS; t++) {
                const KvsPos q = kvs_transform(&ix->board, &p, t);
                int s2;
                assert_int_equal(kvs_index_of(ix, &q, &s2), canon);
                assert_int_equal(s2, stab);
            }
        }
        free(ix);
    }
}

/* kvs_index_near gives kvs_index_of's index and stabiliser for the positions a move
 * away from its base, both ways (as the solver asks), and for unrelated positions,
 * with the processor's bit extraction and with the portable ranks; an entry maps back
 * to its position through the table of combinations. */
static void test_index_near_matches(void **state)
{
    (void)state;
    for (int n = 1; n <= 4; n++) {
        KvsIndex *ix = malloc(sizeof *ix);
        kvs_index_init(ix, n);
        Rng rng;
        rng_seed(&rng, (uint64_t)n + 11);
        for (int pass = 0; pass < 2; pass++) {
            (void)kvs_index_use_bmi2(ix, pass == 0);
            for (int iter = 0; iter < RANDOM_POSITIONS / 4; iter++) {
                const KvsPos p = random_pos(ix, &rng);
                KvsPos near[KVS_MAX_PRED + KVS_MAX_SUCC + 1];
                bool valley;
                int count = kvs_predecessors(&ix->board, &p, near);
                count += kvs_successors(&ix->board, &p, near + count, &valley);
                near[count++] = random_pos(ix, &rng);
                KvsImages im;
                kvs_images_init(&im, p.soldiers[1], p.soldiers[0]);
                for (int k = 0; k < count; k++) {
                    int s1, s2;
                    assert_int_equal(kvs_index_near(ix, &im, &near[k], &s1),
                                     kvs_index_of(ix, &near[k], &s2));
                    assert_int_equal(s1, s2);
                }
                const uint64_t i = rng_next(&rng) % ix->size;
                const KvsPos q = kvs_index_position(ix, i);
                int stab;
                assert_int_equal(kvs_index_raw(ix, (int)(i / ix->per_pair), &q), i);
                assert_true(kvs_index_of(ix, &q, &stab) <= i);
            }
        }
        free(ix);
    }
}

/* The plain solver: every position of the reduced game with either side to move, no
 * symmetry, values by a forward fixed point over successor lists built with the game's
 * own interface. Indexed by turn, kings and the soldier squares (25 = none). */
typedef struct Ref {
    int soldiers;
    size_t size;
    int16_t *val;    /* -1 undecided, else plies (odd: the side to move wins) */
    int32_t *first;  /* successors of position i: succ[first[i] .. first[i + 1]) */
    int32_t *succ;   /* index of the child, or -2 for a child the mover has won */
    bool *draw_end;  /* a side without moves draws here */
} Ref;

static size_t ref_index(int turn, int k0, int k1, int s0, int s1)
{
    return ((((size_t)turn * 25 + (size_t)k0) * 25 + (size_t)k1) * 26 + (size_t)s0) * 26 + (size_t)s1;
}

static size_t ref_of_text(const char *text)
{
    int king[2] = {-1, -1}, sold[2] = {25, 25};
    int rank = 4, file = 0;
    const char *p = text;
    for (; *p != ' '; p++) {
        if (*p == '/') {
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '5') {
            file += *p - '0';
        } else {
            const int who = (*p == 'K' || *p == 'S') ? 0 : 1;
            if (*p == 'K' || *p == 'k')
                king[who] = rank * 5 + file;
            else
                sold[who] = rank * 5 + file;
            file++;
        }
    }
    return ref_index(p[1] - '1', king[0], king[1], sold[0], sold[1]);
}

static void ref_solve(Ref *r, Game *g, int soldiers)
{
    r->soldiers = soldiers;
    r->size = ref_index(2, 0, 0, 0, 0);
    r->val = malloc(r->size * sizeof *r->val);
    r->first = calloc(r->size + 1, sizeof *r->first);
    r->draw_end = calloc(r->size, sizeof *r->draw_end);
    size_t cap = 1 << 20, used = 0;
    r->succ = malloc(cap * sizeof *r->succ);
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    MoveList *ml = malloc(sizeof *ml);
    StrBuf t;
    sb_init(&t);
    for (size_t i = 0; i < r->size; i++) {
        r->val[i] = -2; // not a position
        r->first[i] = (int32_t)used;
        size_t x = i;
        const int s1 = (int)(x % 26), s0 = (int)(x / 26 % 26), k1 = (int)(x / 676 % 25),
                  k0 = (int)(x / 16900 % 25), turn = (int)(x / 422500);
        const bool want = soldiers == 1 ? (s0 < 25 && s1 < 25) : (s0 == 25 && s1 == 25);
        if (!want || k0 == k1 || k0 == 12 || k1 == 12 || s0 == 12 || s1 == 12 || s0 == k0 ||
            s0 == k1 || s1 == k0 || s1 == k1 || (s0 == s1 && s0 < 25))
            continue;
        KvsPos p = {{s0 < 25 ? 1u << s0 : 0, s1 < 25 ? 1u << s1 : 0}, {(uint8_t)k0, (uint8_t)k1}};
        // p's side 0 is the first player here; pos_text's mover is the side to move.
        KvsPos q = p;
        if (turn == 1) {
            q.soldiers[0] = p.soldiers[1];
            q.soldiers[1] = p.soldiers[0];
            q.king[0] = p.king[1];
            q.king[1] = p.king[0];
        }
        char text[64];
        pos_text(&q, turn, text);
        ErrBuf err;
        assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
        assert_int_equal(ref_of_text(text), i);
        r->val[i] = -1;
        if (game_is_over(g, s)) {
            double ret[MAX_PLAYERS];
            g->ops->returns(g, s, ret);
            if (ret[turn] < 0)
                r->val[i] = 0;
            else
                r->draw_end[i] = true;
            continue;
        }
        g->ops->gen_moves(g, s, ml);
        for (int k = 0; k < ml->count; k++) {
            g->ops->make(g, s, ml->moves[k], undo);
            if (used == cap) {
                cap *= 2;
                r->succ = realloc(r->succ, cap * sizeof *r->succ);
            }
            if (game_is_over(g, s)) {
                double ret[MAX_PLAYERS];
                g->ops->returns(g, s, ret);
                assert_true(ret[turn] > 0);
                r->succ[used++] = -2;
            } else {
                sb_clear(&t);
                g->ops->format_position(g, s, &t);
                r->succ[used++] = (int32_t)ref_of_text(sb_str(&t));
            }
            g->ops->unmake(g, s, ml->moves[k], undo);
        }
    }
    r->first[r->size] = (int32_t)used;
    sb_free(&t);
    free(ml);
    free(undo);
    free(s);
    // Forward fixed point: in round n a position is won if a move reaches a position
    // lost in fewer plies, lost if every move reaches a position already won.
    bool changed = true;
    for (int n = 1; changed || n <= 2; n++) {
        changed = false;
        for (size_t i = 0; i < r->size; i++) {
            if (r->val[i] != -1 || r->draw_end[i])
                continue;
            bool all_won = true, wins = false;
            for (int32_t k = r->first[i]; k < r->first[i + 1]; k++) {
                const int32_t c = r->succ[k];
                const int v = c == -2 ? -2 : r->val[c];
                if (c == -2 || (v >= 0 && v < n && v % 2 == 0 && !r->draw_end[c]))
                    wins = true;
                if (c == -2 || r->draw_end[c] || v < 0 || v >= n || v % 2 == 0)
                    all_won = false;
            }
            if ((n % 2 == 1 && wins) || (n % 2 == 0 && all_won)) {
                r->val[i] = (int16_t)n;
                changed = true;
            }
        }
    }
}

static void ref_free(Ref *r)
{
    free(r->val);
    free(r->first);
    free(r->succ);
    free(r->draw_end);
}

/* Every position of the reduced game, with either side to move, has the plain solver's
 * value in the retrograde table. */
static void check_against_reference(int soldiers, const char *lkl, const char *no_move)
{
    Game *g = make_game("kings-valley", lkl, no_move);
    Ref r;
    ref_solve(&r, g, soldiers);
    KvsIndex *ix = malloc(sizeof *ix);
    kvs_index_init(ix, soldiers);
    KvsSolveOptions opt = {.rules = {soldiers, strcmp(lkl, "on") == 0, strcmp(no_move, "draw") == 0},
                           .threads = 2};
    uint8_t *table;
    KvsSolveStats st;
    ErrBuf err;
    assert_int_equal(kvs_solve(ix, &opt, &table, &st, &err), STATUS_OK);
    uint64_t checked = 0, decided = 0;
    for (size_t i = 0; i < r.size; i++) {
        if (r.val[i] == -2)
            continue;
        const size_t x = i;
        const int s1 = (int)(x % 26), s0 = (int)(x / 26 % 26), k1 = (int)(x / 676 % 25),
                  k0 = (int)(x / 16900 % 25), turn = (int)(x / 422500);
        KvsPos p = {{s0 < 25 ? 1u << s0 : 0, s1 < 25 ? 1u << s1 : 0}, {(uint8_t)k0, (uint8_t)k1}};
        if (turn == 1) {
            const KvsPos q = p;
            p.soldiers[0] = q.soldiers[1];
            p.soldiers[1] = q.soldiers[0];
            p.king[0] = q.king[1];
            p.king[1] = q.king[0];
        }
        int stab;
        const int got = table[kvs_index_of(ix, &p, &stab)];
        const int want = r.val[i] < 0 ? 0 : r.val[i] + 1;
        if (got != want)
            fail_msg("position %zu (turn %d kings %d %d soldiers %d %d): table %d, reference %d",
                     i, turn, k0, k1, s0, s1, got, want);
        checked++;
        decided += want != 0;
    }
    assert_true(checked > 0);
    assert_true(decided > 0);
    free(table);
    free(ix);
    ref_free(&r);
    game_destroy(g);
}

static void test_kings_only_matches_reference(void **state)
{
    (void)state;
    check_against_reference(0, "on", "loss");
    check_against_reference(0, "off", "loss");
    check_against_reference(0, "off", "draw");
}

static void test_one_soldier_matches_reference(void **state)
{
    (void)state;
#ifdef SLOW_BUILD
    skip();
#else
    check_against_reference(1, "on", "loss");
    check_against_reference(1, "off", "draw");
#endif
}

/* An agent of g that plays from the table at path (*perfect, freed by the caller after
 * the agent). */
static Agent *perfect_agent(const char *path, const Game *g, Perfect **perfect)
{
    ErrBuf err;
    assert_int_equal(perfect_open(path, perfect, &err), STATUS_OK);
    AgentSpec spec;
    assert_int_equal(agent_spec_parse("ai:10", &spec, &err), STATUS_OK);
    Agent *a;
    assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_OK);
    perfect_attach(*perfect, g, &spec, a);
    return a;
}

/* Plays s out with a on both sides: the side to move wins, in exactly `plies` plies. */
static void expect_converts(const Game *g, GameState *s, Agent *a, void *undo, int plies)
{
    ErrBuf err;
    const int winner = g->ops->to_move(g, s);
    int played = 0;
    while (!game_is_over(g, s)) {
        SearchResult r;
        assert_int_equal(agent_think(a, s, &r, &err), STATUS_OK);
        g->ops->make(g, s, r.best, undo);
        played++;
    }
    double ret[MAX_PLAYERS];
    g->ops->returns(g, s, ret);
    assert_true(ret[winner] > 0);
    assert_int_equal(played, plies);
}

/* A table of the one-soldier game written to a file: opened only for the rules it was
 * solved for, refused cut short, its probes consistent with its moves, and an ai:10
 * agent that plays from it wins in exactly the plies the table gives. */
static void test_table_file_and_probes(void **state)
{
    (void)state;
    char dir[100];
    temp_path(dir, sizeof dir, "crown-test-solve-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[256], cut[256];
    snprintf(path, sizeof path, "%s/t.kvt", dir);
    snprintf(cut, sizeof cut, "%s/cut.kvt", dir);
    const int n = 1;
    KvsIndex *ix = malloc(sizeof *ix);
    kvs_index_init(ix, n);
    KvsSolveOptions opt = {.rules = {n, true, false}, .threads = 2};
    uint8_t *values;
    KvsSolveStats st;
    ErrBuf err;
    assert_int_equal(kvs_solve(ix, &opt, &values, &st, &err), STATUS_OK);
    assert_int_equal(kvs_table_write(path, ix, &opt.rules, values, &st, &err), STATUS_OK);
    FILE *f = fopen(cut, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(values, 1, 5000, f), 5000);
    fclose(f);

    Game *g = make_game("kings-valley", "on", "loss");
    Game *off = make_game("kings-valley", "off", "loss");
    Game *big = make_game("kings-valley-7x7", "on", "loss");
    KvsTable *t;
    assert_int_equal(kvs_table_open(path, off, &t, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "locked-king-loses-on"));
    assert_int_equal(kvs_table_open(path, big, &t, &err), STATUS_UNSUPPORTED);
    assert_int_equal(kvs_table_open(cut, g, &t, &err), STATUS_CORRUPT);
    assert_int_equal(kvs_table_open("/nonexistent/t.kvt", g, &t, &err), STATUS_NOT_FOUND);
    assert_int_equal(kvs_table_open(path, g, &t, &err), STATUS_OK);
    assert_int_equal(kvs_table_verify(t, &err), STATUS_OK);

    // Every position's value is the best of its moves' values.
    GameState *s = game_state_new(g);
    MoveList *ml = malloc(sizeof *ml);
    KvsValue vals[MOVELIST_CAP];
    Rng rng;
    rng_seed(&rng, 5);
    int won = 0;
    for (int iter = 0; iter < RANDOM_POSITIONS / 10; iter++) {
        const KvsPos p = random_pos(ix, &rng);
        char text[64];
        pos_text(&p, (int)rng_below(&rng, 2), text);
        assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
        if (game_is_over(g, s))
            continue;
        KvsValue v;
        assert_int_equal(kvs_probe(t, g, s, &v, &err), STATUS_OK);
        assert_int_equal(kvs_probe_moves(t, g, s, ml, vals, &err), STATUS_OK);
        KvsValue best = vals[0];
        for (int k = 1; k < ml->count; k++)
            if (kvs_value_compare(vals[k], best) > 0)
                best = vals[k];
        assert_int_equal(kvs_value_compare(best, v), 0);
        if (v.outcome <= 0 || won >= 20)
            continue;
        // The perfect player converts: the game ends with its win after v.plies plies.
        won++;
        Perfect *perfect;
        Agent *a = perfect_agent(path, g, &perfect);
        void *undo = game_undo_new(g);
        expect_converts(g, s, a, undo, v.plies);
        free(undo);
        agent_free(a);
        perfect_free(perfect);
    }
    assert_true(won > 0);
    // A position the table does not hold (four soldiers) is refused, not misread.
    KvsValue v;
    assert_int_equal(g->ops->parse_position(g, s, "sskss/5/5/5/SSKSS 1 3", &err), STATUS_OK);
    assert_int_equal(kvs_probe(t, g, s, &v, &err), STATUS_UNSUPPORTED);
    // On the first ply under first-move-soldier the value is that of the soldiers' moves.
    assert_int_equal(g->ops->parse_position(g, s, "1sk2/5/5/5/1SK2 1 0", &err), STATUS_OK);
    assert_int_equal(kvs_probe(t, g, s, &v, &err), STATUS_OK);
    assert_int_equal(kvs_probe_moves(t, g, s, ml, vals, &err), STATUS_OK);
    for (int k = 0; k < ml->count; k++)
        assert_true(kvs_value_compare(vals[k], v) <= 0);

    free(ml);
    free(s);
    kvs_table_close(t);
    game_destroy(g);
    game_destroy(off);
    game_destroy(big);
    free(values);
    free(ix);
    remove(path);
    remove(cut);
    rmdir(dir);
}

/* A solve stopped after a few plies (as by a kill) resumes from its checkpoint and ends
 * with the same table as one run straight through. */
static void test_checkpoint_resumes(void **state)
{
    (void)state;
    char dir[100];
    temp_path(dir, sizeof dir, "crown-test-ckpt-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char ckpt[256];
    snprintf(ckpt, sizeof ckpt, "%s/t.part", dir);
    KvsIndex *ix = malloc(sizeof *ix);
    kvs_index_init(ix, 1);
    KvsSolveOptions opt = {.rules = {1, true, false}, .threads = 2};
    uint8_t *straight, *resumed;
    KvsSolveStats st;
    ErrBuf err;
    assert_int_equal(kvs_solve(ix, &opt, &straight, &st, &err), STATUS_OK);
    assert_false(st.resumed);
    opt.checkpoint = ckpt;
    opt.stop_after = 3;
    assert_int_equal(kvs_solve(ix, &opt, &resumed, &st, &err), STATUS_CONFLICT);
    opt.stop_after = 0;
    assert_int_equal(kvs_solve(ix, &opt, &resumed, &st, &err), STATUS_OK);
    assert_true(st.resumed);
    assert_memory_equal(straight, resumed, ix->size);
    // A checkpoint of other rules is not taken up.
    opt.rules.locked_king_loses = false;
    free(resumed);
    assert_int_equal(kvs_solve(ix, &opt, &resumed, &st, &err), STATUS_OK);
    assert_false(st.resumed);
    free(straight);
    free(resumed);
    free(ix);
    remove(ckpt);
    rmdir(dir);
}

/* The one-soldier table solved into a temporary folder, opened for the game with its
 * default rules (max-plies 300, repetition on). The tests open one each and name its game
 * and table in the same few lines: solved afresh per test, no test sees another's. */
typedef struct Small {
    char dir[100];
    char path[128];
    KvsIndex ix;
    uint8_t *values;
    Game *g;
    KvsTable *t;
} Small;

static Game *default_game(void);

static void small_open(Small *f)
{
    temp_path(f->dir, sizeof f->dir, "crown-test-small-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/t.kvt", f->dir);
    kvs_index_init(&f->ix, 1);
    KvsSolveOptions opt = {.rules = {1, true, false}, .threads = 2};
    KvsSolveStats st;
    ErrBuf err;
    assert_int_equal(kvs_solve(&f->ix, &opt, &f->values, &st, &err), STATUS_OK);
    assert_int_equal(kvs_table_write(f->path, &f->ix, &opt.rules, f->values, &st, &err),
                     STATUS_OK);
    f->g = default_game();
    assert_int_equal(kvs_table_open(f->path, f->g, &f->t, &err), STATUS_OK);
}

static void small_close(Small *f)
{
    kvs_table_close(f->t);
    game_destroy(f->g);
    free(f->values);
    remove(f->path);
    rmdir(f->dir);
}

/* The game with its default rules (max-plies 300, repetition on). */
static Game *default_game(void)
{
    Game *g;
    ErrBuf err;
    assert_int_equal(rule_text_create(registry_find("kings-valley"), 0, NULL, 0, &g, &err),
                     STATUS_OK);
    return g;
}

/* A random position of the table won by its side to move in more than `min` plies that
 * also has a move giving the win away; its text after `ply` plies. */
static void won_position(const KvsTable *t, const Game *g, Rng *rng, int min, int ply,
                         char *text, KvsValue *v)
{
    const KvsIndex *ix = kvs_table_index(t);
    GameState *s = game_state_new(g);
    MoveList *ml = malloc(sizeof *ml);
    KvsValue vals[MOVELIST_CAP];
    ErrBuf err;
    for (;;) {
        const KvsPos p = random_pos(ix, rng);
        kvs_pos_text(&p, (int)rng_below(rng, 2), ply, text);
        if (g->ops->parse_position(g, s, text, &err) != STATUS_OK || game_is_over(g, s))
            continue;
        assert_int_equal(kvs_probe(t, g, s, v, &err), STATUS_OK);
        if (v->outcome <= 0 || v->plies <= min)
            continue;
        assert_int_equal(kvs_probe_moves(t, g, s, ml, vals, &err), STATUS_OK);
        bool gives_away = false;
        for (int k = 0; k < ml->count; k++)
            gives_away |= vals[k].outcome < 1;
        if (gives_away)
            break;
    }
    free(ml);
    free(s);
}

/* A new state at a position of the small table that won_position picks (at ply 1). */
static GameState *won_state(const Small *f, Rng *rng, int min, KvsValue *v)
{
    char text[KVS_TEXT_CAP];
    ErrBuf err;
    won_position(f->t, f->g, rng, min, 1, text, v);
    GameState *s = game_state_new(f->g);
    assert_int_equal(f->g->ops->parse_position(f->g, s, text, &err), STATUS_OK);
    return s;
}

/* Rewrites the ply count that ends a position text. */
static void at_ply(char *text, int ply)
{
    char *sp = strrchr(text, ' ');
    snprintf(sp, KVS_TEXT_CAP - (size_t)(sp - text), " %d", ply);
}

/* A played game against the table: a perfect move changes nothing, a move that gives
 * the win away is marked, and the loser's best defence is never a change. */
static void test_solution_of_game(void **state)
{
    (void)state;
    Small f;
    small_open(&f);
    const Game *g = f.g;
    const KvsTable *t = f.t;
    ErrBuf err;
    Rng rng;
    rng_seed(&rng, 11);
    KvsValue v;
    GameState *s = won_state(&f, &rng, 2, &v);
    MoveList *ml = malloc(sizeof *ml);
    KvsValue vals[MOVELIST_CAP];
    assert_int_equal(kvs_probe_moves(t, g, s, ml, vals, &err), STATUS_OK);
    int best = 0, worst = 0;
    for (int k = 1; k < ml->count; k++) {
        if (kvs_value_compare(vals[k], vals[best]) > 0)
            best = k;
        if (kvs_value_compare(vals[k], vals[worst]) < 0)
            worst = k;
    }
    const int first_worst = worst;
    // The winner's best move, the loser's best reply, then the winner's worst move.
    GameRecord r;
    assert_int_equal(record_init(&r, default_game(), s, &err), STATUS_OK);
    assert_int_equal(record_push(&r, ml->moves[best], &err), STATUS_OK);
    Move m;
    KvsValue reply;
    assert_int_equal(kvs_best_move(t, r.game, r.current, &rng, &m, &reply, &err), STATUS_OK);
    assert_int_equal(record_push(&r, m, &err), STATUS_OK);
    assert_int_equal(kvs_probe_moves(t, r.game, r.current, ml, vals, &err), STATUS_OK);
    worst = 0;
    for (int k = 1; k < ml->count; k++)
        if (kvs_value_compare(vals[k], vals[worst]) < 0)
            worst = k;
    const bool blunder = vals[worst].outcome < 1;
    assert_int_equal(record_push(&r, ml->moves[worst], &err), STATUS_OK);
    SolutionPly sol[3];
    assert_int_equal(solution_of_record(t, &r, sol, &err), STATUS_OK);
    assert_true(sol[0].known && sol[0].after_known);
    assert_int_equal(kvs_value_compare(sol[0].before, v), 0);
    assert_int_equal(kvs_value_compare(sol[0].after, v), 0);
    assert_false(sol[0].changed);
    assert_int_equal(sol[1].before.outcome, -1);
    assert_int_equal(sol[1].before.plies, v.plies - 1);
    assert_false(sol[1].changed);
    assert_int_equal(sol[2].mover, sol[0].mover);
    assert_int_equal(sol[2].before.outcome, 1);
    assert_int_equal(sol[2].changed, blunder);
    record_free(&r);
    // From the start, the move that gives the win away is always a change.
    assert_int_equal(record_init(&r, default_game(), s, &err), STATUS_OK);
    assert_int_equal(kvs_probe_moves(t, r.game, r.current, ml, vals, &err), STATUS_OK);
    assert_int_equal(record_push(&r, ml->moves[first_worst], &err), STATUS_OK);
    assert_int_equal(solution_of_record(t, &r, sol, &err), STATUS_OK);
    assert_true(sol[0].changed);
    assert_true(sol[0].after.outcome < 1);
    record_free(&r);

    // Near the ply limit a win that no longer fits is a draw, and the move that would
    // have kept it is no change.
    char text[KVS_TEXT_CAP];
    won_position(t, g, &rng, 2, 1, text, &v);
    at_ply(text, 300 - v.plies + 1);
    assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
    assert_int_equal(record_init(&r, default_game(), s, &err), STATUS_OK);
    assert_int_equal(kvs_best_move(t, r.game, r.current, &rng, &m, &reply, &err), STATUS_OK);
    assert_int_equal(record_push(&r, m, &err), STATUS_OK);
    assert_int_equal(solution_of_record(t, &r, sol, &err), STATUS_OK);
    assert_int_equal(sol[0].before.outcome, 0);
    assert_int_equal(sol[0].after.outcome, 0);
    assert_false(sol[0].changed);
    record_free(&r);

    free(ml);
    free(s);
    small_close(&f);
}

/* ai:10 converts a won position with exactly the plies it needs left before the
 * max-plies draw, and repetition never gets in its way. */
static void test_perfect_converts_within_limit(void **state)
{
    (void)state;
    Small f;
    small_open(&f);
    const Game *g = f.g;
    const KvsTable *t = f.t;
    ErrBuf err;
    Perfect *perfect;
    Agent *a = perfect_agent(f.path, g, &perfect);
    Rng rng;
    rng_seed(&rng, 12);
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    for (int game = 0; game < 10; game++) {
        char text[KVS_TEXT_CAP];
        KvsValue v;
        won_position(t, g, &rng, 8, 1, text, &v);
        at_ply(text, 300 - v.plies);
        assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
        expect_converts(g, s, a, undo, v.plies);
    }
    free(undo);
    free(s);
    agent_free(a);
    perfect_free(perfect);
    small_close(&f);
}

/* crown solve --report on a reduced table: a start's value and its keeping moves, a
 * perfect game that ends in the plies the value gives, and the longest forced win. */
static void test_report(void **state)
{
    (void)state;
    Small f;
    small_open(&f);
    const Game *g = f.g;
    const KvsTable *t = f.t;
    ErrBuf err;
    Rng rng;
    rng_seed(&rng, 13);
    KvsValue v;
    GameState *s = won_state(&f, &rng, 4, &v);
    StrBuf out, want;
    sb_init(&out);
    sb_init(&want);
    assert_int_equal(solve_report_start(t, g, s, &out, &err), STATUS_OK);
    sb_printf(&want, "value: win in %d\n", v.plies);
    assert_non_null(strstr(sb_str(&out), sb_str(&want)));
    sb_clear(&want);
    sb_printf(&want, "(over after %d plies)", v.plies);
    assert_non_null(strstr(sb_str(&out), sb_str(&want)));
    assert_non_null(strstr(sb_str(&out), "first moves that keep it: "));

    // The longest win is the largest odd number of plies in the table.
    int longest = 0;
    for (uint64_t i = 0; i < f.ix.size; i++)
        if (f.values[i] && ((f.values[i] - 1) & 1) && f.values[i] - 1 > longest)
            longest = f.values[i] - 1;
    sb_clear(&out);
    assert_int_equal(solve_report_table(t, g, &out, &err), STATUS_OK);
    sb_clear(&want);
    sb_printf(&want, "longest forced win: %d plies, from ", longest);
    assert_non_null(strstr(sb_str(&out), sb_str(&want)));
    sb_clear(&want);
    sb_printf(&want, "(over after %d plies)", longest);
    assert_non_null(strstr(sb_str(&out), sb_str(&want)));
    // The one-soldier game's counts, as docs/SOLVED.md gives them.
    assert_non_null(strstr(sb_str(&out), "positions: 31890 (side to move wins 8707, loses 2143, "
                                         "draws 21040;"));
    sb_free(&out);
    sb_free(&want);
    free(s);
    small_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_successors_match_game),
        cmocka_unit_test(test_predecessors_invert_successors),
        cmocka_unit_test(test_index_folds_symmetry),
        cmocka_unit_test(test_index_near_matches),
        cmocka_unit_test(test_kings_only_matches_reference),
        cmocka_unit_test(test_one_soldier_matches_reference),
        cmocka_unit_test(test_table_file_and_probes),
        cmocka_unit_test(test_checkpoint_resumes),
        cmocka_unit_test(test_solution_of_game),
        cmocka_unit_test(test_perfect_converts_within_limit),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
