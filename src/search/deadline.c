/*
 * deadline.c - the slow half of deadline polling: read the clock and the flag, and
 * retune the poll interval towards DEADLINE_POLL_US.
 */
#include "search/deadline.h"

#include <stddef.h>

#include "core/clock.h"

void deadline_start(Deadline *d, int64_t movetime_ms, atomic_bool *stop)
{
    d->start_us = clock_us();
    d->end_us = movetime_ms > 0 ? d->start_us + movetime_ms * 1000 : 0;
    d->stop = stop;
    d->next = 1;
    d->interval = 1;
    d->last_us = d->start_us;
    d->expired = false;
}

bool deadline_check(Deadline *d, uint64_t count)
{
    if (d->expired)
        return true;
    const int64_t now = clock_us();
    if ((d->stop != NULL && atomic_load_explicit(d->stop, memory_order_relaxed)) ||
        (d->end_us != 0 && now >= d->end_us)) {
        d->expired = true;
        return true;
    }
    // Poll twice as often if the last interval took too long, half as often if it was
    // much shorter than aimed.
    const int64_t took = now - d->last_us;
    if (took > 2 * DEADLINE_POLL_US && d->interval > 1)
        d->interval /= 2;
    else if (took < DEADLINE_POLL_US / 2 && d->interval < DEADLINE_MAX_INTERVAL)
        d->interval *= 2;
    d->last_us = now;
    d->next = count + d->interval;
    return false;
}

int64_t deadline_elapsed_ms(const Deadline *d)
{
    return (clock_us() - d->start_us) / 1000;
}
