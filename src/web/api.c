/*
 * api.c - the JSON API's shared parts (docs/API.md is the reference): the state body of
 * a game, reading and checking request bodies and tokens, and the routes of the server as
 * a whole: the list of games, creating one, health and counts. The routes are routes.c's;
 * the requests on one game are api_game.c's and the other api_*.c's.
 *
 * Request bodies are parsed with jansson and checked field by field; unknown fields are
 * refused so that a typo is an error, not a silently ignored setting. The state body of
 * a game is cached per version and per view, because reading a game (every client
 * after every move, and every event stream) is by far the most frequent request: the
 * cached text only gets "you" spliced in front.
 */
#include "web/api.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/registry.h"
#include "play/words.h"
#include "web/api_finish.h"
#include "web/api_lobby.h"
#include "web/quota.h"
#include "web/ratelimit.h"
#include "web/server.h"
#include "web/session.h"

/* Seeds stay within the integers a JavaScript number holds exactly. */
#define SEED_MAX ((json_int_t)((1ULL << 53) - 1))

static char *dump(const json_t *j, size_t *len)
{
    char *s = json_dumps(j, JSON_COMPACT);
    *len = s ? strlen(s) : 0;
    return s;
}

/* --- the list of games ------------------------------------------------------------------ */

static json_t *option_json(const RuleOption *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(o->name));
    json_object_set_new(j, "help", json_string(o->help));
    json_object_set_new(j, "default", json_string(o->default_value));
    json_object_set_new(j, "type", json_string(rule_kind_name(o->kind)));
    if (o->choices) {
        // The values of a choice; the usual values of a text, which takes others too.
        json_t *c = json_array();
        char buf[OPTION_VALUE_LEN];
        snprintf(buf, sizeof buf, "%s", o->choices);
        char *save = NULL;
        for (char *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save))
            json_array_append_new(c, json_string(t));
        json_object_set_new(j, o->kind == RULE_CHOICE ? "choices" : "suggestions", c);
    }
    if (o->kind == RULE_INTEGER) {
        json_object_set_new(j, "min", json_integer(o->min));
        json_object_set_new(j, "max", json_integer(o->max));
    }
    return j;
}

char *api_games_json(size_t *len)
{
    json_t *games = json_array();
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        json_t *g = json_object();
        json_object_set_new(g, "name", json_string(ops->name));
        json_object_set_new(g, "summary", json_string(ops->summary));
        json_object_set_new(g, "min_players", json_integer(ops->min_players));
        json_object_set_new(g, "max_players", json_integer(ops->max_players));
        json_object_set_new(g, "perfect_information",
                            json_boolean(ops->flags & GAME_PERFECT_INFO));
        json_object_set_new(g, "chance", json_boolean(ops->flags & GAME_HAS_CHANCE));
        json_object_set_new(g, "clickable", json_boolean(ops->move_cells != NULL));
        json_t *opts = json_array();
        for (int k = 0; k < ops->option_count; k++)
            json_array_append_new(opts, option_json(&ops->options[k]));
        json_object_set_new(g, "options", opts);
        json_array_append_new(games, g);
    }
    json_t *root = json_object();
    json_object_set_new(root, "games", games);
    char *s = dump(root, len);
    json_decref(root);
    return s;
}

/* GET /api/games: the text built once at start (api_games_json), copied because the
 * answer's body is given away. */
void api_games_list(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)req;
    (void)s;
    char *copy = malloc(srv->games_json_len + 1);
    if (copy == NULL) {
        response_error(res, 503, "out of memory");
        return;
    }
    memcpy(copy, srv->games_json, srv->games_json_len + 1);
    response_json(res, 200, copy, srv->games_json_len);
}

void api_answer_json(Response *res, int status, json_t *o)
{
    size_t len = 0;
    char *text = o ? dump(o, &len) : NULL;
    json_decref(o);
    if (text == NULL)
        response_error(res, 503, "out of memory");
    else
        response_json(res, status, text, len);
}

/* --- the state of a game ----------------------------------------------------------------- */

/* "a b c" as a JSON array of strings. */
json_t *words_json(const char *text)
{
    json_t *a = json_array();
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        if (q > p)
            json_array_append_new(a, json_stringn(p, (size_t)(q - p)));
        p = q;
    }
    return a;
}

static json_t *seat_or_null(int p)
{
    return p >= 0 ? json_integer(p) : json_null();
}

