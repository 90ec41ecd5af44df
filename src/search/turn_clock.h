/*
 * turn_clock.h - the time of a whole turn: when a turn is several actions of one player
 * (a King's Guard stack carried off piece by piece), the move time is a budget for the
 * turn, planned at its first action and spent on the following ones, not given again
 * to every action. The game says when a turn goes on: the same player is to act after
 * the action. A TurnClock is plain data, so a caller that creates an agent per action
 * (the web server) keeps it between actions; agents keep their own otherwise.
 */
#ifndef CROWN_SEARCH_TURN_CLOCK_H
#define CROWN_SEARCH_TURN_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"

typedef struct TurnClock {
    bool active;       /* a turn is under way and goes on from next_key */
    int player;        /* whose turn */
    uint64_t next_key; /* the hash of the position where the turn's next action is due */
    int64_t start_ms;  /* clock_ms() at the turn's first action */
    int64_t budget_ms; /* the whole turn's time */
} TurnClock;

/* No turn under way. */
void turn_clock_init(TurnClock *tc);

/* The time for the action about to be chosen in s, out of `budget_ms` for the whole
 * turn (<= 0: no time limit, returned as is). At the first action of a turn the clock
 * starts: the action gets the whole budget if no legal action keeps the turn going, else
 * half of it. A later action of the same turn (s is where the last one left the turn)
 * gets what is left, or half of it while the turn may still go on after it; at least
 * 1 ms. `work` is the caller's scratch copy of s and `undo` an undo record of the game;
 * work is as s again on return. */
int64_t turn_clock_plan(TurnClock *tc, const Game *g, GameState *work, void *undo,
                        MoveList *list, int64_t budget_ms);

/* After `m` was chosen in s (`work`, a copy of s, as above): remembers whether the turn
 * goes on after it, and where. */
void turn_clock_played(TurnClock *tc, const Game *g, GameState *work, void *undo, Move m);

#endif
