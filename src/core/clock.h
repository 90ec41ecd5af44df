/*
 * clock.h - monotonic wall time in milliseconds, for search time limits and reports.
 */
#ifndef CROWN_CORE_CLOCK_H
#define CROWN_CORE_CLOCK_H

#include <stdint.h>

int64_t clock_ms(void);
/* Microseconds, for short measurements. */
int64_t clock_us(void);

#endif