json_t *api_observation_json(const Game *g, const GameState *st, int observer)
{
    if (g->ops->observe == NULL || g->observation == NULL)
        return NULL;
    Observation *ob = malloc(sizeof *ob);
    if (ob == NULL)
        return NULL;
    g->ops->observe(g, st, observer, ob);
    StrBuf t;
    sb_init(&t);
    obs_write_json(g->observation, ob, &t);
    free(ob);
    json_t *j = sb_failed(&t) ? NULL : json_loads(sb_str(&t), 0, NULL);
    sb_free(&t);
    return j;
}

json_t *api_rules_json(const Game *g)
{
    json_t *rules = json_object();
    for (int i = 0; i < g->ops->option_count; i++)
        json_object_set_new(rules, g->ops->options[i].name, json_string(g->values[i]));
    return rules;
}

json_t *api_legal_json(const Game *g, const GameState *st)
{
    const GameOps *ops = g->ops;
    json_t *legal = json_array();
    MoveList *ml = malloc(sizeof *ml);
    if (ml == NULL)
        return legal;
    StrBuf t;
    sb_init(&t);
    ops->gen_moves(g, st, ml);
    for (int i = 0; i < ml->count; i++) {
        json_t *m = json_object();
        sb_clear(&t);
        ops->format_move(g, st, ml->moves[i], &t);
        json_object_set_new(m, "text", json_string(sb_str(&t)));
        sb_clear(&t);
        if (ops->move_cells)
            ops->move_cells(g, st, ml->moves[i], &t);
        json_object_set_new(m, "cells", words_json(sb_str(&t)));
        json_array_append_new(legal, m);
    }
    sb_free(&t);
    free(ml);
    return legal;
}

/* The state as `view` sees it: view is a seat of a hidden-information game, or -1 for
 * what everybody may see. */
static json_t *build_state(Session *s, int view)
{
    const Game *g = s->game;
    const GameOps *ops = g->ops;
    const GameState *cur = s->rec.current;
    const bool hidden = !(ops->flags & GAME_PERFECT_INFO);
    const int p = ops->to_move(g, cur);
    json_t *o = json_object();
    StrBuf t;
    sb_init(&t);

    json_object_set_new(o, "id", json_string(s->id));
    json_object_set_new(o, "game", json_string(ops->name));
    json_object_set_new(o, "summary", json_string(ops->summary));
    json_object_set_new(o, "players", json_integer(g->players));
    json_object_set_new(o, "rules", api_rules_json(g));
    // Chance draws follow from the seed (session.c): in a hidden-information game it
    // would tell the hidden order of what is to come, so it is shown once the game is
    // over, like the record.
    json_object_set_new(o, "seed", hidden && p != PLAYER_NONE
                                       ? json_null()
                                       : json_integer((json_int_t)s->seed));
    json_t *seats = json_array();
    for (int i = 0; i < g->players; i++) {
        json_t *st = json_object();
        json_object_set_new(st, "seat", json_integer(i));
        json_object_set_new(st, "player", json_string(s->seats.seat[i].text));
        json_object_set_new(st, "ai", json_boolean(!s->seats.seat[i].human));
        json_array_append_new(seats, st);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "version", json_integer((json_int_t)s->version));
    json_object_set_new(o, "ply", json_integer(s->rec.count));
    json_object_set_new(o, "status", json_string(p == PLAYER_NONE ? "over" : "playing"));
    json_object_set_new(o, "to_move", seat_or_null(p));
    json_object_set_new(o, "thinking",
                        seat_or_null(s->thinking >= 0 ? s->thinking : s->thinking_elsewhere));
    json_object_set_new(o, "ai_error", s->ai_error[0] ? json_string(s->ai_error) : json_null());

    if (!hidden) {
        sb_clear(&t);
        ops->format_position(g, cur, &t);
        json_object_set_new(o, "position", json_string(sb_str(&t)));
        sb_clear(&t);
        ops->render(g, cur, 0, &t);
        json_object_set_new(o, "board", json_string(sb_str(&t)));
    } else if (ops->format_view) {
        // A spectator gets the public view (format_view's PLAYER_NONE), so that a game
        // whose secrets are few can still be watched.
        sb_clear(&t);
        ops->format_view(g, cur, view >= 0 ? view : PLAYER_NONE, &t);
        json_object_set_new(o, "view", json_string(sb_str(&t)));
    }

    // The structured observation the board drawers read: the seat's own in a
    // hidden-information game, else the one everybody shares.
    json_t *observation = api_observation_json(g, cur, hidden && view >= 0 ? view : PLAYER_NONE);
    json_object_set_new(o, "observation", observation ? observation : json_null());

    // In a hidden-information game a seat sees the texts of its own actions only: the
    // text of another's action (a card played face down) may be what is hidden; unless
    // the game says that every action is public once made.
    const bool public_actions = (ops->flags & GAME_PUBLIC_ACTIONS) != 0;
    json_t *moves = json_array();
    for (int i = 0; i < s->rec.count; i++) {
        json_t *m = json_object();
        const int a = s->actor[i];
        json_object_set_new(m, "seat", seat_or_null(a));
        if (a == PLAYER_CHANCE)
            json_object_set_new(m, "chance", json_true());
        const bool shown = !hidden || public_actions || (view >= 0 && a == view);
        json_object_set_new(m, "text", shown ? json_string(s->texts[i]) : json_null());
        json_object_set_new(m, "cells", shown ? words_json(s->cells[i]) : json_array());
        json_array_append_new(moves, m);
    }
    json_object_set_new(o, "moves", moves);

    json_t *legal = p >= 0 && (!hidden || view == p) ? api_legal_json(g, cur) : json_array();
    json_object_set_new(o, "legal", legal);

    if (p == PLAYER_NONE) {
        json_t *r = json_object();
        sb_clear(&t);
        play_result_text(g, cur, PLAYER_NONE, &t);
        json_object_set_new(r, "text", json_string(sb_str(&t)));
        double ret[MAX_PLAYERS];
        ops->returns(g, cur, ret);
        json_t *ra = json_array();
        for (int i = 0; i < g->players; i++)
            json_array_append_new(ra, json_real(ret[i]));
        json_object_set_new(r, "returns", ra);
        json_object_set_new(o, "result", r);
    } else {
        json_object_set_new(o, "result", json_null());
    }
    api_finish_state(s, o);
    sb_free(&t);
    return o;
}

