/*
 * cli_options.c - one option parser for every subcommand, and game set-up from it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/game_api.h"
#include "play/registry.h"
#include "search/agent.h"

int cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("crown: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 1;
}

bool cli_read_number(const char *flag, const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < min || v > max) {
        cli_error("%s takes a whole number from %ld to %ld, not '%s'", flag, min, max, text);
        return false;
    }
    *out = v;
    return true;
}

/* Which of names[0..n) argv[*i] is, with its value (NULL when it has none); *i moves past
 * a separate value. -1 for any other argument, and for the command and its verb. */
static int own_flag(int argc, char **argv, int *i, const char *const *names, int n,
                    const char **value)
{
    const char *a = argv[*i];
    if (*i < 2)
        return -1;
    for (int k = 0; k < n; k++) {
        const size_t len = strlen(names[k]);
        if (strncmp(a, names[k], len) == 0 && (a[len] == '\0' || a[len] == '=')) {
            *value = a[len] == '=' ? a + len + 1 : *i + 1 < argc ? argv[++*i] : NULL;
            return k;
        }
    }
    return -1;
}

int cli_parse_own_options(int argc, char **argv, const char *const *names, int n,
                          CliOwnFlag take, void *ctx, CliOptions *o)
{
    char **rest = calloc((size_t)argc + 1, sizeof *rest);
    if (rest == NULL)
        return cli_error("out of memory");
    int n_rest = 0;
    bool ok = true;
    for (int i = 0; ok && i < argc; i++) {
        const char *value;
        const int which = own_flag(argc, argv, &i, names, n, &value);
        if (which < 0)
            rest[n_rest++] = argv[i];
        else if (value == NULL)
            ok = (cli_error("%s needs a value", names[which]), false);
        else
            ok = take(ctx, which, names[which], value);
    }
    ok = ok && cli_parse_options(n_rest, rest, 2, o);
    free(rest);
    return ok ? 0 : 2;
}

bool cli_parse_game_options(int argc, char **argv, const char *usage, CliOptions *o)
{
    if (!cli_parse_options(argc, argv, 2, o))
        return false;
    if (o->n_positional != 1)
        return cli_error("%s", usage), false;
    return true;
}

