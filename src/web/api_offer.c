/*
 * api_offer.c - seeks and challenges in the JSON API (api_offer.h). Both are offers of
 * a game (store_offer.h): the game kept as POST /api/games reads it, checked when
 * offered and read again by the same code when accepted, so an offer makes exactly the
 * game a creation would. Accepting takes the offer in the store first (one taker wins),
 * then creates the game with the poster's seat taken and the acceptor joining the next
 * (POST .../join's own path, so a rated game's checks are the join's).
 */
#include "web/api_offer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game_api.h"
#include "play/registry.h"
#include "web/api.h"
#include "web/api_account.h"
#include "web/api_games.h"
#include "web/api_lobby.h"
#include "web/context.h"
#include "web/mail.h"
#include "web/session.h"
#include "web/store_offer.h"
#include "web/store_rating.h"

enum {
    LIST_CAP = 100,     /* seeks in the lobby, challenges of an account */
    OPEN_CAP = 10,      /* offers open at once from one address */
    RATING_LIMIT = 4000,
    RATINGS_CAP = 32,
    PROVISIONAL_RD = 110, /* a rating this uncertain is shown with "?" */
};

/* Seeds stay within the integers a JavaScript number holds exactly (api_games.c). */
#define SEED_MASK ((1ULL << 53) - 1)

static const char *const COLOURS[] = {"first", "second", "third", "fourth"};

static OfferAges ages(const Server *srv, int64_t now)
{
    // An open offer lives while its poster is seen: a live one --idle seconds, a
    // correspondence one a day; an answered one is kept a day for its poster to read.
    return (OfferAges){now - srv->cfg.idle_s, now - srv->cfg.day_s, now - srv->cfg.day_s, now};
}

static const char *colour_name(int colour)
{
    return colour >= 0 && colour < (int)(sizeof COLOURS / sizeof COLOURS[0]) ? COLOURS[colour]
                                                                               : "random";
}

/* The offer as the lists show it: no token, no body but its rules and clock. */
static json_t *offer_json(const StoreOffer *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "id", json_string(o->id));
    json_object_set_new(j, "from", o->from_user ? json_string(o->from_name) : json_null());
    // The poster's rating in the game, "provisional" while it is still uncertain.
    if (o->from_user) {
        json_object_set_new(j, "from_rating", json_integer((json_int_t)(o->from_rating + 0.5)));
        json_object_set_new(j, "provisional", json_boolean(o->from_rd > PROVISIONAL_RD));
    } else {
        json_object_set_new(j, "from_rating", json_null());
        json_object_set_new(j, "provisional", json_false());
    }
    if (o->to_user)
        json_object_set_new(j, "to", json_string(o->to_name));
    json_object_set_new(j, "game", json_string(o->game));
    json_object_set_new(j, "players", json_integer(o->players));
    json_t *body = json_loads(o->body, 0, NULL);
    const json_t *rules = json_object_get(body, "rules");
    const json_t *clock = json_object_get(body, "clock");
    json_object_set_new(j, "rules", rules ? json_incref((json_t *)rules) : json_object());
    json_object_set_new(j, "clock", clock ? json_incref((json_t *)clock) : json_null());
    json_decref(body);
    json_object_set_new(j, "rated", json_boolean(o->rated));
    json_object_set_new(j, "colour", json_string(colour_name(o->colour)));
    if (o->rating_min || o->rating_max) {
        json_t *r = json_object();
        json_object_set_new(r, "min", json_integer(o->rating_min));
        json_object_set_new(r, "max", json_integer(o->rating_max));
        json_object_set_new(j, "rating", r);
    } else {
        json_object_set_new(j, "rating", json_null());
    }
    json_object_set_new(j, "state", json_string(o->state));
    json_object_set_new(j, "created", json_integer(o->created));
    return j;
}

/* An accepted offer's game and the reader's seat in it with its link (what the store
 * read beside the offer): what its players open to play. */