char *api_state_locked(Session *s, int viewer, size_t *len)
{
    const bool hidden = !(s->game->ops->flags & GAME_PERFECT_INFO);
    const int slot = hidden && viewer >= 0 ? 1 + viewer : 0;
    if (s->cache[slot] == NULL || s->cache_version[slot] != s->version) {
        json_t *o = build_state(s, hidden ? viewer : -1);
        size_t n;
        char *body = dump(o, &n);
        json_decref(o);
        if (body == NULL)
            return NULL;
        free(s->cache[slot]);
        s->cache[slot] = body;
        s->cache_len[slot] = n;
        s->cache_version[slot] = s->version;
    }
    // The cached text is an object "{...}"; the viewer's seat goes in front of its fields.
    char head[512];
    int hl = viewer >= 0 ? snprintf(head, sizeof head, "{\"you\":%d,", viewer)
                         : snprintf(head, sizeof head, "{\"you\":null,");
    hl += api_finish_viewer_fields(s, viewer, head + hl, sizeof head - (size_t)hl);
    hl += api_lobby_state_fields(s, head + hl, sizeof head - (size_t)hl);
    const size_t n = (size_t)hl + s->cache_len[slot] - 1;
    char *out = malloc(n + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, head, (size_t)hl);
    memcpy(out + hl, s->cache[slot] + 1, s->cache_len[slot]); // includes the NUL
    *len = n;
    return out;
}

/* --- helpers for handlers ------------------------------------------------------------ */

/* Parses the body as a JSON object; on failure answers 400 and returns NULL. */
json_t *parse_body(const Request *req, Response *res)
{
    if (req->body_len == 0) {
        response_error(res, 400, "this request needs a JSON object as its body");
        return NULL;
    }
    json_error_t e;
    json_t *j = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &e);
    if (j == NULL) {
        response_error(res, 400, "the body is not valid JSON: %s (line %d, column %d)", e.text,
                       e.line, e.column);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        response_error(res, 400, "the body must be a JSON object");
        return NULL;
    }
    return j;
}

