/*
 * test_prove.c - the proof-number prover against the retrograde solver: random positions
 * of a reduced King's Valley (one soldier a side) decided within 15 plies get the
 * table's value under both locked-king-loses settings (Retrieve the King differs only
 * in its start, so these positions cover both); a start is proven; a written strategy
 * passes the independent check and a tampered one fails it; bad input is refused; and
 * the command line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "play/registry.h"
#include "solve/dfpn.h"
#include "solve/kvs_retro.h"
#include "solve/kvs_table.h"
#include "solve/proof_check.h"
#include "support/rule_text.h"
#include "support/slow_build.h"
#include "support/temp_path.h"

#ifdef SLOW_BUILD
enum { SAMPLE = 15 };
/* A sanitizer's run is 5 to 10 times slower: the proofs written and checked are of a
 * position a few plies from the win (62 nodes) instead of the start (400,000). */
#define PROOF_POSITION "sskss/5/1S3/2K2/S2SS 1 0"
enum { PROOF_LONGEST = 1 };
#else
enum { SAMPLE = 150 };
#define PROOF_POSITION NULL
enum { PROOF_LONGEST = 7 };
#endif

static const DfpnOptions OPT = {.tt_bytes = 4u << 20, .max_nodes = 20000000};

static Game *make_game(const char *name, const char *lkl, const char *extra)
{
    Game *g;
    ErrBuf err;
    char a[64];
    snprintf(a, sizeof a, "locked-king-loses=%s", lkl);
    const char *rules[2] = {a, extra};
    assert_int_equal(rule_text_create(registry_find(name), 0, rules, extra ? 2 : 1, &g, &err),
                     STATUS_OK);
    return g;
}

/* SAMPLE random positions of the one-soldier table decided within 15 plies, each side to
 * move: the prover's value is the table's. */
static void check_sample(const char *lkl, uint64_t seed)
{
    KvsIndex *ix = malloc(sizeof *ix);
    assert_non_null(ix);
    kvs_index_init(ix, 1);
    KvsSolveOptions sopt = {.rules = {1, strcmp(lkl, "on") == 0, false}, .threads = 1};
    uint8_t *table;
    KvsSolveStats sst;
    ErrBuf err;
    assert_int_equal(kvs_solve(ix, &sopt, &table, &sst, &err), STATUS_OK);
    Game *g = make_game("kings-valley", lkl, NULL);
    GameState *s = game_state_new(g);
    Rng rng;
    rng_seed(&rng, seed);
    int checked = 0, wins = 0;
    while (checked < SAMPLE) {
        const uint64_t i = rng_next(&rng) % ix->size;
        const uint8_t v = table[i];
        if (v == 0 || v - 1 > 15 || !kvs_index_canonical(ix, i))
            continue;
        const KvsPos p = kvs_index_position(ix, i);
        char text[KVS_TEXT_CAP];
        kvs_pos_text(&p, (int)rng_below(&rng, 2), 1, text);
        assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
        if (game_is_over(g, s))
            continue;
        DfpnValue got;
        DfpnStats st;
        assert_int_equal(dfpn_value(g, s, &OPT, &got, &st, &err), STATUS_OK);
        const DfpnValue want = ((v - 1) & 1) ? DFPN_WIN : DFPN_LOSS;
        if (got != want)
            fail_msg("%s (locked-king-loses=%s): prover %d, table %d plies", text, lkl, got,
                     v - 1);
        checked++;
        wins += want == DFPN_WIN;
    }
    assert_true(wins > 0 && wins < checked);
    free(s);
    game_destroy(g);
    free(table);
    free(ix);
}

static void test_sample_matches_table(void **state)
{
    (void)state;
    check_sample("on", 1);
    check_sample("off", 2);
}

