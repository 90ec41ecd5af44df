/*
 * api_finish.c - finishing a game between its players (docs/API.md, "Finishing a game"):
 * resigning, offering, accepting and declining a draw, and the rematch. What the state
 * says of the end and of an offer is api_view.c's.
 *
 * An end outside the rules lives in the game's meta (meta.h), committed to the store like
 * a move. A draw offer stands until a player other than the one who made it acts; an AI
 * seat answers an offer at once, by play's rule (play_ai_accepts_draw). The ends, their
 * returns and words are play's (play/finish.h), the same as `crown play`'s.
 */
#include "web/api_finish.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/finish.h"
#include "play/words.h"
#include "web/api.h"
#include "web/api_games.h"
#include "web/api_state.h"
#include "web/api_view.h"
#include "web/context.h"
#include "web/store_account.h"
#include "web/session.h"

void api_finish_answer(Response *res, Session *s, int seat, const char *answer)
{
    size_t len = 0;
    char *body = api_state_locked(s, seat, &len);
    if (body != NULL && answer != NULL) {
        char head[48];
        const int hl = snprintf(head, sizeof head, "{\"answer\":\"%s\",", answer);
        char *out = malloc((size_t)hl + len);
        if (out != NULL) {
            memcpy(out, head, (size_t)hl);
            memcpy(out + hl, body + 1, len); // from after '{', with its NUL
            len = (size_t)hl + len - 1;
        }
        free(body);
        body = out;
    }
    if (body == NULL)
        response_error(res, 503, "out of memory");
    else
        response_json(res, 200, body, len);
}

/* Checks that `seat` is a person's seat of a game still going on. */
static Status check_player(const Session *s, int seat, ErrBuf *err)
{
    if (seat < 0 || !s->seats.seat[seat].human)
        return err_set(err, STATUS_CONFLICT, "only a player's own seat may do this: send the "
                       "seat's token");
    if (session_over_locked(s))
        return err_set(err, STATUS_CONFLICT, "the game is over");
    return STATUS_OK;
}

/* resign, offer-draw, accept-draw, decline-draw: one change of the meta, under the lock. */
static void change(Server *srv, Session *s, int seat, const char *action, Response *res)
{
    pthread_mutex_lock(&s->mu);
    ErrBuf err;
    Status st = check_player(s, seat, &err);
    GameMeta m = s->meta;
    const int offer = api_offer_standing(s);
    const int other = 1 - seat;
    const char *answer = NULL;
    if (st == STATUS_OK && strcmp(action, "resign") == 0) {
        m.end = PLAY_END_RESIGN;
        m.end_seat = seat;
        m.end_ply = s->rec.count;
        m.offer_seat = -1;
    } else if (st == STATUS_OK && s->game->players != 2) {
        st = err_set(&err, STATUS_CONFLICT,
                     "draw offers are for two-player games; %s has %d players here",
                     s->game->ops->name, s->game->players);
    } else if (st == STATUS_OK && strcmp(action, "offer-draw") == 0) {
        if (offer == seat) {
            st = err_set(&err, STATUS_CONFLICT, "your draw offer stands already");
        } else if (offer == other || (!s->seats.seat[other].human &&
                                      play_ai_accepts_draw(s->game, s->rec.current, other))) {
            // Offering when the other has offered is accepting; an AI answers at once.
            m.end = PLAY_END_DRAW;
            m.end_seat = other;
            m.end_ply = s->rec.count;
            m.offer_seat = -1;
            answer = "accepted";
        } else if (!s->seats.seat[other].human) {
            // The offer is over as soon as made; the refusal is kept for the page.
            m.declined_seat = seat;
            m.declined_ply = s->rec.count;
            answer = "declined";
        } else {
            m.offer_seat = seat;
            m.offer_ply = s->rec.count;
            m.declined_seat = -1;
            answer = "offered";
        }
    } else if (st == STATUS_OK && offer != other) {
        st = err_set(&err, STATUS_CONFLICT, "there is no draw offer from the other player "
                     "to %s", strcmp(action, "accept-draw") == 0 ? "accept" : "decline");
    } else if (st == STATUS_OK) {
        m.offer_seat = -1;
        if (strcmp(action, "accept-draw") == 0) {
            m.end = PLAY_END_DRAW;
            m.end_seat = seat;
            m.end_ply = s->rec.count;
        } else {
            m.declined_seat = other;
            m.declined_ply = s->rec.count;
        }
    }
    if (st == STATUS_OK)
        st = session_set_meta_locked(srv, s, &m, &err);
    if (st == STATUS_OK)
        api_finish_answer(res, s, seat, answer);
    else
        response_error(res, http_status_of(st), "%s", err.msg);
    pthread_mutex_unlock(&s->mu);
}

