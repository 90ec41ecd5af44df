/*
 * store_passkey.c - passkeys and their challenges in the store (store_passkey.h): each
 * call a list of statements for store_run, the same text for SQLite and PostgreSQL.
 */
#include "web/store_passkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/store_backend.h"

static const char *text(const char *cell)
{
    return cell ? cell : "";
}

/* Row r of (id, user_id, cose, sign_count, name, created, last_used) into *out. */
static void read_passkey(const StoreRows *rows, int r, StorePasskey *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", text(store_cell(rows, r, 0)));
    out->user = strtoll(text(store_cell(rows, r, 1)), NULL, 10);
    snprintf(out->cose, sizeof out->cose, "%s", text(store_cell(rows, r, 2)));
    out->sign_count = (uint32_t)strtoul(text(store_cell(rows, r, 3)), NULL, 10);
    snprintf(out->name, sizeof out->name, "%s", text(store_cell(rows, r, 4)));
    out->created = strtoll(text(store_cell(rows, r, 5)), NULL, 10);
    out->last_used = strtoll(text(store_cell(rows, r, 6)), NULL, 10);
}

#define PASSKEY_COLUMNS "p.id, p.user_id, p.cose, p.sign_count, p.name, p.created, p.last_used"

Status store_passkey_add(Store *st, const StorePasskey *p, ErrBuf *err)
{
    char u[24], count[24], at[24];
    store_num(u, sizeof u, p->user);
    store_num(count, sizeof count, p->sign_count);
    store_num(at, sizeof at, p->created);
    const char *v[] = {p->id, u, p->cose, count, p->name, at};
    const StoreStmt m = {"INSERT INTO passkeys(id, user_id, cose, sign_count, name, created,"
                         " last_used) VALUES($1, $2, $3, $4, $5, $6, 0)"
                         " ON CONFLICT(id) DO NOTHING RETURNING id",
                         6, v, "this passkey is registered already"};
    const Status s = store_run(st, &m, 1, NULL, err);
    return s == STATUS_NOT_FOUND ? STATUS_CONFLICT : s;
}

Status store_passkey_get(Store *st, const char *id, StorePasskey *out, StoreUser *owner,
                         ErrBuf *err)
{
    const char *v[] = {id};
    const StoreStmt m = {"SELECT " PASSKEY_COLUMNS ", u.name, u.hash, u.created"
                         " FROM passkeys p JOIN users u"
                         " ON u.id=p.user_id WHERE p.id=$1 AND u.deleted=0",
                         1, v, "no such passkey"};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s == STATUS_OK) {
        read_passkey(&r, 0, out);
        memset(owner, 0, sizeof *owner);
        owner->id = out->user;
        snprintf(owner->name, sizeof owner->name, "%s", text(store_cell(&r, 0, 7)));
        snprintf(owner->hash, sizeof owner->hash, "%s", text(store_cell(&r, 0, 8)));
        owner->created = strtoll(text(store_cell(&r, 0, 9)), NULL, 10);
        store_rows_free(&r);
    }
    return s;
}

Status store_passkeys_of(Store *st, int64_t user, StorePasskey *out, int cap, int *n,
                         ErrBuf *err)
{
    *n = 0;
    char u[24], c[16];
    store_num(u, sizeof u, user);
    store_num(c, sizeof c, cap);
    const char *v[] = {u, c};
    const StoreStmt m = {"SELECT " PASSKEY_COLUMNS " FROM passkeys p WHERE p.user_id=$1"
                         " ORDER BY p.created, p.id LIMIT $2", 2, v, NULL};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < r.rows && i < cap; i++)
        read_passkey(&r, i, &out[(*n)++]);
    store_rows_free(&r);
    return STATUS_OK;
}

Status store_passkey_rename(Store *st, int64_t user, const char *id, const char *name,
                            ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *v[] = {id, u, name};
    const StoreStmt m = {"UPDATE passkeys SET name=$3 WHERE id=$1 AND user_id=$2", 3, v,
                         "you have no such passkey"};
    return store_run(st, &m, 1, NULL, err);
}

Status store_passkey_delete(Store *st, int64_t user, const char *id, ErrBuf *err)
{
    char u[24];
    store_num(u, sizeof u, user);
    const char *v[] = {id, u};
    const StoreStmt m = {"DELETE FROM passkeys WHERE id=$1 AND user_id=$2", 2, v,
                         "you have no such passkey"};
    return store_run(st, &m, 1, NULL, err);
}

Status store_passkey_used(Store *st, const char *id, uint32_t was, uint32_t now_count,
                          int64_t now, ErrBuf *err)
{
    char w[24], c[24], at[24];
    store_num(w, sizeof w, was);
    store_num(c, sizeof c, now_count);
    store_num(at, sizeof at, now);
    const char *v[] = {id, c, at, w};
    // The counter read before the check must still be the stored one: two sign-ins
    // with one counter (a clone's, a replay's) cannot both pass.
    const StoreStmt m = {"UPDATE passkeys SET sign_count=$2, last_used=$3"
                         " WHERE id=$1 AND sign_count=$4", 4, v,
                         "the passkey was used at the same time elsewhere"};
    const Status s = store_run(st, &m, 1, NULL, err);
    return s == STATUS_NOT_FOUND ? STATUS_CONFLICT : s;
}

static const char *use_name(StoreChallengeUse use)
{
    return use == STORE_CHALLENGE_REGISTER ? "register" : "sign-in";
}

Status store_challenge_put(Store *st, const char *challenge, StoreChallengeUse use,
                           int64_t user, const char *bound, int64_t now, int64_t expires,
                           ErrBuf *err)
{
    char u[24], at[24], until[24];
    store_num(u, sizeof u, user);
    store_num(at, sizeof at, now);
    store_num(until, sizeof until, expires);
    const char *old[] = {at};
    const char *v[] = {challenge, use_name(use), u, bound, until};
    const StoreStmt m[] = {
        {"DELETE FROM passkey_challenges WHERE expires<$1", 1, old, NULL},
        {"INSERT INTO passkey_challenges(challenge, purpose, user_id, bound, expires)"
         " VALUES($1, $2, $3, $4, $5)", 5, v, NULL},
    };
    return store_run(st, m, 2, NULL, err);
}

Status store_challenge_take(Store *st, const char *challenge, StoreChallengeUse use,
                            int64_t user, const char *bound, int64_t now, ErrBuf *err)
{
    char u[24], at[24];
    store_num(u, sizeof u, user);
    store_num(at, sizeof at, now);
    const char *v[] = {challenge, use_name(use), u, at, bound};
    const StoreStmt m = {"DELETE FROM passkey_challenges WHERE challenge=$1 AND purpose=$2"
                         " AND user_id=$3 AND expires>=$4 AND bound=$5 RETURNING challenge", 5, v,
                         "the challenge is used, expired or not this server's: start again"};
    StoreRows r;
    const Status s = store_run(st, &m, 1, &r, err);
    if (s == STATUS_OK)
        store_rows_free(&r);
    return s;
}