static void add_game(const StoreOffer *o, json_t *j)
{
    if (o->game_id[0] == '\0')
        return;
    json_object_set_new(j, "game_id", json_string(o->game_id));
    if (o->seat < 0 || o->seat_token[0] == '\0')
        return;
    char url[128];
    snprintf(url, sizeof url, "/g/%s#token=%s", o->game_id, o->seat_token);
    json_object_set_new(j, "seat", json_integer(o->seat));
    json_object_set_new(j, "token", json_string(o->seat_token));
    json_object_set_new(j, "url", json_string(url));
}

/* --- offering ------------------------------------------------------------------------- */

/* The offer's game from body (game, players, rules, clock) as POST /api/games reads it,
 * checked by the same reader and configured, into o's game, players, days and body (the
 * JSON kept for the acceptance); false with res set. */
static bool read_game(Server *srv, const json_t *body, StoreOffer *o, Response *res)
{
    const json_t *game = json_object_get(body, "game");
    const json_t *players = json_object_get(body, "players");
    const json_t *rules = json_object_get(body, "rules");
    const json_t *clock = json_object_get(body, "clock");
    if (players && (!json_is_integer(players) || json_integer_value(players) < 1 ||
                    json_integer_value(players) > MAX_PLAYERS)) {
        response_error(res, 400, "'players' must be how many play, from 1 to %d", MAX_PLAYERS);
        return false;
    }
    const GameOps *known = json_is_string(game) ? registry_find(json_string_value(game)) : NULL;
    const int n = players ? (int)json_integer_value(players) : known ? known->min_players : 2;
    json_t *g = json_object();
    if (game)
        json_object_set(g, "game", (json_t *)game);
    if (rules)
        json_object_set(g, "rules", (json_t *)rules);
    if (clock && !json_is_null(clock))
        json_object_set(g, "clock", (json_t *)clock);
    json_t *seats = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(seats, json_string("human"));
    json_object_set_new(g, "seats", seats);
    NewGame ng;
    NewGameText text;
    int humans = 0;
    bool ok = api_games_read(srv, g, &ng, &text, &humans, res);
    // Its rules too, configured as the game will be, so that a seek nobody can accept
    // never reaches the lobby.
    Game *configured = NULL;
    ErrBuf err;
    if (ok && game_create(ng.ops, ng.players, ng.rules, ng.n_rules, &configured, &err) !=
                  STATUS_OK) {
        response_error(res, 400, "%s", err.msg);
        ok = false;
    }
    game_destroy(configured);
    json_object_del(g, "seats");
    char *dumped = ok ? json_dumps(g, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(g);
    if (ok && (dumped == NULL || strlen(dumped) >= sizeof o->body)) {
        response_error(res, 400, "the game's rules are too long for an offer");
        ok = false;
    }
    if (ok) {
        snprintf(o->game, sizeof o->game, "%s", ng.ops->name);
        snprintf(o->body, sizeof o->body, "%s", dumped);
        o->players = n;
        o->days = ng.clock.days;
    }
    free(dumped);
    return ok;
}

/* The offer's terms from body into *o: its game (read_game), rated, colour and rating
 * range; false with res set. */
static bool read_terms(Server *srv, const json_t *body, bool signed_in, StoreOffer *o,
                       Response *res)
{
    const json_t *rated = json_object_get(body, "rated");
    const json_t *colour = json_object_get(body, "colour");
    const json_t *rating = json_object_get(body, "rating");
    if (!read_game(srv, body, o, res))
        return false;
    const int n = o->players;
    if (rated && !json_is_boolean(rated)) {
        response_error(res, 400, "'rated' must be true or false");
        return false;
    }
    o->rated = json_is_true(rated);
    if (o->rated && !signed_in) {
        response_error(res, 401, "sign in to offer a rated game (POST /api/login)");
        return false;
    }
    if (o->rated && n != 2) {
        response_error(res, 400, "a rated game is between two players: a game of %d players "
                       "is casual only", n);
        return false;
    }
    o->colour = -1;
    if (colour && !json_is_string(colour)) {
        response_error(res, 400, "'colour' must be \"random\" or a seat: \"first\", \"second\"...");
        return false;
    }
    for (int i = 0; colour && i < n; i++)
        if (strcmp(json_string_value(colour), COLOURS[i]) == 0)
            o->colour = i;
    if (colour && o->colour < 0 && strcmp(json_string_value(colour), "random") != 0) {
        response_error(res, 400, "'colour' must be \"random\" or a seat of the %d: \"first\", "
                       "\"second\"...", n);
        return false;
    }
    if (rating == NULL)
        return true;
    const json_t *lo = json_object_get(rating, "min"), *hi = json_object_get(rating, "max");
    if (!json_is_object(rating) || json_object_size(rating) != 2 || !json_is_integer(lo) ||
        !json_is_integer(hi) || json_integer_value(lo) < 0 ||
        json_integer_value(hi) > RATING_LIMIT || json_integer_value(lo) > json_integer_value(hi)) {
        response_error(res, 400, "'rating' must be {\"min\": R, \"max\": R}, whole numbers "
                       "from 0 to %d, min not above max", RATING_LIMIT);
        return false;
    }
    o->rating_min = (int)json_integer_value(lo);
    o->rating_max = (int)json_integer_value(hi);
    return true;
}

/* POST /api/seeks and POST /api/challenges ("to" set). */
static void offer(Server *srv, const Request *req, bool challenge, Response *res)
{
    static const char *const SEEK[] = {"game", "players", "rules", "clock", "rated", "colour",
                                       "rating", NULL};
    static const char *const CHALLENGE[] = {"to", "game", "players", "rules", "clock",
                                            "rated", "colour", NULL};
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, challenge ? CHALLENGE : SEEK, res)) {
        json_decref(body);
        return;
    }
    StoreUser u, to;
    const bool in = api_account_user(srv, req, &u);
    StoreOffer o;
    memset(&o, 0, sizeof o);
    ErrBuf err;
    const json_t *name = json_object_get(body, "to");
    bool ok = true;
    if (challenge && !in) {
        response_error(res, 401, "sign in to challenge a player (POST /api/login)");
        ok = false;
    } else if (challenge && !json_is_string(name)) {
        response_error(res, 400, "'to' must be the name of the player challenged");
        ok = false;
    } else if (challenge && store_user_by_name(srv->store, json_string_value(name), &to,
                                               &err) != STATUS_OK) {
        response_error(res, 404, "there is no player called '%.40s'", json_string_value(name));
        ok = false;
    } else if (challenge && to.id == u.id) {
        response_error(res, 400, "you cannot challenge yourself");
        ok = false;
    }
    ok = ok && read_terms(srv, body, in, &o, res);
    json_decref(body);
    if (!ok)
        return;
    if (in) {
        o.from_user = u.id;
        snprintf(o.from_name, sizeof o.from_name, "%s", u.name);
    }
    if (challenge) {
        o.to_user = to.id;
        snprintf(o.to_name, sizeof o.to_name, "%s", to.name);
    }
    o.created = (int64_t)time(NULL);
    snprintf(o.state, sizeof o.state, "open");
    if (!secret_hex(o.id, SECRET_ID_BYTES) || !secret_hex(o.token, SECRET_TOKEN_BYTES)) {
        response_error(res, 503, "no randomness for the offer's id");
        return;
    }
    snprintf(o.from_addr, sizeof o.from_addr, "%s", req->addr);
    const OfferAges a = ages(srv, o.created);
    const Status st = store_offer_add(srv->store, &o, &a, OPEN_CAP, &err);
    if (st == STATUS_CONFLICT) {
        res->retry_after = srv->cfg.idle_s;
        response_error(res, 429, "your address has %d seeks and challenges waiting, the most "
                       "it may: cancel one, or wait until one is taken", OPEN_CAP);
        return;
    }
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    if (challenge) {
        // The one challenged is mailed when he asked for challenges' mails (mail.h); the
        // challenge stands whether or not the mail could be queued.
        char key[sizeof o.id + 16];
        snprintf(key, sizeof key, "challenge:%s", o.id);
        ErrBuf mail_err;
        (void)mail_challenge(srv, o.to_name, o.from_name, o.game, "/", key, &mail_err);
    }
    json_t *j = json_object();
    json_object_set_new(j, challenge ? "challenge" : "seek", offer_json(&o));
    json_object_set_new(j, "id", json_string(o.id));
    // The poster's proof for a seek (Authorization: Bearer TOKEN): an anonymous one has
    // no other.
    if (!challenge)
        json_object_set_new(j, "token", json_string(o.token));
    api_answer_json(res, 201, j);
}

