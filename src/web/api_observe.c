/*
 * api_observe.c - POST /api/observe {game, rules, players, position}: the observation,
 * legal moves, side to move and text drawing of a position given as text (or the start),
 * read-only: nothing is stored and no session is made. Reading a position costs about
 * what reading a game's state does, so it shares the write rate limit of every POST.
 */
#include "web/api_observe.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/registry.h"
#include "web/api.h"
#include "web/api_state.h"

static json_t *observe_json(const Game *g, const GameState *st)
{
    const GameOps *ops = g->ops;
    json_t *o = json_object();
    StrBuf t;
    sb_init(&t);
    json_object_set_new(o, "game", json_string(ops->name));
    json_object_set_new(o, "players", json_integer(g->players));
    json_object_set_new(o, "rules", api_rules_json(g));
    ops->format_position(g, st, &t);
    json_object_set_new(o, "position", json_string(sb_str(&t)));
    sb_clear(&t);
    ops->render(g, st, 0, &t);
    json_object_set_new(o, "board", json_string(sb_str(&t)));
    sb_free(&t);
    const int p = ops->to_move(g, st);
    json_object_set_new(o, "to_move", p >= 0 ? json_integer(p) : json_null());
    json_object_set_new(o, "status", json_string(p == PLAYER_NONE ? "over" : "playing"));
    json_t *ob = api_observation_json(g, st, PLAYER_NONE);
    json_object_set_new(o, "observation", ob ? ob : json_null());
    json_object_set_new(o, "legal", p >= 0 ? api_legal_json(g, st) : json_array());
    return o;
}

void api_observe(Server *srv, const Request *req, Response *res)
{
    (void)srv;
    json_error_t je;
    json_t *body = req->body_len ? json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &je)
                                 : NULL;
    const json_t *game = json_object_get(body, "game");
    const json_t *rules = json_object_get(body, "rules");
    const json_t *players = json_object_get(body, "players");
    const json_t *position = json_object_get(body, "position");
    const GameOps *ops = json_is_string(game) ? registry_find(json_string_value(game)) : NULL;
    RuleSetting set[2 * GAME_MAX_OPTIONS];
    int n = 0;
    bool ok = false;
    if (!json_is_object(body) || json_object_size(body) > 4) {
        response_error(res, 400, "the body must be a JSON object with 'game' and optionally "
                       "'rules', 'players' and 'position'");
    } else if (ops == NULL) {
        response_error(res, 400, "'game' must be the name of a game (GET /api/games lists them)");
    } else if (rules && !json_is_object(rules)) {
        response_error(res, 400, "'rules' must be an object of rule names and text values");
    } else if (players && (!json_is_integer(players) || json_integer_value(players) < ops->min_players ||
                           json_integer_value(players) > ops->max_players)) {
        response_error(res, 400, "'players' must be from %d to %d for %s", ops->min_players,
                       ops->max_players, ops->name);
    } else if (position && !json_is_string(position)) {
        response_error(res, 400, "'position' must be a position text");
    } else {
        ok = true;
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)rules, key, v) {
            const int idx = game_option_index(ops, key);
            if (!json_is_string(v) || n == 2 * GAME_MAX_OPTIONS ||
                (idx >= 0 && ops->options[idx].kind == RULE_FILE)) {
                response_error(res, 400, "rule '%.40s' must have a text value and name no file",
                               key);
                ok = false;
                break;
            }
            set[n++] = (RuleSetting){key, json_string_value(v)};
        }
    }
    Game *g = NULL;
    GameState *st = NULL;
    ErrBuf err;
    if (ok && game_create(ops, players ? (int)json_integer_value(players) : ops->min_players, set,
                          n, &g, &err) != STATUS_OK) {
        response_error(res, 400, "%s", err.msg);
        ok = false;
    }
    if (ok && (st = game_state_new(g)) == NULL) {
        response_error(res, 503, "out of memory");
        ok = false;
    }
    if (ok && position) {
        if (ops->parse_position(g, st, json_string_value(position), &err) != STATUS_OK) {
            response_error(res, 400, "bad position: %s", err.msg);
            ok = false;
        }
    } else if (ok) {
        ops->new_game(g, st, 1);
    }
    if (ok)
        api_answer_json(res, 200, observe_json(g, st));
    free(st);
    game_destroy(g);
    json_decref(body);
}
