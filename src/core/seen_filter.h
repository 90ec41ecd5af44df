/*
 * seen_filter.h - a Bloom filter of the positions met in one random playout: a position
 * whose bit is clear has certainly not occurred before, so a playout skips its
 * repetition scan. False positives only cost a scan, so one bit per hash is enough.
 *
 * 4096 bits cover the few hundred positions of a playout with few collisions and cost
 * 512 bytes of stack, cleared once per playout.
 */
#ifndef CROWN_CORE_SEEN_FILTER_H
#define CROWN_CORE_SEEN_FILTER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum { SEEN_FILTER_WORDS = 64 };

typedef struct SeenFilter {
    uint64_t bits[SEEN_FILTER_WORDS];
} SeenFilter;

static inline void seen_clear(SeenFilter *f)
{
    memset(f->bits, 0, sizeof f->bits);
}

/* Marks hash as seen; true if its bit was already set (it may have occurred before). */
static inline bool seen_add(SeenFilter *f, uint64_t hash)
{
    const unsigned i = (unsigned)(hash >> 52); /* the top 12 bits */
    const uint64_t bit = 1ULL << (i & 63);
    const bool was = (f->bits[i >> 6] & bit) != 0;
    f->bits[i >> 6] |= bit;
    return was;
}

#endif
