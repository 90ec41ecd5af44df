/*
 * sse.c - event streams (see sse.h) without a thread each. libmicrohttpd pulls a
 * stream's body through read_stream; when there is nothing to send the stream suspends
 * its connection (MHD_suspend_connection, allowed from a content reader) and hangs on its
 * session's list. A change of the session resumes every suspended stream of it
 * (sse_wake_locked); the hub's one thread resumes them for keep-alives and, watching the
 * suspended sockets with epoll (libmicrohttpd does not while a connection is suspended),
 * as soon as a client hangs up, so a closed stream's connection is freed at once.
 *
 * Suspending and resuming both happen under the session's mutex, so a resume never
 * precedes its suspend. A stream holds a reference to its session, its place in the
 * game's count and in its address's stream quota; the count and the quota go back as
 * soon as it closes, the reference only once the hub has freed it (the hub may still
 * hold an epoll event naming it, and must find its session there). Versions skipped while the client was slow are not sent: each
 * event carries the whole state.
 */
#include "web/sse.h"

#include <errno.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "web/api.h"
#include "web/quota.h"
#include "web/server.h"
#include "web/session.h"

struct SseStream {
    Server *srv;
    Session *s;
    struct MHD_Connection *conn;
    int fd;        /* the connection's socket, watched for hang-ups while suspended */
    int viewer;
    char addr[64]; /* the client's, whose stream quota this holds */
    /* guarded by s->mu */
    bool started;   /* the first state went out */
    bool suspended; /* the connection is suspended, waiting for a change */
    bool ping;      /* a keep-alive is due */
    bool watched;   /* fd is in the hub's epoll set */
    bool gone;      /* the client hung up: end the stream without writing */
    uint64_t sent_version;
    SseStream *prev, *next; /* in s->streams */
    /* the event being written out; only the connection's thread touches it */
    char *pending;
    size_t len, off;
    SseStream *dead_next; /* in the hub's list of streams to free */
};

struct SseHub {
    Server *srv;
    int ep;     /* epoll set of suspended streams' sockets */
    int stopfd; /* eventfd that ends the thread */
    pthread_t thread;
    pthread_mutex_t mu; /* guards dead */
    /* Freed streams wait here until the hub thread is past any epoll event naming them:
     * an event read before a stream was freed must not reach freed memory. */
    SseStream *dead;
    atomic_long open;
};

static const char PING[] = ": keep-alive\n\n";

enum Next { NEXT_END, NEXT_GONE, NEXT_DATA, NEXT_WAIT };

/* Resumes st if suspended; s->mu held. */
static void resume_locked(SseStream *st)
{
    if (st->suspended) {
        st->suspended = false;
        MHD_resume_connection(st->conn);
    }
}

void sse_wake_locked(Session *s)
{
    for (SseStream *st = s->streams; st; st = st->next)
        resume_locked(st);
}

static void ping_locked(Session *s, void *ctx)
{
    (void)ctx;
    for (SseStream *st = s->streams; st; st = st->next)
        if (st->suspended) {
            st->ping = true;
            resume_locked(st);
        }
}

/* Suspends st until its session changes, watching its socket for a hang-up; s->mu
 * held. */
static void suspend_locked(SseStream *st)
{
    SseHub *h = st->srv->sse;
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLONESHOT, .data.ptr = st};
    // One registration per stream, re-armed at each suspend (EPOLLONESHOT); closing the
    // socket removes it from the set.
    if (st->fd >= 0 && epoll_ctl(h->ep, st->watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, st->fd,
                                 &ev) == 0)
        st->watched = true;
    st->suspended = true;
    MHD_suspend_connection(st->conn);
}

/* Builds the next event into st->pending: the state if it changed, a keep-alive if one
 * is due, else suspends the connection (NEXT_WAIT). NEXT_END at shutdown. */
static enum Next next_event(SseStream *st)
{
    Session *s = st->s;
    free(st->pending);
    st->pending = NULL;
    st->len = st->off = 0;
    pthread_mutex_lock(&s->mu);
    if (st->gone) {
        pthread_mutex_unlock(&s->mu);
        return NEXT_GONE;
    }
    if (atomic_load(&st->srv->stopping)) {
        pthread_mutex_unlock(&s->mu);
        return NEXT_END;
    }
    if (st->started && s->version == st->sent_version) {
        const bool ping = st->ping;
        st->ping = false;
        if (!ping)
            suspend_locked(st);
        pthread_mutex_unlock(&s->mu);
        if (!ping)
            return NEXT_WAIT;
        st->pending = malloc(sizeof PING);
        if (st->pending == NULL)
            return NEXT_END;
        memcpy(st->pending, PING, sizeof PING);
        st->len = sizeof PING - 1;
        return NEXT_DATA;
    }
    size_t n = 0;
    char *body = api_state_locked(s, st->viewer, &n);
    st->sent_version = s->version;
    st->started = true;
    st->ping = false;
    pthread_mutex_unlock(&s->mu);
    if (body == NULL)
        return NEXT_END;
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
    return st->pending ? NEXT_DATA : NEXT_END;
}

static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    SseStream *st = cls;
    if (st->off == st->len) {
        const enum Next nx = next_event(st);
        if (nx == NEXT_END)
            return MHD_CONTENT_READER_END_OF_STREAM;
        if (nx == NEXT_GONE)
            return MHD_CONTENT_READER_END_WITH_ERROR; // closes without writing again
        if (nx == NEXT_WAIT)
            return 0; // suspended: called again once resumed
    }
    size_t n = st->len - st->off;
    if (n > max)
        n = max;
    memcpy(buf, st->pending + st->off, n);
    st->off += n;
    return (ssize_t)n;
}

