/*
 * api_analysis.c - POST /api/analysis {game, rules, players, position, moves}: the
 * position read as POST /api/observe reads it, then searched by an AI worker at a
 * review's budget (ai_analyse), answered as the review's evaluation is, with the best
 * line. A position of no game may be anything a client types, so nothing in it is
 * trusted but what the game's own parser accepts; the search's cost is bounded by its
 * time and the address's place in the AI queue, as a hint's is.
 */
#include "web/api_analysis.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "search/limits.h"
#include "web/ai.h"
#include "web/api.h"
#include "web/api_observe.h"
#include "web/context.h"

/* The line's texts, one a line in the hint, as a list. */
static json_t *line_json(const char *line)
{
    json_t *a = json_array();
    const char *p = line;
    while (*p) {
        const char *nl = strchr(p, '\n');
        const size_t n = nl ? (size_t)(nl - p) : strlen(p);
        json_array_append_new(a, json_stringn(p, n));
        p += n + (nl != NULL);
    }
    return a;
}

void api_analysis(Server *srv, const Request *req, Response *res)
{
    json_t *body = parse_body(req, res);
    if (body == NULL)
        return;
    Game *g = NULL;
    GameState *st = NULL;
    const bool ok = api_position_read(body, &g, &st, res);
    json_decref(body);
    if (!ok)
        return;
    const int mover = g->ops->to_move(g, st);
    json_t *o = json_object();
    json_object_set_new(o, "to_move", mover >= 0 ? json_integer(mover) : json_null());
    if (mover < 0) {
        // Over, or chance to act: nobody chooses here, so there is nothing to search.
        free(st);
        json_object_set_new(o, "over", json_boolean(mover == PLAYER_NONE));
    } else {
        AiHint *h = malloc(sizeof *h);
        ErrBuf err;
        bool busy = false;
        const Status rc = h ? ai_analyse(srv->ai, g, st, req->addr, h, &busy, &err)
                            : err_set(&err, STATUS_NOMEM, "out of memory");
        if (h == NULL)
            free(st);
        if (rc != STATUS_OK) {
            free(h);
            json_decref(o);
            game_destroy(g);
            if (busy || rc == STATUS_IO)
                res->retry_after = busy ? 1 : 5;
            response_error(res, busy ? 429 : http_status_of(rc), "%s", err.msg);
            return;
        }
        json_object_set_new(o, "move", json_string(h->text));
        json_object_set_new(o, "cells", words_json(h->cells));
        json_object_set_new(o, "score", json_string(h->score));
        json_object_set_new(o, "words", json_string(h->words));
        json_object_set_new(o, "win_chance", json_real(h->chance));
        json_object_set_new(o, "proven",
                            json_boolean(h->has_score && score_is_decisive(h->score_cu)));
        json_object_set_new(o, "line", line_json(h->line));
        free(h);
    }
    game_destroy(g);
    api_answer_json(res, 200, o);
}
