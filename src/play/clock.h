/*
 * clock.h - the one game clock of every front end: each seat's time, an increment per
 * turn (5+3, or `crown match --tc 10+0.1`) or a fixed time per move (the web's days per
 * move), charged to the seat whose turn it was and topped up when its turn is done; and
 * the rule for a flag, the same everywhere: a seat whose time runs out loses, unless no
 * other seat can still win by the game's rules (King Down's bare king), when the game is
 * a draw, as in chess.
 *
 * Times are plain milliseconds of the caller's clock: the web charges wall-clock time
 * between turns (a stored clock must mean the same after a restart), crown match the
 * monotonic time each decision took.
 */
#ifndef CROWN_PLAY_CLOCK_H
#define CROWN_PLAY_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"

typedef struct PlayClock {
    int64_t initial_ms;   /* minutes-and-increment: each seat's time at the start */
    int64_t increment_ms; /* ... added after each of its turns */
    int64_t per_move_ms;  /* a time per move instead: each turn starts with this much */
    int days;             /* the web's days per move as asked (its tests shorten a day) */
    int64_t left_ms[MAX_PLAYERS]; /* each seat's time as of since_ms when it runs */
    int running;          /* the seat whose time runs (play_clock_turn), or -1 */
    int64_t since_ms;     /* when it began to run */
} PlayClock;

/* Reads "BASE+INC" or "BASE" in seconds (decimals allowed, e.g. "10+0.1"), BASE above 0
 * and at most a day, INC from 0 to an hour, into a stopped clock of `players` seats
 * with their full time. On error *c is unchanged and err names `what` (the option). */
Status play_clock_parse(const char *text, const char *what, int players, PlayClock *c,
                        ErrBuf *err);

/* No clock. */
void play_clock_off(PlayClock *c);
bool play_clock_on(const PlayClock *c);
/* The same control with every seat's full time, not running: a new game's clock. */
PlayClock play_clock_fresh(const PlayClock *c, int players);

/* Takes used_ms from the seat's time; false when that empties it (a flag). */
bool play_clock_charge(PlayClock *c, int seat, int64_t used_ms);
/* The seat's turn is done: its increment is added, or its time per move given back. */
void play_clock_turn_done(PlayClock *c, int seat);

/* For a clock that runs between turns: a turn ended at `now`, `mover` acted last and
 * `next` is to act (-1 when the game is over). When the player changes, the running
 * seat's time is charged (never below 0) and its turn done, and next's time runs; the
 * first turn of a game, before any clock ran, is not timed. */
void play_clock_turn(PlayClock *c, int mover, int next, int64_t now);
/* The running seat whose time has run out at `now`, or -1. */
int play_clock_flagged(const PlayClock *c, int64_t now);
/* Stops the clock at `now` with the running seat's time charged (0 if it ran out). */
void play_clock_stop(PlayClock *c, int64_t now);

/* The flag rule: whether `flagged` running out of time in s draws the game, because no
 * other seat can win from s (core's game_can_win); otherwise it loses. Its result and
 * words are finish.h's (PLAY_END_TIME, PLAY_END_TIME_DRAW). */
bool play_flag_is_draw(const Game *g, const GameState *s, int flagged);

#endif
