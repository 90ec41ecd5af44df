/*
 * store_mail.c - addresses, mail tokens and the mail queue in the store (store_mail.h):
 * each call a list of statements for store_run, the same text for SQLite and PostgreSQL.
 * A kind of mail is a column of user_emails; its statements are chosen from fixed
 * tables, never built from a request's text.
 */
#include "web/store_mail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/store_backend.h"

static const char *const KIND_NAMES[MAIL_KINDS] = {"moves", "challenges", "timeouts"};

const char *mail_kind_name(MailKind k)
{
    return k >= 0 && k < MAIL_KINDS ? KIND_NAMES[k] : NULL;
}

int mail_kind_of(const char *name)
{
    for (int k = 0; k < MAIL_KINDS; k++)
        if (name != NULL && strcmp(name, KIND_NAMES[k]) == 0)
            return k;
    return -1;
}

static bool truthy(const char *cell)
{
    return cell != NULL && strcmp(cell, "0") != 0 && strcmp(cell, "f") != 0 &&
           strcmp(cell, "") != 0;
}

/* Runs m, whose first row is an account's id and an address, into *user and to. */
static Status run_recipient(Store *st, const StoreStmt *m, int64_t *user,
                            char to[STORE_MAIL_ADDRESS_MAX + 1], ErrBuf *err)
{
    StoreRows r;
    const Status s = store_run(st, m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    const char *id = store_cell(&r, 0, 0), *a = store_cell(&r, 0, 1);
    *user = id ? strtoll(id, NULL, 10) : 0;
    snprintf(to, STORE_MAIL_ADDRESS_MAX + 1, "%s", a ? a : "");
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_email_get(Store *st, int64_t user, StoreEmail *out, ErrBuf *err)
{
    memset(out, 0, sizeof *out);
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u};
    const StoreStmt m = {"SELECT address, verified, moves, challenges, timeouts FROM user_emails"
                         " WHERE user_id=$1", 1, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    if (r.rows > 0) {
        const char *a = store_cell(&r, 0, 0);
        snprintf(out->address, sizeof out->address, "%s", a ? a : "");
        out->verified = truthy(store_cell(&r, 0, 1));
        for (int k = 0; k < MAIL_KINDS; k++)
            out->wants[k] = truthy(store_cell(&r, 0, 2 + k));
    }
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_mail_lang(Store *st, int64_t user, char lang[STORE_MAIL_LANG_MAX], ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u};
    const StoreStmt m = {"SELECT lang FROM users WHERE id=$1", 1, p, NULL};
    StoreRows r;
    lang[0] = '\0';
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    const char *l = r.rows > 0 ? store_cell(&r, 0, 0) : NULL;
    snprintf(lang, STORE_MAIL_LANG_MAX, "%s", l ? l : "");
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_mail_set_lang(Store *st, int64_t user, const char *lang, ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u, lang};
    // Written only when it changes: a page's every visit asks.
    const StoreStmt m = {"UPDATE users SET lang=$2 WHERE id=$1 AND lang<>$2", 2, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_email_set(Store *st, int64_t user, const char *address, const char *token_hash,
                       int64_t expires, ErrBuf *err)
{
    char u[24], until[24];
    store_num(u, sizeof u, user);
    store_num(until, sizeof until, expires);
    const char *p[] = {u};
    const char *a[] = {u, address};
    const char *t[] = {token_hash, u, address, until};
    // A new address starts over: unverified, nothing asked for, its mails unsent dropped.
    const StoreStmt m[] = {
        {"DELETE FROM mail_tokens WHERE user_id=$1 AND kind='verify'", 1, p, NULL},
        {"DELETE FROM mail_queue WHERE user_id=$1 AND state=0", 1, p, NULL},
        {"DELETE FROM user_emails WHERE user_id=$1", 1, p, NULL},
        {"INSERT INTO user_emails(user_id, address) VALUES($1, $2)", 2, a, NULL},
        {"INSERT INTO mail_tokens(hash, user_id, kind, what, expires)"
         " VALUES($1, $2, 'verify', $3, $4)", 4, t, NULL},
    };
    return store_run(st, m, 5, NULL, err);
}

Status store_email_verify(Store *st, const char *token_hash, int64_t now, ErrBuf *err)
{
    char at[24];
    store_num(at, sizeof at, now);
    const char *p[] = {token_hash, at};
    const char *q[] = {token_hash};
    const StoreStmt m[] = {
        {"UPDATE user_emails SET verified=1 WHERE (user_id, address) IN"
         " (SELECT user_id, what FROM mail_tokens WHERE hash=$1 AND kind='verify'"
         " AND expires>=$2)", 2, p, "the link is used, expired or for another address"},
        {"DELETE FROM mail_tokens WHERE hash=$1", 1, q, NULL},
    };
    return store_run(st, m, 2, NULL, err);
}

Status store_email_remove(Store *st, int64_t user, ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u};
    const StoreStmt m[] = {
        {"DELETE FROM mail_queue WHERE user_id=$1 AND state=0", 1, p, NULL},
        {"DELETE FROM mail_tokens WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM user_emails WHERE user_id=$1", 1, p, NULL},
    };
    return store_run(st, m, 3, NULL, err);
}

Status store_email_want(Store *st, int64_t user, MailKind kind, bool on, ErrBuf *err)
{
    static const char *const SQL[MAIL_KINDS] = {
        "UPDATE user_emails SET moves=$2 WHERE user_id=$1",
        "UPDATE user_emails SET challenges=$2 WHERE user_id=$1",
        "UPDATE user_emails SET timeouts=$2 WHERE user_id=$1",
    };
    if (kind < 0 || kind >= MAIL_KINDS)
        return err_set(err, STATUS_PARSE, "no such kind of mail");
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u, on ? "1" : "0"};
    const StoreStmt m = {SQL[kind], 2, p, "add an e-mail address first"};
    return store_run(st, &m, 1, NULL, err);
}

Status store_reset_open(Store *st, const char *name_key, const char *address,
                        const char *token_hash, int64_t expires, int64_t *user,
                        char to[STORE_MAIL_ADDRESS_MAX + 1], ErrBuf *err)
{
    char until[24];
    store_num(until, sizeof until, expires);
    const char *p[] = {token_hash, until, name_key, address};
    // The token row keeps the address it goes to (`what`), which the caller mails.
    const StoreStmt m = {"INSERT INTO mail_tokens(hash, user_id, kind, what, expires)"
                         " SELECT $1, u.id, 'reset', e.address, $2 FROM users u"
                         " JOIN user_emails e ON e.user_id=u.id"
                         " WHERE e.verified=1 AND u.deleted=0"
                         " AND (u.name_key=$3 OR lower(e.address)=lower($4))"
                         " ORDER BY u.id LIMIT 1 RETURNING user_id, what",
                         4, p, "no such account"};
    return run_recipient(st, &m, user, to, err);
}

Status store_reset_use(Store *st, const char *token_hash, const char *hash, int64_t now,
                       ErrBuf *err)
{
    char at[24];
    store_num(at, sizeof at, now);
    const char *p[] = {token_hash, at, hash};
    const char *q[] = {token_hash, at};
    const char *d[] = {token_hash};
#define RESET_USER                                                                      \
    "(SELECT user_id FROM mail_tokens WHERE hash=$1 AND kind='reset' AND expires>=$2)"
    // A new password ends every session, as a change of password does (but none is kept).
    const StoreStmt m[] = {
        {"UPDATE users SET hash=$3 WHERE deleted=0 AND id=" RESET_USER, 3, p,
         "the link is used or expired: ask for another"},
        {"DELETE FROM user_sessions WHERE user_id=" RESET_USER, 2, q, NULL},
        {"DELETE FROM mail_tokens WHERE kind='reset' AND user_id=" RESET_USER, 2, q, NULL},
        {"DELETE FROM mail_tokens WHERE hash=$1", 1, d, NULL},
    };
#undef RESET_USER
    return store_run(st, m, 4, NULL, err);
}

Status store_unsubscribe(Store *st, const char *token_hash, int64_t now, ErrBuf *err)
{
    static const char *const SQL[MAIL_KINDS] = {
        "UPDATE user_emails SET moves=0 WHERE user_id IN (SELECT user_id FROM mail_tokens"
        " WHERE hash=$1 AND kind='unsub' AND what='moves' AND expires>=$2)",
        "UPDATE user_emails SET challenges=0 WHERE user_id IN (SELECT user_id FROM mail_tokens"
        " WHERE hash=$1 AND kind='unsub' AND what='challenges' AND expires>=$2)",
        "UPDATE user_emails SET timeouts=0 WHERE user_id IN (SELECT user_id FROM mail_tokens"
        " WHERE hash=$1 AND kind='unsub' AND what='timeouts' AND expires>=$2)",
    };
    char at[24];
    store_num(at, sizeof at, now);
    const char *p[] = {token_hash, at};
    const StoreStmt find = {"SELECT what FROM mail_tokens WHERE hash=$1 AND kind='unsub'"
                            " AND expires>=$2", 2, p, "the link is unknown or expired"};
    StoreRows r;
    Status s = store_run(st, &find, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    const int kind = mail_kind_of(store_cell(&r, 0, 0));
    store_rows_free(&r);
    if (kind < 0)
        return err_set(err, STATUS_NOT_FOUND, "the link is unknown or expired");
    // A second click finds it off already: that is the answer it wants, not an error.
    const StoreStmt m = {SQL[kind], 2, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_mail_recipient(Store *st, const char *name, MailKind kind, int64_t *user,
                            char to[STORE_MAIL_ADDRESS_MAX + 1], ErrBuf *err)
{
    static const char *const SQL[MAIL_KINDS] = {
        "SELECT u.id, e.address FROM users u JOIN user_emails e ON e.user_id=u.id"
        " WHERE u.name_key=$1 AND u.deleted=0 AND e.verified=1 AND e.moves=1",
        "SELECT u.id, e.address FROM users u JOIN user_emails e ON e.user_id=u.id"
        " WHERE u.name_key=$1 AND u.deleted=0 AND e.verified=1 AND e.challenges=1",
        "SELECT u.id, e.address FROM users u JOIN user_emails e ON e.user_id=u.id"
        " WHERE u.name_key=$1 AND u.deleted=0 AND e.verified=1 AND e.timeouts=1",
    };
    if (kind < 0 || kind >= MAIL_KINDS)
        return err_set(err, STATUS_PARSE, "no such kind of mail");
    char key[CREDENTIAL_NAME_MAX + 1];
    credential_name_key(name, key, sizeof key);
    const char *p[] = {key};
    const StoreStmt m = {SQL[kind], 1, p, "no address for this mail"};
    return run_recipient(st, &m, user, to, err);
}

Status store_mail_queue(Store *st, const StoreMail *m, int64_t now, int64_t user,
                        MailKind kind, const char *token_hash, int64_t token_expires,
                        bool *queued, ErrBuf *err)
{
    *queued = false;
    char at[24], u[24], until[24], since[24];
    store_num(at, sizeof at, now);
    store_num(u, sizeof u, user);
    store_num(until, sizeof until, token_expires);
    store_num(since, sizeof since, now - m->pace_s);
    const char *q[] = {m->dedupe, user > 0 ? u : NULL, m->to, m->subject, m->body,
                       m->unsubscribe ? m->unsubscribe : "", at, m->pace ? m->pace : "", since};
    const char *t[] = {token_hash, u, mail_kind_name(kind), until};
    // The mail first: a key queued before, or a pace not yet run out, leaves the whole
    // call undone, token and all.
    const StoreStmt s[] = {
        {"INSERT INTO mail_queue(dedupe, user_id, address, subject, body, unsubscribe,"
         " created, next_try) SELECT $1, $2, $3, $4, $5, $6, $7, $7 WHERE NOT EXISTS"
         " (SELECT 1 FROM mail_queue WHERE $8<>'' AND user_id=$2 AND dedupe LIKE $8"
         " AND created>$9) ON CONFLICT(dedupe) DO NOTHING RETURNING id", 9, q, "queued before"},
        {"INSERT INTO mail_tokens(hash, user_id, kind, what, expires)"
         " VALUES($1, $2, 'unsub', $3, $4)", 4, t, NULL},
    };
    const Status r = store_run(st, s, token_hash ? 2 : 1, NULL, err);
    if (r == STATUS_NOT_FOUND)
        return STATUS_OK;
    *queued = r == STATUS_OK;
    return r;
}

Status store_games_flagging(Store *st, int64_t before_ms, StoreFlagging *out, int cap, int *n,
                            ErrBuf *err)
{
    *n = 0;
    char at[24], c[16];
    store_num(at, sizeof at, before_ms);
    store_num(c, sizeof c, cap);
    const char *p[] = {at, c};
    const StoreStmt m = {"SELECT id, players, flag_at, meta FROM games WHERE flag_at>0"
                         " AND flag_at<=$1 AND finished=0 ORDER BY flag_at LIMIT $2",
                         2, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && *n < cap; i++) {
        const char *id = store_cell(&r, i, 0), *players = store_cell(&r, i, 1);
        const char *flag = store_cell(&r, i, 2), *meta = store_cell(&r, i, 3);
        StoreFlagging *o = &out[*n];
        snprintf(o->id, sizeof o->id, "%s", id ? id : "");
        o->players = players ? atoi(players) : 0;
        o->flag_at = flag ? strtoll(flag, NULL, 10) : 0;
        o->meta = strdup(meta ? meta : "{}");
        if (o->meta != NULL)
            (*n)++;
    }
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_seat_token(Store *st, const char *game_id, int seat,
                        char token[SECRET_TOKEN_LEN + 1], ErrBuf *err)
{
    char k[16];
    store_num(k, sizeof k, seat);
    const char *p[] = {game_id, k};
    const StoreStmt m = {"SELECT token FROM seats WHERE game_id=$1 AND seat=$2", 2, p,
                         "no such seat"};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    const char *t = store_cell(&r, 0, 0);
    snprintf(token, SECRET_TOKEN_LEN + 1, "%s", t ? t : "");
    store_rows_free(&r);
    return STATUS_OK;
}

static char *dup_cell(const StoreRows *r, int c)
{
    const char *v = store_cell(r, 0, c);
    return strdup(v ? v : "");
}

Status store_mail_claim(Store *st, int64_t now, int lease_s, StoreMailClaim *out, ErrBuf *err)
{
    memset(out, 0, sizeof *out);
    char at[24], until[24];
    store_num(at, sizeof at, now);
    store_num(until, sizeof until, now + lease_s);
    const char *p[] = {at, until};
    // The lease is checked again on the row itself, so two processes that picked the
    // same mail do not both send it: the second's update finds it leased.
    const StoreStmt m = {"UPDATE mail_queue SET lease_until=$2, tries=tries+1"
                         " WHERE state=0 AND lease_until<$1 AND id=(SELECT id FROM mail_queue"
                         " WHERE state=0 AND next_try<=$1 AND lease_until<$1 ORDER BY id LIMIT 1)"
                         " RETURNING id, tries, address, subject, body, unsubscribe",
                         2, p, "no mail due"};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    const char *id = store_cell(&r, 0, 0), *tries = store_cell(&r, 0, 1);
    out->id = id ? strtoll(id, NULL, 10) : 0;
    out->tries = tries ? atoi(tries) : 1;
    out->to = dup_cell(&r, 2);
    out->subject = dup_cell(&r, 3);
    out->body = dup_cell(&r, 4);
    out->unsubscribe = dup_cell(&r, 5);
    store_rows_free(&r);
    if (!out->to || !out->subject || !out->body || !out->unsubscribe) {
        store_mail_claimed_free(out);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    return STATUS_OK;
}

void store_mail_claimed_free(StoreMailClaim *c)
{
    free(c->to);
    free(c->subject);
    free(c->body);
    free(c->unsubscribe);
    memset(c, 0, sizeof *c);
}

Status store_mail_sent(Store *st, int64_t id, ErrBuf *err)
{
    char i[24];
    store_num(i, sizeof i, id);
    const char *p[] = {i};
    const StoreStmt m = {"UPDATE mail_queue SET state=1, address='', body='', unsubscribe=''"
                         " WHERE id=$1", 1, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_mail_failed(Store *st, int64_t id, int64_t next_try, int max_tries, ErrBuf *err)
{
    char i[24], at[24], most[16];
    store_num(i, sizeof i, id);
    store_num(at, sizeof at, next_try);
    store_num(most, sizeof most, max_tries);
    const char *p[] = {i, at, most};
    const StoreStmt m = {"UPDATE mail_queue SET next_try=$2, lease_until=0,"
                         " state=CASE WHEN tries>=$3 THEN 2 ELSE 0 END WHERE id=$1",
                         3, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_mail_purge(Store *st, int64_t before, ErrBuf *err)
{
    char at[24];
    store_num(at, sizeof at, before);
    const char *p[] = {at};
    const StoreStmt m[] = {
        {"DELETE FROM mail_queue WHERE state<>0 AND created<$1", 1, p, NULL},
        {"DELETE FROM mail_tokens WHERE expires<$1", 1, p, NULL},
    };
    return store_run(st, m, 2, NULL, err);
}
