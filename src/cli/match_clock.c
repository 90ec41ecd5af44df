/*
 * match_clock.c - time controls and seat clocks (match_clock.h).
 */
#include "cli/match_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

Status time_control_parse(const char *text, TimeControl *tc, ErrBuf *err)
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
        base > 86400 || inc < 0 || inc > 3600)
        return err_set(err, STATUS_PARSE, "--tc takes BASE+INC in seconds, such as 10+0.1 or "
                       "60 (BASE above 0, INC from 0), not '%s'", text);
    tc->base_ms = (int64_t)llround(base * 1000);
    tc->inc_ms = (int64_t)llround(inc * 1000);
    if (tc->base_ms < 1)
        tc->base_ms = 1;
    return STATUS_OK;
}

void seat_clock_start(SeatClock *c, const TimeControl *tc, int players)
{
    memset(c, 0, sizeof *c);
    c->on = tc->base_ms > 0;
    c->inc_ms = tc->inc_ms;
    for (int i = 0; i < players && i < MAX_PLAYERS; i++)
        c->left_ms[i] = tc->base_ms;
}

bool seat_clock_charge(SeatClock *c, int seat, int64_t used_ms)
{
    if (!c->on)
        return true;
    c->left_ms[seat] -= used_ms;
    return c->left_ms[seat] > 0;
}

void seat_clock_turn_done(SeatClock *c, int seat)
{
    if (c->on)
        c->left_ms[seat] += c->inc_ms;
}
