/*
 * ratelimit.c - token buckets in a fixed-size open hash table keyed by address. When the
 * table is full, the bucket idle longest is reused: a full bucket (the state of an idle
 * address) forgets nothing worth keeping, so the memory stays bounded whatever the
 * number of clients.
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

struct RateLimiter {
    pthread_mutex_t mu;
    double rate, burst;
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

void ratelimit_free(RateLimiter *r)
{
    if (r == NULL)
        return;
    pthread_mutex_destroy(&r->mu);
    free(r);
}

static uint32_t hash_addr(const char *s)
{
    uint32_t h = 2166136261u; // FNV-1a
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
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
