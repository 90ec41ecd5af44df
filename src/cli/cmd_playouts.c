/*
 * cmd_playouts.c - `crown playouts GAME`: uniformly random games from the start, for
 * speed (playouts per second on one core) and for designers (how often each seat wins
 * and how long games last under random play).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/game_api.h"
#include "core/invariant.h"

/* The interface's loop, for games without a playout hook. */
static void generic_playout(const Game *g, GameState *s, Rng *rng, MoveList *ml, void *undo)
{
    for (;;) {
        const int p = g->ops->to_move(g, s);
        if (p == PLAYER_NONE)
            return;
        Move m;
        if (p == PLAYER_CHANCE) {
            m = game_sample_chance(g, s, rng);
        } else {
            g->ops->gen_moves(g, s, ml);
            m = ml->moves[rng_below(rng, (uint32_t)ml->count)];
        }
        g->ops->make(g, s, m, undo);
        GAME_CHECK(g, s);
    }
}

int cmd_playouts(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown playouts GAME [--games N] [--movetime MS] [--seed S] "
        "[--position TEXT] [--rule NAME=VALUE]... [--generic]";
    CliOptions o;
    if (!cli_parse_game_options(argc, argv, usage, &o))
        return 2;
    Game *g;
    GameState *start;
    if (!cli_make_game(&o, &g, &start))
        return 1;
    GameState *s = game_state_new(g);
    MoveList *ml = malloc(sizeof *ml);
    void *undo = game_undo_new(g);
    if (!s || !ml || !undo) {
        free(s);
        free(ml);
        free(undo);
        free(start);
        game_destroy(g);
        return cli_error("out of memory");
    }
    Rng rng;
    rng_seed(&rng, o.seed);
    // --movetime is a time budget: stop at the first check past it (every 64 playouts).
    const int64_t budget_us = o.limits.movetime_ms * 1000;
    long n = o.games_set ? o.games : budget_us > 0 ? 1000000000L : 100000L;
    double sum[MAX_PLAYERS] = {0};
    long wins[MAX_PLAYERS] = {0}, draws = 0;
    const int64_t t0 = clock_us();
    for (long i = 0; i < n; i++) {
        if (budget_us > 0 && (i & 63) == 0 && i > 0 && clock_us() - t0 > budget_us) {
            n = i;
            break;
        }
        double ret[MAX_PLAYERS];
        memcpy(s, start, g->state_size);
        if (g->ops->playout && !o.generic) {
            g->ops->playout(g, s, &rng, ret);
        } else {
            generic_playout(g, s, &rng, ml, undo);
            g->ops->returns(g, s, ret);
        }
        int best = 0, n_best = 0;
        for (int p = 0; p < g->players; p++) {
            sum[p] += ret[p];
            if (ret[p] > ret[best])
                best = p;
        }
        for (int p = 0; p < g->players; p++)
            n_best += ret[p] == ret[best];
        if (n_best == 1)
            wins[best]++;
        else
            draws++;
    }
    const int64_t us = clock_us() - t0;
    for (int p = 0; p < g->players; p++)
        printf("player %d: %ld wins (%.1f%%), mean return %+.3f\n", p + 1, wins[p],
               100.0 * (double)wins[p] / (double)n, sum[p] / (double)n);
    printf("draws or shared: %ld (%.1f%%)\n", draws, 100.0 * (double)draws / (double)n);
    printf("%s: %ld playouts in %.3f s, %.0f playouts per second\n", g->ops->name, n,
           (double)us / 1e6, us ? (double)n * 1e6 / (double)us : 0.0);
    free(s);
    free(ml);
    free(undo);
    free(start);
    game_destroy(g);
    return 0;
}
