/*
 * undo.c - the undo point (undo.h), found by replaying the record from its start: the
 * record keeps actions, not who played them, and who acts is the game's to say.
 */
#include "play/undo.h"

#include <stdlib.h>

#include "core/game_api.h"
#include "core/invariant.h"

Status play_undo_point(const GameRecord *r, unsigned seats, int *keep, ErrBuf *err)
{
    const Game *g = r->game;
    GameState *s = game_state_clone(g, r->start);
    void *undo = game_undo_new(g);
    int *mover = malloc(sizeof *mover * (size_t)(r->count + 1));
    if (s == NULL || undo == NULL || mover == NULL) {
        free(s);
        free(undo);
        free(mover);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    // mover[i]: who acts at the position before action i.
    int last = -1;
    for (int i = 0; i < r->count; i++) {
        mover[i] = g->ops->to_move(g, s);
        if (mover[i] >= 0 && mover[i] < MAX_PLAYERS && (seats >> mover[i] & 1u))
            last = i;
        g->ops->make(g, s, r->moves[i], undo);
        GAME_CHECK(g, s);
    }
    int start = last;
    while (start > 0 && mover[start - 1] == mover[last])
        start--;
    free(s);
    free(undo);
    free(mover);
    if (last < 0)
        return err_set(err, STATUS_ILLEGAL, "you have no move to take back");
    *keep = start;
    return STATUS_OK;
}
