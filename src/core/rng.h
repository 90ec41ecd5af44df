/*
 * rng.h - explicit-state pseudo-random numbers (xoshiro256**, seeded by splitmix64).
 *
 * Every user owns its Rng; nothing in crown calls rand(). The same seed gives the same
 * sequence on every platform, which the determinism tests rely on.
 */
#ifndef CROWN_CORE_RNG_H
#define CROWN_CORE_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

void rng_seed(Rng *rng, uint64_t seed);
uint64_t rng_next(Rng *rng);
/* Uniform in [0, n); n must be > 0. Unbiased (rejection sampling). */
uint32_t rng_below(Rng *rng, uint32_t n);
/* Uniform in [0, 1). */
double rng_double(Rng *rng);
/* One step of splitmix64: a good 64-bit mixer for deriving seeds and hash keys. */
uint64_t rng_mix(uint64_t *state);

#endif
