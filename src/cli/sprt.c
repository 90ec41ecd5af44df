/*
 * sprt.c - the GSPRT's log-likelihood ratio, bounds and Elo estimate (sprt.h).
 */
#include "cli/sprt.h"

#include <math.h>
#include <stdio.h>

enum { SPRT_MAX_OUTCOMES = 8 };

static double logistic_score(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

/* The Elo difference of a mean score, kept finite at 0 and 1. */
static double score_elo(double s)
{
    const double eps = 1e-6;
    if (s < eps)
        s = eps;
    if (s > 1 - eps)
        s = 1 - eps;
    return -400.0 * log10(1.0 / s - 1.0);
}

int sprt_config_check(const SprtConfig *c, char *msg, int cap)
{
    if (!(c->elo0 < c->elo1)) {
        snprintf(msg, (size_t)cap, "--elo0 (%g) must be below --elo1 (%g)", c->elo0, c->elo1);
        return -1;
    }
    if (!(c->alpha > 0 && c->alpha < 0.5) || !(c->beta > 0 && c->beta < 0.5)) {
        snprintf(msg, (size_t)cap, "--alpha and --beta are error rates between 0 and 0.5");
        return -1;
    }
    return 0;
}

/* The distribution closest to the observed one (most likely to have produced the
 * results) among those whose mean is s: q_i = p_i / (1 + theta (x_i - s)), theta the
 * root of sum p_i (x_i - s) / (1 + theta (x_i - s)) = 0, a decreasing function on the
 * interval where every q_i stays positive, found by bisection. */
static void closest_with_mean(const double *x, const double *p, int k, double s, double *q)
{
    double xmin = x[0], xmax = x[0];
    for (int i = 1; i < k; i++) {
        xmin = x[i] < xmin ? x[i] : xmin;
        xmax = x[i] > xmax ? x[i] : xmax;
    }
    double lo = -1.0 / (xmax - s), hi = 1.0 / (s - xmin);
    for (int iter = 0; iter < 200; iter++) {
        const double theta = (lo + hi) / 2;
        double f = 0;
        for (int i = 0; i < k; i++)
            f += p[i] * (x[i] - s) / (1 + theta * (x[i] - s));
        if (f > 0)
            lo = theta;
        else
            hi = theta;
    }
    const double theta = (lo + hi) / 2;
    for (int i = 0; i < k; i++)
        q[i] = p[i] / (1 + theta * (x[i] - s));
}

void sprt_compute(const SprtConfig *c, const double *values, const long *counts, int k,
                  SprtState *out)
{
    double n = 0, w[SPRT_MAX_OUTCOMES], p[SPRT_MAX_OUTCOMES];
    long real = 0;
    if (k > SPRT_MAX_OUTCOMES)
        k = SPRT_MAX_OUTCOMES;
    for (int i = 0; i < k; i++) {
        w[i] = counts[i] > 0 ? (double)counts[i] : 1e-3;
        n += w[i];
        real += counts[i];
    }
    double mu = 0, var = 0;
    for (int i = 0; i < k; i++)
        p[i] = w[i] / n;
    for (int i = 0; i < k; i++)
        mu += values[i] * p[i];
    for (int i = 0; i < k; i++)
        var += p[i] * (values[i] - mu) * (values[i] - mu);
    out->lower = log(c->beta / (1 - c->alpha));
    out->upper = log((1 - c->beta) / c->alpha);
    out->llr = 0;
    if (real > 0) {
        double q0[SPRT_MAX_OUTCOMES], q1[SPRT_MAX_OUTCOMES];
        closest_with_mean(values, p, k, logistic_score(c->elo0), q0);
        closest_with_mean(values, p, k, logistic_score(c->elo1), q1);
        for (int i = 0; i < k; i++)
            out->llr += w[i] * log(q1[i] / q0[i]);
    }
    // The score and its 95% interval from the results themselves, as Elo.
    out->score = mu;
    const double margin = 1.959964 * sqrt(var / n);
    out->elo = score_elo(mu);
    out->elo_low = score_elo(mu - margin);
    out->elo_high = score_elo(mu + margin);
    out->decision = out->llr >= out->upper   ? SPRT_ACCEPT_H1
                    : out->llr <= out->lower ? SPRT_ACCEPT_H0
                                             : SPRT_CONTINUE;
}

void sprt_trinomial(const SprtConfig *c, long wins, long draws, long losses, SprtState *out)
{
    static const double values[3] = {0, 0.5, 1};
    const long counts[3] = {losses, draws, wins};
    sprt_compute(c, values, counts, 3, out);
}

void sprt_pentanomial(const SprtConfig *c, const long pairs[5], SprtState *out)
{
    static const double values[5] = {0, 0.25, 0.5, 0.75, 1};
    sprt_compute(c, values, pairs, 5, out);
}
