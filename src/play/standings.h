/*
 * standings.h - a tournament's table from its games: each player's points, games,
 * wins, draws, losses and byes, the tie-breaks Sonneborn-Berger (round-robin) and
 * Buchholz (Swiss), and the table sorted with shared places. docs/TOURNAMENTS.md gives
 * the definitions; `crown tournament` and the web's tournaments print the same table.
 */
#ifndef CROWN_PLAY_STANDINGS_H
#define CROWN_PLAY_STANDINGS_H

#include "play/pairing.h"

typedef enum TieBreak {
    TIEBREAK_SONNEBORN_BERGER, /* the points of the opponents beaten, half those drawn */
    TIEBREAK_BUCHHOLZ,         /* the points of every opponent met */
    TIEBREAK_WINS,             /* games won */
} TieBreak;

enum { STANDINGS_MAX_TIEBREAKS = 3 };

typedef struct Standing {
    int player;
    double points; /* byes included */
    int games, wins, draws, losses, byes;
    double sonneborn_berger, buchholz;
    int place; /* 1-based after standings_sort; players equal on everything share one */
} Standing;

/* The table of players 0 .. players-1 after results[0..n) (games and byes) into
 * out[0..players), out[i] being player i. Refuses what pairing_check_results refuses,
 * with out untouched. */
Status standings_compute(int players, const PairingResult *results, int n, Standing *out,
                         ErrBuf *err);

/* Sorts the table by points, then by the tie-breaks order[0..n_order) in turn (higher
 * first), then by seed, and sets each place; players equal on points and every
 * tie-break share the place of the first of them. */
void standings_sort(Standing *table, int players, const TieBreak *order, int n_order);

#endif
