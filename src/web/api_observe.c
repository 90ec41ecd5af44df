/*
 * api_observe.c - POST /api/observe {game, rules, players, position, moves}: the
 * observation, legal moves, side to move and text drawing of a position given as text
 * (or the start), after the actions of `moves` if any, read-only: nothing is stored and
 * no session is made. Reading a position costs about what reading a game's state does,
 * so it shares the write rate limit of every POST. The analysis board's engine
 * (api_analysis.c) reads its position the same way, by api_position_read.
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

/* A line explored on the analysis board is a game's worth of actions at most. */
enum { POSITION_MOVES_CAP = 1000 };

/* Chance to act: its outcomes, by their texts and probabilities, so that a page may
 * pick one (the analysis board's tile draws). */
static json_t *chance_json(const Game *g, const GameState *st)
{
    json_t *list = json_array();
    ChanceList *cl = malloc(sizeof *cl);
    if (cl == NULL || g->ops->chance_outcomes == NULL) {
        free(cl);
        return list;
    }
    g->ops->chance_outcomes(g, st, cl);
    StrBuf t;
    sb_init(&t);
    for (int i = 0; i < cl->count; i++) {
        sb_clear(&t);
        g->ops->format_move(g, st, cl->outcomes[i], &t);
        json_array_append_new(list, json_pack("{s:s,s:f}", "text", sb_str(&t), "probability",
                                              cl->prob[i]));
    }
    sb_free(&t);
    free(cl);
    return list;
}

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
    if (p == PLAYER_CHANCE)
        json_object_set_new(o, "chance", chance_json(g, st));
    return o;
}

/* Plays the action texts of `moves` from st; false with res saying which one is wrong. */
static bool play_moves(const Game *g, GameState *st, const json_t *moves, Response *res)
{
    size_t i;
    const json_t *m;
    json_array_foreach(moves, i, m) {
        ErrBuf err;
        Move played;
        if (!json_is_string(m)) {
            response_error(res, 400, "'moves' must be a list of action texts; item %zu is not "
                           "a text", i + 1);
            return false;
        }
        if (g->ops->to_move(g, st) == PLAYER_NONE) {
            response_error(res, 400, "action %zu of 'moves' (%.40s) comes after the end of the "
                           "game", i + 1, json_string_value(m));
            return false;
        }
        if (game_play_text(g, st, json_string_value(m), &played, &err) != STATUS_OK) {
            response_error(res, 400, "action %zu of 'moves' (%.40s): %s", i + 1,
                           json_string_value(m), err.msg);
            return false;
        }
    }
    return true;
}

bool api_position_read(json_t *body, Game **g_out, GameState **st_out, Response *res)
{
    static const char *const FIELDS[] = {"game", "rules", "players", "position", "moves", NULL};
    *g_out = NULL;
    *st_out = NULL;
    const json_t *game = json_object_get(body, "game");
    const json_t *rules = json_object_get(body, "rules");
    const json_t *players = json_object_get(body, "players");
    const json_t *position = json_object_get(body, "position");
    const json_t *moves = json_object_get(body, "moves");
    const GameOps *ops = json_is_string(game) ? registry_find(json_string_value(game)) : NULL;
    RuleSetting set[2 * GAME_MAX_OPTIONS];
    int n = 0;
    if (!json_is_object(body)) {
        response_error(res, 400, "the body must be a JSON object with 'game' and optionally "
                       "'rules', 'players', 'position' and 'moves'");
        return false;
    }
    if (!only_fields(body, FIELDS, res))
        return false;
    if (ops == NULL) {
        response_error(res, 400, "'game' must be the name of a game (GET /api/games lists them)");
        return false;
    }
    if (rules && !json_is_object(rules)) {
        response_error(res, 400, "'rules' must be an object of rule names and text values");
        return false;
    }
    if (players && (!json_is_integer(players) || json_integer_value(players) < ops->min_players ||
                    json_integer_value(players) > ops->max_players)) {
        response_error(res, 400, "'players' must be from %d to %d for %s", ops->min_players,
                       ops->max_players, ops->name);
        return false;
    }
    if (position && !json_is_string(position)) {
        response_error(res, 400, "'position' must be a position text");
        return false;
    }
    if (moves && (!json_is_array(moves) || json_array_size(moves) > POSITION_MOVES_CAP)) {
        response_error(res, 400, "'moves' must be a list of at most %d action texts",
                       POSITION_MOVES_CAP);
        return false;
    }
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)rules, key, v) {
        const int idx = game_option_index(ops, key);
        if (!json_is_string(v) || n == 2 * GAME_MAX_OPTIONS ||
            (idx >= 0 && ops->options[idx].kind == RULE_FILE)) {
            response_error(res, 400, "rule '%.40s' must have a text value and name no file", key);
            return false;
        }
        set[n++] = (RuleSetting){key, json_string_value(v)};
    }
    Game *g = NULL;
    GameState *st = NULL;
    ErrBuf err;
    if (game_create(ops, players ? (int)json_integer_value(players) : ops->min_players, set, n,
                    &g, &err) != STATUS_OK) {
        response_error(res, 400, "%s", err.msg);
        return false;
    }
    if ((st = game_state_new(g)) == NULL) {
        response_error(res, 503, "out of memory");
        game_destroy(g);
        return false;
    }
    bool ok = true;
    if (position) {
        if (ops->parse_position(g, st, json_string_value(position), &err) != STATUS_OK) {
            response_error(res, 400, "bad position: %s", err.msg);
            ok = false;
        }
    } else {
        ops->new_game(g, st, 1);
    }
    if (ok && moves)
        ok = play_moves(g, st, moves, res);
    if (!ok) {
        free(st);
        game_destroy(g);
        return false;
    }
    *g_out = g;
    *st_out = st;
    return true;
}

void api_observe(Server *srv, const Request *req, Response *res)
{
    (void)srv;
    json_error_t je;
    json_t *body = req->body_len ? json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &je)
                                 : NULL;
    Game *g = NULL;
    GameState *st = NULL;
    if (api_position_read(body, &g, &st, res))
        api_answer_json(res, 200, observe_json(g, st));
    free(st);
    game_destroy(g);
    json_decref(body);
}
