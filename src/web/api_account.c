/*
 * api_account.c - accounts in the JSON API (api_account.h). Every refusal of a sign-in
 * says the same ("wrong name or password") after the same work, whether the name exists
 * or not; the password is never written anywhere but into argon2id. A sign-in always
 * opens a new session and closes the one the browser brought, so a session id planted
 * in a browser beforehand (fixation) never becomes a signed-in one.
 */
#include "web/api_account.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "web/api.h"
#include "web/api_rating.h"
#include "web/context.h"
#include "web/credential.h"
#include "web/gameclock.h"
#include "web/loginlimit.h"
#include "web/meta.h"
#include "web/mail.h"
#include "web/session.h"
#include "web/store_mail.h"
#include "web/store_passkey.h"
#include "web/store_puzzle.h"

enum {
    CLAIM_CAP = 200,    /* games claimed in one request */
    EXPORT_CAP = 5000,  /* seats an export lists */
    EXPORT_KEYS = 64,   /* passkeys an export lists (an account may have 20) */
    EXPORT_GAMES = 64,  /* games of puzzle ratings an export lists */
    LIMIT_KEY = 96,
};

static const int64_t SESSION_S = (int64_t)STORE_SESSION_DAYS * 86400;

/* The session cookie, set to id, or cleared when id is NULL. */
static void set_cookie(Response *res, const Request *req, const char *id)
{
    snprintf(res->set_cookie, sizeof res->set_cookie,
             HTTP_SESSION_COOKIE "=%s; Path=/; Max-Age=%lld; HttpOnly; SameSite=Lax%s",
             id ? id : "", id ? (long long)SESSION_S : 0LL, req->https ? "; Secure" : "");
}

bool api_account_user(Server *srv, const Request *req, StoreUser *out)
{
    char hash[CREDENTIAL_ID_LEN + 1];
    ErrBuf err;
    return credential_session_hash(req->session, hash) &&
           store_session_user(srv->store, hash, (int64_t)time(NULL) - SESSION_S, out, &err) ==
               STATUS_OK;
}

bool api_account_need_user(Server *srv, const Request *req, StoreUser *u, Response *res)
{
    if (api_account_user(srv, req, u))
        return true;
    response_error(res, 401, "sign in first (POST /api/login)");
    return false;
}

static const char *field(const json_t *body, const char *name)
{
    return json_string_value(json_object_get(body, name));
}

bool api_account_open_session(Server *srv, const Request *req, const StoreUser *u, Response *res)
{
    char id[CREDENTIAL_ID_LEN + 1], hash[CREDENTIAL_ID_LEN + 1], old[CREDENTIAL_ID_LEN + 1];
    ErrBuf err;
    if (credential_session_hash(req->session, old))
        store_session_close(srv->store, old, &err);
    if (!credential_session_id(id) || !credential_session_hash(id, hash) ||
        store_session_open(srv->store, u->id, hash, (int64_t)time(NULL), &err) != STATUS_OK) {
        response_error(res, 503, "cannot sign in now: try again");
        return false;
    }
    set_cookie(res, req, id);
    // The language its mails are written in: the page's, as it signs in.
    mail_remember_language(srv, u->id, u->lang, req->lang, req->accept_language);
    return true;
}

static void answer_name(Response *res, int status, const char *name)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(name));
    api_answer_json(res, status, o);
}

/* The body {"name": ..., "password": ...} of a sign-up or a sign-in; NULL with res set. */
static json_t *name_password(const Request *req, const char **name, const char **password,
                             Response *res)
{
    static const char *const FIELDS[] = {"name", "password", NULL};
    json_t *body = string_body(req, FIELDS, res);
    if (body != NULL) {
        *name = field(body, "name");
        *password = field(body, "password");
    }
    return body;
}

void api_account_signup(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    const char *name, *password;
    json_t *body = name_password(req, &name, &password, res);
    if (body == NULL)
        return;
    const char *why = credential_name_refusal(name);
    if (why == NULL)
        why = credential_password_refusal(password);
    char hash[CREDENTIAL_HASH_CAP];
    ErrBuf err;
    StoreUser u;
    Status st;
    if (why != NULL)
        response_error(res, 400, "%s", why);
    else if ((st = credential_hash(srv->cred, password, hash, &err)) != STATUS_OK ||
             (st = store_user_create(srv->store, name, hash, (int64_t)time(NULL), &u, &err)) !=
                 STATUS_OK)
        response_error(res, st == STATUS_CONFLICT ? 409 : 503, "%s",
                       st == STATUS_CONFLICT ? "that name is taken: choose another"
                                             : "cannot make the account now: try again");
    else if (api_account_open_session(srv, req, &u, res))
        answer_name(res, 201, u.name);
    json_decref(body);
}

