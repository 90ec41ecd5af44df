/*
 * kingsguard.h - King's Guard, the stacking game: the only symbols this game exports.
 */
#ifndef CROWN_GAMES_KINGSGUARD_H
#define CROWN_GAMES_KINGSGUARD_H

#include "core/game.h"

extern const GameOps kg_standard_ops; /* kings-guard: 9 files x 10 ranks, towers of 5 */
extern const GameOps kg_8x8_ops;      /* kings-guard-8x8: checkerboard, towers of 4 */

#endif
