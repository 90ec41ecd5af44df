/*
 * match_stats.c - Elo from a score: elo(s) = -400 log10(1/s - 1). The margin maps the
 * 95% interval of the mean game score (normal approximation) through the same curve.
 */
#include "cli/match_stats.h"

#include <math.h>

static double elo_of(double s)
{
    if (s <= 0)
        return -(double)INFINITY;
    if (s >= 1)
        return (double)INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}

void match_stats_compute(MatchStats *m)
{
    const int n = m->wins + m->draws + m->losses;
    if (n == 0) {
        m->score = m->elo = m->elo_error = 0;
        return;
    }
    m->score = (m->wins + 0.5 * m->draws) / n;
    const double s = m->score;
    const double var = (m->wins * (1 - s) * (1 - s) + m->draws * (0.5 - s) * (0.5 - s) +
                        m->losses * s * s) /
                       n;
    const double se = sqrt(var / n);
    m->elo = elo_of(s);
    const double lo = elo_of(s - 1.96 * se), hi = elo_of(s + 1.96 * se);
    m->elo_error = (isfinite(lo) && isfinite(hi)) ? (hi - lo) / 2 : (double)INFINITY;
}
