/*
 * mail.h - what the server mails, and when: the link that verifies an address, the link
 * that resets a password, and the mails an account asked for ("your move" in a
 * correspondence game, a challenge, a game about to run out of time), each of those with
 * a one-click unsubscribe link; each in the language the account last read the app in.
 * Each is queued in the store (store_mail.h) for the sender (mailer.h), so a request
 * never waits for an SMTP server. The links carry
 * single-use random tokens the store keeps only as hashes, with an expiry. Without
 * --smtp, nothing is queued and mail_on says so.
 */
#ifndef CROWN_WEB_MAIL_H
#define CROWN_WEB_MAIL_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/status.h"

typedef struct Server Server;
typedef struct Session Session;

/* How long a link lasts, in days of --day-seconds (a day but in tests): a verification
 * link a day, a password reset link an hour, an unsubscribe link a year. */
#define MAIL_VERIFY_DAYS 1.0
#define MAIL_RESET_DAYS (1.0 / 24)
#define MAIL_UNSUBSCRIBE_DAYS 365.0

/* Remembers the language of a request (its crown_lang cookie, else its Accept-Language;
 * language.h) as the one user's mails are written in; nothing when it says neither or
 * when it is `known`, the one the store has (StoreUser.lang). */
void mail_remember_language(Server *srv, int64_t user, const char *known, const char *cookie,
                            const char *accept_language);
/* Whether the server sends mail (--smtp given). */
bool mail_on(const Server *srv);
/* The account's mail settings as the API shows them: {"mail": whether the server sends
 * any, "address": A or null, "verified", "notify": {"moves", "challenges", "timeouts"}};
 * NULL when the store cannot say. */
json_t *mail_settings_json(Server *srv, int64_t user);
/* Why `address` is not one we send to (length, shape, characters that would break a
 * mail's headers), or NULL. */
const char *mail_address_refusal(const char *address);
/* Sets the account's address (unverified) and queues the mail with its verification
 * link: one a minute at most, like the reset links, so that nobody's mailbox can be
 * filled by asking again and again. */
Status mail_verification(Server *srv, int64_t user, const char *name, const char *address,
                         ErrBuf *err);
/* Queues a password reset link to the verified address of the account named `who` or
 * whose address `who` is; nothing when there is none, which the caller must not tell
 * apart (STATUS_OK both ways). */
Status mail_reset(Server *srv, const char *who, ErrBuf *err);
/* After `seat` moved in s: when the game plays days per move and the turn passed to a
 * seat whose account asked for it, "your move", at most once per turn (the dedupe key
 * is the game and the actions played when the turn came, so a turn taken back and
 * played again is not mailed twice). Takes s->mu; the caller does not hold it. */
void mail_turn(Server *srv, Session *s, int seat);
/* "About to run out of time": for each game of days per move whose running clock has a
 * quarter of its time per move left or less, a mail to the account to move when it
 * asked for it, once per turn (the key is the game and when the flag would fall). The
 * housekeeping calls it; every process may, the key keeps it to one mail. */
void mail_timeouts(Server *srv);
/* How often mail_timeouts is worth calling: a minute of a day of --day-seconds, at
 * least 200 ms. */
int64_t mail_timeouts_period_ms(const Server *srv);
/* A challenge to the account named `to` from `from` in `game` (its registry name; the
 * mail says it in the recipient's language), with the link
 * that answers it, when that account asked for challenges' mails; at most once per key. */
Status mail_challenge(Server *srv, const char *to, const char *from, const char *game,
                      const char *path, const char *key, ErrBuf *err);

#endif
