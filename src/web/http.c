/*
 * http.c - libmicrohttpd glue (see http.h): the daemon, request bodies, bounds, where
 * requests may come from, tokens, rate limits, security headers, and routing to the
 * API, the event streams and the front-end files.
 *
 * The daemon runs a few event-loop threads on epoll, so that open connections cost no
 * thread: an event stream with nothing to send is suspended (sse.c). A request that may
 * block (a database write, a hint waiting for the AI, a game loaded from the store) must
 * not hold up the other connections of its loop: its connection is suspended and the
 * request handed to the workers here, which answer it and resume the connection. The
 * checks on where a request comes from and what it carries run in the loop before
 * that, and every answer goes out through send_response, so they apply alike.
 */
#include "web/http.h"

#include <arpa/inet.h>
#include <jansson.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "core/clock.h"
#include "web/routes.h"
#include "web/assets.h"
#include "web/gate.h"
#include "web/langpages.h"
#include "web/language.h"
#include "web/message.h"
#include "web/origin.h"
#include "web/quota.h"
#include "web/realip.h"
#include "web/ratelimit.h"
#include "web/weblog.h"
#include "web/context.h"
#include "web/session.h"
#include "web/sse.h"
#include "web/tour_live.h"
#include "web/streams.h"

/* What one request collects between the calls libmicrohttpd makes for it. */
typedef struct ConnCtx {
    char *body;
    size_t len;
    /* The body's deadline (clock_ms): --head-timeout after its head, plus its length at
     * SERVER_MIN_BODY_RATE; a body still coming after it is cut off (slowloris). */
    int64_t body_deadline;
    bool too_large;
    bool answered; /* a response is queued already */
    /* a request handed to the workers: the connection waits suspended until done */
    struct MHD_Connection *conn;
    char addr[REALIP_TEXT]; /* the client's, which req.addr points to */
    Request req;
    Response res;
    bool done;
    struct ConnCtx *next; /* in the workers' queue */
} ConnCtx;

/* The workers that answer requests which may block. */
struct HttpWorkers {
    Server *srv;
    pthread_mutex_t mu;
    pthread_cond_t ready;
    ConnCtx *head, *tail; /* queued requests, guarded by mu */
    bool stopping;        /* guarded by mu: no more requests are queued */
    int n;
    pthread_t thread[SERVER_WORKERS];
};

static void add_security_headers(struct MHD_Response *mr, bool page)
{
    for (const HttpHeader *h = http_security_headers(page); h->name; h++)
        MHD_add_response_header(mr, h->name, h->value);
}

/* Ends the connection after this answer. libmicrohttpd reads a kept-alive connection's
 * later requests itself and answers some malformed ones (gate.c) in its own HTML, with
 * no hook to change that; with one request per connection, the gate reads every request
 * head. The price is a connection per request, which a browser behind a proxy does not
 * pay (it keeps its connection to the proxy) and an event stream never did. */
static void add_one_request(struct MHD_Response *mr)
{
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONNECTION, "close");
}

/* Queues r (taking its body) with the headers every answer carries. */
static enum MHD_Result send_response(struct MHD_Connection *c, Response *r)
{
    static const char EMPTY[] = "";
    struct MHD_Response *mr =
        r->body ? MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE)
                : MHD_create_response_from_buffer(0, (void *)EMPTY, MHD_RESPMEM_PERSISTENT);
    if (mr == NULL) {
        free(r->body);
        r->body = NULL;
        return MHD_NO;
    }
    r->body = NULL;
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE,
                            r->content_type ? r->content_type : HTTP_JSON_TYPE);
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    add_one_request(mr);
    if (r->csp == NULL) {
        add_security_headers(mr, false);
    } else {
        for (const HttpHeader *h = http_security_headers(false); h->name; h++)
            if (strcmp(h->name, "Content-Security-Policy") != 0)
                MHD_add_response_header(mr, h->name, h->value);
        MHD_add_response_header(mr, "Content-Security-Policy", r->csp);
    }
    if (r->allow)
        MHD_add_response_header(mr, MHD_HTTP_HEADER_ALLOW, r->allow);
    if (r->location[0])
        MHD_add_response_header(mr, MHD_HTTP_HEADER_LOCATION, r->location);
    if (r->set_cookie[0])
        MHD_add_response_header(mr, MHD_HTTP_HEADER_SET_COOKIE, r->set_cookie);
    if (r->retry_after > 0) {
        char secs[16];
        snprintf(secs, sizeof secs, "%d", r->retry_after);
        MHD_add_response_header(mr, MHD_HTTP_HEADER_RETRY_AFTER, secs);
    }
    const enum MHD_Result ret = MHD_queue_response(c, (unsigned)r->status, mr);
    MHD_destroy_response(mr);
    return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *msg,
                                  const char *allow, int retry_after)
{
    Response r;
    memset(&r, 0, sizeof r);
    response_error(&r, status, "%s", msg);
    r.allow = allow;
    r.retry_after = retry_after;
    return send_response(c, &r);
}

