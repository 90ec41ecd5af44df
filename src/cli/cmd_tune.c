/*
 * cmd_tune.c - `crown tune GAME`: Texel-style tuning of a game's evaluation weights.
 *
 *   crown tune GAME                              the weights and their values
 *   crown tune GAME --generate N --out FILE      self-play games, quiet positions to FILE
 *   crown tune GAME --fit FILE [--write TABLE]   fit K, then the weights; print them
 *   crown tune GAME --write TABLE                the current weights as the C table
 *   crown tune GAME --generate N --out FILE --score-nodes M
 *                                                the same, each position with a hint's score
 *   crown tune GAME --fit-scale FILE             the win chances' scale for those scores
 *   ... --generate N --eval classic|nnue         both, with that evaluation (default: the
 *                                                game's)
 *
 * The work is the play layer's (play/tune_games.h, tune_data.h, tune_fit.h); this file
 * reads the options, writes the files and prints the progress.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/stop_signals.h"
#include "core/game_api.h"
#include "play/chances.h"
#include "play/tune_data.h"
#include "play/tune_fit.h"
#include "play/tune_games.h"

typedef struct TuneArgs {
    long generate; /* games, 0 when not generating */
    const char *fit;
    const char *fit_scale;
    const char *write;
    const char *only; /* --only: comma-separated name prefixes of the weights to tune */
    long random_plies, skip_plies, per_game, step, passes;
    long score_nodes; /* --score-nodes: a hint's search of each kept position, 0 = none */
    AgentEval eval;   /* --eval: the default players' and the scores' evaluation */
} TuneArgs;

typedef struct Writer {
    FILE *f;
    const char *path;
    long games, failed, positions, total;
    bool io_error, stopped;
    StopSignals *stop;
} Writer;

static bool game_done(void *ctx, long index, const char *lines, int positions,
                      const char *error)
{
    Writer *w = ctx;
    w->games++;
    if (error != NULL) {
        fprintf(stderr, "crown: game %ld: %s\n", index + 1, error);
        w->failed++;
    } else if (fputs(lines, w->f) == EOF) {
        w->io_error = true;
        return false;
    }
    w->positions += positions;
    if (w->games % 50 == 0 || w->games == w->total) {
        printf("games %ld/%ld, positions %ld\n", w->games, w->total, w->positions);
        fflush(stdout);
    }
    // Polled after a whole game, in the games' order: a stopped file holds games 1..N,
    // what --generate N writes.
    if (stop_signalled(w->stop)) {
        w->stopped = true;
        return false;
    }
    return true;
}

static int generate(const CliOptions *o, const TuneArgs *a, const Game *g)
{
    if (o->out == NULL)
        return cli_error("--generate needs --out FILE for the positions"), 2;
    if (g->players != 2)
        return cli_error("tuning needs a two-player game; %s is played by %d", g->ops->name,
                         g->players);
    // --eval names the evaluation of the default players and of the scores: a net's data
    // are remade as they were made, whatever the game's default has become since.
    char players[128];
    if (o->players != NULL)
        snprintf(players, sizeof players, "%s", o->players);
    else if (a->eval == AGENT_EVAL_DEFAULT)
        snprintf(players, sizeof players, "ai,ai");
    else
        snprintf(players, sizeof players, "ai/%s,ai/%s", agent_eval_name(a->eval),
                 agent_eval_name(a->eval));
    FILE *f = fopen(o->out, "w");
    if (f == NULL)
        return cli_error("cannot write '%s': %s", o->out, strerror(errno));
    StrBuf head;
    sb_init(&head);
    tune_data_header(g, &head);
    fputs(sb_str(&head), f);
    sb_free(&head);
    StopSignals stop;
    Writer w = {.f = f, .path = o->out, .total = a->generate, .stop = &stop};
    const TuneGames t = {.game = g, .games = a->generate, .seed = o->seed, .players = players,
                         .limits = cli_search_limits(o), .random_plies = (int)a->random_plies,
                         .skip_plies = (int)a->skip_plies, .per_game = (int)a->per_game,
                         .jobs = (int)o->jobs,
                         .score_limits = {.nodes = (uint64_t)a->score_nodes},
                         .score_eval = a->eval,
                         .game_done = game_done, .ctx = &w};
    // A Ctrl-C or SIGTERM ends the run after a whole game, the file kept (a long data
    // run is stopped so, and its file is then --generate N's for the N it says).
    stop_signals_block(&stop);
    tune_games_run(&t);
    stop_signals_restore(&stop);
    const bool closed = fclose(f) == 0;
    if (w.io_error || !closed)
        return cli_error("cannot write '%s': %s", o->out, strerror(errno));
    if (w.stopped)
        printf("stopped: the first %ld games, as --generate %ld writes them\n", w.games, w.games);
    printf("%ld positions of %ld games (%ld failed) written to %s\n", w.positions, w.games,
           w.failed, o->out);
    return w.failed == w.games && w.games > 0 ? 1 : 0;
}

