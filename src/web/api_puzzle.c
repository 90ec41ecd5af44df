/*
 * api_puzzle.c - puzzle ratings in the JSON API (docs/API.md, "Puzzle ratings"). The
 * puzzles are the sets the server ships (/data/puzzles/GAME.jsonl, assets.h), so a
 * puzzle's first rating is its set's, never a client's word. A signed-in player's first
 * try at a puzzle is one Glicko-2 game (play/glicko2.h) between him and the puzzle: a
 * solve is his win, and both ratings move; later tries are answered but not counted.
 */
#include "web/api_puzzle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "web/api.h"
#include "web/api_account.h"
#include "web/assets.h"
#include "web/context.h"
#include "web/store_puzzle.h"

/* A puzzle's deviation before anyone tried it: its set's rating is an estimate from the
 * search (docs/PUZZLES.md), worth more than nothing but less than many tries. */
#define PUZZLE_FIRST_RD 150.0

enum { NAME_CAP = 48, RATINGS_CAP = 32, TRIES = 3 };

/* The set's rating of puzzle `id` of `game`; false when the server ships no such one. */
static bool shipped_rating(const char *game, const char *id, double *rating)
{
    char path[96], key[80];
    snprintf(path, sizeof path, "/data/puzzles/%s.jsonl", game);
    snprintf(key, sizeof key, "{\"id\":\"%s\"", id);
    const WebAsset *a = assets_find(path);
    if (a == NULL)
        return false;
    const char *text = (const char *)a->data, *end = text + a->size;
    const size_t klen = strlen(key);
    for (const char *line = text; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const size_t len = nl ? (size_t)(nl - line) : (size_t)(end - line);
        if (len > klen && memcmp(line, key, klen) == 0) {
            json_error_t je;
            json_t *o = json_loadb(line, len, 0, &je);
            const json_t *r = json_object_get(o, "rating");
            const bool ok = json_is_number(r);
            if (ok)
                *rating = json_number_value(r);
            json_decref(o);
            return ok;
        }
        line += len + 1;
    }
    return false;
}

/* Letters, digits and '-' only, 1 to cap - 1 of them. */
static bool plain(const char *s, size_t len, size_t cap)
{
    if (len == 0 || len >= cap)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            return false;
    return true;
}

/* x to 1/scale: what the store reads back of a rating differs from what was
 * computed in its last digits, and the answers should not. */
static double rounded(double x, double scale)
{
    return round(x * scale) / scale;
}

static json_t *rating_json(const Glicko2 *r, int count, const char *count_name)
{
    return json_pack("{s:f, s:f, s:f, s:i, s:b}", "rating", rounded(r->rating, 100), "rd",
                     rounded(r->rd, 100), "volatility", rounded(r->volatility, 1e6), count_name,
                     count, "provisional", glicko2_provisional(r));
}

/* The puzzle's rating now: the store's, or the set's before anyone tried it. */
static Status puzzle_now(Server *srv, const char *game, const char *id, double shipped,
                         StorePuzzleRating *out, ErrBuf *err)
{
    memset(out, 0, sizeof *out);
    out->r = glicko2_new();
    out->r.rating = shipped;
    out->r.rd = PUZZLE_FIRST_RD;
    return store_puzzle_get(srv->store, game, id, out, err);
}

/* GET /api/puzzles/ratings: the signed-in player's rating per game. */
static void ratings(Server *srv, const Request *req, Response *res)
{
    StoreUser u;
    if (!api_account_user(srv, req, &u)) {
        response_error(res, 401, "sign in first (POST /api/login)");
        return;
    }
    StorePuzzleRating r[RATINGS_CAP];
    int n = 0;
    ErrBuf err;
    const Status st = store_puzzle_ratings(srv->store, u.id, r, RATINGS_CAP, &n, &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return;
    }
    json_t *arr = json_array();
    for (int i = 0; i < n; i++) {
        json_t *o = rating_json(&r[i].r, r[i].count, "puzzles");
        json_object_set_new(o, "game", json_string(r[i].game));
        json_array_append_new(arr, o);
    }
    api_answer_json(res, 200, json_pack("{s:o}", "ratings", arr));
}

