/*
 * sse.c - event streams (see sse.h). libmicrohttpd pulls the body through a reader
 * callback; in thread-per-connection mode the reader may block, so it waits on the
 * session's `changed` condition (with a timeout, to send a keep-alive comment that
 * also reveals closed connections) and writes one "state" event per version it sees.
 * Versions skipped while the client was slow are simply not sent: each event carries
 * the whole state.
 */
#include "web/sse.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "web/api.h"
#include "web/quota.h"
#include "web/server.h"
#include "web/session.h"

typedef struct Stream {
    Server *srv;
    Session *s;
    int viewer;
    char addr[64]; /* the client's, whose stream quota this holds */
    bool started;
    uint64_t sent_version;
    char *pending; /* the event being written out */
    size_t len, off;
} Stream;

static const char PING[] = ": keep-alive\n\n";

/* Builds the next event into st->pending: the state if it changed, else a keep-alive
 * after waiting up to SERVER_SSE_PING_S. False at shutdown. */
static bool next_event(Stream *st)
{
    Session *s = st->s;
    pthread_mutex_lock(&s->mu);
    if (st->started) {
        struct timespec deadline;
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_sec += SERVER_SSE_PING_S;
        while (s->version == st->sent_version && !atomic_load(&st->srv->stopping))
            if (pthread_cond_timedwait(&s->changed, &s->mu, &deadline) == ETIMEDOUT)
                break;
    }
    if (atomic_load(&st->srv->stopping)) {
        pthread_mutex_unlock(&s->mu);
        return false;
    }
    free(st->pending);
    st->pending = NULL;
    st->len = st->off = 0;
    if (st->started && s->version == st->sent_version) {
        pthread_mutex_unlock(&s->mu);
        st->pending = malloc(sizeof PING);
        if (st->pending) {
            memcpy(st->pending, PING, sizeof PING);
            st->len = sizeof PING - 1;
        }
        return st->pending != NULL;
    }
    size_t n = 0;
    char *body = api_state_locked(s, st->viewer, &n);
    st->sent_version = s->version;
    st->started = true;
    pthread_mutex_unlock(&s->mu);
    if (body == NULL)
        return false;
    static const char HEAD[] = "event: state\ndata: ";
    const size_t hl = sizeof HEAD - 1;
    st->pending = malloc(hl + n + 3);
    if (st->pending) {
        // The state is compact JSON: no newline inside, so it is one data line.
        memcpy(st->pending, HEAD, hl);
        memcpy(st->pending + hl, body, n);
        memcpy(st->pending + hl + n, "\n\n", 3);
        st->len = hl + n + 2;
    }
    free(body);
    return st->pending != NULL;
}

static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Stream *st = cls;
    if (st->off == st->len && !next_event(st))
        return MHD_CONTENT_READER_END_OF_STREAM;
    size_t n = st->len - st->off;
    if (n > max)
        n = max;
    memcpy(buf, st->pending + st->off, n);
    st->off += n;
    return (ssize_t)n;
}

/* Gives back what an open stream holds: its place in the game's and the address's
 * counts, and its reference to the session. */
static void stream_closed(Server *srv, Session *s, const char *addr)
{
    pthread_mutex_lock(&s->mu);
    s->streams--;
    pthread_mutex_unlock(&s->mu);
    quota_give(srv->quota, addr, QUOTA_STREAMS);
    session_release(s);
}

static void free_stream(void *cls)
{
    Stream *st = cls;
    stream_closed(st->srv, st->s, st->addr);
    free(st->pending);
    free(st);
}

struct MHD_Response *sse_response(Server *srv, Session *s, int viewer, const char *addr)
{
    Stream *st = calloc(1, sizeof *st);
    if (st == NULL) {
        stream_closed(srv, s, addr);
        return NULL;
    }
    st->srv = srv;
    st->s = s;
    st->viewer = viewer;
    snprintf(st->addr, sizeof st->addr, "%s", addr);
    struct MHD_Response *mr =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, read_stream, st,
                                          free_stream);
    if (mr == NULL) {
        free_stream(st);
        return NULL;
    }
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    return mr;
}
