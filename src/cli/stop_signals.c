/*
 * stop_signals.c - a long command's clean stop on SIGINT or SIGTERM (stop_signals.h).
 */
#include "cli/stop_signals.h"

#include <pthread.h>
#include <time.h>

bool stop_signalled(void *ctx)
{
    const StopSignals *sig = ctx;
    const struct timespec now = {0, 0};
    return sigtimedwait(&sig->set, NULL, &now) > 0;
}

void stop_signals_block(StopSignals *sig)
{
    sigemptyset(&sig->set);
    sigaddset(&sig->set, SIGINT);
    sigaddset(&sig->set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sig->set, &sig->old);
}

void stop_signals_restore(StopSignals *sig)
{
    while (stop_signalled(sig))
        ;
    pthread_sigmask(SIG_SETMASK, &sig->old, NULL);
}
