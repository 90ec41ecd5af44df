/*
 * clock.c - the game clock and the flag rule (clock.h). Everything here is arithmetic on
 * the struct: each front end decides when a turn ends, where the time comes from and
 * how the clock is kept (the web stores it with the game's moves).
 */
#include "play/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"

enum { MAX_BASE_S = 86400, MAX_INC_S = 3600 };

Status play_clock_parse(const char *text, const char *what, int players, PlayClock *c,
                        ErrBuf *err)
{
    char *end;
    const double base = strtod(text, &end);
    double inc = 0;
    if (end != text && *end == '+') {
        const char *p = end + 1;
        inc = strtod(p, &end);
        if (end == p)
            end = (char *)text; /* "10+" */
    }
    if (end == text || *end != '\0' || !isfinite(base) || !isfinite(inc) || base <= 0 ||
        base > MAX_BASE_S || inc < 0 || inc > MAX_INC_S)
        return err_set(err, STATUS_PARSE, "%s takes BASE+INC in seconds, such as 10+0.1 or "
                       "60 (BASE above 0, INC from 0), not '%s'", what, text);
    PlayClock t;
    play_clock_off(&t);
    t.initial_ms = (int64_t)llround(base * 1000);
    t.increment_ms = (int64_t)llround(inc * 1000);
    if (t.initial_ms < 1)
        t.initial_ms = 1;
    *c = play_clock_fresh(&t, players);
    return STATUS_OK;
}

void play_clock_off(PlayClock *c)
{
    memset(c, 0, sizeof *c);
    c->running = -1;
}

bool play_clock_on(const PlayClock *c)
{
    return c->initial_ms > 0 || c->per_move_ms > 0;
}

PlayClock play_clock_fresh(const PlayClock *c, int players)
{
    PlayClock f;
    play_clock_off(&f);
    if (!play_clock_on(c))
        return f;
    f.initial_ms = c->initial_ms;
    f.increment_ms = c->increment_ms;
    f.per_move_ms = c->per_move_ms;
    f.days = c->days;
    for (int i = 0; i < players && i < MAX_PLAYERS; i++)
        f.left_ms[i] = f.per_move_ms > 0 ? f.per_move_ms : f.initial_ms;
    return f;
}

bool play_clock_charge(PlayClock *c, int seat, int64_t used_ms)
{
    if (!play_clock_on(c) || seat < 0 || seat >= MAX_PLAYERS)
        return true;
    c->left_ms[seat] -= used_ms;
    return c->left_ms[seat] > 0;
}

void play_clock_turn_done(PlayClock *c, int seat)
{
    if (!play_clock_on(c) || seat < 0 || seat >= MAX_PLAYERS)
        return;
    c->left_ms[seat] = c->per_move_ms > 0 ? c->per_move_ms : c->left_ms[seat] + c->increment_ms;
}

/* Charges the running seat the time since since_ms, never below 0; the seat, or -1. */
static int charge_running(PlayClock *c, int64_t now)
{
    const int r = c->running;
    if (r < 0 || r >= MAX_PLAYERS)
        return -1;
    int64_t *left = &c->left_ms[r];
    *left -= now - c->since_ms;
    if (*left < 0)
        *left = 0;
    return r;
}

void play_clock_turn(PlayClock *c, int mover, int next, int64_t now)
{
    if (!play_clock_on(c) || (next == mover && next >= 0))
        return; // the same player goes on with his turn
    if (c->running == mover && charge_running(c, now) >= 0)
        play_clock_turn_done(c, mover);
    // The first turn is untimed: the clock starts once someone has moved.
    c->running = next >= 0 && next < MAX_PLAYERS ? next : -1;
    c->since_ms = now;
}

int play_clock_flagged(const PlayClock *c, int64_t now)
{
    if (!play_clock_on(c) || c->running < 0 || c->running >= MAX_PLAYERS)
        return -1;
    return c->left_ms[c->running] - (now - c->since_ms) <= 0 ? c->running : -1;
}

void play_clock_stop(PlayClock *c, int64_t now)
{
    if (charge_running(c, now) < 0)
        return;
    c->running = -1;
    c->since_ms = now;
}

bool play_flag_is_draw(const Game *g, const GameState *s, int flagged)
{
    for (int p = 0; p < g->players; p++)
        if (p != flagged && game_can_win(g, s, p))
            return false;
    return true;
}
