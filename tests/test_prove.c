/*
 * test_prove.c - the proof-number prover against the retrograde solver: random positions
 * of a reduced King's Valley (one soldier a side) decided within 15 plies get the
 * table's value under both locked-king-loses settings (Retrieve the King differs only
 * in its start, so these positions cover both); a start is proven; a written strategy
 * passes the independent check and a tampered one fails it; bad input is refused; a
 * checkpoint stops, resumes with less work than a fresh start, and is refused for
 * another question or when damaged; and the command line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "play/registry.h"
#include "solve/dfpn.h"
#include "solve/dfpn_checkpoint.h"
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

/* A first-player win of about 6,300 nodes (first-move-soldier off): long enough to stop
 * part way, short enough for a sanitizer's run. */
#define CKPT_POSITION "1skss/s4/5/S4/1SKSS 1 2"

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

/* A new state of G at CKPT_POSITION, the checkpoint tests' question. */
static GameState *at_checkpoint_position(const Game *g)
{
    GameState *s = game_state_new(g);
    ErrBuf err;
    assert_int_equal(g->ops->parse_position(g, s, CKPT_POSITION, &err), STATUS_OK);
    return s;
}

/* SAMPLE random positions of the one-soldier table decided within 15 plies, each side to
 * move: the prover's value is the table's, with summed numbers and with weak ones. */
