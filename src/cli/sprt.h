/*
 * sprt.h - the sequential probability ratio test of engine testing (fishtest, OpenBench):
 * H0 "the test agent is elo0 stronger" against H1 "elo1 stronger", decided as results
 * come in: the generalised SPRT (GSPRT) with the logistic Elo model, as fishtest
 * computes it. The N results take values x_i (a game's score 0, 1/2, 1: trinomial; the
 * mean of a pair of games with seats swapped, 0 to 1 in quarters: pentanomial) with
 * observed frequencies p_i. For each hypothesis, s = 1 / (1 + 10^(-elo / 400)) is the
 * expected score and q the distribution of mean s most likely to give the results; the
 * log-likelihood ratio is LLR = sum N p_i log(q1_i / q0_i). H1 is accepted once
 * LLR >= log((1 - beta) / alpha), H0 once LLR <= log(beta / (1 - alpha)). The Elo
 * estimate is that of the mean score, its 95% interval from the results' variance.
 */
#ifndef CROWN_CLI_SPRT_H
#define CROWN_CLI_SPRT_H

typedef struct SprtConfig {
    double elo0, elo1;  /* the hypotheses, in logistic Elo */
    double alpha, beta; /* the error rates: accepting H1 when H0 holds, and the reverse */
} SprtConfig;

typedef enum SprtDecision { SPRT_CONTINUE, SPRT_ACCEPT_H0, SPRT_ACCEPT_H1 } SprtDecision;

typedef struct SprtState {
    double llr, lower, upper; /* the ratio and its bounds */
    double score;             /* mu: the test agent's mean score per game */
    double elo, elo_low, elo_high; /* the Elo estimate and its 95% interval */
    SprtDecision decision;
} SprtState;

/* Checks the configuration: elo0 < elo1, alpha and beta in (0, 0.5). On error the
 * message says which. */
int sprt_config_check(const SprtConfig *c, char *msg, int cap);

/* The test from counts[i] results of value values[i] (i < k, values in [0, 1]). Counts
 * of zero are taken as 0.001, as fishtest does, so that a run of equal results still
 * has a variance. */
void sprt_compute(const SprtConfig *c, const double *values, const long *counts, int k,
                  SprtState *out);

/* The two usual models: W/D/L of single games, and the five pair outcomes (0 to 2
 * points for the test agent over the two games of a pair). */
void sprt_trinomial(const SprtConfig *c, long wins, long draws, long losses, SprtState *out);
void sprt_pentanomial(const SprtConfig *c, const long pairs[5], SprtState *out);

#endif