/* Lists a rated rematch among its accounts' games (store_user_seat): the account that
 * sat in seat i sits in seat i + 1. A failure leaves only the lists short of it. */
static void seat_accounts(Server *srv, const Session *made, char (*accounts)[META_ACCOUNT_LEN],
                          int players)
{
    for (int i = 0; i < players && i < MAX_PLAYERS; i++) {
        StoreUser u;
        ErrBuf err;
        if (store_user_by_name(srv->store, accounts[i], &u, &err) == STATUS_OK)
            store_user_seat(srv->store, u.id, made->id, (i + 1) % players, &err);
    }
}

/* The rematch: the same game, rules and players, each one seat further on (the two seats
 * swapped in a two-player game), a new game linked from the old. The first player to
 * ask creates it; everyone else gets his own link to it. */
static void rematch(Server *srv, const Request *req, Session *s, int seat, Response *res)
{
    char link[128];
    pthread_mutex_lock(&s->mu);
    const bool over = session_over_locked(s);
    const bool exists = s->meta.rematch[0] != '\0';
    if (exists)
        snprintf(link, sizeof link, "/g/%s#token=%s", s->meta.rematch,
                 s->meta.rematch_token[seat >= 0 ? seat : 0]);
    // The new game's settings are taken under the lock: another player's rematch, or
    // another process's change through the store, may rewrite the meta meanwhile.
    const bool hints = s->meta.hints;
    const PlayClock clock = play_clock_fresh(&s->meta.clock, s->game->players);
    // A rated game's rematch is rated too, between the same two accounts; one of them
    // deleted since, it is casual.
    char accounts[MAX_PLAYERS][META_ACCOUNT_LEN];
    memcpy(accounts, s->meta.account, sizeof accounts);
    bool rated = s->meta.rated;
    for (int i = 0; i < s->game->players && i < MAX_PLAYERS; i++)
        rated = rated && accounts[i][0] != '\0' && strcmp(accounts[i], META_DELETED_PLAYER) != 0;
    pthread_mutex_unlock(&s->mu);
    if (seat < 0 || !s->seats.seat[seat].human) {
        response_error(res, 409, "only a player's own seat may ask for a rematch: send the "
                       "seat's token");
        return;
    }
    if (!over) {
        response_error(res, 409, "the game is not over: a rematch comes after it");
        return;
    }
    if (!exists) {
        // The new game is made without the old one's lock: the lock order puts the table
        // of sessions first. Two players asking at once may make two; the one linked
        // first wins, the other is left to the retention of abandoned games.
        const Game *g = s->game;
        NewGame ng;
        memset(&ng, 0, sizeof ng);
        ng.ops = g->ops;
        ng.players = g->players;
        for (int i = 0; i < g->ops->option_count; i++)
            ng.rules[ng.n_rules++] = (RuleSetting){g->ops->options[i].name, g->values[i]};
        int humans = 0;
        for (int i = 0; i < g->players; i++) {
            // Stored seats are within the stored width (session_create keeps them so).
            snprintf(ng.player[(i + 1) % g->players], sizeof ng.player[0], "%.*s",
                     (int)sizeof ng.player[0] - 1, s->seats.seat[i].text);
            humans += s->seats.seat[i].human;
        }
        StrBuf start;
        sb_init(&start);
        // A perfect-information game starts where the old one did (a set-up given when it
        // was created, say); another deals afresh from a new seed.
        if (g->ops->flags & GAME_PERFECT_INFO) {
            g->ops->format_position(g, s->rec.start, &start);
            ng.position = sb_str(&start);
        }
        ng.hints = hints;
        ng.clock = clock; // the same time control
        ng.rematch_of = s->id;
        ng.rated = rated;
        for (int i = 0; rated && i < g->players; i++)
            ng.accounts[(i + 1) % g->players] = accounts[i];
        Session *made = api_create_session(srv, req, &ng, humans, res);
        sb_free(&start);
        if (made == NULL)
            return;
        if (rated)
            seat_accounts(srv, made, accounts, g->players);
        pthread_mutex_lock(&s->mu);
        ErrBuf err;
        Status st = STATUS_OK;
        if (s->meta.rematch[0] == '\0') {
            GameMeta m = s->meta;
            snprintf(m.rematch, sizeof m.rematch, "%s", made->id);
            for (int i = 0; i < g->players; i++)
                snprintf(m.rematch_token[i], sizeof m.rematch_token[i], "%s",
                         made->token[(i + 1) % g->players]);
            st = session_set_meta_locked(srv, s, &m, &err);
        }
        snprintf(link, sizeof link, "/g/%s#token=%s", s->meta.rematch,
                 s->meta.rematch_token[seat]);
        pthread_mutex_unlock(&s->mu);
        session_release(made);
        if (st != STATUS_OK) {
            response_error(res, http_status_of(st), "%s", err.msg);
            return;
        }
    }
    char *body = malloc(256);
    if (body == NULL) {
        response_error(res, 503, "out of memory");
        return;
    }
    const char *hash = strchr(link, '#');
    const int n = snprintf(body, 256, "{\"id\":\"%.*s\",\"url\":\"%s\"}",
                           (int)(hash - link - 3), link + 3, link);
    response_json(res, exists ? 200 : 201, body, (size_t)n);
}