static void check_sample(const char *lkl, uint64_t seed)
{
    uint64_t nodes[2] = {0, 0};
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
        const DfpnValue want = ((v - 1) & 1) ? DFPN_WIN : DFPN_LOSS;
        for (int weak = 0; weak < 2; weak++) {
            DfpnOptions o = OPT;
            o.weak = weak;
            DfpnValue got;
            DfpnStats st;
            assert_int_equal(dfpn_value(g, s, &o, &got, &st, &err), STATUS_OK);
            if (got != want)
                fail_msg("%s (locked-king-loses=%s%s): prover %d, table %d plies", text, lkl,
                         weak ? ", weak" : "", got, v - 1);
            nodes[weak] += st.nodes;
        }
        checked++;
        wins += want == DFPN_WIN;
    }
    assert_true(wins > 0 && wins < checked);
    printf("# locked-king-loses=%s, %d positions: %llu nodes summed, %llu weak\n", lkl,
           checked, (unsigned long long)nodes[0], (unsigned long long)nodes[1]);
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
    DfpnStats st;
    const DfpnOptions big = {.tt_bytes = 64u << 20, .max_nodes = 20000000, .proof = f};
    DfpnValue v;
    assert_int_equal(dfpn_value(g, s, &big, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(st.proof_written);
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

/* King's Valley 7x7, whose trap rule the prover tests lazily with the game's memo:
 * positions of seeded random games that the prover decides within a small budget get
 * a strategy for the winner that the independent check (which lists moves by
 * gen_moves alone) accepts. */
static void test_trap_rule_proofs(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley-7x7", "on", NULL);
    GameState *s = game_state_new(g);
    Rng rng;
    rng_seed(&rng, 7);
    const DfpnOptions small = {.tt_bytes = 4u << 20, .max_nodes = 3000};
    void *undo = malloc(g->undo_size);
    assert_non_null(undo);
    int proven = 0;
    for (int game = 0; game < 40 && proven < 3; game++) {
        g->ops->new_game(g, s, 0);
        const int plies = 16 + (int)rng_below(&rng, 24);
        MoveList ml;
        for (int ply = 0; ply < plies && !game_is_over(g, s); ply++) {
            const int n = g->ops->gen_moves(g, s, &ml);
            g->ops->make(g, s, ml.moves[rng_below(&rng, (uint32_t)n)], undo);
        }
        if (game_is_over(g, s))
            continue;
        DfpnValue v;
        DfpnStats st;
        ErrBuf err;
        assert_int_equal(dfpn_value(g, s, &small, &v, &st, &err), STATUS_OK);
        if (v != DFPN_WIN && v != DFPN_LOSS)
            continue;
        const int mover = g->ops->to_move(g, s);
        const int winner = v == DFPN_WIN ? mover : 1 - mover;
        char path[512];
        temp_path(path, sizeof path, "crown-proof-7x7.txt");
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        const DfpnOptions big = {.tt_bytes = 16u << 20, .max_nodes = 200000, .proof = f};
        assert_int_equal(dfpn_value(g, s, &big, &v, &st, &err), STATUS_OK);
        assert_true(st.proof_written);
        assert_int_equal(fclose(f), 0);
        f = fopen(path, "r");
        ProofHeader h;
        assert_int_equal(proof_read_header(f, &h, &err), STATUS_OK);
        ProofCheckStats cs;
        assert_int_equal(proof_check_tree(g, s, winner, f, &cs, &err), STATUS_OK);
        fclose(f);
        unlink(path);
        proven++;
    }
    assert_int_equal(proven, 3);
    free(undo);
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
    // A proof to a pipe is refused before any search: the writer needs to seek.
    g->ops->new_game(g, s, 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    DfpnOptions o = OPT;
    o.proof = fdopen(fds[1], "w");
    assert_non_null(o.proof);
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_IO);
    assert_non_null(strstr(err.msg, "seek"));
    fclose(o.proof);
    close(fds[0]);
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
    char log[512];
    temp_path(log, sizeof log, "crown-prove-cli.log");
    const size_t cmd_cap = strlen(getenv("CROWN_BIN")) + strlen(args) + sizeof log + 16;
    char *cmd = malloc(cmd_cap);
    assert_non_null(cmd);
    snprintf(cmd, cmd_cap, "'%s' %s >'%s' 2>&1", getenv("CROWN_BIN"), args, log);
    const int rc = system(cmd);
    free(cmd);
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
    const char *position = PROOF_POSITION;
    snprintf(args, sizeof args,
             "prove kings-valley --rule first-move-soldier=off --memory 0.06 --out '%s'%s%s%s",
             proof, position ? " --position '" : "", position ? position : "", position ? "'" : "");
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "value: first player wins"));
    assert_non_null(strstr(out, "nodes per second"));
    snprintf(args, sizeof args, "prove --verify '%s'", proof);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "proof verified: player 1 wins"));
    // A budget spent leaves the earlier proof of that name as it was.
    snprintf(args, sizeof args, "prove kings-valley --memory 0.01 --nodes 100 --out '%s'", proof);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "no proof written: the value is unknown"));
    snprintf(args, sizeof args, "prove --verify '%s'", proof);
    assert_int_equal(crown(args, out, sizeof out), 0);
    char part[600];
    snprintf(part, sizeof part, "%s.part", proof);
    assert_int_equal(access(part, F_OK), -1);
    unlink(proof);
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "cannot open"));
    assert_int_equal(crown("prove", out, sizeof out), 2);
    // A name too long for its ".part" is refused before the search.
    char long_out[4300 + 32];
    memset(long_out, 'x', sizeof long_out);
    memcpy(long_out, "prove kings-valley --out ", 25);
    long_out[sizeof long_out - 1] = '\0';
    assert_int_equal(crown(long_out, out, sizeof out), 1);
    assert_non_null(strstr(out, "--out: the file name is too long"));
    assert_int_equal(crown("prove kings-valley --memory lots", out, sizeof out), 2);
    assert_non_null(strstr(out, "--memory must be a number"));
    assert_int_equal(crown("prove kings-valley --numbers most", out, sizeof out), 2);
    assert_non_null(strstr(out, "--numbers must be sum or weak"));
    assert_int_equal(crown("prove kings-valley --rule first-move-soldier=off --numbers weak "
                           "--position '1skss/s4/5/S4/1SKSS 1 2'", out, sizeof out), 0);
    assert_non_null(strstr(out, "value: first player wins"));
    assert_int_equal(crown("prove kings-valley --nodes 1000", out, sizeof out), 0);
    assert_non_null(strstr(out, "value: unknown"));
    assert_non_null(strstr(out, "most-proving line of \"player 1 wins\""));
}

/* A search stopped by its budget says where it stood: a line of legal moves from the
 * root, the attacker's least proof number and the defender's least disproof number at
 * each step; a decided value has none. */
static void test_open_line(void **state)
{
    (void)state;
    const char *games[2] = {"kings-valley", "kings-valley-7x7"};
    for (int k = 0; k < 2; k++) {
        Game *g = make_game(games[k], "on", NULL);
        GameState *s = game_state_new(g);
        g->ops->new_game(g, s, 0);
        const DfpnOptions o = {.tt_bytes = 4u << 20, .max_nodes = 2000};
        DfpnValue v;
        DfpnStats st;
        ErrBuf err;
        assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
        assert_int_equal(v, DFPN_UNKNOWN);
        assert_int_equal(st.line_attacker, 0);
        assert_true(st.line_len >= 2 && st.line_len <= DFPN_LINE_MAX);
        void *undo = game_undo_new(g);
        for (int i = 0; i < st.line_len; i++) {
            MoveList ml;
            const int n = g->ops->gen_moves(g, s, &ml);
            bool legal = false;
            for (int j = 0; j < n; j++)
                legal |= ml.moves[j] == st.line[i];
            assert_true(legal);
            g->ops->make(g, s, st.line[i], undo);
        }
        free(undo);
        free(s);
        game_destroy(g);
    }
    Game *g = make_game("kings-valley", "on", NULL);
    GameState *s = game_state_new(g);
    ErrBuf err;
    assert_int_equal(g->ops->parse_position(g, s, "sskss/5/1S3/2K2/S2SS 1 0", &err), STATUS_OK);
    DfpnValue v;
    DfpnStats st;
    assert_int_equal(dfpn_value(g, s, &OPT, &v, &st, &err), STATUS_OK);
    assert_int_not_equal(v, DFPN_UNKNOWN);
    assert_int_equal(st.line_len, 0);
    free(s);
    game_destroy(g);
}

