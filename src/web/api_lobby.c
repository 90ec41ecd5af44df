/*
 * api_lobby.c - the lobby's part of the API (api_lobby.h): clocks at creation and in the
 * state, the list of open games, taking a seat, and the server's reachable address.
 * The clock is a per-request field of the state, not part of the cached body: its
 * times count down between changes.
 */
#include "web/api_lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/words.h"
#include "web/api.h"
#include "web/api_account.h"
#include "web/context.h"
#include "web/session.h"

enum { OPEN_LIST_CAP = 50 };

bool api_lobby_new_game(const json_t *body, NewGame *ng, int humans, int64_t day_ms,
                        Response *res)
{
    const json_t *clock = json_object_get(body, "clock");
    play_clock_off(&ng->clock);
    if (clock == NULL || json_is_null(clock))
        return true;
    ErrBuf err;
    if (gameclock_from_request(clock, ng->players, day_ms, &ng->clock, &err) != STATUS_OK) {
        response_error(res, 400, "%s", err.msg);
        return false;
    }
    if (humans < ng->players) {
        response_error(res, 400, "a clock is for games between people: every seat must be "
                       "\"human\" or \"open\"");
        return false;
    }
    return true;
}

int api_lobby_state_fields(const Session *s, char *buf, size_t len)
{
    const int n = gameclock_state_field(&s->meta.clock, s->game->players, gameclock_now(), buf,
                                        len);
    // The seats still waiting for a player, and when the last action was played.
    char open[MAX_PLAYERS * 4 + 4] = "";
    int at = 0;
    for (int i = 0; i < s->game->players; i++)
        if (s->meta.open & (1u << i))
            at += snprintf(open + at, sizeof open - (size_t)at, "%s%d", at ? "," : "", i);
    // The names beside the board: each seat's account (names are letters, digits, _
    // and -, or META_DELETED_PLAYER: nothing to escape), null for none.
    char accounts[MAX_PLAYERS * (META_ACCOUNT_LEN + 4) + 4] = "";
    at = 0;
    for (int i = 0; i < s->game->players; i++)
        at += snprintf(accounts + at, sizeof accounts - (size_t)at, s->meta.account[i][0] ?
                       "%s\"%s\"" : "%snull", i ? "," : "", s->meta.account[i]);
    const int m = snprintf(buf + n, len - (size_t)n, "\"open_seats\":[%s],\"moved_at\":%lld,"
                           "\"rated\":%s,\"accounts\":[%s],", open,
                           (long long)s->meta.moved_ms, s->meta.rated ? "true" : "false",
                           accounts);
    return m > 0 && (size_t)m < len - (size_t)n ? n + m : n;
}

/* The game s as the open list shows it; the caller holds s->mu. */
static json_t *open_entry(const Session *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(s->id));
    json_object_set_new(o, "game", json_string(s->game->ops->name));
    json_object_set_new(o, "players", json_integer(s->game->players));
    json_t *seats = json_array();
    for (int i = 0; i < s->game->players; i++) {
        json_t *seat = json_object();
        json_object_set_new(seat, "seat", json_integer(i));
        json_object_set_new(seat, "name", json_string(play_seat_name(s->game, i)));
        json_object_set_new(seat, "open", json_boolean(s->meta.open & (1u << i)));
        json_array_append_new(seats, seat);
    }
    json_object_set_new(o, "seats", seats);
    char field[256];
    const int n = gameclock_state_field(&s->meta.clock, s->game->players, gameclock_now(), field,
                                        sizeof field);
    // The field is `"clock":VALUE,`: the value alone is what the entry carries.
    json_t *clock = NULL;
    if (n > 9)
        clock = json_loadb(field + 8, (size_t)n - 9, 0, NULL);
    json_object_set_new(o, "clock", clock ? clock : json_null());
    json_object_set_new(o, "created", json_integer(s->created));
    // A rated game's seat is for a signed-in account only (api_lobby_join).
    json_object_set_new(o, "rated", json_boolean(s->meta.rated));
    char watch[64];
    snprintf(watch, sizeof watch, "/g/%s", s->id);
    json_object_set_new(o, "watch_url", json_string(watch));
    return o;
}

