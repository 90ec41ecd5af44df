/*
 * bb128.h - the 128-bit bitboard of boards with more than 64 cells (King's Guard's
 * 10x10 with padding, King's Castle's 11x11 hex grid), and the only home of __int128.
 *
 * GCC and Clang both offer a 128-bit integer, which keeps flood fills to a handful of
 * shifts; __extension__ keeps -Wpedantic quiet. States store a board as Bb128Words (two
 * 64-bit words), which keeps them 8-byte aligned so that generic code may copy them
 * anywhere, and load it into a Bb128 to work on it.
 */
#ifndef CROWN_CORE_BB128_H
#define CROWN_CORE_BB128_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bits.h"

__extension__ typedef unsigned __int128 Bb128;

/* A Bb128 as states store it. */
typedef struct Bb128Words {
    uint64_t lo, hi;
} Bb128Words;

static inline Bb128 bb128_bit(int i)
{
    return (Bb128)1 << i;
}
static inline Bb128 bb128_make(uint64_t lo, uint64_t hi)
{
    return (Bb128)hi << 64 | lo;
}
static inline uint64_t bb128_lo(Bb128 b)
{
    return (uint64_t)b;
}
static inline uint64_t bb128_hi(Bb128 b)
{
    return (uint64_t)(b >> 64);
}
static inline Bb128 bb128_load(Bb128Words w)
{
    return bb128_make(w.lo, w.hi);
}
static inline Bb128Words bb128_store(Bb128 b)
{
    return (Bb128Words){bb128_lo(b), bb128_hi(b)};
}
static inline bool bb128_has(Bb128 b, int i)
{
    return (b >> i & 1) != 0;
}
static inline void bb128_set(Bb128 *b, int i)
{
    *b |= bb128_bit(i);
}
static inline void bb128_clear(Bb128 *b, int i)
{
    *b &= ~bb128_bit(i);
}
static inline int bb128_count(Bb128 b)
{
    return bits_count(bb128_lo(b)) + bits_count(bb128_hi(b));
}
/* Index of the lowest set bit; b must not be 0. */
static inline int bb128_lowest(Bb128 b)
{
    const uint64_t lo = bb128_lo(b);
    return lo ? bits_lowest(lo) : 64 + bits_lowest(bb128_hi(b));
}
/* Removes and returns the lowest set bit's index; *b must not be 0. */
static inline int bb128_pop(Bb128 *b)
{
    const int i = bb128_lowest(*b);
    *b &= *b - 1;
    return i;
}
/* Shifted towards higher indices by delta, or lower ones when delta is negative. */
static inline Bb128 bb128_shift(Bb128 b, int delta)
{
    return delta > 0 ? b << delta : b >> -delta;
}
/* Index of the r-th (from 0) set bit; b has more than r bits set. */
static inline int bb128_nth(Bb128 b, int r)
{
    const uint64_t lo = bb128_lo(b);
    const int low = bits_count(lo);
    return r < low ? bits_nth(lo, r) : 64 + bits_nth(bb128_hi(b), r - low);
}

#endif