/* The whole file, for the tests that damage it. */
static char *slurp(const char *path, size_t *n)
{
    char *text = temp_read(path, n);
    assert_non_null(text);
    assert_true(*n > 0);
    return text;
}

static void spit(const char *path, const char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static bool stop_after_three(void *ctx)
{
    int *polls = ctx;
    return ++*polls >= 3;
}

/* Stops at a node budget with checkpoints on the way, resumes into a table of another
 * size, and reaches the fresh run's value with fewer new nodes; a decided checkpoint
 * answers at once; an interrupt stops with a checkpoint. */
/* The proof file f (rewound here) is a strategy for `winner` from s that the
 * independent check accepts. */
static void expect_proof(const Game *g, const GameState *s, int winner, FILE *f)
{
    rewind(f);
    ProofHeader h;
    ErrBuf err;
    assert_int_equal(proof_read_header(f, &h, &err), STATUS_OK);
    assert_int_equal(h.winner, winner);
    ProofCheckStats cs;
    if (proof_check_tree(g, s, winner, f, &cs, &err) != STATUS_OK)
        fail_msg("proof rejected: %s", err.msg);
    assert_true(cs.wins > 0);
}

/* dfpn_value writes the winner's strategy from its own table: a loss for the player to
 * move (the winner is the other player, from the second run) as well as a win, also
 * with a table too small for the whole proof, whose lost entries the writer searches
 * again; nothing is written for an unknown value. */
static void test_value_writes_proof(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", "on", "first-move-soldier=off");
    GameState *s = at_checkpoint_position(g);
    ErrBuf err;
    DfpnOptions o = OPT;
    o.proof = tmpfile();
    assert_non_null(o.proof);
    DfpnValue v;
    DfpnStats st;
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(st.proof_written);
    expect_proof(g, s, 0, o.proof);

    // The winning move of the proof, then the mover loses.
    rewind(o.proof);
    char line[PROOF_LINE_CAP];
    const char *play = NULL;
    while (!play && fgets(line, sizeof line, o.proof))
        if (strncmp(line, "play ", 5) == 0)
            line[strcspn(line, "\n")] = '\0', play = line + 5;
    assert_non_null(play);
    Move m;
    assert_int_equal(g->ops->parse_move(g, s, play, &m, &err), STATUS_OK);
    void *undo = game_undo_new(g);
    assert_non_null(undo);
    g->ops->make(g, s, m, undo);
    fclose(o.proof);
    // Weak numbers find and write a proof the check accepts as well.
    for (int weak = 0; weak < 2; weak++) {
        o.weak = weak;
        o.proof = tmpfile();
        assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
        assert_int_equal(v, DFPN_LOSS);
        assert_true(st.proof_written);
        expect_proof(g, s, 0, o.proof);
        fclose(o.proof);
    }
    o.weak = false;

#ifndef SLOW_BUILD
    // A proof of about 920,000 nodes in the smallest table, 1 MB (43,000 entries): the
    // writer searches again what the table lost.
    assert_int_equal(g->ops->parse_position(g, s, "s1kss/3S1/5/4s/SS1KS 2 3", &err), STATUS_OK);
    o.tt_bytes = 1;
    o.proof = tmpfile();
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(st.proof_written && st.proof_nodes > 0);
    expect_proof(g, s, 1, o.proof);
    fclose(o.proof);
#endif

    o = OPT;
    o.max_nodes = 100;
    o.proof = tmpfile();
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_UNKNOWN);
    assert_false(st.proof_written);
    assert_int_equal(ftell(o.proof), 0);
    fclose(o.proof);
    free(undo);
    free(s);
    game_destroy(g);
}

