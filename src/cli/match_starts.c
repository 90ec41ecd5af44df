/*
 * match_starts.c - the starts of a match's games: fixed, a random set-up per group, or
 * an openings file's lines.
 */
#include "cli/match_starts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "play/turn.h"

/* Plays `line` onto *s: a position text, or actions from *s separated by spaces (each a
 * whole turn's text, or a chance outcome). *s is unchanged on error. */
static Status apply_line(const Game *g, GameState *s, const char *line, ErrBuf *err)
{
    const GameOps *ops = g->ops;
    GameState *work = game_state_clone(g, s);
    void *undo = game_undo_new(g);
    char *copy = strdup(line);
    Status st = STATUS_OK;
    if (work == NULL || undo == NULL || copy == NULL) {
        st = err_set(err, STATUS_NOMEM, "out of memory");
        goto done;
    }
    ErrBuf pos_err;
    if (ops->parse_position(g, work, line, &pos_err) == STATUS_OK)
        goto done;
    int played = 0;
    for (char *save = NULL, *tok = strtok_r(copy, " \t", &save); tok != NULL;
         tok = strtok_r(NULL, " \t", &save)) {
        ErrBuf e2;
        Move acts[PLAY_TURN_CAP];
        int n = 0;
        st = play_parse_next(g, work, tok, acts, PLAY_TURN_CAP, &n, &e2);
        for (int i = 0; st == STATUS_OK && i < n; i++)
            ops->make(g, work, acts[i], undo);
        if (st != STATUS_OK) {
            if (played == 0)
                st = err_set(err, STATUS_PARSE,
                             "neither a position (%s) nor actions from the start ('%.40s': %s)",
                             pos_err.msg, tok, e2.msg);
            else
                st = err_set(err, st, "action %d '%.40s': %s", played + 1, tok, e2.msg);
            goto done;
        }
        played++;
    }
    if (played == 0)
        st = err_set(err, STATUS_PARSE, "an empty line");
    else if (ops->to_move(g, work) == PLAYER_NONE)
        st = err_set(err, STATUS_ILLEGAL, "the game is over after these actions");
done:
    if (st == STATUS_OK)
        game_state_copy(g, s, work);
    free(copy);
    free(undo);
    free(work);
    return st;
}

static Status read_openings(MatchStarts *ms, const char *path, ErrBuf *err)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot read the openings file '%s'", path);
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, slots = 0;
    Status st = STATUS_OK;
    GameState *check = game_state_new(ms->game);
    if (check == NULL)
        st = err_set(err, STATUS_NOMEM, "out of memory");
    while (st == STATUS_OK && getline(&line, &cap, f) >= 0) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        const char *text = line + strspn(line, " \t");
        if (*text == '\0' || *text == '#')
            continue; // blank lines and comments
        game_state_copy(ms->game, check, ms->base);
        ErrBuf e2;
        if (apply_line(ms->game, check, text, &e2) != STATUS_OK) {
            st = err_set(err, STATUS_PARSE, "%s line %d: %s", path, lineno, e2.msg);
            break;
        }
        if (ms->count == slots) {
            slots = slots ? 2 * slots : 16;
            char **grown = realloc(ms->lines, (size_t)slots * sizeof *grown);
            if (grown == NULL) {
                st = err_set(err, STATUS_NOMEM, "out of memory");
                break;
            }
            ms->lines = grown;
        }
        if ((ms->lines[ms->count] = strdup(text)) == NULL) {
            st = err_set(err, STATUS_NOMEM, "out of memory");
            break;
        }
        ms->count++;
    }
    if (st == STATUS_OK && ms->count == 0)
        st = err_set(err, STATUS_PARSE, "the openings file '%s' has no opening", path);
    free(check);
    free(line);
    fclose(f);
    return st;
}

/* Whether the game draws its set-up: two seeds, two different starts. */
static bool draws_setup(const Game *g)
{
    GameState *a = game_state_new(g), *b = game_state_new(g);
    bool differ = false;
    if (a != NULL && b != NULL) {
        memset(a, 0, g->state_size);
        memset(b, 0, g->state_size);
        g->ops->new_game(g, a, 1);
        g->ops->new_game(g, b, 2);
        differ = memcmp(a, b, g->state_size) != 0;
    }
    free(a);
    free(b);
    return differ;
}

Status match_starts_init(MatchStarts *ms, const Game *g, const GameState *base,
                         bool position_given, uint64_t seed, const char *openings_path,
                         ErrBuf *err)
{
    memset(ms, 0, sizeof *ms);
    ms->game = g;
    ms->seed = seed;
    ms->base = game_state_clone(g, base);
    if (ms->base == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    if (openings_path != NULL) {
        const Status st = read_openings(ms, openings_path, err);
        if (st != STATUS_OK) {
            match_starts_free(ms);
            return st;
        }
    } else {
        ms->random_setup = !position_given && draws_setup(g);
    }
    return STATUS_OK;
}

void match_starts_free(MatchStarts *ms)
{
    for (int i = 0; i < ms->count; i++)
        free(ms->lines[i]);
    free(ms->lines);
    free(ms->base);
    memset(ms, 0, sizeof *ms);
}

Status match_start(const MatchStarts *ms, int group, GameState *out, ErrBuf *err)
{
    const Game *g = ms->game;
    if (ms->count > 0) {
        game_state_copy(g, out, ms->base);
        return apply_line(g, out, ms->lines[group % ms->count], err);
    }
    if (ms->random_setup) {
        uint64_t k = ms->seed ^ (0x5E7A9ULL + (uint64_t)group * 0x9E3779B97F4A7C15ULL);
        g->ops->new_game(g, out, rng_mix(&k));
        return STATUS_OK;
    }
    game_state_copy(g, out, ms->base);
    return STATUS_OK;
}

const char *match_starts_kind(const MatchStarts *ms)
{
    if (ms->count > 0)
        return "openings from the file, each with every seating";
    if (ms->random_setup)
        return "a random set-up per group of games, each with every seating";
    return "one start";
}
