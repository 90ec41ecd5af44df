/*
 * game_api.c - game creation with rule-option checking, and the generic helpers that
 * work for any game through its ops table.
 */
#include "core/game_api.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/invariant.h"

int game_option_index(const GameOps *ops, const char *name)
{
    for (int i = 0; i < ops->option_count; i++)
        if (strcmp(ops->options[i].name, name) == 0)
            return i;
    return -1;
}

/* True if `value` is one of the '|'-separated words of `choices`. */
static bool is_choice(const char *choices, const char *value)
{
    size_t n = strlen(value);
    const char *p = choices;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, value, n) == 0)
            return true;
        if (!bar)
            break;
        p = bar + 1;
    }
    return false;
}

static Status check_value(const GameOps *ops, const RuleOption *o, const char *value,
                          ErrBuf *err)
{
    if (strlen(value) >= OPTION_VALUE_LEN)
        return err_set(err, STATUS_PARSE, "value of rule '%s' is too long", o->name);
    if (o->kind == RULE_TEXT || o->kind == RULE_FILE)
        return STATUS_OK;
    if (o->kind == RULE_CHOICE) {
        if (!is_choice(o->choices, value))
            return err_set(err, STATUS_PARSE, "rule '%s' of %s takes one of %s, not '%s'",
                           o->name, ops->name, o->choices, value);
        return STATUS_OK;
    }
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || v < o->min || v > o->max)
        return err_set(err, STATUS_PARSE, "rule '%s' of %s takes a whole number from %ld to %ld, not '%s'",
                       o->name, ops->name, o->min, o->max, value);
    return STATUS_OK;
}

Status game_create(const GameOps *ops, int players, const RuleSetting *rules, int n_rules,
                   Game **out, ErrBuf *err)
{
    *out = NULL;
    if (players == 0)
        players = ops->min_players;
    if (players < ops->min_players || players > ops->max_players)
        return err_set(err, STATUS_UNSUPPORTED, "%s is for %d to %d players, not %d", ops->name,
                       ops->min_players, ops->max_players, players);
    Game *g = calloc(1, sizeof *g);
    if (g == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    g->ops = ops;
    g->players = players;
    for (int i = 0; i < ops->option_count; i++)
        snprintf(g->values[i], sizeof g->values[i], "%s", ops->options[i].default_value);
    for (int r = 0; r < n_rules; r++) {
        const char *name = rules[r].name, *value = rules[r].value;
        if (name == NULL || name[0] == '\0' || value == NULL) {
            free(g);
            return err_set(err, STATUS_PARSE, "a rule setting needs a name and a value");
        }
        int idx = game_option_index(ops, name);
        if (idx < 0) {
            StrBuf names;
            sb_init(&names);
            for (int i = 0; i < ops->option_count; i++)
                sb_printf(&names, "%s%s", i ? ", " : "", ops->options[i].name);
            err_set(err, STATUS_PARSE, "%s has no rule '%.64s' (its rules: %s)", ops->name, name,
                    ops->option_count ? sb_str(&names) : "none");
            sb_free(&names);
            free(g);
            return STATUS_PARSE;
        }
        Status st = check_value(ops, &ops->options[idx], value, err);
        if (st != STATUS_OK) {
            free(g);
            return st;
        }
        snprintf(g->values[idx], sizeof g->values[idx], "%s", value);
    }
    Status st = ops->configure(g, err);
    if (st != STATUS_OK) {
        free(g);
        return st;
    }
    *out = g;
    return STATUS_OK;
}

Status rule_setting_split(char *text, RuleSetting *out, ErrBuf *err)
{
    char *eq = strchr(text, '=');
    if (eq == NULL || eq == text)
        return err_set(err, STATUS_PARSE, "rule setting '%.64s' is not of the form NAME=VALUE",
                       text);
    *eq = '\0';
    out->name = text;
    out->value = eq + 1;
    return STATUS_OK;
}

const char *rule_kind_name(RuleKind kind)
{
    switch (kind) {
    case RULE_CHOICE:
        return "choice";
    case RULE_INTEGER:
        return "integer";
    case RULE_TEXT:
        return "text";
    case RULE_FILE:
        return "file";
    }
    return "unknown";
}

void game_destroy(Game *g)
{
    if (g == NULL)
        return;
    if (g->ops->release)
        g->ops->release(g);
    free(g);
}

const char *game_option(const Game *g, const char *name)
{
    int idx = game_option_index(g->ops, name);
    return idx < 0 ? NULL : g->values[idx];
}

long game_option_long(const Game *g, const char *name, long fallback)
{
    const char *v = game_option(g, name);
    return v == NULL ? fallback : strtol(v, NULL, 10);
}

void game_returns_two_player(int winner, double out[MAX_PLAYERS])
{
    for (int p = 0; p < MAX_PLAYERS; p++)
        out[p] = 0;
    if (winner == 0 || winner == 1) {
        out[winner] = 1;
        out[winner ^ 1] = -1;
    }
}

bool game_option_is(const Game *g, const char *name, const char *value)
{
    const char *v = game_option(g, name);
    return v != NULL && strcmp(v, value) == 0;
}

Status game_parse_plies(const char *text, int max_plies, long *out, ErrBuf *err)
{
    char *end;
    errno = 0;
    const long ply = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || end == text || ply < 0)
        return err_set(err, STATUS_PARSE, "the plies played must be a whole number, not '%s'",
                       text);
    if (ply > max_plies)
        return err_set(err, STATUS_PARSE, "%ld plies played is past the limit of %d (max-plies)",
                       ply, max_plies);
    *out = ply;
    return STATUS_OK;
}

