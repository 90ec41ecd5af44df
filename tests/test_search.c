/*
 * test_search.c - the generic search (alpha-beta, MCTS, agents, TT) on the toy games of
 * tests/support/toy_games.h, whose answers are known or computed here by brute force.
 *
 * Alpha-beta is checked against an exhaustive solver that scores wins and losses by
 * their distance exactly as the search does; MCTS on positions with one clearly right
 * move, with three players, chance and hidden information; and both for determinism
 * with fixed limits and seeds.
 */
// cmocka needs these headers first, in this order.
// clang-format off
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
// clang-format on

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game.h"
#include "core/game_api.h"
#include "support/positions.h"
#include "support/rule_text.h"
#include "core/clock.h"
#include "core/rng.h"
#include "play/registry.h"
#include "search/agent.h"
#include "search/alphabeta.h"
#include "search/mcts.h"
#include "search/tt.h"
#include "support/search_pair.h"
#include "support/toy_games.h"

/* ---------------------------------------------------------------------------------- */
/* Helpers                                                                              */
/* ---------------------------------------------------------------------------------- */

static Game *new_game(const GameOps *ops, int players, const char *rule)
{
    Game *g = NULL;
    ErrBuf err;
    const char *rules[1] = {rule};
    Status st = rule_text_create(ops, players, rules, rule ? 1 : 0, &g, &err);
    if (st != STATUS_OK)
        fail_msg("rule_text_create(%s): %s", ops->name, err.msg);
    return g;
}

static Agent *new_agent(const Game *g, AgentKind kind, int level, int depth, uint64_t nodes,
                        int64_t movetime_ms, uint64_t seed)
{
    AgentSpec spec;
    agent_spec_default(&spec);
    spec.kind = kind;
    spec.level = level;
    spec.limits.depth = depth;
    spec.limits.nodes = nodes;
    spec.limits.movetime_ms = movetime_ms;
    spec.seed = seed;
    Agent *a = NULL;
    ErrBuf err;
    if (agent_new(g, &spec, &a, &err) != STATUS_OK)
        fail_msg("agent_new: %s", err.msg);
    return a;
}

/* A full-strength alpha-beta agent that searches to the end of these small games. */
static Agent *solver_agent(const Game *g)
{
    return new_agent(g, AGENT_ALPHABETA, 10, SEARCH_UNLIMITED, 0, SEARCH_UNLIMITED, 0);
}

static SearchResult think(Agent *a, const GameState *s)
{
    SearchResult r;
    ErrBuf err;
    if (agent_think(a, s, &r, &err) != STATUS_OK)
        fail_msg("agent_think: %s", err.msg);
    return r;
}

static bool is_legal(const Game *g, const GameState *s, Move m)
{
    MoveList list;
    const int n = g->ops->gen_moves(g, s, &list);
    for (int i = 0; i < n; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

static Move parse_move(const Game *g, const GameState *s, const char *text)
{
    Move m;
    ErrBuf err;
    if (g->ops->parse_move(g, s, text, &m, &err) != STATUS_OK)
        fail_msg("parse_move(%s): %s", text, err.msg);
    return m;
}

static void assert_score_text(const SearchResult *r, const char *expected)
{
    StrBuf sb;
    sb_init(&sb);
    search_format_score(r, &sb);
    assert_string_equal(sb_str(&sb), expected);
    sb_free(&sb);
}

static void assert_same_result(const SearchResult *a, const SearchResult *b)
{
    assert_int_equal(a->best, b->best);
    assert_int_equal(a->has_score, b->has_score);
    assert_int_equal(a->score, b->score);
    assert_true(a->value == b->value);
    assert_int_equal(a->nodes, b->nodes);
    assert_int_equal(a->depth, b->depth);
    assert_int_equal(a->pv_len, b->pv_len);
    assert_memory_equal(a->pv, b->pv, (size_t)a->pv_len * sizeof(Move));
}

/* ---------------------------------------------------------------------------------- */
/* An exhaustive solver with the search's scoring                                       */
/* ---------------------------------------------------------------------------------- */

enum { MEMO_BITS = 16, MEMO_SIZE = 1 << MEMO_BITS, UNDO_CAP = 64 };

/* Values of positions (they do not depend on history in the toy games), relative to
 * the position: SCORE_WIN - n is a win n actions later. */
typedef struct Memo {
    uint64_t key[MEMO_SIZE];
    int32_t value[MEMO_SIZE];
    bool used[MEMO_SIZE];
} Memo;

static int solve(const Game *g, GameState *s, Memo *memo);

/* After a move by `us`: the value of the new position for `us`, relative to the
 * position before the move. */
static int solve_child(const Game *g, GameState *s, int us, Memo *memo)
{
    const int them = g->ops->to_move(g, s);
    if (them == PLAYER_NONE) {
        double r[MAX_PLAYERS];
        g->ops->returns(g, s, r);
        return r[us] > 0 ? SCORE_WIN - 1 : r[us] < 0 ? -SCORE_WIN + 1 : 0;
    }
    int v = solve(g, s, memo);
    if (v >= SCORE_WIN_BOUND)
        v--;
    else if (v <= -SCORE_WIN_BOUND)
        v++;
    return them == us ? v : -v;
}

static int solve(const Game *g, GameState *s, Memo *memo)
{
    const uint64_t key = g->ops->hash(g, s);
    uint32_t h = (uint32_t)(key & (MEMO_SIZE - 1));
    while (memo->used[h]) {
        if (memo->key[h] == key)
            return memo->value[h];
        h = (h + 1) & (MEMO_SIZE - 1);
    }
    const int us = g->ops->to_move(g, s);
    MoveList list;
    const int n = g->ops->gen_moves(g, s, &list);
    _Alignas(16) unsigned char undo[UNDO_CAP];
    assert_true(g->undo_size <= UNDO_CAP);
    int best = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        g->ops->make(g, s, list.moves[i], undo);
        const int v = solve_child(g, s, us, memo);
        g->ops->unmake(g, s, list.moves[i], undo);
        if (v > best)
            best = v;
    }
    h = (uint32_t)(key & (MEMO_SIZE - 1));
    while (memo->used[h])
        h = (h + 1) & (MEMO_SIZE - 1);
    memo->used[h] = true;
    memo->key[h] = key;
    memo->value[h] = best;
    return best;
}

/* Alpha-beta must give the solver's value, and a move that achieves it. */
static void check_against_solver(const Game *g, Agent *a, GameState *s, Memo *memo)
{
    const int expected = solve(g, s, memo);
    const SearchResult r = think(a, s);
    StrBuf text;
    sb_init(&text);
    g->ops->format_position(g, s, &text);
    if (!r.has_score || r.score != expected)
        fail_msg("%s: %s: search says %d, solver %d", g->ops->name, sb_str(&text), r.score,
                 expected);
    assert_true(is_legal(g, s, r.best));
    _Alignas(16) unsigned char undo[UNDO_CAP];
    const int us = g->ops->to_move(g, s);
    g->ops->make(g, s, r.best, undo);
    const int achieved = solve_child(g, s, us, memo);
    g->ops->unmake(g, s, r.best, undo);
    if (achieved != expected)
        fail_msg("%s: %s: move %u gets %d, not %d", g->ops->name, sb_str(&text), (unsigned)r.best,
                 achieved, expected);
    assert_true(r.pv_len >= 1);
    assert_int_equal(r.pv[0], r.best);
    sb_free(&text);
}

/* ---------------------------------------------------------------------------------- */
/* Toy games keep the game contract                                                     */
/* ---------------------------------------------------------------------------------- */

static void check_random_games(const GameOps *ops, int players, int games)
{
    Game *g = new_game(ops, players, NULL);
    GameState *s = game_state_new(g);
    GameState *before = game_state_new(g);
    void *undo = game_undo_new(g);
    Rng rng;
    rng_seed(&rng, 42);
    MoveList list;
    ChanceList chance;
    ErrBuf err;
    for (int k = 0; k < games; k++) {
        g->ops->new_game(g, s, (uint64_t)k);
        int steps = 0;
        while (g->ops->to_move(g, s) != PLAYER_NONE) {
            assert_true(g->ops->is_ok(g, s, &err));
            const int p = g->ops->to_move(g, s);
            int n;
            const Move *moves;
            if (p == PLAYER_CHANCE) {
                n = g->ops->chance_outcomes(g, s, &chance);
                moves = chance.outcomes;
                assert_int_equal(g->ops->gen_moves(g, s, &list), 0);
            } else {
                n = g->ops->gen_moves(g, s, &list);
                moves = list.moves;
            }
            assert_true(n > 0);
            // Every move unmakes byte for byte and survives a text round trip.
            for (int i = 0; i < n; i++) {
                game_state_copy(g, before, s);
                g->ops->make(g, s, moves[i], undo);
                g->ops->unmake(g, s, moves[i], undo);
                assert_memory_equal(s, before, g->state_size);
                StrBuf t;
                sb_init(&t);
                g->ops->format_move(g, s, moves[i], &t);
                assert_int_equal(parse_move(g, s, sb_str(&t)), moves[i]);
                sb_free(&t);
            }
            StrBuf pos;
            sb_init(&pos);
            g->ops->format_position(g, s, &pos);
            GameState *back = test_position(g, sb_str(&pos));
            assert_memory_equal(back, s, g->state_size);
            free(back);
            sb_free(&pos);
            g->ops->make(g, s, moves[rng_below(&rng, (uint32_t)n)], undo);
            assert_true(++steps <= g->max_game_length);
        }
        double r[MAX_PLAYERS], sum = 0;
        g->ops->returns(g, s, r);
        for (int i = 0; i < g->players; i++)
            sum += r[i];
        assert_true(sum > -1e-9 && sum < 1e-9);
    }
    free(undo);
    free(before);
    free(s);
    game_destroy(g);
}

static void test_toy_games_keep_the_contract(void **state)
{
    (void)state;
    check_random_games(&toy_nim_ops, 2, 20);
    check_random_games(&toy_twostep_ops, 2, 20);
    check_random_games(&toy_tictactoe_ops, 2, 30);
    check_random_games(&toy_race_ops, 3, 20);
    check_random_games(&toy_hidden_race_ops, 4, 20);
}

/* ---------------------------------------------------------------------------------- */
/* Agent specs, refusals, errors                                                        */
/* ---------------------------------------------------------------------------------- */

static void test_spec_parse(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        AgentKind kind;
        int level;
    } good[] = {
        {"ai", AGENT_AI, 5},
        {"ai:7", AGENT_AI, 7},
        {"ab", AGENT_ALPHABETA, 5},
        {"ab:3", AGENT_ALPHABETA, 3},
        {"alphabeta", AGENT_ALPHABETA, 5},
        {"alphabeta:10", AGENT_ALPHABETA, 10},
        {"mcts", AGENT_MCTS, 5},
        {"mcts:4", AGENT_MCTS, 4},
        {"uct", AGENT_MCTS, 5},
        {"uct:1", AGENT_MCTS, 1},
        {"random", AGENT_RANDOM, 5},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        AgentSpec spec;
        ErrBuf err;
        assert_int_equal(agent_spec_parse(good[i].text, &spec, &err), STATUS_OK);
        assert_int_equal(spec.kind, good[i].kind);
        assert_int_equal(spec.level, good[i].level);
        assert_int_equal(spec.limits.depth, 0);
        assert_int_equal(spec.limits.nodes, 0);
        assert_int_equal(spec.limits.movetime_ms, 0);
    }
    static const char *const bad[] = {"",      "AI",     "Ai:3",  "ai:",    "ai:0",  "ai:11",
                                      "ai:5x", "ai:-1",  "ai: 3", "ai:007", "foo",   "random:3",
                                      "mcts:", "ab:3:4", "uct ",  " ab",    "alpha", "ai:100"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        AgentSpec spec;
        agent_spec_default(&spec);
        spec.level = 9;
        ErrBuf err;
        err_clear(&err);
        if (agent_spec_parse(bad[i], &spec, &err) != STATUS_PARSE)
            fail_msg("'%s' was accepted", bad[i]);
        assert_int_equal(spec.level, 9); // unchanged on error
        assert_non_null(strstr(err.msg, "ai"));
        assert_non_null(strstr(err.msg, "10"));
    }
    ErrBuf err;
    AgentSpec spec;
    assert_int_equal(agent_spec_parse(NULL, &spec, &err), STATUS_PARSE);
    assert_string_equal(agent_kind_name(AGENT_AI), "ai");
    assert_string_equal(agent_kind_name(AGENT_ALPHABETA), "alphabeta");
    assert_string_equal(agent_kind_name(AGENT_MCTS), "mcts");
    assert_string_equal(agent_kind_name(AGENT_RANDOM), "random");
}

