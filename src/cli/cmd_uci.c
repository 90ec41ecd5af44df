/*
 * cmd_uci.c - `crown uci`: King Down with the chess rules (classic set-up, castling, en
 * passant, Q R B N promotion) as a UCI chess engine, over the shared protocol loop.
 * King Down's long algebraic is UCI's but for castling, which UCI writes as the king's
 * step of two squares (protocol_moves.c).
 */
#include "cli/cli.h"
#include "cli/engine_protocol.h"
#include "play/registry.h"

static const RuleSetting CHESS_RULES[] = {
    {"setup", "classic"},       {"castling", "on"},    {"en-passant", "on"},
    {"promotion", "classic"},   {"notation", "long"},
};

int cmd_uci(int argc, char **argv)
{
    if (argc > 2)
        return cli_error("crown uci takes no arguments ('%s'); UCI commands come on "
                         "standard input", argv[2]), 2;
    EngineDialect d = {
        .hello = "uci",
        .hello_ok = "uciok",
        .new_game = "ucinewgame",
        .engine_name = "crown (King Down, chess rules)",
        .clock_words = {{"wtime", "winc"}, {"btime", "binc"}},
        .ops = registry_find("king-down"),
        .rules = CHESS_RULES,
        .n_rules = (int)(sizeof CHESS_RULES / sizeof CHESS_RULES[0]),
        .write_move = protocol_write_uci_move,
    };
    return engine_protocol_run(&d);
}