static void test_checkpoint_resume(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", "on", "first-move-soldier=off");
    GameState *s = at_checkpoint_position(g);
    ErrBuf err;
    DfpnValue v;
    DfpnStats fresh, st;
    assert_int_equal(dfpn_value(g, s, &OPT, &v, &fresh, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(fresh.nodes > 3000);

    char path[512], tmp[600];
    temp_path(path, sizeof path, "crown-prove-test.checkpoint");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    unlink(path);
    FILE *progress = tmpfile();
    assert_non_null(progress);
    DfpnOptions o = {.tt_bytes = 4u << 20, .max_nodes = fresh.nodes / 3, .progress = progress,
                     .progress_seconds = 1000, .checkpoint = path, .checkpoint_seconds = 1e-3};
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_UNKNOWN);
    assert_false(st.resumed);
    assert_string_equal(st.checkpoint_error, "");
    const uint64_t before = st.nodes;
    assert_true(before > 0 && before < fresh.nodes);
    rewind(progress);
    char line[1024];
    int written = 0;
    while (fgets(line, sizeof line, progress))
        written += strstr(line, "checkpoint written to") != NULL;
    fclose(progress);
    assert_true(written >= 2); // on the way and at the stop
    assert_int_equal(access(tmp, F_OK), -1);

    // Resumed into a table twice as large: the entries are inserted again.
    o = (DfpnOptions){.tt_bytes = 8u << 20, .max_nodes = 20000000, .checkpoint = path};
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(st.resumed);
    assert_int_equal(st.resumed_nodes, before);
    const uint64_t total = st.nodes;
    if (!(total - before < fresh.nodes))
        fail_msg("resumed with %llu new nodes, a fresh run needs %llu",
                 (unsigned long long)(total - before), (unsigned long long)fresh.nodes);
    // Decided: the next call answers from the file alone, and writes the proof from the
    // checkpoint's table.
    o.proof = tmpfile();
    assert_non_null(o.proof);
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(st.resumed && st.nodes == total && st.resumed_nodes == total);
    assert_true(st.proof_written);
    if (!(st.proof_nodes < fresh.nodes))
        fail_msg("the proof from the checkpoint searched %llu nodes, a fresh proof %llu",
                 (unsigned long long)st.proof_nodes, (unsigned long long)fresh.nodes);
    expect_proof(g, s, 0, o.proof);
    fclose(o.proof);
    o.proof = NULL;

    // An interrupt stops the search, and the stop leaves a checkpoint.
    unlink(path);
    int polls = 0;
    o = (DfpnOptions){.tt_bytes = 4u << 20, .checkpoint = path, .interrupted = stop_after_three,
                      .interrupt_ctx = &polls};
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_UNKNOWN);
    assert_true(st.interrupted && st.nodes < fresh.nodes);
    assert_int_equal(access(path, F_OK), 0);
    unlink(path);
    free(s);
    game_destroy(g);
}

static void collect_entry(void *ctx, const DfpnEntry *e)
{
    DfpnEntry **at = ctx;
    *(*at)++ = *e;
}

/* Reads every entry of the checkpoint at path (of `question`) into a new array. */
static DfpnEntry *read_entries(const char *path, const char *question, DfpnCkptInfo *info)
{
    ErrBuf err;
    DfpnEntry *all = malloc(1u << 24), *at = all;
    assert_non_null(all);
    assert_int_equal(dfpn_ckpt_read(path, question, info, collect_entry, &at, &err), STATUS_OK);
    assert_true(info->entries <= (1u << 24) / sizeof *all);
    return all;
}

/* A shrunk checkpoint keeps the entries of most work, in key order, with the head as it
 * was; it resumes the search to the same value; the same file and count give the same
 * bytes; a damaged file is refused and nothing is written. */
