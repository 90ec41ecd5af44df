/*
 * solve_pack.h - `crown solve kings-valley --compress`: the packed form of a full table
 * written, then checked entry by entry against the full one and its probes timed, so
 * that every figure docs/SOLVED.md gives for it can be measured again.
 */
#ifndef CROWN_CLI_SOLVE_PACK_H
#define CROWN_CLI_SOLVE_PACK_H

#include "cli/cli.h"
#include "core/game.h"

/* Packs the full table at `full` into `packed` (left as it is if it is already a packed
 * table of the same rules), compares every entry and times random probes of both;
 * returns the command's exit status. */
int solve_pack(const CliOptions *o, const Game *g, const char *full, const char *packed);

#endif