/* agent_new must refuse alpha-beta with `ops` and say `why`. */
static void expect_refusal(const GameOps *ops, int players, const char *why)
{
    Game *g = new_game(ops, players, NULL);
    AgentSpec spec;
    agent_spec_default(&spec);
    spec.kind = AGENT_ALPHABETA;
    Agent *a = NULL;
    ErrBuf err;
    err_clear(&err);
    assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_UNSUPPORTED);
    assert_null(a);
    if (strstr(err.msg, why) == NULL)
        fail_msg("%s: message '%s' does not mention '%s'", ops->name, err.msg, why);
    // "ai" picks MCTS instead.
    spec.kind = AGENT_AI;
    assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_OK);
    assert_int_equal(agent_kind(a), AGENT_MCTS);
    agent_free(a);
    game_destroy(g);
}

static void test_agent_new_refuses_alphabeta(void **state)
{
    (void)state;
    expect_refusal(&toy_race_ops, 3, "two-player");
    expect_refusal(&toy_race_ops, 2, "chance");
    expect_refusal(&toy_hidden_race_ops, 2, "perfect information");
    GameOps no_eval = toy_tictactoe_ops;
    no_eval.evaluate = NULL;
    expect_refusal(&no_eval, 2, "evaluation");
    GameOps not_zero_sum = toy_tictactoe_ops;
    not_zero_sum.flags = GAME_PERFECT_INFO;
    expect_refusal(&not_zero_sum, 2, "zero-sum");

    // Where it applies, "ai" is alpha-beta; levels outside 1..10 are refused.
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    Agent *a = new_agent(g, AGENT_AI, 5, 0, 0, 0, 0);
    assert_int_equal(agent_kind(a), AGENT_ALPHABETA);
    agent_free(a);
    AgentSpec spec;
    agent_spec_default(&spec);
    ErrBuf err;
    for (int level = -1; level <= 11; level += 12) {
        spec.level = level;
        assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_UNSUPPORTED);
        assert_null(a);
        assert_non_null(strstr(err.msg, "level"));
    }
    game_destroy(g);
}

static void test_think_refuses_finished_games_and_chance(void **state)
{
    (void)state;
    static const AgentKind kinds[] = {AGENT_AI, AGENT_ALPHABETA, AGENT_MCTS, AGENT_RANDOM};
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *won = test_position(g, "xxxoo.... o");
    GameState *full = test_position(g, "xoxxoxoxo o");
    for (int k = 0; k < 4; k++) {
        Agent *a = new_agent(g, kinds[k], 3, 0, 0, 0, 0);
        SearchResult r;
        ErrBuf err;
        err_clear(&err);
        assert_int_equal(agent_think(a, won, &r, &err), STATUS_ILLEGAL);
        assert_non_null(strstr(err.msg, "over"));
        assert_int_equal(agent_think(a, full, &r, &err), STATUS_ILLEGAL);
        agent_free(a);
    }
    free(won);
    free(full);
    game_destroy(g);

    g = new_game(&toy_race_ops, 3, NULL);
    GameState *pending = test_position(g, "1,2,3 0*");
    Agent *a = new_agent(g, AGENT_MCTS, 1, 0, 0, 0, 0);
    SearchResult r;
    ErrBuf err;
    assert_int_equal(agent_think(a, pending, &r, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "chance"));
    agent_free(a);
    free(pending);
    game_destroy(g);
}

static void test_format_score(void **state)
{
    (void)state;
    SearchResult r;
    memset(&r, 0, sizeof r);
    r.has_score = true;
    r.score = 35;
    assert_score_text(&r, "cp 35");
    r.score = -120;
    assert_score_text(&r, "cp -120");
    r.score = SCORE_WIN - 3;
    assert_score_text(&r, "win in 3");
    r.score = -SCORE_WIN + 4;
    assert_score_text(&r, "loss in 4");
    r.has_score = false;
    r.value = 0.4123;
    assert_score_text(&r, "value 0.412");
}

