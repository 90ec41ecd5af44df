/*
 * cli.h - what the subcommands of the crown program share: parsed command-line options,
 * setting up a game from them, and the entry point of each subcommand.
 *
 * Subcommands print to stdout, errors to stderr as one line "crown: ...", and return
 * the process exit code (0 ok, 1 failure, 2 bad usage).
 */
#ifndef CROWN_CLI_CLI_H
#define CROWN_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/engine_client.h"
#include "play/clock.h"
#include "core/game.h"
#include "play/perfect.h"
#include "search/limits.h"

enum { CLI_MAX_RULES = GAME_MAX_OPTIONS * 2, CLI_MAX_POSITIONAL = 4, CLI_MAX_ENGINE_OPTIONS = 32 };
/* The most entries of --players an --engine-option may name (crown tournament's). */
enum { CLI_MAX_ENTRIES = 64 };

/* An --engine-option: for the outside engine of one --players entry (1-based), or of
 * every entry (0). */
typedef struct CliEngineOption {
    int entry;
    EngineOption option;
} CliEngineOption;

typedef struct CliOptions {
    RuleSetting rules[CLI_MAX_RULES];
    int n_rules;
    const char *position;
    const char *players;
    const char *out;
    const char *openings; /* --openings FILE: a match's starts, one a line */
    const char *agent;
    const char *tablebase; /* --tablebase FILE: a solved table (crown solve) */
    long threads;          /* --threads N, 0 when not given */
    long check;            /* --check N: positions crown solve checks, 0 when not given */
    long soldiers;         /* --soldiers N: a reduced crown solve (tests), when soldiers_set */
    bool soldiers_set;
    uint64_t seed;
    bool seed_set;
    SearchLimits limits;
    PlayClock tc; /* --tc with every seat's time; off when not given */
    CliEngineOption engine_options[CLI_MAX_ENGINE_OPTIONS];
    int n_engine_options;
    long games;
    bool games_set; /* --games was given (its default suits match, not playouts) */
    long jobs;
    bool generic;
    bool report; /* --report: crown solve prints what a table says */
    bool compress; /* --compress: crown solve packs a table for sharing */
    long level;    /* --level N: zstd's level for --compress, 0 when not given */
    bool help;
    const char *positional[CLI_MAX_POSITIONAL];
    int n_positional;
} CliOptions;

/* Reads argv[first..argc) into *o. Returns false after printing an error. */
bool cli_parse_options(int argc, char **argv, int first, CliOptions *o);

/* cli_parse_options for a command on one game: false after printing an error, or usage
 * when there is not exactly one positional argument (the game). */
bool cli_parse_game_options(int argc, char **argv, const char *usage, CliOptions *o);

/* Takes the value of a command's own flag names[which] (spelt `flag`) into ctx; false
 * after printing why the value will not do. */
typedef bool (*CliOwnFlag)(void *ctx, int which, const char *flag, const char *value);

/* cli_parse_options for a command with flags of its own, names[0..n): each written
 * --name VALUE or --name=VALUE after the command and its verb goes to take, the rest to
 * the shared parser. 0, or the exit code after printing an error. */
int cli_parse_own_options(int argc, char **argv, const char *const *names, int n,
                          CliOwnFlag take, void *ctx, CliOptions *o);

/* The game named by the first positional argument, created with the --rule settings, and
 * its start position (from the seed, or --position when given). Prints an error (listing
 * the games when the name is unknown) and leaves nothing to free when it returns false. */
bool cli_make_game(const CliOptions *o, Game **game, GameState **state);

/* The limits an AI seat or analysis is given from the command line: each one set replaces
 * the level's limit of that kind, and a depth or node limit without --movetime removes
 * the level's clock too, so that such searches are exact and repeatable. */
SearchLimits cli_search_limits(const CliOptions *o);

/* The --engine-option settings that apply to --players entry `entry` (0-based), in the
 * order given, into out[0..*n) (at most cap). */
void cli_engine_options_for(const CliOptions *o, int entry, EngineOption *out, int cap, int *n);
/* The solved tables for ai:10 and analysis: the file of --tablebase (an error, printed,
 * if it is not a table), else whatever the default locations hold. */
bool cli_open_perfect(const CliOptions *o, Perfect **out);

/* Reads text, the value of option flag, as a whole number in [min, max] into *out;
 * false after printing an error that names the flag and the range. */
bool cli_read_number(const char *flag, const char *text, long min, long max, long *out);

/* Prints "crown: <message>" to stderr; returns 1 for use as an exit code. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int cmd_games(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_prove(int argc, char **argv);
int cmd_puzzles(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_sprt(int argc, char **argv);
int cmd_tournament(int argc, char **argv);
int cmd_lab(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_nnue(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_playouts(int argc, char **argv);
int cmd_uci(int argc, char **argv);
int cmd_ugi(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_completion(int argc, char **argv);
/* In src/web/serve.c (web/serve.h): the web server, which links libmicrohttpd, SQLite
 * and jansson; declared here so that the CLI includes no web header. */
int cmd_serve(int argc, char **argv);

#endif
