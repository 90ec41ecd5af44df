/*
 * meta.c - a game's meta (meta.h) to and from the JSON the store keeps. Only the fields
 * that differ from meta_init's are written, so most games store "{}".
 */
#include "web/meta.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void meta_init(GameMeta *m)
{
    memset(m, 0, sizeof *m);
    m->end = PLAY_END_NONE;
    m->end_seat = m->offer_seat = m->takeback_seat = m->declined_seat = -1;
    play_clock_off(&m->clock);
}

int64_t meta_flag_at(const GameMeta *m)
{
    const PlayClock *c = &m->clock;
    if (m->end != PLAY_END_NONE || !play_clock_on(c) || c->running < 0 ||
        c->running >= MAX_PLAYERS)
        return 0;
    return c->since_ms + c->left_ms[c->running];
}

static int int_field(const json_t *o, const char *key, int fallback)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : fallback;
}

static bool id_field(const json_t *o, const char *key, char *out, int len)
{
    const json_t *v = json_object_get(o, key);
    if (v == NULL)
        return true;
    if (!json_is_string(v) || !secret_is_hex(json_string_value(v), (size_t)len))
        return false;
    snprintf(out, (size_t)len + 1, "%s", json_string_value(v));
    return true;
}

Status meta_parse(const char *text, int players, GameMeta *out, ErrBuf *err)
{
    GameMeta m;
    meta_init(&m);
    if (text == NULL || text[0] == '\0') {
        *out = m;
        return STATUS_OK;
    }
    json_error_t je;
    json_t *o = json_loads(text, 0, &je);
    if (!json_is_object(o)) {
        json_decref(o);
        return err_set(err, STATUS_CORRUPT, "the game's meta is not a JSON object");
    }
    const char *end = json_string_value(json_object_get(o, "end"));
    m.end = PLAY_END_NONE;
    const bool end_ok = end == NULL || play_end_from_key(end, &m.end);
    m.end_seat = int_field(o, "end_seat", -1);
    m.end_ply = int_field(o, "end_ply", 0);
    m.offer_seat = int_field(o, "offer_seat", -1);
    m.offer_ply = int_field(o, "offer_ply", 0);
    m.declined_seat = int_field(o, "declined_seat", -1);
    m.declined_ply = int_field(o, "declined_ply", 0);
    m.takeback_seat = int_field(o, "takeback_seat", -1);
    m.takeback_ply = int_field(o, "takeback_ply", 0);
    m.takeback_declined = json_is_true(json_object_get(o, "takeback_declined"));
    m.hints = json_is_true(json_object_get(o, "hints"));
    bool ok = end_ok && m.end_seat >= -1 && m.end_seat < players &&
              m.offer_seat >= -1 && m.offer_seat < players && m.takeback_seat >= -1 &&
              m.declined_seat >= -1 && m.declined_seat < players &&
              m.takeback_seat < players &&
              id_field(o, "rematch", m.rematch, SECRET_ID_LEN) &&
              id_field(o, "rematch_of", m.rematch_of, SECRET_ID_LEN);
    const json_t *tokens = json_object_get(o, "rematch_tokens");
    for (int i = 0; ok && tokens != NULL && i < players; i++) {
        const json_t *t = json_array_get(tokens, (size_t)i);
        ok = json_is_string(t) && secret_is_hex(json_string_value(t), SECRET_TOKEN_LEN);
        if (ok)
            snprintf(m.rematch_token[i], sizeof m.rematch_token[i], "%s", json_string_value(t));
    }
    ErrBuf e2;
    if (ok && gameclock_parse_store(json_object_get(o, "clock"), players, &m.clock, &e2) !=
                  STATUS_OK)
        ok = false;
    const json_t *moved = json_object_get(o, "moved_ms");
    m.moved_ms = json_is_integer(moved) ? (int64_t)json_integer_value(moved) : 0;
    const json_t *open = json_object_get(o, "open");
    m.open = json_is_integer(open) ? (unsigned)json_integer_value(open) : 0u;
    ok = ok && m.open < (1u << players);
    m.rated = json_is_true(json_object_get(o, "rated"));
    const json_t *accounts = json_object_get(o, "accounts");
    for (int i = 0; ok && accounts != NULL && i < players; i++) {
        const char *name = json_string_value(json_array_get(accounts, (size_t)i));
        ok = name != NULL && strlen(name) < sizeof m.account[i];
        if (ok)
            snprintf(m.account[i], sizeof m.account[i], "%s", name);
    }
    const json_t *rating = json_object_get(o, "rating");
    if (ok && rating != NULL) {
        const json_t *after = json_object_get(rating, "after");
        const json_t *change = json_object_get(rating, "change");
        for (int i = 0; ok && i < players; i++) {
            const json_t *a = json_array_get(after, (size_t)i);
            const json_t *c = json_array_get(change, (size_t)i);
            ok = json_is_number(a) && json_is_number(c);
            if (ok) {
                m.rating_after[i] = json_number_value(a);
                m.rating_change[i] = json_number_value(c);
            }
        }
        m.rating_done = ok;
    }
    json_decref(o);
    if (!ok)
        return err_set(err, STATUS_CORRUPT, "the game's meta has a field out of range");
    *out = m;
    return STATUS_OK;
}

