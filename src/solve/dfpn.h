/*
 * dfpn.h - depth-first proof-number search (df-pn with the 1+epsilon threshold trick)
 * over the game interface, for two-player games with perfect information and no chance.
 * One run answers "does `attacker` win from here?"; the value of a position (win, loss
 * or draw) takes two runs, one for each side, which dfpn_value makes. A strategy found
 * can be written out for an independent check (solve/proof_check.h). With a checkpoint
 * file, dfpn_value keeps its state on disk and takes it up again on the next call for
 * the same question (solve/dfpn_checkpoint.h).
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
    /* dfpn_value only: the checkpoint file, or NULL. Read at the start when it exists
     * (refused when it is of another question or damaged), written every
     * checkpoint_seconds (<= 0: 300) and at the end. The budgets above count this call
     * alone; the totals in DfpnStats count every call since the first. */
    const char *checkpoint;
    double checkpoint_seconds;
    /* Polled with the budget (every 1024 nodes); true stops the search as a spent budget
     * does, so a caller can turn SIGINT into a clean stop and a last checkpoint. */
    bool (*interrupted)(void *ctx);
    void *interrupt_ctx;
    /* dfpn_value only, or NULL: when the value is a win or a loss, the winner's strategy
     * is written here (proof_check.h's format) from the search's own table, the
     * checkpoint's included, so that the writer re-proves only what the table lost. A
     * file it can seek in (it takes back lines that fail), refused at the start if not.
     * DfpnStats.proof_written says whether the strategy was written whole; if not
     * (budget, signal), what the file holds is to be thrown away. Nothing is written
     * for an unknown value or a draw. */
    FILE *proof;
    /* Weak proof-number search (Ueda, Hashimoto, Hashimoto and Iida, 2008): where a
     * node's number is the sum of its children's (the proof number of the defender's
     * nodes, the disproof number of the attacker's), it is the largest of them plus one
     * for each other open child instead. The sum counts a position met by several lines
     * once for each; the weak number does not, which in games of many transpositions
     * points the search better. Proofs and disproofs are the same either way; a
     * checkpoint is of one kind and refused by the other. */
    bool weak;
} DfpnOptions;

enum { DFPN_LINE_MAX = 40 };

typedef struct DfpnStats {
    uint64_t nodes;      /* positions expanded (both runs) */
    double seconds;
    uint64_t pn[2], dn[2]; /* root proof and disproof numbers of "player p wins" */
    bool decided[2];       /* whether run p reached a proof or a disproof */
    bool won[2];           /* run p's answer when decided: player p wins */
    bool interrupted;      /* stopped by options.interrupted */
    bool resumed;          /* a checkpoint was taken up; nodes and seconds include it */
    uint64_t resumed_nodes; /* the nodes of the earlier calls */
    char checkpoint_error[ERRBUF_LEN]; /* why the last checkpoint write failed, or "" */
    /* The most-proving line of the last run searched (see dfpn_value), from the root:
     * line_attacker's question, line_len moves. */
    Move line[DFPN_LINE_MAX];
    int line_len;
    int line_attacker;
    /* With DfpnOptions.proof: whether the strategy was written (false when the budget,
     * a signal or memory ran out while writing), and the nodes the writer searched again
     * where the table had lost a proof (not in `nodes`, which are the value's). */
    bool proof_written;
    uint64_t proof_nodes;
} DfpnStats;

/* The value of s for the player to move: proves "mover wins", then "opponent wins".
 * UNKNOWN when a budget ran out first; stats->line then says where the search stood:
 * from the root, at the attacker's turns the move of least proof number, at the
 * defender's the reply of least disproof number, as far as the table knows them. Refuses games with chance, hidden information
 * or other than two players, and finished positions. */
Status dfpn_value(const Game *g, const GameState *s, const DfpnOptions *o, DfpnValue *value,
                  DfpnStats *stats, ErrBuf *err);

#endif