/* --- answering ------------------------------------------------------------------------ */

/* The acceptor's rating in o's game (the default before his first rated game). */
static int rating_of(Server *srv, int64_t user, const char *game)
{
    StoreRating r[RATINGS_CAP];
    int n = 0;
    ErrBuf err;
    if (store_user_ratings(srv->store, user, r, RATINGS_CAP, &n, &err) != STATUS_OK)
        return (int)STORE_RATING_DEFAULT;
    for (int i = 0; i < n; i++)
        if (strcmp(r[i].game, game) == 0)
            return (int)(r[i].rating + 0.5);
    return (int)STORE_RATING_DEFAULT;
}

/* Makes o's game, taken by the request's player: the poster in his seat (his colour, or
 * one drawn from the game's seed), the acceptor joining. Answers as POST .../join. */
static void start_game(Server *srv, const Request *req, const StoreOffer *o, Response *res)
{
    ErrBuf err;
    const int64_t now = (int64_t)time(NULL);
    Status st = store_offer_move(srv->store, o->id, "open", "accepted", now, &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    // What the offer was checked to be when made; a row changed since is refused whole.
    json_t *body = o->players >= 1 && o->players <= MAX_PLAYERS ? json_loads(o->body, 0, NULL)
                                                                : NULL;
    uint64_t seed = 0;
    if (body == NULL || !secret_u64(&seed)) {
        json_decref(body);
        store_offer_move(srv->store, o->id, "accepted", "open", now, &err);
        response_error(res, 503, "the offer cannot be read now");
        return;
    }
    seed &= SEED_MASK;
    json_t *seats = json_array();
    for (int i = 0; i < o->players; i++)
        json_array_append_new(seats, json_string("human"));
    json_object_set_new(body, "seats", seats);
    json_object_set_new(body, "seed", json_integer((json_int_t)seed));
    NewGame ng;
    NewGameText text;
    int humans = 0;
    Session *s = NULL;
    // A colour left to chance is the game's seed's: the game's record says how it fell.
    const int seat = o->colour >= 0 ? o->colour : (int)((seed >> 20) % (uint64_t)o->players);
    if (api_games_read(srv, body, &ng, &text, &humans, res)) {
        ng.rated = o->rated;
        ng.open = ((1u << o->players) - 1u) & ~(1u << seat);
        ng.account = o->from_user ? o->from_name : NULL;
        ng.account_seat = seat;
        s = api_create_session(srv, req, &ng, humans, res);
    }
    json_decref(body);
    if (s == NULL) {
        store_offer_move(srv->store, o->id, "accepted", "open", now, &err);
        return;
    }
    if (o->from_user)
        store_user_seat(srv->store, o->from_user, s->id, seat, &err);
    store_offer_started(srv->store, o->id, s->id, seat, &err);
    api_lobby_join(srv, req, s, res);
    session_release(s);
}

/* POST /api/seeks/ID/accept and /api/challenges/ID/accept: who may, then the game. */
static void accept(Server *srv, const Request *req, const StoreOffer *o, Response *res)
{
    StoreUser u;
    const bool in = api_account_user(srv, req, &u);
    if (o->to_user && (!in || u.id != o->to_user)) {
        response_error(res, 403, "this challenge is for %s", o->to_name);
    } else if (!in && (o->rated || o->rating_min || o->rating_max)) {
        response_error(res, 401, "sign in to accept a %s (POST /api/login)",
                       o->rated ? "rated game" : "seek with a rating range");
    } else if ((in && u.id == o->from_user) ||
               (req->token && secret_equal(req->token, o->token))) {
        response_error(res, 409, "this is your own seek: others accept it");
    } else if (strcmp(o->state, "open") != 0) {
        response_error(res, 409, "the %s is %s", o->to_user ? "challenge" : "seek", o->state);
    } else if (o->rating_min || o->rating_max) {
        const int r = rating_of(srv, u.id, o->game);
        if (r < o->rating_min || r > o->rating_max)
            response_error(res, 403, "your %s rating, %d, is outside this seek's range "
                           "%d-%d", o->game, r, o->rating_min, o->rating_max);
        else
            start_game(srv, req, o, res);
    } else {
        start_game(srv, req, o, res);
    }
}

/* POST .../cancel (the poster) and POST /api/challenges/ID/decline (the challenged). */
static void close_offer(Server *srv, const Request *req, const StoreOffer *o, bool decline,
                        Response *res)
{
    StoreUser u;
    const bool in = api_account_user(srv, req, &u);
    const bool poster = (in && o->from_user && u.id == o->from_user) ||
                        (!o->to_user && req->token && secret_equal(req->token, o->token));
    const bool challenged = in && o->to_user && u.id == o->to_user;
    if (decline ? !challenged : !poster) {
        response_error(res, 403, decline ? "only the player challenged declines a challenge"
                                         : "only its poster cancels an offer (his sign-in, "
                                           "or a seek's token as 'Authorization: Bearer')");
        return;
    }
    ErrBuf err;
    const char *to = decline ? "declined" : "cancelled";
    const Status st = store_offer_move(srv->store, o->id, "open", to, (int64_t)time(NULL),
                                       &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "the %s is %s already",
                       o->to_user ? "challenge" : "seek", o->state);
        return;
    }
    json_t *j = json_object();
    json_object_set_new(j, "state", json_string(to));
    api_answer_json(res, 200, j);
}

