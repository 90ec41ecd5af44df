/*
 * kingscastle.h - King's Castle (Christian Freeling, 2020): the only symbol this game
 * exports.
 */
#ifndef CROWN_GAMES_KINGSCASTLE_H
#define CROWN_GAMES_KINGSCASTLE_H

#include "core/game.h"

extern const GameOps kc_ops; /* kings-castle */

#endif