/* The built-in front end: "/", every "/g/ID" page, "/import", the rules pages ("/learn",
 * "/learn/GAME"), "/lab", the analysis board ("/analysis") and the puzzles ("/puzzles",
 * "/puzzles/GAME", "/puzzles/GAME/ID") and the tournaments ("/tournaments",
 * "/tournaments/ID") are the one page of the app. */
static enum MHD_Result serve_asset(Server *srv, struct MHD_Connection *c, const char *path)
{
    if (strcmp(path, "/") == 0 || strncmp(path, "/g/", 3) == 0 || strcmp(path, "/learn") == 0 ||
        strncmp(path, "/learn/", 7) == 0 || strcmp(path, "/lab") == 0 ||
        strcmp(path, "/analysis") == 0 || strcmp(path, "/puzzles") == 0 ||
        strncmp(path, "/puzzles/", 9) == 0 || strcmp(path, "/tournaments") == 0 ||
        strncmp(path, "/tournaments/", 13) == 0)
        path = "/index.html";
    if (strcmp(path, "/import") == 0) // a record to review (js/import.js)
        path = "/index.html";
    if (strcmp(path, "/login") == 0 || strcmp(path, "/account") == 0) // js/account.js
        path = "/index.html";
    // A player's page and the leaderboards (js/profile.js).
    if (strncmp(path, "/u/", 3) == 0 || strcmp(path, "/leaderboard") == 0 ||
        strncmp(path, "/leaderboard/", 13) == 0)
        path = "/index.html";
    const WebAsset *a = assets_find(path);
    if (a == NULL)
        return send_error(c, 404, "no such page", NULL, 0);
    const void *data = a->data;
    size_t size = a->size;
    const char *etag = a->etag;
    int lang = -1;
    if (strcmp(path, "/index.html") == 0 && srv->pages) {
        // The app's page in the player's language from its first paint (language.h).
        lang = language_choose(MHD_lookup_connection_value(c, MHD_COOKIE_KIND, LANGUAGE_COOKIE),
                               MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                           MHD_HTTP_HEADER_ACCEPT_LANGUAGE));
        data = language_page(srv->pages, lang, &size, &etag);
    }
    const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
    const bool fresh = inm && strcmp(inm, etag) == 0;
    struct MHD_Response *mr = MHD_create_response_from_buffer(
        fresh ? 0 : size, fresh ? (void *)"" : (void *)data, MHD_RESPMEM_PERSISTENT);
    if (mr == NULL)
        return MHD_NO;
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_TYPE, a->mime);
    MHD_add_response_header(mr, MHD_HTTP_HEADER_ETAG, etag);
    if (lang >= 0) {
        MHD_add_response_header(mr, MHD_HTTP_HEADER_CONTENT_LANGUAGE, language_code(lang));
        MHD_add_response_header(mr, MHD_HTTP_HEADER_VARY, "Accept-Language, Cookie");
    }
    // Revalidate every time: a new build of the server must never meet old scripts.
    MHD_add_response_header(mr, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    add_security_headers(mr, true);
    add_one_request(mr);
    const enum MHD_Result ret = MHD_queue_response(c, fresh ? 304 : 200, mr);
    MHD_destroy_response(mr);
    return ret;
}

