/*
 * search_pair.h - one position searched by two configurations of a game that must agree
 * (a game with the lazy-legality hooks and the same game without them): the same value,
 * and a best move that the first game lists as legal, or the test fails. The trees may
 * differ: the lazy search tests a frontier move only when its value counts.
 */
#ifndef CROWN_TESTS_SUPPORT_SEARCH_PAIR_H
#define CROWN_TESTS_SUPPORT_SEARCH_PAIR_H

#include <stddef.h>

#include "core/game.h"

/* Searches s with a fresh alpha-beta of each game to `depth` (a table of tt_bytes, 0 for
 * the default; no late move reductions) and fails the test unless the results agree. */
void search_pair_expect_same(const Game *a, const Game *b, const GameState *s, int depth,
                             size_t tt_bytes);

#endif
