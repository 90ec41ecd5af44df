/*
 * turn.c - a turn's text to checked actions (turn.h). Without a parse_actions hook the
 * actions are read one by one on a scratch copy, since each one's meaning depends on the
 * position the ones before it leave.
 */
#include "play/turn.h"

#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/invariant.h"

/* Reads the ';'-separated actions of `mover` from `text` (a writable copy) on scratch. */
static Status read_actions(const Game *g, GameState *scratch, void *undo, int mover, char *text,
                           Move *acts, int cap, int *n, ErrBuf *err)
{
    char *save = NULL;
    for (char *tok = strtok_r(text, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        while (*tok == ' ' || *tok == '\t')
            tok++;
        char *end = tok + strlen(tok);
        while (end > tok && (end[-1] == ' ' || end[-1] == '\t'))
            *--end = '\0';
        if (*tok == '\0')
            continue;
        if (*n == cap)
            return err_set(err, STATUS_PARSE, "at most %d actions at once", cap);
        if (g->ops->to_move(g, scratch) != mover)
            return err_set(err, STATUS_ILLEGAL, "'%.40s' comes after your turn is over", tok);
        const Status st = g->ops->parse_move(g, scratch, tok, &acts[*n], err);
        if (st != STATUS_OK)
            return st;
        g->ops->make(g, scratch, acts[(*n)++], undo);
        GAME_CHECK(g, scratch);
    }
    return STATUS_OK;
}

Status play_parse_turn(const Game *g, const GameState *s, const char *text, Move *acts, int cap,
                       int *n, ErrBuf *err)
{
    *n = 0;
    const int mover = g->ops->to_move(g, s);
    if (mover == PLAYER_NONE)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    if (mover == PLAYER_CHANCE)
        return err_set(err, STATUS_ILLEGAL, "chance acts next, not a player");
    Status st;
    if (g->ops->parse_actions != NULL) {
        st = g->ops->parse_actions(g, s, text, acts, cap, n, err);
    } else {
        char *copy = malloc(strlen(text) + 1);
        GameState *scratch = game_state_clone(g, s);
        void *undo = game_undo_new(g);
        if (copy == NULL || scratch == NULL || undo == NULL) {
            st = err_set(err, STATUS_NOMEM, "out of memory");
        } else {
            strcpy(copy, text);
            st = read_actions(g, scratch, undo, mover, copy, acts, cap, n, err);
        }
        free(copy);
        free(scratch);
        free(undo);
    }
    if (st == STATUS_OK && *n == 0)
        st = err_set(err, STATUS_PARSE, "no move given");
    if (st != STATUS_OK)
        *n = 0;
    return st;
}

Status play_format_turn(const Game *g, const GameState *s, const Move *acts, int n,
                        StrBuf *out, ErrBuf *err)
{
    GameState *scratch = game_state_clone(g, s);
    void *undo = game_undo_new(g);
    if (scratch == NULL || undo == NULL) {
        free(scratch);
        free(undo);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        if (i > 0)
            sb_putc(out, ';');
        g->ops->format_move(g, scratch, acts[i], out);
        g->ops->make(g, scratch, acts[i], undo);
    }
    free(scratch);
    free(undo);
    return STATUS_OK;
}
