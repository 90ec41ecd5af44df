/*
 * sse.c - event streams (see sse.h) without a thread each. libmicrohttpd pulls a
 * stream's body through read_stream; when there is nothing to send the stream suspends
 * its connection (MHD_suspend_connection, allowed from a content reader) and hangs on its
 * session's list. A change of the session is sent out by the hub's one thread
 * (sse_wake_locked queues it there): the event, formatted once, goes straight into each
 * suspended stream's socket with one non-blocking send, and the connection stays
 * suspended; only a stream whose socket is full is resumed, and libmicrohttpd writes the
 * rest as the client reads. Resuming every stream instead cost libmicrohttpd an eventfd
 * write, a wake-up of its loop and a pass over its suspended list per stream, about a
 * quarter of the server's time in a broadcast. A stream's body is plain bytes until the
 * connection closes (MHD_RF_HTTP_1_0_COMPATIBLE_STRICT: no chunked framing), so bytes
 * sent either way join up. The sends of a broadcast are shared with helper threads (a
 * send on loopback costs the receiving side's work too). Keep-alives go the same way, to
 * the streams sent nothing for --keep-alive seconds only: resuming every stream for them
 * at once, as the hub first did, put libmicrohttpd's slow path under the next
 * broadcast every 15 s (the broadcast's slowest 2% then took 2-3 times as long). The hub
 * also resumes a stream, watching the streams' sockets for a hang-up with epoll
 * (libmicrohttpd does not while a connection is suspended), as soon as its client hangs
 * up, so a closed stream's connection is freed at once. A socket is registered once, for its one hang-up (EPOLLONESHOT), not at every
 * suspend: a broadcast to 10,000 streams then costs no epoll call of ours.
 *
 * An event is formatted once per version and viewer and shared (SseEvent, counted
 * references): the streams of a game copy the same bytes into their sockets, with no
 * allocation or formatting per stream.
 *
 * Suspending and resuming happen under the session's mutex, so a resume never precedes
 * its suspend. The hub's sends go to streams it marked `sending` under that mutex: they
 * stay suspended until the sends are done (a resume meanwhile waits, resume_after), so
 * libmicrohttpd (which leaves a suspended connection alone, and suspends a stream only
 * once it has written all it was given) never writes to a socket at the same time. A stream holds a reference to its session, its place in the
 * game's count and in its address's stream quota; the count and the quota go back as
 * soon as it closes, the reference only once the hub has freed it (the hub may still
 * hold an epoll event naming it, and must find its session there); its socket leaves
 * the hub's set as it closes, so no later event can name it. Versions skipped while the client was slow are not sent: each
 * event carries the whole state.
 */
#include "web/sse.h"
#include "web/streams.h"

#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "web/api.h"
#include "web/api_state.h"
#include "web/quota.h"
#include "web/context.h"
#include "web/session.h"

struct SseEvent {
    atomic_int refs; /* the session's slot's, and one per stream writing it */
    uint64_t version;
    size_t len;
    char bytes[]; /* "event: state\ndata: {...}\n\n" */
};

struct SseStream {
    Server *srv;
    Session *s;
    struct MHD_Connection *conn;
    int fd;        /* the connection's socket, watched for hang-ups while suspended */
    int viewer;
    char addr[64]; /* the client's, whose stream quota this holds */
    int64_t hold;  /* its hold in a shared store (store_live_take), or 0 */
    /* guarded by s->mu */
    bool started;   /* the first state went out */
    bool suspended; /* the connection is suspended, waiting for a change */
    bool ping_due;  /* the hub's next keep-alives include it */
    int64_t last_sent; /* when it was last given bytes, monotonic ms */
    bool gone;      /* the client hung up: end the stream without writing */
    uint64_t sent_version;
    SseStream *prev, *next; /* in s->streams */
    bool sending;      /* the hub is sending it an event, the lock let go */
    bool resume_after; /* a resume came while sending: done once the send is */
    int sent;          /* how the hub's send went (enum Sent), read after it */
    bool watched; /* fd is in the hub's epoll set; set before the stream is shared */
    /* what is being written out (ev's bytes, or the keep-alive) and how far; only the
     * connection's thread touches them */
    SseEvent *ev;
    const char *out;
    size_t len, off;
    SseStream *dead_next; /* in the hub's list of streams to free */
};