/* Every X-Forwarded-For line joined with commas, in the order received: a proxy may
 * append a line of its own after one the client sent, and only the last is its. */
typedef struct Forwarded {
    StrBuf text;
    int lines;
} Forwarded;

static enum MHD_Result add_forwarded(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    (void)kind;
    Forwarded *f = cls;
    if (key != NULL && strcasecmp(key, "X-Forwarded-For") == 0) {
        if (f->lines++ > 0)
            sb_putc(&f->text, ',');
        sb_puts(&f->text, value ? value : "");
    }
    return MHD_YES;
}

/* The client's address as text, which every per-address limit counts (realip.h). */
static Status client_address(Server *srv, struct MHD_Connection *c, char *out, size_t cap,
                             ErrBuf *err)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *peer = ci ? ci->client_addr : NULL;
    if (srv->proxies == NULL)
        return realip_client(NULL, peer, NULL, out, cap, err);
    Forwarded xff = {.lines = 0};
    sb_init(&xff.text);
    MHD_get_connection_values(c, MHD_HEADER_KIND, add_forwarded, &xff);
    const Status st = sb_failed(&xff.text)
                          ? err_set(err, STATUS_NOMEM, "out of memory")
                          : realip_client(srv->proxies, peer,
                                          xff.lines > 0 ? sb_str(&xff.text) : NULL, out, cap, err);
    sb_free(&xff.text);
    return st;
}

/* The token from "Authorization: Bearer TOKEN", else, for reading only, from ?token=
 * (event streams cannot set headers in a browser). A token in a URL ends up in logs
 * and histories, so nothing that changes a game takes one there (on_request refuses). */
static const char *request_token(struct MHD_Connection *c)
{
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                   MHD_HTTP_HEADER_AUTHORIZATION);
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
        auth += 7;
        while (*auth == ' ')
            auth++;
        return auth;
    }
    return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
}

/* PREFIX "ID/events" -> ID in id (false if the path is not that): a game's or a
 * tournament's event stream. */
static bool events_path(const char *path, const char *prefix, char *id, size_t cap)
{
    const size_t plen = strlen(prefix);
    if (strncmp(path, prefix, plen) != 0)
        return false;
    const char *slash = strchr(path + plen, '/');
    if (slash == NULL || strcmp(slash, "/events") != 0)
        return false;
    const size_t n = (size_t)(slash - (path + plen));
    if (n == 0 || n >= cap)
        return false;
    memcpy(id, path + plen, n);
    id[n] = '\0';
    return true;
}

/* Answers a request in full (also on the workers' threads). */
static void answer(Server *srv, ConnCtx *cx)
{
    api_handle(srv, &cx->req, &cx->res);
    if (cx->res.status == 0)
        response_error(&cx->res, 500, "the request was not answered");
    cx->done = true;
}

static void *worker_main(void *arg)
{
    HttpWorkers *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->head == NULL && !w->stopping)
            pthread_cond_wait(&w->ready, &w->mu);
        ConnCtx *cx = w->head;
        if (cx == NULL)
            break; // stopping and the queue is empty
        w->head = cx->next;
        if (w->head == NULL)
            w->tail = NULL;
        pthread_mutex_unlock(&w->mu);
        answer(w->srv, cx);
        // libmicrohttpd calls on_request again, which sends the answer.
        MHD_resume_connection(cx->conn);
        pthread_mutex_lock(&w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Suspends cx's connection and queues its request; false once the workers stop (the
 * caller answers it itself). */
static bool workers_queue(HttpWorkers *w, ConnCtx *cx)
{
    pthread_mutex_lock(&w->mu);
    if (w->stopping) {
        pthread_mutex_unlock(&w->mu);
        return false;
    }
    // Suspended before any worker can see it, so the resume always follows the suspend.
    MHD_suspend_connection(cx->conn);
    cx->next = NULL;
    if (w->tail)
        w->tail->next = cx;
    else
        w->head = cx;
    w->tail = cx;
    pthread_cond_signal(&w->ready);
    pthread_mutex_unlock(&w->mu);
    return true;
}

