/*
 * api_state.c - a game's state body as each viewer sees it (docs/API.md, "State"): the
 * position's observation, the legal actions, the rules, the record's texts, and what
 * the players' meta adds (api_view.c, api_lobby.c).
 *
 * The body is cached per version and per view, because reading a game (every client
 * after every move, and every event stream) is by far the most frequent request: the
 * cached text only gets "you" spliced in front.
 */
#include "web/api_state.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/words.h"
#include "web/api.h"
#include "web/api_lobby.h"
#include "web/api_view.h"
#include "web/session.h"

/* "a b c" as a JSON array of strings. */
static json_t *seat_or_null(int p)
{
    return p >= 0 ? json_integer(p) : json_null();
}

json_t *api_observation_json(const Game *g, const GameState *st, int observer)
{
    if (g->ops->observe == NULL || g->observation == NULL)
        return NULL;
    Observation *ob = malloc(sizeof *ob);
    if (ob == NULL)
        return NULL;
    g->ops->observe(g, st, observer, ob);
    StrBuf t;
    sb_init(&t);
    obs_write_json(g->observation, ob, &t);
    free(ob);
    json_t *j = sb_failed(&t) ? NULL : json_loads(sb_str(&t), 0, NULL);
    sb_free(&t);
    return j;
}

json_t *api_rules_json(const Game *g)
{
    json_t *rules = json_object();
    for (int i = 0; i < g->ops->option_count; i++)
        json_object_set_new(rules, g->ops->options[i].name, json_string(g->values[i]));
    return rules;
}

/* "key=value key=value" (GameOps.action_args) as a JSON object of strings. */
static json_t *args_json(const char *text)
{
    json_t *o = json_object();
    char word[256];
    while (*text) {
        while (*text == ' ')
            text++;
        const size_t n = strcspn(text, " ");
        if (n > 0 && n < sizeof word) {
            memcpy(word, text, n);
            word[n] = '\0';
            char *eq = strchr(word, '=');
            if (eq) {
                *eq = '\0';
                json_object_set_new(o, word, json_string(eq + 1));
            }
        }
        text += n;
    }
    return o;
}

json_t *api_legal_json(const Game *g, const GameState *st)
{
    const GameOps *ops = g->ops;
    json_t *legal = json_array();
    MoveList *ml = malloc(sizeof *ml);
    if (ml == NULL)
        return legal;
    StrBuf t;
    sb_init(&t);
    ops->gen_moves(g, st, ml);
    for (int i = 0; i < ml->count; i++) {
        json_t *m = json_object();
        sb_clear(&t);
        ops->format_move(g, st, ml->moves[i], &t);
        json_object_set_new(m, "text", json_string(sb_str(&t)));
        sb_clear(&t);
        if (ops->move_cells)
            ops->move_cells(g, st, ml->moves[i], &t);
        json_object_set_new(m, "cells", words_json(sb_str(&t)));
        // A special action says what it is, so the page labels it without reading text.
        sb_clear(&t);
        const int kind = game_action_kind(g, st, ml->moves[i], &t);
        if (kind >= 0) {
            json_object_set_new(m, "kind", json_string(ops->action_kinds[kind].key));
            json_object_set_new(m, "label", json_string(sb_str(&t)));
            json_object_set_new(m, "help", json_string(ops->action_kinds[kind].help));
        }
        sb_clear(&t);
        if (ops->action_args)
            ops->action_args(g, st, ml->moves[i], &t);
        if (sb_str(&t)[0])
            json_object_set_new(m, "args", args_json(sb_str(&t)));
        json_array_append_new(legal, m);
    }
    sb_free(&t);
    free(ml);
    return legal;
}

/* A shown action's words for players (docs/API.md, "moves"): its special kind and label,
 * and its text as players read it where that is not its notation. They depend on the
 * position before the action, so the record is replayed on a scratch state (the body
 * is cached per version, so once a move). */
