/*
 * review.c - the review endpoints (review.h, docs/API.md). Positions are replayed from
 * the record's start under the session's lock, as the record is the truth, and answered
 * a page at a time, each page an expensive read in its address's own budget. What may be
 * seen follows the record's own rule: a hidden-information game's positions only once
 * it is over (at any time when only what is to come is hidden), and in the public view. An evaluation is a search, so it is the AI
 * workers' (ai.c), with the hint's queue and per-address limits; during a game it is
 * as much help as a hint, so it is given only to a seat whose opponents are all AIs.
 */
#include "web/review.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "search/limits.h"
#include "web/ai.h"
#include "web/api.h"
#include "web/api_state.h"
#include "web/ratelimit.h"
#include "web/context.h"
#include "web/session.h"

/* The position after `ply` actions of s's record, or NULL for want of memory; the
 * caller holds s->mu and frees it. */
static GameState *position_at(Session *s, int ply)
{
    const Game *g = s->game;
    GameState *st = game_state_clone(g, s->rec.start);
    void *undo = game_undo_new(g);
    if (st == NULL || undo == NULL) {
        free(st);
        free(undo);
        return NULL;
    }
    for (int i = 0; i < ply; i++)
        g->ops->make(g, st, s->rec.moves[i], undo);
    free(undo);
    return st;
}

static json_t *position_json(const Game *g, const GameState *st, int ply, StrBuf *t)
{
    const GameOps *ops = g->ops;
    const int p = ops->to_move(g, st);
    json_t *o = json_object();
    json_object_set_new(o, "ply", json_integer(ply));
    json_object_set_new(o, "to_move", p >= 0 ? json_integer(p) : json_null());
    sb_clear(t);
    if (ops->flags & GAME_PERFECT_INFO) {
        ops->format_position(g, st, t);
        json_object_set_new(o, "position", json_string(sb_str(t)));
        sb_clear(t);
        ops->render(g, st, 0, t);
        json_object_set_new(o, "board", json_string(sb_str(t)));
    } else if (ops->format_view) {
        ops->format_view(g, st, PLAYER_NONE, t);
        json_object_set_new(o, "view", json_string(sb_str(t)));
    }
    json_t *ob = api_observation_json(g, st, PLAYER_NONE);
    json_object_set_new(o, "observation", ob ? ob : json_null());
    return o;
}

/* A page of positions (docs/API.md): one answer of a 2,000-ply game was 10 MB and 0.67 s
 * of the server's time, so an answer holds at most POSITIONS_PAGE of them. The page's
 * start is reached by making the moves alone; only its own positions are formatted. */
enum { POSITIONS_PAGE = 100 };

void review_positions(Server *srv, const Request *req, Session *s, Response *res)
{
    // Expensive reads have their own budget per address, apart from the writes'.
    int retry = 0;
    if (!ratelimit_take(srv->reads, req->addr, &retry)) {
        res->retry_after = retry;
        response_error(res, 429, "too many pages of positions read from your address; try "
                       "again in %d s", retry);
        return;
    }
    const char *from_arg = request_arg(req, "from");
    long from = 0;
    char *end = NULL;
    if (from_arg != NULL) {
        from = strtol(from_arg, &end, 10);
        if (end == from_arg || *end != '\0' || from < 0)
            from = -1;
    }
    pthread_mutex_lock(&s->mu);
    const Game *g = s->game;
    const int count = s->rec.count;
    // As the record (api_game.c): a game whose only secret is what is still to come shows
    // every position it has been through, in the public view.
    const unsigned flags = g->ops->flags;
    if (!(flags & GAME_PERFECT_INFO) && !(flags & GAME_PUBLIC_ACTIONS) &&
        !game_is_over(g, s->rec.current)) {
        pthread_mutex_unlock(&s->mu);
        response_error(res, 403, "the positions of a hidden-information game are shown when "
                       "the game is over");
        return;
    }
    if (from < 0 || from > count) {
        pthread_mutex_unlock(&s->mu);
        response_error(res, 400, "'from' must be a whole number from 0 to %d, the positions "
                       "of this game", count);
        return;
    }
    const int first = (int)from;
    const int last = first + POSITIONS_PAGE - 1 < count ? first + POSITIONS_PAGE - 1 : count;
    GameState *st = game_state_clone(g, s->rec.start);
    void *undo = game_undo_new(g);
    json_t *list = json_array();
    StrBuf t;
    sb_init(&t);
    for (int i = 0; st && undo && i <= last; i++) {
        if (i > 0)
            g->ops->make(g, st, s->rec.moves[i - 1], undo);
        if (i >= first)
            json_array_append_new(list, position_json(g, st, i, &t));
    }
    const bool ok = st && undo && !sb_failed(&t);
    pthread_mutex_unlock(&s->mu);
    sb_free(&t);
    free(st);
    free(undo);
    json_t *o = json_pack("{s:o,s:i,s:i}", "positions", list, "from", first, "total",
                          count + 1);
    char *text = ok && o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (text == NULL)
        response_error(res, 503, "out of memory");
    else
        response_json(res, 200, text, strlen(text));
}

