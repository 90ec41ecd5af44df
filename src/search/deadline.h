/*
 * deadline.h - when a running search must give up: a wall-clock budget and a stop
 * flag that another thread may set, polled cheaply from the hot loop.
 *
 * The search calls deadline_poll with its running count (nodes or iterations). Only
 * every `interval` counts does it read the clock and the flag; the interval adapts so
 * that this happens about every DEADLINE_POLL_US whether a count costs 50 ns (a tiny
 * game) or 50 ms (a slow one), so a stop is noticed quickly at a negligible cost.
 */
#ifndef CROWN_SEARCH_DEADLINE_H
#define CROWN_SEARCH_DEADLINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum {
    DEADLINE_POLL_US = 250,          /* aimed time between two looks at the clock */
    DEADLINE_MAX_INTERVAL = 1 << 14, /* never fewer looks than one per this many counts */
};

typedef struct Deadline {
    int64_t start_us;
    int64_t end_us;    /* 0 = no time limit */
    atomic_bool *stop; /* NULL = no flag */
    uint64_t next;     /* count at which to look next */
    uint64_t interval; /* counts between looks */
    int64_t last_us;   /* time of the last look */
    bool expired;      /* sticky once the time is up or the flag was seen */
} Deadline;

/* Starts the clock now; movetime_ms <= 0 means no time limit. */
void deadline_start(Deadline *d, int64_t movetime_ms, atomic_bool *stop);

/* Looks at the clock and the flag now, whatever the count; true if the search must stop. */
bool deadline_check(Deadline *d, uint64_t count);

/* True if the search must stop; looks only when `count` reached the next poll point. */
static inline bool deadline_poll(Deadline *d, uint64_t count)
{
    if (count < d->next)
        return d->expired;
    return deadline_check(d, count);
}

/* Milliseconds since deadline_start. */
int64_t deadline_elapsed_ms(const Deadline *d);

#endif
