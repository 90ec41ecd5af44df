/*
 * credential.h - what proves who a player is: a password, kept only as an argon2id hash
 * (libsodium's crypto_pwhash_str), and a sign-in session's random 256-bit id, which the
 * browser holds in a cookie and the store only as its BLAKE2b hash, so that a copy of
 * the database signs nobody in.
 *
 * A name nobody has is checked against a dummy hash of the same cost, so that an
 * unknown name and a wrong password take the same time and get the same answer.
 */
#ifndef CROWN_WEB_CREDENTIAL_H
#define CROWN_WEB_CREDENTIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

enum {
    CREDENTIAL_HASH_CAP = 128, /* a stored password hash and its NUL (crypto_pwhash_STRBYTES) */
    CREDENTIAL_ID_LEN = 64,    /* a session id, and its stored hash: 32 bytes as hex */
    CREDENTIAL_PASSWORD_MIN = 8,
    CREDENTIAL_PASSWORD_MAX = 128, /* bytes: argon2 hashes any length, the server need not */
    CREDENTIAL_NAME_MIN = 3,
    CREDENTIAL_NAME_MAX = 20,
};

typedef struct Credentials Credentials;

/* low: the cheapest argon2id (crown serve --password-cost low, for tests only); else
 * 2 passes over 19 MiB, a sign-in's hash taking tens of milliseconds. */
Status credentials_new(bool low, Credentials **out, ErrBuf *err);
void credentials_free(Credentials *c);

/* Why `name` cannot be an account's name (3 to 20 letters, digits, _ and -; not "AI"
 * as a word at its start, the AI seats' name), or NULL when it can. */
const char *credential_name_refusal(const char *name);
/* The name's case-insensitive key: one account per key. */
void credential_name_key(const char *name, char *key, size_t cap);
/* Why `password` is refused (length), or NULL. Never says the password. */
const char *credential_password_refusal(const char *password);

/* The stored hash of password. */
Status credential_hash(const Credentials *c, const char *password,
                       char out[CREDENTIAL_HASH_CAP], ErrBuf *err);
/* Whether password matches `stored`; stored NULL (no such account) is checked against
 * the dummy hash, at the same cost, and is never a match. */
bool credential_verify(const Credentials *c, const char *stored, const char *password);

/* A new session id (hex), false when no randomness was to be had. */
bool credential_session_id(char out[CREDENTIAL_ID_LEN + 1]);
/* The hash of a session id the store keeps; false when id is not a session id's shape. */
bool credential_session_hash(const char *id, char out[CREDENTIAL_ID_LEN + 1]);

#endif
