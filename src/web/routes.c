/*
 * routes.c - the JSON API's routes (docs/API.md) in one table: method, path and handler.
 * A path is exact, or a game's: "/api/games/{id}" and an action after it. The table is
 * the only place that says which paths and methods the API has, so the 404 that lists a
 * game's actions and the 405's Allow header are read from it too.
 *
 * A game's path has its game looked up once, here, before its method is checked: a
 * game that does not exist is 404 whatever the method, as it always was. The Lab's
 * paths (lab_api.c) and the lobby's lists (api_lobby.c) read their own sub-paths.
 */
#include "web/routes.h"

#include <stdio.h>
#include <string.h>

#include "core/strbuf.h"
#include "web/api.h"
#include "web/api_account.h"
#include "web/api_passkey.h"
#include "web/api_rating.h"
#include "web/api_analysis.h"
#include "web/api_games.h"
#include "web/api_finish.h"
#include "web/api_game.h"
#include "web/api_import.h"
#include "web/api_lobby.h"
#include "web/api_offer.h"
#include "web/api_mail.h"
#include "web/api_observe.h"
#include "web/api_puzzle.h"
#include "web/api_solution.h"
#include "web/api_takeback.h"
#include "web/api_tournament.h"
#include "web/lab_api.h"
#include "web/preview.h"
#include "web/review.h"
#include "web/context.h"
#include "web/session.h"

/* s is the game of a game's path, with a reference held; NULL for the others. */
typedef void Handler(Server *srv, const Request *req, Session *s, Response *res);

typedef struct Route {
    const char *method; /* "GET" or "POST" ("HEAD" comes as "GET") */
    const char *path;   /* exact, or GAME_PATH and "" or "/ACTION" */
    Handler *handle;
    const char *wrong_method; /* the 405's words, or NULL for "use METHOD here" */
    /* never blocks (no store, no game lock): answered on the library's thread rather
     * than queued for the workers */
    bool quick;
} Route;

#define GAME_PATH "/api/games/{id}"
enum { GAME_PATH_LEN = sizeof GAME_PATH - 1 };

/* Ids are far shorter (secret.h); a longer one is no game's. */
enum { ID_CAP = 64 };

/* The handlers whose shape is not the table's. */
static void import_record(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    api_import(srv, req, res);
}

static void observe(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    api_observe(srv, req, res);
}

static void analysis(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    api_analysis(srv, req, res);
}

static void preview(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)srv;
    preview_handle(req, s, res);
}

static const char GAMES_METHODS[] = "use GET to list games or POST to create one";