static void test_levels_and_overrides(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    Agent *a = new_agent(g, AGENT_ALPHABETA, 1, 0, 0, 0, 0);
    SearchLimits l = agent_limits(a);
    assert_int_equal(l.depth, 1);
    assert_int_equal(l.movetime_ms, 100);
    assert_int_equal(l.nodes, 300);
    agent_free(a);

    a = new_agent(g, AGENT_ALPHABETA, 10, 0, 0, 0, 0);
    l = agent_limits(a);
    assert_int_equal(l.depth, 0);
    assert_int_equal(l.movetime_ms, 5000);
    StrBuf sb;
    sb_init(&sb);
    agent_describe(a, &sb);
    assert_string_equal(sb_str(&sb), "alphabeta level 10 (5000 ms)");
    agent_free(a);

    a = new_agent(g, AGENT_ALPHABETA, 5, 3, 1000, SEARCH_UNLIMITED, 0);
    l = agent_limits(a);
    assert_int_equal(l.depth, 3);
    assert_int_equal(l.nodes, 1000);
    assert_int_equal(l.movetime_ms, 0);
    sb_clear(&sb);
    agent_describe(a, &sb);
    assert_string_equal(sb_str(&sb), "alphabeta level 5 (depth 3, 1000 nodes)");
    agent_free(a);

    a = new_agent(g, AGENT_MCTS, 10, 0, 0, 0, 0);
    l = agent_limits(a);
    assert_int_equal(l.nodes, 200000);
    assert_int_equal(l.movetime_ms, 5000);
    agent_free(a);

    a = new_agent(g, AGENT_MCTS, 0, 0, UINT64_MAX, 250, 0); // level 0 = default 5
    l = agent_limits(a);
    assert_int_equal(l.nodes, 0);
    assert_int_equal(l.movetime_ms, 250);
    sb_clear(&sb);
    agent_describe(a, &sb);
    assert_string_equal(sb_str(&sb), "mcts level 5 (250 ms)");
    agent_free(a);
    sb_free(&sb);
    game_destroy(g);
}

/* A level's table fits its node cap (a level-1 move cleared 16 MiB before it searched
 * 300 nodes), grows when a later cap needs more, and leaves what agent_set_memory chose
 * alone. Fitted or not, it holds a capped search at half load: the same search results
 * as the default 16 MiB table, position for position. */
static void test_table_fits_node_cap(void **state)
{
    (void)state;
    Game *g = new_game(registry_find("kings-castle"), 2, NULL);
    Agent *a = new_agent(g, AGENT_ALPHABETA, 1, 0, 0, 0, 0);
    assert_int_equal(agent_table_bytes(a), 64 << 10);
    SearchLimits more = {.nodes = 100000};
    agent_set_limits(a, &more);
    assert_int_equal(agent_table_bytes(a), 4 << 20); // 100,000 nodes: 3.2 MB at 32 bytes
    SearchLimits none = {.nodes = UINT64_MAX};
    agent_set_limits(a, &none);
    assert_int_equal(agent_table_bytes(a), ALPHABETA_DEFAULT_TT_BYTES);
    agent_free(a);

    a = new_agent(g, AGENT_ALPHABETA, 10, 0, 0, 0, 0);
    assert_int_equal(agent_table_bytes(a), ALPHABETA_DEFAULT_TT_BYTES);
    agent_free(a);

    ErrBuf err;
    a = new_agent(g, AGENT_ALPHABETA, 3, 0, 0, 0, 0);
    assert_int_equal(agent_set_memory(a, 1 << 20, &err), STATUS_OK);
    agent_set_limits(a, &none);
    assert_int_equal(agent_table_bytes(a), 1 << 20);
    agent_free(a);
    Agent *mcts = new_agent(g, AGENT_MCTS, 1, 0, 0, 0, 0);
    assert_int_equal(agent_table_bytes(mcts), 0);
    agent_free(mcts);

    // Each level whose table is fitted below the default (1-8; level 9's 300,000 nodes
    // round up to 16 MiB), from a few plies into a seeded game, with its fitted table
    // and with the default one: the same move, score and node count.
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, 7);
    void *undo = game_undo_new(g);
    MoveList list;
    for (int level = 1; level <= 8; level++) {
        Agent *fitted = new_agent(g, AGENT_ALPHABETA, level, 0, 0, SEARCH_UNLIMITED, 3);
        Agent *full = new_agent(g, AGENT_ALPHABETA, level, 0, 0, SEARCH_UNLIMITED, 3);
        assert_int_equal(agent_set_memory(full, 0, &err), STATUS_OK);
        assert_true(agent_table_bytes(fitted) <= agent_table_bytes(full));
        const SearchResult rf = think(fitted, s), rd = think(full, s);
        assert_int_equal(rf.best, rd.best);
        assert_int_equal(rf.score, rd.score);
        assert_int_equal(rf.nodes, rd.nodes);
        agent_free(fitted);
        agent_free(full);
        const int n = g->ops->gen_moves(g, s, &list);
        g->ops->make(g, s, list.moves[(level * 7) % n], undo);
    }
    free(undo);
    free(s);
    game_destroy(g);
}

/* Levels are amounts of search, not of time: below 10 the depth and node caps grow with
 * the level whatever the move time, level 10 has none, and a capped, noisy level still
 * plays the same move from the same seed. */
static void test_levels_scale(void **state)
{
    (void)state;
    Game *g = new_game(registry_find("kings-valley"), 2, NULL);
    GameState *s = test_position(g, NULL);
    SearchLimits prev = {0};
    for (int level = AGENT_LEVEL_MIN; level <= AGENT_LEVEL_MAX; level++) {
        Agent *a = new_agent(g, AGENT_AI, level, 0, 0, 200, 0);
        const SearchLimits l = agent_limits(a);
        assert_int_equal(l.movetime_ms, 200); // the same time for every level
        if (level == AGENT_LEVEL_MAX) {
            assert_int_equal(l.depth, 0);
            assert_int_equal(l.nodes, 0);
        } else {
            assert_true(l.depth > prev.depth && l.nodes > prev.nodes);
        }
        prev = l;
        agent_free(a);
    }

    // Level 3 keeps to its node cap without a clock, and its seed decides its move.
    Agent *a = new_agent(g, AGENT_AI, 3, 0, 0, SEARCH_UNLIMITED, 9);
    Agent *b = new_agent(g, AGENT_AI, 3, 0, 0, SEARCH_UNLIMITED, 9);
    const uint64_t cap = agent_limits(a).nodes;
    const int depth = agent_limits(a).depth;
    const SearchResult r1 = think(a, s);
    const SearchResult r2 = think(b, s);
    assert_same_result(&r1, &r2);
    assert_true(r1.nodes <= cap + 1);
    agent_free(a);
    agent_free(b);
    assert_true(r1.depth <= depth);
    // The full engine, given four times the nodes, sees deeper.
    a = new_agent(g, AGENT_AI, 10, 0, 4 * cap, SEARCH_UNLIMITED, 9);
    const SearchResult r3 = think(a, s);
    assert_true(r3.depth > r1.depth);
    agent_free(a);
    free(s);
    game_destroy(g);
}

/* ---------------------------------------------------------------------------------- */
/* Alpha-beta                                                                           */
/* ---------------------------------------------------------------------------------- */

static void test_alphabeta_nim_mate_scores(void **state)
{
    (void)state;
    static const struct {
        const char *pos;
        const char *score;
        Move best; /* MOVE_NONE: any */
    } cases[] = {
        {"1 0", "win in 1", 1},  {"3 1", "win in 1", 3},   {"5 0", "win in 3", 1},
        {"4 0", "loss in 2", 0}, {"8 1", "loss in 4", 0},  {"21 0", "win in 11", 1},
        {"7 0", "win in 3", 3},  {"12 0", "loss in 6", 0},
    };
    Game *g = new_game(&toy_nim_ops, 2, NULL);
    Agent *a = solver_agent(g);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GameState *s = test_position(g, cases[i].pos);
        const SearchResult r = think(a, s);
        assert_true(is_legal(g, s, r.best));
        assert_true(r.has_score);
        assert_score_text(&r, cases[i].score);
        if (cases[i].best != MOVE_NONE)
            assert_int_equal(r.best, cases[i].best);
        // The PV is a line of legal moves that ends the game at the announced distance.
        if (r.score >= SCORE_WIN_BOUND)
            assert_int_equal(r.pv_len, SCORE_WIN - r.score);
        void *undo = game_undo_new(g);
        GameState *t = game_state_clone(g, s);
        for (int k = 0; k < r.pv_len; k++) {
            assert_true(is_legal(g, t, r.pv[k]));
            g->ops->make(g, t, r.pv[k], undo);
        }
        if (r.score >= SCORE_WIN_BOUND)
            assert_true(game_is_over(g, t));
        free(t);
        free(undo);
        free(s);
    }
    agent_free(a);
    game_destroy(g);
}

