/*
 * glicko2.h - Glickman's Glicko-2 rating system, the arithmetic only: a rating, its
 * deviation (RD) and volatility, updated from the games of one rating period, and the
 * deviation's growth over periods without games. The web server's ratings and the
 * tournaments take one game as one period (glicko2_game), so a rating moves after every
 * game rather than in batches. Ratings and RDs are on the familiar Glicko scale (1500,
 * 350); the conversion to the Glicko-2 scale stays inside glicko2.c.
 */
#ifndef CROWN_PLAY_GLICKO2_H
#define CROWN_PLAY_GLICKO2_H

#include <stdbool.h>

#include "core/status.h"

/* A new player's rating, the most uncertain deviation, and the paper's suggested
 * volatility and system constant tau (0.3 to 1.2; smaller keeps ratings steadier). */
#define GLICKO2_RATING 1500.0
#define GLICKO2_RD 350.0
#define GLICKO2_VOLATILITY 0.06
#define GLICKO2_TAU 0.5
/* Above this deviation a rating is provisional: the player has not played enough, or
 * not lately, for the number to mean much (lichess's threshold, shown as "?"). */
#define GLICKO2_PROVISIONAL_RD 110.0

typedef struct Glicko2 {
    double rating;
    double rd;
    double volatility;
} Glicko2;

/* One game of a rating period from the player's side: the opponent's rating and RD
 * before the period, and the player's score (1 a win, 0.5 a draw, 0 a loss). */
typedef struct Glicko2Game {
    double opponent_rating;
    double opponent_rd;
    double score;
} Glicko2Game;

/* 1500, 350, 0.06. */
Glicko2 glicko2_new(void);

/* The player's rating after a period with games[0..n) (n may be 0: the deviation grows
 * by one period), with system constant tau. Refuses, with *out untouched, a rating or
 * score that is not a finite number in range, a deviation or volatility not above 0,
 * or a tau not above 0. */
Status glicko2_update(const Glicko2 *player, const Glicko2Game *games, int n, double tau,
                      Glicko2 *out, ErrBuf *err);

/* One game as one rating period for both players: a scored `score_a` against b.
 * Each is rated against the other's rating before the game. */
Status glicko2_game(const Glicko2 *a, const Glicko2 *b, double score_a, double tau,
                    Glicko2 *a_out, Glicko2 *b_out, ErrBuf *err);

/* The deviation after `periods` rating periods without games (a fraction counts in
 * proportion, so time idle can be measured in days): sqrt(RD^2 + periods * sigma^2) on
 * the Glicko-2 scale, never above GLICKO2_RD. Negative or non-finite periods count 0. */
void glicko2_idle(Glicko2 *r, double periods);

/* RD above GLICKO2_PROVISIONAL_RD. */
bool glicko2_provisional(const Glicko2 *r);

#endif
