/*
 * credential.c - passwords and sign-in session ids (credential.h) through libsodium:
 * argon2id for the one, randombytes and BLAKE2b for the other.
 */
#include "web/credential.h"

#include <ctype.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct Credentials {
    unsigned long long ops;
    size_t mem;
    char dummy[CREDENTIAL_HASH_CAP]; /* what an unknown name is checked against */
};

_Static_assert(crypto_pwhash_STRBYTES <= CREDENTIAL_HASH_CAP, "room for a stored hash");

Status credentials_new(bool low, Credentials **out, ErrBuf *err)
{
    *out = NULL;
    if (sodium_init() < 0)
        return err_set(err, STATUS_IO, "libsodium cannot start");
    Credentials *c = calloc(1, sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    // OWASP's argon2id floor (19 MiB, 2 passes): a sign-in stays well under a tenth of
    // a second on a small server, yet each guess costs an attacker as much.
    c->ops = low ? crypto_pwhash_OPSLIMIT_MIN : 2;
    c->mem = low ? crypto_pwhash_MEMLIMIT_MIN : (size_t)19 << 20;
    char pw[33];
    unsigned char raw[16];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(pw, sizeof pw, raw, sizeof raw);
    const Status s = credential_hash(c, pw, c->dummy, err);
    if (s != STATUS_OK) {
        free(c);
        return s;
    }
    *out = c;
    return STATUS_OK;
}

void credentials_free(Credentials *c)
{
    free(c);
}

const char *credential_name_refusal(const char *name)
{
    const size_t n = strlen(name);
    if (n < CREDENTIAL_NAME_MIN || n > CREDENTIAL_NAME_MAX)
        return "a name has 3 to 20 characters";
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-')
            return "a name has only letters, digits, _ and -";
    // "AI", "ai_5", "Ai-bot": the AI seats are named so; "Aiden" is a name of its own.
    if (strncasecmp(name, "ai", 2) == 0 && !isalpha((unsigned char)name[2]))
        return "a name may not start with the word AI: the AI players are named so";
    return NULL;
}

void credential_name_key(const char *name, char *key, size_t cap)
{
    size_t i = 0;
    for (; name[i] && i + 1 < cap; i++)
        key[i] = (char)tolower((unsigned char)name[i]);
    if (cap > 0)
        key[i] = '\0';
}

const char *credential_password_refusal(const char *password)
{
    const size_t n = strlen(password);
    if (n < CREDENTIAL_PASSWORD_MIN)
        return "a password has at least 8 characters";
    if (n > CREDENTIAL_PASSWORD_MAX)
        return "a password has at most 128 bytes";
    return NULL;
}

Status credential_hash(const Credentials *c, const char *password,
                       char out[CREDENTIAL_HASH_CAP], ErrBuf *err)
{
    if (crypto_pwhash_str(out, password, strlen(password), c->ops, c->mem) != 0)
        return err_set(err, STATUS_NOMEM, "not enough memory to hash a password now");
    return STATUS_OK;
}

bool credential_verify(const Credentials *c, const char *stored, const char *password)
{
    const bool known = stored != NULL && stored[0] != '\0';
    const bool match =
        crypto_pwhash_str_verify(known ? stored : c->dummy, password, strlen(password)) == 0;
    return known && match;
}

bool credential_session_id(char out[CREDENTIAL_ID_LEN + 1])
{
    unsigned char raw[CREDENTIAL_ID_LEN / 2];
    randombytes_buf(raw, sizeof raw);
    sodium_bin2hex(out, CREDENTIAL_ID_LEN + 1, raw, sizeof raw);
    sodium_memzero(raw, sizeof raw);
    return true;
}

bool credential_session_hash(const char *id, char out[CREDENTIAL_ID_LEN + 1])
{
    if (id == NULL || strlen(id) != CREDENTIAL_ID_LEN)
        return false;
    for (const char *p = id; *p; p++)
        if (!isxdigit((unsigned char)*p))
            return false;
    unsigned char h[CREDENTIAL_ID_LEN / 2];
    crypto_generichash(h, sizeof h, (const unsigned char *)id, CREDENTIAL_ID_LEN, NULL, 0);
    sodium_bin2hex(out, CREDENTIAL_ID_LEN + 1, h, sizeof h);
    return true;
}
