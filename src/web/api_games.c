/*
 * api_games.c - the server's collection of games and its own figures (docs/API.md):
 * the list of games it offers, creating one (and the creation every other way of making
 * a game shares: the lobby, an import, a rematch), health and counts.
 */
#include "web/api_games.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/registry.h"
#include "play/words.h"
#include "web/api.h"
#include "web/api_account.h"
#include "web/api_lobby.h"
#include "web/api_state.h"
#include "web/context.h"
#include "web/homelimits.h"
#include "web/quota.h"
#include "web/ratelimit.h"
#include "web/session.h"

/* Seeds stay within the integers a JavaScript number holds exactly. */
#define SEED_MAX ((json_int_t)((1ULL << 53) - 1))

/* GET /api/games: the text built once at start (catalog.c), copied because the
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

/* --- creating a game ------------------------------------------------------------------ */

bool api_games_read(Server *srv, const json_t *body, NewGame *out, NewGameText *text,
                    int *humans_out, Response *res)
{
    NewGame ng;
    memset(&ng, 0, sizeof ng);
    char(*number_text)[24] = text->number; /* whole-number rule values as text */
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
    if (ok) {
        *out = ng;
        *humans_out = humans;
    }
    return ok;
}

void api_games_create(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"game", "seats", "rules", "seed", "position", "hints",
                                         "clock", "rated", NULL};
    (void)s;
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, FIELDS, res)) {
        json_decref(body);
        return;
    }
    NewGame ng;
    NewGameText text;
    int humans = 0;
    bool ok = api_games_read(srv, body, &ng, &text, &humans, res);
    StoreUser creator;
    ok = ok && api_account_new_game(srv, req, body, &ng, &creator, res);
    Session *created = ok ? api_create_session(srv, req, &ng, humans, res) : NULL;
    json_decref(body);
    ErrBuf err;
    if (created != NULL && creator.id != 0)
        store_user_seat(srv->store, creator.id, created->id, ng.account_seat, &err);
    if (created != NULL)
        api_created_response(res, created);
}

bool api_count_create(Server *srv, const char *addr, RateLimiter *window, const char *key,
                      int per_hour, const char *what, Response *res)
{
    int retry = 0;
    bool ok = ratelimit_take(window, addr, &retry);
    // The database counts too: processes sharing it, and restarts, keep one limit.
    ErrBuf err;
    const Status st = ok ? store_count_create(srv->store, key, per_hour, &ok, &retry, &err)
                         : STATUS_OK;
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return false;
    }
    if (!ok) {
        res->retry_after = retry;
        response_error(res, 429, "too many %s created from your address: at most %d an "
                       "hour; try again in %d s", what, per_hour, retry);
    }
    return ok;
}

Session *api_create_session(Server *srv, const Request *req, NewGame *ng, int humans,
                            Response *res)
{
    const int n_seats = ng->players;
    ng->owner = req->addr;
    ng->quota_kind = humans == n_seats ? -1 : humans == 0 ? QUOTA_AIAI_GAMES : QUOTA_AI_GAMES;
    // Processes sharing a store count in the database too (store_hold_take below).
    const bool shared = store_shared(srv->store);
    const bool home = homelimits_applies(&srv->cfg, req->addr);
    if (!api_count_create(srv, req->addr, home ? srv->creates_home : srv->creates,
                          req->addr, homelimits_creates(&srv->cfg, req->addr), "games", res))
        return NULL;
    ErrBuf serr;
    Status sst = STATUS_OK;
    const int held = ng->quota_kind < 0 ? 0
                                        : homelimits_games(&srv->cfg, req->addr,
                                                           (QuotaKind)ng->quota_kind);
    bool ok = ng->quota_kind < 0 ||
              quota_take(srv->quota, req->addr, (QuotaKind)ng->quota_kind, held);
    // At the limit, the games the address left for this one (nobody moved in them for
    // --idle seconds) stop counting: a tab left open on one must not hold it for ever.
    if (!ok && sessions_release_left(srv, req->addr, ng->quota_kind,
                                     (int64_t)srv->cfg.idle_s * 1000) > 0)
        ok = quota_take(srv->quota, req->addr, (QuotaKind)ng->quota_kind, held);
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
                           "most this server runs at once: wait until one ends", held);
        else
            response_error(res, 429, "your address has %d games against the AI in play, the "
                           "most this server keeps at once: finish one, or wait %d s after "
                           "leaving one", held, srv->cfg.idle_s);
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
    pthread_mutex_lock(&s->mu);
    const unsigned hidden = s->meta.rated ? s->meta.open : 0u;
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i < s->game->players; i++) {
        json_t *l = json_object();
        char url[128];
        snprintf(url, sizeof url, "/g/%s#token=%s", s->id, s->token[i]);
        json_object_set_new(l, "seat", json_integer(i));
        json_object_set_new(l, "player", json_string(s->seats.seat[i].text));
        // A rated game's open seat is the opponent's, taken by POST .../join: its
        // creator never holds its token.
        if (hidden & (1u << i)) {
            json_object_set_new(l, "open", json_true());
            json_array_append_new(links, l);
            continue;
        }
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
    char *text = api_dump(out, &len);
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
    const int n = snprintf(text, 64, "{\"ok\":true,\"streams\":%ld}", atomic_load(&srv->open_streams));
    response_json(res, 200, text, (size_t)n);
}