/* Two actions per turn: a search that negated at every action would get these wrong. */
static void test_alphabeta_multi_action_turns(void **state)
{
    (void)state;
    Game *g = new_game(&toy_twostep_ops, 2, "stones=20");
    Agent *a = solver_agent(g);
    Memo *memo = calloc(1, sizeof *memo);
    assert_non_null(memo);

    GameState *s = test_position(g, "7 0 2");
    SearchResult r = think(a, s);
    assert_int_equal(r.best, 1); // 7 -> 6 -> 5; taking 2 first loses
    assert_score_text(&r, "win in 6");
    assert_true(r.pv_len >= 2);
    assert_int_equal(r.pv[1], 1);
    free(s);

    s = test_position(g, "11 1 2");
    r = think(a, s);
    assert_true(r.score <= -SCORE_WIN_BOUND); // 11 % 6 == 5: lost
    free(s);

    char text[32];
    for (int heap = 1; heap <= 20; heap++) {
        for (int left = 1; left <= 2; left++) {
            snprintf(text, sizeof text, "%d %d %d", heap, heap % 2, left);
            s = test_position(g, text);
            check_against_solver(g, a, s, memo);
            if (left == 2 && heap >= 5) {
                const bool lost = heap % 6 == 5 || heap % 6 == 0;
                assert_int_equal(think(a, s).score < 0, lost);
            }
            free(s);
        }
    }
    free(memo);
    agent_free(a);
    game_destroy(g);
}

static void test_alphabeta_tictactoe_matches_solver(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    Agent *a = solver_agent(g);
    Memo *memo = calloc(1, sizeof *memo);
    assert_non_null(memo);
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    Rng rng;
    rng_seed(&rng, 2024);
    MoveList list;
    int checked = 0;
    for (int k = 0; k < 60; k++) {
        g->ops->new_game(g, s, 0);
        const int plies = 2 + (int)rng_below(&rng, 5);
        for (int i = 0; i < plies && !game_is_over(g, s); i++) {
            const int n = g->ops->gen_moves(g, s, &list);
            g->ops->make(g, s, list.moves[rng_below(&rng, (uint32_t)n)], undo);
        }
        if (game_is_over(g, s))
            continue;
        if (k % 2 == 0)
            agent_new_game(a); // with and without what earlier searches left in the TT
        check_against_solver(g, a, s, memo);
        checked++;
    }
    assert_true(checked > 40);
    free(undo);
    free(s);
    free(memo);
    agent_free(a);
    game_destroy(g);
}

/* Tic-tac-toe with a made-up legality rule, tested lazily: a cell is legal when a hash of
 * the position and the cell says so (about half of them), and when no cell is, all are
 * (a fallback, as King's Valley 7x7 has). The plain version filters in gen_moves. */
static bool toy_lazy_ok(const Game *g, const GameState *s, Move m)
{
    uint64_t h = (g->ops->hash(g, s) ^ (uint64_t)m) * 0x9E3779B97F4A7C15ULL;
    return (h >> 61) & 1;
}

static int toy_lazy_gen(const Game *g, const GameState *s, MoveList *out)
{
    toy_tictactoe_ops.gen_moves(g, s, out);
    MoveList kept;
    kept.count = 0;
    for (int i = 0; i < out->count; i++)
        if (toy_lazy_ok(g, s, out->moves[i]))
            kept.moves[kept.count++] = out->moves[i];
    if (kept.count > 0)
        *out = kept;
    return out->count;
}

static bool toy_lazy_legal(const Game *g, const GameState *s, Move m, void *memo)
{
    (void)memo;
    return toy_lazy_ok(g, s, m);
}

/* Alpha-beta over the lazy hooks finds the value it finds over the filtered lists, and a
 * legal move, falling back where no candidate passes; from positions of random games, at
 * several depths. */
static void test_alphabeta_lazy_legality(void **state)
{
    (void)state;
    GameOps plain_ops = toy_tictactoe_ops;
    plain_ops.gen_moves = toy_lazy_gen;
    GameOps lazy_ops = plain_ops;
    lazy_ops.gen_candidates = toy_tictactoe_ops.gen_moves;
    lazy_ops.candidate_legal = toy_lazy_legal;
    Game *plain = new_game(&plain_ops, 2, NULL);
    Game *lazy = new_game(&lazy_ops, 2, NULL);
    GameState *s = game_state_new(plain);
    void *undo = game_undo_new(plain);
    Rng rng;
    rng_seed(&rng, 77);
    MoveList list, cand;
    int searched = 0, fallbacks = 0;
    for (int k = 0; k < 60; k++) {
        plain->ops->new_game(plain, s, 0);
        const int plies = (int)rng_below(&rng, 8);
        for (int i = 0; i < plies && !game_is_over(plain, s); i++) {
            const int n = plain->ops->gen_moves(plain, s, &list);
            plain->ops->make(plain, s, list.moves[rng_below(&rng, (uint32_t)n)], undo);
        }
        if (game_is_over(plain, s))
            continue;
        // Positions where no candidate passes, so that the fallback is exercised: every
        // search from the root below meets some (a node with one to three empty cells has
        // them often); count those at the root.
        toy_tictactoe_ops.gen_moves(plain, s, &cand);
        int passing = 0;
        for (int i = 0; i < cand.count; i++)
            passing += toy_lazy_ok(plain, s, cand.moves[i]);
        fallbacks += passing == 0;
        search_pair_expect_same(plain, lazy, s, 2 + k % 6, 0);
        searched++;
    }
    print_message("lazy legality: %d searches, %d from a root where no candidate passes\n",
                  searched, fallbacks);
    assert_true(searched > 25 && fallbacks > 0);
    free(undo);
    free(s);
    game_destroy(lazy);
    game_destroy(plain);
}

static void test_alphabeta_tictactoe_tactics(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    Agent *a = solver_agent(g);

    GameState *s = test_position(g, "xx.oo.... x"); // x wins at 3
    SearchResult r = think(a, s);
    assert_int_equal(r.best, 3);
    assert_score_text(&r, "win in 1");
    free(s);

    s = test_position(g, "xx..o.... o"); // o must block at 3, then it is a draw
    r = think(a, s);
    assert_int_equal(r.best, 3);
    free(s);

    s = test_position(g, "x...o...x o"); // o must not take a corner
    r = think(a, s);
    assert_true(r.best == 2 || r.best == 4 || r.best == 6 || r.best == 8);
    assert_score_text(&r, "cp 0");
    free(s);

    s = test_position(g, NULL);
    r = think(a, s);
    assert_score_text(&r, "cp 0");
    assert_int_equal(r.depth, 9);
    free(s);
    agent_free(a);

    // Even level 1 (depth 1, noisy evaluation) takes a win in one.
    s = test_position(g, "oo.xx.... x");
    for (uint64_t seed = 0; seed < 5; seed++) {
        a = new_agent(g, AGENT_ALPHABETA, 1, 0, 0, SEARCH_UNLIMITED, seed);
        r = think(a, s);
        assert_int_equal(r.best, 6);
        assert_int_equal(r.depth, 1);
        agent_free(a);
    }
    free(s);
    game_destroy(g);
}

static void test_alphabeta_is_deterministic(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *start = test_position(g, NULL);
    GameState *other = test_position(g, "x...o.... x");
    for (int level = 1; level <= 10; level += 3) {
        Agent *a = new_agent(g, AGENT_ALPHABETA, level, 5, 0, SEARCH_UNLIMITED, 77);
        Agent *b = new_agent(g, AGENT_ALPHABETA, level, 5, 0, SEARCH_UNLIMITED, 77);
        const SearchResult r1 = think(a, start);
        const SearchResult r2 = think(b, start);
        assert_same_result(&r1, &r2);
        assert_true(r1.nodes > 0);
        // Learning from other searches changes nothing once forgotten.
        (void)think(a, other);
        (void)think(a, start);
        agent_new_game(a);
        const SearchResult r3 = think(a, start);
        assert_same_result(&r1, &r3);
        agent_free(a);
        agent_free(b);
    }
    free(start);
    free(other);
    game_destroy(g);
}