static Status workers_start(Server *srv, HttpWorkers **out, ErrBuf *err)
{
    HttpWorkers *w = calloc(1, sizeof *w);
    if (w == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    w->srv = srv;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->ready, NULL);
    *out = w;
    for (; w->n < SERVER_WORKERS; w->n++)
        if (pthread_create(&w->thread[w->n], NULL, worker_main, w) != 0)
            return err_set(err, STATUS_IO, "cannot start the HTTP worker threads");
    return STATUS_OK;
}

/* Answers what is queued, then ends the worker threads. The struct stays, stopping, for
 * the daemon's threads that still call workers_queue until the daemon stops; then
 * workers_free. NULL is fine. */
static void workers_stop(HttpWorkers *w)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&w->mu);
    w->stopping = true;
    pthread_cond_broadcast(&w->ready);
    pthread_mutex_unlock(&w->mu);
    for (int i = 0; i < w->n; i++)
        pthread_join(w->thread[i], NULL);
    w->n = 0;
}

/* Once no thread can reach w (the daemon has stopped). NULL is fine. */
static void workers_free(HttpWorkers *w)
{
    if (w == NULL)
        return;
    pthread_cond_destroy(&w->ready);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

static enum MHD_Result serve_events(Server *srv, struct MHD_Connection *c, const char *id,
                                    const char *addr)
{
    Session *s = NULL;
    ErrBuf err;
    const Status st = session_find(srv, id, &s, &err);
    if (st != STATUS_OK)
        return send_error(c, http_status_of(st), err.msg, NULL, 0);
    const char *token = request_token(c);
    int viewer = -1;
    if (token && token[0] && (viewer = session_seat_of(s, token)) < 0) {
        session_release(s);
        return send_error(c, 403, "the token is not the token of any seat of this game", NULL,
                          0);
    }
    char msg[ERRBUF_LEN];
    msg[0] = '\0';
    bool mine = streams_count_open(srv, s, viewer, msg, sizeof msg); // this process's counts
    if (mine && !quota_take(srv->quota, addr, QUOTA_STREAMS, srv->cfg.streams_per_ip)) {
        snprintf(msg, sizeof msg, "your address has %d event streams open, the most it may "
                 "have: close some", srv->cfg.streams_per_ip);
        streams_count_close(s, viewer);
        mine = false;
    }
    // Processes sharing a store count every process's streams too: one short
    // transaction per open (and per close), none per event.
    int64_t hold = 0;
    StoreRefusal refused = STORE_ADMITTED;
    int code = 429;
    // A seat's stream is never refused for the game's count (streams_count_open).
    const int game_cap = viewer >= 0 ? INT_MAX : srv->cfg.streams_per_game;
    if (mine && store_live_take(srv->store, addr, id, QUOTA_STREAMS, srv->cfg.streams_per_ip,
                                game_cap, srv->cfg.dead_after_s, &hold,
                                &refused, &err) != STATUS_OK) {
        code = 503;
        snprintf(msg, sizeof msg, "%s", err.msg);
    } else if (refused == STORE_ADDR_FULL) {
        snprintf(msg, sizeof msg, "your address has %d event streams open on this site's "
                 "servers, the most it may have: close some", srv->cfg.streams_per_ip);
    } else if (refused == STORE_GAME_FULL) {
        snprintf(msg, sizeof msg, "this game has %d event streams open on this site's "
                 "servers, the most it may have: try again later", srv->cfg.streams_per_game);
    }
    if (mine && msg[0] != '\0') {
        streams_count_close(s, viewer);
        quota_give(srv->quota, addr, QUOTA_STREAMS);
    }
    if (msg[0] != '\0') {
        session_release(s);
        return send_error(c, code, msg, NULL, 10);
    }
    // The stream holds the reference, the counts and the hold until it is freed.
    struct MHD_Response *mr = sse_response(srv, c, s, viewer, addr, hold);
    if (mr == NULL)
        return send_error(c, 503, "out of memory", NULL, 0);
    add_security_headers(mr, false);
    const enum MHD_Result ret = MHD_queue_response(c, 200, mr);
    MHD_destroy_response(mr);
    return ret;
}

/* A tournament's event stream (tour_live.h), resumed from the Last-Event-ID its browser
 * sends when it reconnects. */
static enum MHD_Result serve_tour_events(Server *srv, struct MHD_Connection *c, const char *id,
                                         const char *addr)
{
    int code = 0, retry = 0;
    char msg[ERRBUF_LEN];
    const char *last = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Last-Event-ID");
    struct MHD_Response *mr =
        tour_live_open(srv, c, id, addr, last, &code, &retry, msg, sizeof msg);
    if (mr == NULL)
        return send_error(c, code, msg, NULL, retry);
    add_security_headers(mr, false);
    const enum MHD_Result ret = MHD_queue_response(c, 200, mr);
    MHD_destroy_response(mr);
    return ret;
}

typedef struct HeadSize {
    size_t headers, query;
} HeadSize;

/* Adds a header's or query argument's size to *cls (a size_t). */
static enum MHD_Result add_size(void *cls, enum MHD_ValueKind kind, const char *key,
                                const char *value)
{
    (void)kind;
    *(size_t *)cls += strlen(key) + (value ? strlen(value) : 0) + 4;
    return MHD_YES;
}

/* Whether a POST's Content-Type is JSON's; a POST without a body may have none. */
static bool json_content(struct MHD_Connection *c, bool has_body)
{
    const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_CONTENT_TYPE);
    if (ct == NULL)
        return !has_body;
    static const char JSON[] = "application/json";
    const size_t n = sizeof JSON - 1;
    return strncasecmp(ct, JSON, n) == 0 && (ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ');
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_size, void **con_cls)
{
    Server *srv = cls;
    ConnCtx *cx = *con_cls;
    char body_msg[96];
    if (cx != NULL && cx->done)
        return send_response(c, &cx->res); // answered by a worker, now resumed
    // A game record to import may be a long game's: its one path takes more.
    const int max_body = strcmp(url, "/api/import") == 0 ? SERVER_MAX_IMPORT_BODY
                                                          : SERVER_MAX_BODY;
    snprintf(body_msg, sizeof body_msg, "a request body is at most %d bytes", max_body);
    if (cx == NULL) {
        if ((cx = calloc(1, sizeof *cx)) == NULL)
            return MHD_NO;
        *con_cls = cx;
        // Bounds on the request line and headers well below the library's own (its
        // connection memory), so that the refusal is ours, in JSON.
        HeadSize hs = {0, 0};
        MHD_get_connection_values(c, MHD_HEADER_KIND, add_size, &hs.headers);
        MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, add_size, &hs.query);
        if (strlen(url) + hs.query > SERVER_MAX_URL) {
            cx->answered = true;
            char msg[96];
            snprintf(msg, sizeof msg, "a request's URL is at most %d bytes", SERVER_MAX_URL);
            return send_error(c, 414, msg, NULL, 0);
        }
        if (hs.headers > SERVER_MAX_HEADERS) {
            cx->answered = true;
            char msg[96];
            snprintf(msg, sizeof msg, "a request's headers are at most %d bytes in all",
                     SERVER_MAX_HEADERS);
            return send_error(c, 431, msg, NULL, 0);
        }
        // Refuse a body announced as too large before it is sent at all.
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                     MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > (unsigned long long)max_body) {
            cx->too_large = true;
            cx->answered = true;
            return send_error(c, 413, body_msg, NULL, 0);
        }
        // A body must keep coming: the library's idle time-out shortened while it does,
        // and a deadline for the whole of it.
        const unsigned long long announced = cl ? strtoull(cl, NULL, 10) : (unsigned long long)max_body;
        cx->body_deadline = clock_ms() + srv->cfg.head_timeout_s * 1000L +
                            (int64_t)(announced * 1000 / SERVER_MIN_BODY_RATE);
        MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT,
                                  (unsigned)srv->cfg.head_timeout_s);
        return MHD_YES;
    }
    if (*upload_size != 0) {
        if (clock_ms() > cx->body_deadline)
            return MHD_NO; // too slow: the connection is closed

        if (!cx->too_large && cx->len + *upload_size > (size_t)max_body) {
            cx->too_large = true;
            free(cx->body);
            cx->body = NULL;
            cx->len = 0;
        }
        if (!cx->too_large) {
            char *b = realloc(cx->body, cx->len + *upload_size + 1);
            if (b == NULL)
                return MHD_NO;
            memcpy(b + cx->len, upload_data, *upload_size);
            cx->body = b;
            cx->len += *upload_size;
            b[cx->len] = '\0';
        }
        *upload_size = 0;
        return MHD_YES;
    }
    // The body is in: the answer (an event stream, say) has the usual idle time-out.
    MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, (unsigned)SERVER_CONN_TIMEOUT_S);
    // One answer per request: a refusal queued before the body came is not sent again.
    if (cx->answered)
        return MHD_YES;
    if (cx->too_large)
        return send_error(c, 413, body_msg, NULL, 0);

    const bool is_get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
    const bool is_post = strcmp(method, "POST") == 0;
    if (!is_get && !is_post)
        return send_error(c, 405, "this server answers GET and POST only", "GET, POST", 0);
    if (strcmp(version, MHD_HTTP_VERSION_1_1) == 0 &&
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST) == NULL)
        return send_error(c, 400, "an HTTP/1.1 request needs a Host header", NULL, 0);
    const union MHD_ConnectionInfo *peer =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const char *refusal = origin_refusal(
        srv, MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST),
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
        MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Forwarded-Proto"),
        peer ? peer->client_addr : NULL);
    if (refusal != NULL)
        return send_error(c, 403, refusal, NULL, 0);
    char addr[REALIP_TEXT];
    ErrBuf addr_err;
    const Status addr_st = client_address(srv, c, addr, sizeof addr, &addr_err);
    if (addr_st != STATUS_OK)
        return send_error(c, http_status_of(addr_st), addr_err.msg, NULL, 0);
    if (is_post) {
        if (!json_content(c, cx->len > 0))
            return send_error(c, 415, "a request body must be JSON, sent with 'Content-Type: "
                              "application/json'", NULL, 0);
        if (MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token") != NULL)
            return send_error(c, 400, "a token in the URL is taken for reading only: send it "
                              "as 'Authorization: Bearer TOKEN'", NULL, 0);
        int retry = 1;
        if (!ratelimit_take(srv->rate, addr, &retry)) {
            char msg[128];
            snprintf(msg, sizeof msg, "too many requests from your address: try again in %d s",
                     retry);
            return send_error(c, 429, msg, NULL, retry);
        }
    }
    if (strncmp(url, "/api/", 5) != 0 && strcmp(url, "/api") != 0) {
        if (!is_get)
            return send_error(c, 405, "pages are read with GET", "GET", 0);
        return serve_asset(srv, c, url);
    }
    char id[64];
    const bool tour = events_path(url, "/api/tournaments/", id, sizeof id);
    if (tour || events_path(url, "/api/games/", id, sizeof id)) {
        if (!is_get)
            return send_error(c, 405, "event streams are read with GET", "GET", 0);
        return tour ? serve_tour_events(srv, c, id, addr) : serve_events(srv, c, id, addr);
    }
    snprintf(cx->addr, sizeof cx->addr, "%s", addr);
    cx->req = (Request){
        .method = is_get ? "GET" : "POST",
        .path = url,
        .body = cx->body ? cx->body : "",
        .body_len = cx->len,
        .token = request_token(c),
        .addr = cx->addr,
        .session = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, HTTP_SESSION_COOKIE),
        .passkey = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, HTTP_PASSKEY_COOKIE),
        .origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
        .lang = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, LANGUAGE_COOKIE),
        .accept_language = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                       MHD_HTTP_HEADER_ACCEPT_LANGUAGE),
        .https = origin_https(srv, MHD_lookup_connection_value(c, MHD_HEADER_KIND,
                                                               "X-Forwarded-Proto"),
                              peer ? peer->client_addr : NULL),
        .conn = c,
    };
    cx->conn = c;
    // What never blocks is answered here; the rest may wait on a lock or the store.
    const bool quick = is_get && api_is_quick("GET", url);
    if (!quick && workers_queue(srv->http_workers, cx))
        return MHD_YES;
    answer(srv, cx);
    return send_response(c, &cx->res);
}

