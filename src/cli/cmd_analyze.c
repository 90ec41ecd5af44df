/*
 * cmd_analyze.c - `crown analyze GAME`: search one position and print the best move,
 * its score and the principal variation; or, for a solved game with its table present,
 * the exact value of the position and of every legal move.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "core/game_api.h"
#include "core/invariant.h"
#include "play/perfect.h"
#include "search/agent.h"

/* Prints the table's values; false (printing nothing) when the table does not hold this
 * position, so that the search answers instead. */
static bool print_exact(const KvsTable *t, const Game *g, const GameState *s, uint64_t seed)
{
    ErrBuf err;
    KvsValue value;
    if (kvs_probe(t, g, s, &value, &err) != STATUS_OK)
        return false;
    MoveList *moves = malloc(sizeof *moves);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    if (moves == NULL || vals == NULL || kvs_probe_moves(t, g, s, moves, vals, &err) != STATUS_OK) {
        free(moves);
        free(vals);
        return false;
    }
    StrBuf line;
    sb_init(&line);
    kvs_value_format(value, &line);
    printf("table %s\nvalue %s\n", kvs_table_path(t), sb_str(&line));
    for (int k = 0; k < moves->count; k++) {
        sb_clear(&line);
        g->ops->format_move(g, s, moves->moves[k], &line);
        sb_puts(&line, " ");
        kvs_value_format(vals[k], &line);
        printf("move %s\n", sb_str(&line));
    }
    Rng rng;
    rng_seed(&rng, seed);
    Move best;
    if (kvs_best_move(t, g, s, &rng, &best, &value, &err) == STATUS_OK) {
        sb_clear(&line);
        g->ops->format_move(g, s, best, &line);
        printf("bestmove %s\n", sb_str(&line));
    }
    sb_free(&line);
    free(moves);
    free(vals);
    return true;
}

int cmd_analyze(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown analyze GAME [--position TEXT] [--rule NAME=VALUE]... "
        "[--agent SPEC] [--depth N] [--nodes N] [--movetime MS]";
    CliOptions o;
    if (!cli_parse_game_options(argc, argv, usage, &o))
        return 2;
    ErrBuf err;
    AgentSpec spec;
    if (agent_spec_parse(o.agent ? o.agent : "ai:10", &spec, &err) != STATUS_OK)
        return cli_error("--agent: %s", err.msg), 2;
    spec.limits = cli_search_limits(&o);
    spec.seed = o.seed;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    Perfect *perfect = NULL;
    if (!cli_open_perfect(&o, &perfect)) {
        free(s);
        game_destroy(g);
        return 1;
    }
    const KvsTable *table = perfect_table(perfect, g);
    if (o.tablebase != NULL && table == NULL) {
        ErrBuf e2;
        KvsTable *t;
        if (kvs_table_open(o.tablebase, g, &t, &e2) != STATUS_OK)
            cli_error("--tablebase: %s", e2.msg);
        kvs_table_close(t);
        perfect_free(perfect);
        free(s);
        game_destroy(g);
        return 1;
    }
    if (table != NULL && !game_is_over(g, s) && print_exact(table, g, s, o.seed)) {
        perfect_free(perfect);
        free(s);
        game_destroy(g);
        return 0;
    }
    perfect_free(perfect);
    int rc = 0;
    Agent *a = NULL;
    SearchResult r;
    if (agent_new(g, &spec, &a, &err) != STATUS_OK || agent_think(a, s, &r, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
    } else {
        StrBuf line;
        sb_init(&line);
        search_format_score(&r, &line);
        printf("score %s\n", sb_str(&line));
        sb_clear(&line);
        GameState *walk = game_state_clone(g, s);
        void *undo = game_undo_new(g);
        for (int i = 0; i < r.pv_len && walk && undo; i++) {
            sb_putc(&line, ' ');
            g->ops->format_move(g, walk, r.pv[i], &line);
            g->ops->make(g, walk, r.pv[i], undo);
            GAME_CHECK(g, walk);
        }
        printf("pv%s\n", sb_str(&line));
        printf("depth %d nodes %" PRIu64 " time %" PRId64 " ms\n", r.depth, r.nodes, r.time_ms);
        sb_clear(&line);
        g->ops->format_move(g, s, r.best, &line);
        printf("bestmove %s\n", sb_str(&line));
        sb_free(&line);
        free(walk);
        free(undo);
    }
    agent_free(a);
    free(s);
    game_destroy(g);
    return rc;
}
