/*
 * dfpn.h - depth-first proof-number search (df-pn with the 1+epsilon threshold trick)
 * over the game interface, for two-player games with perfect information and no chance.
 * One run answers "does `attacker` win from here?"; the value of a position (win, loss
 * or draw) takes two runs, one for each side, which dfpn_value makes. A strategy found
 * can be written out for an independent check (solve/proof_check.h).
 */
#ifndef CROWN_SOLVE_DFPN_H
#define CROWN_SOLVE_DFPN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/game.h"
#include "core/status.h"

typedef enum DfpnValue { DFPN_UNKNOWN, DFPN_WIN, DFPN_LOSS, DFPN_DRAW } DfpnValue;

typedef struct DfpnOptions {
    uint64_t tt_bytes;     /* transposition table size (at least 1 MB is used) */
    double seconds;        /* budget of wall time for the whole answer; <= 0: none */
    uint64_t max_nodes;    /* budget of nodes; 0: none */
    FILE *progress;        /* a progress line at least every progress_seconds, or NULL */
    double progress_seconds;
} DfpnOptions;

typedef struct DfpnStats {
    uint64_t nodes;      /* positions expanded (both runs) */
    double seconds;
    uint64_t pn[2], dn[2]; /* root proof and disproof numbers of "player p wins" */
    bool decided[2];       /* whether run p reached a proof or a disproof */
    bool won[2];           /* run p's answer when decided: player p wins */
} DfpnStats;

/* The value of s for the player to move: proves "mover wins", then "opponent wins".
 * UNKNOWN when a budget ran out first. Refuses games with chance, hidden information
 * or other than two players, and finished positions. */
Status dfpn_value(const Game *g, const GameState *s, const DfpnOptions *o, DfpnValue *value,
                  DfpnStats *stats, ErrBuf *err);

/* Proves that `attacker` wins from s and writes the strategy to `out` in the format
 * proof_check.h reads: STATUS_OK with *proved true and the file written, or *proved
 * false when the win is disproved or the budget ran out (nothing written then). */
Status dfpn_write_proof(const Game *g, const GameState *s, int attacker, const DfpnOptions *o,
                        FILE *out, bool *proved, DfpnStats *stats, ErrBuf *err);

#endif