/* Variety: among equal root moves the seed chooses, the same seed always the same, and
 * never a move of another value; /novariety always the first. */
static void test_alphabeta_variety(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *empty = test_position(g, NULL);         // every first move draws
    GameState *corner = test_position(g, "x...o...x o"); // 2, 4, 6 and 8 draw; corners lose
    GameState *win = test_position(g, "xx.oo.... x");   // 3 wins at once, others later or not
    int seen_empty[10] = {0}, seen_corner[10] = {0};
    for (uint64_t seed = 0; seed < 24; seed++) {
        Agent *a = new_agent(g, AGENT_ALPHABETA, 10, SEARCH_UNLIMITED, 0, SEARCH_UNLIMITED, seed);
        Agent *b = new_agent(g, AGENT_ALPHABETA, 10, SEARCH_UNLIMITED, 0, SEARCH_UNLIMITED, seed);
        const SearchResult r = think(a, empty);
        const SearchResult again = think(b, empty);
        assert_int_equal(r.best, again.best);
        assert_score_text(&r, "cp 0");
        seen_empty[r.best]++;
        const SearchResult c = think(a, corner);
        assert_true(c.best == 2 || c.best == 4 || c.best == 6 || c.best == 8);
        assert_score_text(&c, "cp 0");
        seen_corner[c.best]++;
        const SearchResult w = think(a, win);
        assert_int_equal(w.best, 3);
        agent_free(a);
        agent_free(b);
    }
    int distinct_empty = 0, distinct_corner = 0;
    for (int m = 1; m <= 9; m++) {
        distinct_empty += seen_empty[m] > 0;
        distinct_corner += seen_corner[m] > 0;
    }
    assert_true(distinct_empty >= 5);
    assert_true(distinct_corner >= 3);

    // Without variety every seed plays the same move, also at a fixed depth.
    AgentSpec spec;
    ErrBuf err;
    assert_int_equal(agent_spec_parse("ab:10/novariety", &spec, &err), STATUS_OK);
    assert_true(spec.no_variety);
    Move first = MOVE_NONE;
    for (uint64_t seed = 0; seed < 6; seed++) {
        spec.seed = seed;
        spec.limits.depth = 4;
        Agent *a = NULL;
        assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_OK);
        const SearchResult r = think(a, empty);
        if (seed == 0)
            first = r.best;
        assert_int_equal(r.best, first);
        agent_free(a);
    }
    free(empty);
    free(corner);
    free(win);
    game_destroy(g);
}

static void test_alphabeta_node_limit(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *s = test_position(g, NULL);
    static const uint64_t limits[] = {1, 2, 5, 10, 100, 1000};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        Agent *a =
            new_agent(g, AGENT_ALPHABETA, 10, SEARCH_UNLIMITED, limits[i], SEARCH_UNLIMITED, 0);
        const SearchResult r = think(a, s);
        assert_true(r.nodes <= limits[i]);
        assert_true(r.nodes >= limits[i] - 1);
        assert_true(is_legal(g, s, r.best));
        assert_true(r.pv_len >= 1 && r.pv[0] == r.best);
        // And again, from a TT that knows the position.
        const SearchResult r2 = think(a, s);
        assert_true(r2.nodes <= limits[i]);
        assert_true(is_legal(g, s, r2.best));
        agent_free(a);
    }
    free(s);
    game_destroy(g);
}

/* One depth-1 search of `text` in g, without noise or variety, with or without
 * quiescence. */
static SearchResult search_depth1(const Game *g, const char *text, uint64_t nodes,
                                  bool quiescence)
{
    AlphaBeta *ab = NULL;
    ErrBuf err;
    const AlphaBetaConfig cfg = {.tt_bytes = 1u << 20, .no_quiescence = !quiescence};
    if (alphabeta_new(g, &cfg, &ab, &err) != STATUS_OK)
        fail_msg("alphabeta_new: %s", err.msg);
    GameState *s = test_position(g, text);
    SearchResult r;
    alphabeta_search(ab, s, &(SearchLimits){.depth = 1, .nodes = nodes}, NULL, &r);
    free(s);
    alphabeta_free(ab);
    return r;
}

/* A depth-1 search with quiescence of `before` plays `capture` and scores it exactly as
 * the static value of `after`, where the other side, to move, has nothing to take.
 * Returns that score. */
static int assert_capture_scored(const Game *g, const char *before, const char *capture,
                                 const char *after)
{
    GameState *s = test_position(g, before);
    GameState *a = test_position(g, after);
    const SearchResult r = search_depth1(g, before, 0, true);
    assert_int_equal(r.best, parse_move(g, s, capture));
    assert_int_equal(r.score, -g->ops->evaluate_static(g, a));
    free(s);
    free(a);
    return r.score;
}

/* Quiescence on King Down, whose evaluate resolves captures by itself: here it evaluates
 * with its static part only, so that only the search tells a pawn defended by a pawn
 * from a free one. */
static void test_alphabeta_quiescence(void **state)
{
    (void)state;
    GameOps ops = *registry_find("king-down");
    ops.evaluate = ops.evaluate_static;
    Game *g = new_game(&ops, 2, NULL);

    // White's queen may take d5, which e6 defends: a pawn for the queen.
    static const char hanging[] = "r3k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1";
    GameState *s = test_position(g, hanging);
    const Move qxd5 = parse_move(g, s, "d1d5");
    free(s);
    assert_int_equal(search_depth1(g, hanging, 0, false).best, qxd5);
    const SearchResult rq = search_depth1(g, hanging, 0, true);
    assert_int_not_equal(rq.best, qxd5);
    assert_true(rq.score > -100);

    // After the capture, black's recapture is worth the static value of the position it
    // leaves, for white to move with nothing to take: the sequence is scored exactly.
    assert_true(assert_capture_scored(g, "r3k3/8/4p3/3Q4/8/8/8/4K3 b - - 0 1", "e6d5",
                                      "r3k3/8/8/3p4/8/8/8/4K3 w - - 0 2") > 500);

    // Quiescence nodes count against the node limit.
    for (uint64_t limit = 2; limit <= 64; limit *= 2)
        assert_true(search_depth1(g, hanging, limit, true).nodes <= limit);
    game_destroy(g);
}

/* Quiescence on King's Castle, whose evaluation is static throughout: a single that
 * walks into a phalanx's line looks best at depth 1 (it links up with a friend), until
 * the search plays out the capture behind the horizon. */
static void test_alphabeta_quiescence_kings_castle(void **state)
{
    (void)state;
    const GameOps *ops = registry_find("kings-castle");
    Game *g = new_game(ops, 2, NULL);

    // White's d1 may go to h5, beside i5, where Black's h3-h4 phalanx takes it.
    static const char walks_in[] = "6/7/8/1W7/10/11/8W1/3B3B1/7B/7/3W1W w 10";
    GameState *s = test_position(g, walks_in);
    const Move d1h5 = parse_move(g, s, "d1-h5");
    free(s);
    assert_int_equal(search_depth1(g, walks_in, 0, false).best, d1h5);
    assert_int_not_equal(search_depth1(g, walks_in, 0, true).best, d1h5);

    // After it, the capture is scored as the static value of what it leaves, White to
    // move with nothing to take.
    assert_capture_scored(g, "6/7/8/1W7/10/11/7WW1/3B3B1/7B/7/5W b 11", "h3:h4xh5",
                          "6/7/8/1W7/10/11/7BW1/3B3B1/8/7/5W w 12");

    // With Black on the Throne, the capture that unseats him is the most urgent noisy
    // move.
    s = test_position(g, "6/7/8/9/5B1WW1/5B5/4B5/9/8/7/6 w 5");
    const Move unseat = parse_move(g, s, "j7:i7xg7");
    MoveList list;
    const int n = ops->gen_moves(g, s, &list);
    for (int i = 0; i < n; i++)
        if (list.moves[i] != unseat)
            assert_true(ops->noisy(g, s, list.moves[i]) < ops->noisy(g, s, unseat));
    free(s);
    game_destroy(g);
}

/* Quiescence on King's Guard, where a turn is several actions: a guard that takes a
 * stack the enemy takes straight back has won nothing, which only the search beyond
 * the horizon sees, through the pick-up that can take (noisy) and the end of the
 * taker's turn (quiesce_finish: no standing pat in a turn a taking is part of). */
