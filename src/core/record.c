/*
 * record.c - game records: replay-based undo and the text file format of record.h.
 */
#include "core/record.h"

#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/invariant.h"

Status record_init(GameRecord *r, Game *g, const GameState *start, ErrBuf *err)
{
    memset(r, 0, sizeof *r);
    r->game = g;
    r->start = game_state_clone(g, start);
    r->current = game_state_clone(g, start);
    r->undo = game_undo_new(g);
    r->cap = 64;
    r->moves = malloc(sizeof *r->moves * (size_t)r->cap);
    if (!r->start || !r->current || !r->undo || !r->moves) {
        record_free(r);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    return STATUS_OK;
}

void record_free(GameRecord *r)
{
    if (r->game)
        game_destroy(r->game);
    free(r->start);
    free(r->current);
    free(r->undo);
    free(r->moves);
    memset(r, 0, sizeof *r);
}

Status record_push(GameRecord *r, Move m, ErrBuf *err)
{
    if (r->count == r->cap) {
        Move *p = realloc(r->moves, sizeof *p * (size_t)r->cap * 2);
        if (p == NULL)
            return err_set(err, STATUS_NOMEM, "out of memory");
        r->moves = p;
        r->cap *= 2;
    }
    r->game->ops->make(r->game, r->current, m, r->undo);
    GAME_CHECK(r->game, r->current);
    r->moves[r->count++] = m;
    return STATUS_OK;
}

void record_truncate(GameRecord *r, int count)
{
    if (count < 0)
        count = 0;
    if (count > r->count)
        return;
    game_state_copy(r->game, r->current, r->start);
    for (int i = 0; i < count; i++) {
        r->game->ops->make(r->game, r->current, r->moves[i], r->undo);
        GAME_CHECK(r->game, r->current);
    }
    r->count = count;
}

void record_write(const GameRecord *r, const char *result, StrBuf *out)
{
    const Game *g = r->game;
    sb_printf(out, "crown-record 1\ngame %s\n", g->ops->name);
    for (int i = 0; i < g->ops->option_count; i++)
        sb_printf(out, "rule %s=%s\n", g->ops->options[i].name, g->values[i]);
    if (r->players[0])
        sb_printf(out, "players %s\n", r->players);
    sb_puts(out, "start ");
    g->ops->format_position(g, r->start, out);
    sb_putc(out, '\n');
    GameState *s = game_state_clone(g, r->start);
    void *undo = game_undo_new(g);
    if (s == NULL || undo == NULL) {
        out->failed = true;
    } else {
        for (int i = 0; i < r->count; i++) {
            sb_puts(out, "move ");
            g->ops->format_move(g, s, r->moves[i], out);
            sb_putc(out, '\n');
            g->ops->make(g, s, r->moves[i], undo);
            GAME_CHECK(g, s);
        }
    }
    free(s);
    free(undo);
    if (result)
        sb_printf(out, "result %s\n", result);
}

Status record_save(const GameRecord *r, const char *result, const char *path, ErrBuf *err)
{
    StrBuf text;
    sb_init(&text);
    record_write(r, result, &text);
    Status st = STATUS_OK;
    FILE *f = fopen(path, "w");
    if (sb_failed(&text))
        st = err_set(err, STATUS_NOMEM, "out of memory");
    else if (f == NULL)
        st = err_set(err, STATUS_IO, "cannot write '%s'", path);
    else if (fputs(sb_str(&text), f) < 0)
        st = err_set(err, STATUS_IO, "error writing '%s'", path);
    if (f != NULL && fclose(f) != 0 && st == STATUS_OK)
        st = err_set(err, STATUS_IO, "error writing '%s'", path);
    sb_free(&text);
    return st;
}

enum { RECORD_MAX_BYTES = 4 << 20 };

Status record_load(const char *path, GameLookup *lookup, GameRecord *out, ErrBuf *err)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot open '%s'", path);
    char *buf = malloc(RECORD_MAX_BYTES + 1);
    if (buf == NULL) {
        fclose(f);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    size_t n = fread(buf, 1, RECORD_MAX_BYTES + 1, f);
    fclose(f);
    if (n > RECORD_MAX_BYTES) {
        free(buf);
        return err_set(err, STATUS_PARSE, "'%s' is larger than 4 MiB", path);
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n) != NULL) {
        free(buf);
        return err_set(err, STATUS_PARSE, "'%s' is not a text file", path);
    }
    Status st = record_parse(buf, lookup, out, err);
    free(buf);
    return st;
}

