/*
 * kingofthevalley.h - King of the Valley (2-4 players): the only symbol this game exports.
 */
#ifndef CROWN_GAMES_KINGOFTHEVALLEY_H
#define CROWN_GAMES_KINGOFTHEVALLEY_H

#include "core/game.h"

extern const GameOps kotv_ops; /* king-of-the-valley */

#endif
