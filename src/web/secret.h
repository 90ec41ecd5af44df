/*
 * secret.h - unguessable game ids and seat tokens, and comparing tokens in a time that
 * does not depend on where they differ.
 *
 * A seat token is the only proof that a request comes from that seat's player, so it
 * comes from the kernel's random generator, never from a seeded Rng.
 */
#ifndef CROWN_WEB_SECRET_H
#define CROWN_WEB_SECRET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SECRET_ID_BYTES = 12,    /* a game id: 24 hex digits, public (anyone may watch) */
    SECRET_TOKEN_BYTES = 16, /* a seat token: 32 hex digits, secret */
    SECRET_ID_LEN = 2 * SECRET_ID_BYTES,
    SECRET_TOKEN_LEN = 2 * SECRET_TOKEN_BYTES,
};

/* Writes 2 * bytes lowercase hex digits and a NUL; false if no randomness was to be had. */
bool secret_hex(char *out, size_t bytes);
/* A random 64-bit number (game seeds when none is given). */
bool secret_u64(uint64_t *out);
/* True if a and b are equal; time depends only on the lengths. */
bool secret_equal(const char *a, const char *b);
/* True if s is exactly n lowercase hex digits (ids and tokens, checked before use). */
bool secret_is_hex(const char *s, size_t n);

#endif