static void move_words(const Game *g, const GameState *before, Move mv, const char *text,
                       json_t *m)
{
    StrBuf t;
    sb_init(&t);
    const int kind = game_action_kind(g, before, mv, &t);
    if (kind >= 0) {
        json_object_set_new(m, "kind", json_string(g->ops->action_kinds[kind].key));
        json_object_set_new(m, "label", json_string(sb_str(&t)));
    }
    sb_clear(&t);
    game_format_move_read(g, before, mv, &t);
    if (!sb_failed(&t) && strcmp(sb_str(&t), text) != 0)
        json_object_set_new(m, "read", json_string(sb_str(&t)));
    sb_free(&t);
}

/* Every action of s's record as `view` sees it; `private_texts`: only a seat's own
 * actions are shown to it. */
static json_t *moves_json(const Session *s, int view, bool private_texts)
{
    const Game *g = s->game;
    json_t *moves = json_array();
    GameState *st = private_texts ? NULL : game_state_clone(g, s->rec.start);
    void *undo = st ? game_undo_new(g) : NULL;
    for (int i = 0; i < s->rec.count; i++) {
        json_t *m = json_object();
        const int a = s->actor[i];
        json_object_set_new(m, "seat", seat_or_null(a));
        if (a == PLAYER_CHANCE)
            json_object_set_new(m, "chance", json_true());
        const bool shown = !private_texts || (view >= 0 && a == view);
        json_object_set_new(m, "text", shown ? json_string(s->texts[i]) : json_null());
        json_object_set_new(m, "cells", shown ? words_json(s->cells[i]) : json_array());
        if (undo) {
            if (s->texts[i] && a != PLAYER_CHANCE)
                move_words(g, st, s->rec.moves[i], s->texts[i], m);
            g->ops->make(g, st, s->rec.moves[i], undo);
        }
        json_array_append_new(moves, m);
    }
    free(undo);
    free(st);
    return moves;
}

/* The state as `view` sees it: view is a seat of a hidden-information game, or -1 for
 * what everybody may see. */