/* A broadcast's sends, shared between the hub's thread and its helpers. */
typedef struct SendJob {
    SseStream **streams;
    SseEvent **evs; /* per 1 + viewer */
    int n;
} SendJob;

/* Threads that send a broadcast: the hub's and up to these. Far more than the cores: a
 * broadcast's work is the kernel's (a send per stream, about 10 ms of CPU per thousand
 * streams whatever the load), and the scheduler shares a busy machine among runnable
 * threads, so against 4 busy processes a broadcast on 4 threads got half of what it gets
 * on 16 (its median arrival 2-3 times later; docs/DEPLOY.md). They sleep between
 * broadcasts, on small stacks (the send path is shallow). */
enum { SSE_HELPERS = 15, HELPER_STACK = 256 * 1024 };
/* A broadcast wakes one helper per this many streams beyond the first such share: a
 * game with a few watchers is sent by the hub's thread alone. */
enum { SENDER_SHARE = 64 };

typedef struct Helper {
    SseHub *h;
    pthread_t thread;
} Helper;

struct SseHub {
    Server *srv;
    int ep;     /* epoll set of suspended streams' sockets */
    int stopfd; /* eventfd that ends the thread */
    int kickfd; /* eventfd: sessions queued to send out */
    pthread_t thread;
    pthread_mutex_t mu; /* guards dead and the queue */
    pthread_mutex_t bmu; /* held by the thread through each round of broadcasts */
    /* Sessions whose change the thread sends out next, each with a reference. */
    Session **queue;
    int nqueue, capqueue;
    SseStream **batch; /* a broadcast's streams; the thread's own */
    int capbatch;
    SseEvent *keep_alive; /* the keep-alive comment, sent like an event */
    Session **pinging;    /* sessions with streams due a keep-alive; the thread's own */
    int npinging, cappinging;
    /* the helper threads, which send their slices of a broadcast */
    Helper helpers[SSE_HELPERS];
    int nhelpers;
    pthread_mutex_t hmu;
    pthread_cond_t hcv;  /* helpers wait here for a job's slots */
    pthread_cond_t dcv;  /* the hub's thread waits here for the helpers to finish */
    SendJob job;  /* guarded by hmu, as the three below */
    atomic_int next; /* the job's first stream no thread has taken yet */
    int slots;    /* helpers the job may still take; taken back when the hub is done */
    int active;   /* helpers sending the job */
    bool helper_stop;
    /* Freed streams wait here until the hub thread is past any epoll event naming them:
     * an event read before a stream was freed must not reach freed memory. */
    SseStream *dead;
};

static const char KEEP_ALIVE[] = ": keep-alive\n\n";

enum Next { NEXT_END, NEXT_GONE, NEXT_DATA, NEXT_WAIT };
enum Sent { SENT_ALL, SENT_PART, SENT_FAILED };

static int64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static SseEvent *event_ref(SseEvent *e)
{
    atomic_fetch_add(&e->refs, 1);
    return e;
}

static void event_release(SseEvent *e)
{
    if (e && atomic_fetch_sub(&e->refs, 1) == 1)
        free(e);
}

void sse_events_free(Session *s)
{
    for (int i = 0; i <= MAX_PLAYERS; i++) {
        event_release(s->events[i]);
        s->events[i] = NULL;
    }
}

/* The current event for viewer's streams, with a reference for the caller: the shared
 * one, or a new one if the game changed since; NULL when memory is short. s->mu held. */
