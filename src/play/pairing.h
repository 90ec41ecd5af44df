/*
 * pairing.h - who plays whom in a tournament round: the games of a round as pairs of
 * player numbers with colours, and the fixed schedules, round-robin (Berger tables) and
 * gauntlet. Players are numbered 0 .. players-1 in their seeding order (0 the top
 * seed). Swiss pairings, which depend on the results so far, are in swiss.h; what the
 * games gave, in standings.h. The CLI's `crown tournament` and the web's tournaments
 * use these same schedules.
 */
#ifndef CROWN_PLAY_PAIRING_H
#define CROWN_PLAY_PAIRING_H

#include "core/status.h"

/* The opponent of a player who sits a round out (a bye). */
enum { PAIRING_BYE = -1, PAIRING_MAX_PLAYERS = 1024 };

/* One board of a round: white moves first (seat 0); black is PAIRING_BYE for a bye. */
typedef struct Pairing {
    int white, black;
} Pairing;

/* A game played, or a bye, with what white scored: 1, 0.5 or 0 (a bye's points). */
typedef struct PairingResult {
    Pairing pair;
    double white_points;
} PairingResult;

/* Checks a tournament's field and results before pairing or scoring them: 2 to
 * PAIRING_MAX_PLAYERS players, and each of results[0..n) naming two different players
 * of the field (or one and a bye) with a score of 0, 0.5 or 1; the message names the
 * first bad result. */
Status pairing_check_results(int players, const PairingResult *results, int n, ErrBuf *err);

/* Rounds in one cycle of a round-robin: players - 1 when even, players when odd (each
 * player then sits one round out). */
int pairing_round_robin_rounds(int players);

/* Round `round` (0-based; rounds past one cycle begin the next, with colours reversed,
 * so a double round-robin balances every pair's colours) of the round-robin of FIDE's
 * Berger tables, its boards in the tables' order into out[0..*count) (room for
 * players / 2 + 1). An odd number of players is paired as one more, whose opponent has
 * the bye. Refuses fewer than 2 or more than PAIRING_MAX_PLAYERS players, a negative
 * round. */
Status pairing_round_robin(int players, int round, Pairing *out, int *count, ErrBuf *err);

/* A gauntlet: player 0 meets players 1 .. players-1 in that order, one a round (round
 * r is player 0 against r + 1), with white in even rounds; past players - 1 rounds the
 * cycle repeats with colours reversed. One board a round; the others rest. */
int pairing_gauntlet_rounds(int players);
Status pairing_gauntlet(int players, int round, Pairing *out, int *count, ErrBuf *err);

#endif
