/*
 * cmd_ugi.c - `crown ugi GAME [--rule NAME=VALUE]...`: any two-player game of perfect
 * information as an engine of the Universal Game Interface (cutegames' UCI-derived
 * protocol), over the shared protocol loop: positions in the game's own position text,
 * a turn of several actions as one word, every rule option a setoption.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/engine_protocol.h"
#include "core/game_api.h"
#include "play/registry.h"

int cmd_ugi(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown ugi GAME [--rule NAME=VALUE]...; UGI commands come "
        "on standard input";
    CliOptions o;
    if (!cli_parse_game_options(argc, argv, usage, &o))
        return 2;
    const GameOps *ops;
    ErrBuf err;
    if (registry_lookup(o.positional[0], &ops, &err) != STATUS_OK)
        return cli_error("%s", err.msg), 2;
    // UGI positions are whole and shared, and its players two: a game with hidden piles
    // or chance draws, or more players, has no position text both sides may be sent.
    if (!(ops->flags & GAME_PERFECT_INFO) || (ops->flags & GAME_HAS_CHANCE) ||
        ops->min_players != 2)
        return cli_error("%s cannot be played over UGI: the protocol sends whole positions "
                         "to two players, and this game has hidden information, chance "
                         "draws or more players (docs/PROTOCOLS.md)", ops->name), 2;
    char name[96];
    snprintf(name, sizeof name, "crown (%s)", ops->name);
    EngineDialect d = {
        .hello = "ugi",
        .hello_ok = "ugiok",
        .new_game = "uginewgame",
        .engine_name = name,
        .clock_words = {{"p1time", "p1inc"}, {"p2time", "p2inc"}},
        .ops = ops,
        .rules = o.rules,
        .n_rules = o.n_rules,
        .rule_options = true,
        .queries = true,
        .write_move = protocol_write_ugi_move,
    };
    return engine_protocol_run(&d);
}
