/*
 * hint.h - the hint every front end gives a player: one agent setting (the full engine,
 * whose scores the win chances of chances.h are fitted to, for a second), made with the
 * solved tables when they fit, so that `crown play`'s "hint" and the browser's hint
 * button suggest the same move, and `crown tune --fit-scale` fits the curve to the
 * scores that hint searches give.
 */
#ifndef CROWN_PLAY_HINT_H
#define CROWN_PLAY_HINT_H

#include <stdint.h>

#include "core/game.h"
#include "play/perfect.h"
#include "search/agent.h"

/* A hint's think time when the front end does not ask for less. */
enum { PLAY_HINT_MOVETIME_MS = 1000 };

/* The hint agent's spec: level 10 (lower levels misjudge on purpose, search/agent.h,
 * which a hint must not) thinking PLAY_HINT_MOVETIME_MS, with `seed`. */
void play_hint_agent(AgentSpec *spec, uint64_t seed);

/* Creates the hint agent for a game of g played from `game_seed` (its own seed follows
 * from it, apart from the seats' agents'), thinking `movetime_ms` (0:
 * PLAY_HINT_MOVETIME_MS), playing from p's solved table where one fits (p may be NULL). */
Status play_hint_new(const Game *g, const Perfect *p, uint64_t game_seed, int64_t movetime_ms,
                     Agent **out, ErrBuf *err);

#endif
