/*
 * streams.c - how many event streams one game may have open (streams.h), counted on its
 * session: the rule that keeps watchers from cutting the players off their own updates;
 * and what every event stream (a game's, a tournament's) gives back when it closes.
 */
#include "web/streams.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "web/context.h"
#include "web/quota.h"
#include "web/session.h"
#include "web/store.h"

bool streams_count_open(const Server *srv, Session *s, int viewer, char *msg, size_t n)
{
    const bool seat = viewer >= 0 && viewer < MAX_PLAYERS;
    pthread_mutex_lock(&s->mu);
    int seats = 0;
    for (int i = 0; i < MAX_PLAYERS; i++)
        seats += s->seat_streams[i];
    bool ok;
    if (seat && !(ok = s->seat_streams[viewer] < STREAMS_PER_SEAT))
        snprintf(msg, n, "this seat has %d event streams open, the most it may have: "
                 "close some", STREAMS_PER_SEAT);
    else if (!seat && !(ok = s->nstreams - seats < srv->cfg.streams_per_game))
        snprintf(msg, n, "this game has %d event streams open, the most it may have: try "
                 "again later", srv->cfg.streams_per_game);
    if (ok) {
        s->nstreams++;
        if (seat)
            s->seat_streams[viewer]++;
    }
    pthread_mutex_unlock(&s->mu);
    return ok;
}

void streams_give_back(Server *srv, const char *addr, int64_t hold)
{
    quota_give(srv->quota, addr, QUOTA_STREAMS);
    ErrBuf e; // a hold not given back stops counting with this process's beats
    if (hold != 0 && !atomic_load(&srv->stopping))
        store_live_give(srv->store, hold, &e);
}

void streams_count_close(Session *s, int viewer)
{
    pthread_mutex_lock(&s->mu);
    s->nstreams--;
    if (viewer >= 0 && viewer < MAX_PLAYERS)
        s->seat_streams[viewer]--;
    pthread_mutex_unlock(&s->mu);
}

size_t streams_copy_out(const char *out, size_t len, size_t *off, char *buf, size_t max)
{
    size_t n = len - *off;
    if (n > max)
        n = max;
    memcpy(buf, out + *off, n);
    *off += n;
    return n;
}