/* Refuses fields other than those listed (NULL-terminated). */
bool only_fields(json_t *o, const char *const *allowed, Response *res)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        bool ok = false;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            StrBuf list;
            sb_init(&list);
            for (int i = 0; allowed[i]; i++)
                sb_printf(&list, "%s'%s'", i ? ", " : "", allowed[i]);
            response_error(res, 400, "unknown field '%.40s': the fields are %s", key,
                           sb_str(&list));
            sb_free(&list);
            return false;
        }
    }
    return true;
}

/* The seat of the request's token; answers 403 and returns -2 when a token is needed
 * (or offered) and it is not one of this game's. -1: no token and none needed. */
int seat_of_request(const Request *req, Session *s, bool needed, Response *res)
{
    if (req->token == NULL || req->token[0] == '\0') {
        if (!needed)
            return -1;
        response_error(res, 403, "this needs the seat's secret token: send it as "
                       "'Authorization: Bearer TOKEN' (it is in the seat's link)");
        return -2;
    }
    const int seat = session_seat_of(s, req->token);
    if (seat < 0) {
        response_error(res, 403, "the token is not the token of any seat of this game");
        return -2;
    }
    return seat;
}

/* --- creating a game ------------------------------------------------------------------ */

void api_games_create(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"game", "seats", "rules", "seed", "position", "hints",
                                         "clock", NULL};
    (void)s;
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, FIELDS, res)) {
        json_decref(body);
        return;
    }
    NewGame ng;
    memset(&ng, 0, sizeof ng);
    char number_text[2 * GAME_MAX_OPTIONS][24]; /* whole-number rule values as text */
    const json_t *game = json_object_get(body, "game");
    const json_t *seats = json_object_get(body, "seats");
    const json_t *rules = json_object_get(body, "rules");
    const json_t *seed = json_object_get(body, "seed");
    const json_t *position = json_object_get(body, "position");
    const json_t *hints = json_object_get(body, "hints");
    bool ok = false;
    if (!json_is_string(game)) {
        response_error(res, 400, "'game' must be the name of a game (GET /api/games lists them)");
    } else if ((ng.ops = registry_find(json_string_value(game))) == NULL) {
        response_error(res, 400, "there is no game called '%.40s' (GET /api/games lists them)",
                       json_string_value(game));
    } else if (seats && (!json_is_array(seats) || json_array_size(seats) < 1 ||
                         json_array_size(seats) > MAX_PLAYERS)) {
        response_error(res, 400, "'seats' must be an array of 1 to %d players such as "
                       "[\"human\", \"ai:5\"]", MAX_PLAYERS);
    } else if (rules && !json_is_object(rules)) {
        response_error(res, 400, "'rules' must be an object such as {\"max-plies\": 200}");
    } else if (seed && (!json_is_integer(seed) || json_integer_value(seed) < 0 ||
                        json_integer_value(seed) > SEED_MAX)) {
        response_error(res, 400, "'seed' must be a whole number from 0 to 2^53 - 1");
    } else if (position && !json_is_string(position)) {
        response_error(res, 400, "'position' must be a position text");
    } else if (hints && !json_is_boolean(hints)) {
        response_error(res, 400, "'hints' must be true or false");
    } else {
        ok = true;
    }
    const int n_seats = seats ? (int)json_array_size(seats) : ng.ops ? ng.ops->min_players : 0;
    if (ok && (n_seats < ng.ops->min_players || n_seats > ng.ops->max_players)) {
        response_error(res, 400, "%s is played by %d to %d players, not %d", ng.ops->name,
                       ng.ops->min_players, ng.ops->max_players, n_seats);
        ok = false;
    }
    int humans = 0;
    for (int i = 0; ok && i < n_seats; i++) {
        // Without "seats": the first seat is a human, the others the default AI.
        const json_t *v = seats ? json_array_get(seats, (size_t)i) : NULL;
        const char *p = seats ? json_string_value(v) : i == 0 ? "human" : "ai";
        if (p == NULL || strlen(p) == 0 || strlen(p) >= STORE_PLAYER_LEN) {
            response_error(res, 400, "seat %d must be \"human\" or an AI such as \"ai:5\"", i);
            ok = false;
        } else {
            // "open": a person's seat left for whoever takes it (api_lobby.c).
            const bool open = strcmp(p, "open") == 0;
            snprintf(ng.player[i], sizeof ng.player[i], "%s", open ? "human" : p);
            humans += open || strcmp(p, "human") == 0;
            ng.open |= open ? 1u << i : 0u;
        }
    }
    ng.players = n_seats;
    const char *key;
    json_t *v;
    if (ok && rules) {
        json_object_foreach((json_t *)rules, key, v) {
            if (ng.n_rules == 2 * GAME_MAX_OPTIONS) {
                response_error(res, 400, "too many rules");
                ok = false;
                break;
            }
            // A file option makes the server read a file it names (tiles=FILE): a client
            // must not, so only its default is taken. The name reaches the game as it
            // came, apart from its value, so no '=' in it can pose as another option.
            const int idx = game_option_index(ng.ops, key);
            const RuleOption *opt = idx < 0 ? NULL : &ng.ops->options[idx];
            if (opt != NULL && opt->kind == RULE_FILE &&
                !(json_is_string(v) && strcmp(json_string_value(v), opt->default_value) == 0)) {
                response_error(res, 400, "rule '%s' names a file on the server, which the web "
                               "app does not read; play such games with crown play", key);
                ok = false;
                break;
            }
            // An AI plays at most the server's cap of actions in a game: a longer game
            // asked for is refused rather than cut short without warning.
            if (humans < n_seats && strcmp(key, "max-plies") == 0) {
                const long long mp = json_is_integer(v) ? (long long)json_integer_value(v)
                                     : json_is_string(v) ? atoll(json_string_value(v))
                                                         : 0;
                if (mp > srv->cfg.ai_max_plies) {
                    response_error(res, 400, "max-plies %lld is more than this server lets "
                                   "an AI play in one game (%d)", mp, srv->cfg.ai_max_plies);
                    ok = false;
                    break;
                }
            }
            if (json_is_string(v)) {
                ng.rules[ng.n_rules].value = json_string_value(v);
            } else if (json_is_integer(v)) {
                snprintf(number_text[ng.n_rules], sizeof number_text[0], "%lld",
                         (long long)json_integer_value(v));
                ng.rules[ng.n_rules].value = number_text[ng.n_rules];
            } else {
                response_error(res, 400, "rule '%.40s' must have a string or a whole number "
                               "as its value", key);
                ok = false;
                break;
            }
            ng.rules[ng.n_rules++].name = key;
        }
    }
    if (ok && seed) {
        ng.seed_set = true;
        ng.seed = (uint64_t)json_integer_value(seed);
    }
    if (ok && position)
        ng.position = json_string_value(position);
    if (ok && hints)
        ng.hints = json_is_true(hints);
    ok = ok && api_lobby_new_game(body, &ng, humans, (int64_t)srv->cfg.day_s * 1000, res);
    Session *created = ok ? api_create_session(srv, req, &ng, humans, res) : NULL;
    json_decref(body);
    if (created != NULL)
        api_created_response(res, created);
}

