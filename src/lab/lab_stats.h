/*
 * lab_stats.h - the statistics of a self-play study: rates with 95% Wilson intervals,
 * tests of a difference between two rule sets, quantiles of game lengths, and an Elo
 * ladder fitted to the results of several levels against each other.
 */
#ifndef CROWN_LAB_STATS_H
#define CROWN_LAB_STATS_H

#include <stdbool.h>

typedef struct LabRate {
    double rate, lo, hi; /* k / n and its 95% Wilson score interval; 0, 0, 1 when n = 0 */
} LabRate;

LabRate lab_wilson(long k, long n);

/* Two-sided p-value of the pooled two-proportion z-test of k1/n1 against k2/n2; 1 when
 * the test has nothing to go on (an empty sample, or both rates 0 or both 1). */
double lab_two_proportion_p(long k1, long n1, long k2, long n2);

/* Two-sided p-value of the difference of two means (Welch's statistic, read against the
 * normal distribution, which the sample sizes of a study make close enough). */
double lab_mean_difference_p(double mean1, double var1, long n1, double mean2, double var2,
                             long n2);

/* The q-quantile (0..1) of n sorted values, linearly interpolated (Hyndman-Fan type 7). */
double lab_quantile(const double *sorted, long n, double q);

/* Elo ratings of n levels from their games against each other: points[i * n + j] is what
 * level i scored against level j (a draw is half a point), games[i * n + j] how many
 * games they played. The ratings maximise the Bradley-Terry likelihood with level 0 at
 * 0; one virtual draw between each pair that played keeps a pair that always went one
 * way finite. margin[i] is the half-width of the 95% interval of elo[i] from the
 * inverse information (0 for the anchor). False, with every rating 0, when some level
 * played none of the others (directly or through others). */
bool lab_elo_fit(int n, const double *points, const double *games, double *elo,
                 double *margin);

#endif
