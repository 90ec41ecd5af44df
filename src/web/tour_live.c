/*
 * tour_live.c - tournaments' event streams (see tour_live.h). A tournament changes a few
 * times a minute and has a few dozen watchers, so its streams do without sse.c's hub and
 * its shared sends (built for ten thousand watchers of one game): libmicrohttpd pulls each
 * stream's body through read_stream, which suspends the connection when there is nothing
 * to send; a change resumes the tournament's suspended streams and each writes the one
 * short event itself. The streams of every tournament of this process hang on one list,
 * under one mutex, grouped by tournament (TourChan); suspending and resuming happen under
 * it, so a resume never precedes its suspend. libmicrohttpd does not see a suspended
 * client hang up: the keep-alive every --keep-alive seconds resumes the stream, and the
 * write to a closed socket ends it.
 *
 * The version a stream sends is the store's (store_tournament.h): the same in every
 * process sharing it, so a page that reconnects to another server resumes from the same
 * Last-Event-ID. This process reads it after its own changes and tells the others
 * (store_tour_notify); theirs come through the store's watch.
 */
#include "web/tour_live.h"

#include <inttypes.h>
#include <microhttpd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "web/context.h"
#include "web/message.h"
#include "web/quota.h"
#include "web/secret.h"
#include "web/store.h"
#include "web/store_tournament.h"
#include "web/streams.h"

typedef struct TourChan TourChan;
typedef struct TourStream TourStream;

struct TourStream {
    Server *srv;
    TourChan *ch;
    struct MHD_Connection *conn;
    char addr[64]; /* the client's, whose stream quota this holds */
    int64_t hold;  /* its hold in a shared store (store_live_take), or 0 */
    /* guarded by the TourLive's mutex */
    bool started;   /* an event went out, or the client had the version already */
    bool suspended; /* waiting for a change */
    bool ping_due;  /* a keep-alive goes out next */
    uint64_t sent;  /* the version last sent */
    int64_t last_sent; /* when it was last given bytes, monotonic ms */
    TourStream *prev, *next;
    /* what is being written and how far: the connection's thread's own */
    char out[128];
    size_t len, off;
};

/* The streams of one tournament: counted against --streams-per-game, as a game's are. */
struct TourChan {
    char id[SECRET_ID_LEN + 1];
    uint64_t version;
    int nstreams; /* open, and being opened */
    TourStream *streams;
    TourChan *next;
};

struct TourLive {
    pthread_mutex_t mu;
    TourChan *chans;
};

static const char KEEP_ALIVE[] = ": keep-alive\n\n";

