/*
 * api_rating.c - ratings in the JSON API (api_rating.h). The numbers are the store's
 * (store_rating.h) as the last rated game left them; "provisional" is play/glicko2's
 * rule (RD over 110), the "?" the pages show.
 */
#include "web/api_rating.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "play/glicko2.h"
#include "play/registry.h"
#include "web/api.h"
#include "web/context.h"
#include "web/session.h"
#include "web/store_rating.h"

enum {
    RATINGS_CAP = 32,  /* games an account is rated in */
    HISTORY_CAP = 500, /* rated games a player's page draws */
    RECENT_CAP = 20,   /* rated games it lists */
    BOARD_CAP = 100,   /* players a leaderboard may list */
    BOARD_READ = 400,  /* rows read for it: some have grown provisional while idle */
    BOARD_DEFAULT = 50,
};

static const char *result_word(double score)
{
    return score > 0.75 ? "win" : score < 0.25 ? "loss" : "draw";
}

json_t *api_rating_json(Server *srv, int64_t user)
{
    StoreRating r[RATINGS_CAP];
    StoreRecord rec[RATINGS_CAP];
    int n = 0, nrec = 0;
    ErrBuf err;
    json_t *o = json_object();
    if (store_user_ratings(srv->store, user, r, RATINGS_CAP, &n, &err) != STATUS_OK ||
        store_rating_records(srv->store, user, rec, RATINGS_CAP, &nrec, &err) != STATUS_OK)
        return o;
    const int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < n; i++) {
        // The deviation as it stands today: grown with the days since the last rated game.
        const Glicko2 g2 =
            session_rating_now(r[i].rating, r[i].rd, r[i].volatility, r[i].updated, now);
        json_t *g = json_object();
        json_object_set_new(g, "rating", json_real(r[i].rating));
        json_object_set_new(g, "rd", json_real(g2.rd));
        json_object_set_new(g, "volatility", json_real(r[i].volatility));
        json_object_set_new(g, "games", json_integer(r[i].games));
        json_object_set_new(g, "provisional", json_boolean(glicko2_provisional(&g2)));
        int w = 0, d = 0, l = 0;
        for (int k = 0; k < nrec; k++)
            if (strcmp(rec[k].game, r[i].game) == 0) {
                w = rec[k].wins;
                d = rec[k].draws;
                l = rec[k].losses;
            }
        json_object_set_new(g, "wins", json_integer(w));
        json_object_set_new(g, "draws", json_integer(d));
        json_object_set_new(g, "losses", json_integer(l));
        json_object_set_new(o, r[i].game, g);
    }
    return o;
}

void api_rating_profile(Server *srv, int64_t user, json_t *o)
{
    StoreRatedGame *h = malloc(sizeof *h * HISTORY_CAP);
    int n = 0;
    ErrBuf err;
    json_t *history = json_object(), *recent = json_array();
    int counts[3] = {0, 0, 0}; /* wins, draws, losses of the games read */
    if (h != NULL && store_rating_history(srv->store, user, h, HISTORY_CAP, &n, &err) == STATUS_OK) {
        // The store gives the newest first: the graph's points go oldest first.
        for (int i = n - 1; i >= 0; i--) {
            json_t *list = json_object_get(history, h[i].game);
            if (list == NULL) {
                list = json_array();
                json_object_set_new(history, h[i].game, list);
            }
            json_t *p = json_object();
            json_object_set_new(p, "at", json_integer(h[i].at));
            json_object_set_new(p, "rating", json_real(h[i].rating));
            json_object_set_new(p, "rd", json_real(h[i].rd));
            json_object_set_new(p, "id", json_string(h[i].game_id));
            json_array_append_new(list, p);
        }
        for (int i = 0; i < n && i < RECENT_CAP; i++) {
            json_t *g = json_object();
            json_object_set_new(g, "id", json_string(h[i].game_id));
            json_object_set_new(g, "game", json_string(h[i].game));
            json_object_set_new(g, "opponent",
                                h[i].opponent[0] ? json_string(h[i].opponent) : json_null());
            json_object_set_new(g, "result", json_string(result_word(h[i].score)));
            json_object_set_new(g, "rating", json_real(h[i].rating));
            json_object_set_new(g, "change", json_real(h[i].rating - h[i].rating_before));
            json_object_set_new(g, "at", json_integer(h[i].at));
            json_array_append_new(recent, g);
        }
    }
    free(h);
    // The totals over every game, not only the ones read above.
    StoreRecord rec[RATINGS_CAP];
    int nrec = 0;
    if (store_rating_records(srv->store, user, rec, RATINGS_CAP, &nrec, &err) == STATUS_OK)
        for (int i = 0; i < nrec; i++) {
            counts[0] += rec[i].wins;
            counts[1] += rec[i].draws;
            counts[2] += rec[i].losses;
        }
    json_t *record = json_object();
    json_object_set_new(record, "wins", json_integer(counts[0]));
    json_object_set_new(record, "draws", json_integer(counts[1]));
    json_object_set_new(record, "losses", json_integer(counts[2]));
    json_object_set_new(o, "history", history);
    json_object_set_new(o, "recent", recent);
    json_object_set_new(o, "record", record);
}