static void free_stream(void *cls)
{
    SseStream *st = cls;
    Session *s = st->s;
    SseHub *h = st->srv->sse;
    pthread_mutex_lock(&s->mu);
    if (st->prev)
        st->prev->next = st->next;
    else
        s->streams = st->next;
    if (st->next)
        st->next->prev = st->prev;
    st->suspended = false;
    s->nstreams--;
    pthread_mutex_unlock(&s->mu);
    quota_give(st->srv->quota, st->addr, QUOTA_STREAMS);
    free(st->pending);
    st->pending = NULL;
    atomic_fetch_sub(&h->open, 1);
    pthread_mutex_lock(&h->mu);
    st->dead_next = h->dead;
    h->dead = st;
    pthread_mutex_unlock(&h->mu);
}

/* Gives back what the caller of sse_response counted for a stream that never opened. */
static void never_opened(Server *srv, Session *s, const char *addr)
{
    pthread_mutex_lock(&s->mu);
    s->nstreams--;
    pthread_mutex_unlock(&s->mu);
    quota_give(srv->quota, addr, QUOTA_STREAMS);
    session_release(s);
}

struct MHD_Response *sse_response(Server *srv, struct MHD_Connection *c, Session *s,
                                  int viewer, const char *addr)
{
    SseStream *st = calloc(1, sizeof *st);
    if (st == NULL) {
        never_opened(srv, s, addr);
        return NULL;
    }
    st->srv = srv;
    st->s = s;
    st->conn = c;
    st->viewer = viewer;
    snprintf(st->addr, sizeof st->addr, "%s", addr);
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    st->fd = ci ? ci->connect_fd : -1;
    struct MHD_Response *mr =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4 * 1024, read_stream, st,
                                          free_stream);
    if (mr == NULL) {
        free(st);
        never_opened(srv, s, addr);
        return NULL;
    }
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    pthread_mutex_lock(&s->mu);
    st->next = s->streams;
    if (s->streams)
        s->streams->prev = st;
    s->streams = st;
    pthread_mutex_unlock(&s->mu);
    atomic_fetch_add(&srv->sse->open, 1);
    return mr;
}

long sse_open_streams(const SseHub *h)
{
    return h ? atomic_load(&h->open) : 0;
}

static void free_dead(SseHub *h)
{
    pthread_mutex_lock(&h->mu);
    SseStream *d = h->dead;
    h->dead = NULL;
    pthread_mutex_unlock(&h->mu);
    while (d) {
        SseStream *n = d->dead_next;
        session_release(d->s);
        free(d);
        d = n;
    }
}

static void *hub_main(void *arg)
{
    SseHub *h = arg;
    struct epoll_event evs[256];
    struct timespec last, now;
    clock_gettime(CLOCK_MONOTONIC, &last);
    for (;;) {
        const int n = epoll_wait(h->ep, evs, 256, 1000);
        bool stop = false;
        for (int i = 0; i < n; i++) {
            if (evs[i].data.ptr == NULL) {
                stop = true;
                continue;
            }
            // A hang-up on a suspended stream: resume it to end at once. Stray bytes
            // from a client still there: a keep-alive (the socket is watched again at
            // the next suspend).
            SseStream *st = evs[i].data.ptr;
            const bool gone = (evs[i].events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0;
            pthread_mutex_lock(&st->s->mu);
            if (st->suspended) {
                st->ping = true;
                st->gone = gone;
                resume_locked(st);
            }
            pthread_mutex_unlock(&st->s->mu);
        }
        free_dead(h);
        if (stop)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - last.tv_sec >= SERVER_SSE_PING_S) {
            last = now;
            sessions_each_locked(h->srv->sessions, ping_locked, NULL);
        }
    }
    return NULL;
}

Status sse_hub_start(Server *srv, SseHub **out, ErrBuf *err)
{
    SseHub *h = calloc(1, sizeof *h);
    if (h == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    h->srv = srv;
    atomic_init(&h->open, 0);
    pthread_mutex_init(&h->mu, NULL);
    h->ep = epoll_create1(EPOLL_CLOEXEC);
    h->stopfd = eventfd(0, EFD_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    if (h->ep < 0 || h->stopfd < 0 || epoll_ctl(h->ep, EPOLL_CTL_ADD, h->stopfd, &ev) != 0 ||
        pthread_create(&h->thread, NULL, hub_main, h) != 0) {
        const int e = errno;
        if (h->ep >= 0)
            close(h->ep);
        if (h->stopfd >= 0)
            close(h->stopfd);
        pthread_mutex_destroy(&h->mu);
        free(h);
        return err_set(err, STATUS_IO, "cannot start the event stream thread: %s",
                       strerror(e));
    }
    *out = h;
    return STATUS_OK;
}

void sse_hub_stop(SseHub *h)
{
    if (h == NULL)
        return;
    const uint64_t one = 1;
    if (write(h->stopfd, &one, sizeof one) != (ssize_t)sizeof one) {
        // An eventfd write fails only on overflow, which one write cannot reach.
    }
    pthread_join(h->thread, NULL);
    free_dead(h);
    close(h->ep);
    close(h->stopfd);
    pthread_mutex_destroy(&h->mu);
    free(h);
}
