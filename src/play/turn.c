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
#include "play/spelling.h"

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

/* Reads `text` exactly as the game writes it (play_parse_turn without respellings). */
static Status parse_as_written(const Game *g, const GameState *s, int mover, const char *text,
                               Move *acts, int cap, int *n, ErrBuf *err)
{
    *n = 0;
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

/* Reads `text` as one action of the player to move, exactly as the game writes it
 * (play_parse_action without respellings); the shape of parse_as_written. */
static Status one_as_written(const Game *g, const GameState *s, int mover, const char *text,
                             Move *acts, int cap, int *n, ErrBuf *err)
{
    (void)mover;
    (void)cap;
    *n = 0;
    const Status st = g->ops->parse_move(g, s, text, &acts[0], err);
    if (st == STATUS_OK)
        *n = 1;
    return st;
}

typedef Status (*Reader)(const Game *g, const GameState *s, int mover, const char *text,
                         Move *acts, int cap, int *n, ErrBuf *err);

/* `read` on the text as typed, then on its respellings. */
static Status read_spelled(Reader read, const Game *g, const GameState *s, int mover,
                           const char *text, Move *acts, int cap, int *n, ErrBuf *err)
{
    Status st = read(g, s, mover, text, acts, cap, n, err);
    if (st == STATUS_OK || st == STATUS_NOMEM)
        return st;
    // What players type (upper case, b1b4, e2-e4) is read when exactly one way of
    // reading it is a turn. When none is, the error is about the text as typed, unless
    // that could not be read and a respelling could, but breaks a rule: that says more.
    char alt[PLAY_SPELLING_MAX][64];
    const int n_alt = play_respellings(text, alt, sizeof alt[0]);
    Move found[PLAY_TURN_CAP], tried[PLAY_TURN_CAP];
    int n_found = 0, which = -1;
    for (int k = 0; k < n_alt; k++) {
        int m;
        ErrBuf why;
        const int room = cap < PLAY_TURN_CAP ? cap : PLAY_TURN_CAP;
        const Status alt_st = read(g, s, mover, alt[k], tried, room, &m, &why);
        if (alt_st == STATUS_ILLEGAL && st == STATUS_PARSE) {
            st = alt_st;
            *err = why;
        }
        if (alt_st != STATUS_OK)
            continue;
        if (which >= 0 && (m != n_found || memcmp(tried, found, (size_t)m * sizeof *tried) != 0))
            return err_set(err, STATUS_PARSE, "'%.40s' may be read as %s or %s: write it as "
                           "the game does", text, alt[which], alt[k]);
        if (which < 0) {
            which = k;
            n_found = m;
            memcpy(found, tried, (size_t)m * sizeof *tried);
        }
    }
    if (which < 0)
        return st;
    memcpy(acts, found, (size_t)n_found * sizeof *found);
    *n = n_found;
    return STATUS_OK;
}

/* The player to move in s, or an error when none is. */
static Status player_to_move(const Game *g, const GameState *s, int *mover, ErrBuf *err)
{
    *mover = g->ops->to_move(g, s);
    if (*mover == PLAYER_NONE)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    if (*mover == PLAYER_CHANCE)
        return err_set(err, STATUS_ILLEGAL, "chance acts next, not a player");
    return STATUS_OK;
}

Status play_parse_turn(const Game *g, const GameState *s, const char *text, Move *acts, int cap,
                       int *n, ErrBuf *err)
{
    *n = 0;
    int mover;
    const Status st = player_to_move(g, s, &mover, err);
    if (st != STATUS_OK)
        return st;
    return read_spelled(parse_as_written, g, s, mover, text, acts, cap, n, err);
}

Status play_parse_action(const Game *g, const GameState *s, const char *text, Move *m,
                         ErrBuf *err)
{
    if (g->ops->to_move(g, s) == PLAYER_CHANCE)
        return game_parse_action(g, s, text, m, err);
    int mover, n;
    Move one[1];
    Status st = player_to_move(g, s, &mover, err);
    if (st == STATUS_OK)
        st = read_spelled(one_as_written, g, s, mover, text, one, 1, &n, err);
    if (st == STATUS_OK)
        *m = one[0];
    return st;
}

Status play_parse_next(const Game *g, const GameState *s, const char *text, Move *acts, int cap,
                       int *n, ErrBuf *err)
{
    *n = 0;
    if (g->ops->to_move(g, s) != PLAYER_CHANCE)
        return play_parse_turn(g, s, text, acts, cap, n, err);
    if (cap < 1)
        return err_set(err, STATUS_PARSE, "no room for an action");
    const Status st = game_parse_action(g, s, text, &acts[0], err);
    *n = st == STATUS_OK;
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
