/*
 * kingsvalley.h - the King's Valley family: the only symbols this game exports.
 */
#ifndef CROWN_GAMES_KINGSVALLEY_H
#define CROWN_GAMES_KINGSVALLEY_H

#include "core/game.h"

extern const GameOps kv_standard_ops;  /* kings-valley: 5x5 */
extern const GameOps kv_retrieve_ops;  /* retrieve-the-king: 5x5, kings swapped */
extern const GameOps kv_7x7_ops;       /* kings-valley-7x7: fan variant with the trap rule */
extern const GameOps kv_labyrinth_ops; /* kings-valley-labyrinth: 7x7 with four pillars */

#endif
