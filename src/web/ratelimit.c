/*
 * ratelimit.c - token buckets in a fixed-size open hash table keyed by address. When the
 * table is full, the bucket idle longest is reused: a full bucket (the state of an idle
 * address) forgets nothing worth keeping, so the memory stays bounded whatever the
 * number of clients.
 *
 * A limiter made with ratelimit_new_window counts instead what each address did in a
 * sliding window (the creates of the last hour), in a minute's steps so that its memory
 * stays bounded however high the limit: PostgreSQL's count of the same limit is a
 * sliding window too (store_count_create), and both stores must say the same thing,
 * "try again when the oldest of the hour's creates leaves the hour".
 */
#include "web/ratelimit.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

enum { RL_SLOTS = 1024, RL_ADDR_LEN = 64 };

typedef struct Bucket {
    char addr[RL_ADDR_LEN];
    double tokens;
    int64_t last_ms;
} Bucket;

enum { WIN_STEPS = 60 };

/* One address's counts in a window: count[i] in step step[i] (steps since the clock's
 * start); a step that has left the window counts nothing. */
typedef struct Window {
    int64_t step[WIN_STEPS];
    int count[WIN_STEPS];
} Window;

struct RateLimiter {
    pthread_mutex_t mu;
    double rate, burst;
    int limit;       /* window mode: at most this many in the window */
    int64_t step_ms; /* window mode: the window's length / WIN_STEPS */
    Window *win;     /* window mode: one per slot; NULL for token buckets */
    Bucket slot[RL_SLOTS];
};

RateLimiter *ratelimit_new(double rate, double burst)
{
    RateLimiter *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    pthread_mutex_init(&r->mu, NULL);
    r->rate = rate > 0 ? rate : 1;
    r->burst = burst >= 1 ? burst : 1;
    return r;
}

RateLimiter *ratelimit_new_window(int limit, int window_s)
{
    RateLimiter *r = ratelimit_new(1, 1);
    if (r == NULL)
        return NULL;
    r->win = calloc(RL_SLOTS, sizeof *r->win);
    if (r->win == NULL) {
        ratelimit_free(r);
        return NULL;
    }
    r->limit = limit >= 1 ? limit : 1;
    r->step_ms = window_s >= WIN_STEPS ? (int64_t)window_s * 1000 / WIN_STEPS : 1000;
    return r;
}

void ratelimit_free(RateLimiter *r)
{
    if (r == NULL)
        return;
    pthread_mutex_destroy(&r->mu);
    free(r->win);
    free(r);
}

static uint32_t hash_addr(const char *s)
{
    uint32_t h = 2166136261u; // FNV-1a
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Counts one in w if the window holds fewer than the limit; else *retry_s is the whole
 * seconds until its oldest step leaves the window. */
static bool window_take(const RateLimiter *r, Window *w, int64_t now, int *retry_s)
{
    const int64_t step = now / r->step_ms;
    int64_t oldest = step;
    long total = 0;
    for (int i = 0; i < WIN_STEPS; i++)
        if (w->count[i] > 0 && w->step[i] > step - WIN_STEPS) {
            total += w->count[i];
            if (w->step[i] < oldest)
                oldest = w->step[i];
        }
    if (total < r->limit) {
        const int i = (int)(step % WIN_STEPS);
        if (w->step[i] != step) {
            w->step[i] = step;
            w->count[i] = 0;
        }
        w->count[i]++;
        return true;
    }
    if (retry_s) {
        const int64_t wait_ms = (oldest + WIN_STEPS) * r->step_ms - now;
        *retry_s = wait_ms > 0 ? (int)((wait_ms + 999) / 1000) : 1;
    }
    return false;
}

bool ratelimit_take(RateLimiter *r, const char *addr, int *retry_s)
{
    const int64_t now = clock_ms();
    pthread_mutex_lock(&r->mu);
    // Linear probing over a window of 16 slots; the oldest of them is reused if the
    // address is in none.
    const uint32_t h = hash_addr(addr);
    Bucket *b = NULL, *oldest = NULL;
    for (uint32_t i = 0; i < 16; i++) {
        Bucket *c = &r->slot[(h + i) % RL_SLOTS];
        if (strncmp(c->addr, addr, RL_ADDR_LEN - 1) == 0 && c->addr[0]) {
            b = c;
            break;
        }
        if (oldest == NULL || c->last_ms < oldest->last_ms)
            oldest = c;
    }
    if (b == NULL) {
        b = oldest;
        snprintf(b->addr, sizeof b->addr, "%s", addr);
        b->tokens = r->burst;
        b->last_ms = now;
        if (r->win)
            memset(&r->win[b - r->slot], 0, sizeof *r->win);
    }
    if (r->win) {
        b->last_ms = now;
        const bool ok = window_take(r, &r->win[b - r->slot], now, retry_s);
        pthread_mutex_unlock(&r->mu);
        return ok;
    }
    b->tokens += (double)(now - b->last_ms) * r->rate / 1000.0;
    if (b->tokens > r->burst)
        b->tokens = r->burst;
    b->last_ms = now;
    bool ok = b->tokens >= 1.0;
    if (ok)
        b->tokens -= 1.0;
    else if (retry_s)
        *retry_s = (int)((1.0 - b->tokens) / r->rate) + 1;
    pthread_mutex_unlock(&r->mu);
    return ok;
}
