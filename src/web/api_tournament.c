/*
 * api_tournament.c - tournaments in the JSON API (docs/API.md, "Tournaments"): the list
 * and creation at /api/tournaments, one tournament with its entrants, rounds, standings
 * and crosstable at /api/tournaments/ID, and joining, leaving and starting it. Anyone
 * may create one (within a per-address budget an hour); its creator holds a secret token
 * (or is the signed-in account) and alone adds AI seats and starts it early; a person
 * joins with a token of his own, which also shows him his games' seat links. The
 * creator may cancel it before it starts.
 */
#include "web/api_tournament.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "play/seats.h"
#include "web/api.h"
#include "web/api_account.h"
#include "web/api_games.h"
#include "web/context.h"
#include "web/ratelimit.h"
#include "web/secret.h"
#include "web/session.h"
#include "web/store.h"
#include "web/store_account.h"
#include "web/tour_live.h"
#include "web/tournament.h"

enum { LIST_CAP = 50, MAX_START_S = 7 * 86400, START_TRIES = 40, START_PAUSE_MS = 50 };

/* A player's chosen name: 1 to 32 bytes of printable text. */
static bool name_ok(const char *s)
{
    const size_t n = strlen(s);
    if (n < 1 || n > 32)
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false;
    return true;
}

/* The request's signed-in account id, 0 for none. */
static int64_t account_of(Server *srv, const Request *req, StoreUser *u)
{
    memset(u, 0, sizeof *u);
    return api_account_user(srv, req, u) ? u->id : 0;
}

static bool is_creator(const StoreTour *t, const Request *req, int64_t user)
{
    return (req->token && secret_equal(req->token, t->creator)) ||
           (user != 0 && user == t->creator_user);
}

/* The entrant the request speaks for (its token, or its account), or -1. */
static int entrant_of(const StoreEntrant *e, int n, const Request *req, int64_t user)
{
    for (int i = 0; i < n; i++)
        if ((req->token && secret_equal(req->token, e[i].token)) ||
            (user != 0 && e[i].user == user))
            return i;
    return -1;
}

static json_t *summary(const StoreTour *t)
{
    json_t *o = json_object();
    json_error_t je;
    json_t *rules = json_loads(t->rules, 0, &je);
    json_t *clock = json_loads(t->clock, JSON_DECODE_ANY, &je);
    json_object_set_new(o, "id", json_string(t->id));
    json_object_set_new(o, "name", json_string(t->name));
    json_object_set_new(o, "game", json_string(t->game));
    json_object_set_new(o, "format", json_string(t->format));
    const bool arena = strcmp(t->format, "arena") == 0;
    json_object_set_new(o, "rounds", arena ? json_null()
                                           : json_integer(tournament_rounds(t, t->players)));
    if (arena) {
        json_object_set_new(o, "duration", json_integer(t->rounds));
        json_object_set_new(o, "ends", json_integer(t->starts + t->rounds));
    }
    json_object_set_new(o, "round", json_integer(t->round + 1));
    json_object_set_new(o, "max_players", json_integer(t->max_players));
    json_object_set_new(o, "players", json_integer(t->players));
    json_object_set_new(o, "starts", json_integer(t->starts));
    json_object_set_new(o, "state", json_string(t->state));
    json_object_set_new(o, "version", json_integer((json_int_t)t->version));
    json_object_set_new(o, "rules", rules ? rules : json_object());
    json_object_set_new(o, "clock", clock ? clock : json_null());
    return o;
}

/* A query argument that is a whole number in [lo, hi], or `fallback` when absent; false
 * with res set. */
static bool int_arg(const Request *req, const char *name, long lo, long hi, long fallback,
                    long *out, Response *res)
{
    const char *v = request_arg(req, name);
    char *end = NULL;
    *out = fallback;
    if (v == NULL)
        return true;
    *out = strtol(v, &end, 10);
    if (v[0] == '\0' || *end != '\0' || *out < lo || *out > hi) {
        response_error(res, 400, "'%s' must be a whole number from %ld to %ld", name, lo, hi);
        return false;
    }
    return true;
}