static void test_alphabeta_quiescence_kings_guard(void **state)
{
    (void)state;
    const GameOps *ops = registry_find("kings-guard-8x8");
    Game *g = new_game(ops, 2, NULL);

    // The first player's d4 may take d5, which the stack of two on d7 takes back.
    static const char takes[] = "7k/3(gg)4/8/3g4/3G4/8/8/K7 1 10 d4:0";
    GameState *s = test_position(g, takes);
    const Move d4d5 = parse_move(g, s, "d4-d5");
    free(s);
    assert_int_equal(search_depth1(g, takes, 0, false).best, d4d5);
    assert_int_not_equal(search_depth1(g, takes, 0, true).best, d4d5);

    // After it, the pick-up of d7 is scored as the static value of the position the
    // retaking turn leaves, the first player to move with nothing to take.
    assert_capture_scored(g, "7k/3(gg)4/8/3(gG)4/8/8/8/K7 2 10", "d7",
                          "7k/3g4/8/3(gGg)4/8/8/8/K7 1 11");

    // A pick-up is noisy when its top piece can take; the turn's end closes quiescence
    // once a piece is placed, and not before.
    s = test_position(g, "7k/3(gg)4/8/3(gG)4/8/8/8/K7 2 10");
    assert_true(ops->noisy(g, s, parse_move(g, s, "d7")) > 0);
    assert_int_equal(ops->noisy(g, s, parse_move(g, s, "h8")), 0);
    assert_int_equal(ops->quiesce_finish(g, s), MOVE_NONE);
    free(s);
    s = test_position(g, takes);
    assert_int_equal(ops->quiesce_finish(g, s), MOVE_NONE);
    free(s);
    s = test_position(g, "7k/8/3G4/8/3(Gg)4/8/8/K7 1 12 d4:1");
    assert_int_equal(ops->quiesce_finish(g, s), parse_move(g, s, "end"));
    free(s);
    game_destroy(g);
}

static void test_alphabeta_stop_and_time(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *s = test_position(g, "xx.oo.... x");
    GameState *copy = game_state_clone(g, s);
    AlphaBeta *ab;
    ErrBuf err;
    assert_int_equal(alphabeta_new(g, NULL, &ab, &err), STATUS_OK);

    // A stop requested before the search still leaves depth 1, which finds the win.
    atomic_bool stop;
    atomic_init(&stop, true);
    SearchLimits limits = {0};
    SearchResult r;
    alphabeta_search(ab, s, &limits, &stop, &r);
    assert_int_equal(r.depth, 1);
    assert_int_equal(r.best, 3);
    assert_score_text(&r, "win in 1");

    // A tiny time budget still gives a legal move, soon.
    atomic_store(&stop, false);
    limits.movetime_ms = 1;
    alphabeta_search(ab, s, &limits, &stop, &r);
    assert_true(is_legal(g, s, r.best));
    assert_true(r.depth >= 1);
    assert_true(r.time_ms < 1000);
    assert_memory_equal(s, copy, g->state_size); // s untouched

    // A smaller TT gives the same answers.
    assert_int_equal(alphabeta_resize_tt(ab, 64 * 1024, &err), STATUS_OK);
    limits.movetime_ms = 0;
    alphabeta_search(ab, s, &limits, NULL, &r);
    assert_int_equal(r.best, 3);
    alphabeta_free(ab);
    free(copy);
    free(s);
    game_destroy(g);
}

/* ---------------------------------------------------------------------------------- */
/* Transposition table                                                                  */
/* ---------------------------------------------------------------------------------- */

static void test_tt(void **state)
{
    (void)state;
    TTable tt;
    ErrBuf err;
    assert_int_equal(tt_init(&tt, 4096, NULL, &err), STATUS_OK);
    assert_int_equal(tt_bytes(&tt), 4096);
    TTHit hit;
    assert_false(tt_probe(&tt, 0x1234, 0, &hit));

    // A win stored 3 plies from the root is a win 2 plies from that node...
    tt_store(&tt, 0xABCDEF0100000001ULL, 3, 7, SCORE_WIN - 5, 4, TT_BOUND_EXACT);
    assert_true(tt_probe(&tt, 0xABCDEF0100000001ULL, 3, &hit));
    assert_int_equal(hit.move, 7);
    assert_int_equal(hit.score, SCORE_WIN - 5);
    assert_int_equal(hit.depth, 4);
    assert_int_equal(hit.bound, TT_BOUND_EXACT);
    // ... so reached at ply 1 it is a win in 3.
    assert_true(tt_probe(&tt, 0xABCDEF0100000001ULL, 1, &hit));
    assert_int_equal(hit.score, SCORE_WIN - 3);
    // Same bucket, other key: not found.
    assert_false(tt_probe(&tt, 0x1111111100000001ULL, 0, &hit));

    // A shallow bound does not overwrite a much deeper entry of the same search, but
    // keeps the move; a move-less store keeps the old move.
    tt_store(&tt, 0xABCDEF0100000001ULL, 0, 9, 50, 1, TT_BOUND_LOWER);
    assert_true(tt_probe(&tt, 0xABCDEF0100000001ULL, 0, &hit));
    assert_int_equal(hit.depth, 4);
    assert_int_equal(hit.move, 9);
    tt_store(&tt, 0xABCDEF0100000001ULL, 0, MOVE_NONE, -20, 6, TT_BOUND_UPPER);
    assert_true(tt_probe(&tt, 0xABCDEF0100000001ULL, 0, &hit));
    assert_int_equal(hit.depth, 6);
    assert_int_equal(hit.move, 9);
    assert_int_equal(hit.score, -20);

    // A full bucket replaces its shallowest entry.
    const uint64_t mask = tt.mask;
    for (uint64_t i = 0; i < TT_BUCKET_ENTRIES; i++)
        tt_store(&tt, (i + 2) << 32 | 5, 0, 1, 0, (int)(10 + i), TT_BOUND_EXACT);
    tt_store(&tt, (uint64_t)99 << 32 | 5, 0, 1, 0, 3, TT_BOUND_EXACT);
    assert_true(tt_probe(&tt, (uint64_t)99 << 32 | 5, 0, &hit));
    assert_false(tt_probe(&tt, (uint64_t)2 << 32 | 5, 0, &hit));
    assert_true(tt_probe(&tt, (uint64_t)5 << 32 | 5, 0, &hit));
    assert_true(mask + 1 == 4096 / sizeof(TTBucket));

    // Entries of old searches go first.
    tt_new_search(&tt);
    tt_store(&tt, (uint64_t)100 << 32 | 5, 0, 1, 0, 2, TT_BOUND_EXACT);
    assert_true(tt_probe(&tt, (uint64_t)100 << 32 | 5, 0, &hit));
    assert_false(tt_probe(&tt, (uint64_t)99 << 32 | 5, 0, &hit));

    tt_clear(&tt);
    assert_false(tt_probe(&tt, 0xABCDEF0100000001ULL, 0, &hit));
    tt_free(&tt);
    tt_free(&tt);
    assert_int_equal(tt_bytes(&tt), 0);
}

/* ---------------------------------------------------------------------------------- */
/* MCTS                                                                                 */
/* ---------------------------------------------------------------------------------- */