static void test_checkpoint_shrink(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", "on", "first-move-soldier=off");
    GameState *s = at_checkpoint_position(g);
    ErrBuf err;
    char path[512], small[600], again[600];
    temp_path(path, sizeof path, "crown-prove-shrink.checkpoint");
    snprintf(small, sizeof small, "%s.small", path);
    snprintf(again, sizeof again, "%s.again", path);
    DfpnOptions o = {.tt_bytes = 4u << 20, .max_nodes = 2000, .checkpoint = path};
    DfpnValue v;
    DfpnStats st;
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_UNKNOWN);
    const uint64_t before = st.nodes;

    StrBuf q;
    sb_init(&q);
    dfpn_ckpt_question(g, s, &q);
    DfpnCkptInfo full, kept;
    DfpnEntry *all = read_entries(path, sb_str(&q), &full);
    const uint64_t keep = full.entries / 10;
    assert_true(keep > 10);
    DfpnShrinkStats ss;
    assert_int_equal(dfpn_ckpt_shrink(path, small, keep, &ss, &err), STATUS_OK);
    assert_int_equal(ss.entries, keep);
    assert_int_equal(ss.entries_before, full.entries);
    DfpnEntry *few = read_entries(small, sb_str(&q), &kept);
    assert_int_equal(kept.entries, keep);
    assert_int_equal(kept.nodes, full.nodes);
    assert_int_equal(kept.n_runs, full.n_runs);
    assert_int_equal(kept.runs[0].pn, full.runs[0].pn);
    // Every kept entry is one of the file's, in key order, and none left out has more work.
    uint64_t more = 0;
    for (uint64_t i = 0; i < full.entries; i++)
        more += all[i].work > ss.least_work;
    assert_true(more <= keep);
    for (uint64_t i = 0; i < keep; i++) {
        assert_true(few[i].work >= ss.least_work);
        assert_true(i == 0 || few[i - 1].key <= few[i].key);
        bool found = false;
        for (uint64_t j = 0; j < full.entries && !found; j++)
            found = memcmp(&all[j], &few[i], sizeof few[i]) == 0;
        assert_true(found);
    }
    assert_int_equal(dfpn_ckpt_shrink(path, again, keep, &ss, &err), STATUS_OK);
    size_t n1, n2;
    char *a = slurp(small, &n1), *b = slurp(again, &n2);
    assert_true(n1 == n2 && memcmp(a, b, n1) == 0);
    free(b);
    // More than there are: all of them.
    assert_int_equal(dfpn_ckpt_shrink(path, again, full.entries + 5, &ss, &err), STATUS_OK);
    assert_int_equal(ss.entries, full.entries);
    unlink(again);

    // A damaged file is refused, and nothing is written.
    size_t n;
    char *good = slurp(path, &n);
    good[n - 20] ^= 0x10;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(good, 1, n, f), n);
    fclose(f);
    assert_int_equal(dfpn_ckpt_shrink(path, again, keep, &ss, &err), STATUS_CORRUPT);
    assert_non_null(strstr(err.msg, "checksum"));
    assert_int_equal(access(again, F_OK), -1);
    unlink(path);

    // The small file resumes the search, which proves the win.
    o = (DfpnOptions){.tt_bytes = 4u << 20, .max_nodes = 20000000, .checkpoint = small};
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(v, DFPN_WIN);
    assert_true(st.resumed);
    assert_int_equal(st.resumed_nodes, before);
    unlink(small);
    free(good);
    free(a);
    free(few);
    free(all);
    sb_free(&q);
    free(s);
    game_destroy(g);
}

/* `crown ARGS` fails and its output says `says`. */
static void expect_refused(const char *args, const char *says)
{
    char out[8192];
    assert_int_not_equal(crown(args, out, sizeof out), 0);
    if (!strstr(out, says))
        fail_msg("crown %s said: %s", args, out);
}

/* A checkpoint of another position or other rules is refused and names what differs; a
 * damaged, cut or foreign file is refused as damaged; nothing is searched then. */