/* GET /api/tournaments[?limit=N&offset=M]: a page of the list; `next` is the offset of
 * the page after it, null at the end, so that the finished ones, which stay for review,
 * never make one answer grow. */
static void list(Server *srv, const Request *req, Response *res)
{
    long limit = 0, offset = 0;
    if (!int_arg(req, "limit", 1, LIST_CAP, LIST_CAP, &limit, res) ||
        !int_arg(req, "offset", 0, 1000000000L, 0, &offset, res))
        return;
    // One more than the page, to know whether there is a next one.
    StoreTour *t = calloc((size_t)limit + 1, sizeof *t);
    if (t == NULL) {
        response_error(res, 503, "out of memory");
        return;
    }
    int n = 0;
    ErrBuf err;
    const Status st = store_tour_list(srv->store, (int)offset, t, (int)limit + 1, &n, &err);
    if (st != STATUS_OK) {
        free(t);
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    json_t *arr = json_array();
    for (int i = 0; i < n && i < limit; i++)
        json_array_append_new(arr, summary(&t[i]));
    free(t);
    json_t *o = json_object();
    json_object_set_new(o, "tournaments", arr);
    json_object_set_new(o, "next", n > limit ? json_integer(offset + limit) : json_null());
    api_answer_json(res, 200, o);
}

/* An integer field in [lo, hi], or `fallback` when absent; false with res set. */
static bool int_field(const json_t *body, const char *name, int lo, int hi, int fallback,
                      int *out, Response *res)
{
    const json_t *v = json_object_get(body, name);
    if (v == NULL) {
        *out = fallback;
        return true;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        response_error(res, 400, "'%s' must be a whole number from %d to %d", name, lo, hi);
        return false;
    }
    *out = (int)json_integer_value(v);
    return true;
}

/* The rules as a JSON object of strings, whole numbers turned to text. */
static json_t *rules_text(const json_t *rules, Response *res)
{
    json_t *out = json_object();
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)rules, key, v) {
        char num[24];
        if (json_is_integer(v)) {
            snprintf(num, sizeof num, "%lld", (long long)json_integer_value(v));
            json_object_set_new(out, key, json_string(num));
        } else if (json_is_string(v)) {
            json_object_set(out, key, v);
        } else {
            response_error(res, 400, "rule '%.40s' must have a string or a whole number as "
                           "its value", key);
            json_decref(out);
            return NULL;
        }
    }
    return out;
}

