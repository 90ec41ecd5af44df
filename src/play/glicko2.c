/*
 * glicko2.c - the steps of Glickman's "Example of the Glicko-2 system" (2013): scale
 * down, the estimated variance v and improvement delta, the new volatility by the
 * Illinois variant of regula falsi on f(x), the pre-period deviation, then the new
 * deviation and rating, scaled back. The paper's worked example is the unit test.
 */
#include "play/glicko2.h"

#include <math.h>
#include <stddef.h>

/* The Glicko-2 scale: 173.7178 = 400 / ln(10). */
#define SCALE 173.7178
/* The volatility iteration's convergence tolerance, as in the paper. */
#define EPSILON 0.000001

static const double PI = 3.14159265358979323846;

Glicko2 glicko2_new(void)
{
    return (Glicko2){GLICKO2_RATING, GLICKO2_RD, GLICKO2_VOLATILITY};
}

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI));
}

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* The function whose root is ln(sigma'^2) (step 5 of the paper). */
typedef struct VolatilityFn {
    double delta2, phi2, v, a, tau2;
} VolatilityFn;

static double vol_f(const VolatilityFn *fn, double x)
{
    const double ex = exp(x);
    const double d = fn->phi2 + fn->v + ex;
    return ex * (fn->delta2 - fn->phi2 - fn->v - ex) / (2.0 * d * d) - (x - fn->a) / fn->tau2;
}

static double new_volatility(double sigma, double phi, double v, double delta, double tau)
{
    const VolatilityFn fn = {delta * delta, phi * phi, v, log(sigma * sigma), tau * tau};
    double a = fn.a, b;
    if (fn.delta2 > fn.phi2 + v) {
        b = log(fn.delta2 - fn.phi2 - v);
    } else {
        // f falls from a towards minus infinity, so a step of tau at a time brackets
        // the root; the bound keeps a pathological input from looping for long.
        int k = 1;
        while (vol_f(&fn, fn.a - k * tau) < 0 && k < 1000)
            k++;
        b = fn.a - k * tau;
    }
    double fa = vol_f(&fn, a), fb = vol_f(&fn, b);
    for (int i = 0; i < 200 && fabs(b - a) > EPSILON; i++) {
        const double c = a + (a - b) * fa / (fb - fa);
        const double fc = vol_f(&fn, c);
        if (fc * fb <= 0) {
            a = b;
            fa = fb;
        } else {
            fa /= 2; // the Illinois step: keeps the stale end from stalling the iteration
        }
        b = c;
        fb = fc;
    }
    return exp(a / 2);
}

static Status check_rating(const char *who, double rating, double rd, ErrBuf *err)
{
    if (!isfinite(rating) || rating < -10000 || rating > 10000)
        return err_set(err, STATUS_UNSUPPORTED, "%s rating must be a number from -10000 to 10000",
                       who);
    if (!isfinite(rd) || rd <= 0 || rd > 10000)
        return err_set(err, STATUS_UNSUPPORTED,
                       "%s rating deviation must be above 0 and at most 10000", who);
    return STATUS_OK;
}

Status glicko2_update(const Glicko2 *player, const Glicko2Game *games, int n, double tau,
                      Glicko2 *out, ErrBuf *err)
{
    Status s = check_rating("the player's", player->rating, player->rd, err);
    if (s != STATUS_OK)
        return s;
    if (!isfinite(player->volatility) || player->volatility <= 0 || player->volatility > 1)
        return err_set(err, STATUS_UNSUPPORTED, "the volatility must be above 0 and at most 1");
    if (!isfinite(tau) || tau <= 0 || tau > 10)
        return err_set(err, STATUS_UNSUPPORTED, "tau must be above 0 and at most 10");
    if (n < 0 || (n > 0 && games == NULL))
        return err_set(err, STATUS_UNSUPPORTED, "no games given");
    for (int j = 0; j < n; j++) {
        s = check_rating("an opponent's", games[j].opponent_rating, games[j].opponent_rd, err);
        if (s != STATUS_OK)
            return s;
        if (!(games[j].score >= 0 && games[j].score <= 1))
            return err_set(err, STATUS_UNSUPPORTED, "a score must be from 0 to 1");
    }
    const double mu = (player->rating - GLICKO2_RATING) / SCALE;
    const double phi = player->rd / SCALE;
    const double sigma = player->volatility;
    if (n == 0) {
        // A period without games: only the deviation changes (step 6 alone).
        *out = (Glicko2){player->rating, SCALE * sqrt(phi * phi + sigma * sigma), sigma};
        return STATUS_OK;
    }
    double v_inv = 0, sum = 0;
    for (int j = 0; j < n; j++) {
        const double mu_j = (games[j].opponent_rating - GLICKO2_RATING) / SCALE;
        const double phi_j = games[j].opponent_rd / SCALE;
        const double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        v_inv += g * g * e * (1 - e);
        sum += g * (games[j].score - e);
    }
    const double v = 1.0 / v_inv;
    const double sigma_new = new_volatility(sigma, phi, v, v * sum, tau);
    const double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    const double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new = mu + phi_new * phi_new * sum;
    *out = (Glicko2){SCALE * mu_new + GLICKO2_RATING, SCALE * phi_new, sigma_new};
    return STATUS_OK;
}

Status glicko2_game(const Glicko2 *a, const Glicko2 *b, double score_a, double tau,
                    Glicko2 *a_out, Glicko2 *b_out, ErrBuf *err)
{
    const Glicko2Game ga = {b->rating, b->rd, score_a};
    const Glicko2Game gb = {a->rating, a->rd, 1 - score_a};
    Glicko2 na, nb;
    Status s = glicko2_update(a, &ga, 1, tau, &na, err);
    if (s == STATUS_OK)
        s = glicko2_update(b, &gb, 1, tau, &nb, err);
    if (s != STATUS_OK)
        return s;
    *a_out = na;
    *b_out = nb;
    return STATUS_OK;
}

void glicko2_idle(Glicko2 *r, double periods)
{
    if (!(periods > 0) || !isfinite(periods))
        return;
    const double phi = r->rd / SCALE;
    const double grown = SCALE * sqrt(phi * phi + periods * r->volatility * r->volatility);
    r->rd = grown < GLICKO2_RD ? grown : GLICKO2_RD;
}

bool glicko2_provisional(const Glicko2 *r)
{
    return r->rd > GLICKO2_PROVISIONAL_RD;
}
