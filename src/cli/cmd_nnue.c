/*
 * cmd_nnue.c - `crown nnue GAME`: the evaluation network's side of training and testing.
 *
 *   crown nnue GAME --features DATA --out FILE   the positions of a crown tune file as
 *                                                the net's input features, for the trainer
 *   crown nnue GAME --eval DATA [--net FILE] [--kernel portable|avx2]
 *                                                each position's value by the net (built
 *                                                in, or FILE) and by the hand evaluation
 *
 * The features come from the game's own hook, so the trainer (tools/nnue) never
 * decodes a position itself; --eval is what the trainer's quantised model is checked
 * against, bit for bit (tests/python/test_nnue.py, docs/TRAINING.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/game_api.h"
#include "play/tune_data.h"
#include "search/nnue.h"

typedef struct NnueArgs {
    const char *features, *eval, *net, *kernel;
} NnueArgs;

static bool take_flag(void *ctx, int which, const char *flag, const char *value)
{
    (void)flag;
    NnueArgs *a = ctx;
    const char **slot[] = {&a->features, &a->eval, &a->net, &a->kernel};
    *slot[which] = value;
    return true;
}

static void put_features(const Game *g, const GameState *s, int perspective, FILE *f)
{
    uint16_t feat[NNUE_MAX_ACTIVE];
    const int n = g->ops->nnue_features(g, s, perspective, feat, NNUE_MAX_ACTIVE);
    fputc('\t', f);
    for (int i = 0; i < n; i++)
        fprintf(f, i ? " %u" : "%u", (unsigned)feat[i]);
}

/* One line a position: the first player's result, its score (empty without one), the
 * player to move (0 or 1), then the features as each player sees them. */
static int write_features(const Game *g, const TuneData *d, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return cli_error("cannot write %s", path);
    fprintf(f, "# crown nnue features\tgame %s\tset %s\tinputs %d\n", g->ops->name,
            g->ops->nnue_feature_set, g->ops->nnue_feature_count);
    for (long i = 0; i < d->count; i++) {
        const GameState *s = tune_data_state(d, i);
        fprintf(f, "%g\t", d->result[i]);
        if (d->score[i] != 0 || d->scored == d->count)
            fprintf(f, "%d", d->score[i]);
        fprintf(f, "\t%d", g->ops->to_move(g, s) == 1 ? 1 : 0);
        put_features(g, s, 0, f);
        put_features(g, s, 1, f);
        fputc('\n', f);
    }
    const bool failed = ferror(f) != 0;
    if (fclose(f) != 0 || failed)
        return cli_error("cannot write %s", path);
    printf("%ld positions of %s as features (%s, %d inputs) written to %s\n", d->count,
           g->ops->name, g->ops->nnue_feature_set, g->ops->nnue_feature_count, path);
    return 0;
}

static int print_evals(const Game *g, const TuneData *d, const NnueArgs *a)
{
    Nnue *net;
    ErrBuf err;
    const Status st = a->net != NULL ? nnue_load_file(g, a->net, NULL, &net, &err)
                                     : nnue_load_builtin(g, NULL, &net, &err);
    if (st != STATUS_OK)
        return cli_error("%s", err.msg);
    NnueKernel k = NNUE_KERNEL_AUTO;
    if (a->kernel != NULL && strcmp(a->kernel, "portable") == 0)
        k = NNUE_KERNEL_PORTABLE;
    else if (a->kernel != NULL && strcmp(a->kernel, "avx2") == 0)
        k = NNUE_KERNEL_AVX2;
    else if (a->kernel != NULL) {
        nnue_free(net);
        return cli_error("--kernel is portable or avx2, not '%s'", a->kernel);
    }
    if (nnue_set_kernel(net, k, &err) != STATUS_OK) {
        nnue_free(net);
        return cli_error("%s", err.msg);
    }
    printf("# nnue (%s kernel), classic: each for the player to move\n", nnue_kernel_name(net));
    for (long i = 0; i < d->count; i++) {
        const GameState *s = tune_data_state(d, i);
        const int classic = g->ops->evaluate_static != NULL ? g->ops->evaluate_static(g, s)
                                                            : g->ops->evaluate(g, s);
        printf("%d\t%d\n", nnue_evaluate(net, g, s), classic);
    }
    nnue_free(net);
    return 0;
}

int cmd_nnue(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown nnue GAME (--features DATA --out FILE | --eval DATA [--net FILE] "
        "[--kernel portable|avx2]) [--rule NAME=VALUE]...";
    static const char *const own[] = {"--features", "--eval", "--net", "--kernel"};
    NnueArgs a = {0};
    CliOptions o;
    const int parsed = cli_parse_own_options(argc, argv, own, (int)(sizeof own / sizeof own[0]),
                                             take_flag, &a, &o);
    if (parsed != 0)
        return parsed;
    if (o.n_positional != 1 || (a.features == NULL) == (a.eval == NULL))
        return cli_error("%s", usage), 2;
    if (a.features != NULL && o.out == NULL)
        return cli_error("--features needs --out FILE for the features"), 2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    free(s);
    int rc;
    TuneData d;
    tune_data_init(&d, g);
    ErrBuf err;
    if (!nnue_game_has_features(g))
        rc = cli_error("%s has no input features for an evaluation network", g->ops->name);
    else if (tune_data_load(&d, a.features != NULL ? a.features : a.eval, &err) != STATUS_OK)
        rc = cli_error("%s", err.msg);
    else if (a.features != NULL)
        rc = write_features(g, &d, o.out);
    else
        rc = print_evals(g, &d, &a);
    tune_data_free(&d);
    game_destroy(g);
    return rc;
}
