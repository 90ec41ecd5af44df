/*
 * cmd_bench.c - `crown bench [GAME]`: fixed searches over fixed positions of every game,
 * one line per position (game, position text, best move, score, nodes), a total per game
 * and a signature ("Bench: N") that the tests compare, with every other line but the
 * timing, against bench/signature. Any change of move generation, move ordering or
 * evaluation of any game changes that output.
 *
 * Positions are generated, not listed: each game's start position, and the positions
 * reached from it by BENCH_WALK_PLIES[i] uniformly random actions from a fixed seed.
 * Each search starts from a fresh agent (empty tables), single-threaded, and always runs
 * to its end: alpha-beta to a fixed depth per game with no node cap (a cap would hide
 * changes in the nodes it cuts), MCTS a fixed number of iterations per game, never a
 * time limit. The work per game is chosen so that the whole bench takes well under 20 s
 * in a release build.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/game_api.h"
#include "core/invariant.h"
#include "play/registry.h"
#include "search/agent.h"

static const int BENCH_WALK_PLIES[] = {0, 5, 10, 15, 20};
enum { BENCH_WALKS = sizeof BENCH_WALK_PLIES / sizeof BENCH_WALK_PLIES[0] };

/* The fixed work of each game's searches is its GameOps.bench_depth or
 * .bench_iterations; a game giving neither gets BENCH_DEFAULT. */
typedef struct BenchWork {
    int depth;
    uint64_t iterations;
} BenchWork;

static const BenchWork BENCH_DEFAULT = {4, 500};

static BenchWork bench_work(const GameOps *ops)
{
    if (ops->bench_depth == 0 && ops->bench_iterations == 0)
        return BENCH_DEFAULT;
    return (BenchWork){ops->bench_depth, ops->bench_iterations};
}

/* Plays `plies` random actions from the start, then chance's actions until a player is
 * to move (agents do not choose for chance); stops early at the end of the game. */
static void random_walk(const Game *g, GameState *s, int plies, uint64_t seed)
{
    Rng rng;
    rng_seed(&rng, seed);
    MoveList *ml = malloc(sizeof *ml);
    void *undo = game_undo_new(g);
    for (int i = 0; (i < plies || g->ops->to_move(g, s) == PLAYER_CHANCE) && ml && undo; i++) {
        const int p = g->ops->to_move(g, s);
        if (p == PLAYER_NONE)
            break;
        Move m;
        if (p == PLAYER_CHANCE) {
            m = game_sample_chance(g, s, &rng);
        } else {
            g->ops->gen_moves(g, s, ml);
            m = ml->moves[rng_below(&rng, (uint32_t)ml->count)];
        }
        // Stop one short of an ending so that there is something to search.
        void *keep = game_state_clone(g, s);
        g->ops->make(g, s, m, undo);
        GAME_CHECK(g, s);
        if (game_is_over(g, s) && keep) {
            memcpy(s, keep, g->state_size);
            free(keep);
            break;
        }
        free(keep);
    }
    free(ml);
    free(undo);
}

static bool bench_game(const GameOps *ops, const CliOptions *o, AgentEval eval, uint64_t *total)
{
    Game *g;
    ErrBuf err;
    if (game_create(ops, 0, NULL, 0, &g, &err) != STATUS_OK)
        return cli_error("%s: %s", ops->name, err.msg), false;
    uint64_t game_nodes = 0;
    bool ok = true;
    const char *evaluation = "none";
    const BenchWork work = bench_work(ops);
    for (int i = 0; i < BENCH_WALKS && ok; i++) {
        GameState *s = game_state_new(g);
        g->ops->new_game(g, s, 1);
        random_walk(g, s, BENCH_WALK_PLIES[i], 0xBE4C4ULL + (uint64_t)i);
        AgentSpec spec;
        agent_spec_parse("ai:10", &spec, &err);
        spec.eval = eval;
        // Alpha-beta reads the depth (no node cap: 0), MCTS the iterations.
        spec.limits.depth = o->limits.depth ? o->limits.depth : work.depth;
        spec.limits.nodes = o->limits.nodes ? o->limits.nodes : work.iterations;
        spec.limits.movetime_ms = SEARCH_UNLIMITED;
        spec.seed = (uint64_t)i + 1;
        Agent *a = NULL;
        SearchResult r;
        StrBuf pos, mv, score;
        sb_init(&pos);
        sb_init(&mv);
        sb_init(&score);
        g->ops->format_position(g, s, &pos);
        if (agent_new(g, &spec, &a, &err) != STATUS_OK ||
            agent_think(a, s, &r, &err) != STATUS_OK) {
            ok = false;
            cli_error("%s position %d: %s", ops->name, i + 1, err.msg);
        } else {
            g->ops->format_move(g, s, r.best, &mv);
            search_format_score(&r, &score);
            printf("%s %d [%s] bestmove %s score %s nodes %" PRIu64 "\n", ops->name, i + 1,
                   sb_str(&pos), sb_str(&mv), sb_str(&score), r.nodes);
            game_nodes += r.nodes;
            evaluation = agent_evaluation(a);
        }
        fflush(stdout);
        sb_free(&pos);
        sb_free(&mv);
        sb_free(&score);
        agent_free(a);
        free(s);
    }
    // Which evaluation the signature was made with: a net changing the default shows here.
    printf("%s total %" PRIu64 " (%s evaluation)\n", ops->name, game_nodes, evaluation);
    *total += game_nodes;
    game_destroy(g);
    return ok;
}

/* --eval classic|nnue: the evaluation alpha-beta's games search with (without it, each
 * game's default). */
static bool take_eval(void *ctx, int which, const char *flag, const char *value)
{
    (void)which;
    if (agent_eval_parse(value, ctx))
        return true;
    return cli_error("%s takes classic or nnue, not '%s'", flag, value), false;
}

int cmd_bench(int argc, char **argv)
{
    static const char *const own[] = {"--eval"};
    AgentEval eval = AGENT_EVAL_DEFAULT;
    CliOptions o;
    const int parsed = cli_parse_own_options(argc, argv, own, 1, take_eval, &eval, &o);
    if (parsed != 0)
        return parsed;
    if (o.n_positional > 1)
        return cli_error("usage: crown bench [GAME] [--depth N] [--nodes N] [--eval classic|nnue]"),
               2;
    if (o.n_positional == 1 && registry_find(o.positional[0]) == NULL)
        return cli_error("no game called '%s'", o.positional[0]), 2;
    uint64_t total = 0;
    const int64_t t0 = clock_us();
    bool ok = true;
    for (int i = 0; i < registry_count() && ok; i++) {
        const GameOps *ops = registry_at(i);
        if (o.n_positional == 1 && strcmp(ops->name, o.positional[0]) != 0)
            continue;
        ok = bench_game(ops, &o, eval, &total);
    }
    const int64_t us = clock_us() - t0;
    printf("Bench: %" PRIu64 "\n", total);
    printf("time %.3f s, %.0f nodes per second\n", (double)us / 1e6,
           us ? (double)total * 1e6 / (double)us : 0.0);
    return ok ? 0 : 1;
}