bool api_rating_leaderboard(Server *srv, const Request *req, Response *res)
{
    static const char PREFIX[] = "/api/leaderboard/";
    if (strncmp(req->path, PREFIX, sizeof PREFIX - 1) != 0)
        return false;
    const char *game = req->path + sizeof PREFIX - 1;
    const char *n_arg = request_arg(req, "n");
    char *end = NULL;
    const long cap = n_arg ? strtol(n_arg, &end, 10) : BOARD_DEFAULT;
    if (strcmp(req->method, "GET") != 0) {
        res->allow = "GET";
        response_error(res, 405, "use GET here, not %.10s", req->method);
        return true;
    }
    if (registry_find(game) == NULL) {
        response_error(res, 404, "no game called '%.40s': see GET /api/games", game);
        return true;
    }
    if ((n_arg && (*end != '\0' || end == n_arg)) || cap < 1 || cap > BOARD_CAP) {
        response_error(res, 400, "'n' must be a number from 1 to %d", BOARD_CAP);
        return true;
    }
    // A stored deviation under the bar is needed, not enough: it has grown since the
    // player's last rated game. More are read than shown, for those it drops.
    StoreLeader *l = malloc(sizeof *l * BOARD_READ);
    int n = 0;
    ErrBuf err;
    if (l == NULL || store_leaderboard(srv->store, game, GLICKO2_PROVISIONAL_RD, l, BOARD_READ,
                                       &n, &err) != STATUS_OK) {
        free(l);
        response_error(res, 503, "cannot read the leaderboard now: try again");
        return true;
    }
    json_t *players = json_array();
    const int64_t now = (int64_t)time(NULL);
    for (int i = 0, rank = 0; i < n && rank < cap; i++) {
        const Glicko2 g = session_rating_now(l[i].rating, l[i].rd, l[i].volatility,
                                             l[i].updated, now);
        if (g.rd >= GLICKO2_PROVISIONAL_RD)
            continue;
        json_t *p = json_object();
        json_object_set_new(p, "rank", json_integer(++rank));
        json_object_set_new(p, "name", json_string(l[i].name));
        json_object_set_new(p, "rating", json_real(l[i].rating));
        json_object_set_new(p, "rd", json_real(g.rd));
        json_object_set_new(p, "games", json_integer(l[i].games));
        json_array_append_new(players, p);
    }
    free(l);
    json_t *o = json_object();
    json_object_set_new(o, "game", json_string(game));
    json_object_set_new(o, "max_rd", json_real(GLICKO2_PROVISIONAL_RD));
    json_object_set_new(o, "players", players);
    api_answer_json(res, 200, o);
    return true;
}