static void print_weights(const Game *g, const int *w, const int *before)
{
    const GameOps *ops = g->ops;
    for (int i = 0; i < ops->eval_weight_count; i++) {
        if (before != NULL && before[i] != w[i])
            printf("  %-24s %6d  (was %d)\n", ops->eval_weight_names[i], w[i], before[i]);
        else
            printf("  %-24s %6d\n", ops->eval_weight_names[i], w[i]);
    }
}

static int write_table(const Game *g, const int *w, const char *path, const char *note)
{
    StrBuf out;
    sb_init(&out);
    tune_write_table(g, w, note, &out);
    FILE *f = fopen(path, "w");
    const bool ok = f != NULL && !sb_failed(&out) && fputs(sb_str(&out), f) != EOF;
    const int saved = errno;
    sb_free(&out);
    if (f != NULL && fclose(f) != 0 && ok)
        return cli_error("cannot write '%s': %s", path, strerror(errno));
    if (!ok)
        return cli_error("cannot write '%s': %s", path, strerror(saved));
    return 0;
}

typedef struct FitProgress {
    const Game *game;
    const char *write; /* the table to rewrite after each pass, or NULL */
    long positions;
    double error0, k;
} FitProgress;

static void progress(void *ctx, const char *line, const int *w, double error)
{
    const FitProgress *p = ctx;
    printf("%s\n", line);
    if (p->write != NULL) {
        char note[200];
        snprintf(note, sizeof note,
                 "Fitted on %ld positions: error %.6f before, %.6f after, K %.5f.", p->positions,
                 p->error0, error, p->k);
        write_table(p->game, w, p->write, note);
    }
    fflush(stdout);
}

/* Whether name starts with one of the comma-separated prefixes in list. */
static bool has_prefix(const char *list, const char *name)
{
    for (const char *p = list; *p;) {
        const size_t len = strcspn(p, ",");
        if (len > 0 && strncmp(name, p, len) == 0)
            return true;
        p += len + (p[len] == ',');
    }
    return false;
}

static int fit(const CliOptions *o, const TuneArgs *a, const Game *g)
{
    TuneData d;
    tune_data_init(&d, g);
    ErrBuf err;
    if (tune_data_load(&d, a->fit, &err) != STATUS_OK)
        return cli_error("%s", err.msg);
    if (d.count == 0) {
        tune_data_free(&d);
        return cli_error("%s holds no positions", a->fit);
    }
    const int n = g->ops->eval_weight_count;
    int *w = malloc((size_t)n * sizeof *w);
    int *before = malloc((size_t)n * sizeof *before);
    bool *active = malloc((size_t)n * sizeof *active);
    if (w == NULL || before == NULL || active == NULL) {
        free(w);
        free(before);
        free(active);
        tune_data_free(&d);
        return cli_error("out of memory");
    }
    memcpy(w, g->ops->eval_weight_defaults, (size_t)n * sizeof *w);
    int n_active = 0;
    for (int i = 0; i < n; i++) {
        active[i] = a->only == NULL || has_prefix(a->only, g->ops->eval_weight_names[i]);
        n_active += active[i];
    }
    if (n_active == 0) {
        free(w);
        free(before);
        free(active);
        tune_data_free(&d);
        return cli_error("--only %s names none of the weights (crown tune %s lists them)",
                         a->only, g->ops->name);
    }
    memcpy(before, w, (size_t)n * sizeof *w);
    FitProgress p = {.game = g, .write = a->write, .positions = d.count};
    const TuneFit f = {.data = &d, .jobs = (int)o->jobs, .first_step = (int)a->step,
                       .max_passes = (int)a->passes, .active = active, .progress = progress,
                       .ctx = &p};
    printf("%ld positions of %s, %d weights, %d tuned\n", d.count, g->ops->name, n, n_active);
    const double k = tune_fit_scale(&f, w);
    const double error0 = tune_error(&f, w, k);
    p.k = k;
    p.error0 = error0;
    printf("K %.5f: error %.6f with the current weights\n", k, error0);
    fflush(stdout);
    const double error1 = tune_fit_weights(&f, w, k);
    printf("error %.6f before, %.6f after (K %.5f, %ld positions)\n", error0, error1, k,
           d.count);
    print_weights(g, w, before);
    // With --write, the table was written after every pass, the last one included.
    const int rc = a->write != NULL && a->passes == 0 ? write_table(g, w, a->write, NULL) : 0;
    if (a->write != NULL && rc == 0)
        printf("weights written to %s\n", a->write);
    free(w);
    free(before);
    free(active);
    tune_data_free(&d);
    return rc;
}