/* GET /api/seeks/ID: the seek; for its poster (the token), seen again, and once it is
 * accepted his seat's link. */
static void seek_get(Server *srv, const Request *req, StoreOffer *o, Response *res)
{
    const bool poster = req->token && secret_equal(req->token, o->token);
    ErrBuf err;
    if (poster && strcmp(o->state, "open") == 0)
        store_offer_seen(srv->store, o->id, 0, (int64_t)time(NULL), &err);
    json_t *j = offer_json(o);
    if (poster)
        add_game(o, j);
    api_answer_json(res, 200, j);
}

/* GET /api/seeks: the lobby's open seeks. */
static void seek_list(Server *srv, Response *res)
{
    StoreOffer *list = malloc(sizeof *list * LIST_CAP);
    int n = 0;
    ErrBuf err;
    const OfferAges a = ages(srv, (int64_t)time(NULL));
    if (list == NULL ||
        store_offer_list(srv->store, 0, &a, list, LIST_CAP, &n, &err) != STATUS_OK) {
        free(list);
        response_error(res, 503, "the seeks cannot be read now");
        return;
    }
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, offer_json(&list[i]));
    free(list);
    json_t *j = json_object();
    json_object_set_new(j, "seeks", arr);
    api_answer_json(res, 200, j);
}

