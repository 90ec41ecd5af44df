/*
 * quota.h - per-client-address counts of what an address holds at once (games with an
 * AI, AI-against-AI games, event streams), each kind checked against its
 * limit when taken. Unlike the token buckets of ratelimit.h these count things that are
 * given back, so an address's share is bounded whatever its request rate.
 */
#ifndef CROWN_WEB_QUOTA_H
#define CROWN_WEB_QUOTA_H

#include <stdbool.h>

typedef enum QuotaKind {
    QUOTA_AI_GAMES,   /* unfinished games in memory with a human and an AI seat */
    QUOTA_AIAI_GAMES, /* unfinished games in memory with AI seats only */
    QUOTA_STREAMS,    /* open event streams */
    QUOTA_HEADS,      /* connections whose first request head the gate waits for */
    /* hints waiting or searched: counted in memory by the AI's lanes (ai.c); the kind
     * names them among a shared store's holds (store_live_take) */
    QUOTA_HINTS,
    QUOTA_CONNS, /* connections handed to the library, by the client a proxy names */
    QUOTA_KINDS
} QuotaKind;

typedef struct Quota Quota;

Quota *quota_new(void);
void quota_free(Quota *q);
/* Takes one of `kind` for addr if it holds fewer than limit; false (nothing taken) else. */
bool quota_take(Quota *q, const char *addr, QuotaKind kind, int limit);
/* Gives back one taken with quota_take. */
void quota_give(Quota *q, const char *addr, QuotaKind kind);

#endif