/* The keys the sign-in limits count: the account's (by its key, whatever the case)
 * and the address's. */
static void limit_keys(const Request *req, const char *name, char *account, char *addr)
{
    char key[LIMIT_KEY];
    credential_name_key(name, key, sizeof key);
    snprintf(account, LIMIT_KEY, "u:%.60s", key);
    snprintf(addr, LIMIT_KEY, "a:%.60s", req->addr);
}

/* The seconds `key` waits: by this process's count, and with a shared store by the
 * count of every process sharing it (the longer; the store failing, this one's). */
static int wait_s(Server *srv, LoginLimit *l, const char *key)
{
    int w = loginlimit_wait(l, key, clock_ms());
    int64_t until = 0;
    ErrBuf err;
    if (store_shared(srv->store) && store_login_until(srv->store, key, &until, &err) == STATUS_OK) {
        const int64_t now = gameclock_now();
        const int shared = until > now ? (int)((until - now + 999) / 1000) : 0;
        w = shared > w ? shared : w;
    }
    return w;
}

/* Counts a failed sign-in of `key`, here and in a shared store. */
static void count_failure(Server *srv, LoginLimit *l, int free_tries, const char *key)
{
    loginlimit_fail(l, key, clock_ms());
    ErrBuf err;
    if (store_shared(srv->store))
        store_login_fail(srv->store, key, free_tries, gameclock_now(), &err);
}

/* A 429 when either key waits: true with res set. */
static bool limited(Server *srv, const char *account, const char *addr, Response *res)
{
    const int a = wait_s(srv, srv->logins, account);
    const int b = wait_s(srv, srv->address_logins, addr);
    const int wait = a > b ? a : b;
    if (wait == 0)
        return false;
    char msg[128];
    snprintf(msg, sizeof msg, "too many failed sign-ins %s: try again in %d s",
             a >= b ? "for this name" : "from your address", wait);
    json_t *o = json_object();
    json_object_set_new(o, "error", json_string(msg));
    json_object_set_new(o, "retry_after", json_integer(wait));
    res->retry_after = wait;
    api_answer_json(res, 429, o);
    return true;
}

bool api_account_address_limited(Server *srv, const Request *req, Response *res)
{
    char account[LIMIT_KEY], addr[LIMIT_KEY];
    limit_keys(req, "", account, addr);
    // The account's key is nobody's (names have 3 characters or more): only the
    // address counts.
    return limited(srv, account, addr, res);
}

void api_account_address_failed(Server *srv, const Request *req)
{
    char account[LIMIT_KEY], addr[LIMIT_KEY];
    limit_keys(req, "", account, addr);
    loginlimit_fail(srv->address_logins, addr, clock_ms());
}

/* Checks `password` for the account called `name` (a missing one at the same cost),
 * counting a failure against both limits; *u is the account when it matches. */
static bool check_password(Server *srv, const char *account, const char *addr,
                           const char *name, const char *password, StoreUser *u)
{
    ErrBuf err;
    const bool found = strlen(name) <= CREDENTIAL_NAME_MAX &&
                       store_user_by_name(srv->store, name, u, &err) == STATUS_OK;
    const bool ok = credential_verify(srv->cred, found ? u->hash : NULL, password);
    if (!ok) {
        // The address is allowed four times the account's failures (server.c).
        count_failure(srv, srv->logins, srv->cfg.login_tries, account);
        count_failure(srv, srv->address_logins, 4 * srv->cfg.login_tries, addr);
    } else {
        loginlimit_clear(srv->logins, account);
        if (store_shared(srv->store))
            store_login_clear(srv->store, account, &err);
    }
    return ok;
}

void api_account_login(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    const char *name, *password;
    json_t *body = name_password(req, &name, &password, res);
    if (body == NULL)
        return;
    char account[LIMIT_KEY], addr[LIMIT_KEY];
    limit_keys(req, name, account, addr);
    StoreUser u;
    if (limited(srv, account, addr, res)) {
        // refused before any work: the answer says nothing of the password
    } else if (strlen(password) > CREDENTIAL_PASSWORD_MAX ||
               !check_password(srv, account, addr, name, password, &u)) {
        response_error(res, 401, "wrong name or password");
    } else if (api_account_open_session(srv, req, &u, res)) {
        answer_name(res, 200, u.name);
    }
    json_decref(body);
}

static void answer_ok(Response *res)
{
    json_t *o = json_object();
    json_object_set_new(o, "ok", json_true());
    api_answer_json(res, 200, o);
}