Status tour_live_new(TourLive **out, ErrBuf *err)
{
    TourLive *tl = calloc(1, sizeof *tl);
    if (tl == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    pthread_mutex_init(&tl->mu, NULL);
    *out = tl;
    return STATUS_OK;
}

void tour_live_free(TourLive *tl)
{
    if (tl == NULL)
        return;
    // Every stream has been freed with the daemon, and with it every channel.
    pthread_mutex_destroy(&tl->mu);
    free(tl);
}

static TourChan *find_locked(TourLive *tl, const char *id)
{
    for (TourChan *c = tl->chans; c; c = c->next)
        if (strcmp(c->id, id) == 0)
            return c;
    return NULL;
}

/* Counts one stream less for ch, and lets ch go when it has none. tl->mu held. */
static void unref_locked(TourLive *tl, TourChan *ch)
{
    if (--ch->nstreams > 0)
        return;
    for (TourChan **p = &tl->chans; *p; p = &(*p)->next)
        if (*p == ch) {
            *p = ch->next;
            break;
        }
    free(ch);
}

static void resume_locked(TourStream *st)
{
    if (st->suspended) {
        st->suspended = false;
        MHD_resume_connection(st->conn);
    }
}

static ssize_t read_stream(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    TourStream *st = cls;
    if (st->off == st->len) {
        TourLive *tl = st->srv->tour_live;
        pthread_mutex_lock(&tl->mu);
        const uint64_t v = st->ch->version;
        int n = 0;
        if (atomic_load(&st->srv->stopping)) {
            pthread_mutex_unlock(&tl->mu);
            return MHD_CONTENT_READER_END_OF_STREAM;
        }
        if (!st->started || st->sent != v) {
            n = snprintf(st->out, sizeof st->out,
                         "id: %" PRIu64 "\nevent: change\ndata: {\"version\":%" PRIu64 "}\n\n",
                         v, v);
            st->sent = v;
            st->started = true;
        } else if (st->ping_due) {
            n = snprintf(st->out, sizeof st->out, "%s", KEEP_ALIVE);
        } else {
            st->suspended = true;
            MHD_suspend_connection(st->conn);
            pthread_mutex_unlock(&tl->mu);
            return 0; // called again once resumed
        }
        st->ping_due = false;
        st->last_sent = clock_ms();
        pthread_mutex_unlock(&tl->mu);
        st->len = n > 0 && (size_t)n < sizeof st->out ? (size_t)n : 0;
        st->off = 0;
        if (st->len == 0)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    return (ssize_t)streams_copy_out(st->out, st->len, &st->off, buf, max);
}

static void free_stream(void *cls)
{
    TourStream *st = cls;
    TourLive *tl = st->srv->tour_live;
    pthread_mutex_lock(&tl->mu);
    if (st->prev)
        st->prev->next = st->next;
    else
        st->ch->streams = st->next;
    if (st->next)
        st->next->prev = st->prev;
    unref_locked(tl, st->ch);
    pthread_mutex_unlock(&tl->mu);
    streams_give_back(st->srv, st->addr, st->hold);
    free(st);
}

/* Counts a stream of tournament id (at `version` in the store) in its channel, made if
 * need be; false at the per-tournament limit. */
static TourChan *reserve(TourLive *tl, const char *id, uint64_t version, int limit)
{
    pthread_mutex_lock(&tl->mu);
    TourChan *ch = find_locked(tl, id);
    if (ch == NULL && (ch = calloc(1, sizeof *ch)) != NULL) {
        snprintf(ch->id, sizeof ch->id, "%s", id);
        ch->next = tl->chans;
        tl->chans = ch;
    }
    if (ch != NULL && ch->nstreams >= limit && ch->nstreams > 0) {
        pthread_mutex_unlock(&tl->mu);
        return NULL;
    }
    if (ch != NULL) {
        ch->nstreams++;
        if (version > ch->version)
            ch->version = version;
    }
    pthread_mutex_unlock(&tl->mu);
    return ch;
}

static void unreserve(TourLive *tl, TourChan *ch)
{
    pthread_mutex_lock(&tl->mu);
    unref_locked(tl, ch);
    pthread_mutex_unlock(&tl->mu);
}

/* The refusals of tour_live_open, worded as a game stream's are (http.c). */
static bool refuse(int *code, int *retry, char *msg, size_t n, int status, int wait,
                   const char *text)
{
    *code = status;
    *retry = wait;
    snprintf(msg, n, "%s", text);
    return false;
}

/* Takes the address's quota and, on a shared store, the hold counted by every process;
 * false with the refusal set. */
static bool take_limits(Server *srv, const char *addr, const char *id, int64_t *hold,
                        int *code, int *retry, char *msg, size_t n)
{
    char text[ERRBUF_LEN];
    *hold = 0;
    if (!quota_take(srv->quota, addr, QUOTA_STREAMS, srv->cfg.streams_per_ip)) {
        snprintf(text, sizeof text, "your address has %d event streams open, the most it may "
                 "have: close some", srv->cfg.streams_per_ip);
        return refuse(code, retry, msg, n, 429, 10, text);
    }
    StoreRefusal refused = STORE_ADMITTED;
    ErrBuf err;
    if (store_live_take(srv->store, addr, id, QUOTA_STREAMS, srv->cfg.streams_per_ip,
                        srv->cfg.streams_per_game, srv->cfg.dead_after_s, hold, &refused,
                        &err) != STATUS_OK) {
        quota_give(srv->quota, addr, QUOTA_STREAMS);
        return refuse(code, retry, msg, n, 503, 10, err.msg);
    }
    if (refused == STORE_ADMITTED)
        return true;
    quota_give(srv->quota, addr, QUOTA_STREAMS);
    if (refused == STORE_ADDR_FULL)
        snprintf(text, sizeof text, "your address has %d event streams open on this site's "
                 "servers, the most it may have: close some", srv->cfg.streams_per_ip);
    else
        snprintf(text, sizeof text, "this tournament has %d event streams open on this "
                 "site's servers, the most it may have: try again later",
                 srv->cfg.streams_per_game);
    return refuse(code, retry, msg, n, 429, 10, text);
}

struct MHD_Response *tour_live_open(Server *srv, struct MHD_Connection *c, const char *id,
                                    const char *addr, const char *last_id, int *code,
                                    int *retry, char *msg, size_t n)
{
    StoreTour t;
    ErrBuf err;
    *retry = 0;
    if (atomic_load(&srv->stopping)) {
        refuse(code, retry, msg, n, 503, 1, "the server is stopping");
        return NULL;
    }
    if (!secret_is_hex(id, SECRET_ID_LEN) || strlen(id) != SECRET_ID_LEN) {
        refuse(code, retry, msg, n, 404, 0, "no such tournament");
        return NULL;
    }
    const Status s = store_tour_get(srv->store, id, &t, &err);
    if (s != STATUS_OK) {
        refuse(code, retry, msg, n, http_status_of(s), 0, err.msg);
        return NULL;
    }
    TourLive *tl = srv->tour_live;
    TourChan *ch = reserve(tl, id, t.version, srv->cfg.streams_per_game);
    if (ch == NULL) {
        char text[ERRBUF_LEN];
        snprintf(text, sizeof text, "this tournament has %d event streams open, the most it "
                 "may have: try again later", srv->cfg.streams_per_game);
        refuse(code, retry, msg, n, 429, 10, text);
        return NULL;
    }
    int64_t hold = 0;
    if (!take_limits(srv, addr, id, &hold, code, retry, msg, n)) {
        unreserve(tl, ch);
        return NULL;
    }
    TourStream *st = calloc(1, sizeof *st);
    struct MHD_Response *mr =
        st ? MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 1024, read_stream, st,
                                               free_stream)
           : NULL;
    if (mr == NULL) {
        free(st);
        streams_give_back(srv, addr, hold);
        unreserve(tl, ch);
        refuse(code, retry, msg, n, 503, 10, "out of memory");
        return NULL;
    }
    st->srv = srv;
    st->ch = ch;
    st->conn = c;
    st->hold = hold;
    st->last_sent = clock_ms();
    snprintf(st->addr, sizeof st->addr, "%s", addr);
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    pthread_mutex_lock(&tl->mu);
    // A client that has the version already (Last-Event-ID) waits for the next.
    char *end = NULL;
    const unsigned long long seen = last_id ? strtoull(last_id, &end, 10) : 0;
    if (last_id && last_id[0] && end && *end == '\0' && seen == ch->version) {
        st->started = true;
        st->sent = ch->version;
    }
    st->next = ch->streams;
    if (ch->streams)
        ch->streams->prev = st;
    ch->streams = st;
    pthread_mutex_unlock(&tl->mu);
    return mr;
}

/* Tournament id is at `version`: its streams resumed to send it. */
static void wake(TourLive *tl, const char *id, uint64_t version)
{
    pthread_mutex_lock(&tl->mu);
    TourChan *ch = find_locked(tl, id);
    if (ch != NULL && version > ch->version) {
        ch->version = version;
        for (TourStream *st = ch->streams; st; st = st->next)
            resume_locked(st);
    }
    pthread_mutex_unlock(&tl->mu);
}

void tour_live_changed(Server *srv, const char *id)
{
    StoreTour t;
    ErrBuf err; // a notice lost only delays the pages until their next event or reconnect
    if (store_tour_get(srv->store, id, &t, &err) != STATUS_OK)
        return;
    store_tour_notify(srv->store, id, t.version, &err);
    wake(srv->tour_live, id, t.version);
}

void tour_live_remote(Server *srv, const char *id, uint64_t version)
{
    if (srv->tour_live != NULL)
        wake(srv->tour_live, id, version);
}

void tour_live_missed(Server *srv)
{
    TourLive *tl = srv->tour_live;
    if (tl == NULL)
        return;
    int n = 0, cap = 0;
    char(*ids)[SECRET_ID_LEN + 1] = NULL;
    pthread_mutex_lock(&tl->mu);
    for (TourChan *c = tl->chans; c; c = c->next)
        cap++;
    ids = cap ? calloc((size_t)cap, sizeof *ids) : NULL;
    for (TourChan *c = tl->chans; c && ids; c = c->next)
        snprintf(ids[n++], sizeof ids[0], "%s", c->id);
    pthread_mutex_unlock(&tl->mu);
    for (int i = 0; i < n; i++) {
        StoreTour t;
        ErrBuf err; // a read that failed waits for the tournament's next change
        if (store_tour_get(srv->store, ids[i], &t, &err) == STATUS_OK)
            wake(tl, ids[i], t.version);
    }
    free(ids);
}

void tour_live_tick(Server *srv)
{
    TourLive *tl = srv->tour_live;
    if (tl == NULL)
        return;
    const int64_t due_before = clock_ms() - 1000 * (int64_t)srv->cfg.keep_alive_s;
    pthread_mutex_lock(&tl->mu);
    for (TourChan *c = tl->chans; c; c = c->next)
        for (TourStream *st = c->streams; st; st = st->next)
            if (st->suspended && st->last_sent <= due_before) {
                st->ping_due = true;
                resume_locked(st);
            }
    pthread_mutex_unlock(&tl->mu);
}

void tour_live_wake_all(TourLive *tl)
{
    if (tl == NULL)
        return;
    pthread_mutex_lock(&tl->mu);
    for (TourChan *c = tl->chans; c; c = c->next)
        for (TourStream *st = c->streams; st; st = st->next)
            resume_locked(st);
    pthread_mutex_unlock(&tl->mu);
}