char *meta_format(const GameMeta *m, int players)
{
    json_t *o = json_object();
    if (o == NULL)
        return NULL;
    if (m->end != PLAY_END_NONE) {
        json_object_set_new(o, "end", json_string(play_end_key(m->end)));
        json_object_set_new(o, "end_seat", json_integer(m->end_seat));
        json_object_set_new(o, "end_ply", json_integer(m->end_ply));
    }
    if (m->offer_seat >= 0) {
        json_object_set_new(o, "offer_seat", json_integer(m->offer_seat));
        json_object_set_new(o, "offer_ply", json_integer(m->offer_ply));
    }
    if (m->declined_seat >= 0) {
        json_object_set_new(o, "declined_seat", json_integer(m->declined_seat));
        json_object_set_new(o, "declined_ply", json_integer(m->declined_ply));
    }
    if (m->takeback_seat >= 0) {
        json_object_set_new(o, "takeback_seat", json_integer(m->takeback_seat));
        json_object_set_new(o, "takeback_ply", json_integer(m->takeback_ply));
        if (m->takeback_declined)
            json_object_set_new(o, "takeback_declined", json_true());
    }
    if (m->hints)
        json_object_set_new(o, "hints", json_true());
    if (m->rematch[0]) {
        json_object_set_new(o, "rematch", json_string(m->rematch));
        json_t *t = json_array();
        for (int i = 0; i < players; i++)
            json_array_append_new(t, json_string(m->rematch_token[i]));
        json_object_set_new(o, "rematch_tokens", t);
    }
    if (m->rematch_of[0])
        json_object_set_new(o, "rematch_of", json_string(m->rematch_of));
    json_t *clock = gameclock_store_json(&m->clock);
    if (clock != NULL)
        json_object_set_new(o, "clock", clock);
    if (m->moved_ms > 0)
        json_object_set_new(o, "moved_ms", json_integer(m->moved_ms));
    if (m->open != 0)
        json_object_set_new(o, "open", json_integer((json_int_t)m->open));
    if (m->rated)
        json_object_set_new(o, "rated", json_true());
    bool any = false;
    for (int i = 0; i < players; i++)
        any = any || m->account[i][0] != '\0';
    if (any) {
        json_t *a = json_array();
        for (int i = 0; i < players; i++)
            json_array_append_new(a, json_string(m->account[i]));
        json_object_set_new(o, "accounts", a);
    }
    if (m->rating_done) {
        json_t *r = json_object(), *after = json_array(), *change = json_array();
        for (int i = 0; i < players; i++) {
            json_array_append_new(after, json_real(m->rating_after[i]));
            json_array_append_new(change, json_real(m->rating_change[i]));
        }
        json_object_set_new(r, "after", after);
        json_object_set_new(r, "change", change);
        json_object_set_new(o, "rating", r);
    }
    char *text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    return text;
}