/* POST /api/tournaments */
static void create(Server *srv, const Request *req, Response *res)
{
    static const char *const FIELDS[] = {"name", "game", "format", "rounds", "duration",
                                         "rules", "clock", "starts_in", "max_players", NULL};
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, FIELDS, res)) {
        json_decref(body);
        return;
    }
    StoreTour t;
    memset(&t, 0, sizeof t);
    const json_t *name = json_object_get(body, "name"), *game = json_object_get(body, "game");
    const json_t *format = json_object_get(body, "format"), *rules = json_object_get(body, "rules");
    const json_t *clock = json_object_get(body, "clock");
    int starts_in = 0, duration = 0;
    bool ok = false;
    if (!json_is_string(name) || !name_ok(json_string_value(name)))
        response_error(res, 400, "'name' must be 1 to 32 characters");
    else if (!json_is_string(game))
        response_error(res, 400, "'game' must be the name of a game (GET /api/games lists them)");
    else if (format && !json_is_string(format))
        response_error(res, 400, "'format' must be \"round-robin\", \"swiss\" or \"arena\"");
    else if (rules && !json_is_object(rules))
        response_error(res, 400, "'rules' must be an object such as {\"max-plies\": 200}");
    else if (clock && !json_is_object(clock) && !json_is_null(clock))
        response_error(res, 400, "'clock' must be {\"initial\": S, \"increment\": S} or null");
    else
        ok = int_field(body, "rounds", 1, TOURNAMENT_MAX_SWISS_ROUNDS, 0, &t.rounds, res) &&
             int_field(body, "max_players", 2, TOURNAMENT_MAX_PLAYERS, 16, &t.max_players,
                       res) &&
             int_field(body, "starts_in", 0, MAX_START_S, 300, &starts_in, res) &&
             int_field(body, "duration", TOURNAMENT_MIN_ARENA_S, TOURNAMENT_MAX_ARENA_S, 1800,
                       &duration, res);
    json_t *none = json_object();
    json_t *rt = ok ? rules_text(rules ? rules : none, res) : NULL;
    json_decref(none);
    char *rules_s = rt ? json_dumps(rt, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    char *clock_s = ok ? json_dumps(clock ? clock : json_null(), JSON_COMPACT | JSON_ENCODE_ANY)
                       : NULL;
    json_decref(rt);
    if (ok && rt == NULL)
        ok = false;
    if (ok && (rules_s == NULL || clock_s == NULL || strlen(rules_s) >= sizeof t.rules ||
               strlen(clock_s) >= sizeof t.clock)) {
        response_error(res, 400, "the rules or the clock are too long");
        ok = false;
    }
    ErrBuf err;
    if (ok) {
        snprintf(t.name, sizeof t.name, "%s", json_string_value(name));
        snprintf(t.game, sizeof t.game, "%s", json_string_value(game));
        snprintf(t.format, sizeof t.format, "%s",
                 format ? json_string_value(format) : "round-robin");
        // An arena keeps its length in seconds where the others keep their rounds.
        if (strcmp(t.format, "arena") == 0)
            t.rounds = duration;
        else if (strcmp(t.format, "swiss") != 0)
            t.rounds = 0;
        else if (t.rounds == 0)
            t.rounds = 5;
        snprintf(t.rules, sizeof t.rules, "%s", rules_s);
        snprintf(t.clock, sizeof t.clock, "%s", clock_s);
        const Status st = tournament_check(&t, clock, &err);
        if (st != STATUS_OK) {
            response_error(res, http_status_of(st), "%s", err.msg);
            ok = false;
        }
    }
    free(rules_s);
    free(clock_s);
    json_decref(body);
    if (!ok)
        return;
    // A tournament makes many games: its own budget, under its own key in the database.
    char key[96];
    snprintf(key, sizeof key, "tournament %s", req->addr);
    if (!api_count_create(srv, req->addr, srv->tournament_creates, key,
                          tournament_creates_per_hour(&srv->cfg), "tournaments", res))
        return;
    StoreUser u;
    t.creator_user = account_of(srv, req, &u);
    t.created = (int64_t)time(NULL);
    t.starts = t.created + starts_in;
    t.round = -1;
    snprintf(t.state, sizeof t.state, "open");
    if (!secret_hex(t.id, SECRET_ID_BYTES) || !secret_hex(t.creator, SECRET_TOKEN_BYTES)) {
        response_error(res, 503, "no randomness for the tournament's id");
        return;
    }
    const Status st = store_tour_create(srv->store, &t, &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    json_t *o = summary(&t);
    json_object_set_new(o, "token", json_string(t.creator));
    snprintf(res->location, sizeof res->location, "/api/tournaments/%s", t.id);
    api_answer_json(res, 201, o);
}

/* The rounds' boards, each game with its link to watch. */
static json_t *rounds_json(const StoreTourGame *g, int n, int rounds)
{
    json_t *arr = json_array();
    for (int r = 0; r < rounds; r++) {
        json_t *boards = json_array();
        for (int i = 0; i < n; i++) {
            if (g[i].round != r)
                continue;
            json_t *b = json_object();
            json_object_set_new(b, "board", json_integer(g[i].board));
            json_object_set_new(b, "white", json_integer(g[i].white));
            json_object_set_new(b, "black", g[i].black < 0 ? json_null()
                                                          : json_integer(g[i].black));
            json_object_set_new(b, "result", g[i].done ? json_real(g[i].result) : json_null());
            if (g[i].game_id[0]) {
                char url[64];
                snprintf(url, sizeof url, "/g/%s", g[i].game_id);
                json_object_set_new(b, "game", json_string(g[i].game_id));
                json_object_set_new(b, "watch_url", json_string(url));
            }
            json_array_append_new(boards, b);
        }
        if (json_array_size(boards) == 0) {
            json_decref(boards);
            break;
        }
        json_array_append_new(arr, boards);
    }
    return arr;
}

static json_t *arena_json(const ArenaScore *table, int players)
{
    json_t *arr = json_array();
    for (int i = 0; i < players; i++) {
        const ArenaScore *s = &table[i];
        json_array_append_new(arr, json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:b}",
                                             "place", s->place, "seed", s->player, "score",
                                             s->score, "games", s->games, "wins", s->wins,
                                             "draws", s->draws, "losses", s->losses,
                                             "performance", s->performance, "on_fire",
                                             s->on_fire));
    }
    return arr;
}

