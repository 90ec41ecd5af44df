/*
 * proof_check.h - re-checks a winning strategy written by the prover (dfpn.h) with
 * nothing but the game's rules: at each of the winner's positions the file names one
 * legal move, at each of the loser's it answers every legal move, and every line must
 * end in a win for the winner by the game's own result. It shares no code with the
 * search, so a bug there cannot vouch for itself.
 *
 * The file: "crown-proof 1", "game NAME", one "rule NAME=VALUE" per option, "position
 * TEXT", "winner P", then the tree in preorder ("play MOVE" at the winner's positions,
 * "reply MOVE" for each of the loser's moves in gen_moves order, each followed by the
 * tree below it; nothing below a finished game), then "end".
 */
#ifndef CROWN_SOLVE_PROOF_CHECK_H
#define CROWN_SOLVE_PROOF_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "core/game.h"
#include "core/status.h"

enum { PROOF_LINE_CAP = 4096 };

typedef struct ProofHeader {
    char game[64];
    char rules[GAME_MAX_OPTIONS][PROOF_LINE_CAP / 8]; /* "NAME=VALUE" */
    int n_rules;
    char position[PROOF_LINE_CAP];
    int winner;
} ProofHeader;

typedef struct ProofCheckStats {
    uint64_t positions; /* positions of the tree visited */
    uint64_t wins;      /* lines ended in a win for the winner */
    int longest;        /* plies of the longest line */
} ProofCheckStats;

/* Reads the header; STATUS_PARSE with the line at fault when it is not one. */
Status proof_read_header(FILE *in, ProofHeader *h, ErrBuf *err);

/* Checks the tree that follows the header, from s (the header's position in g, the game
 * the header names with its rules). STATUS_ILLEGAL with the first fault found. */
Status proof_check_tree(const Game *g, const GameState *s, int winner, FILE *in,
                        ProofCheckStats *stats, ErrBuf *err);

#endif
