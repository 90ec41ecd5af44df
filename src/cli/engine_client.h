/*
 * engine_client.h - an outside engine as a player: a program crown runs and talks to in
 * UCI or UGI over pipes ("uci:COMMAND", "ugi:COMMAND" seats of `crown match` and `crown
 * play`). It is started once, told of each new game, sent the position as the start and
 * the moves, and asked for a move with a deadline; every wait is bounded, so a silent or
 * dead engine costs a time-out, never a hang. Its moves are only text here: the caller
 * checks them against crown's rules.
 */
#ifndef CROWN_CLI_ENGINE_CLIENT_H
#define CROWN_CLI_ENGINE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/game.h"
#include "core/status.h"
#include "core/strbuf.h"

enum {
    ENGINE_HANDSHAKE_MS = 10000, /* uciok/ugiok and each readyok */
    ENGINE_LINE_CAP = 8192,      /* a longer line from the engine is cut */
};

typedef struct EngineOption {
    const char *name;
    const char *value;
} EngineOption;

typedef struct EngineClient {
    bool ugi;                /* else UCI */
    char spec[160];          /* "uci:COMMAND ARGS" as written */
    const EngineOption *options; /* sent after each handshake; the caller's */
    int n_options;
    pid_t pid;               /* 0: not running */
    int to_engine, from_engine;
    bool broken;             /* a time-out or a write failed: restart before the next game */
    char name[96];           /* its `id name` */
    char buf[ENGINE_LINE_CAP];
    size_t len;
} EngineClient;

/* Fills *e for the seat text spec ("uci:..." or "ugi:...", COMMAND split at spaces and
 * looked up on PATH) and its options; starts nothing yet. */
void engine_client_init(EngineClient *e, const char *spec, const EngineOption *options,
                        int n_options);

/* Readies the engine for a new game: starts it (again, if it died or misbehaved) with
 * the handshake and the options, else sends ucinewgame/uginewgame; then isready. */
Status engine_client_new_game(EngineClient *e, ErrBuf *err);

/* Sends the position (startpos when `start` is the game's seed-0 start, else its text as
 * fen) with the actions acts[0..n) as moves, then "go GO_ARGS", and waits at most
 * timeout_ms for `bestmove`, whose move word is appended to *move. STATUS_IO with a
 * message for a time-out or a dead engine (it is restarted before the next game). */
Status engine_client_go(EngineClient *e, const Game *g, const GameState *start,
                        const Move *acts, int n, const char *go_args, int64_t timeout_ms,
                        StrBuf *move, ErrBuf *err);

/* Sends quit, waits a moment, then kills it; the client may be used again after. */
void engine_client_close(EngineClient *e);

#endif
