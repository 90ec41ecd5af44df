/*
 * store_account.h - accounts in the store, beside the games (store.h): players' names
 * and password hashes, their sign-in sessions (kept as the hash of the cookie's id,
 * credential.h) and the seats they sit in; their ratings are store_rating.h's. Each call
 * is one transaction of the store's generic runner (store_run), in SQL both backends
 * read, so the accounts of several processes sharing PostgreSQL are one.
 */
#ifndef CROWN_WEB_STORE_ACCOUNT_H
#define CROWN_WEB_STORE_ACCOUNT_H

#include <stdint.h>

#include "web/credential.h"
#include "web/store.h"

/* How long a sign-in session lasts. */
#define STORE_SESSION_DAYS 30

typedef struct StoreUser {
    int64_t id;
    char name[CREDENTIAL_NAME_MAX + 1];
    char hash[CREDENTIAL_HASH_CAP];
    int64_t created;
    char lang[8]; /* the language of its mails (store_mail.h), "" when not read or unsaid */
} StoreUser;

/* A seat an account sits in. */
typedef struct StoreUserSeat {
    char game_id[SECRET_ID_LEN + 1];
    int seat;
    char game[64];
    char token[SECRET_TOKEN_LEN + 1];
    int64_t created;
} StoreUserSeat;

/* A new account; STATUS_CONFLICT when the name's key (credential_name_key) is taken. */
Status store_user_create(Store *st, const char *name, const char *hash, int64_t now,
                         StoreUser *out, ErrBuf *err);
/* The account of a name (any case); STATUS_NOT_FOUND when there is none. */
Status store_user_by_name(Store *st, const char *name, StoreUser *out, ErrBuf *err);
/* Opens a sign-in session (session_hash: credential_session_hash of its id). */
Status store_session_open(Store *st, int64_t user, const char *session_hash, int64_t now,
                          ErrBuf *err);
/* The account of a session opened since `since`; STATUS_NOT_FOUND when none. */
Status store_session_user(Store *st, const char *session_hash, int64_t since, StoreUser *out,
                          ErrBuf *err);
/* Ends one session; an unknown one is fine. */
Status store_session_close(Store *st, const char *session_hash, ErrBuf *err);
/* Deletes the sessions opened before `before` (seconds since 1970): they sign nobody in
 * any more (store_session_user), so the housekeeping clears them. */
Status store_sessions_expire(Store *st, int64_t before, ErrBuf *err);
/* Ends every session of the account but `keep` (NULL: all). */
Status store_sessions_close_all(Store *st, int64_t user, const char *keep, ErrBuf *err);
/* A new password hash; every other session of the account ends with the old password. */
Status store_user_set_hash(Store *st, int64_t user, const char *hash, const char *keep,
                           ErrBuf *err);
/* Deletes an account: its name, hash, sessions, ratings and their history, passkeys,
 * seeks and challenges, and e-mail (its address, tokens and unsent mails) go; its row
 * stays, nameless, for the seats of its games ("deleted player"). */
Status store_user_delete(Store *st, int64_t user, ErrBuf *err);
/* Seats `user` in game_id's `seat` (a claim, a join). */
Status store_user_seat(Store *st, int64_t user, const char *game_id, int seat, ErrBuf *err);
/* The account's seats, newest game first, up to cap; *n of them. */
Status store_user_seats(Store *st, int64_t user, StoreUserSeat *out, int cap, int *n,
                        ErrBuf *err);

/* A rating before its first rated game (Glicko-2's defaults). */
#define STORE_RATING_DEFAULT 1500.0
#define STORE_RD_DEFAULT 350.0


/* Failed sign-ins counted across the processes sharing a store (a store one process
 * uses needs none: that process's loginlimit.h table is the whole truth). `key` is
 * locked out until *until_ms (wall-clock ms, 0: never failed lately). */
Status store_login_until(Store *st, const char *key, int64_t *until_ms, ErrBuf *err);
/* Counts a failure of `key` at now_ms and locks it out by loginlimit_lock_ms; keys
 * without a failure for LOGINLIMIT_FORGET_MS and not locked out are forgotten. */
Status store_login_fail(Store *st, const char *key, int free_tries, int64_t now_ms,
                        ErrBuf *err);
/* Forgets `key` (its owner signed in). */
Status store_login_clear(Store *st, const char *key, ErrBuf *err);

#endif