bool api_account_empty_body(const Request *req, Response *res)
{
    static const char *const NONE[] = {NULL};
    if (req->body_len == 0)
        return true;
    json_t *body = parse_body(req, res);
    const bool ok = body != NULL && only_fields(body, NONE, res);
    json_decref(body);
    return ok;
}

void api_account_logout(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    if (!api_account_empty_body(req, res))
        return;
    char hash[CREDENTIAL_ID_LEN + 1];
    ErrBuf err;
    if (credential_session_hash(req->session, hash) &&
        store_session_close(srv->store, hash, &err) != STATUS_OK) {
        response_error(res, 503, "cannot sign out now: try again");
        return;
    }
    set_cookie(res, req, NULL);
    answer_ok(res);
}

void api_account_logout_all(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    StoreUser u;
    ErrBuf err;
    if (!api_account_empty_body(req, res) || !api_account_need_user(srv, req, &u, res))
        return;
    if (store_sessions_close_all(srv->store, u.id, NULL, &err) != STATUS_OK) {
        response_error(res, 503, "cannot sign out now: try again");
        return;
    }
    set_cookie(res, req, NULL);
    answer_ok(res);
}

/* The signed-in account of a request that also gives its current password in body
 * field "password" (limited as sign-ins are); false with res set. */
static bool confirm(Server *srv, const Request *req, const json_t *body, StoreUser *u,
                    Response *res)
{
    if (!api_account_need_user(srv, req, u, res))
        return false;
    char account[LIMIT_KEY], addr[LIMIT_KEY];
    limit_keys(req, u->name, account, addr);
    if (limited(srv, account, addr, res))
        return false;
    StoreUser again;
    const char *password = field(body, "password");
    if (strlen(password) > CREDENTIAL_PASSWORD_MAX ||
        !check_password(srv, account, addr, u->name, password, &again) || again.id != u->id) {
        response_error(res, 403, "the password is wrong");
        return false;
    }
    return true;
}

void api_account_password(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"password", "new_password", NULL};
    (void)s;
    json_t *body = string_body(req, FIELDS, res);
    StoreUser u;
    if (body == NULL || !confirm(srv, req, body, &u, res)) {
        json_decref(body);
        return;
    }
    const char *why = credential_password_refusal(field(body, "new_password"));
    char hash[CREDENTIAL_HASH_CAP], keep[CREDENTIAL_ID_LEN + 1];
    ErrBuf err;
    if (why != NULL)
        response_error(res, 400, "the new password: %s", why);
    else if (credential_hash(srv->cred, field(body, "new_password"), hash, &err) != STATUS_OK ||
             !credential_session_hash(req->session, keep) ||
             store_user_set_hash(srv->store, u.id, hash, keep, &err) != STATUS_OK)
        response_error(res, 503, "cannot change the password now: try again");
    else
        answer_ok(res);
    json_decref(body);
}

/* The account's seats (up to EXPORT_CAP), malloc'd; NULL when they cannot be read. */
static StoreUserSeat *user_seats(Server *srv, int64_t user, int *n)
{
    StoreUserSeat *seats = malloc(sizeof *seats * EXPORT_CAP);
    ErrBuf err;
    if (seats != NULL && store_user_seats(srv->store, user, seats, EXPORT_CAP, n, &err) !=
                             STATUS_OK) {
        free(seats);
        return NULL;
    }
    return seats;
}

void api_account_delete(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"password", NULL};
    (void)s;
    json_t *body = string_body(req, FIELDS, res);
    StoreUser u;
    if (body == NULL || !confirm(srv, req, body, &u, res)) {
        json_decref(body);
        return;
    }
    json_decref(body);
    int n = 0;
    StoreUserSeat *seats = user_seats(srv, u.id, &n);
    ErrBuf err;
    if (seats == NULL || store_user_delete(srv->store, u.id, &err) != STATUS_OK) {
        free(seats);
        response_error(res, 503, "cannot delete the account now: try again");
        return;
    }
    // Its games stay, its seats shown as a deleted player's; a game that cannot be
    // changed now (the store, a race) keeps the name until it next can be, which is
    // what deleting promises of the account itself already.
    for (int i = 0; i < n; i++) {
        Session *g = NULL;
        if (session_find(srv, seats[i].game_id, &g, &err) != STATUS_OK)
            continue;
        session_seat_account(srv, g, seats[i].seat, META_DELETED_PLAYER, true, &err);
        session_release(g);
    }
    free(seats);
    set_cookie(res, req, NULL);
    json_t *o = json_object();
    json_object_set_new(o, "deleted", json_true());
    api_answer_json(res, 200, o);
}

