/*
 * api_solution.c - the solution of a played game: every ply's value for its mover from
 * the solved table (play/solution.h), and which moves changed the theoretical result.
 *
 * It tells a player the exact value of the position, so while a game is being played
 * only its seats may ask (they can ask the hint's values anyway); once it is over anyone
 * may. Without a table that fits the game the answer says so and lists no values.
 */
#include "web/api_solution.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/solution.h"
#include "web/api.h"
#include "web/context.h"
#include "web/session.h"

static json_t *value_json(bool known, KvsValue v)
{
    if (!known)
        return json_null();
    StrBuf sb;
    sb_init(&sb);
    kvs_value_format(v, &sb);
    json_t *j = json_string(sb_str(&sb));
    sb_free(&sb);
    return j;
}

/* The answer for the game of s with table t (NULL: none); the caller holds s->mu. */
static Status solution_json(const KvsTable *t, Session *s, json_t **out, ErrBuf *err)
{
    const GameRecord *r = &s->rec;
    *out = NULL;
    SolutionPly *sol = t && r->count ? calloc((size_t)r->count, sizeof *sol) : NULL;
    if (t != NULL && r->count > 0) {
        const Status st = sol == NULL ? err_set(err, STATUS_NOMEM, "out of memory")
                                      : solution_of_record(t, r, sol, err);
        if (st != STATUS_OK) {
            free(sol);
            return st;
        }
    }
    json_t *o = json_object();
    json_object_set_new(o, "available", json_boolean(t != NULL));
    json_t *plies = json_array();
    json_t *changes = json_array();
    for (int i = 0; i < r->count && sol != NULL; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "ply", json_integer(i + 1));
        json_object_set_new(p, "seat", json_integer(sol[i].mover));
        json_object_set_new(p, "move", json_string(s->texts[i]));
        json_object_set_new(p, "before", value_json(sol[i].known, sol[i].before));
        json_object_set_new(p, "after", value_json(sol[i].after_known, sol[i].after));
        json_object_set_new(p, "changed", json_boolean(sol[i].changed));
        json_array_append_new(plies, p);
        if (sol[i].changed)
            json_array_append_new(changes, json_integer(i + 1));
    }
    free(sol);
    json_object_set_new(o, "plies", plies);
    json_object_set_new(o, "changes", changes);
    *out = o;
    return STATUS_OK;
}

void api_solution(Server *srv, const Request *req, Session *s, Response *res)
{
    const bool seated = req->token != NULL && req->token[0] != '\0';
    if (seated && session_seat_of(s, req->token) < 0) {
        response_error(res, 403, "the token is not the token of any seat of this game");
        return;
    }
    pthread_mutex_lock(&s->mu);
    // Over as the page says it is: a resignation or a flag's fall ends it too.
    if (!seated && !session_over_locked(s)) {
        pthread_mutex_unlock(&s->mu);
        response_error(res, 403, "the solution of a game is shown to its seats while it is "
                       "played, and to everyone once it is over");
        return;
    }
    ErrBuf err;
    json_t *o;
    const Status st = solution_json(perfect_table(srv->perfect, s->game), s, &o, &err);
    pthread_mutex_unlock(&s->mu);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    api_answer_json(res, 200, o);
}
