/*
 * self_play.c - the game loop of every self-play front end (self_play.h). The measure
 * hook must see each action with the state before it; a step that plays a whole turn is
 * replayed action by action on a scratch copy for it.
 */
#include "play/self_play.h"

#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"

Status self_play_begin(const SelfPlay *sp, Game *g, const GameState *start, GameRecord *rec,
                       ErrBuf *err)
{
    Status s = record_init(rec, g, start, err);
    if (s != STATUS_OK)
        return s;
    if ((s = seats_start(sp->seats, rec->game, err)) != STATUS_OK)
        record_free(rec);
    return s;
}

static Status auto_step(const SelfPlay *sp, GameRecord *rec, ErrBuf *err)
{
    Move m;
    Status s = seats_auto_action(sp->seats, rec->game, rec->current, sp->chance, &m, NULL, err);
    return s != STATUS_OK ? s : record_push(rec, m, err);
}

/* Measures the actions rec->moves[from..count), played from `before`. */
static Status measure_actions(const GameRecord *rec, int from, GameState *before,
                              SelfPlayEnd *end, ErrBuf *err)
{
    const Game *g = rec->game;
    if (rec->count - from == 1) {
        g->ops->measure(g, before, rec->moves[from], rec->current, end->metrics);
        return STATUS_OK;
    }
    GameState *after = game_state_new(g);
    void *undo = game_undo_new(g);
    if (after == NULL || undo == NULL) {
        free(after);
        free(undo);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    for (int i = from; i < rec->count; i++) {
        game_state_copy(g, after, before);
        g->ops->make(g, after, rec->moves[i], undo);
        g->ops->measure(g, before, rec->moves[i], after, end->metrics);
        game_state_copy(g, before, after);
    }
    free(after);
    free(undo);
    return STATUS_OK;
}

Status self_play(const SelfPlay *sp, GameRecord *rec, SelfPlayEnd *end, ErrBuf *err)
{
    const Game *g = rec->game;
    const GameOps *ops = g->ops;
    memset(end, 0, sizeof *end);
    end->forfeit = PLAYER_NONE;
    end->end_reason = -1;
    GameState *before = NULL;
    if (sp->measure && ops->measure != NULL) {
        if ((before = game_state_new(g)) == NULL)
            return err_set(err, STATUS_NOMEM, "out of memory");
        end->n_metrics = ops->metric_count;
    }
    Status s = STATUS_OK;
    for (;;) {
        const int p = ops->to_move(g, rec->current);
        if (p == PLAYER_NONE)
            break;
        if (sp->abort != NULL && atomic_load(sp->abort)) {
            s = err_set(err, STATUS_CONFLICT, "stopped before the game ended");
            break;
        }
        const int from = rec->count;
        if (before)
            game_state_copy(g, before, rec->current);
        s = sp->step ? sp->step(sp->step_ctx, rec, &end->forfeit, err) : auto_step(sp, rec, err);
        if (s != STATUS_OK || end->forfeit != PLAYER_NONE)
            break;
        if (p != PLAYER_CHANCE)
            end->plies += rec->count - from;
        if (before && (s = measure_actions(rec, from, before, end, err)) != STATUS_OK)
            break;
    }
    if (s == STATUS_OK && end->forfeit == PLAYER_NONE) {
        if (before)
            ops->measure(g, NULL, MOVE_NONE, rec->current, end->metrics);
        ops->returns(g, rec->current, end->returns);
        end->scored = ops->score != NULL;
        for (int k = 0; end->scored && k < g->players; k++)
            end->score[k] = ops->score(g, rec->current, k);
        end->end_reason = ops->end_reason ? ops->end_reason(g, rec->current) : -1;
    }
    free(before);
    return s;
}
