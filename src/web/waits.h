/*
 * waits.h - condition variables that time out on the monotonic clock, so that a wait's
 * deadline does not move when the wall clock is set, and the deadlines for them.
 */
#ifndef CROWN_WEB_WAITS_H
#define CROWN_WEB_WAITS_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

void cond_init_monotonic(pthread_cond_t *c);
/* The monotonic time ms milliseconds from now, for pthread_cond_timedwait. */
struct timespec deadline_in_ms(int64_t ms);

#endif