static void test_mcts_is_deterministic(void **state)
{
    (void)state;
    static const struct {
        const GameOps *ops;
        int players;
        const char *pos;
    } cases[] = {
        {&toy_tictactoe_ops, 2, NULL},
        {&toy_nim_ops, 2, "13 0"},
        {&toy_race_ops, 3, NULL},
        {&toy_hidden_race_ops, 3, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game *g = new_game(cases[i].ops, cases[i].players, NULL);
        GameState *s = test_position(g, cases[i].pos);
        GameState *other = test_position(g, cases[i].pos);
        void *undo = game_undo_new(g);
        MoveList list;
        g->ops->gen_moves(g, other, &list);
        g->ops->make(g, other, list.moves[0], undo);

        Agent *a = new_agent(g, AGENT_MCTS, 5, 0, 1500, SEARCH_UNLIMITED, 99);
        Agent *b = new_agent(g, AGENT_MCTS, 5, 0, 1500, SEARCH_UNLIMITED, 99);
        const SearchResult r1 = think(a, s);
        const SearchResult r2 = think(b, s);
        assert_same_result(&r1, &r2);
        assert_int_equal(r1.nodes, 1500);
        assert_false(r1.has_score);
        assert_true(r1.value >= -1 && r1.value <= 1);
        assert_true(r1.depth >= 1);
        assert_true(is_legal(g, s, r1.best));
        if (g->ops->to_move(g, other) >= 0)
            (void)think(a, other);
        agent_new_game(a);
        const SearchResult r3 = think(a, s);
        assert_same_result(&r1, &r3);
        // The Rng moves on from think to think.
        const SearchResult r4 = think(a, s);
        assert_int_equal(r4.nodes, 1500);
        free(undo);
        free(other);
        free(s);
        agent_free(a);
        agent_free(b);
        game_destroy(g);
    }
}

static void test_mcts_finds_obvious_moves(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    static const struct {
        const char *pos;
        Move best;
    } cases[] = {
        {"xx.oo.... x", 3}, // win now (and o would win at 6)
        {"xx.oo.x.. o", 6}, // o wins now
        {"xx..o.... o", 3}, // block
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        GameState *s = test_position(g, cases[i].pos);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            Agent *a = new_agent(g, AGENT_MCTS, 5, 0, 3000, SEARCH_UNLIMITED, seed);
            const SearchResult r = think(a, s);
            if (r.best != cases[i].best)
                fail_msg("%s seed %llu: mcts plays %u", cases[i].pos, (unsigned long long)seed,
                         (unsigned)r.best);
            agent_free(a);
        }
        free(s);
    }
    // Winning a won position shows in the value.
    GameState *s = test_position(g, "xx.oo.... x");
    Agent *a = new_agent(g, AGENT_MCTS, 5, 0, 3000, SEARCH_UNLIMITED, 1);
    assert_true(think(a, s).value > 0.8);
    agent_free(a);
    free(s);
    game_destroy(g);

    // Nim (no playout hook: the generic rollout): 5 stones, take 1.
    g = new_game(&toy_nim_ops, 2, NULL);
    s = test_position(g, "5 0");
    a = new_agent(g, AGENT_MCTS, 5, 0, 4000, SEARCH_UNLIMITED, 3);
    assert_int_equal(think(a, s).best, 1);
    agent_free(a);
    free(s);
    game_destroy(g);
}

static void test_mcts_three_players_and_chance(void **state)
{
    (void)state;
    Game *g = new_game(&toy_race_ops, 3, NULL);
    // Everybody is one step from the goal: step and win now, a gamble may fail.
    GameState *s = test_position(g, "9,9,9 0");
    Agent *a = new_agent(g, AGENT_AI, 5, 0, 2000, SEARCH_UNLIMITED, 5);
    assert_int_equal(agent_kind(a), AGENT_MCTS);
    SearchResult r = think(a, s);
    assert_int_equal(r.best, parse_move(g, s, "step"));
    assert_true(r.value > 0.5);
    free(s);

    // Two from the goal and the others one: only a lucky gamble wins.
    s = test_position(g, "8,9,9 0");
    r = think(a, s);
    assert_int_equal(r.best, parse_move(g, s, "gamble"));
    free(s);

    // The same for the third player, whose turn it is.
    s = test_position(g, "9,9,8 2");
    r = think(a, s);
    assert_int_equal(r.best, parse_move(g, s, "gamble"));
    free(s);
    agent_free(a);

    // A four-player game from the start runs, stays in range and reports a tree.
    game_destroy(g);
    g = new_game(&toy_race_ops, 4, NULL);
    s = test_position(g, NULL);
    a = new_agent(g, AGENT_MCTS, 3, 0, 0, SEARCH_UNLIMITED, 8);
    r = think(a, s);
    assert_int_equal(r.nodes, 1000);
    assert_true(r.depth >= 2);
    assert_true(r.value > -1 && r.value < 1);
    agent_free(a);
    free(s);
    game_destroy(g);
}

/* The hidden future holds a failing gamble. Determinized, the gamble still wins half
 * the time; a search that peeked at the true future would see only losses. */
static void test_mcts_determinizes_hidden_information(void **state)
{
    (void)state;
    Game *g = new_game(&toy_hidden_race_ops, 3, NULL);
    GameState *s = test_position(g, "8,9,9 0 0 0");
    GameState *copy = game_state_clone(g, s);
    Agent *a = new_agent(g, AGENT_AI, 5, 0, 3000, SEARCH_UNLIMITED, 11);
    assert_int_equal(agent_kind(a), AGENT_MCTS);
    const SearchResult r = think(a, s);
    assert_int_equal(r.best, parse_move(g, s, "gamble"));
    assert_true(r.value > 0.0); // a peek would give -0.5
    assert_memory_equal(s, copy, g->state_size);
    agent_free(a);
    free(copy);
    free(s);
    game_destroy(g);
}

static void test_mcts_full_arena(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *s = test_position(g, "xx.oo.x.. o");
    MctsConfig cfg;
    mcts_config_uct(&cfg);
    cfg.max_bytes = 5 * 64; // the root and its four children
    Mcts *m;
    ErrBuf err;
    assert_int_equal(mcts_new(g, &cfg, &m, &err), STATUS_OK);
    Rng rng;
    rng_seed(&rng, 1);
    SearchLimits limits = {.nodes = 2000};
    SearchResult r;
    mcts_search(m, s, &limits, &rng, NULL, &r);
    assert_int_equal(r.nodes, 2000);
    assert_int_equal(r.best, 6); // the root's children alone see the win
    assert_int_equal(r.depth, 1);
    // The cap can be lifted for the next search.
    mcts_set_max_bytes(m, 0);
    mcts_search(m, s, &limits, &rng, NULL, &r);
    assert_true(r.depth > 2);
    assert_int_equal(r.best, 6);
    mcts_free(m);
    free(s);
    game_destroy(g);
}

/* Counts a search's progress calls. */
typedef struct ProgressLog {
    int iterations, last_depth, seldepth, root_moves;
    uint64_t last_nodes;
} ProgressLog;

static void log_iteration(void *ctx, const SearchResult *r, int seldepth, int hashfull)
{
    ProgressLog *log = ctx;
    log->iterations++;
    assert_int_equal(r->depth, log->last_depth + 1); // one call per depth, in order
    assert_true(r->nodes >= log->last_nodes);
    assert_true(hashfull >= 0 && hashfull <= 1000);
    log->last_depth = r->depth;
    log->last_nodes = r->nodes;
    if (seldepth > log->seldepth)
        log->seldepth = seldepth;
}

static void log_root_move(void *ctx, Move m, int number, int depth)
{
    (void)m, (void)number, (void)depth;
    ((ProgressLog *)ctx)->root_moves++;
}

/* searchmoves and the progress listener: the root restricted (a restriction naming no
 * legal move is none), an iteration call per depth, and the same nodes as a silent
 * search. */
static void test_root_moves_and_progress(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *s = test_position(g, "xx.oo.... x");
    AlphaBeta *ab;
    ErrBuf err;
    assert_int_equal(alphabeta_new(g, NULL, &ab, &err), STATUS_OK);
    SearchResult r, silent;
    const SearchLimits plain = {.depth = 5};
    alphabeta_search(ab, s, &plain, NULL, &silent);
    assert_int_equal(silent.best, 3);

    ProgressLog log = {0};
    const SearchProgress progress = {log_iteration, log_root_move, &log};
    const Move others[] = {8, 9};
    SearchLimits limits = {.depth = 5, .root_moves = others, .root_move_count = 2,
                           .progress = &progress};
    alphabeta_clear(ab);
    alphabeta_search(ab, s, &limits, NULL, &r);
    assert_true(r.best == 8 || r.best == 9);
    assert_int_equal(log.iterations, r.depth);
    assert_true(log.seldepth >= r.depth);
    assert_int_equal(log.root_moves, 0); // under a second: no currmove

    const Move taken[] = {1};
    limits.root_moves = taken;
    limits.root_move_count = 1;
    limits.progress = NULL;
    alphabeta_clear(ab);
    alphabeta_search(ab, s, &limits, NULL, &r);
    assert_int_equal(r.best, 3);

    // The listener watches; it does not change the search.
    log = (ProgressLog){0};
    limits = (SearchLimits){.depth = 5, .progress = &progress};
    alphabeta_clear(ab);
    alphabeta_search(ab, s, &limits, NULL, &r);
    alphabeta_clear(ab);
    alphabeta_search(ab, s, &plain, NULL, &silent);
    assert_int_equal(r.nodes, silent.nodes);
    assert_int_equal(r.best, silent.best);
    alphabeta_free(ab);

    // MCTS keeps to the named root moves too.
    MctsConfig cfg;
    mcts_config_uct(&cfg);
    Mcts *m;
    assert_int_equal(mcts_new(g, &cfg, &m, &err), STATUS_OK);
    Rng rng;
    rng_seed(&rng, 1);
    const Move seven[] = {7};
    limits = (SearchLimits){.nodes = 500, .root_moves = seven, .root_move_count = 1};
    mcts_search(m, s, &limits, &rng, NULL, &r);
    assert_int_equal(r.best, 7);
    mcts_free(m);
    free(s);
    game_destroy(g);
}

