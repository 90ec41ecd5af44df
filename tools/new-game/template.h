/*
 * @DIR@.h - @TITLE@: the game's one export, its GameOps record (src/core/game.h).
 */
#ifndef CROWN_GAMES_@UPPER@_H
#define CROWN_GAMES_@UPPER@_H

#include "core/game.h"

extern const GameOps @PREFIX@_ops;

#endif
