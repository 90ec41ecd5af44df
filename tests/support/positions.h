/*
 * positions.h - a state of a game from a position text, for the tests that start from
 * one: the same reading (the start of seed 1 when there is no text) in every test file.
 */
#ifndef CROWN_TESTS_SUPPORT_POSITIONS_H
#define CROWN_TESTS_SUPPORT_POSITIONS_H

#include "core/game.h"

/* A new state (free with free()) at the position `text`, or at the start of seed 1 when
 * text is NULL; a text the game refuses fails the test. */
GameState *test_position(const Game *g, const char *text);

#endif
