/*
 * engine_protocol.h - the UCI-family command loop that engine protocols share: lines
 * read and tokenized, `position`, `go` limits and time management from the clock
 * fields, a search thread so that `stop` and `isready` answer while it thinks, `info`
 * and `bestmove` lines. A dialect (cmd_uci.c) gives the game and the words that differ.
 */
#ifndef CROWN_CLI_ENGINE_PROTOCOL_H
#define CROWN_CLI_ENGINE_PROTOCOL_H

#include "core/game.h"
#include "core/strbuf.h"

typedef struct EngineDialect {
    const char *hello;     /* the handshake command, "uci" */
    const char *hello_ok;  /* its answer, "uciok" */
    const char *new_game;  /* "ucinewgame" */
    const char *engine_name;
    /* The one game the dialect plays; created once by the caller. */
    const Game *game;
    /* Appends an action as the protocol writes it (UCI: castling as king from-to). */
    void (*write_move)(const Game *g, const GameState *s, Move m, StrBuf *out);
} EngineDialect;

/* Runs the loop on stdin and stdout until `quit` or the end of input; returns 0. */
int engine_protocol_run(const EngineDialect *d);

#endif