/* In the order the 404 of an unknown action lists them. */
static const Route ROUTES[] = {
    {"GET", "/api/health", api_health, NULL, true},
    {"GET", "/api/games", api_games_list, GAMES_METHODS, true},
    {"POST", "/api/games", api_games_create, GAMES_METHODS, false},
    {"POST", "/api/import", import_record, NULL, false},
    {"POST", "/api/observe", observe, NULL, false},
    {"POST", "/api/analysis", analysis, NULL, false},
    {"GET", "/api/stats", api_stats, NULL, true},
    {"POST", "/api/signup", api_account_signup, NULL, false},
    {"POST", "/api/login", api_account_login, NULL, false},
    {"POST", "/api/logout", api_account_logout, NULL, false},
    {"POST", "/api/logout-all", api_account_logout_all, NULL, false},
    {"GET", "/api/me", api_account_me, NULL, false},
    {"POST", "/api/account/password", api_account_password, NULL, false},
    {"POST", "/api/account/delete", api_account_delete, NULL, false},
    {"GET", "/api/account/export", api_account_export, NULL, false},
    {"POST", "/api/account/claim", api_account_claim, NULL, false},
    {"GET", "/api/passkeys", api_passkey_list, NULL, false},
    {"POST", "/api/passkeys/register-options", api_passkey_register_options, NULL, false},
    {"POST", "/api/passkeys/register", api_passkey_register, NULL, false},
    {"POST", "/api/passkeys/rename", api_passkey_rename, NULL, false},
    {"POST", "/api/passkeys/delete", api_passkey_delete, NULL, false},
    {"POST", "/api/passkeys/login-options", api_passkey_login_options, NULL, false},
    {"POST", "/api/passkeys/login", api_passkey_login, NULL, false},
    {"GET", "/api/account/email", api_mail_get, NULL, false},
    {"POST", "/api/account/email", api_mail_set, NULL, false},
    {"POST", "/api/account/email/delete", api_mail_remove, NULL, false},
    {"POST", "/api/account/email/notify", api_mail_notify, NULL, false},
    {"POST", "/api/email/verify", api_mail_verify, NULL, false},
    {"POST", "/api/email/unsubscribe", api_mail_unsubscribe, NULL, false},
    {"POST", "/api/password/forgot", api_mail_forgot, NULL, false},
    {"POST", "/api/password/reset", api_mail_reset, NULL, false},
    {"GET", GAME_PATH, api_game_state, NULL, false},
    {"POST", GAME_PATH "/moves", api_game_move, NULL, false},
    {"POST", GAME_PATH "/undo", api_game_undo, NULL, false},
    {"POST", GAME_PATH "/hint", api_game_hint, NULL, false},
    {"GET", GAME_PATH "/record", api_game_record, NULL, false},
    {"GET", GAME_PATH "/positions", review_positions, NULL, false},
    {"POST", GAME_PATH "/analysis", review_analysis, NULL, false},
    {"GET", GAME_PATH "/solution", api_solution, NULL, false},
    {"POST", GAME_PATH "/preview", preview, NULL, false},
    {"POST", GAME_PATH "/join", api_lobby_join, NULL, false},
    {"POST", GAME_PATH "/resign", api_finish_resign, NULL, false},
    {"POST", GAME_PATH "/offer-draw", api_finish_offer_draw, NULL, false},
    {"POST", GAME_PATH "/accept-draw", api_finish_accept_draw, NULL, false},
    {"POST", GAME_PATH "/decline-draw", api_finish_decline_draw, NULL, false},
    {"POST", GAME_PATH "/rematch", api_finish_rematch, NULL, false},
    {"POST", GAME_PATH "/takeback", api_takeback_ask, NULL, false},
    {"POST", GAME_PATH "/accept-takeback", api_takeback_accept, NULL, false},
    {"POST", GAME_PATH "/decline-takeback", api_takeback_decline, NULL, false},
};
enum { N_ROUTES = sizeof ROUTES / sizeof ROUTES[0] };

bool api_is_quick(const char *method, const char *path)
{
    for (int i = 0; i < N_ROUTES; i++)
        if (ROUTES[i].quick && strcmp(ROUTES[i].method, method) == 0 &&
            strcmp(ROUTES[i].path, path) == 0)
            return true;
    return false;
}

/* What follows GAME_PATH in a game's route ("" or "/ACTION"), or NULL for an exact one. */
static const char *game_rest(const Route *r)
{
    return strncmp(r->path, GAME_PATH, GAME_PATH_LEN) == 0 ? r->path + GAME_PATH_LEN : NULL;
}

/* The routes of one path: the one for the request's method, if any, and the methods
 * the path takes as bits (GET 1, POST 2) for the 405. */
typedef struct Match {
    const Route *route;
    const Route *first; /* any route of the path: for its 405 words */
    unsigned methods;
} Match;

static unsigned method_bit(const char *m)
{
    return strcmp(m, "GET") == 0 ? 1u : strcmp(m, "POST") == 0 ? 2u : 0u;
}

/* action: what follows a game's id in the path ("" or "/ACTION"), matched against the
 * games' routes; NULL to match path against the exact ones. */