/* GET /api/challenges: the account's challenges, to it and from it (its own seen
 * again), each accepted one with the account's seat's link. */
static void challenge_list(Server *srv, const Request *req, Response *res)
{
    StoreUser u;
    if (!api_account_user(srv, req, &u)) {
        response_error(res, 401, "sign in to see your challenges (POST /api/login)");
        return;
    }
    ErrBuf err;
    const int64_t now = (int64_t)time(NULL);
    store_offer_seen(srv->store, NULL, u.id, now, &err);
    StoreOffer *list = malloc(sizeof *list * LIST_CAP);
    int n = 0;
    const OfferAges a = ages(srv, now);
    if (list == NULL ||
        store_offer_list(srv->store, u.id, &a, list, LIST_CAP, &n, &err) != STATUS_OK) {
        free(list);
        response_error(res, 503, "the challenges cannot be read now");
        return;
    }
    json_t *in = json_array(), *out = json_array();
    for (int i = 0; i < n; i++) {
        json_t *j = offer_json(&list[i]);
        add_game(&list[i], j);
        json_array_append_new(list[i].to_user == u.id ? in : out, j);
    }
    free(list);
    json_t *j = json_object();
    json_object_set_new(j, "incoming", in);
    json_object_set_new(j, "outgoing", out);
    api_answer_json(res, 200, j);
}