static SseEvent *event_get_locked(Session *s, int viewer)
{
    SseEvent **slot = &s->events[1 + viewer];
    if (*slot == NULL || (*slot)->version != s->version) {
        size_t n = 0;
        char *body = api_state_locked(s, viewer, &n);
        if (body == NULL)
            return NULL;
        static const char HEAD[] = "event: state\ndata: ";
        const size_t hl = sizeof HEAD - 1;
        SseEvent *e = malloc(sizeof *e + hl + n + 3);
        if (e == NULL) {
            free(body);
            return NULL;
        }
        atomic_init(&e->refs, 1);
        e->version = s->version;
        // The state is compact JSON: no newline inside, so it is one data line.
        memcpy(e->bytes, HEAD, hl);
        memcpy(e->bytes + hl, body, n);
        memcpy(e->bytes + hl + n, "\n\n", 3);
        e->len = hl + n + 2;
        free(body);
        event_release(*slot);
        *slot = e;
    }
    return event_ref(*slot);
}

/* Resumes st if suspended; s->mu held. */
static void resume_locked(SseStream *st)
{
    if (st->sending) {
        st->resume_after = true;
        return;
    }
    if (st->suspended) {
        st->suspended = false;
        MHD_resume_connection(st->conn);
    }
}

/* Hands s to the hub thread to send out; false when memory is short. s->mu held. */
static bool hub_queue(SseHub *h, Session *s)
{
    pthread_mutex_lock(&h->mu);
    if (h->nqueue == h->capqueue) {
        const int cap = h->capqueue ? 2 * h->capqueue : 64;
        Session **q = realloc(h->queue, (size_t)cap * sizeof *q);
        if (q == NULL) {
            pthread_mutex_unlock(&h->mu);
            return false;
        }
        h->queue = q;
        h->capqueue = cap;
    }
    session_hold(s);
    h->queue[h->nqueue++] = s;
    pthread_mutex_unlock(&h->mu);
    const uint64_t one = 1;
    if (write(h->kickfd, &one, sizeof one) != (ssize_t)sizeof one) {
        // An eventfd write fails only on overflow: the thread has not read it yet.
    }
    return true;
}

void sse_wake_locked(Session *s)
{
    if (s->streams == NULL || s->sse_queued)
        return;
    Server *srv = s->streams->srv;
    if (!atomic_load(&srv->stopping) && hub_queue(srv->sse, s)) {
        s->sse_queued = true;
        return;
    }
    // At shutdown every stream must be resumed to end; and when the queue cannot grow,
    // libmicrohttpd sends the change.
    for (SseStream *st = s->streams; st; st = st->next)
        resume_locked(st);
}

/* Sends e into st's socket without the lock; what was not taken goes by
 * libmicrohttpd once st is resumed. */
static void send_one(SseStream *st, SseEvent *e)
{
    const ssize_t n = send(st->fd, e->bytes, e->len, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n == (ssize_t)e->len) {
        st->sent = SENT_ALL;
    } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
        st->sent = SENT_FAILED;
    } else {
        atomic_fetch_add(&e->refs, 1);
        st->ev = e;
        st->out = e->bytes;
        st->len = e->len;
        st->off = n > 0 ? (size_t)n : 0;
        st->sent = SENT_PART;
    }
}

/* Streams a thread takes from a job at a time: few, as a thread descheduled in the
 * middle of its chunk holds back the rest of it; the count they share costs one atomic
 * add per chunk, against a send's microseconds each. */
enum { SEND_CHUNK = 4 };

/* Sends j's streams their events, chunk by chunk, until none is left: a thread that gets
 * more of the machine sends more, so one descheduled thread holds back one chunk only. */
static void send_chunks(SseHub *h, const SendJob *j)
{
    for (;;) {
        const int from = atomic_fetch_add(&h->next, SEND_CHUNK);
        if (from >= j->n)
            return;
        const int to = from + SEND_CHUNK < j->n ? from + SEND_CHUNK : j->n;
        for (int i = from; i < to; i++)
            send_one(j->streams[i], j->evs[1 + j->streams[i]->viewer]);
    }
}