/* The account's passkeys as its export lists them: their names and dates, not the keys
 * (a public key says nothing of the player). NULL when the store cannot say. */
static json_t *export_passkeys(Server *srv, int64_t user)
{
    StorePasskey *keys = calloc(EXPORT_KEYS, sizeof *keys);
    int n = 0;
    ErrBuf err;
    if (keys == NULL ||
        store_passkeys_of(srv->store, user, keys, EXPORT_KEYS, &n, &err) != STATUS_OK) {
        free(keys);
        return NULL;
    }
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:I, s:I}", "name", keys[i].name, "created",
                                           (json_int_t)keys[i].created, "last_used",
                                           (json_int_t)keys[i].last_used));
    free(keys);
    return a;
}

/* The account's puzzle ratings, one per game ({"rating", "rd", "volatility",
 * "puzzles"}); NULL when the store cannot say. */
static json_t *export_puzzle_ratings(Server *srv, int64_t user)
{
    StorePuzzleRating r[EXPORT_GAMES];
    int n = 0;
    ErrBuf err;
    if (store_puzzle_ratings(srv->store, user, r, EXPORT_GAMES, &n, &err) != STATUS_OK)
        return NULL;
    json_t *o = json_object();
    for (int i = 0; i < n; i++)
        json_object_set_new(o, r[i].game,
                            json_pack("{s:f, s:f, s:f, s:i}", "rating", r[i].r.rating, "rd",
                                      r[i].r.rd, "volatility", r[i].r.volatility, "puzzles",
                                      r[i].count));
    return o;
}

void api_account_export(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    StoreUser u;
    if (!api_account_need_user(srv, req, &u, res))
        return;
    int n = 0;
    StoreUserSeat *seats = user_seats(srv, u.id, &n);
    if (seats == NULL) {
        response_error(res, 503, "cannot read the account's games now: try again");
        return;
    }
    json_t *games = json_array();
    for (int i = 0; i < n; i++) {
        json_t *g = json_object();
        char url[128];
        snprintf(url, sizeof url, "/g/%s#token=%s", seats[i].game_id, seats[i].token);
        json_object_set_new(g, "id", json_string(seats[i].game_id));
        json_object_set_new(g, "game", json_string(seats[i].game));
        json_object_set_new(g, "seat", json_integer(seats[i].seat));
        json_object_set_new(g, "token", json_string(seats[i].token));
        json_object_set_new(g, "url", json_string(url));
        json_object_set_new(g, "created", json_integer(seats[i].created));
        json_array_append_new(games, g);
    }
    free(seats);
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(u.name));
    json_object_set_new(o, "created", json_integer(u.created));
    json_object_set_new(o, "games", games);
    json_object_set_new(o, "ratings", api_rating_json(srv, u.id));
    // The e-mail address and the mails asked for are the account's data too.
    json_t *mail = mail_settings_json(srv, u.id);
    json_object_set_new(o, "email", mail ? mail : json_null());
    // So is the language its mails are written in, or null when it never said one.
    char lang[STORE_MAIL_LANG_MAX] = "";
    ErrBuf err;
    store_mail_lang(srv->store, u.id, lang, &err);
    json_object_set_new(o, "language", lang[0] ? json_string(lang) : json_null());
    json_t *keys = export_passkeys(srv, u.id), *puzzles = export_puzzle_ratings(srv, u.id);
    if (keys == NULL || puzzles == NULL) {
        json_decref(keys);
        json_decref(puzzles);
        json_decref(o);
        response_error(res, 503, "cannot read the account's data now: try again");
        return;
    }
    json_object_set_new(o, "passkeys", keys);
    json_object_set_new(o, "puzzle_ratings", puzzles);
    api_answer_json(res, 200, o);
}

/* Claims one seat (its game's id and its token) for u: NULL, or why not. */
static const char *claim_one(Server *srv, const StoreUser *u, const json_t *item)
{
    const char *id = json_string_value(json_object_get(item, "id"));
    const char *token = json_string_value(json_object_get(item, "token"));
    if (id == NULL || token == NULL || !secret_is_hex(id, SECRET_ID_LEN))
        return "each game is {\"id\": ..., \"token\": ...}";
    Session *s = NULL;
    ErrBuf err;
    if (session_find(srv, id, &s, &err) != STATUS_OK)
        return "no such game";
    const int seat = session_seat_of(s, token);
    const char *why = NULL;
    if (seat < 0 || !s->seats.seat[seat].human)
        why = "the token is not the token of a person's seat of this game";
    else if (session_seat_account(srv, s, seat, u->name, false, &err) != STATUS_OK ||
             store_user_seat(srv->store, u->id, id, seat, &err) != STATUS_OK)
        why = "another account sits in this seat, or the game cannot be changed now";
    session_release(s);
    return why;
}