/* Whether the request may have an evaluation of s now; if not, res says why. */
static bool may_evaluate(const Request *req, Session *s, Response *res)
{
    const int seat = seat_of_request(req, s, false, res);
    if (seat < -1)
        return false;
    pthread_mutex_lock(&s->mu);
    const bool over = session_over_locked(s); // a resignation, a flag's fall ends it too
    const bool perfect = (s->game->ops->flags & GAME_PERFECT_INFO) != 0;
    bool others_ai = seat >= 0;
    for (int i = 0; i < s->game->players && others_ai; i++)
        others_ai = i == seat || !s->seats.seat[i].human;
    pthread_mutex_unlock(&s->mu);
    if (over || (perfect && others_ai))
        return true;
    response_error(res, 403, "a game is analysed once it is over (or, against the AI, by "
                   "its player)");
    return false;
}

void review_analysis(Server *srv, const Request *req, Session *s, Response *res)
{
    if (!may_evaluate(req, s, res))
        return;
    json_t *body = parse_body(req, res);
    if (body == NULL)
        return;
    const json_t *jply = json_object_get(body, "ply");
    const json_int_t ply = json_is_integer(jply) ? json_integer_value(jply) : -1;
    json_decref(body);
    pthread_mutex_lock(&s->mu);
    const int count = s->rec.count;
    GameState *st = ply >= 0 && ply <= count ? position_at(s, (int)ply) : NULL;
    pthread_mutex_unlock(&s->mu);
    if (ply < 0 || ply > count) {
        response_error(res, 400, "'ply' must be a whole number from 0 to %d, the positions "
                       "of this game", count);
        return;
    }
    if (st == NULL) {
        response_error(res, 503, "out of memory");
        return;
    }
    const Game *g = s->game;
    const int mover = g->ops->to_move(g, st);
    json_t *o = json_object();
    json_object_set_new(o, "ply", json_integer(ply));
    json_object_set_new(o, "to_move", mover >= 0 ? json_integer(mover) : json_null());
    if (mover < 0) {
        // Over, or chance to act: nobody chooses here, so there is nothing to search.
        free(st);
        json_object_set_new(o, "over", json_boolean(mover == PLAYER_NONE));
    } else {
        AiHint h;
        ErrBuf err;
        bool busy = false;
        const Status rc = ai_evaluate(srv->ai, s, st, req->addr, &h, &busy, &err);
        if (rc != STATUS_OK) {
            json_decref(o);
            if (busy || rc == STATUS_IO)
                res->retry_after = busy ? 1 : 5;
            response_error(res, busy ? 429 : http_status_of(rc), "%s", err.msg);
            return;
        }
        json_object_set_new(o, "move", json_string(h.text));
        if (strcmp(h.read, h.text) != 0)
            json_object_set_new(o, "read", json_string(h.read));
        json_object_set_new(o, "cells", words_json(h.cells));
        json_object_set_new(o, "score", json_string(h.score));
        json_object_set_new(o, "win_chance", json_real(h.chance));
        json_object_set_new(o, "proven", json_boolean(h.has_score && score_is_decisive(h.score_cu)));
    }
    api_answer_json(res, 200, o);
}
