/*
 * turn.h - reading what a player types as the actions of one turn, or as one action,
 * checked against the rules before anything is played: the one reader behind
 * `crown play`, `crown match`'s outside engines, the web API, the public C API and so
 * the Python module, so that each accepts what the others do.
 */
#ifndef CROWN_PLAY_TURN_H
#define CROWN_PLAY_TURN_H

#include "core/game.h"
#include "core/strbuf.h"

enum { PLAY_TURN_CAP = 64 }; /* the most actions one text may play */

/* Reads `text` as actions of the player to move in s: a whole turn as the game writes it
 * (its parse_actions hook), or, for games without that hook, one action or several
 * separated by ';', each read by parse_move on a scratch copy after the ones before it.
 * Every action must be that player's: one that comes after the turn has passed is
 * refused. On success acts[0..*n) (at most cap, *n >= 1) are legal one after the other
 * from s. s is never changed; on error *n is 0 and err says what is wrong (STATUS_PARSE
 * for unreadable text, STATUS_ILLEGAL for a rule broken or a game not waiting for a
 * player). Chance outcomes are read by game_parse_action (core/game_api.h). */
Status play_parse_turn(const Game *g, const GameState *s, const char *text, Move *acts, int cap,
                       int *n, ErrBuf *err);

/* Reads `text` as the one action to play next in s: a chance outcome by its exact text
 * when chance is to act (game_parse_action), else one action of the player to move as
 * the game writes it or in a spelling players use (upper case, `b1b4`, `e2-e4`), as
 * play_parse_turn reads them. *m is set on success only; errors as play_parse_turn's. */
Status play_parse_action(const Game *g, const GameState *s, const char *text, Move *m,
                         ErrBuf *err);

/* Reads `text` as what is played next in s, whoever acts: one chance outcome when chance
 * is to act, else the player's actions as play_parse_turn reads them. */
Status play_parse_next(const Game *g, const GameState *s, const char *text, Move *acts, int cap,
                       int *n, ErrBuf *err);

/* Appends acts[0..n), played one after the other from s, as one text that
 * play_parse_turn reads back: the actions' texts joined by ';'. s is not changed. */
Status play_format_turn(const Game *g, const GameState *s, const Move *acts, int n,
                        StrBuf *out, ErrBuf *err);

#endif
