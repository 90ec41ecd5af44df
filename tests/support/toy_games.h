/*
 * toy_games.h - tiny games with known answers, for the search tests only (they are not
 * in the registry). Each follows the whole contract of core/game.h: plain-data state,
 * byte-exact make/unmake (copy-undo), deterministic move order, position and move text.
 */
#ifndef CROWN_TESTS_SUPPORT_TOY_GAMES_H
#define CROWN_TESTS_SUPPORT_TOY_GAMES_H

#include "core/game.h"

/* "toy-nim": one heap (rule stones, default 21); a turn takes 1..take stones (rule take,
 * default 3); who takes the last stone wins. A heap that is a multiple of take + 1 is
 * lost for the player to move. Moves "1".."9"; position "<heap> <player> <actions left>".
 * evaluate() is always 0, so alpha-beta can only win by search. */
extern const GameOps toy_nim_ops;

/* "toy-twostep": the same heap, but a turn is two actions in a row by the same player
 * (rule actions, default 2), each taking 1..take stones (default 2); who takes the last
 * stone wins, even in the middle of a turn. With the defaults a turn-start heap h is
 * lost for the mover iff h % 6 is 5 or 0. Tests that negamax negates only when the
 * mover changes. */
extern const GameOps toy_twostep_ops;

/* "toy-tictactoe": noughts and crosses; x (player 0) starts. Moves "1".."9" (cell index
 * + 1, row by row); position "<9 cells of x o .> <x|o>". Has an evaluate() (open lines)
 * and a playout() hook. */
extern const GameOps toy_tictactoe_ops;

/* "toy-race": 2-4 players race to rule target (default 10) on their own tracks. On a
 * turn a player either steps (+1) or gambles: chance then adds 0 or 3 with probability
 * 1/2 each. First to reach the target wins (returns 1 for the winner, -1/(players-1) for
 * the others); after 4 * target * players turns it is a draw. Moves "step", "gamble",
 * "+0", "+3"; position "<p0>,<p1>[,...] <player>[*] [<turns> [<future hex>]]", '*'
 * marking a pending gamble. No evaluate(): alpha-beta must refuse it. */
extern const GameOps toy_race_ops;

/* "toy-hidden-race": the race without chance events: gamble outcomes come from a hidden
 * 64-bit future fixed at set-up (bit set = +3, next gamble = lowest bit, rotated on
 * use). determinize() redraws the whole future, which nobody can see. Not
 * GAME_PERFECT_INFO. */
extern const GameOps toy_hidden_race_ops;

#endif