static json_t *standings_json(const Standing *table, int players)
{
    json_t *arr = json_array();
    for (int i = 0; i < players; i++) {
        const Standing *s = &table[i];
        json_t *o = json_object();
        json_object_set_new(o, "place", json_integer(s->place));
        json_object_set_new(o, "seed", json_integer(s->player));
        json_object_set_new(o, "points", json_real(s->points));
        json_object_set_new(o, "games", json_integer(s->games));
        json_object_set_new(o, "wins", json_integer(s->wins));
        json_object_set_new(o, "draws", json_integer(s->draws));
        json_object_set_new(o, "losses", json_integer(s->losses));
        json_object_set_new(o, "byes", json_integer(s->byes));
        json_object_set_new(o, "sonneborn_berger", json_real(s->sonneborn_berger));
        json_object_set_new(o, "buchholz", json_real(s->buchholz));
        json_array_append_new(arr, o);
    }
    return arr;
}

/* A round-robin's crosstable: row i, column j the points i scored against j (null: not
 * yet played, or i itself). */
static json_t *crosstable_json(const StoreTourGame *g, int n, int players)
{
    json_t *rows = json_array();
    for (int i = 0; i < players; i++) {
        json_t *row = json_array();
        for (int j = 0; j < players; j++) {
            double pts = 0;
            bool met = false;
            for (int k = 0; k < n; k++) {
                if (!g[k].done || g[k].black < 0)
                    continue;
                if (g[k].white == i && g[k].black == j) {
                    pts += g[k].result;
                    met = true;
                } else if (g[k].white == j && g[k].black == i) {
                    pts += 1.0 - g[k].result;
                    met = true;
                }
            }
            json_array_append_new(row, met ? json_real(pts) : json_null());
        }
        json_array_append_new(rows, row);
    }
    return rows;
}

/* The asker's own games with their seat links (a person's seat token). */
static json_t *my_games(Server *srv, const StoreTourGame *g, int n, int seed)
{
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) {
        if (!g[i].game_id[0] || (g[i].white != seed && g[i].black != seed))
            continue;
        const int seat = g[i].white == seed ? 0 : 1;
        Session *s = NULL;
        ErrBuf err;
        if (session_find(srv, g[i].game_id, &s, &err) != STATUS_OK)
            continue;
        char url[128];
        snprintf(url, sizeof url, "/g/%s#token=%s", s->id, s->token[seat]);
        session_release(s);
        json_t *o = json_object();
        json_object_set_new(o, "round", json_integer(g[i].round + 1));
        json_object_set_new(o, "game", json_string(g[i].game_id));
        json_object_set_new(o, "seat", json_integer(seat));
        json_object_set_new(o, "url", json_string(url));
        json_object_set_new(o, "done", json_boolean(g[i].done));
        json_array_append_new(arr, o);
    }
    return arr;
}

