/*
 * loginlimit.h - how often a password may be guessed: per account and per client
 * address, a few failures are free, then each further one locks the key out for twice
 * as long as the last (1 s, 2 s, 4 s, ... up to a quarter of an hour). A success clears
 * the account's count; an hour without failures forgets a key. The table is bounded:
 * when full, the key whose last failure is oldest gives way.
 */
#ifndef CROWN_WEB_LOGINLIMIT_H
#define CROWN_WEB_LOGINLIMIT_H

#include <stdint.h>

typedef struct LoginLimit LoginLimit;

/* free_tries: the failures a key has before its first lock-out. */
LoginLimit *loginlimit_new(int free_tries);
void loginlimit_free(LoginLimit *l);
/* 0 when `key` may try now, else the seconds until it may. */
int loginlimit_wait(LoginLimit *l, const char *key, int64_t now_ms);
/* Counts a failure of `key`. */
void loginlimit_fail(LoginLimit *l, const char *key, int64_t now_ms);
/* Forgets `key` (its owner signed in). */
void loginlimit_clear(LoginLimit *l, const char *key);

/* The rule itself, for counts kept elsewhere (a shared store, store_account.h): how
 * long a key with `fails` failures is locked out after the last (ms, 0: not at all),
 * and how long a key without failures is remembered. */
int64_t loginlimit_lock_ms(int fails, int free_tries);
#define LOGINLIMIT_FORGET_MS ((int64_t)3600 * 1000)

#endif
