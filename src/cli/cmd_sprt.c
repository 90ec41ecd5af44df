/*
 * cmd_sprt.c - `crown sprt GAME --base A --test B --elo0 E0 --elo1 E1`: plays pairs of
 * games (one start, seats swapped) through the match runner until the sequential
 * probability ratio test (sprt.h, pentanomial over the pairs) accepts H0 or H1, or the
 * game cap is reached; prints the running counts, the LLR and the Elo estimate.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/match_runner.h"
#include "cli/sprt.h"
#include "core/game_api.h"
#include "play/seats.h"

enum { SPRT_DEFAULT_GAMES_MAX = 20000, SPRT_ENGINE_OPTIONS = 16 };

typedef struct Sprt {
    SprtConfig cfg;
    const MatchGame *games;
    unsigned char *finished; /* per game: its result has been seen */
    bool failed;
    long pairs[5]; /* pairs by the test agent's points over both games, in halves */
    long wins, draws, losses;
    int pairs_done;
    SprtState state;
} Sprt;

/* The test agent's points in one game: it is spec 0. */
static int half_points(const MatchGame *g)
{
    return g->returns[0] > g->returns[1] ? 2 : g->returns[0] < g->returns[1] ? 0 : 1;
}

static bool pair_done(void *ctx, int index, const MatchGame *game)
{
    Sprt *t = ctx;
    if (t->state.decision != SPRT_CONTINUE)
        return false; // decided already: games still running are not counted
    if (game->failed) {
        printf("game %d failed: %s\n", index + 1, game->error);
        t->failed = true;
        return false;
    }
    t->finished[index] = 1;
    if (!t->finished[index ^ 1])
        return true; // the pair's other game is still running
    int points = 0;
    for (int k = 0; k < 2; k++) {
        const int h = half_points(&t->games[(index & ~1) + k]);
        points += h;
        t->wins += h == 2;
        t->draws += h == 1;
        t->losses += h == 0;
    }
    t->pairs[points]++;
    t->pairs_done++;
    sprt_pentanomial(&t->cfg, t->pairs, &t->state);
    printf("games %d: W %ld D %ld L %ld  pairs %ld %ld %ld %ld %ld  LLR %.2f (%.2f, %.2f)  "
           "Elo %+.1f [%+.1f, %+.1f]\n",
           2 * t->pairs_done, t->wins, t->draws, t->losses, t->pairs[0], t->pairs[1],
           t->pairs[2], t->pairs[3], t->pairs[4], t->state.llr, t->state.lower, t->state.upper,
           t->state.elo, t->state.elo_low, t->state.elo_high);
    fflush(stdout);
    return t->state.decision == SPRT_CONTINUE && !t->failed;
}

static bool read_real(const char *flag, const char *value, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(value, &end);
    if (errno != 0 || end == value || *end != '\0' || !isfinite(v)) {
        cli_error("%s takes a number, not '%s'", flag, value);
        return false;
    }
    *out = v;
    return true;
}

/* What sprt reads from its own flags. */
typedef struct SprtArgs {
    const char *base, *test;
    SprtConfig cfg;
    bool elo0_set, elo1_set;
    long games_max;
} SprtArgs;

static bool take_flag(void *ctx, int which, const char *flag, const char *value)
{
    SprtArgs *a = ctx;
    if (which == 0)
        a->base = value;
    else if (which == 1)
        a->test = value;
    else if (which == 2)
        return a->elo0_set = read_real(flag, value, &a->cfg.elo0);
    else if (which == 3)
        return a->elo1_set = read_real(flag, value, &a->cfg.elo1);
    else if (which == 4)
        return read_real(flag, value, &a->cfg.alpha);
    else if (which == 5)
        return read_real(flag, value, &a->cfg.beta);
    else {
        char *end;
        a->games_max = strtol(value, &end, 10);
        if (*end != '\0' || a->games_max < 2 || a->games_max > 10000000)
            return cli_error("--games-max takes a whole number from 2 to 10000000, not '%s'",
                             value),
                   false;
    }
    return true;
}

