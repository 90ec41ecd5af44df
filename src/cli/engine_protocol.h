/*
 * engine_protocol.h - the UCI-family command loop that engine protocols share: lines
 * read and tokenized, `position`, `go` limits and time management from the clock
 * fields, a search thread so that `stop` and `isready` answer while it thinks, `info`
 * and `bestmove` lines. A dialect (cmd_uci.c, cmd_ugi.c) gives the game and the words
 * that differ.
 */
#ifndef CROWN_CLI_ENGINE_PROTOCOL_H
#define CROWN_CLI_ENGINE_PROTOCOL_H

#include <stdbool.h>

#include "core/game.h"
#include "core/strbuf.h"
#include "cli/protocol_moves.h"

typedef struct EngineDialect {
    const char *hello;     /* the handshake command, "uci" */
    const char *hello_ok;  /* its answer, "uciok" */
    const char *new_game;  /* "ucinewgame" */
    const char *engine_name;
    const char *clock_words[2][2]; /* per player: its time and increment in `go` */
    /* The game played and its settings; the loop creates the Game from them. */
    const GameOps *ops;
    const RuleSetting *rules;
    int n_rules;
    bool rule_options;    /* every rule option (but files) is offered as a setoption */
    bool queries;         /* `query gameover|p1turn|result` are answered (UGI) */
    ProtocolMoveWriter write_move; /* protocol_moves.h */
} EngineDialect;

/* Runs the loop on stdin and stdout until `quit` or the end of input; returns 0, or 1
 * after an error line on stderr if the game cannot be created. */
int engine_protocol_run(const EngineDialect *d);

#endif
