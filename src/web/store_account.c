/*
 * store_account.c - accounts, sessions and seats in the store (store_account.h): each
 * call a list of statements for store_run, the same text for SQLite and PostgreSQL.
 */
#include "web/store_account.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/loginlimit.h"
#include "web/store_backend.h"

/* Reads a user row (id, name, hash, created, lang) into *out. */
static void read_user(const StoreRows *r, StoreUser *out)
{
    memset(out, 0, sizeof *out);
    const char *id = store_cell(r, 0, 0), *name = store_cell(r, 0, 1);
    const char *hash = store_cell(r, 0, 2), *created = store_cell(r, 0, 3);
    out->id = id ? strtoll(id, NULL, 10) : 0;
    snprintf(out->name, sizeof out->name, "%s", name ? name : "");
    snprintf(out->hash, sizeof out->hash, "%s", hash ? hash : "");
    out->created = created ? strtoll(created, NULL, 10) : 0;
    const char *lang = r->cols > 4 ? store_cell(r, 0, 4) : NULL;
    snprintf(out->lang, sizeof out->lang, "%s", lang ? lang : "");
}

/* Runs stmts and reads the last one's first row as a user. */
static Status run_user(Store *st, const StoreStmt *stmts, int n, StoreUser *out, ErrBuf *err)
{
    StoreRows r;
    const Status s = store_run(st, stmts, n, &r, err);
    if (s == STATUS_OK) {
        read_user(&r, out);
        store_rows_free(&r);
    }
    return s;
}

Status store_user_create(Store *st, const char *name, const char *hash, int64_t now,
                         StoreUser *out, ErrBuf *err)
{
    char key[CREDENTIAL_NAME_MAX + 1], at[24];
    credential_name_key(name, key, sizeof key);
    store_num(at, sizeof at, now);
    const char *p[] = {name, key, hash, at};
    const StoreStmt m = {"INSERT INTO users(name, name_key, hash, created) VALUES($1, $2, $3, $4)"
                         " ON CONFLICT(name_key) DO NOTHING RETURNING id, name, hash, created, lang",
                         4, p, "that name is taken: choose another"};
    const Status s = run_user(st, &m, 1, out, err);
    return s == STATUS_NOT_FOUND ? STATUS_CONFLICT : s;
}

Status store_user_by_name(Store *st, const char *name, StoreUser *out, ErrBuf *err)
{
    char key[CREDENTIAL_NAME_MAX + 1];
    credential_name_key(name, key, sizeof key);
    const char *p[] = {key};
    const StoreStmt m = {"SELECT id, name, hash, created, lang FROM users WHERE name_key=$1"
                         " AND deleted=0", 1, p, "no such player"};
    return run_user(st, &m, 1, out, err);
}

