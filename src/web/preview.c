/*
 * preview.c - positions a few actions ahead (preview.h). A turn of several actions
 * (King's Guard: pick up a stack, place its pieces one by one, end) is put together on
 * the page and committed whole, so that a first click commits nothing; the page still
 * never decides what is legal: each step is played here, on a copy, by the rules. Only
 * in games where every seat sees everything, so a preview tells nothing hidden.
 */
#include "web/preview.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/turn.h"
#include "web/api.h"
#include "web/api_state.h"
#include "web/session.h"

void preview_handle(const Request *req, Session *s, Response *res)
{
    const Game *g = s->game;
    if (!(g->ops->flags & GAME_PERFECT_INFO)) {
        response_error(res, 409, "%s hides information: its moves are not previewed",
                       g->ops->name);
        return;
    }
    json_error_t je;
    json_t *body = req->body_len ? json_loadb(req->body, req->body_len, 0, &je) : NULL;
    const json_t *move = json_object_get(body, "move");
    if (!json_is_string(move) || json_string_length(move) == 0 ||
        memchr(json_string_value(move), '\0', json_string_length(move)) != NULL ||
        json_object_size(body) != 1) {
        json_decref(body);
        response_error(res, 400, "the body must be {\"move\": TEXT}, the actions to preview");
        return;
    }
    pthread_mutex_lock(&s->mu);
    GameState *copy = game_state_clone(g, s->rec.current);
    pthread_mutex_unlock(&s->mu);
    void *undo = game_undo_new(g);
    Move acts[PLAY_TURN_CAP];
    int n = 0;
    ErrBuf err;
    Status st = copy == NULL || undo == NULL ? err_set(&err, STATUS_NOMEM, "out of memory")
                                             : STATUS_OK;
    const int mover = copy ? g->ops->to_move(g, copy) : PLAYER_NONE;
    if (st == STATUS_OK)
        st = play_parse_turn(g, copy, json_string_value(move), acts, PLAY_TURN_CAP, &n, &err);
    json_decref(body);
    if (st != STATUS_OK) {
        free(copy);
        free(undo);
        response_error(res, st == STATUS_NOMEM ? 503 : http_status_of(st), "%s", err.msg);
        return;
    }
    for (int i = 0; i < n; i++)
        g->ops->make(g, copy, acts[i], undo);
    const int next = g->ops->to_move(g, copy);
    json_t *o = json_object();
    json_object_set_new(o, "actions", json_integer(n));
    json_object_set_new(o, "turn_over", json_boolean(next != mover));
    json_t *observation = api_observation_json(g, copy, PLAYER_NONE);
    json_object_set_new(o, "observation", observation ? observation : json_null());
    json_object_set_new(o, "legal", next == mover ? api_legal_json(g, copy) : json_array());
    free(copy);
    free(undo);
    api_answer_json(res, 200, o);
}
