/*
 * cmd_analyze.c - `crown analyze GAME`: search one position and print the best move,
 * its score and the principal variation.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "core/game_api.h"
#include "core/invariant.h"
#include "search/agent.h"

int cmd_analyze(int argc, char **argv)
{
    CliOptions o;
    if (!cli_parse_options(argc, argv, 2, &o))
        return 2;
    if (o.n_positional != 1)
        return cli_error("usage: crown analyze GAME [--position TEXT] [--rule NAME=VALUE]... "
                         "[--agent SPEC] [--depth N] [--nodes N] [--movetime MS]"),
               2;
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