static Match find(const char *path, const char *action, const char *method)
{
    Match m = {NULL, NULL, 0};
    for (int i = 0; i < N_ROUTES; i++) {
        const Route *r = &ROUTES[i];
        const char *rest = game_rest(r);
        const bool same = action ? rest && strcmp(rest, action) == 0
                                 : !rest && strcmp(r->path, path) == 0;
        if (!same)
            continue;
        if (m.first == NULL)
            m.first = r;
        m.methods |= method_bit(r->method);
        if (strcmp(r->method, method) == 0)
            m.route = r;
    }
    return m;
}

static void refuse_method(const Match *m, const Request *req, Response *res)
{
    // Static texts, as Response.allow must be: one for each set of methods a path takes.
    static const char *const ALLOW[] = {"", "GET", "POST", "GET, POST"};
    res->allow = ALLOW[m->methods & 3u];
    if (m->first->wrong_method)
        response_error(res, 405, "%s", m->first->wrong_method);
    else
        response_error(res, 405, "use %s here, not %.10s", res->allow, req->method);
}

/* "no such API path": a game's actions named from the table, and the event stream. */
static void no_such_action(const Request *req, Response *res)
{
    StrBuf list;
    sb_init(&list);
    for (int i = 0; i < N_ROUTES; i++) {
        const char *rest = game_rest(&ROUTES[i]);
        if (rest == NULL || rest[0] == '\0')
            continue;
        bool listed = false;
        for (int k = 0; k < i && !listed; k++)
            listed = game_rest(&ROUTES[k]) && strcmp(game_rest(&ROUTES[k]), rest) == 0;
        if (!listed)
            sb_printf(&list, "%s%s", list.len ? ", " : "", rest + 1);
    }
    // The event stream is http.c's, answered before the API sees its path.
    sb_printf(&list, " and events");
    response_error(res, 404, "no such API path '%.60s': a game has %s", req->path,
                   sb_failed(&list) ? "moves, undo, hint and more (docs/API.md)"
                                    : sb_str(&list));
    sb_free(&list);
}

/* A path under /api/games/: its game looked up, then its route. */
static void game_route(Server *srv, const Request *req, Response *res)
{
    const char *p = req->path + strlen("/api/games/");
    const char *slash = strchr(p, '/');
    const size_t id_len = slash ? (size_t)(slash - p) : strlen(p);
    if (id_len == 0 || id_len >= ID_CAP) {
        response_error(res, 404, "no game '%.40s'", p);
        return;
    }
    char id[ID_CAP];
    memcpy(id, p, id_len);
    id[id_len] = '\0';
    const Match m = find(req->path, slash ? slash : "", req->method);
    if (m.first == NULL) {
        no_such_action(req, res);
        return;
    }
    Session *s = NULL;
    ErrBuf err;
    const Status st = session_find(srv, id, &s, &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    if (m.route == NULL)
        refuse_method(&m, req, res);
    else
        m.route->handle(srv, req, s, res);
    session_release(s);
}

void api_handle(Server *srv, const Request *req, Response *res)
{
    const Match m = find(req->path, NULL, req->method);
    if (m.route != NULL) {
        m.route->handle(srv, req, NULL, res);
        return;
    }
    if (m.first != NULL) {
        refuse_method(&m, req, res);
        return;
    }
    if (lab_api_handle(srv->lab, req, res)) /* /api/lab...: the Lab page */
        return;
    if (api_lobby_handle(srv, req, req->path, res)) /* /api/info, /api/open */
        return;
    if (api_account_users(srv, req, res)) /* /api/users/NAME */
        return;
    if (api_offer_handle(srv, req, res)) /* /api/seeks..., /api/challenges... */
        return;
    if (api_tournament_handle(srv, req, res)) /* /api/tournaments... */
        return;
    if (api_puzzle_handle(srv, req, res)) /* /api/puzzles/... */
        return;
    if (api_rating_leaderboard(srv, req, res)) /* /api/leaderboard/GAME */
        return;
    if (strncmp(req->path, "/api/games/", 11) == 0) {
        game_route(srv, req, res);
        return;
    }
    response_error(res, 404, "no such API path '%.60s': see docs/API.md", req->path);
}