static json_t *build_state(Session *s, int view)
{
    const Game *g = s->game;
    const GameOps *ops = g->ops;
    const GameState *cur = s->rec.current;
    const bool hidden = !(ops->flags & GAME_PERFECT_INFO);
    const int p = ops->to_move(g, cur);
    json_t *o = json_object();
    StrBuf t;
    sb_init(&t);

    json_object_set_new(o, "id", json_string(s->id));
    json_object_set_new(o, "game", json_string(ops->name));
    json_object_set_new(o, "summary", json_string(ops->summary));
    json_object_set_new(o, "players", json_integer(g->players));
    json_object_set_new(o, "rules", api_rules_json(g));
    // Chance draws follow from the seed (session.c): in a hidden-information game it
    // would tell the hidden order of what is to come, so it is shown once the game is
    // over, like the record.
    json_object_set_new(o, "seed", hidden && p != PLAYER_NONE
                                       ? json_null()
                                       : json_integer((json_int_t)s->seed));
    json_t *seats = json_array();
    for (int i = 0; i < g->players; i++) {
        json_t *st = json_object();
        json_object_set_new(st, "seat", json_integer(i));
        json_object_set_new(st, "player", json_string(s->seats.seat[i].text));
        json_object_set_new(st, "ai", json_boolean(!s->seats.seat[i].human));
        json_array_append_new(seats, st);
    }
    json_object_set_new(o, "seats", seats);
    json_object_set_new(o, "version", json_integer((json_int_t)s->version));
    json_object_set_new(o, "ply", json_integer(s->rec.count));
    json_object_set_new(o, "status", json_string(p == PLAYER_NONE ? "over" : "playing"));
    json_object_set_new(o, "to_move", seat_or_null(p));
    json_object_set_new(o, "thinking",
                        seat_or_null(s->thinking >= 0 ? s->thinking : s->thinking_elsewhere));
    json_object_set_new(o, "ai_error", s->ai_error[0] ? json_string(s->ai_error) : json_null());

    if (!hidden) {
        sb_clear(&t);
        ops->format_position(g, cur, &t);
        json_object_set_new(o, "position", json_string(sb_str(&t)));
        sb_clear(&t);
        ops->render(g, cur, 0, &t);
        json_object_set_new(o, "board", json_string(sb_str(&t)));
    } else if (ops->format_view) {
        // A spectator gets the public view (format_view's PLAYER_NONE), so that a game
        // whose secrets are few can still be watched.
        sb_clear(&t);
        ops->format_view(g, cur, view >= 0 ? view : PLAYER_NONE, &t);
        json_object_set_new(o, "view", json_string(sb_str(&t)));
    }

    // The structured observation the board drawers read: the seat's own in a
    // hidden-information game, else the one everybody shares.
    json_t *observation = api_observation_json(g, cur, hidden && view >= 0 ? view : PLAYER_NONE);
    json_object_set_new(o, "observation", observation ? observation : json_null());

    // In a hidden-information game a seat sees the texts of its own actions only: the
    // text of another's action (a card played face down) may be what is hidden; unless
    // the game says that every action is public once made.
    const bool public_actions = (ops->flags & GAME_PUBLIC_ACTIONS) != 0;
    json_object_set_new(o, "moves", moves_json(s, view, hidden && !public_actions));

    json_t *legal = p >= 0 && (!hidden || view == p) ? api_legal_json(g, cur) : json_array();
    json_object_set_new(o, "legal", legal);
    const char *help = p >= 0 && (!hidden || view == p) ? game_turn_help(g, cur) : NULL;
    json_object_set_new(o, "turn_help", help ? json_string(help) : json_null());

    if (p == PLAYER_NONE) {
        json_t *r = json_object();
        sb_clear(&t);
        play_result_text(g, cur, PLAYER_NONE, &t);
        json_object_set_new(r, "text", json_string(sb_str(&t)));
        double ret[MAX_PLAYERS];
        ops->returns(g, cur, ret);
        json_t *ra = json_array();
        for (int i = 0; i < g->players; i++)
            json_array_append_new(ra, json_real(ret[i]));
        json_object_set_new(r, "returns", ra);
        json_object_set_new(o, "result", r);
    } else {
        json_object_set_new(o, "result", json_null());
    }
    api_view_state(s, o);
    sb_free(&t);
    return o;
}

char *api_state_locked(Session *s, int viewer, size_t *len)
{
    const bool hidden = !(s->game->ops->flags & GAME_PERFECT_INFO);
    const int slot = hidden && viewer >= 0 ? 1 + viewer : 0;
    if (s->cache[slot] == NULL || s->cache_version[slot] != s->version) {
        json_t *o = build_state(s, hidden ? viewer : -1);
        size_t n;
        char *body = api_dump(o, &n);
        json_decref(o);
        if (body == NULL)
            return NULL;
        free(s->cache[slot]);
        s->cache[slot] = body;
        s->cache_len[slot] = n;
        s->cache_version[slot] = s->version;
    }
    // The cached text is an object "{...}"; the viewer's seat goes in front of its fields.
    char head[1024];
    int hl = viewer >= 0 ? snprintf(head, sizeof head, "{\"you\":%d,", viewer)
                         : snprintf(head, sizeof head, "{\"you\":null,");
    hl += api_view_viewer_fields(s, viewer, head + hl, sizeof head - (size_t)hl);
    hl += api_lobby_state_fields(s, head + hl, sizeof head - (size_t)hl);
    const size_t n = (size_t)hl + s->cache_len[slot] - 1;
    char *out = malloc(n + 1);
    if (out == NULL)
        return NULL;
    memcpy(out, head, (size_t)hl);
    memcpy(out + hl, s->cache[slot] + 1, s->cache_len[slot]); // includes the NUL
    *len = n;
    return out;
}