void api_account_claim(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"games", NULL};
    (void)s;
    json_t *body = parse_body(req, res);
    StoreUser u;
    if (body == NULL || !only_fields(body, FIELDS, res) ||
        !api_account_need_user(srv, req, &u, res)) {
        json_decref(body);
        return;
    }
    const json_t *list = json_object_get(body, "games");
    if (!json_is_array(list) || json_array_size(list) > CLAIM_CAP) {
        response_error(res, 400, "'games' must be a list of at most %d {\"id\", \"token\"}",
                       CLAIM_CAP);
        json_decref(body);
        return;
    }
    json_t *claimed = json_array(), *refused = json_array();
    size_t i;
    const json_t *item;
    json_array_foreach(list, i, item) {
        const char *why = claim_one(srv, &u, item);
        const json_t *id = json_object_get(item, "id");
        if (why == NULL) {
            json_array_append(claimed, (json_t *)id);
        } else {
            json_t *r = json_object();
            json_object_set(r, "id", json_is_string(id) ? (json_t *)id : json_null());
            json_object_set_new(r, "error", json_string(why));
            json_array_append_new(refused, r);
        }
    }
    json_t *o = json_object();
    json_object_set_new(o, "claimed", claimed);
    json_object_set_new(o, "refused", refused);
    json_decref(body);
    api_answer_json(res, 200, o);
}

void api_account_me(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    StoreUser u;
    json_t *o = json_object();
    const bool in = api_account_user(srv, req, &u);
    // A language chosen with the page's switch (its cookie) is the mails' from now on.
    if (in && req->lang)
        mail_remember_language(srv, u.id, u.lang, req->lang, NULL);
    json_object_set_new(o, "signed_in", json_boolean(in));
    json_object_set_new(o, "name", in ? json_string(u.name) : json_null());
    api_answer_json(res, 200, o);
}

bool api_account_users(Server *srv, const Request *req, Response *res)
{
    static const char PREFIX[] = "/api/users/";
    if (strncmp(req->path, PREFIX, sizeof PREFIX - 1) != 0)
        return false;
    const char *name = req->path + sizeof PREFIX - 1;
    StoreUser u;
    ErrBuf err;
    Status st = STATUS_OK;
    if (strcmp(req->method, "GET") != 0) {
        res->allow = "GET";
        response_error(res, 405, "use GET here, not %.10s", req->method);
    } else if (strlen(name) > CREDENTIAL_NAME_MAX ||
               (st = store_user_by_name(srv->store, name, &u, &err)) == STATUS_NOT_FOUND) {
        response_error(res, 404, "no player called '%.20s'", name);
    } else if (st != STATUS_OK) {
        response_error(res, 503, "cannot read the player now: try again");
    } else {
        json_t *o = json_object();
        json_object_set_new(o, "name", json_string(u.name));
        json_object_set_new(o, "created", json_integer(u.created));
        json_object_set_new(o, "ratings", api_rating_json(srv, u.id));
        api_rating_profile(srv, u.id, o);
        api_answer_json(res, 200, o);
    }
    return true;
}

bool api_account_new_game(Server *srv, const Request *req, const json_t *body, NewGame *ng,
                          StoreUser *creator, Response *res)
{
    memset(creator, 0, sizeof *creator);
    const json_t *rated = json_object_get(body, "rated");
    if (rated != NULL && !json_is_boolean(rated)) {
        response_error(res, 400, "'rated' must be true or false");
        return false;
    }
    ng->rated = json_is_true(rated);
    int seated = -1, people = 0;
    for (int i = 0; i < ng->players; i++)
        if (strcmp(ng->player[i], "human") == 0 && !(ng->open & (1u << i))) {
            seated = i;
            people++;
        }
    const bool in = api_account_user(srv, req, creator);
    if (ng->rated) {
        const char *why = !in ? "sign in to create a rated game (POST /api/login)"
                          : ng->players != 2 || people != 1 || ng->open == 0
                              ? "a rated game is between two accounts: seats [\"human\", "
                                "\"open\"] or [\"open\", \"human\"]"
                          : ng->hints ? "a rated game has no hints"
                          : ng->position ? "a rated game starts from the game's start position"
                                         : NULL;
        if (why != NULL) {
            response_error(res, in ? 400 : 401, "%s", why);
            return false;
        }
    }
    if (!in || people != 1) {
        creator->id = 0;
        return true;
    }
    ng->account = creator->name;
    ng->account_seat = seated;
    return true;
}