static int fit_scale(const TuneArgs *a, const Game *g)
{
    TuneData d;
    tune_data_init(&d, g);
    ErrBuf err;
    if (tune_data_load(&d, a->fit_scale, &err) != STATUS_OK)
        return cli_error("%s", err.msg);
    int rc = 0;
    if (d.count == 0 || d.scored < d.count) {
        rc = cli_error("%s: %ld of its %ld positions have a score; generate them with "
                       "--score-nodes",
                       a->fit_scale, d.scored, d.count);
    } else {
        const double old = play_chance_scale(g->ops->name);
        const double s = tune_fit_chance_scale(&d);
        long won = 0, drawn = 0;
        for (long i = 0; i < d.count; i++)
            won += d.result[i] == 1, drawn += d.result[i] == 0.5;
        printf("%ld positions of %s (%ld won, %ld drawn, %ld lost for the first player)\n",
               d.count, g->ops->name, won, drawn, d.count - won - drawn);
        double loss;
        if (old > 0) {
            const double e = tune_chance_error(&d, old, &loss);
            printf("scale %.1f now: squared error %.5f, log-loss %.5f\n", old, e, loss);
        }
        const double e = tune_chance_error(&d, s, &loss);
        printf("scale %.1f fitted: squared error %.5f, log-loss %.5f\n", s, e, loss);
    }
    tune_data_free(&d);
    return rc;
}

static bool take_flag(void *ctx, int which, const char *flag, const char *value)
{
    TuneArgs *a = ctx;
    if (which == 0)
        return cli_read_number(flag, value, 1, 100000000, &a->generate);
    if (which == 1)
        a->fit = value;
    else if (which == 2)
        a->write = value;
    else if (which == 3)
        return cli_read_number(flag, value, 0, 1000, &a->random_plies);
    else if (which == 4)
        return cli_read_number(flag, value, 0, 100000, &a->skip_plies);
    else if (which == 5)
        return cli_read_number(flag, value, 1, 1 << 20, &a->step);
    else if (which == 6)
        return cli_read_number(flag, value, 0, 100000, &a->passes);
    else if (which == 7)
        return cli_read_number(flag, value, 0, 100000, &a->per_game);
    else if (which == 8)
        a->only = value;
    else if (which == 9)
        a->fit_scale = value;
    else if (which == 10)
        return cli_read_number(flag, value, 1, 1000000000, &a->score_nodes);
    else if (!agent_eval_parse(value, &a->eval))
        return cli_error("%s takes classic or nnue, not '%s'", flag, value), false;
    return true;
}

int cmd_tune(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown tune GAME [--generate N --out FILE [--players A,B] [--depth N | --nodes N "
        "| --movetime MS] [--random-plies N] [--skip-plies N] [--per-game N] [--seed S] "
        "[--jobs J] [--score-nodes N] [--eval classic|nnue]] [--fit-scale FILE] "
        "[--fit FILE [--only PREFIX,...] [--step N] [--passes N] [--jobs J]] [--write TABLE] [--rule NAME=VALUE]...";
    TuneArgs a = {.random_plies = 4, .skip_plies = 8, .per_game = 40, .step = 8, .passes = 30};
    static const char *const own[] = {"--generate",   "--fit",      "--write",  "--random-plies",
                                      "--skip-plies", "--step",     "--passes", "--per-game",
                                      "--only",       "--fit-scale", "--score-nodes",
                                      "--eval"};
    CliOptions o;
    const int parsed = cli_parse_own_options(argc, argv, own, (int)(sizeof own / sizeof own[0]),
                                             take_flag, &a, &o);
    if (parsed != 0)
        return parsed;
    if (o.n_positional != 1)
        return cli_error("%s", usage), 2;
    if ((a.generate > 0) + (a.fit != NULL) + (a.fit_scale != NULL) > 1)
        return cli_error("--generate, --fit and --fit-scale are separate steps: give one"), 2;
    if (a.score_nodes > 0 && a.generate == 0)
        return cli_error("--score-nodes goes with --generate"), 2;
    if (a.eval != AGENT_EVAL_DEFAULT && a.generate == 0)
        return cli_error("--eval goes with --generate"), 2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    free(s);
    int rc;
    ErrBuf err;
    // Scores and their curve need no weights; everything else tunes the weights.
    const bool scores = a.score_nodes > 0 || a.fit_scale != NULL;
    if ((scores ? tune_scores_check(g, &err) : tune_check_game(g, &err)) != STATUS_OK)
        rc = cli_error("%s", err.msg);
    else if (a.fit_scale != NULL)
        rc = fit_scale(&a, g);
    else if (a.generate > 0)
        rc = generate(&o, &a, g);
    else if (a.fit != NULL)
        rc = fit(&o, &a, g);
    else if (a.write != NULL) {
        rc = write_table(g, g->ops->eval_weight_defaults, a.write, NULL);
        if (rc == 0)
            printf("weights written to %s\n", a.write);
    } else {
        printf("%s: %d evaluation weights\n", g->ops->name, g->ops->eval_weight_count);
        print_weights(g, g->ops->eval_weight_defaults, NULL);
        rc = 0;
    }
    game_destroy(g);
    return rc;
}