Session *api_create_session(Server *srv, const Request *req, NewGame *ng, int humans,
                            Response *res)
{
    const int n_seats = ng->players;
    ng->owner = req->addr;
    ng->quota_kind = humans == n_seats ? -1 : humans == 0 ? QUOTA_AIAI_GAMES : QUOTA_AI_GAMES;
    int retry = 0;
    // Processes sharing a store count in the database too, so that an address gets no
    // more by spreading its requests over them (store_count_create, store_hold_take).
    const bool shared = store_shared(srv->store);
    bool ok = ratelimit_take(srv->creates, req->addr, &retry);
    ErrBuf serr;
    Status sst = STATUS_OK;
    if (ok && shared && (sst = store_count_create(srv->store, req->addr,
                                                  srv->cfg.creates_per_hour, &ok, &retry,
                                                  &serr)) != STATUS_OK) {
        response_error(res, http_status_of(sst), "%s", serr.msg);
        return NULL;
    }
    if (!ok) {
        res->retry_after = retry;
        response_error(res, 429, "too many games created from your address: at most %d an "
                       "hour; try again in %d s", srv->cfg.creates_per_hour, retry);
        return NULL;
    }
    const int held = ng->quota_kind == QUOTA_AIAI_GAMES ? srv->cfg.aiai_games
                                                         : srv->cfg.ai_games;
    ok = ng->quota_kind < 0 ||
         quota_take(srv->quota, req->addr, (QuotaKind)ng->quota_kind, held);
    if (ok && ng->quota_kind >= 0 && shared) {
        if (!secret_hex(ng->id, SECRET_ID_BYTES))
            sst = err_set(&serr, STATUS_IO, "no randomness for the game id");
        else
            sst = store_hold_take(srv->store, req->addr, ng->id, ng->quota_kind, held,
                                  srv->cfg.idle_s, &ok, &serr);
        if (sst != STATUS_OK || !ok)
            quota_give(srv->quota, req->addr, (QuotaKind)ng->quota_kind);
        if (sst != STATUS_OK) {
            response_error(res, http_status_of(sst), "%s", serr.msg);
            return NULL;
        }
    }
    if (!ok) {
        res->retry_after = 60;
        if (ng->quota_kind == QUOTA_AIAI_GAMES)
            response_error(res, 429, "your address has %d AI-against-AI games in play, the "
                           "most this server runs at once: wait until one ends",
                           srv->cfg.aiai_games);
        else
            response_error(res, 429, "your address has %d games against the AI in play, the "
                           "most this server keeps at once: finish one, or wait %d s after "
                           "leaving one", srv->cfg.ai_games, srv->cfg.idle_s);
        return NULL;
    }
    Session *s = NULL;
    ErrBuf err;
    const Status st = session_create(srv, ng, &s, &err);
    if (st != STATUS_OK) {
        if (ng->quota_kind >= 0)
            quota_give(srv->quota, req->addr, (QuotaKind)ng->quota_kind);
        if (ng->quota_kind >= 0 && shared)
            store_hold_give(srv->store, ng->id, &serr);
        response_error(res, http_status_of(st), "%s", err.msg);
        return NULL;
    }
    return s;
}