typedef struct StopLater {
    Agent *agent;
    int delay_ms;
} StopLater;

static void *stop_later(void *arg)
{
    const StopLater *sl = arg;
    struct timespec ts = {0, (long)sl->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    agent_stop(sl->agent);
    return NULL;
}

/* Plays the turn of the player to move in *s with agent a, acting until another player
 * is to move; returns its wall time in ms and the number of its actions in *actions. */
static int64_t timed_turn(const Game *g, Agent *a, GameState *s, int *actions)
{
    void *undo = game_undo_new(g);
    assert_non_null(undo);
    const int p = g->ops->to_move(g, s);
    const int64_t start = clock_ms();
    *actions = 0;
    while (g->ops->to_move(g, s) == p) {
        const SearchResult r = think(a, s);
        g->ops->make(g, s, r.best, undo);
        ++*actions;
    }
    free(undo);
    return clock_ms() - start;
}

/* Whether wall-clock bounds hold in this run: `make check-invariants` runs the debug
 * build at nice 19 beside the browser tests, where a starved process overruns any
 * deadline, and sets CROWN_TEST_UNTIMED; the release and sanitizer runs check them. */
static bool wall_clock_checked(void)
{
    return getenv("CROWN_TEST_UNTIMED") == NULL;
}

/* A move time is one budget per turn: a turn of several actions takes about the move
 * time in all, not the move time per action (MCTS, which spends all it is given, on the
 * two-action toy; the alpha-beta AI on King's Guard, where a stack is picked, then moved). */
static void test_movetime_per_turn(void **state)
{
    (void)state;
    enum { MOVETIME = 200 };
    Game *g = new_game(&toy_twostep_ops, 2, NULL);
    GameState *s = test_position(g, NULL);
    Agent *a = new_agent(g, AGENT_MCTS, 10, 0, UINT64_MAX, MOVETIME, 3);
    int actions;
    int64_t ms = timed_turn(g, a, s, &actions);
    assert_int_equal(actions, 2);
    assert_true(ms >= MOVETIME * 8 / 10);
    if (wall_clock_checked())
        assert_true(ms <= MOVETIME * 16 / 10); // the old way took twice the move time
    agent_free(a);
    free(s);
    game_destroy(g);

    Game *kg = new_game(registry_find("kings-guard-8x8"), 2, NULL);
    s = test_position(kg, NULL);
    a = new_agent(kg, AGENT_AI, 10, 0, 0, MOVETIME, 3);
    for (int turn = 0; turn < 2; turn++) {
        ms = timed_turn(kg, a, s, &actions);
        assert_true(actions >= 2);
        if (wall_clock_checked())
            assert_true(ms <= MOVETIME * 16 / 10); // the old way took twice the move time
    }
    agent_free(a);
    free(s);
    game_destroy(kg);
}

static void test_stop_from_another_thread(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *s = test_position(g, NULL);
    // Without limits MCTS runs until stopped.
    Agent *a = new_agent(g, AGENT_MCTS, 5, 0, UINT64_MAX, SEARCH_UNLIMITED, 1);
    StopLater sl = {a, 50};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, stop_later, &sl), 0);
    const SearchResult r = think(a, s);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_true(r.nodes > 0);
    assert_true(r.time_ms < 5000);
    assert_true(is_legal(g, s, r.best));
    agent_free(a);

    // The request is spent: the next think runs to its limit.
    a = new_agent(g, AGENT_MCTS, 5, 0, 300, SEARCH_UNLIMITED, 1);
    agent_stop(a);
    SearchResult r2 = think(a, s); // stopped at once: one iteration
    assert_int_equal(r2.nodes, 1);
    assert_true(is_legal(g, s, r2.best));
    r2 = think(a, s);
    assert_int_equal(r2.nodes, 300);
    agent_free(a);
    free(s);
    game_destroy(g);
}

static void test_random_agent(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *s = test_position(g, NULL);
    Agent *a = new_agent(g, AGENT_RANDOM, 5, 0, 0, 0, 123);
    Agent *b = new_agent(g, AGENT_RANDOM, 5, 0, 0, 0, 123);
    int seen[10] = {0};
    for (int i = 0; i < 200; i++) {
        const SearchResult r1 = think(a, s);
        const SearchResult r2 = think(b, s);
        assert_int_equal(r1.best, r2.best);
        assert_true(is_legal(g, s, r1.best));
        seen[r1.best]++;
    }
    for (int c = 1; c <= 9; c++)
        assert_true(seen[c] > 0);
    StrBuf sb;
    sb_init(&sb);
    agent_describe(a, &sb);
    assert_string_equal(sb_str(&sb), "random");
    sb_free(&sb);
    agent_free(a);
    agent_free(b);
    free(s);
    game_destroy(g);
}

/* Two agents in one process play whole games against each other without trouble. */
static void test_agents_play_a_game(void **state)
{
    (void)state;
    Game *g = new_game(&toy_tictactoe_ops, 2, NULL);
    GameState *s = test_position(g, NULL);
    void *undo = game_undo_new(g);
    Agent *players[2] = {new_agent(g, AGENT_ALPHABETA, 10, 0, 0, SEARCH_UNLIMITED, 0),
                         new_agent(g, AGENT_MCTS, 7, 0, 2000, SEARCH_UNLIMITED, 4)};
    while (!game_is_over(g, s)) {
        const SearchResult r = think(players[g->ops->to_move(g, s)], s);
        assert_true(is_legal(g, s, r.best));
        g->ops->make(g, s, r.best, undo);
    }
    double ret[MAX_PLAYERS];
    g->ops->returns(g, s, ret);
    assert_true(ret[0] >= 0); // perfect play never loses tic-tac-toe
    agent_free(players[0]);
    agent_free(players[1]);
    free(undo);
    free(s);
    game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_games_keep_the_contract),
        cmocka_unit_test(test_spec_parse),
        cmocka_unit_test(test_agent_new_refuses_alphabeta),
        cmocka_unit_test(test_think_refuses_finished_games_and_chance),
        cmocka_unit_test(test_format_score),
        cmocka_unit_test(test_levels_and_overrides),
        cmocka_unit_test(test_table_fits_node_cap),
        cmocka_unit_test(test_levels_scale),
        cmocka_unit_test(test_alphabeta_nim_mate_scores),
        cmocka_unit_test(test_alphabeta_multi_action_turns),
        cmocka_unit_test(test_alphabeta_tictactoe_matches_solver),
        cmocka_unit_test(test_alphabeta_tictactoe_tactics),
        cmocka_unit_test(test_alphabeta_is_deterministic),
        cmocka_unit_test(test_alphabeta_variety),
        cmocka_unit_test(test_alphabeta_node_limit),
        cmocka_unit_test(test_alphabeta_quiescence),
        cmocka_unit_test(test_alphabeta_quiescence_kings_castle),
        cmocka_unit_test(test_alphabeta_quiescence_kings_guard),
        cmocka_unit_test(test_alphabeta_stop_and_time),
        cmocka_unit_test(test_tt),
        cmocka_unit_test(test_mcts_is_deterministic),
        cmocka_unit_test(test_mcts_finds_obvious_moves),
        cmocka_unit_test(test_mcts_three_players_and_chance),
        cmocka_unit_test(test_mcts_determinizes_hidden_information),
        cmocka_unit_test(test_mcts_full_arena),
        cmocka_unit_test(test_movetime_per_turn),
        cmocka_unit_test(test_stop_from_another_thread),
        cmocka_unit_test(test_random_agent),
        cmocka_unit_test(test_agents_play_a_game),
        cmocka_unit_test(test_alphabeta_lazy_legality),
        cmocka_unit_test(test_root_moves_and_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
