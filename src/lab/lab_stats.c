/*
 * lab_stats.c - Wilson intervals, z-tests and the Bradley-Terry ladder of a study.
 *
 * Wilson rather than the normal interval because study rates sit near 0 and 1 (draw
 * rates, end reasons that hardly happen) where the normal one leaves [0, 1]. The ladder
 * is fitted by Newton's method on the log-likelihood; with at most ten levels the linear
 * systems are tiny, so plain Gaussian elimination does.
 */
#include "lab/lab_stats.h"

#include <math.h>
#include <string.h>

enum { LAB_MAX_LEVELS = 16 };

static const double Z95 = 1.959963984540054;

LabRate lab_wilson(long k, long n)
{
    if (n <= 0)
        return (LabRate){0, 0, 1};
    const double p = (double)k / (double)n, z2 = Z95 * Z95, nn = (double)n;
    const double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    const double half = Z95 * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn)) / (1 + z2 / nn);
    LabRate r = {p, centre - half, centre + half};
    // Rounding must not put the rate outside its own interval at 0 or 1.
    if (r.lo > p || k == 0)
        r.lo = k == 0 ? 0 : p;
    if (r.hi < p || k == n)
        r.hi = k == n ? 1 : p;
    return r;
}

static double two_sided_p(double z)
{
    return erfc(fabs(z) / sqrt(2.0));
}

double lab_two_proportion_p(long k1, long n1, long k2, long n2)
{
    if (n1 <= 0 || n2 <= 0)
        return 1;
    const double p = (double)(k1 + k2) / (double)(n1 + n2);
    const double se = sqrt(p * (1 - p) * (1.0 / (double)n1 + 1.0 / (double)n2));
    if (se <= 0)
        return 1;
    return two_sided_p(((double)k1 / (double)n1 - (double)k2 / (double)n2) / se);
}

double lab_mean_difference_p(double mean1, double var1, long n1, double mean2, double var2,
                             long n2)
{
    if (n1 <= 0 || n2 <= 0)
        return 1;
    const double se = sqrt(var1 / (double)n1 + var2 / (double)n2);
    if (se <= 0)
        return mean1 == mean2 ? 1 : 0;
    return two_sided_p((mean1 - mean2) / se);
}

double lab_quantile(const double *sorted, long n, double q)
{
    if (n <= 0)
        return 0;
    const double h = (double)(n - 1) * q;
    const long lo = (long)floor(h);
    if (lo >= n - 1)
        return sorted[n - 1];
    return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/* Solves a x = b for the m x m matrix a (row-major), destroying a and b. False when the
 * matrix is singular. */
static bool solve(int m, double *a, double *b, double *x)
{
    for (int c = 0; c < m; c++) {
        int piv = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(a[r * m + c]) > fabs(a[piv * m + c]))
                piv = r;
        if (fabs(a[piv * m + c]) < 1e-12)
            return false;
        if (piv != c) {
            for (int k = 0; k < m; k++) {
                const double t = a[c * m + k];
                a[c * m + k] = a[piv * m + k];
                a[piv * m + k] = t;
            }
            const double t = b[c];
            b[c] = b[piv];
            b[piv] = t;
        }
        for (int r = c + 1; r < m; r++) {
            const double f = a[r * m + c] / a[c * m + c];
            for (int k = c; k < m; k++)
                a[r * m + k] -= f * a[c * m + k];
            b[r] -= f * b[c];
        }
    }
    for (int r = m - 1; r >= 0; r--) {
        double s = b[r];
        for (int k = r + 1; k < m; k++)
            s -= a[r * m + k] * x[k];
        x[r] = s / a[r * m + r];
    }
    return true;
}

/* The information matrix (negative Hessian) over levels 1..n-1 and the gradient of the
 * log-likelihood at elo, with the virtual draws added. */
static void information(int n, const double *points, const double *games, const double *elo,
                        double *info, double *grad)
{
    const double c = log(10.0) / 400.0;
    const int m = n - 1;
    memset(info, 0, sizeof(double) * (size_t)(m * m));
    memset(grad, 0, sizeof(double) * (size_t)m);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j || games[i * n + j] <= 0)
                continue;
            const double ng = games[i * n + j] + 1, w = points[i * n + j] + 0.5;
            const double p = 1 / (1 + pow(10, (elo[j] - elo[i]) / 400));
            const double h = c * c * ng * p * (1 - p);
            if (i > 0) {
                grad[i - 1] += c * (w - ng * p);
                info[(i - 1) * m + (i - 1)] += h;
                if (j > 0)
                    info[(i - 1) * m + (j - 1)] -= h;
            }
        }
}

bool lab_elo_fit(int n, const double *points, const double *games, double *elo,
                 double *margin)
{
    for (int i = 0; i < n; i++)
        elo[i] = margin[i] = 0;
    if (n < 2 || n > LAB_MAX_LEVELS)
        return n == 1;
    const int m = n - 1;
    double info[LAB_MAX_LEVELS * LAB_MAX_LEVELS], grad[LAB_MAX_LEVELS], step[LAB_MAX_LEVELS];
    for (int iter = 0; iter < 100; iter++) {
        information(n, points, games, elo, info, grad);
        if (!solve(m, info, grad, step)) {
            for (int i = 0; i < n; i++)
                elo[i] = 0;
            return false;
        }
        double biggest = 0;
        for (int i = 0; i < m; i++) {
            // Damped: far from the optimum a full step can overshoot the flat tails.
            const double s = step[i] > 400 ? 400 : step[i] < -400 ? -400 : step[i];
            elo[i + 1] += s;
            biggest = fmax(biggest, fabs(s));
        }
        if (biggest < 1e-7)
            break;
    }
    information(n, points, games, elo, info, grad);
    for (int i = 0; i < m; i++) {
        double a[LAB_MAX_LEVELS * LAB_MAX_LEVELS], e[LAB_MAX_LEVELS], col[LAB_MAX_LEVELS];
        memcpy(a, info, sizeof(double) * (size_t)(m * m));
        for (int k = 0; k < m; k++)
            e[k] = k == i;
        if (!solve(m, a, e, col))
            return false;
        margin[i + 1] = Z95 * sqrt(col[i]);
    }
    return true;
}