/* --- routing -------------------------------------------------------------------------- */

/* Whether req uses `method`; else a 405 allowing `allow` (the path's methods). */
static bool method_is(const Request *req, const char *method, const char *allow,
                      Response *res)
{
    if (strcmp(req->method, method) == 0)
        return true;
    res->allow = allow;
    response_error(res, 405, "use %s here, not %.10s", allow, req->method);
    return false;
}

bool api_offer_handle(Server *srv, const Request *req, Response *res)
{
    const char *p = req->path;
    bool challenge;
    if (strncmp(p, "/api/seeks", 10) == 0 && (p[10] == '\0' || p[10] == '/')) {
        challenge = false;
        p += 10;
    } else if (strncmp(p, "/api/challenges", 15) == 0 && (p[15] == '\0' || p[15] == '/')) {
        challenge = true;
        p += 15;
    } else {
        return false;
    }
    if (*p == '\0') {
        if (strcmp(req->method, "POST") == 0)
            offer(srv, req, challenge, res);
        else if (method_is(req, "GET", "GET, POST", res))
            challenge ? challenge_list(srv, req, res) : seek_list(srv, res);
        return true;
    }
    // /ID or /ID/ACTION
    char id[SECRET_ID_LEN + 1];
    const char *slash = strchr(p + 1, '/');
    const size_t len = slash ? (size_t)(slash - p - 1) : strlen(p + 1);
    const char *action = slash ? slash + 1 : "";
    if (len != SECRET_ID_LEN) {
        response_error(res, 404, "no such seek or challenge");
        return true;
    }
    memcpy(id, p + 1, len);
    id[len] = '\0';
    const bool known = action[0] == '\0' ? !challenge
                                         : strcmp(action, "accept") == 0 ||
                                               strcmp(action, "cancel") == 0 ||
                                               (challenge && strcmp(action, "decline") == 0);
    if (!secret_is_hex(id, SECRET_ID_LEN) || !known) {
        response_error(res, 404, "no such API path '%.60s': see docs/API.md", req->path);
        return true;
    }
    const char *method = action[0] ? "POST" : "GET";
    if (!method_is(req, method, method, res))
        return true;
    StoreOffer o;
    ErrBuf err;
    const OfferAges a = ages(srv, (int64_t)time(NULL));
    const Status st = store_offer_get(srv->store, id, &a, &o, &err);
    if (st != STATUS_OK || (o.to_user != 0) != challenge) {
        response_error(res, st == STATUS_OK || st == STATUS_NOT_FOUND ? 404 : http_status_of(st),
                       "no such %s", challenge ? "challenge" : "seek");
    } else if (action[0] == '\0') {
        seek_get(srv, req, &o, res);
    } else if (strcmp(action, "accept") == 0) {
        accept(srv, req, &o, res);
    } else {
        close_offer(srv, req, &o, strcmp(action, "decline") == 0, res);
    }
    return true;
}