/* GET /api/tournaments/ID */
static void show(Server *srv, const Request *req, const StoreTour *t, const StoreEntrant *e,
                 int players, Response *res)
{
    StoreTourGame *g = NULL;
    int n = 0;
    ErrBuf err;
    Status st = store_tour_games(srv->store, t->id, &g, &n, &err);
    const bool arena = strcmp(t->format, "arena") == 0;
    Standing *table = st == STATUS_OK ? calloc((size_t)players + 1, sizeof *table) : NULL;
    ArenaScore *scores = st == STATUS_OK ? calloc((size_t)players + 1, sizeof *scores) : NULL;
    if (st == STATUS_OK && (table == NULL || scores == NULL))
        st = err_set(&err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && players >= 2)
        st = arena ? tournament_arena_standings(players, g, n, scores, &err)
                   : tournament_standings(t, players, g, n, table, &err);
    if (st != STATUS_OK) {
        free(g);
        free(table);
        free(scores);
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    json_t *o = summary(t);
    json_t *ents = json_array();
    for (int i = 0; i < players; i++) {
        json_t *x = json_object();
        json_object_set_new(x, "seed", json_integer(i));
        json_object_set_new(x, "entry", json_integer(e[i].entry));
        json_object_set_new(x, "player", json_string(e[i].player));
        json_object_set_new(x, "name", json_string(e[i].name));
        json_object_set_new(x, "account", json_boolean(e[i].user != 0));
        json_array_append_new(ents, x);
    }
    json_object_set_new(o, "entrants", ents);
    json_object_set_new(o, "pairings", rounds_json(g, n, tournament_rounds(t, players)));
    json_object_set_new(o, "standings", players < 2 ? json_array()
                                        : arena   ? arena_json(scores, players)
                                                  : standings_json(table, players));
    if (strcmp(t->format, "round-robin") == 0)
        json_object_set_new(o, "crosstable", crosstable_json(g, n, players));
    StoreUser u;
    const int64_t user = account_of(srv, req, &u);
    json_object_set_new(o, "creator", json_boolean(is_creator(t, req, user)));
    const int me = entrant_of(e, players, req, user);
    if (me >= 0) {
        json_t *you = json_object();
        json_object_set_new(you, "seed", json_integer(me));
        json_object_set_new(you, "entry", json_integer(e[me].entry));
        json_object_set_new(you, "games", my_games(srv, g, n, me));
        json_object_set_new(o, "you", you);
    }
    free(g);
    free(table);
    free(scores);
    api_answer_json(res, 200, o);
}

/* POST .../join: a person ({"name": ...}, or the account's name), or an AI seat
 * ({"player": "ai:N"}) that only the creator adds. */
static void join(Server *srv, const Request *req, const StoreTour *t, const StoreEntrant *e,
                 int players, Response *res)
{
    static const char *const FIELDS[] = {"name", "player", NULL};
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, FIELDS, res)) {
        json_decref(body);
        return;
    }
    const json_t *name = json_object_get(body, "name"), *player = json_object_get(body, "player");
    StoreUser u;
    const int64_t user = account_of(srv, req, &u);
    StoreEntrant ne;
    memset(&ne, 0, sizeof ne);
    bool ok = false;
    ErrBuf err;
    if (name && (!json_is_string(name) || !name_ok(json_string_value(name)))) {
        response_error(res, 400, "'name' must be 1 to 32 characters");
    } else if (player && !json_is_string(player)) {
        response_error(res, 400, "'player' must be an AI such as \"ai:3\"");
    } else if (player) {
        bool human = true;
        AgentSpec spec;
        const char *p = json_string_value(player);
        if (!is_creator(t, req, user))
            response_error(res, 403, "only the tournament's creator adds AI seats");
        else if (strlen(p) >= sizeof ne.player || seat_parse(p, 0, 0, &human, &spec, &err) !=
                                                      STATUS_OK || human)
            response_error(res, 400, "'player' must be an AI such as \"ai:3\"");
        else
            ok = true;
        snprintf(ne.player, sizeof ne.player, "%s", ok ? p : "");
        snprintf(ne.name, sizeof ne.name, "%s", ok ? p : "");
    } else if (entrant_of(e, players, req, user) >= 0) {
        response_error(res, 409, "you are in this tournament already");
    } else {
        ok = true;
        snprintf(ne.player, sizeof ne.player, "human");
        snprintf(ne.name, sizeof ne.name, "%s",
                 user ? u.name : name ? json_string_value(name) : "player");
        ne.user = user;
    }
    json_decref(body);
    if (!ok)
        return;
    if (!secret_hex(ne.token, SECRET_TOKEN_BYTES)) {
        response_error(res, 503, "no randomness for the entrant's token");
        return;
    }
    int entry = 0;
    const Status st = store_tour_join(srv->store, t->id, &ne, &entry, &err);
    if (st != STATUS_OK) {
        response_error(res, st == STATUS_NOT_FOUND ? 409 : http_status_of(st), "%s", err.msg);
        return;
    }
    tour_live_changed(srv, t->id);
    json_t *o = json_object();
    json_object_set_new(o, "entry", json_integer(entry));
    json_object_set_new(o, "token", json_string(ne.token));
    api_answer_json(res, 200, o);
}

