/*
 * solve_report.h - what a solved King's Valley table says, in the words docs/SOLVED.md
 * reports: the value of a start and the first moves that keep it, a perfect game from
 * it, the table's won, lost and drawn counts, and its longest forced win.
 */
#ifndef CROWN_CLI_SOLVE_REPORT_H
#define CROWN_CLI_SOLVE_REPORT_H

#include "core/strbuf.h"
#include "solve/kvs_table.h"

enum { SOLVE_REPORT_DRAWN_PLIES = 16 }; /* how much of an endless perfect game is shown */

/* The start s of g: its value, every first move with the value that keeps it, and a
 * perfect game (the shortest win against the longest defence; a drawn game's first
 * SOLVE_REPORT_DRAWN_PLIES plies). Moves of equal value are taken in the game's order,
 * so the report is the same on every run. */
Status solve_report_start(const KvsTable *t, const Game *g, const GameState *s, StrBuf *out,
                          ErrBuf *err);

/* The whole table: won, lost and drawn positions, the longest forced win, one position
 * that reaches it (g's position text, first player to move) and its perfect line. */
Status solve_report_table(const KvsTable *t, const Game *g, StrBuf *out, ErrBuf *err);

#endif
