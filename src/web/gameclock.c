/*
 * gameclock.c - a game's clock in the web's forms (gameclock.h): the control a request
 * asks for, the clock as stored and as the state shows it. The arithmetic is play's
 * (play/clock.c); the session decides when a turn ends and commits the result.
 */
#include "web/gameclock.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

enum {
    MAX_INITIAL_S = 3 * 3600,  /* three hours each */
    MAX_INCREMENT_S = 600,
};

int64_t gameclock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A whole number in [lo, hi] from member `key` of o; `fallback` when absent. */
static bool whole(const json_t *o, const char *key, long lo, long hi, long fallback, long *out)
{
    const json_t *v = json_object_get(o, key);
    if (v == NULL) {
        *out = fallback;
        return true;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = (long)json_integer_value(v);
    return true;
}

Status gameclock_from_request(const json_t *j, int players, int64_t day_ms, PlayClock *out,
                              ErrBuf *err)
{
    if (!json_is_object(j))
        return err_set(err, STATUS_PARSE, "'clock' must be {\"initial\": SECONDS, "
                       "\"increment\": SECONDS} or {\"days\": DAYS}");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)j, key, v) {
        if (strcmp(key, "initial") != 0 && strcmp(key, "increment") != 0 &&
            strcmp(key, "days") != 0)
            return err_set(err, STATUS_PARSE, "unknown clock field '%.40s': the fields are "
                           "'initial', 'increment' and 'days'", key);
    }
    PlayClock c;
    play_clock_off(&c);
    long initial, increment, days;
    const bool has_days = json_object_get(j, "days") != NULL;
    if (has_days && (json_object_get(j, "initial") || json_object_get(j, "increment")))
        return err_set(err, STATUS_PARSE, "a clock is either minutes and an increment or "
                       "days per move, not both");
    if (has_days) {
        if (!whole(j, "days", 1, GAMECLOCK_MAX_DAYS, 0, &days))
            return err_set(err, STATUS_PARSE, "'days' must be a whole number from 1 to %d",
                           GAMECLOCK_MAX_DAYS);
        c.per_move_ms = (int64_t)days * day_ms;
        c.days = (int)days;
    } else {
        if (!whole(j, "initial", 1, MAX_INITIAL_S, -1, &initial) || initial < 0)
            return err_set(err, STATUS_PARSE, "'initial' must be the seconds each player "
                           "starts with, from 1 to %d", MAX_INITIAL_S);
        if (!whole(j, "increment", 0, MAX_INCREMENT_S, 0, &increment))
            return err_set(err, STATUS_PARSE, "'increment' must be seconds from 0 to %d",
                           MAX_INCREMENT_S);
        c.initial_ms = (int64_t)initial * 1000;
        c.increment_ms = (int64_t)increment * 1000;
    }
    *out = play_clock_fresh(&c, players);
    return STATUS_OK;
}

json_t *gameclock_store_json(const PlayClock *c)
{
    if (!play_clock_on(c))
        return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "initial_ms", json_integer(c->initial_ms));
    json_object_set_new(o, "increment_ms", json_integer(c->increment_ms));
    json_object_set_new(o, "per_move_ms", json_integer(c->per_move_ms));
    if (c->days > 0)
        json_object_set_new(o, "days", json_integer(c->days));
    json_t *left = json_array();
    for (int i = 0; i < MAX_PLAYERS; i++)
        json_array_append_new(left, json_integer(c->left_ms[i]));
    json_object_set_new(o, "left_ms", left);
    json_object_set_new(o, "running", json_integer(c->running));
    json_object_set_new(o, "since_ms", json_integer(c->since_ms));
    return o;
}

static bool stored_ms(const json_t *o, const char *key, int64_t *out)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return false;
    *out = (int64_t)json_integer_value(v);
    return true;
}

Status gameclock_parse_store(const json_t *j, int players, PlayClock *out, ErrBuf *err)
{
    PlayClock c;
    play_clock_off(&c);
    if (j == NULL || json_is_null(j)) {
        *out = c;
        return STATUS_OK;
    }
    const json_t *left = json_object_get(j, "left_ms");
    const json_t *running = json_object_get(j, "running");
    bool ok = json_is_object(j) && stored_ms(j, "initial_ms", &c.initial_ms) &&
              stored_ms(j, "increment_ms", &c.increment_ms) &&
              stored_ms(j, "per_move_ms", &c.per_move_ms) &&
              stored_ms(j, "since_ms", &c.since_ms) && json_is_array(left) &&
              json_array_size(left) == MAX_PLAYERS && json_is_integer(running) &&
              json_integer_value(running) >= -1 && json_integer_value(running) < players;
    for (int i = 0; ok && i < MAX_PLAYERS; i++) {
        const json_t *v = json_array_get(left, (size_t)i);
        ok = json_is_integer(v) && json_integer_value(v) >= 0;
        if (ok)
            c.left_ms[i] = (int64_t)json_integer_value(v);
    }
    if (!ok)
        return err_set(err, STATUS_CORRUPT, "the game's stored clock is malformed");
    c.running = (int)json_integer_value(running);
    // Clocks stored before "days" was kept had days of 86400 s.
    const json_t *days = json_object_get(j, "days");
    c.days = json_is_integer(days) && json_integer_value(days) > 0 &&
                     json_integer_value(days) <= GAMECLOCK_MAX_DAYS
                 ? (int)json_integer_value(days)
                 : (int)(c.per_move_ms / 86400000);
    *out = c;
    return STATUS_OK;
}

int gameclock_state_field(const PlayClock *c, int players, int64_t now, char *buf, size_t len)
{
    int n;
    if (!play_clock_on(c)) {
        n = snprintf(buf, len, "\"clock\":null,");
        return n > 0 && (size_t)n < len ? n : 0;
    }
    char left[MAX_PLAYERS * 24] = "";
    int at = 0;
    for (int i = 0; i < players && i < MAX_PLAYERS; i++) {
        int64_t ms = c->left_ms[i];
        if (i == c->running)
            ms -= now - c->since_ms;
        at += snprintf(left + at, sizeof left - (size_t)at, "%s%lld", i ? "," : "",
                       (long long)(ms < 0 ? 0 : ms));
    }
    char running[16];
    if (c->running >= 0)
        snprintf(running, sizeof running, "%d", c->running);
    else
        snprintf(running, sizeof running, "null");
    if (c->per_move_ms > 0)
        n = snprintf(buf, len, "\"clock\":{\"days\":%lld,\"left_ms\":[%s],\"running\":%s},",
                     (long long)c->days, left, running);
    else
        n = snprintf(buf, len, "\"clock\":{\"initial\":%lld,\"increment\":%lld,"
                     "\"left_ms\":[%s],\"running\":%s},",
                     (long long)(c->initial_ms / 1000), (long long)(c->increment_ms / 1000),
                     left, running);
    return n > 0 && (size_t)n < len ? n : 0;
}
