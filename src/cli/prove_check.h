/*
 * prove_check.h - `crown prove kings-valley --check N`: the proof-number prover held
 * against the solved King's Valley table. N random positions the table decides within 15
 * plies, each proven afresh on --jobs threads; every value must be the table's. With
 * --checkpoint DIR each finished position is logged in DIR/check.log, so that a check of
 * hours can be stopped at any moment and taken up by the next run of the same command.
 */
#ifndef CROWN_CLI_PROVE_CHECK_H
#define CROWN_CLI_PROVE_CHECK_H

#include <stdbool.h>

#include "cli/cli.h"
#include "core/game.h"

/* --check: positions the table decides within this many plies (issue 34's bound). */
enum { PROVE_CHECK_PLIES = 15 };

/* The prover's budget for each position and where the log goes. */
typedef struct ProveCheckSetup {
    double memory_gb;     /* the prover's table for one position */
    bool memory_set;      /* false: a small table of 4 MB */
    double hours;         /* a position's time budget, 0 for none */
    const char *log_dir;  /* --checkpoint DIR, made already; NULL for no log */
    bool weak;            /* --numbers weak (DfpnOptions.weak) */
} ProveCheckSetup;

/* Runs the check; returns the command's exit status (0 when every value was proven and
 * equal to the table's), errors printed. */
int prove_check(const CliOptions *o, const Game *g, const ProveCheckSetup *setup);

#endif
