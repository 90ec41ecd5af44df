/*
 * words.h - players and results in words, as both front ends (and anything built over
 * the play layer) show them: seat names, and the end of a game for a seat or a
 * spectator.
 */
#ifndef CROWN_PLAY_WORDS_H
#define CROWN_PLAY_WORDS_H

#include "core/game.h"
#include "core/strbuf.h"

/* "first", "second", "third", "fourth": a seat's ordinal, as in "the second seat";
 * "chance" for PLAYER_CHANCE and "nobody" for anything else. */
const char *play_seat_ordinal(int seat);
/* The seat's name in game g: "first player", "second player", ...; "chance" for
 * PLAYER_CHANCE and "nobody" for anything that is no seat of g. Every game names its
 * seats by order today; g is here so that a game may name them otherwise. */
const char *play_seat_name(const Game *g, int seat);

/* The end of the game in s in words, for `viewer`: PLAYER_NONE gives the neutral form
 * ("first player wins: WHY", "draw: WHY", "shared win: WHY"), a seat the form addressed
 * to that seat ("You won: WHY", "You lost: second player wins: WHY", "You shared the
 * win: WHY", "Draw: WHY"); WHY is the game's describe_result, left out when empty.
 * "unfinished" while the game goes on. */
void play_result_text(const Game *g, const GameState *s, int viewer, StrBuf *out);

#endif