int cmd_sprt(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown sprt GAME --base SPEC --test SPEC --elo0 E0 --elo1 E1 [--alpha A] "
        "[--beta B] [--movetime MS | --depth N | --nodes N] [--games-max N] [--seed S] "
        "[--jobs J] [--openings FILE] [--rule NAME=VALUE]...";
    static const char *const own[] = {"--base",  "--test", "--elo0",     "--elo1",
                                      "--alpha", "--beta", "--games-max"};
    SprtArgs a = {.cfg = {0, 5, 0.05, 0.05}, .games_max = SPRT_DEFAULT_GAMES_MAX};
    CliOptions o;
    const int parsed = cli_parse_own_options(argc, argv, own, (int)(sizeof own / sizeof own[0]),
                                             take_flag, &a, &o);
    if (parsed != 0)
        return parsed;
    const char *base = a.base, *test = a.test;
    long games_max = a.games_max;
    Sprt t;
    memset(&t, 0, sizeof t);
    t.cfg = a.cfg;
    if (o.n_positional != 1 || base == NULL || test == NULL || !a.elo0_set || !a.elo1_set)
        return cli_error("%s", usage), 2;
    char msg[160];
    if (sprt_config_check(&t.cfg, msg, (int)sizeof msg) != 0)
        return cli_error("%s", msg), 2;

    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    int rc = 0;
    ErrBuf err;
    Seats specs;
    MatchStarts starts;
    MatchGame *games = NULL;
    bool starts_made = false;
    char players[256];
    if (g->players != 2) {
        rc = cli_error("sprt needs a two-player game; %s is played by %d", g->ops->name,
                       g->players);
        goto done;
    }
    // The test agent is spec 0, so every result is read from its side.
    snprintf(players, sizeof players, "%s,%s", test, base);
    const SearchLimits lim = cli_search_limits(&o);
    if (seats_parse(players, 2, &lim, o.seed, &specs, &err) != STATUS_OK ||
        seats_start(&specs, g, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    seats_stop(&specs);
    if (specs.seat[0].human || specs.seat[1].human) {
        rc = cli_error("sprt is for AI players only");
        goto done;
    }
    if (match_starts_init(&starts, g, s, o.position != NULL, o.seed, o.openings, &err) !=
        STATUS_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    starts_made = true;
    games_max -= games_max % 2;
    games = calloc((size_t)games_max, sizeof *games);
    t.finished = calloc((size_t)games_max, 1);
    if (games == NULL || t.finished == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    t.games = games;
    sprt_pentanomial(&t.cfg, t.pairs, &t.state);
    printf("sprt %s: test %s against base %s, elo0 %g elo1 %g, alpha %g beta %g, bounds "
           "(%.2f, %.2f); starts: %s\n",
           g->ops->name, test, base, t.cfg.elo0, t.cfg.elo1, t.cfg.alpha, t.cfg.beta,
           t.state.lower, t.state.upper, match_starts_kind(&starts));
    fflush(stdout);
    // Outside engines get the limits and their options in their `go` and setoption
    // lines; the built-in agents took the limits from seats_parse.
    MatchRunner runner = {.game = g, .specs = &specs, .starts = &starts, .seed = o.seed,
                          .limits = lim};
    EngineOption options[2][SPRT_ENGINE_OPTIONS];
    for (int k = 0; k < 2; k++) {
        cli_engine_options_for(&o, k, options[k], SPRT_ENGINE_OPTIONS,
                               &runner.n_engine_options[k]);
        runner.engine_options[k] = options[k];
    }
    const int played = match_run(&runner, games, (int)games_max, (int)o.jobs, pair_done, &t);
    if (t.failed)
        rc = cli_error("a game failed: the test stops");
    else if (t.state.decision == SPRT_ACCEPT_H1)
        printf("H1 accepted: %s is at least %g Elo stronger than %s (LLR %.2f >= %.2f)\n", test,
               t.cfg.elo1, base, t.state.llr, t.state.upper);
    else if (t.state.decision == SPRT_ACCEPT_H0)
        printf("H0 accepted: %s is not %g Elo stronger than %s (LLR %.2f <= %.2f)\n", test,
               t.cfg.elo1, base, t.state.llr, t.state.lower);
    else
        printf("no decision after %d games (LLR %.2f, bounds %.2f and %.2f)\n",
               2 * t.pairs_done, t.state.llr, t.state.lower, t.state.upper);
    printf("%d distinct games of %d played\n", match_distinct_games(games, played), played);
done:
    free(t.finished);
    free(games);
    if (starts_made)
        match_starts_free(&starts);
    free(s);
    game_destroy(g);
    return rc;
}
