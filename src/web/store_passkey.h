/*
 * store_passkey.h - passkeys in the store, beside the accounts (store_account.h): each
 * account's credentials (the id the authenticator gave, the COSE public key, the last
 * sign count, a name the player chose, when it was made and last used) and the
 * challenges given out for a registration or a sign-in, each used once, only before
 * it expires and only by the session or browser that asked for it. In the same SQL for both backends, run by store_run, so that a
 * challenge given by one process is taken by another.
 */
#ifndef CROWN_WEB_STORE_PASSKEY_H
#define CROWN_WEB_STORE_PASSKEY_H

#include <stdint.h>

#include "web/store.h"
#include "web/store_account.h"
#include "web/webauthn.h"

enum {
    STORE_PASSKEY_NAME_CHARS = 40, /* characters of a passkey's name */
    STORE_PASSKEY_NAME_MAX = 4 * STORE_PASSKEY_NAME_CHARS, /* its bytes in UTF-8 at most */
};

typedef struct StorePasskey {
    char id[WEBAUTHN_B64_CAP];   /* base64url */
    int64_t user;
    char cose[WEBAUTHN_B64_CAP]; /* base64url */
    uint32_t sign_count;
    char name[STORE_PASSKEY_NAME_MAX + 1];
    int64_t created, last_used; /* seconds since 1970; last_used 0: never */
} StorePasskey;

/* What a challenge is for. */
typedef enum StoreChallengeUse {
    STORE_CHALLENGE_REGISTER,
    STORE_CHALLENGE_SIGN_IN,
} StoreChallengeUse;

/* Adds a credential to an account; STATUS_CONFLICT when its id is registered already. */
Status store_passkey_add(Store *st, const StorePasskey *p, ErrBuf *err);
/* The credential of an id and its account; STATUS_NOT_FOUND when none (or the account
 * is deleted). */
Status store_passkey_get(Store *st, const char *id, StorePasskey *out, StoreUser *owner,
                         ErrBuf *err);
/* The account's credentials, oldest first, up to cap; *n of them. */
Status store_passkeys_of(Store *st, int64_t user, StorePasskey *out, int cap, int *n,
                         ErrBuf *err);
/* Renames or deletes one of the account's credentials; STATUS_NOT_FOUND when it has no
 * credential of that id. */
Status store_passkey_rename(Store *st, int64_t user, const char *id, const char *name,
                            ErrBuf *err);
Status store_passkey_delete(Store *st, int64_t user, const char *id, ErrBuf *err);
/* Records a sign-in: the counter moves from `was` to `now_count`. STATUS_CONFLICT when
 * the stored counter is no longer `was` (another sign-in came first). */
Status store_passkey_used(Store *st, const char *id, uint32_t was, uint32_t now_count,
                          int64_t now, ErrBuf *err);

/* Keeps a challenge given out for `use` (user: the account registering; 0 for a
 * sign-in), bound to `bound` (the hash of the session or of the browser's sign-in
 * cookie that asked for it) until `expires`; the expired ones go at the same time. */
Status store_challenge_put(Store *st, const char *challenge, StoreChallengeUse use,
                           int64_t user, const char *bound, int64_t now, int64_t expires,
                           ErrBuf *err);
/* Takes (deletes) a challenge given for that use, account and binding and not yet
 * expired; STATUS_NOT_FOUND when there is no such challenge: used, expired, asked for
 * by another, or never given. */
Status store_challenge_take(Store *st, const char *challenge, StoreChallengeUse use,
                            int64_t user, const char *bound, int64_t now, ErrBuf *err);

#endif