/* The per-address count of connections is the gate's, by the client its head names
 * (the library's own counts the TCP peer, a proxy's clients all as one). */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    (void)socket_context;
    Server *srv = cls;
    if (toe != MHD_CONNECTION_NOTIFY_CLOSED)
        return;
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (ci != NULL)
        gate_closed(srv->gate, ci->connect_fd);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode code)
{
    (void)cls;
    (void)c;
    (void)code;
    ConnCtx *cx = *con_cls;
    if (cx) {
        free(cx->body);
        free(cx->res.body);
        free(cx);
        *con_cls = NULL;
    }
}

/* libmicrohttpd's log, on stderr, less the line it writes for every event stream whose
 * client hung up (sse.c ends those with an error on purpose). */
static void log_line(void *cls, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void log_line(void *cls, const char *fmt, va_list ap)
{
    Server *srv = cls;
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    weblog_library(srv->log, line, clock_ms());
}

Status http_start(Server *srv, ErrBuf *err)
{
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    const struct sockaddr *sa;
    socklen_t salen;
    // The gate (gate.c) listens and hands connections over: the library has no socket
    // of its own, and needs its wake-up channel to take them at once.
    unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME |
                     MHD_USE_ERROR_LOG | MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
    const uint16_t port = (uint16_t)srv->cfg.port;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, srv->cfg.bind, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        sa = (const struct sockaddr *)(const void *)&v4;
        salen = sizeof v4;
    } else if (inet_pton(AF_INET6, srv->cfg.bind, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        sa = (const struct sockaddr *)(const void *)&v6;
        salen = sizeof v6;
        flags |= MHD_USE_IPv6;
    } else {
        return err_set(err, STATUS_PARSE, "cannot listen on '%s': give an IPv4 or IPv6 "
                       "address such as 127.0.0.1 or 0.0.0.0", srv->cfg.bind);
    }
    Status st = sse_hub_start(srv, &srv->sse, err);
    if (st == STATUS_OK)
        st = workers_start(srv, &srv->http_workers, err);
    if (st != STATUS_OK) {
        http_stop(srv);
        return st;
    }
    srv->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, srv, MHD_OPTION_EXTERNAL_LOGGER, log_line, srv,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVER_HTTP_THREADS,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        (size_t)SERVER_CONN_MEMORY, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)srv->cfg.max_connections, MHD_OPTION_NOTIFY_CONNECTION, on_connection, srv,
        MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned)SERVER_CONN_TIMEOUT_S, MHD_OPTION_END);
    if (srv->daemon == NULL) {
        http_stop(srv);
        return err_set(err, STATUS_IO, "cannot start the HTTP daemon");
    }
    if ((st = gate_start(srv, sa, salen, &srv->gate, err)) != STATUS_OK)
        http_stop(srv);
    return st;
}

void http_stop(Server *srv)
{
    gate_stop(srv->gate); // no new connections
    // Every suspended connection must be resumed before the daemon stops: the workers
    // answer what they hold, and the streams were woken to end by sessions_wake_all.
    // Until the daemon stops its threads may still offer a request to the workers, whose
    // struct outlives it saying "stopping", so the loop's thread answers it itself.
    workers_stop(srv->http_workers);
    sse_hub_quiesce(srv->sse); // its sends done, every stream it holds resumed
    if (srv->daemon) {
        MHD_stop_daemon(srv->daemon);
        srv->daemon = NULL;
    }
    gate_free(srv->gate); // the library reports no more closes
    srv->gate = NULL;
    workers_free(srv->http_workers);
    srv->http_workers = NULL;
    sse_hub_stop(srv->sse);
    srv->sse = NULL;
}
