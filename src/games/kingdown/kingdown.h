/*
 * kingdown.h - King Down Classic: the only symbol this game exports.
 */
#ifndef CROWN_GAMES_KINGDOWN_H
#define CROWN_GAMES_KINGDOWN_H

#include "core/game.h"

extern const GameOps kd_ops; /* king-down */

#endif