/* POST /api/puzzles/GAME/ID/result {"solved": true|false} */
static void result(Server *srv, const Request *req, const char *game, const char *id,
                   double shipped, Response *res)
{
    static const char *const FIELDS[] = {"solved", NULL};
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, FIELDS, res)) {
        json_decref(body);
        return;
    }
    const json_t *solved = json_object_get(body, "solved");
    const bool ok = json_is_boolean(solved);
    const double score = json_is_true(solved) ? 1.0 : 0.0;
    json_decref(body);
    if (!ok) {
        response_error(res, 400, "'solved' must be true or false");
        return;
    }
    StoreUser u;
    if (!api_account_user(srv, req, &u)) {
        response_error(res, 401, "sign in to have puzzle ratings kept (POST /api/login)");
        return;
    }
    StorePuzzleRating me, puz;
    ErrBuf err;
    Status st = STATUS_CONFLICT;
    bool counted = false;
    // Two tries at once build on the same ratings: the second is refused by the store
    // and read again, unless it turns out to be the same player's repeated try.
    for (int k = 0; k < TRIES && st == STATUS_CONFLICT; k++) {
        bool tried = false;
        st = store_puzzle_tried(srv->store, u.id, game, id, &tried, &err);
        if (st == STATUS_OK)
            st = store_puzzle_player(srv->store, u.id, game, &me, &err);
        if (st == STATUS_OK)
            st = puzzle_now(srv, game, id, shipped, &puz, &err);
        if (st != STATUS_OK || tried)
            break;
        Glicko2 me_after, puz_after;
        st = glicko2_game(&me.r, &puz.r, score, GLICKO2_TAU, &me_after, &puz_after, &err);
        if (st == STATUS_OK)
            st = store_puzzle_rate(srv->store, u.id, game, id, &me, &me_after, &puz, &puz_after,
                                   (int64_t)time(NULL), &err);
        if (st == STATUS_OK) {
            counted = true;
            me.r = me_after;
            me.count++;
            puz.r = puz_after;
            puz.count++;
        }
    }
    if (st != STATUS_OK) {
        response_error(res, st == STATUS_CONFLICT ? 503 : http_status_of(st), "%s",
                       st == STATUS_CONFLICT ? "the rating is busy: try again" : err.msg);
        return;
    }
    json_t *o = json_object();
    json_object_set_new(o, "counted", json_boolean(counted));
    json_object_set_new(o, "game", json_string(game));
    json_object_set_new(o, "rating", rating_json(&me.r, me.count, "puzzles"));
    json_object_set_new(o, "puzzle", rating_json(&puz.r, puz.count, "attempts"));
    api_answer_json(res, 200, o);
}

bool api_puzzle_handle(Server *srv, const Request *req, Response *res)
{
    static const char ROOT[] = "/api/puzzles/";
    if (strncmp(req->path, ROOT, sizeof ROOT - 1) != 0)
        return false;
    const char *rest = req->path + sizeof ROOT - 1;
    const bool get = strcmp(req->method, "GET") == 0;
    if (strcmp(rest, "ratings") == 0) {
        if (get) {
            ratings(srv, req, res);
        } else {
            res->allow = "GET";
            response_error(res, 405, "use GET here");
        }
        return true;
    }
    // GAME/ID or GAME/ID/result
    const char *s1 = strchr(rest, '/');
    const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
    const char *action = s2 ? s2 + 1 : "";
    char game[NAME_CAP], id[NAME_CAP];
    const size_t glen = s1 ? (size_t)(s1 - rest) : 0;
    const size_t ilen = s1 ? (s2 ? (size_t)(s2 - s1 - 1) : strlen(s1 + 1)) : 0;
    if (s1 == NULL || !plain(rest, glen, sizeof game) || !plain(s1 + 1, ilen, sizeof id) ||
        (action[0] && strcmp(action, "result") != 0)) {
        response_error(res, 404, "no such API path: a puzzle has its rating at "
                       "/api/puzzles/GAME/ID and takes tries at .../result");
        return true;
    }
    memcpy(game, rest, glen);
    game[glen] = '\0';
    memcpy(id, s1 + 1, ilen);
    id[ilen] = '\0';
    const bool want_get = action[0] == '\0';
    if (want_get != get) {
        res->allow = want_get ? "GET" : "POST";
        response_error(res, 405, "use %s here", res->allow);
        return true;
    }
    double shipped = 0;
    if (!shipped_rating(game, id, &shipped)) {
        response_error(res, 404, "no such puzzle");
        return true;
    }
    if (!want_get) {
        result(srv, req, game, id, shipped, res);
        return true;
    }
    StorePuzzleRating puz;
    ErrBuf err;
    const Status st = puzzle_now(srv, game, id, shipped, &puz, &err);
    if (st != STATUS_OK) {
        response_error(res, http_status_of(st), "%s", err.msg);
        return true;
    }
    json_t *o = rating_json(&puz.r, puz.count, "attempts");
    json_object_set_new(o, "game", json_string(game));
    json_object_set_new(o, "id", json_string(id));
    api_answer_json(res, 200, o);
    return true;
}