Status store_session_open(Store *st, int64_t user, const char *session_hash, int64_t now,
                          ErrBuf *err)
{
    char u[24], at[24];
    store_num(u, sizeof u, user);
    store_num(at, sizeof at, now);
    const char *p[] = {session_hash, u, at};
    const StoreStmt m = {"INSERT INTO user_sessions(hash, user_id, created) VALUES($1, $2, $3)",
                         3, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_session_user(Store *st, const char *session_hash, int64_t since, StoreUser *out,
                          ErrBuf *err)
{
    char at[24];
    store_num(at, sizeof at, since);
    const char *p[] = {session_hash, at};
    const StoreStmt m = {"SELECT u.id, u.name, u.hash, u.created, u.lang FROM user_sessions s"
                         " JOIN users u ON u.id=s.user_id"
                         " WHERE s.hash=$1 AND s.created>=$2 AND u.deleted=0",
                         2, p, "not signed in"};
    return run_user(st, &m, 1, out, err);
}

Status store_session_close(Store *st, const char *session_hash, ErrBuf *err)
{
    const char *p[] = {session_hash};
    const StoreStmt m = {"DELETE FROM user_sessions WHERE hash=$1", 1, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_sessions_expire(Store *st, int64_t before, ErrBuf *err)
{
    char at[24];
    store_num(at, sizeof at, before);
    const char *p[] = {at};
    const StoreStmt m = {"DELETE FROM user_sessions WHERE created<$1", 1, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_sessions_close_all(Store *st, int64_t user, const char *keep, ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u, keep ? keep : ""};
    const StoreStmt m = {"DELETE FROM user_sessions WHERE user_id=$1 AND hash<>$2", 2, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}

Status store_user_set_hash(Store *st, int64_t user, const char *hash, const char *keep,
                           ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u, hash};
    const char *q[] = {u, keep ? keep : ""};
    const StoreStmt m[] = {
        {"UPDATE users SET hash=$2 WHERE id=$1 AND deleted=0", 2, p, "no such player"},
        {"DELETE FROM user_sessions WHERE user_id=$1 AND hash<>$2", 2, q, NULL},
    };
    return store_run(st, m, 2, NULL, err);
}

Status store_user_delete(Store *st, int64_t user, ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *p[] = {u};
    // The row stays for its seats; what said who the player was goes: his passkeys, seeks
    // and challenges (which name him), puzzle ratings, and the e-mail address, its tokens'
    // hashes and its mails not sent yet with it (store_mail.h).
    const StoreStmt m[] = {
        {"DELETE FROM user_sessions WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM ratings WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM passkeys WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM offers WHERE from_user=$1 OR to_user=$1", 1, p, NULL},
        {"DELETE FROM puzzle_ratings WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM puzzle_attempts WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM mail_queue WHERE user_id=$1 AND state=0", 1, p, NULL},
        {"DELETE FROM mail_tokens WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM user_emails WHERE user_id=$1", 1, p, NULL},
        {"DELETE FROM rating_history WHERE user_id=$1", 1, p, NULL},
        {"UPDATE users SET name=NULL, name_key=NULL, hash='', deleted=1 WHERE id=$1"
         " AND deleted=0", 1, p, "no such player"},
    };
    return store_run(st, m, (int)(sizeof m / sizeof m[0]), NULL, err);
}

Status store_user_seat(Store *st, int64_t user, const char *game_id, int seat, ErrBuf *err)
{
    char u[24], k[16];
    store_num(u, sizeof u, user);
    store_num(k, sizeof k, seat);
    const char *p[] = {u, game_id, k};
    const StoreStmt m = {"UPDATE seats SET user_id=$1 WHERE game_id=$2 AND seat=$3", 3, p,
                         "no such game"};
    return store_run(st, &m, 1, NULL, err);
}

Status store_user_seats(Store *st, int64_t user, StoreUserSeat *out, int cap, int *n,
                        ErrBuf *err)
{
    *n = 0;
    char u[24], c[16];
    store_num(u, sizeof u, user);
    store_num(c, sizeof c, cap);
    const char *p[] = {u, c};
    const StoreStmt m = {"SELECT s.game_id, s.seat, g.game, s.token, g.created FROM seats s"
                         " JOIN games g ON g.id=s.game_id WHERE s.user_id=$1"
                         " ORDER BY g.created DESC, s.game_id, s.seat LIMIT $2", 2, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++) {
        StoreUserSeat *o = &out[(*n)++];
        const char *seat = store_cell(&r, i, 1), *created = store_cell(&r, i, 4);
        snprintf(o->game_id, sizeof o->game_id, "%s", store_cell(&r, i, 0) ? store_cell(&r, i, 0) : "");
        o->seat = seat ? atoi(seat) : 0;
        snprintf(o->game, sizeof o->game, "%s", store_cell(&r, i, 2) ? store_cell(&r, i, 2) : "");
        snprintf(o->token, sizeof o->token, "%s", store_cell(&r, i, 3) ? store_cell(&r, i, 3) : "");
        o->created = created ? strtoll(created, NULL, 10) : 0;
    }
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_login_until(Store *st, const char *key, int64_t *until_ms, ErrBuf *err)
{
    *until_ms = 0;
    const char *p[] = {key};
    const StoreStmt m = {"SELECT until_ms FROM login_failures WHERE key=$1", 1, p, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s == STATUS_OK && store_cell(&r, 0, 0) != NULL)
        *until_ms = strtoll(store_cell(&r, 0, 0), NULL, 10);
    if (s == STATUS_OK)
        store_rows_free(&r);
    return s;
}

Status store_login_fail(Store *st, const char *key, int free_tries, int64_t now_ms,
                        ErrBuf *err)
{
    char now[24], stale[24];
    store_num(now, sizeof now, now_ms);
    store_num(stale, sizeof stale, now_ms - LOGINLIMIT_FORGET_MS);
    const char *d[] = {stale, now};
    const char *p[] = {key, now};
    // The count goes up in the database, so that two processes' failures both count;
    // the lock-out follows from the count (a second write: a race between the two
    // only ever keeps the longer lock).
    const StoreStmt m[] = {
        {"DELETE FROM login_failures WHERE last_ms<$1 AND until_ms<=$2", 2, d, NULL},
        {"INSERT INTO login_failures(key, fails, last_ms, until_ms) VALUES($1, 1, $2, 0)"
         " ON CONFLICT(key) DO UPDATE SET fails=login_failures.fails+1, last_ms=excluded.last_ms"
         " RETURNING fails", 2, p, NULL},
    };
    StoreRows r;
    Status s = store_run(st, m, 2, &r, err);
    if (s != STATUS_OK)
        return s;
    const int fails = store_cell(&r, 0, 0) ? atoi(store_cell(&r, 0, 0)) : 1;
    store_rows_free(&r);
    const int64_t lock = loginlimit_lock_ms(fails, free_tries);
    if (lock == 0)
        return STATUS_OK;
    char until[24];
    store_num(until, sizeof until, now_ms + lock);
    const char *q[] = {key, until};
    const StoreStmt u = {"UPDATE login_failures SET until_ms=$2 WHERE key=$1 AND until_ms<$2",
                         2, q, NULL};
    return store_run(st, &u, 1, NULL, err);
}

Status store_login_clear(Store *st, const char *key, ErrBuf *err)
{
    const char *p[] = {key};
    const StoreStmt m = {"DELETE FROM login_failures WHERE key=$1", 1, p, NULL};
    return store_run(st, &m, 1, NULL, err);
}