/* The start without first-move-soldier: a first-player win (the table: in 7). */
static void test_start_proven(void **state)
{
    (void)state;
#ifdef SLOW_BUILD
    skip(); // the command line test proves the same start, and a sanitizer's run is 5x slower
#endif
    Game *g = make_game("kings-valley", "on", "first-move-soldier=off");
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, 0);
    DfpnValue v;
    DfpnStats st;
    ErrBuf err;
    assert_int_equal(dfpn_value(g, s, &OPT, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(st.decided[0] && st.won[0] && st.nodes > 0);
    free(s);
    game_destroy(g);
}

/* Writes the proof of a short win, checks it, then breaks it and sees it refused. */
static void test_proof_round_trip(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", "on", "first-move-soldier=off");
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, 0);
    ErrBuf err;
    if (PROOF_POSITION != NULL)
        assert_int_equal(g->ops->parse_position(g, s, PROOF_POSITION, &err), STATUS_OK);
    char path[512];
    temp_path(path, sizeof path, "crown-proof-test.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    bool proved;
    DfpnStats st;
    // Room for the whole search: proofs the table drops are searched again to write them.
    const DfpnOptions big = {.tt_bytes = 64u << 20, .max_nodes = 20000000};
    assert_int_equal(dfpn_write_proof(g, s, 0, &big, f, &proved, &st, &err), STATUS_OK);
    assert_true(proved);
    assert_int_equal(fclose(f), 0);

    f = fopen(path, "r");
    ProofHeader h;
    assert_int_equal(proof_read_header(f, &h, &err), STATUS_OK);
    assert_string_equal(h.game, "kings-valley");
    assert_int_equal(h.winner, 0);
    ProofCheckStats cs;
    assert_int_equal(proof_check_tree(g, s, 0, f, &cs, &err), STATUS_OK);
    assert_true(cs.wins > 0 && cs.longest >= PROOF_LONGEST);
    fclose(f);

    // The same tree does not prove the other player's win.
    f = fopen(path, "r");
    assert_int_equal(proof_read_header(f, &h, &err), STATUS_OK);
    assert_int_equal(proof_check_tree(g, s, 1, f, &cs, &err), STATUS_ILLEGAL);
    fclose(f);

    // A file cut short is refused.
    f = fopen(path, "r");
    char *text = NULL;
    size_t cap = 0;
    const ssize_t n = getdelim(&text, &cap, '\0', f);
    fclose(f);
    assert_true(n > 40);
    f = fopen(path, "w");
    fwrite(text, 1, (size_t)n / 2, f);
    fclose(f);
    f = fopen(path, "r");
    assert_int_equal(proof_read_header(f, &h, &err), STATUS_OK);
    assert_int_equal(proof_check_tree(g, s, 0, f, &cs, &err), STATUS_ILLEGAL);
    fclose(f);
    free(text);
    unlink(path);

    // Not a proof file at all.
    f = tmpfile();
    fputs("hello\n", f);
    rewind(f);
    assert_int_equal(proof_read_header(f, &h, &err), STATUS_PARSE);
    fclose(f);
    free(s);
    game_destroy(g);
}

/* A finished game, and games the prover cannot handle, are errors with a message. */
static void test_refuses_bad_input(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", "on", NULL);
    GameState *s = game_state_new(g);
    ErrBuf err;
    // The first player's king already in the Valley.
    assert_int_equal(g->ops->parse_position(g, s, "sskss/5/2K2/5/SS1SS 2 1", &err), STATUS_OK);
    assert_true(game_is_over(g, s));
    DfpnValue v;
    DfpnStats st;
    assert_int_equal(dfpn_value(g, s, &OPT, &v, &st, &err), STATUS_CONFLICT);
    assert_non_null(strstr(err.msg, "over"));
    free(s);
    game_destroy(g);
    Game *kotv;
    assert_int_equal(rule_text_create(registry_find("king-of-the-valley"), 3, NULL, 0, &kotv,
                                      &err),
                     STATUS_OK);
    GameState *k = game_state_new(kotv);
    kotv->ops->new_game(kotv, k, 1);
    assert_int_equal(dfpn_value(kotv, k, &OPT, &v, &st, &err), STATUS_UNSUPPORTED);
    free(k);
    game_destroy(kotv);
}

/* `crown prove` from the command line: the value, a proof file and its check, and the
 * usage errors. Skipped without CROWN_BIN (run-tests.sh sets it). */
static int crown(const char *args, char *out, size_t cap)
{
    char log[512], cmd[2048];
    temp_path(log, sizeof log, "crown-prove-cli.log");
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>&1", getenv("CROWN_BIN"), args, log);
    const int rc = system(cmd);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    const size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    fclose(f);
    unlink(log);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static void test_command_line(void **state)
{
    (void)state;
    if (!getenv("CROWN_BIN"))
        skip();
    char proof[512], args[1024], out[8192];
    temp_path(proof, sizeof proof, "crown-prove-cli.proof");
    snprintf(args, sizeof args,
             "prove kings-valley --rule first-move-soldier=off --memory 0.06 --out '%s'%s%s%s",
             proof, PROOF_POSITION ? " --position '" : "", PROOF_POSITION ? PROOF_POSITION : "",
             PROOF_POSITION ? "'" : "");
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "value: first player wins"));
    assert_non_null(strstr(out, "nodes per second"));
    snprintf(args, sizeof args, "prove --verify '%s'", proof);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "proof verified: player 1 wins"));
    unlink(proof);
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "cannot open"));
    assert_int_equal(crown("prove", out, sizeof out), 2);
    assert_int_equal(crown("prove kings-valley --memory lots", out, sizeof out), 2);
    assert_non_null(strstr(out, "--memory must be a number"));
    assert_int_equal(crown("prove kings-valley --nodes 1000", out, sizeof out), 0);
    assert_non_null(strstr(out, "value: unknown"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_matches_table),
        cmocka_unit_test(test_start_proven),
        cmocka_unit_test(test_proof_round_trip),
        cmocka_unit_test(test_refuses_bad_input),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