static void *helper_main(void *arg)
{
    Helper *me = arg;
    SseHub *h = me->h;
    pthread_mutex_lock(&h->hmu);
    for (;;) {
        while (h->slots == 0 && !h->helper_stop)
            pthread_cond_wait(&h->hcv, &h->hmu);
        if (h->helper_stop)
            break;
        h->slots--;
        h->active++;
        const SendJob j = h->job;
        pthread_mutex_unlock(&h->hmu);
        send_chunks(h, &j);
        pthread_mutex_lock(&h->hmu);
        if (--h->active == 0)
            pthread_cond_signal(&h->dcv);
    }
    pthread_mutex_unlock(&h->hmu);
    return NULL;
}

/* Sends streams[0..n) their events, the hub's thread and as many helpers as the
 * broadcast is worth taking chunks. A helper woken only after the hub's thread has sent
 * the rest finds its slot taken back: the hub waits for the helpers still sending, not
 * for the wake-ups of a busy machine. */
static void send_all(SseHub *h, SseStream **streams, SseEvent **evs, int n)
{
    const SendJob j = {streams, evs, n};
    int wake = (n - 1) / SENDER_SHARE;
    if (wake > h->nhelpers)
        wake = h->nhelpers;
    atomic_store(&h->next, 0);
    if (wake > 0) {
        pthread_mutex_lock(&h->hmu);
        h->job = j;
        h->slots = wake;
        for (int i = 0; i < wake; i++)
            pthread_cond_signal(&h->hcv);
        pthread_mutex_unlock(&h->hmu);
    }
    send_chunks(h, &j);
    if (wake > 0) {
        pthread_mutex_lock(&h->hmu);
        h->slots = 0;
        while (h->active > 0)
            pthread_cond_wait(&h->dcv, &h->hmu);
        pthread_mutex_unlock(&h->hmu);
    }
}

/* Sends s's current state to each of its suspended streams that has not had it (or with
 * keep_alive, the keep-alive to each marked for one), on the hub's thread and its
 * helpers; a stream whose socket took only part of it is resumed for the rest. */
static void broadcast(SseHub *h, Session *s, bool keep_alive)
{
    const int64_t now = mono_ms();
    pthread_mutex_lock(&s->mu);
    if (!keep_alive)
        s->sse_queued = false;
    if (s->streams && atomic_load(&s->streams->srv->stopping)) {
        for (SseStream *st = s->streams; st; st = st->next)
            resume_locked(st);
        pthread_mutex_unlock(&s->mu);
        return;
    }
    SseEvent *evs[1 + MAX_PLAYERS] = {NULL};
    int n = 0;
    for (SseStream *st = s->streams; st; st = st->next) {
        const bool due = keep_alive ? st->ping_due : st->sent_version != s->version;
        if (!st->suspended || st->gone || !due)
            continue;
        SseEvent **e = &evs[1 + st->viewer];
        if (n == h->capbatch) {
            const int cap = h->capbatch ? 2 * h->capbatch : 256;
            SseStream **b = realloc(h->batch, (size_t)cap * sizeof *b);
            if (b == NULL)
                *e = NULL; // memory is short: libmicrohttpd's path below
            else
                h->batch = b, h->capbatch = cap;
        }
        if (*e == NULL && keep_alive)
            *e = event_ref(h->keep_alive);
        if (n == h->capbatch || (*e == NULL && (*e = event_get_locked(s, st->viewer)) == NULL)) {
            resume_locked(st); // memory is short: libmicrohttpd's path tries again
            continue;
        }
        if (!keep_alive)
            st->sent_version = s->version;
        st->ping_due = false;
        st->last_sent = now;
        st->sending = true;
        st->resume_after = false;
        h->batch[n++] = st;
    }
    pthread_mutex_unlock(&s->mu);
    send_all(h, h->batch, evs, n);
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < n; i++) {
        SseStream *st = h->batch[i];
        st->sending = false;
        if (st->sent == SENT_FAILED)
            st->gone = true;
        if (st->sent != SENT_ALL || st->resume_after)
            resume_locked(st);
    }
    pthread_mutex_unlock(&s->mu);
    for (int i = 0; i <= MAX_PLAYERS; i++)
        event_release(evs[i]);
}