/* POST .../leave: an entrant leaves, or the creator takes out {"entry": N}. */
static void leave(Server *srv, const Request *req, const StoreTour *t, const StoreEntrant *e,
                  int players, Response *res)
{
    static const char *const FIELDS[] = {"entry", NULL};
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, FIELDS, res)) {
        json_decref(body);
        return;
    }
    const json_t *entry = json_object_get(body, "entry");
    StoreUser u;
    const int64_t user = account_of(srv, req, &u);
    int which = -1;
    if (entry && !json_is_integer(entry)) {
        response_error(res, 400, "'entry' must be an entrant's number");
    } else if (entry) {
        if (!is_creator(t, req, user))
            response_error(res, 403, "only the tournament's creator takes others out");
        else
            which = (int)json_integer_value(entry);
    } else {
        const int me = entrant_of(e, players, req, user);
        if (me < 0)
            response_error(res, 403, "you are not in this tournament");
        else
            which = e[me].entry;
    }
    json_decref(body);
    if (which < 0)
        return;
    ErrBuf err;
    const Status st = store_tour_leave(srv->store, t->id, which, &err);
    if (st != STATUS_OK) {
        response_error(res, st == STATUS_NOT_FOUND ? 409 : http_status_of(st), "%s", err.msg);
        return;
    }
    tour_live_changed(srv, t->id);
    api_answer_json(res, 200, json_pack("{s:b}", "ok", 1));
}

/* A creator's call with an empty body ({}): false with res set when the body is not
 * that, or the asker is not the creator ("only the tournament's creator DOES"). */
static bool creator_call(Server *srv, const Request *req, const StoreTour *t, const char *does,
                         Response *res)
{
    json_t *body = parse_body(req, res);
    static const char *const NONE[] = {NULL};
    const bool ok = body != NULL && only_fields(body, NONE, res);
    json_decref(body);
    if (!ok)
        return false;
    StoreUser u;
    if (!is_creator(t, req, account_of(srv, req, &u))) {
        response_error(res, 403, "only the tournament's creator %s", does);
        return false;
    }
    return true;
}

/* POST .../cancel: the creator calls it off before its start; its entrants see it
 * cancelled until the housekeeping deletes it (tournaments_sweep). */
static void cancel(Server *srv, const Request *req, const StoreTour *t, Response *res)
{
    if (!creator_call(srv, req, t, "cancels it", res))
        return;
    ErrBuf err;
    const Status st = store_tour_cancel(srv->store, t->id, (int64_t)time(NULL), &err);
    if (st != STATUS_OK) {
        response_error(res, st == STATUS_NOT_FOUND ? 409 : http_status_of(st), "%s", err.msg);
        return;
    }
    tour_live_changed(srv, t->id);
    api_answer_json(res, 200, json_pack("{s:b}", "ok", 1));
}