void api_created_response(Response *res, Session *s)
{
    json_t *out = json_object();
    json_object_set_new(out, "id", json_string(s->id));
    json_t *links = json_array();
    for (int i = 0; i < s->game->players; i++) {
        json_t *l = json_object();
        char url[128];
        snprintf(url, sizeof url, "/g/%s#token=%s", s->id, s->token[i]);
        json_object_set_new(l, "seat", json_integer(i));
        json_object_set_new(l, "player", json_string(s->seats.seat[i].text));
        json_object_set_new(l, "token", json_string(s->token[i]));
        json_object_set_new(l, "url", json_string(url));
        json_array_append_new(links, l);
    }
    json_object_set_new(out, "seats", links);
    char watch[64];
    snprintf(watch, sizeof watch, "/g/%s", s->id);
    json_object_set_new(out, "watch_url", json_string(watch));
    size_t len = 0;
    pthread_mutex_lock(&s->mu);
    char *state = api_state_locked(s, -1, &len);
    pthread_mutex_unlock(&s->mu);
    json_error_t je;
    json_t *shown = state ? json_loadb(state, len, 0, &je) : NULL;
    free(state);
    json_object_set_new(out, "state", shown ? shown : json_null());
    char *text = dump(out, &len);
    json_decref(out);
    // The id before the reference goes: an idle game may leave memory at once after.
    snprintf(res->location, sizeof res->location, "/api/games/%s", s->id);
    session_release(s);
    if (text == NULL) {
        response_error(res, 503, "out of memory");
        return;
    }
    response_json(res, 201, text, len);
}

/* --- the server's health and counts ---------------------------------------------------- */

/* Counts only (no ids, no addresses), for an operator's monitoring and the tests. */
void api_stats(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)req;
    (void)s;
    long in_memory, evicted, retired, flagged;
    sessions_stats(srv->sessions, &in_memory, &evicted, &retired, &flagged);
    char *text = malloc(200);
    if (text == NULL) {
        response_error(res, 503, "out of memory");
        return;
    }
    const int n = snprintf(text, 200, "{\"games_in_memory\":%ld,\"games_evicted\":%ld,"
                           "\"games_deleted\":%ld,\"games_flagged\":%ld}", in_memory, evicted,
                           retired, flagged);
    response_json(res, 200, text, (size_t)n);
}

/* GET /api/health: the server answers, with its open event streams (a closed stream
 * leaves the count at once). */
void api_health(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)req;
    (void)s;
    char *text = malloc(64);
    if (text == NULL) {
        response_error(res, 503, "out of memory");
        return;
    }
    const int n = snprintf(text, 64, "{\"ok\":true,\"streams\":%ld}", sse_open_streams(srv->sse));
    response_json(res, 200, text, (size_t)n);
}