/* Sends out every queued session's change. */
static void broadcast_queued(SseHub *h)
{
    uint64_t kicks;
    if (read(h->kickfd, &kicks, sizeof kicks) < 0) {
        // Nothing to read (EAGAIN): the queue was emptied by an earlier pass.
    }
    pthread_mutex_lock(&h->mu);
    Session **q = h->queue;
    const int n = h->nqueue;
    h->queue = NULL;
    h->nqueue = h->capqueue = 0;
    pthread_mutex_unlock(&h->mu);
    for (int i = 0; i < n; i++) {
        broadcast(h, q[i], false);
        session_release(q[i]);
    }
    free(q);
}

/* Marks s's suspended streams that were sent nothing for --keep-alive seconds, and lists
 * s for the hub's keep-alives (with a reference). s->mu held. */
static void mark_keep_alives_locked(Session *s, void *ctx)
{
    SseHub *h = ctx;
    const int64_t due_before = mono_ms() - 1000 * (int64_t)h->srv->cfg.keep_alive_s;
    bool any = false;
    for (SseStream *st = s->streams; st; st = st->next)
        if (st->suspended && !st->gone && !st->sending && st->last_sent <= due_before)
            any = st->ping_due = true;
    if (!any)
        return;
    if (h->npinging == h->cappinging) {
        const int cap = h->cappinging ? 2 * h->cappinging : 64;
        Session **p = realloc(h->pinging, (size_t)cap * sizeof *p);
        if (p == NULL)
            return; // memory is short: the marked streams get theirs next time
        h->pinging = p;
        h->cappinging = cap;
    }
    session_hold(s);
    h->pinging[h->npinging++] = s;
}

/* Sends the keep-alives due, through the broadcasts' path. */
static void send_keep_alives(SseHub *h)
{
    sessions_each_locked(h->srv->sessions, mark_keep_alives_locked, h);
    for (int i = 0; i < h->npinging; i++) {
        broadcast(h, h->pinging[i], true);
        session_release(h->pinging[i]);
    }
    h->npinging = 0;
}

/* Suspends st until its session changes; s->mu held. */
static void suspend_locked(SseStream *st)
{
    st->suspended = true;
    MHD_suspend_connection(st->conn);
}

/* Builds the next event into st->pending: the state if it changed, else suspends the
 * connection (NEXT_WAIT). NEXT_END at shutdown. */
static enum Next next_event(SseStream *st)
{
    Session *s = st->s;
    if (st->ev)
        event_release(st->ev);
    st->ev = NULL;
    st->out = NULL;
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
        suspend_locked(st);
        pthread_mutex_unlock(&s->mu);
        return NEXT_WAIT;
    }
    st->ev = event_get_locked(s, st->viewer);
    st->sent_version = s->version;
    st->started = true;
    st->ping_due = false;
    st->last_sent = mono_ms();
    pthread_mutex_unlock(&s->mu);
    if (st->ev == NULL)
        return NEXT_END;
    st->out = st->ev->bytes;
    st->len = st->ev->len;
    return NEXT_DATA;
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
    return (ssize_t)streams_copy_out(st->out, st->len, &st->off, buf, max);
}

