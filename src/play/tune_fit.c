/*
 * tune_fit.c - the fit of crown tune (tune_fit.h). The error is a sum over every position
 * for each trial value of one weight, so it is the whole cost: it is summed in chunks of
 * CHUNK positions on the play pool's threads and the chunks added in order, which keeps
 * the result the same for any number of threads.
 */
#include "play/tune_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/pool.h"

enum { CHUNK = 2048 };

typedef struct Sum {
    const TuneFit *f;
    const int *w;
    double k;
    double *chunk; /* per chunk: its sum of squared errors */
} Sum;

Status tune_check_game(const Game *g, ErrBuf *err)
{
    const GameOps *ops = g->ops;
    if (ops->evaluate_weighted == NULL || ops->eval_weight_count <= 0)
        return err_set(err, STATUS_UNSUPPORTED,
                       "%s has no evaluation weights to tune (GameOps.evaluate_weighted)",
                       ops->name);
    if (g->players != 2 || !(ops->flags & GAME_ZERO_SUM))
        return err_set(err, STATUS_UNSUPPORTED, "tuning needs a two-player zero-sum game");
    return STATUS_OK;
}

static double sigmoid(double k, int e)
{
    return 1.0 / (1.0 + pow(10.0, -k * e / 400.0));
}

static void sum_chunk(void *ctx, void *thread, long index)
{
    (void)thread;
    Sum *s = ctx;
    const TuneData *d = s->f->data;
    const Game *g = d->game;
    const long end = (index + 1) * CHUNK < d->count ? (index + 1) * CHUNK : d->count;
    double sum = 0;
    for (long i = index * CHUNK; i < end; i++) {
        const GameState *st = tune_data_state(d, i);
        const int e = g->ops->evaluate_weighted(g, st, s->w);
        const int first = g->ops->to_move(g, st) == 0 ? e : -e;
        const double diff = d->result[i] - sigmoid(s->k, first);
        sum += diff * diff;
    }
    s->chunk[index] = sum;
}

double tune_error(const TuneFit *f, const int *w, double k)
{
    const long n = f->data->count;
    if (n == 0)
        return 0;
    const long chunks = (n + CHUNK - 1) / CHUNK;
    double *chunk = calloc((size_t)chunks, sizeof *chunk);
    if (chunk == NULL)
        return HUGE_VAL;
    Sum s = {.f = f, .w = w, .k = k, .chunk = chunk};
    const PlayPool pool = {.count = chunks, .jobs = f->jobs > 0 ? f->jobs : 1, .ctx = &s,
                           .play = sum_chunk};
    play_pool_run(&pool);
    double total = 0;
    for (long i = 0; i < chunks; i++)
        total += chunk[i];
    free(chunk);
    return total / (double)n;
}

/* The x in [lo, hi] that minimises f, by 40 golden sections (f unimodal there). */
static double golden_min(double lo, double hi, double (*f)(const void *ctx, double x),
                         const void *ctx)
{
    const double phi = (sqrt(5.0) - 1) / 2;
    double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
    double fa = f(ctx, a), fb = f(ctx, b);
    for (int i = 0; i < 40; i++) {
        if (fa <= fb) {
            hi = b, b = a, fb = fa;
            a = hi - phi * (hi - lo);
            fa = f(ctx, a);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + phi * (hi - lo);
            fb = f(ctx, b);
        }
    }
    return (lo + hi) / 2;
}

typedef struct ScaleTrial {
    const TuneFit *f;
    const int *w;
} ScaleTrial;

static double error_at_log_k(const void *ctx, double log_k)
{
    const ScaleTrial *t = ctx;
    return tune_error(t->f, t->w, pow(10, log_k));
}

double tune_fit_scale(const TuneFit *f, const int *w)
{
    // The error is unimodal in K in practice; on log10 K in [-3, 1].
    const ScaleTrial t = {f, w};
    return pow(10, golden_min(-3, 1, error_at_log_k, &t));
}

double tune_chance_error(const TuneData *d, double s, double *log_loss)
{
    double squares = 0, logs = 0;
    for (long i = 0; i < d->count; i++) {
        const double x = d->score[i] / s, y = d->result[i];
        const double diff = y - 1.0 / (1.0 + exp(-x));
        squares += diff * diff;
        // -[y log p + (1 - y) log(1 - p)] with p = 1 / (1 + e^-x) is log(1 + e^x) - y x,
        // written so that e^x never overflows.
        logs += (x > 0 ? x + log1p(exp(-x)) : log1p(exp(x))) - y * x;
    }
    const double n = d->count > 0 ? (double)d->count : 1;
    if (log_loss != NULL)
        *log_loss = logs / n;
    return squares / n;
}

static double error_at_log_s(const void *ctx, double log_s)
{
    return tune_chance_error(ctx, pow(10, log_s), NULL);
}

double tune_fit_chance_scale(const TuneData *d)
{
    // From 1 to a million centi-units: every evaluation's sensible scales.
    return pow(10, golden_min(0, 6, error_at_log_s, d));
}

/* Moves weight i by +step or -step as long as that lowers *best; whether it moved. */
static bool descend(const TuneFit *f, int *w, int i, int step, double k, double *best)
{
    const int old = w[i];
    for (int dir = 1; dir >= -1; dir -= 2) {
        bool moved = false;
        for (;;) {
            w[i] += dir * step;
            const double e = tune_error(f, w, k);
            if (e >= *best) {
                w[i] -= dir * step;
                break;
            }
            *best = e;
            moved = true;
        }
        if (moved)
            return true;
    }
    return w[i] != old;
}

double tune_fit_weights(const TuneFit *f, int *w, double k)
{
    const int n = f->data->game->ops->eval_weight_count;
    double best = tune_error(f, w, k);
    int step = f->first_step > 0 ? f->first_step : 1;
    for (int pass = 1; pass <= f->max_passes; pass++) {
        int moved = 0;
        for (int i = 0; i < n; i++)
            if (f->active == NULL || f->active[i])
                moved += descend(f, w, i, step, k, &best);
        if (f->progress) {
            char line[160];
            snprintf(line, sizeof line, "pass %d, step %d: error %.6f, %d weights moved", pass,
                     step, best, moved);
            f->progress(f->ctx, line, w, best);
        }
        if (moved == 0) {
            if (step == 1)
                break;
            step /= 2;
        }
    }
    return best;
}

void tune_write_table(const Game *g, const int *w, const char *note, StrBuf *out)
{
    const GameOps *ops = g->ops;
    sb_printf(out,
              "/*\n"
              " * GENERATED by crown tune: the weights of the %s evaluation, one\n"
              " * WEIGHT(name, value) a line, for the evaluation to expand. Do not edit by\n"
              " * hand; rerun crown tune (docs/STRENGTH.md).\n",
              ops->name);
    if (note != NULL && note[0] != '\0')
        sb_printf(out, " * %s\n", note);
    sb_puts(out, " */\n");
    for (int i = 0; i < ops->eval_weight_count; i++)
        sb_printf(out, "WEIGHT(%s, %d)\n", ops->eval_weight_names[i], w[i]);
}
