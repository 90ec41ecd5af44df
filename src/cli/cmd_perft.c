/*
 * cmd_perft.c - `crown perft GAME DEPTH`: leaf counts per depth, then the speed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/game_api.h"

int cmd_perft(int argc, char **argv)
{
    CliOptions o;
    if (!cli_parse_options(argc, argv, 2, &o))
        return 2;
    if (o.n_positional != 2)
        return cli_error("usage: crown perft GAME DEPTH [--position TEXT] [--rule NAME=VALUE]... "
                         "[--movetime MS] [--generic]"),
               2;
    char *end;
    errno = 0;
    long depth = strtol(o.positional[1], &end, 10);
    if (errno || *end || end == o.positional[1] || depth < 1 || depth > 30)
        return cli_error("DEPTH must be a whole number from 1 to 30, not '%s'", o.positional[1]),
               2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    uint64_t total = 0;
    const int64_t t0 = clock_us();
    for (int d = 1; d <= depth; d++) {
        uint64_t n = o.generic ? game_perft_generic(g, s, d) : game_perft(g, s, d);
        total += n;
        printf("perft %d %" PRIu64 "\n", d, n);
        fflush(stdout);
        // --movetime: a budget; no deeper depth is started once it is spent.
        if (o.limits.movetime_ms > 0 && clock_us() - t0 > o.limits.movetime_ms * 1000)
            break;
    }
    const int64_t us = clock_us() - t0;
    printf("time %.3f s, %" PRIu64 " nodes, %.0f nodes per second\n", (double)us / 1e6, total,
           us > 0 ? (double)total * 1e6 / (double)us : 0.0);
    free(s);
    game_destroy(g);
    return 0;
}
