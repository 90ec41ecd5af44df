/*
 * timeman.h - how long to think on one move when a clock is running: the one budget
 * rule shared by crown's own seats in timed matches and the engine protocols' `go`.
 */
#ifndef CROWN_SEARCH_TIMEMAN_H
#define CROWN_SEARCH_TIMEMAN_H

#include <stdint.h>

enum {
    TIME_MOVES_TO_GO_GUESS = 20, /* moves left when nobody says (sudden death) */
    TIME_OVERHEAD_MS = 30,       /* default kept back per move for pipes and scheduling */
};

/* The milliseconds to spend on this move with `remaining_ms` on the clock, `inc_ms` added
 * after each move and `moves_to_go` moves before the next time control (0: unknown): the
 * clock and the increments of the moves to go, less `overhead_ms` (what a move costs
 * beyond the search: pipes, scheduling; negative counts as 0) for each of them and two
 * more, shared evenly over those moves; never more than a third of the clock nor the
 * clock less one overhead, and at least 1. */
int64_t time_budget_ms(int64_t remaining_ms, int64_t inc_ms, int moves_to_go,
                       int64_t overhead_ms);

#endif