static void free_stream(void *cls)
{
    SseStream *st = cls;
    Session *s = st->s;
    SseHub *h = st->srv->sse;
    // The socket is still open here (libmicrohttpd closes it after freeing the
    // response): out of the set now, no later hub event can name st.
    if (st->watched)
        epoll_ctl(h->ep, EPOLL_CTL_DEL, st->fd, NULL);
    pthread_mutex_lock(&s->mu);
    if (st->prev)
        st->prev->next = st->next;
    else
        s->streams = st->next;
    if (st->next)
        st->next->prev = st->prev;
    st->suspended = false;
    pthread_mutex_unlock(&s->mu);
    streams_count_close(s, st->viewer);
    streams_give_back(st->srv, st->addr, st->hold);
    event_release(st->ev);
    st->ev = NULL;
    atomic_fetch_sub(&st->srv->open_streams, 1);
    pthread_mutex_lock(&h->mu);
    st->dead_next = h->dead;
    h->dead = st;
    pthread_mutex_unlock(&h->mu);
}

/* Gives back what the caller of sse_response counted for a stream that never opened. */
static void never_opened(Server *srv, Session *s, int viewer, const char *addr,
                         int64_t hold)
{
    streams_count_close(s, viewer);
    streams_give_back(srv, addr, hold);
    session_release(s);
}

