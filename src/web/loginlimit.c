/*
 * loginlimit.c - failed sign-ins per key with growing lock-outs (loginlimit.h), in a
 * fixed table searched whole: a sign-in costs an argon2 hash, beside which a scan of a
 * few thousand short keys is nothing.
 */
#include "web/loginlimit.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    LOGIN_KEYS = 4096,
    LOGIN_KEY_LEN = 72,
    LOGIN_MAX_LOCK_S = 900,
};

typedef struct Entry {
    char key[LOGIN_KEY_LEN];
    int fails;
    int64_t last_ms;  /* the last failure */
    int64_t until_ms; /* locked out until then */
} Entry;

struct LoginLimit {
    pthread_mutex_t mu;
    int free_tries;
    Entry e[LOGIN_KEYS];
};

LoginLimit *loginlimit_new(int free_tries)
{
    LoginLimit *l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    pthread_mutex_init(&l->mu, NULL);
    l->free_tries = free_tries > 0 ? free_tries : 1;
    return l;
}

void loginlimit_free(LoginLimit *l)
{
    if (l == NULL)
        return;
    pthread_mutex_destroy(&l->mu);
    free(l);
}

/* The key's entry, or NULL; an entry forgotten by age is cleared on the way. */
static Entry *find(LoginLimit *l, const char *key, int64_t now_ms)
{
    for (int i = 0; i < LOGIN_KEYS; i++) {
        Entry *e = &l->e[i];
        if (e->key[0] && now_ms - e->last_ms > LOGINLIMIT_FORGET_MS && now_ms >= e->until_ms)
            e->key[0] = '\0';
        if (e->key[0] && strncmp(e->key, key, LOGIN_KEY_LEN - 1) == 0)
            return e;
    }
    return NULL;
}

int loginlimit_wait(LoginLimit *l, const char *key, int64_t now_ms)
{
    pthread_mutex_lock(&l->mu);
    const Entry *e = find(l, key, now_ms);
    const int64_t left = e && e->until_ms > now_ms ? e->until_ms - now_ms : 0;
    pthread_mutex_unlock(&l->mu);
    return (int)((left + 999) / 1000);
}

void loginlimit_fail(LoginLimit *l, const char *key, int64_t now_ms)
{
    pthread_mutex_lock(&l->mu);
    Entry *e = find(l, key, now_ms);
    if (e == NULL) {
        e = &l->e[0];
        for (int i = 0; i < LOGIN_KEYS && e->key[0]; i++)
            if (!l->e[i].key[0] || l->e[i].last_ms < e->last_ms)
                e = &l->e[i];
        memset(e, 0, sizeof *e);
        snprintf(e->key, sizeof e->key, "%s", key);
    }
    e->fails++;
    e->last_ms = now_ms;
    const int64_t lock = loginlimit_lock_ms(e->fails, l->free_tries);
    if (lock > 0)
        e->until_ms = now_ms + lock;
    pthread_mutex_unlock(&l->mu);
}

int64_t loginlimit_lock_ms(int fails, int free_tries)
{
    const int over = fails - (free_tries > 0 ? free_tries : 1);
    if (over < 0)
        return 0;
    const int64_t lock_s = over >= 10 ? LOGIN_MAX_LOCK_S : (int64_t)1 << over;
    return (lock_s < LOGIN_MAX_LOCK_S ? lock_s : LOGIN_MAX_LOCK_S) * 1000;
}

void loginlimit_clear(LoginLimit *l, const char *key)
{
    pthread_mutex_lock(&l->mu);
    Entry *e = find(l, key, 0);
    if (e != NULL)
        e->key[0] = '\0';
    pthread_mutex_unlock(&l->mu);
}