bool cli_parse_options(int argc, char **argv, int first, CliOptions *o)
{
    memset(o, 0, sizeof *o);
    o->games = 10;
    o->jobs = 1;
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            o->help = true;
            continue;
        }
        if (strcmp(a, "--generic") == 0) {
            o->generic = true;
            continue;
        }
        if (strcmp(a, "--report") == 0) {
            o->report = true;
            continue;
        }
        if (strcmp(a, "--compress") == 0) {
            o->compress = true;
            continue;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (o->n_positional == CLI_MAX_POSITIONAL) {
                cli_error("too many arguments ('%s')", a);
                return false;
            }
            o->positional[o->n_positional++] = a;
            continue;
        }
        // Every other flag takes a value, as "--flag value" or "--flag=value".
        char flag[32];
        const char *value = strchr(a, '=');
        size_t len = value ? (size_t)(value - a) : strlen(a);
        if (len >= sizeof flag) {
            cli_error("unknown option '%s'", a);
            return false;
        }
        memcpy(flag, a, len);
        flag[len] = '\0';
        if (value)
            value++;
        else if (i + 1 < argc)
            value = argv[++i];
        else {
            cli_error("%s needs a value", flag);
            return false;
        }
        long v;
        if (strcmp(flag, "--rule") == 0) {
            if (o->n_rules == CLI_MAX_RULES) {
                cli_error("too many --rule settings");
                return false;
            }
            // Split once, here at the edge: the game sees the name and value apart. The
            // text is this argument's own, so it is split in place.
            char *text = argv[i] + (value - argv[i]);
            ErrBuf err;
            if (rule_setting_split(text, &o->rules[o->n_rules], &err) != STATUS_OK) {
                cli_error("--rule: %s", err.msg);
                return false;
            }
            o->n_rules++;
        } else if (strcmp(flag, "--position") == 0) {
            o->position = value;
        } else if (strcmp(flag, "--players") == 0) {
            o->players = value;
        } else if (strcmp(flag, "--out") == 0) {
            o->out = value;
        } else if (strcmp(flag, "--openings") == 0) {
            o->openings = value;
        } else if (strcmp(flag, "--agent") == 0) {
            o->agent = value;
        } else if (strcmp(flag, "--tablebase") == 0) {
            o->tablebase = value;
        } else if (strcmp(flag, "--check") == 0) {
            if (!cli_read_number(flag, value, 1, 100000000, &o->check))
                return false;
        } else if (strcmp(flag, "--soldiers") == 0) {
            if (!cli_read_number(flag, value, 0, 4, &o->soldiers))
                return false;
            o->soldiers_set = true;
        } else if (strcmp(flag, "--threads") == 0) {
            if (!cli_read_number(flag, value, 1, 64, &o->threads))
                return false;
        } else if (strcmp(flag, "--level") == 0) {
            if (!cli_read_number(flag, value, 1, 22, &o->level))
                return false;
        } else if (strcmp(flag, "--seed") == 0) {
            char *end;
            errno = 0;
            unsigned long long s = strtoull(value, &end, 10);
            if (errno != 0 || end == value || *end != '\0' || value[0] == '-') {
                cli_error("--seed takes a non-negative whole number, not '%s'", value);
                return false;
            }
            o->seed = s;
            o->seed_set = true;
        } else if (strcmp(flag, "--depth") == 0) {
            if (!cli_read_number(flag, value, 1, 200, &v))
                return false;
            o->limits.depth = (int)v;
        } else if (strcmp(flag, "--nodes") == 0) {
            if (!cli_read_number(flag, value, 1, 2000000000000L, &v))
                return false;
            o->limits.nodes = (uint64_t)v;
        } else if (strcmp(flag, "--movetime") == 0) {
            if (!cli_read_number(flag, value, 1, 86400000L, &v))
                return false;
            o->limits.movetime_ms = v;
        } else if (strcmp(flag, "--tc") == 0) {
            ErrBuf err;
            if (play_clock_parse(value, "--tc", MAX_PLAYERS, &o->tc, &err) != STATUS_OK) {
                cli_error("%s", err.msg);
                return false;
            }
        } else if (strcmp(flag, "--engine-option") == 0) {
            if (o->n_engine_options == CLI_MAX_ENGINE_OPTIONS) {
                cli_error("too many --engine-option settings");
                return false;
            }
            // "[K:]NAME=VALUE", split in place like --rule: K ties it to one --players entry.
            char *text = argv[i] + (value - argv[i]);
            CliEngineOption *eo = &o->engine_options[o->n_engine_options];
            eo->entry = 0;
            size_t digits = strspn(text, "0123456789");
            if (digits > 0 && text[digits] == ':') {
                eo->entry = atoi(text);
                text += digits + 1;
                if (eo->entry < 1 || eo->entry > CLI_MAX_ENTRIES) {
                    cli_error("--engine-option %d:...: the entry of --players counts from 1 "
                              "to %d", eo->entry, CLI_MAX_ENTRIES);
                    return false;
                }
            }
            char *eq = strchr(text, '=');
            if (eq == NULL || eq == text) {
                cli_error("--engine-option takes [K:]NAME=VALUE, such as UCI_Elo=2000 or "
                          "2:Skill Level=3, not '%s'", value);
                return false;
            }
            *eq = '\0';
            eo->option = (EngineOption){text, eq + 1};
            o->n_engine_options++;
        } else if (strcmp(flag, "--games") == 0) {
            if (!cli_read_number(flag, value, 1, 1000000000, &o->games))
                return false;
            o->games_set = true;
        } else if (strcmp(flag, "--jobs") == 0) {
            if (!cli_read_number(flag, value, 1, 64, &o->jobs))
                return false;
        } else {
            cli_error("unknown option '%s'", flag);
            return false;
        }
    }
    return true;
}

void cli_engine_options_for(const CliOptions *o, int entry, EngineOption *out, int cap, int *n)
{
    *n = 0;
    for (int i = 0; i < o->n_engine_options && *n < cap; i++)
        if (o->engine_options[i].entry == 0 || o->engine_options[i].entry == entry + 1)
            out[(*n)++] = o->engine_options[i].option;
}

SearchLimits cli_search_limits(const CliOptions *o)
{
    SearchLimits l = o->limits;
    if ((l.depth > 0 || l.nodes > 0) && l.movetime_ms == 0)
        l.movetime_ms = SEARCH_UNLIMITED;
    return l;
}

static bool make_game(const char *name, const CliOptions *o, Game **out)
{
    const GameOps *ops;
    ErrBuf err;
    if (registry_lookup(name, &ops, &err) != STATUS_OK) {
        cli_error("%s", err.msg);
        return false;
    }
    if (game_create(ops, 0, o->rules, o->n_rules, out, &err) != STATUS_OK) {
        cli_error("%s", err.msg);
        return false;
    }
    return true;
}

static bool make_state(const Game *g, const CliOptions *o, GameState **out)
{
    GameState *s = game_state_new(g);
    if (s == NULL) {
        cli_error("out of memory");
        return false;
    }
    g->ops->new_game(g, s, o->seed);
    if (o->position != NULL) {
        ErrBuf err;
        if (g->ops->parse_position(g, s, o->position, &err) != STATUS_OK) {
            cli_error("bad position: %s", err.msg);
            free(s);
            return false;
        }
    }
    *out = s;
    return true;
}

bool cli_make_game(const CliOptions *o, Game **game, GameState **state)
{
    if (!make_game(o->positional[0], o, game))
        return false;
    if (!make_state(*game, o, state)) {
        game_destroy(*game);
        return false;
    }
    return true;
}

bool cli_open_perfect(const CliOptions *o, Perfect **out)
{
    ErrBuf err;
    if (perfect_open(o->tablebase, out, &err) != STATUS_OK) {
        cli_error("--tablebase: %s", err.msg);
        return false;
    }
    return true;
}
