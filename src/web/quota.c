/*
 * quota.c - the per-address counts of quota.h in a chained hash table under one mutex.
 * An entry exists only while its address holds something, so the table's size follows
 * what is held, which the limits themselves bound.
 */
#include "web/quota.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { QUOTA_BUCKETS = 1024, QUOTA_ADDR_LEN = 64 };

typedef struct Entry {
    char addr[QUOTA_ADDR_LEN];
    int held[QUOTA_KINDS];
    struct Entry *next;
} Entry;

struct Quota {
    pthread_mutex_t mu;
    Entry *bucket[QUOTA_BUCKETS];
};

Quota *quota_new(void)
{
    Quota *q = calloc(1, sizeof *q);
    if (q)
        pthread_mutex_init(&q->mu, NULL);
    return q;
}

void quota_free(Quota *q)
{
    if (q == NULL)
        return;
    for (int b = 0; b < QUOTA_BUCKETS; b++)
        for (Entry *e = q->bucket[b], *next; e; e = next) {
            next = e->next;
            free(e);
        }
    pthread_mutex_destroy(&q->mu);
    free(q);
}

static Entry **slot_of(Quota *q, const char *addr)
{
    uint32_t h = 2166136261u; // FNV-1a
    for (const char *s = addr; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    Entry **p = &q->bucket[h % QUOTA_BUCKETS];
    while (*p && strncmp((*p)->addr, addr, QUOTA_ADDR_LEN - 1) != 0)
        p = &(*p)->next;
    return p;
}

bool quota_take(Quota *q, const char *addr, QuotaKind kind, int limit)
{
    pthread_mutex_lock(&q->mu);
    Entry **p = slot_of(q, addr);
    if (*p == NULL && limit > 0 && (*p = calloc(1, sizeof **p)) != NULL)
        snprintf((*p)->addr, sizeof (*p)->addr, "%s", addr);
    const bool ok = *p != NULL && (*p)->held[kind] < limit;
    if (ok)
        (*p)->held[kind]++;
    pthread_mutex_unlock(&q->mu);
    return ok;
}

void quota_give(Quota *q, const char *addr, QuotaKind kind)
{
    pthread_mutex_lock(&q->mu);
    Entry **p = slot_of(q, addr);
    Entry *e = *p;
    if (e && e->held[kind] > 0) {
        e->held[kind]--;
        bool empty = true;
        for (int k = 0; k < QUOTA_KINDS; k++)
            empty = empty && e->held[k] == 0;
        if (empty) {
            *p = e->next;
            free(e);
        }
    }
    pthread_mutex_unlock(&q->mu);
}
