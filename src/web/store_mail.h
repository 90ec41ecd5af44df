/*
 * store_mail.h - e-mail in the store, beside the accounts (store_account.h): each
 * account's address, whether it is verified and which mails it asked for; the single-use
 * tokens that mails carry (verification, password reset, unsubscribe), kept only as
 * hashes (credential_session_hash) with an expiry; and the queue of mails to send, which
 * every process sharing the store reads, so that a mail outlives a restart and is sent by
 * one process only (a lease). Each call is one transaction of store_run.
 */
#ifndef CROWN_WEB_STORE_MAIL_H
#define CROWN_WEB_STORE_MAIL_H

#include <stdbool.h>
#include <stdint.h>

#include "web/credential.h"
#include "web/store.h"

enum {
    STORE_MAIL_ADDRESS_MAX = 254, /* an address's bytes (RFC 5321's path limit) */
    STORE_MAIL_SUBJECT_MAX = 200,
    STORE_MAIL_URL_MAX = 512,
};

/* The mails an account may ask for, each one column of its address's row. */
typedef enum MailKind {
    MAIL_MOVES,      /* "your move" in a correspondence game */
    MAIL_CHALLENGES, /* a challenge by name */
    MAIL_TIMEOUTS,   /* a game about to run out of time */
    MAIL_KINDS
} MailKind;

/* The kind's name in the API and the store ("moves", ...); NULL out of range. */
const char *mail_kind_name(MailKind k);
/* The kind of a name, or -1. */
int mail_kind_of(const char *name);

typedef struct StoreEmail {
    char address[STORE_MAIL_ADDRESS_MAX + 1]; /* "" when the account has none */
    bool verified;
    bool wants[MAIL_KINDS];
} StoreEmail;

/* The account's address and choices; address "" when it has none. */
Status store_email_get(Store *st, int64_t user, StoreEmail *out, ErrBuf *err);
/* Sets the account's address, unverified, its choices off, with a verification token
 * (token_hash) valid until `expires` (seconds since 1970); earlier verification tokens
 * go. */
Status store_email_set(Store *st, int64_t user, const char *address, const char *token_hash,
                       int64_t expires, ErrBuf *err);
/* Verifies the address a verification token was made for, once: STATUS_NOT_FOUND when
 * the token is unknown, used, expired, or its address is no longer the account's. */
Status store_email_verify(Store *st, const char *token_hash, int64_t now, ErrBuf *err);
/* Removes the account's address, its tokens and its unsent mails. */
Status store_email_remove(Store *st, int64_t user, ErrBuf *err);
/* Turns a kind of mail on or off for the account's address. */
Status store_email_want(Store *st, int64_t user, MailKind kind, bool on, ErrBuf *err);

/* A password reset token for the account with a verified address at `address` or with
 * the name whose key is name_key (either may be NULL); *user and *to (the address) when
 * there is one, STATUS_NOT_FOUND when not. */
Status store_reset_open(Store *st, const char *name_key, const char *address,
                        const char *token_hash, int64_t expires, int64_t *user,
                        char to[STORE_MAIL_ADDRESS_MAX + 1], ErrBuf *err);
/* Uses a reset token once: the account's password hash becomes `hash` and all its
 * sessions end; STATUS_NOT_FOUND when the token is unknown, used or expired. */
Status store_reset_use(Store *st, const char *token_hash, const char *hash, int64_t now,
                       ErrBuf *err);
/* Turns off the kind of mail an unsubscribe token was made for (any number of times
 * until it expires); STATUS_NOT_FOUND when the token is unknown or expired. */
Status store_unsubscribe(Store *st, const char *token_hash, int64_t now, ErrBuf *err);

/* A game whose running clock runs out by a time (for "about to run out of time"). */
typedef struct StoreFlagging {
    char id[SECRET_ID_LEN + 1];
    int players;
    int64_t flag_at; /* ms since 1970 (StoreStamp.flag_at) */
    char *meta;      /* malloc'd */
} StoreFlagging;
/* The unfinished games whose clock runs out by before_ms, soonest first, up to cap;
 * free each meta. */
Status store_games_flagging(Store *st, int64_t before_ms, StoreFlagging *out, int cap, int *n,
                            ErrBuf *err);
/* The token of a game's seat; STATUS_NOT_FOUND when there is none. */
Status store_seat_token(Store *st, const char *game_id, int seat,
                        char token[SECRET_TOKEN_LEN + 1], ErrBuf *err);

enum { STORE_MAIL_LANG_MAX = 8 };

/* The language the account's mails are written in ("ja"; "" when it never said, read as
 * English), and setting it (a code of language.h, from its page's language when it signs
 * in or chooses one). */
Status store_mail_lang(Store *st, int64_t user, char lang[STORE_MAIL_LANG_MAX], ErrBuf *err);
Status store_mail_set_lang(Store *st, int64_t user, const char *lang, ErrBuf *err);

/* A mail to queue. */
typedef struct StoreMail {
    const char *dedupe; /* at most one mail per key ever (a game's turn), or NULL */
    const char *to, *subject, *body;
    const char *unsubscribe; /* its unsubscribe link for List-Unsubscribe, or "" */
    /* With pace (a LIKE pattern of dedupe keys, NULL for none): not queued when a mail
     * of the same user with such a key was queued in the last pace_s seconds. */
    const char *pace;
    int pace_s;
} StoreMail;

/* The verified address of the account named `name` (any case) when it asked for `kind`:
 * *user and `to`; STATUS_NOT_FOUND when it has none or did not ask. */
Status store_mail_recipient(Store *st, const char *name, MailKind kind, int64_t *user,
                            char to[STORE_MAIL_ADDRESS_MAX + 1], ErrBuf *err);
/* Queues a mail with its unsubscribe token (for user's `kind`; NULL token_hash: none);
 * *queued false (and nothing written) when its dedupe key was queued before or its pace
 * holds it back. */
Status store_mail_queue(Store *st, const StoreMail *m, int64_t now, int64_t user,
                        MailKind kind, const char *token_hash, int64_t token_expires,
                        bool *queued, ErrBuf *err);

/* A queued mail claimed for sending; the strings malloc'd (store_mail_claimed_free). */
typedef struct StoreMailClaim {
    int64_t id;
    int tries; /* with this one */
    char *to, *subject, *body, *unsubscribe;
} StoreMailClaim;
/* Claims the oldest mail due at `now` for lease_s seconds (another process's claim
 * stands until then): STATUS_NOT_FOUND when none is due. */
Status store_mail_claim(Store *st, int64_t now, int lease_s, StoreMailClaim *out, ErrBuf *err);
void store_mail_claimed_free(StoreMailClaim *c);
/* A claimed mail went: its address and text are dropped, its dedupe key kept. */
Status store_mail_sent(Store *st, int64_t id, ErrBuf *err);
/* A claimed mail failed: tried again at next_try, or given up after max_tries. */
Status store_mail_failed(Store *st, int64_t id, int64_t next_try, int max_tries, ErrBuf *err);
/* Deletes the mails sent or given up before `before`, and the tokens expired by then. */
Status store_mail_purge(Store *st, int64_t before, ErrBuf *err);

#endif