static void test_checkpoint_refused(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", "on", "first-move-soldier=off");
    GameState *s = at_checkpoint_position(g);
    ErrBuf err;
    char path[512];
    temp_path(path, sizeof path, "crown-prove-refused.checkpoint");
    unlink(path);
    DfpnOptions o = {.tt_bytes = 1u << 20, .max_nodes = 2000, .checkpoint = path};
    DfpnValue v;
    DfpnStats st;
    assert_int_equal(dfpn_value(g, s, &o, &v, &st, &err), STATUS_OK);
    assert_int_equal(access(path, F_OK), 0);

    GameState *other = game_state_new(g);
    g->ops->new_game(g, other, 0);
    assert_int_equal(dfpn_value(g, other, &o, &v, &st, &err), STATUS_CONFLICT);
    assert_non_null(strstr(err.msg, "another question"));
    assert_non_null(strstr(err.msg, "position"));
    free(other);
    Game *g2 = make_game("kings-valley", "on", "first-move-soldier=on");
    GameState *s2 = at_checkpoint_position(g2);
    assert_int_equal(dfpn_value(g2, s2, &o, &v, &st, &err), STATUS_CONFLICT);
    assert_non_null(strstr(err.msg, "first-move-soldier"));
    free(s2);
    game_destroy(g2);
    // Summed and weak numbers are not mixed in one table.
    DfpnOptions weak = o;
    weak.weak = true;
    assert_int_equal(dfpn_value(g, s, &weak, &v, &st, &err), STATUS_CONFLICT);
    assert_non_null(strstr(err.msg, "'(no line)' where this one has 'numbers weak'"));

    size_t n;
    char *good = slurp(path, &n);
    char *bad = malloc(n);
    assert_non_null(bad);
    const char *body = strstr(good, "entries ");
    assert_non_null(body);
    const size_t head = (size_t)(strchr(body, '\n') - good) + 1;
    assert_true(n > head + 24 + 8);
    struct {
        const char *what;
        size_t len;
        const char *want;
    } cases[] = {{"a flipped bit in an entry", n, "damaged"},
                 {"cut short", head + (n - head) / 2, "damaged"},
                 {"another version", n, "format"},
                 {"not a checkpoint", 6, "not a crown prove checkpoint"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(bad, good, n);
        if (i == 0)
            bad[head + 13] ^= 4;
        if (i == 2)
            bad[strlen("crown-prove-checkpoint ")] = '9';
        if (i == 3)
            memcpy(bad, "hello\n", 6);
        spit(path, bad, cases[i].len);
        const Status got = dfpn_value(g, s, &o, &v, &st, &err);
        if (got == STATUS_OK || !strstr(err.msg, cases[i].want))
            fail_msg("%s: status %d, '%s'", cases[i].what, got, err.msg);
    }
    free(bad);
    free(good);
    unlink(path);
    free(s);
    game_destroy(g);
}

/* `crown prove --checkpoint DIR`: a stop at the budget, the resume, a refusal for other
 * rules, and SIGINT ending in a last checkpoint and the report. */
static void test_command_line_checkpoint(void **state)
{
    (void)state;
    if (!getenv("CROWN_BIN"))
        skip();
    char dir[512], file[600], args[2048], out[8192];
    temp_path(dir, sizeof dir, "crown-prove-ckpt-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(file, sizeof file, "%s/prove.checkpoint", dir);
    const char *common = "prove kings-valley --memory 0.01 --position '" CKPT_POSITION "'";
    snprintf(args, sizeof args, "%s --rule first-move-soldier=off --nodes 3000 --checkpoint '%s'",
             common, dir);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "value: unknown"));
    assert_non_null(strstr(out, "checkpoint written to"));
    snprintf(args, sizeof args, "%s --rule first-move-soldier=off --checkpoint '%s'", common,
             dir);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "resumed from"));
    assert_non_null(strstr(out, "value: first player wins"));
    assert_non_null(strstr(out, "3000 of those nodes were spent before"));
    snprintf(args, sizeof args, "%s --checkpoint '%s'", common, dir);
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "another question"));
    unlink(file);

    // A run's checkpoint shrunk to 50 entries resumes to the proof.
    char small[600], small_file[700];
    snprintf(small, sizeof small, "%s/small", dir);
    snprintf(small_file, sizeof small_file, "%s/prove.checkpoint", small);
    snprintf(args, sizeof args, "%s --rule first-move-soldier=off --nodes 3000 --checkpoint '%s'",
             common, dir);
    assert_int_equal(crown(args, out, sizeof out), 0);
    snprintf(args, sizeof args, "prove --shrink 50 --checkpoint '%s' --to '%s'", dir, small);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "kept 50 of "));
    snprintf(args, sizeof args, "%s --rule first-move-soldier=off --checkpoint '%s'", common,
             small);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "resumed from"));
    assert_non_null(strstr(out, "value: first player wins"));
    // Each refused with what is wrong.
    snprintf(args, sizeof args, "prove --shrink 0 --checkpoint '%s' --to '%s'", dir, small);
    expect_refused(args, "from 1 to");
    snprintf(args, sizeof args, "prove --shrink many --checkpoint '%s' --to '%s'", dir, small);
    expect_refused(args, "not 'many'");
    snprintf(args, sizeof args, "prove --shrink 5 --checkpoint '%s'", dir);
    expect_refused(args, "usage: crown prove --shrink");
    snprintf(args, sizeof args, "prove kings-valley --shrink 5 --checkpoint '%s' --to '%s'", dir,
             small);
    expect_refused(args, "usage: crown prove --shrink");
    snprintf(args, sizeof args, "prove --shrink 5 --checkpoint '%s/none' --to '%s'", dir, small);
    expect_refused(args, "no checkpoint at");
    unlink(small_file);
    assert_int_equal(rmdir(small), 0);
    unlink(file);

    // SIGINT in a proof far longer than the wait: a clean stop with a checkpoint.
    char log[512];
    temp_path(log, sizeof log, "crown-prove-sigint.log");
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        if (!f || dup2(fileno(stdout), 2) < 0)
            _exit(127);
        execl(getenv("CROWN_BIN"), "crown", "prove", "retrieve-the-king", "--memory", "0.01",
              "--hours", "0.01", "--checkpoint", dir, (char *)NULL);
        _exit(127);
    }
#ifdef SLOW_BUILD
    const struct timespec wait = {3, 0};
#else
    const struct timespec wait = {1, 0};
#endif
    nanosleep(&wait, NULL);
    assert_int_equal(kill(pid, SIGINT), 0);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    const size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    fclose(f);
    unlink(log);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("crown prove after SIGINT: status %d, output: %s", status, out);
    assert_non_null(strstr(out, "value: unknown (stopped by a signal)"));
    assert_non_null(strstr(out, "checkpoint written to"));
    assert_int_equal(access(file, F_OK), 0);
    unlink(file);
    assert_int_equal(rmdir(dir), 0);
}

