/*
 * api_view.c - what a game's state body says beyond the position, from the players'
 * meta (meta.h): the end of a game outside the rules or by them, in the words a player
 * reads ("You won: your king reached the Valley" is the page's; here the stable keys and
 * the winners it is made from), the standing draw offer, hints and the rematch.
 *
 * The ends, their returns and words are play's (play/finish.h), the same as
 * `crown play`'s.
 */
#include "web/api_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/finish.h"
#include "play/words.h"
#include "web/session.h"

static int humans_of(const Session *s)
{
    int n = 0;
    for (int i = 0; i < s->game->players; i++)
        n += s->seats.seat[i].human;
    return n;
}

/* The seat whose draw offer stands: it was made, and nobody but its maker (and chance)
 * has acted since. -1 when none. */
int api_offer_standing(const Session *s)
{
    if (s->meta.offer_seat < 0 || session_over_locked(s) || s->meta.offer_ply > s->rec.count)
        return -1;
    for (int i = s->meta.offer_ply; i < s->rec.count; i++)
        if (s->actor[i] != s->meta.offer_seat && s->actor[i] != PLAYER_CHANCE)
            return -1;
    return s->meta.offer_seat;
}

int api_takeback_standing(const Session *s)
{
    const GameMeta *m = &s->meta;
    if (m->takeback_seat < 0 || m->takeback_declined || m->takeback_ply != s->rec.count ||
        session_over_locked(s))
        return -1;
    return m->takeback_seat;
}

void api_result_text(const Session *s, StrBuf *out)
{
    if (s->meta.end != PLAY_END_NONE)
        play_end_text(s->game, s->meta.end, s->meta.end_seat, out);
    else
        play_result_text(s->game, s->rec.current, PLAYER_NONE, out);
}

static void end_result(const Session *s, json_t *o)
{
    const Game *g = s->game;
    double ret[MAX_PLAYERS];
    play_end_returns(g, s->meta.end, s->meta.end_seat, ret);
    json_t *r = json_object();
    json_t *winners = json_array();
    json_t *returns = json_array();
    for (int i = 0; i < g->players; i++) {
        // Everyone but a seat that resigned or lost on time; everyone after a draw.
        if (ret[i] >= 0)
            json_array_append_new(winners, json_integer(i));
        json_array_append_new(returns, json_real(ret[i]));
    }
    StrBuf t;
    sb_init(&t);
    play_end_text(g, s->meta.end, s->meta.end_seat, &t);
    json_object_set_new(r, "text", json_string(sb_str(&t)));
    json_object_set_new(r, "why", json_string(strchr(sb_str(&t), ':') + 2));
    sb_free(&t);
    json_object_set_new(r, "returns", returns);
    json_object_set_new(r, "winners", winners);
    json_object_set_new(r, "reason", json_string(play_end_key(s->meta.end)));
    json_object_set_new(r, "seat", json_integer(s->meta.end_seat));
    json_object_set_new(o, "result", r);
}

/* Adds to a result by the rules its stable reason and its winners. */
static void rules_result(const Session *s, json_t *r)
{
    const Game *g = s->game;
    const int idx = g->ops->end_reason ? g->ops->end_reason(g, s->rec.current) : -1;
    json_object_set_new(r, "reason", idx >= 0 && idx < g->ops->end_reason_count
                                         ? json_string(g->ops->end_reasons[idx])
                                         : json_null());
    StrBuf why;
    sb_init(&why);
    g->ops->describe_result(g, s->rec.current, &why);
    json_object_set_new(r, "why", json_string(sb_str(&why)));
    sb_free(&why);
    double ret[MAX_PLAYERS];
    g->ops->returns(g, s->rec.current, ret);
    double best = ret[0];
    for (int i = 1; i < g->players; i++)
        if (ret[i] > best)
            best = ret[i];
    json_t *winners = json_array();
    for (int i = 0; i < g->players; i++)
        if (ret[i] == best)
            json_array_append_new(winners, json_integer(i));
    json_object_set_new(r, "winners", winners);
}

void api_view_state(const Session *s, json_t *o)
{
    if (s->meta.end != PLAY_END_NONE) {
        json_object_set_new(o, "status", json_string("over"));
        json_object_set_new(o, "to_move", json_null());
        json_object_set_new(o, "thinking", json_null());
        json_object_set_new(o, "legal", json_array());
        end_result(s, o);
    } else if (json_is_object(json_object_get(o, "result"))) {
        rules_result(s, json_object_get(o, "result"));
    }
    const int offer = api_offer_standing(s);
    json_object_set_new(o, "draw_offer", offer >= 0 ? json_integer(offer) : json_null());
    // A declined offer is told to its maker until anyone acts.
    const bool declined = s->meta.declined_seat >= 0 && s->meta.declined_ply == s->rec.count &&
                          !session_over_locked(s);
    json_object_set_new(o, "draw_declined",
                        declined ? json_integer(s->meta.declined_seat) : json_null());
    // A takeback asked for and standing, or declined and not yet acted on: the asker
    // sees the answer until someone moves.
    const GameMeta *m = &s->meta;
    const bool asked = api_takeback_standing(s) >= 0 ||
                       (m->takeback_seat >= 0 && m->takeback_declined &&
                        m->takeback_ply == s->rec.count && !session_over_locked(s));
    json_t *tb = json_null();
    if (asked) {
        tb = json_object();
        json_object_set_new(tb, "seat", json_integer(m->takeback_seat));
        json_object_set_new(tb, "declined", json_boolean(m->takeback_declined));
    }
    json_object_set_new(o, "takeback", tb);
    json_object_set_new(o, "hints", json_boolean(humans_of(s) < 2 || s->meta.hints));
    json_object_set_new(o, "rematch", s->meta.rematch[0] ? json_string(s->meta.rematch)
                                                         : json_null());
    json_object_set_new(o, "rematch_of", s->meta.rematch_of[0] ? json_string(s->meta.rematch_of)
                                                               : json_null());
    // A rated game's result once rated (session_rating.c): each seat's new rating and change.
    json_t *after = json_null(), *change = json_null();
    if (s->meta.rating_done) {
        after = json_array();
        change = json_array();
        for (int i = 0; i < s->game->players; i++) {
            json_array_append_new(after, json_real(s->meta.rating_after[i]));
            json_array_append_new(change, json_real(s->meta.rating_change[i]));
        }
    }
    json_object_set_new(o, "rating_after", after);
    json_object_set_new(o, "rating_change", change);
}

int api_view_viewer_fields(const Session *s, int viewer, char *buf, size_t len)
{
    if (viewer < 0 || viewer >= s->game->players || !s->meta.rematch[0] || len == 0)
        return 0;
    const int n = snprintf(buf, len, "\"rematch_url\":\"/g/%s#token=%s\",", s->meta.rematch,
                           s->meta.rematch_token[viewer]);
    return n > 0 && (size_t)n < len ? n : 0;
}