/* The seat a request speaks for is its token's: finishing a game is a player's act,
 * never a spectator's. */
int api_finish_seat(const Request *req, Session *s, Response *res)
{
    int seat = -1;
    if (req->token != NULL && req->token[0] != '\0')
        seat = session_seat_of(s, req->token);
    if (seat < 0)
        response_error(res, 403, "this needs the seat's secret token: send it as "
                       "'Authorization: Bearer TOKEN' (it is in the seat's link)");
    return seat;
}

static void as_seat(Server *srv, const Request *req, Session *s, const char *action,
                    Response *res)
{
    const int seat = api_finish_seat(req, s, res);
    if (seat < 0)
        return;
    if (strcmp(action, "rematch") == 0)
        rematch(srv, req, s, seat, res);
    else
        change(srv, s, seat, action, res);
}

void api_finish_resign(Server *srv, const Request *req, Session *s, Response *res)
{
    as_seat(srv, req, s, "resign", res);
}

void api_finish_offer_draw(Server *srv, const Request *req, Session *s, Response *res)
{
    as_seat(srv, req, s, "offer-draw", res);
}

void api_finish_accept_draw(Server *srv, const Request *req, Session *s, Response *res)
{
    as_seat(srv, req, s, "accept-draw", res);
}

void api_finish_decline_draw(Server *srv, const Request *req, Session *s, Response *res)
{
    as_seat(srv, req, s, "decline-draw", res);
}

void api_finish_rematch(Server *srv, const Request *req, Session *s, Response *res)
{
    as_seat(srv, req, s, "rematch", res);
}