/* `crown prove --check`: the command's own sampling against one-soldier tables written
 * by `crown solve`, both games and both locked-king-loses settings; a table of other
 * rules and a missing one refused with what to do. */
static void test_command_line_check(void **state)
{
    (void)state;
    if (!getenv("CROWN_BIN"))
        skip();
    char table[2][512], args[2048], out[8192];
    const char *lkl[2] = {"on", "off"};
    for (int k = 0; k < 2; k++) {
        temp_path(table[k], sizeof table[k], k ? "crown-check-off.kvt" : "crown-check-on.kvt");
        snprintf(args, sizeof args,
                 "solve kings-valley --soldiers 1 --rule locked-king-loses=%s --out '%s'", lkl[k],
                 table[k]);
        assert_int_equal(crown(args, out, sizeof out), 0);
    }
    for (int k = 0; k < 2; k++) {
        snprintf(args, sizeof args,
                 "prove %s --check 40 --seed %d --rule locked-king-loses=%s --tablebase '%s'",
                 k ? "retrieve-the-king" : "kings-valley", k + 2, lkl[k], table[k]);
        assert_int_equal(crown(args, out, sizeof out), 0);
        assert_non_null(strstr(out, "checked 40 positions ("));
        assert_non_null(strstr(out, "0 wrong, 0 unknown"));
        // Two threads prove the same positions to the same counts and nodes.
        char one[512], two[512];
        const char *summary = strstr(out, "checked 40 positions (");
        snprintf(one, sizeof one, "%.*s", (int)(strstr(summary, " nodes") - summary), summary);
        strcat(args, " --jobs 2");
        assert_int_equal(crown(args, out, sizeof out), 0);
        assert_non_null(strstr(out, "on 2 threads"));
        summary = strstr(out, "checked 40 positions (");
        assert_non_null(summary);
        snprintf(two, sizeof two, "%.*s", (int)(strstr(summary, " nodes") - summary), summary);
        assert_string_equal(one, two);
    }
    snprintf(args, sizeof args, "prove kings-valley --check 5 --tablebase '%s'", table[1]);
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "--check:"));
    for (int k = 0; k < 2; k++)
        unlink(table[k]);
    snprintf(args, sizeof args, "prove kings-valley --check 5 --tablebase '%s'", table[0]);
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "crown solve kings-valley"));
}

/* The first line of out that starts with `prefix`, up to " nodes" (the time differs). */
static void summary_of(const char *out, const char *prefix, char *line, size_t cap)
{
    const char *at = strstr(out, prefix);
    assert_non_null(at);
    const char *end = strstr(at, " nodes");
    assert_non_null(end);
    snprintf(line, cap, "%.*s", (int)(end - at), at);
}

/* `crown prove --check --checkpoint DIR`: every finished position logged; a run stopped
 * part way (a log cut short, its last line torn) taken up to the same counts and nodes as
 * a run from the start; a log of another check and a damaged one refused, nothing
 * written to them. */
