/*
 * bits.h - the only home of compiler bit builtins (popcount, count trailing zeros).
 */
#ifndef CROWN_CORE_BITS_H
#define CROWN_CORE_BITS_H

#include <stdint.h>

static inline int bits_count(uint64_t x)
{
    return __builtin_popcountll(x);
}

/* Index of the lowest set bit; x must not be 0. */
static inline int bits_lowest(uint64_t x)
{
    return __builtin_ctzll(x);
}

/* Index of the highest set bit; x must not be 0. */
static inline int bits_highest(uint64_t x)
{
    return 63 - __builtin_clzll(x);
}

/* Removes and returns the lowest set bit's index; *x must not be 0. */
static inline int bits_pop(uint64_t *x)
{
    int i = __builtin_ctzll(*x);
    *x &= *x - 1;
    return i;
}

/* Index of the r-th (from 0) set bit; x has more than r bits set. */
static inline int bits_nth(uint64_t x, int r)
{
    for (int i = 0; i < r; i++)
        x &= x - 1;
    return __builtin_ctzll(x);
}

#endif
