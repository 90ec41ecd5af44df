/*
 * protocol_moves.h - how the UCI-family protocols write moves, for crown as an engine
 * (engine_protocol.c) and for the outside engines it runs (engine_client.c): one
 * action as UCI or UGI writes it, and a line of actions as protocol words.
 */
#ifndef CROWN_CLI_PROTOCOL_MOVES_H
#define CROWN_CLI_PROTOCOL_MOVES_H

#include "core/game.h"
#include "core/strbuf.h"

/* Appends one action m, legal in s, as the protocol writes it. */
typedef void (*ProtocolMoveWriter)(const Game *g, const GameState *s, Move m, StrBuf *out);

/* UCI: King Down's long algebraic, but castling as the king's two-square step (e1g1). */
void protocol_write_uci_move(const Game *g, const GameState *s, Move m, StrBuf *out);
/* UGI: the game's own action text. */
void protocol_write_ugi_move(const Game *g, const GameState *s, Move m, StrBuf *out);

/* Appends acts[0..n), played one after the other from s (which is not changed), as
 * protocol words: the actions of one turn joined by ';' (what play_parse_turn reads),
 * turns separated by single spaces. Stops early at a game's end. */
void protocol_write_line(ProtocolMoveWriter w, const Game *g, const GameState *s,
                         const Move *acts, int n, StrBuf *out);

#endif
