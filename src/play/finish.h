/*
 * finish.h - the ends of a game outside its rules, the same for every front end: a
 * resignation, a draw the players agree, a flag (clock.h's rule makes it a loss or a
 * draw); what each gives every seat, its words, its stable key, and the AI's answer to
 * a draw offer. The web keeps such an end with the game's moves (web/meta.h); `crown
 * play` has `resign` and `draw` at its prompt; `crown match`'s flags end by the same rule.
 */
#ifndef CROWN_PLAY_FINISH_H
#define CROWN_PLAY_FINISH_H

#include <stdbool.h>

#include "core/game.h"
#include "core/strbuf.h"

typedef enum PlayEnd {
    PLAY_END_NONE,      /* the game goes on, or ended by its rules */
    PLAY_END_RESIGN,    /* the seat resigned */
    PLAY_END_DRAW,      /* the players agreed a draw (the seat accepted it) */
    PLAY_END_TIME,      /* the seat's time ran out */
    PLAY_END_TIME_DRAW, /* the seat's time ran out but no other seat could win: a draw */
} PlayEnd;

/* How a flag against `flagged` in s ends the game: PLAY_END_TIME, or PLAY_END_TIME_DRAW
 * when no other seat can still win (clock.h's play_flag_is_draw). */
PlayEnd play_end_of_flag(const Game *g, const GameState *s, int flagged);

/* What the end gives each seat in out[0..players): -1 for the seat that resigned or
 * lost on time and the others sharing +1; 0 for everyone after a draw. */
void play_end_returns(const Game *g, PlayEnd end, int seat, double out[MAX_PLAYERS]);

/* The end in the neutral words of play_result_text: "second player wins: the first
 * player resigned", "draw: agreed by the players", "draw: the first player ran out of
 * time but the second player cannot win". */
void play_end_text(const Game *g, PlayEnd end, int seat, StrBuf *out);

/* Its stable key, as stored and shown: "resign", "agreement", "time",
 * "time-vs-no-win"; NULL for PLAY_END_NONE. play_end_from_key reads one back (false for
 * an unknown key, *end unchanged). */
const char *play_end_key(PlayEnd end);
bool play_end_from_key(const char *key, PlayEnd *end);

/* The rule an AI seat answers a draw offer by: it accepts when its game's static
 * evaluation of s, from its own side, says it is clearly worse, and declines otherwise
 * and in games without an evaluation; immediate, and the same for the same position. */
bool play_ai_accepts_draw(const Game *g, const GameState *s, int ai_seat);

#endif
