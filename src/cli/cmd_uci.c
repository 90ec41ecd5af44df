/*
 * cmd_uci.c - `crown uci`: King Down with the chess rules (classic set-up, castling, en
 * passant, Q R B N promotion) as a UCI chess engine, over the shared protocol loop.
 * King Down's long algebraic is UCI's but for castling, which UCI writes as the king's
 * step of two squares.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/engine_protocol.h"
#include "core/game_api.h"
#include "play/registry.h"

static const RuleSetting CHESS_RULES[] = {
    {"setup", "classic"},       {"castling", "on"},    {"en-passant", "on"},
    {"promotion", "classic"},   {"notation", "long"},
};

static void write_uci_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    StrBuf text;
    sb_init(&text);
    g->ops->format_move(g, s, m, &text);
    const char *t = sb_str(&text);
    char rank = g->ops->to_move(g, s) == 0 ? '1' : '8';
    if (strncmp(t, "O-O-O", 5) == 0)
        sb_printf(out, "e%cc%c", rank, rank);
    else if (strncmp(t, "O-O", 3) == 0)
        sb_printf(out, "e%cg%c", rank, rank);
    else
        sb_puts(out, t);
    sb_free(&text);
}

int cmd_uci(int argc, char **argv)
{
    if (argc > 2)
        return cli_error("crown uci takes no arguments ('%s'); UCI commands come on "
                         "standard input", argv[2]), 2;
    Game *g;
    ErrBuf err;
    if (game_create(registry_find("king-down"), 2, CHESS_RULES,
                    (int)(sizeof CHESS_RULES / sizeof CHESS_RULES[0]), &g, &err) != STATUS_OK)
        return cli_error("%s", err.msg);
    EngineDialect d = {
        .hello = "uci",
        .hello_ok = "uciok",
        .new_game = "ucinewgame",
        .engine_name = "crown (King Down, chess rules)",
        .game = g,
        .write_move = write_uci_move,
    };
    int rc = engine_protocol_run(&d);
    game_destroy(g);
    return rc;
}
