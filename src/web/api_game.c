/*
 * api_game.c - the requests on one game that play it (docs/API.md): its state as the
 * asker sees it, a move, a take-back, a hint, and its record as text. The route table
 * (routes.c) has found the game and checked the method; each handler checks the seat's
 * token and the body, and leaves the rules to the session.
 */
#include "web/api_game.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "web/ai.h"
#include "web/api.h"
#include "web/api_state.h"
#include "web/api_view.h"
#include "web/context.h"
#include "web/mail.h"
#include "web/session.h"

static void state_response(Response *res, Session *s, int viewer, int status)
{
    size_t len = 0;
    pthread_mutex_lock(&s->mu);
    char *body = api_state_locked(s, viewer, &len);
    pthread_mutex_unlock(&s->mu);
    if (body == NULL)
        response_error(res, 503, "out of memory");
    else
        response_json(res, status, body, len);
}

void api_game_state(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)srv;
    const int seat = seat_of_request(req, s, false, res);
    if (seat >= -1)
        state_response(res, s, seat, 200);
}

void api_game_move(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"move", "ply", NULL};
    const int seat = seat_of_request(req, s, true, res);
    if (seat < -1)
        return;
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, FIELDS, res)) {
        json_decref(body);
        return;
    }
    const json_t *move = json_object_get(body, "move");
    const json_t *ply = json_object_get(body, "ply");
    if (!json_is_string(move) || json_string_length(move) == 0) {
        response_error(res, 400, "'move' must be the move's text, such as \"c1-c4\"");
    } else if (ply && (!json_is_integer(ply) || json_integer_value(ply) < 0 ||
                       json_integer_value(ply) > 1000000)) {
        response_error(res, 400, "'ply' must be the number of actions played so far");
    } else if (memchr(json_string_value(move), '\0', json_string_length(move)) != NULL) {
        response_error(res, 400, "'move' must not contain NUL characters");
    } else {
        ErrBuf err;
        const Status st = session_play(srv, s, seat, json_string_value(move),
                                       ply ? (int)json_integer_value(ply) : -1, &err);
        if (st == STATUS_OK) {
            state_response(res, s, seat, 200);
            mail_turn(srv, s, seat); // "your move" by mail, in a game of days per move
        } else {
            response_error(res, http_status_of(st), "%s", err.msg);
        }
    }
    json_decref(body);
}

void api_game_undo(Server *srv, const Request *req, Session *s, Response *res)
{
    const int seat = seat_of_request(req, s, true, res);
    if (seat < -1)
        return;
    ErrBuf err;
    const Status st = session_undo(srv, s, seat, &err);
    if (st == STATUS_OK)
        state_response(res, s, seat, 200);
    else
        response_error(res, http_status_of(st), "%s", err.msg);
}

void api_game_hint(Server *srv, const Request *req, Session *s, Response *res)
{
    const int seat = seat_of_request(req, s, true, res);
    if (seat < -1)
        return;
    AiHint h;
    ErrBuf err;
    bool busy = false;
    const Status st = ai_hint(srv->ai, s, seat, req->addr, &h, &busy, &err);
    if (st != STATUS_OK) {
        if (busy || st == STATUS_IO)
            res->retry_after = busy ? 1 : 5;
        response_error(res, busy ? 429 : http_status_of(st), "%s", err.msg);
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "move", json_string(h.text));
    if (strcmp(h.read, h.text) != 0)
        json_object_set_new(o, "read", json_string(h.read));
    json_object_set_new(o, "cells", words_json(h.cells));
    json_object_set_new(o, "score", json_string(h.score));
    json_object_set_new(o, "words", json_string(h.words));
    json_object_set_new(o, "chance", json_real(h.chance));
    if (h.n_values > 0) {
        json_t *vals = json_array();
        for (int k = 0; k < h.n_values; k++) {
            json_t *v = json_object();
            json_object_set_new(v, "move", json_string(h.values[k].text));
            json_object_set_new(v, "cells", words_json(h.values[k].cells));
            json_object_set_new(v, "value", json_string(h.values[k].value));
            json_array_append_new(vals, v);
        }
        json_object_set_new(o, "values", vals);
    }
    if (h.n_turn > 0) {
        json_t *turn = json_array();
        for (int k = 0; k < h.n_turn; k++) {
            json_t *v = json_object();
            json_object_set_new(v, "text", json_string(h.turn[k].text));
            json_object_set_new(v, "cells", words_json(h.turn[k].cells));
            json_array_append_new(turn, v);
        }
        json_object_set_new(o, "turn", turn);
    }
    api_answer_json(res, 200, o);
}

void api_game_record(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)srv;
    const int seat = seat_of_request(req, s, false, res);
    if (seat < -1)
        return;
    pthread_mutex_lock(&s->mu);
    // A game whose hidden part is only what is still to come (the order of a pile) shows
    // its record at any time: the start and every action, chance draws included, are
    // seen by all, and the seed, which would tell what comes, is not in it.
    const unsigned flags = s->game->ops->flags;
    const bool hidden = !(flags & GAME_PERFECT_INFO) && !(flags & GAME_PUBLIC_ACTIONS);
    if (hidden && !session_over_locked(s)) {
        pthread_mutex_unlock(&s->mu);
        response_error(res, 403, "the record of a hidden-information game is shown when the "
                       "game is over");
        return;
    }
    StrBuf t;
    sb_init(&t);
    StrBuf result;
    sb_init(&result);
    api_result_text(s, &result);
    record_write(&s->rec, sb_str(&result), &t);
    sb_free(&result);
    pthread_mutex_unlock(&s->mu);
    char *body = sb_failed(&t) ? NULL : malloc(t.len + 1);
    if (body == NULL) {
        sb_free(&t);
        response_error(res, 503, "out of memory");
        return;
    }
    memcpy(body, sb_str(&t), t.len + 1);
    res->status = 200;
    res->body = body;
    res->len = t.len;
    res->content_type = "text/plain; charset=utf-8";
    sb_free(&t);
}