static void open_games(Server *srv, Response *res)
{
    char(*ids)[SECRET_ID_LEN + 1] = malloc(sizeof *ids * OPEN_LIST_CAP);
    int n = 0;
    ErrBuf err;
    if (ids == NULL || store_list_open(srv->store, ids, OPEN_LIST_CAP, &n, &err) != STATUS_OK) {
        free(ids);
        response_error(res, 503, "the open games cannot be read now");
        return;
    }
    json_t *list = json_array();
    for (int i = 0; i < n; i++) {
        Session *s = NULL;
        if (session_find(srv, ids[i], &s, &err) != STATUS_OK)
            continue; // deleted meanwhile, or unreadable: not a game to offer
        pthread_mutex_lock(&s->mu);
        if (s->meta.open != 0 && !session_over_locked(s))
            json_array_append_new(list, open_entry(s));
        pthread_mutex_unlock(&s->mu);
        session_release(s);
    }
    free(ids);
    json_t *o = json_object();
    json_object_set_new(o, "games", list);
    api_answer_json(res, 200, o);
}

/* The base URL players on other machines open: --public-url, else the machine's address
 * when the server listens on every address, else the address it listens on; and
 * whether the Lab is on. */
static void info(Server *srv, Response *res)
{
    const ServeConfig *c = &srv->cfg;
    char url[320];
    bool reachable = true;
    if (c->public_url != NULL && c->public_url[0]) {
        snprintf(url, sizeof url, "%s", c->public_url);
        const size_t l = strlen(url);
        if (l > 0 && url[l - 1] == '/')
            url[l - 1] = '\0';
    } else {
        const char *host = c->share_host ? c->share_host : c->bind;
        const bool v6 = strchr(host, ':') != NULL;
        snprintf(url, sizeof url, "http://%s%s%s:%d", v6 ? "[" : "", host, v6 ? "]" : "",
                 srv->port);
        reachable = c->share_host != NULL || (strncmp(host, "127.", 4) != 0 &&
                                              strcmp(host, "::1") != 0);
    }
    json_t *o = json_object();
    json_object_set_new(o, "url", json_string(url));
    json_object_set_new(o, "reachable", json_boolean(reachable));
    // The pages link to the Lab only when it is on (--lab).
    json_object_set_new(o, "lab", json_boolean(c->lab_dir != NULL));
    api_answer_json(res, 200, o);
}

bool api_lobby_handle(Server *srv, const Request *req, const char *path, Response *res)
{
    const bool is_info = strcmp(path, "/api/info") == 0;
    if (!is_info && strcmp(path, "/api/open") != 0)
        return false;
    if (strcmp(req->method, "GET") != 0) {
        res->allow = "GET";
        response_error(res, 405, "use GET here, not %.10s", req->method);
    } else if (is_info) {
        info(srv, res);
    } else {
        open_games(srv, res);
    }
    return true;
}

void api_lobby_join(Server *srv, const Request *req, Session *s, Response *res)
{
    int seat = -1;
    ErrBuf err;
    StoreUser u;
    const bool in = api_account_user(srv, req, &u);
    pthread_mutex_lock(&s->mu);
    const bool rated = s->meta.rated;
    pthread_mutex_unlock(&s->mu);
    if (rated && !in) {
        response_error(res, 401, "sign in to take a seat in a rated game (POST /api/login)");
        return;
    }
    const char *account = in ? u.name : NULL;
    const Status st = session_join(srv, s, account, &seat, &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    // The game is the store's already; the seat's account is for the account's lists.
    if (in)
        store_user_seat(srv->store, u.id, s->id, seat, &err);
    json_t *o = json_object();
    json_object_set_new(o, "seat", json_integer(seat));
    json_object_set_new(o, "token", json_string(s->token[seat]));
    char url[128];
    snprintf(url, sizeof url, "/g/%s#token=%s", s->id, s->token[seat]);
    json_object_set_new(o, "url", json_string(url));
    api_answer_json(res, 200, o);
}
