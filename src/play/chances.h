/*
 * chances.h - a search's verdict in a player's words: a win chance from the score
 * (a logistic curve fitted per game), or the exact distance of a forced result, for
 * the hints of every front end (the hint agent, hint.h) instead of centi-units.
 */
#ifndef CROWN_PLAY_CHANCES_H
#define CROWN_PLAY_CHANCES_H

#include "core/game.h"
#include "core/strbuf.h"
#include "search/agent.h"
#include "search/limits.h"

/* The scale s of the curve 1 / (1 + e^(-score / s)) of the game named so; 0 for a
 * name the table lacks. */
double play_chance_scale(const char *game);

/* The mover's chance to win in [0, 1] for r, a search of a position of g: 1 or 0 for a
 * forced result, a logistic curve of the score in the game's centi-units (a scale per
 * game, chances.c), or MCTS's mean return mapped from [-1, 1]. */
double play_win_chance(const Game *g, const SearchResult *r);

/* Appends r in words for the mover: "you win by force in 9 moves", "about 64% to win",
 * "the other side wins by force in 4 moves" (moves counts both sides' actions). */
void play_chance_words(const Game *g, const SearchResult *r, StrBuf *out);

#endif