/* POST .../start: the creator starts it now rather than at its time. */
static void start(Server *srv, const Request *req, const StoreTour *t, Response *res)
{
    if (!creator_call(srv, req, t, "starts it", res))
        return;
    if (t->players < 2) {
        response_error(res, 409, "a tournament needs two players at least");
        return;
    }
    ErrBuf err;
    Status st = store_tour_set_start(srv->store, t->id, (int64_t)time(NULL), &err);
    // The housekeeping (or another server) may hold the lease for a moment: the first
    // round is paired before the answer all the same, so that a client reading the
    // tournament next sees it running.
    StoreTour now;
    for (int k = 0; st == STATUS_OK && k < START_TRIES; k++) {
        st = tournament_advance(srv, t->id, &err);
        if (st == STATUS_OK)
            st = store_tour_get(srv->store, t->id, &now, &err);
        if (st != STATUS_OK || strcmp(now.state, "open") != 0)
            break;
        const struct timespec pause = {0, START_PAUSE_MS * 1000000L};
        nanosleep(&pause, NULL);
    }
    if (st != STATUS_OK) {
        response_error(res, st == STATUS_NOT_FOUND ? 409 : http_status_of(st), "%s", err.msg);
        return;
    }
    tour_live_changed(srv, t->id); // the start moved, whoever paired the first round
    api_answer_json(res, 200, json_pack("{s:b}", "ok", 1));
}

bool api_tournament_handle(Server *srv, const Request *req, Response *res)
{
    static const char ROOT[] = "/api/tournaments";
    const size_t root = sizeof ROOT - 1;
    if (strncmp(req->path, ROOT, root) != 0 || (req->path[root] && req->path[root] != '/'))
        return false;
    const bool get = strcmp(req->method, "GET") == 0, post = strcmp(req->method, "POST") == 0;
    const char *rest = req->path[root] ? req->path + root + 1 : "";
    if (rest[0] == '\0') {
        if (get)
            list(srv, req, res);
        else if (post)
            create(srv, req, res);
        else
            response_error(res, 405, "use GET to list tournaments or POST to create one");
        return true;
    }
    const char *slash = strchr(rest, '/');
    const size_t id_len = slash ? (size_t)(slash - rest) : strlen(rest);
    const char *action = slash ? slash + 1 : "";
    char id[SECRET_ID_LEN + 1];
    if (id_len != SECRET_ID_LEN) {
        response_error(res, 404, "no such tournament");
        return true;
    }
    memcpy(id, rest, id_len);
    id[id_len] = '\0';
    if (!secret_is_hex(id, SECRET_ID_LEN)) {
        response_error(res, 404, "no such tournament");
        return true;
    }
    const bool known = action[0] == '\0' || strcmp(action, "join") == 0 ||
                       strcmp(action, "leave") == 0 || strcmp(action, "start") == 0 ||
                       strcmp(action, "cancel") == 0;
    if (!known) {
        response_error(res, 404, "no such API path: a tournament has join, leave, start "
                       "and cancel");
        return true;
    }
    if (action[0] == '\0' ? !get : !post) {
        res->allow = action[0] == '\0' ? "GET" : "POST";
        response_error(res, 405, "use %s here", res->allow);
        return true;
    }
    StoreTour t;
    StoreEntrant *e = NULL;
    int players = 0;
    ErrBuf err;
    Status st = store_tour_get(srv->store, id, &t, &err);
    if (st == STATUS_OK)
        st = store_tour_entrants(srv->store, id, &e, &players, &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return true;
    }
    if (action[0] == '\0')
        show(srv, req, &t, e, players, res);
    else if (strcmp(action, "join") == 0)
        join(srv, req, &t, e, players, res);
    else if (strcmp(action, "leave") == 0)
        leave(srv, req, &t, e, players, res);
    else if (strcmp(action, "cancel") == 0)
        cancel(srv, req, &t, res);
    else
        start(srv, req, &t, res);
    free(e);
    return true;
}
