/*
 * match_clock.h - time controls for games between seats: `--tc BASE+INC` read once, and
 * a clock per seat that the runner charges with the time each move took (the monotonic
 * clock) and credits with the increment when the turn passes.
 */
#ifndef CROWN_CLI_MATCH_CLOCK_H
#define CROWN_CLI_MATCH_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"

typedef struct TimeControl {
    int64_t base_ms, inc_ms; /* base_ms 0: no time control */
} TimeControl;

typedef struct SeatClock {
    bool on;
    int64_t left_ms[MAX_PLAYERS];
    int64_t inc_ms;
} SeatClock;

/* Reads "BASE+INC" or "BASE" in seconds (decimals allowed, e.g. "10+0.1"), BASE above 0
 * and at most a day, INC from 0. On error *tc is unchanged. */
Status time_control_parse(const char *text, TimeControl *tc, ErrBuf *err);

/* Every seat gets the base; off when tc has none. */
void seat_clock_start(SeatClock *c, const TimeControl *tc, int players);
/* Takes used_ms from the seat's clock; false when that empties it (a loss on time). */
bool seat_clock_charge(SeatClock *c, int seat, int64_t used_ms);
/* The seat's turn is over: its increment is added. */
void seat_clock_turn_done(SeatClock *c, int seat);

#endif
