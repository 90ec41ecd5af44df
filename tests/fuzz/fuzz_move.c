/*
 * fuzz_move.c - libFuzzer target: every game's move parser. Input: a line
 * "GAME [rule=value ...]", a line with a position text ("start" for the start
 * position), then one action's text. A refused move must leave the state untouched; an
 * accepted one must be among the legal actions, read back to the same Move from its own
 * text, keep is_ok after make, and unmake must restore the state byte for byte. The
 * same text is also read as a whole turn (parse_actions, where the game has it): every
 * action it gives must be legal in turn, and unmaking them all restores the state.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool is_offered(const Game *g, const GameState *s, Move m)
{
    MoveList *ml = malloc(sizeof *ml);
    if (ml == NULL)
        return true; // nothing to check against
    const int n = g->ops->gen_moves(g, s, ml);
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        found = ml->moves[i] == m;
    free(ml);
    return found;
}

enum { MAX_ACTIONS = 64 };

/* The turn-text reader: its actions played one after the other, then taken back. */
static void check_turn(const Game *g, GameState *s, const GameState *before, const char *text)
{
    const GameOps *ops = g->ops;
    Move acts[MAX_ACTIONS];
    int n = -1;
    ErrBuf err;
    if (ops->parse_actions(g, s, text, acts, MAX_ACTIONS, &n, &err) != STATUS_OK) {
        if (memcmp(s, before, g->state_size) != 0)
            fuzz_fail("a refused turn changed the state", err.msg);
        return;
    }
    if (n < 0 || n > MAX_ACTIONS)
        fuzz_fail("parse_actions gave an impossible count", text);
    unsigned char *undo = malloc(g->undo_size * (size_t)(n > 0 ? n : 1) + 1);
    if (undo == NULL)
        return;
    for (int i = 0; i < n; i++) {
        if (ops->to_move(g, s) < 0 || !is_offered(g, s, acts[i]))
            fuzz_fail("parse_actions gave an action gen_moves does not offer", text);
        ops->make(g, s, acts[i], undo + (size_t)i * g->undo_size);
        if (!ops->is_ok(g, s, &err))
            fuzz_fail("the state after a turn's action fails is_ok", err.msg);
    }
    for (int i = n - 1; i >= 0; i--)
        ops->unmake(g, s, acts[i], undo + (size_t)i * g->undo_size);
    if (memcmp(s, before, g->state_size) != 0)
        fuzz_fail("unmaking a turn does not restore the state byte for byte", text);
    free(undo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text, *rest;
    Game *g = fuzz_input_game(data, size, &text, &rest);
    if (g == NULL)
        return 0;
    const char *position = fuzz_line(&rest);
    const GameOps *ops = g->ops;
    GameState *s = game_state_new(g), *before = game_state_new(g);
    void *undo = game_undo_new(g);
    StrBuf out;
    sb_init(&out);
    ErrBuf err;
    if (s == NULL || before == NULL || undo == NULL)
        goto done;
    ops->new_game(g, s, 7);
    if (strcmp(position, "start") != 0 && ops->parse_position(g, s, position, &err) != STATUS_OK)
        goto done;
    memcpy(before, s, g->state_size);
    if (ops->parse_actions != NULL)
        check_turn(g, s, before, rest);
    Move m = MOVE_NONE, again = MOVE_NONE;
    if (ops->parse_move(g, s, rest, &m, &err) != STATUS_OK) {
        if (memcmp(s, before, g->state_size) != 0)
            fuzz_fail("a refused move changed the state", err.msg);
        goto done;
    }
    if (memcmp(s, before, g->state_size) != 0)
        fuzz_fail("parse_move changed the state", rest);
    if (ops->to_move(g, s) < 0 || !is_offered(g, s, m))
        fuzz_fail("parse_move accepted an action gen_moves does not offer", rest);
    ops->format_move(g, s, m, &out);
    if (ops->parse_move(g, s, sb_str(&out), &again, &err) != STATUS_OK)
        fuzz_fail("the formatted move is refused", err.msg);
    if (again != m)
        fuzz_fail("format_move then parse_move gives another move", sb_str(&out));
    ops->make(g, s, m, undo);
    if (!ops->is_ok(g, s, &err))
        fuzz_fail("the state after make fails is_ok", err.msg);
    ops->unmake(g, s, m, undo);
    if (memcmp(s, before, g->state_size) != 0)
        fuzz_fail("unmake does not restore the state byte for byte", sb_str(&out));
done:
    sb_free(&out);
    free(s);
    free(before);
    free(undo);
    game_destroy(g);
    free(text);
    return 0;
}