struct MHD_Response *sse_response(Server *srv, struct MHD_Connection *c, Session *s,
                                  int viewer, const char *addr, int64_t hold)
{
    SseStream *st = calloc(1, sizeof *st);
    if (st == NULL) {
        never_opened(srv, s, viewer, addr, hold);
        return NULL;
    }
    st->srv = srv;
    st->s = s;
    st->conn = c;
    st->viewer = viewer;
    st->hold = hold;
    st->last_sent = mono_ms();
    snprintf(st->addr, sizeof st->addr, "%s", addr);
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    st->fd = ci ? ci->connect_fd : -1;
    struct MHD_Response *mr =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4 * 1024, read_stream, st,
                                          free_stream);
    if (mr == NULL) {
        free(st);
        never_opened(srv, s, viewer, addr, hold);
        return NULL;
    }
    // A plain body until the connection closes, so that the hub's own sends fit in.
    MHD_set_response_options(mr, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
    if (st->fd >= 0) {
        const int one = 1;
        setsockopt(st->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    // Watched for its hang-up from the start, once: the one event disarms it.
    struct epoll_event ev = {.events = EPOLLRDHUP | EPOLLONESHOT, .data.ptr = st};
    st->watched = st->fd >= 0 && epoll_ctl(srv->sse->ep, EPOLL_CTL_ADD, st->fd, &ev) == 0;
    pthread_mutex_lock(&s->mu);
    st->next = s->streams;
    if (s->streams)
        s->streams->prev = st;
    s->streams = st;
    pthread_mutex_unlock(&s->mu);
    atomic_fetch_add(&srv->open_streams, 1);
    return mr;
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
        bool kicked = false;
        for (int i = 0; i < n; i++) {
            if (evs[i].data.ptr == NULL) {
                stop = true;
                continue;
            }
            if (evs[i].data.ptr == h) {
                kicked = true;
                continue;
            }
            // A hang-up: the stream ends without writing again, at once if it is
            // suspended, else when its current event is out.
            SseStream *st = evs[i].data.ptr;
            pthread_mutex_lock(&st->s->mu);
            st->gone = true;
            resume_locked(st);
            pthread_mutex_unlock(&st->s->mu);
        }
        if (kicked) {
            pthread_mutex_lock(&h->bmu);
            broadcast_queued(h);
            pthread_mutex_unlock(&h->bmu);
        }
        free_dead(h);
        if (stop)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        // Once a second: streams come due one by one, as they were last sent to.
        if (now.tv_sec - last.tv_sec >= 1) {
            last = now;
            pthread_mutex_lock(&h->bmu);
            send_keep_alives(h);
            pthread_mutex_unlock(&h->bmu);
        }
    }
    return NULL;
}

/* Ends the helpers and the hub's locks (the hub's thread has ended or never began). */
static void stop_helpers(SseHub *h)
{
    pthread_mutex_lock(&h->hmu);
    h->helper_stop = true;
    pthread_cond_broadcast(&h->hcv);
    pthread_mutex_unlock(&h->hmu);
    for (int i = 0; i < h->nhelpers; i++)
        pthread_join(h->helpers[i].thread, NULL);
    pthread_mutex_destroy(&h->hmu);
    pthread_cond_destroy(&h->hcv);
    pthread_cond_destroy(&h->dcv);
    pthread_mutex_destroy(&h->bmu);
    pthread_mutex_destroy(&h->mu);
}

Status sse_hub_start(Server *srv, SseHub **out, ErrBuf *err)
{
    SseHub *h = calloc(1, sizeof *h);
    if (h == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    h->srv = srv;
    h->keep_alive = malloc(sizeof *h->keep_alive + sizeof KEEP_ALIVE);
    if (h->keep_alive == NULL) {
        free(h);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    atomic_init(&h->keep_alive->refs, 1);
    h->keep_alive->version = 0;
    h->keep_alive->len = sizeof KEEP_ALIVE - 1;
    memcpy(h->keep_alive->bytes, KEEP_ALIVE, sizeof KEEP_ALIVE);
    atomic_init(&h->next, 0);
    pthread_mutex_init(&h->mu, NULL);
    pthread_mutex_init(&h->bmu, NULL);
    pthread_mutex_init(&h->hmu, NULL);
    pthread_cond_init(&h->hcv, NULL);
    pthread_cond_init(&h->dcv, NULL);
    // The helpers first, so the hub's thread finds nhelpers set; without them, the hub's
    // thread sends everything itself.
    pthread_attr_t attr;
    const bool small = pthread_attr_init(&attr) == 0;
    if (small && pthread_attr_setstacksize(&attr, HELPER_STACK) != 0) {
        // The default stack then, which only costs address space.
    }
    for (; h->nhelpers < SSE_HELPERS; h->nhelpers++) {
        Helper *hp = &h->helpers[h->nhelpers];
        hp->h = h;
        if (pthread_create(&hp->thread, small ? &attr : NULL, helper_main, hp) != 0)
            break;
    }
    if (small)
        pthread_attr_destroy(&attr);
    h->ep = epoll_create1(EPOLL_CLOEXEC);
    h->stopfd = eventfd(0, EFD_CLOEXEC);
    h->kickfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    struct epoll_event kick = {.events = EPOLLIN, .data.ptr = h};
    if (h->ep < 0 || h->stopfd < 0 || h->kickfd < 0 ||
        epoll_ctl(h->ep, EPOLL_CTL_ADD, h->stopfd, &ev) != 0 ||
        epoll_ctl(h->ep, EPOLL_CTL_ADD, h->kickfd, &kick) != 0 ||
        pthread_create(&h->thread, NULL, hub_main, h) != 0) {
        const int e = errno;
        stop_helpers(h);
        if (h->ep >= 0)
            close(h->ep);
        if (h->stopfd >= 0)
            close(h->stopfd);
        if (h->kickfd >= 0)
            close(h->kickfd);
        event_release(h->keep_alive);
        free(h);
        return err_set(err, STATUS_IO, "cannot start the event stream thread: %s",
                       strerror(e));
    }
    *out = h;
    return STATUS_OK;
}

void sse_hub_quiesce(SseHub *h)
{
    if (h == NULL)
        return;
    pthread_mutex_lock(&h->bmu);
    pthread_mutex_unlock(&h->bmu);
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
    for (int i = 0; i < h->nqueue; i++)
        session_release(h->queue[i]);
    free(h->queue);
    free_dead(h);
    stop_helpers(h);
    free(h->batch);
    free(h->pinging);
    event_release(h->keep_alive);
    close(h->ep);
    close(h->stopfd);
    close(h->kickfd);
    free(h);
}
