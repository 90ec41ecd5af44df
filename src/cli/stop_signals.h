/*
 * stop_signals.h - a long command's clean stop on SIGINT (Ctrl-C) or SIGTERM: the two
 * signals are blocked in every thread while the work runs and taken by polling
 * (sigtimedwait with no wait), so that the work ends at a point of its choosing, with
 * its files whole, with no signal handler and no flag at file scope.
 */
#ifndef CROWN_CLI_STOP_SIGNALS_H
#define CROWN_CLI_STOP_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

typedef struct StopSignals {
    sigset_t set, old;
} StopSignals;

/* Blocks the two signals in this thread and the threads it starts from now on. */
void stop_signals_block(StopSignals *sig);

/* Whether a stop came since the last poll (taking it); ctx is the StopSignals. */
bool stop_signalled(void *ctx);

/* Takes any stop that came after the last poll (the work is over, and unblocked it would
 * kill the process before it reports), then restores the mask of before. */
void stop_signals_restore(StopSignals *sig);

#endif
