/*
 * janitor.c - the housekeeping thread (see janitor.h). It sleeps on a condition so
 * that stopping the server wakes it at once. Sweeps come at a tenth of the shortest
 * period they serve (idle time, retention times), between 0.1 s and 30 s, so a game
 * stays in memory at most about 10% longer than the idle time says. Between sweeps it
 * looks at the running clocks every CLOCK_TICK_MS, so a flag falls on time even when
 * nobody moves; at every sweep it asks the store for the flags of games out of memory
 * (days per move), which fall within a sweep's period, and clears expired sign-in
 * sessions; every minute of a day (mail.h) it mails those whose clock runs low. On a
 * shared store it also beats for this process (store_live_beat) four
 * times per --dead-after, at most every 5 s, so that a live process's streams and hints
 * always count and a dead one's soon do not. Every 0.4 s it lets the tournaments with
 * work due take their next step (and sends their event streams' keep-alives), and
 * every few seconds it deletes those cancelled an hour
 * ago (tournament.h).
 */
#include "web/janitor.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "web/context.h"
#include "web/mail.h"
#include "web/session.h"
#include "web/store_account.h"
#include "web/tour_live.h"
#include "web/tournament.h"
#include "web/waits.h"

enum {
    CLOCK_TICK_MS = 200,
    BEAT_MAX_MS = 5000,
    TOURNAMENT_TICK_MS = 400,
    TOURNAMENT_SWEEP_MS = 5000,
};

struct Janitor {
    Server *srv;
    pthread_mutex_t mu;
    pthread_cond_t wake;
    bool stop;
    pthread_t thread;
};

static int64_t sweep_ms(const ServeConfig *c)
{
    int64_t shortest = (int64_t)c->idle_s * 1000;
    if (c->abandon_s > 0 && c->abandon_s * 1000 < shortest)
        shortest = c->abandon_s * 1000;
    if (c->finished_s > 0 && c->finished_s * 1000 < shortest)
        shortest = c->finished_s * 1000;
    const int64_t ms = shortest / 10;
    return ms < 100 ? 100 : ms > 30000 ? 30000 : ms;
}

static void *janitor_main(void *arg)
{
    Janitor *j = arg;
    Server *srv = j->srv;
    const ServeConfig *c = &srv->cfg;
    const int64_t period = sweep_ms(c);
    const int64_t beat = (int64_t)c->dead_after_s * 1000 / 4 < BEAT_MAX_MS
                             ? (int64_t)c->dead_after_s * 1000 / 4
                             : BEAT_MAX_MS;
    int64_t since_sweep = 0, since_beat = 0, since_tournaments = 0, since_mail = 0;
    int64_t since_tour_sweep = 0;
    const int64_t mail_period = mail_timeouts_period_ms(srv);
    int64_t expired_at = 0; /* when expired sign-in sessions were last cleared (s) */
    pthread_mutex_lock(&j->mu);
    while (!j->stop) {
        const int64_t wait = period < CLOCK_TICK_MS ? period : CLOCK_TICK_MS;
        const struct timespec at = deadline_in_ms(wait);
        while (!j->stop && pthread_cond_timedwait(&j->wake, &j->mu, &at) == 0) {
        }
        if (j->stop)
            break;
        pthread_mutex_unlock(&j->mu);
        sessions_check_clocks(srv);
        if ((since_beat += wait) >= beat) {
            since_beat = 0;
            ErrBuf e; // a beat missed is made up at the next; holds lapse only after four
            store_live_beat(srv->store, c->dead_after_s, &e);
        }
        // A tournament records a game's result, tells its pages and pairs its next round
        // within half a second of the game's end; a step with nothing to do is a few
        // reads and its lease's two writes.
        if ((since_tournaments += wait) >= TOURNAMENT_TICK_MS) {
            since_tournaments = 0;
            tournaments_tick(srv);
            tour_live_tick(srv);
        }
        // Cancelled tournaments go an hour after; a few seconds late is nothing.
        if ((since_tour_sweep += wait) >= TOURNAMENT_SWEEP_MS) {
            since_tour_sweep = 0;
            tournaments_sweep(srv);
        }
        if ((since_mail += wait) >= mail_period) {
            since_mail = 0;
            mail_timeouts(srv);
        }
        if ((since_sweep += wait) < period) {
            pthread_mutex_lock(&j->mu);
            continue;
        }
        since_sweep = 0;
        sessions_evict(srv, (int64_t)c->idle_s * 1000);
        sessions_flag_stored(srv);
        const int64_t now = (int64_t)time(NULL);
        sessions_retire(srv, c->abandon_s > 0 ? now - c->abandon_s : 0,
                        c->finished_s > 0 ? now - c->finished_s : 0);
        // Expired sessions sign nobody in already: clearing them can wait, and a write
        // every tenth of a second (tests' short --idle) would only crowd the store.
        if (now - expired_at >= 600) {
            ErrBuf e; // a sweep missed is made up at the next
            if (store_sessions_expire(srv->store, now - (int64_t)STORE_SESSION_DAYS * 86400,
                                      &e) == STATUS_OK)
                expired_at = now;
        }
        pthread_mutex_lock(&j->mu);
    }
    pthread_mutex_unlock(&j->mu);
    return NULL;
}

Status janitor_start(Server *srv, Janitor **out, ErrBuf *err)
{
    *out = NULL;
    Janitor *j = calloc(1, sizeof *j);
    if (j == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    j->srv = srv;
    pthread_mutex_init(&j->mu, NULL);
    cond_init_monotonic(&j->wake);
    if (pthread_create(&j->thread, NULL, janitor_main, j) != 0) {
        pthread_mutex_destroy(&j->mu);
        pthread_cond_destroy(&j->wake);
        free(j);
        return err_set(err, STATUS_NOMEM, "cannot start the housekeeping thread");
    }
    *out = j;
    return STATUS_OK;
}

void janitor_stop(Janitor *j)
{
    if (j == NULL)
        return;
    pthread_mutex_lock(&j->mu);
    j->stop = true;
    pthread_cond_signal(&j->wake);
    pthread_mutex_unlock(&j->mu);
    pthread_join(j->thread, NULL);
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->wake);
    free(j);
}