void game_format_rules(const Game *g, StrBuf *out)
{
    for (int i = 0; i < g->ops->option_count; i++)
        sb_printf(out, "%s%s=%s", i ? " " : "", g->ops->options[i].name, g->values[i]);
}

GameState *game_state_new(const Game *g)
{
    return calloc(1, g->state_size);
}

int game_action_kind(const Game *g, const GameState *s, Move m, StrBuf *label)
{
    if (g->ops->action_kind == NULL)
        return -1;
    const size_t before = label->len;
    const int k = g->ops->action_kind(g, s, m, label);
    if (k < 0 || k >= g->ops->action_kind_count)
        return -1;
    if (label->len == before)
        sb_puts(label, g->ops->action_kinds[k].label);
    return k;
}

const char *game_turn_help(const Game *g, const GameState *s)
{
    if (g->ops->turn_help == NULL || g->ops->to_move(g, s) < 0)
        return NULL;
    return g->ops->turn_help(g, s);
}

void game_format_move_read(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    if (g->ops->format_move_read)
        g->ops->format_move_read(g, s, m, out);
    else
        g->ops->format_move(g, s, m, out);
}

void *game_undo_new(const Game *g)
{
    return calloc(1, g->undo_size ? g->undo_size : 1);
}

GameState *game_state_clone(const Game *g, const GameState *s)
{
    GameState *c = malloc(g->state_size);
    if (c != NULL)
        memcpy(c, s, g->state_size);
    return c;
}

void game_state_copy(const Game *g, GameState *dst, const GameState *src)
{
    memcpy(dst, src, g->state_size);
}

/* Recursion state of perft: one move list and undo record per ply. */
typedef struct PerftFrame {
    MoveList list;
    ChanceList chance;
} PerftFrame;

/* The one perft recursion of crown; `bulk` lets the game count the last plies. */
static uint64_t perft_rec(const Game *g, GameState *s, int depth, PerftFrame *frames,
                          unsigned char *undo, bool bulk)
{
    const GameOps *ops = g->ops;
    uint64_t total = 0;
    if (bulk && ops->perft_leaves(g, s, depth, &total))
        return total;
    PerftFrame *f = &frames[depth];
    int n;
    const Move *moves;
    if ((ops->flags & GAME_HAS_CHANCE) && ops->to_move(g, s) == PLAYER_CHANCE) {
        n = ops->chance_outcomes(g, s, &f->chance);
        moves = f->chance.outcomes;
    } else {
        n = ops->gen_moves(g, s, &f->list);
        moves = f->list.moves;
    }
    if (depth == 1)
        return (uint64_t)n;
    void *u = undo + (size_t)depth * g->undo_size;
    for (int i = 0; i < n; i++) {
        ops->make(g, s, moves[i], u);
        total += perft_rec(g, s, depth - 1, frames, undo, bulk);
        ops->unmake(g, s, moves[i], u);
    }
    return total;
}

