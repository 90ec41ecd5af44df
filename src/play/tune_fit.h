/*
 * tune_fit.h - Texel-style tuning of a game's evaluation weights (GameOps
 * evaluate_weighted) on positions with results (tune_data.h): the predicted score of a
 * position is sigmoid(e) = 1 / (1 + 10^(-K e / 400)) of its evaluation e for the first
 * player; the error is the mean squared difference between prediction and result. K is
 * fitted first with the weights given, then the weights one at a time by coordinate
 * descent (a step up or down kept while it lowers the error, the step halved when no
 * weight moves) with K fixed. Everything is deterministic: the sums are taken in fixed
 * chunks in a fixed order, whatever the number of threads.
 *
 * The same data with a hint's search score per position (tune_data.h) fits the scale of
 * the web app's win chances (play/chances.h): the s of 1 / (1 + e^(-score / s)) with the
 * least squared error against the results.
 */
#ifndef CROWN_PLAY_TUNE_FIT_H
#define CROWN_PLAY_TUNE_FIT_H

#include <stdbool.h>

#include "core/strbuf.h"
#include "play/tune_data.h"

typedef struct TuneFit {
    const TuneData *data; /* its game has evaluate_weighted */
    int jobs;             /* threads for the error sums */
    int first_step;       /* the coordinate descent's first step; halved down to 1 */
    int max_passes;       /* passes over every weight at most */
    const bool *active;   /* per weight: tuned (true) or kept as given; NULL = every one */
    /* After each pass: a progress line ("pass 3, step 4: error 0.0812 ...") and the
     * weights so far, so that a long fit can be stopped and still give them; may be NULL. */
    void (*progress)(void *ctx, const char *line, const int *w, double error);
    void *ctx;
} TuneFit;

/* Whether g can be tuned; an error saying why not otherwise. */
Status tune_check_game(const Game *g, ErrBuf *err);

/* The mean squared error of the weights w (eval_weight_count of them) at scale k. */
double tune_error(const TuneFit *f, const int *w, double k);

/* The K that minimises the error of weights w (golden-section search on log K). */
double tune_fit_scale(const TuneFit *f, const int *w);

/* The mean squared error of the chances 1 / (1 + e^(-score / s)) of d's scores against
 * its results (d's positions all scored), and their mean log-loss in *log_loss unless
 * it is NULL. */
double tune_chance_error(const TuneData *d, double s, double *log_loss);

/* The s in 1 .. 10^6 that minimises tune_chance_error (golden sections on log s). The
 * squared error rather than the log-loss, which a few positions judged won by far
 * and then lost would rule (King's Guard's "the king is taken next" of 30000). */
double tune_fit_chance_scale(const TuneData *d);

/* Tunes w (in and out) at scale k by coordinate descent; returns the final error. */
double tune_fit_weights(const TuneFit *f, int *w, double k);

/* Appends w as a C table the game's evaluation includes: a comment saying it is
 * generated (with `note`, a line on how), then one `WEIGHT(name, value)` a line. */
void tune_write_table(const Game *g, const int *w, const char *note, StrBuf *out);

#endif