static void test_command_line_check_log(void **state)
{
    (void)state;
    if (!getenv("CROWN_BIN"))
        skip();
    char table[512], dir[512], log[600], args[2048], out[8192], fresh[512], taken[512];
    temp_path(table, sizeof table, "crown-check-log.kvt");
    temp_path(dir, sizeof dir, "crown-check-log-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(log, sizeof log, "%s/check.log", dir);
    snprintf(args, sizeof args, "solve kings-valley --soldiers 1 --out '%s'", table);
    assert_int_equal(crown(args, out, sizeof out), 0);
    const int n = snprintf(args, sizeof args,
                           "prove kings-valley --check 30 --seed 5 --tablebase '%s'", table);
    assert_int_equal(crown(args, out, sizeof out), 0);
    summary_of(out, "checked 30 positions (", fresh, sizeof fresh);

    snprintf(args + n, sizeof args - (size_t)n, " --checkpoint '%s'", dir);
    assert_int_equal(crown(args, out, sizeof out), 0);
    summary_of(out, "checked 30 positions (", taken, sizeof taken);
    assert_string_equal(fresh, taken);
    size_t size;
    char *text = temp_read(log, &size);
    assert_non_null(text);
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 31); // the question and one line a position
    assert_non_null(strstr(text, "seed 5, count 30"));

    // Cut after the question and ten positions, and half of the eleventh.
    const char *cut = text;
    for (int k = 0; k < 11; k++)
        cut = strchr(cut, '\n') + 1;
    const size_t keep = (size_t)(cut - text) + 7;
    FILE *f = fopen(log, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, keep, f), keep);
    assert_int_equal(fclose(f), 0);
    strcat(args, " --jobs 2");
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "10 checked, 0 wrong, 0 unknown"));
    assert_non_null(strstr(out, "10 of them were checked by earlier runs"));
    summary_of(out, "checked 30 positions (", taken, sizeof taken);
    assert_string_equal(fresh, taken);
    char *again = temp_read(log, &size);
    assert_non_null(again);
    lines = 0;
    for (const char *c = again; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 31); // the torn line dropped, every position once

    // Another seed: refused, the log left as it was.
    snprintf(args, sizeof args,
             "prove kings-valley --check 30 --seed 6 --tablebase '%s' --checkpoint '%s'", table,
             dir);
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "is the log of another check"));
    char *after = temp_read(log, &size);
    assert_non_null(after);
    assert_string_equal(after, again);
    free(after);
    // Weak numbers: the same values, and another check's log.
    snprintf(args, sizeof args,
             "prove kings-valley --check 30 --seed 5 --tablebase '%s' --numbers weak", table);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "0 wrong, 0 unknown"));
    strcat(args, " --checkpoint '");
    strcat(args, dir);
    strcat(args, "'");
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, ", numbers weak"));
    free(again);
    // A damaged line: refused with its number.
    f = fopen(log, "w");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(strchr(text, '\n') + 1 - text), f);
    fputs("0 X 12 nonsense\n", f);
    assert_int_equal(fclose(f), 0);
    snprintf(args, sizeof args,
             "prove kings-valley --check 30 --seed 5 --tablebase '%s' --checkpoint '%s'", table,
             dir);
    assert_int_equal(crown(args, out, sizeof out), 1);
    assert_non_null(strstr(out, "line 2 of"));
    free(text);
    unlink(log);
    unlink(table);
    assert_int_equal(rmdir(dir), 0);
}

/* The packed tables from the command line, as they are shared: `crown solve --compress`
 * of the data folder's tables (no --tablebase: the default one), the off table coded
 * against the on one, each compared whole with its full table; then `crown prove
 * --check` against the packed off table. */
static void test_command_line_packed(void **state)
{
    (void)state;
    if (!getenv("CROWN_BIN"))
        skip();
    char full[2][400], packed[2][400], args[2048], out[8192];
    TempDataHome home;
    temp_data_home(&home, "crown-packed-XXXXXX");
    const char *sub = home.sub;
    const char *names[2] = {"on", "off-no-move-loss"}, *lkl[2] = {"on", "off"};
    for (int k = 0; k < 2; k++) {
        snprintf(full[k], sizeof full[k], "%s/kings-valley-locked-king-loses-%s.kvt", sub, names[k]);
        snprintf(packed[k], sizeof packed[k], "%s/kings-valley-locked-king-loses-%s.kvz", sub,
                 names[k]);
        snprintf(args, sizeof args,
                 "solve kings-valley --soldiers 1 --rule locked-king-loses=%s --out '%s'", lkl[k],
                 full[k]);
        assert_int_equal(crown(args, out, sizeof out), 0);
    }
    snprintf(args, sizeof args, "solve kings-valley --compress --out '%s' --check 1000", packed[0]);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, ": 0 differ"));
    assert_int_equal(crown("solve kings-valley --rule locked-king-loses=off --compress --check 1000",
                           out, sizeof out), 0);
    assert_non_null(strstr(out, "coded against"));
    assert_non_null(strstr(out, ": 0 differ"));
    snprintf(args, sizeof args,
             "prove kings-valley --check 20 --rule locked-king-loses=off --tablebase '%s'",
             packed[1]);
    assert_int_equal(crown(args, out, sizeof out), 0);
    assert_non_null(strstr(out, "0 wrong, 0 unknown"));
    for (int k = 0; k < 2; k++) {
        unlink(full[k]);
        unlink(packed[k]);
    }
    assert_true(temp_data_home_end(&home));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_matches_table),
        cmocka_unit_test(test_start_proven),
        cmocka_unit_test(test_proof_round_trip),
        cmocka_unit_test(test_trap_rule_proofs),
        cmocka_unit_test(test_open_line),
        cmocka_unit_test(test_refuses_bad_input),
        cmocka_unit_test(test_value_writes_proof),
        cmocka_unit_test(test_checkpoint_resume),
        cmocka_unit_test(test_checkpoint_refused),
        cmocka_unit_test(test_checkpoint_shrink),
        cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_command_line_checkpoint),
        cmocka_unit_test(test_command_line_check),
        cmocka_unit_test(test_command_line_check_log),
        cmocka_unit_test(test_command_line_packed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