/* Splits off the next line (without its end) and returns it, or NULL at the end. */
static char *next_line(char **cursor)
{
    char *line = *cursor;
    if (*line == '\0')
        return NULL;
    char *nl = strchr(line, '\n');
    if (nl) {
        *nl = '\0';
        *cursor = nl + 1;
    } else {
        *cursor = line + strlen(line);
    }
    size_t len = strlen(line);
    if (len && line[len - 1] == '\r')
        line[len - 1] = '\0';
    return line;
}

Status record_parse(const char *text, GameLookup *lookup, GameRecord *out, ErrBuf *err)
{
    char *copy = malloc(strlen(text) + 1);
    if (copy == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    strcpy(copy, text);
    enum { MAX_RULE_LINES = 64 };
    RuleSetting rules[MAX_RULE_LINES];
    int n_rules = 0, lineno = 0;
    const char *game_name = NULL, *players = NULL, *start = NULL;
    char *cursor = copy, *line;
    Status st = STATUS_OK;
    GameRecord r;
    memset(&r, 0, sizeof r);
    bool header = false, started = false;
    while ((line = next_line(&cursor)) != NULL) {
        lineno++;
        if (line[0] == '\0' || line[0] == '#')
            continue;
        char *sp = strchr(line, ' ');
        const char *arg = sp ? sp + 1 : "";
        if (sp)
            *sp = '\0';
        if (!header) {
            if (strcmp(line, "crown-record") != 0 || strcmp(arg, "1") != 0) {
                st = err_set(err, STATUS_PARSE, "line %d: not a crown game record (it must begin "
                             "with 'crown-record 1')", lineno);
                break;
            }
            header = true;
        } else if (strcmp(line, "game") == 0 && !started) {
            game_name = arg;
        } else if (strcmp(line, "rule") == 0 && !started) {
            if (n_rules == MAX_RULE_LINES) {
                st = err_set(err, STATUS_PARSE, "line %d: too many rule lines", lineno);
                break;
            }
            // Split at the edge, in this line's own copy of the text.
            ErrBuf e2;
            if (sp == NULL) {
                st = err_set(err, STATUS_PARSE, "line %d: 'rule' needs NAME=VALUE", lineno);
                break;
            }
            if ((st = rule_setting_split(sp + 1, &rules[n_rules], &e2)) != STATUS_OK) {
                err_set(err, st, "line %d: %s", lineno, e2.msg);
                break;
            }
            n_rules++;
        } else if (strcmp(line, "players") == 0 && !started) {
            players = arg;
        } else if (strcmp(line, "start") == 0 && !started) {
            start = arg;
            if (game_name == NULL) {
                st = err_set(err, STATUS_PARSE, "line %d: 'start' before 'game'", lineno);
                break;
            }
            const GameOps *ops = lookup(game_name);
            if (ops == NULL) {
                st = err_set(err, STATUS_PARSE, "line %d: no game called '%.40s'", lineno,
                             game_name);
                break;
            }
            Game *g;
            ErrBuf e2;
            if ((st = game_create(ops, 0, rules, n_rules, &g, &e2)) != STATUS_OK) {
                err_set(err, st, "line %d: %s", lineno, e2.msg);
                break;
            }
            GameState *s = game_state_new(g);
            if (s == NULL) {
                game_destroy(g);
                st = err_set(err, STATUS_NOMEM, "out of memory");
                break;
            }
            if ((st = ops->parse_position(g, s, start, &e2)) != STATUS_OK) {
                err_set(err, st, "line %d: bad start position: %s", lineno, e2.msg);
                free(s);
                game_destroy(g);
                break;
            }
            st = record_init(&r, g, s, err);
            free(s);
            if (st != STATUS_OK)
                break;
            if (players)
                snprintf(r.players, sizeof r.players, "%s", players);
            started = true;
        } else if (strcmp(line, "move") == 0 && started) {
            Move m;
            ErrBuf e2;
            if (game_is_over(r.game, r.current)) {
                st = err_set(err, STATUS_ILLEGAL, "line %d: move '%.40s' after the game ended",
                             lineno, arg);
                break;
            }
            if ((st = game_parse_action(r.game, r.current, arg, &m, &e2)) != STATUS_OK) {
                err_set(err, st, "line %d: move %d '%.40s': %s", lineno, r.count + 1, arg, e2.msg);
                break;
            }
            if ((st = record_push(&r, m, err)) != STATUS_OK)
                break;
        } else if (strcmp(line, "result") == 0) {
            continue;
        } else {
            st = err_set(err, STATUS_PARSE, "line %d: unexpected '%.40s'", lineno, line);
            break;
        }
    }
    if (st == STATUS_OK && !started)
        st = err_set(err, STATUS_PARSE, header ? "the record has no 'game' and 'start' lines"
                                              : "the file is empty");
    free(copy);
    if (st != STATUS_OK) {
        if (started)
            record_free(&r);
        return st;
    }
    *out = r;
    return STATUS_OK;
}
