/*
 * gameclock.h - the clock of a game between people: minutes and an increment per turn
 * (5+3), or days per move for slow games. The server keeps it: it is charged when the
 * player to act changes, stored with the moves (in the game's meta) so that it survives
 * a restart, and a player whose time has run out loses (docs/API.md, "Clocks"). Times
 * are wall-clock milliseconds, since a stored clock must mean the same after a restart.
 */
#ifndef CROWN_WEB_GAMECLOCK_H
#define CROWN_WEB_GAMECLOCK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"

typedef struct GameClock {
    int64_t initial_ms;   /* minutes-and-increment: each player's time at the start */
    int64_t increment_ms; /* ... added after each of his turns */
    int64_t per_move_ms;  /* days per move instead: each turn starts with this much */
    int days;             /* ... the days asked for (a test's days are short) */
    int64_t left_ms[MAX_PLAYERS]; /* each seat's time as of since_ms */
    int running;          /* the seat whose time runs, or -1 */
    int64_t since_ms;     /* when it began to run */
} GameClock;

/* No clock. */
void gameclock_off(GameClock *c);
bool gameclock_on(const GameClock *c);
/* The wall clock in milliseconds. */
int64_t gameclock_now(void);

/* Reads a request's clock: {"initial": S, "increment": S} in seconds, or {"days": N},
 * days of day_ms milliseconds (86400000 but in tests). Leaves *c unchanged on error. */
Status gameclock_from_request(const json_t *j, int players, int64_t day_ms, GameClock *c,
                              ErrBuf *err);

/* The same control with every seat's full time, not running: a rematch's clock. */
GameClock gameclock_fresh(const GameClock *c, int players);

/* A turn ended at `now`: `mover` acted last and `next` is to act (-1 when the game is
 * over). The mover's time is charged and topped up when the player changes; the first
 * turn of the game is not timed, so a clock starts with the second player's first turn. */
void gameclock_turn(GameClock *c, int mover, int next, int64_t now);
/* The seat whose time has run out at `now`, or -1. */
int gameclock_flagged(const GameClock *c, int64_t now);
/* Stops the clock at `now` with the running seat's time charged (0 if it ran out). */
void gameclock_stop(GameClock *c, int64_t now);

/* The stored form, and back (NULL or absent: no clock); parse leaves *c unchanged on
 * error. */
json_t *gameclock_store_json(const GameClock *c);
Status gameclock_parse_store(const json_t *j, int players, GameClock *c, ErrBuf *err);

/* The state's field `"clock":{...},` as of `now` (each seat's time left, the running
 * seat, the control), or `"clock":null,`; returns its length, 0 if it does not fit. */
int gameclock_state_field(const GameClock *c, int players, int64_t now, char *buf, size_t len);

#endif