static Status perft_run(const Game *g, GameState *s, int depth, bool bulk, const Mem *mem,
                        uint64_t *count)
{
    *count = 1;
    if (depth <= 0)
        return STATUS_OK;
    PerftFrame *frames = mem_alloc(mem, sizeof *frames * (size_t)(depth + 1));
    unsigned char *undo = mem_alloc(mem, g->undo_size * (size_t)(depth + 1) + 1);
    Status st = frames != NULL && undo != NULL ? STATUS_OK : STATUS_NOMEM;
    *count = st == STATUS_OK ? perft_rec(g, s, depth, frames, undo, bulk) : 0;
    mem_free(mem, frames);
    mem_free(mem, undo);
    return st;
}

uint64_t game_perft_generic(const Game *g, GameState *s, int depth)
{
    uint64_t n;
    perft_run(g, s, depth, false, NULL, &n);
    return n;
}

uint64_t game_perft(const Game *g, GameState *s, int depth)
{
    uint64_t n;
    perft_run(g, s, depth, g->ops->perft_leaves != NULL, NULL, &n);
    return n;
}

Status game_perft_mem(const Game *g, GameState *s, int depth, const Mem *mem, uint64_t *count)
{
    return perft_run(g, s, depth, g->ops->perft_leaves != NULL, mem, count);
}

Status game_parse_action(const Game *g, const GameState *s, const char *text, Move *m,
                         ErrBuf *err)
{
    const int p = g->ops->to_move(g, s);
    if (p == PLAYER_NONE)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    if (p != PLAYER_CHANCE)
        return g->ops->parse_move(g, s, text, m, err);
    ChanceList *cl = malloc(sizeof *cl);
    if (cl == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    const int n = g->ops->chance_outcomes(g, s, cl);
    Status st = err_set(err, STATUS_ILLEGAL, "'%.40s' is not a possible chance outcome here",
                        text);
    StrBuf t;
    sb_init(&t);
    for (int i = 0; i < n && st != STATUS_OK; i++) {
        sb_clear(&t);
        g->ops->format_move(g, s, cl->outcomes[i], &t);
        if (strcmp(sb_str(&t), text) == 0) {
            *m = cl->outcomes[i];
            st = STATUS_OK;
        }
    }
    if (sb_failed(&t) && st != STATUS_OK)
        st = err_set(err, STATUS_NOMEM, "out of memory");
    sb_free(&t);
    free(cl);
    return st;
}

Status game_play_text(const Game *g, GameState *s, const char *text, Move *played, ErrBuf *err)
{
    Move m;
    if (g->ops->to_move(g, s) == PLAYER_NONE)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    Status st = g->ops->parse_move(g, s, text, &m, err);
    if (st != STATUS_OK)
        return st;
    void *undo = game_undo_new(g);
    if (undo == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    g->ops->make(g, s, m, undo);
    GAME_CHECK(g, s);
    free(undo);
    if (played)
        *played = m;
    return STATUS_OK;
}

Move game_sample_chance(const Game *g, const GameState *s, Rng *rng)
{
    ChanceList cl;
    int n = g->ops->chance_outcomes(g, s, &cl);
    double r = rng_double(rng);
    for (int i = 0; i < n; i++) {
        r -= cl.prob[i];
        if (r < 0)
            return cl.outcomes[i];
    }
    return cl.outcomes[n - 1];
}

int game_action_index(const Game *g, const GameState *s, Move m)
{
    return g->ops->action_index ? g->ops->action_index(g, s, m) : g->ops->move_index(g, s, m);
}

int game_action_index_count(const Game *g)
{
    return g->ops->action_index ? g->action_index_count : g->move_index_count;
}
