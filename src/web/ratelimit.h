/*
 * ratelimit.h - per-client-address token buckets (and sliding windows) that bound how
 * fast one address may change things (create games, move, undo, ask hints). Reads are bounded only by the
 * connection limits, so watching a game is never throttled.
 */
#ifndef CROWN_WEB_RATELIMIT_H
#define CROWN_WEB_RATELIMIT_H

#include <stdbool.h>

typedef struct RateLimiter RateLimiter;

/* rate: tokens a second; burst: the bucket size. */
RateLimiter *ratelimit_new(double rate, double burst);
void ratelimit_free(RateLimiter *r);
/* A limiter of at most `limit` a window of window_s seconds per address, in a sliding
 * window (counted in steps of window_s / 60); ratelimit_take then counts one, and its
 * *retry_s is when the window's oldest count leaves it. */
RateLimiter *ratelimit_new_window(int limit, int window_s);
/* Takes one token for `addr` (an address text); false when its bucket is empty, and
 * then *retry_s says how many whole seconds until a token is back. */
bool ratelimit_take(RateLimiter *r, const char *addr, int *retry_s);

#endif
