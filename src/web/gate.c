/*
 * gate.c - the listening socket and the check of each connection's request head (see
 * gate.h). libmicrohttpd 0.9.75 answers a few malformed requests itself, with HTML
 * of its own that no option changes: a Content-Length that is not a number (400), an
 * HTTP version other than 1.0 and 1.1 (505), a request line or head beyond its
 * connection memory (414, 431), a header line without a colon (400), a bad chunk size
 * (400); and it leaves a body in another Transfer-Encoding (gzip) unanswered. So the server accepts connections itself: one thread
 * reads each new connection's head with MSG_PEEK (the bytes stay in the socket for the
 * library), answers those cases in JSON and closes, and hands every other connection to
 * the library (MHD_add_connection) unread.
 *
 * A connection carries one request (every answer says Connection: close, http.c), so
 * every request passes the gate: the library never reads a later request on a
 * kept-alive connection, which it would answer in its own HTML if malformed.
 *
 * A connection waiting here holds no thread, but a client that opens connections and
 * never finishes a head (slowloris) would hold the server's connections all the same.
 * So an address may hold only --heads-per-ip of them (QUOTA_HEADS), and an IPv6 /64,
 * which one client commonly has whole, as many again; all of them --max-connections;
 * and a head must be in within --head-timeout of the accept, however slowly it trickles
 * (nginx's client_header_timeout; the library's own time-out restarts at every byte).
 * A trusted proxy (--trusted-proxy) sends whole heads and bounds its own clients', so its
 * connections count only towards --max-connections.
 *
 * Once a head is in, its client is known (the proxy's X-Forwarded-For names it), and
 * the connection holds one of the client's --max-per-ip (QUOTA_CONNS) until the library
 * closes it (gate_closed): behind a proxy each client is limited alone, not the proxy.
 */
#define _GNU_SOURCE /* accept4 */
#include "web/gate.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/clock.h"
#include "web/message.h"
#include "web/quota.h"
#include "web/realip.h"
#include "web/context.h"

/* The largest head the gate reads: a URL and headers at their bounds, and the request
 * line's other words; beyond it the answer is 414 or 431 without reading further. */
enum { HEAD_MAX = SERVER_MAX_URL + SERVER_MAX_HEADERS + 256, DRAIN_MS = 2000 };
/* The bytes of a chunked body whose framing the gate checks before the library reads it
 * (which would answer a bad chunk size in HTML): a body of JSON requests in all. */
enum { CHUNKS_PEEK = SERVER_MAX_BODY + 1024 };

typedef struct Pending {
    int fd;
    bool closing; /* answered: reading what the client still sends, then closing */
    int64_t since; /* clock_ms() when accepted or answered */
    struct sockaddr_storage addr;
    socklen_t alen;
    bool holds_head;       /* it holds a place among ip's (and net's) QUOTA_HEADS */
    char ip[REALIP_TEXT];  /* whose QUOTA_HEADS it holds */
    char net[REALIP_TEXT]; /* and its IPv6 /64's, or "" for IPv4 */
    struct Pending *prev, *next;
} Pending;

/* A connection handed to the library, and the client whose QUOTA_CONNS it holds. */
typedef struct Held {
    int fd;
    char client[REALIP_TEXT];
    struct Held *next;
} Held;

enum { HELD_BUCKETS = 1024 };

struct Gate {
    Server *srv;
    /* the connections handed over, by fd: the gate's thread adds, the library's take away */
    pthread_mutex_t held_lock;
    Held *held[HELD_BUCKETS];
    int lfd;    /* the listening socket */
    int ep;
    int stopfd; /* eventfd that ends the thread */
    pthread_t thread;
    Pending *head; /* connections waiting, oldest last */
    int npending;
    /* a peek of one byte more than the head's bound and the start of a chunked body, and
     * a NUL */
    char buf[HEAD_MAX + 1 + CHUNKS_PEEK + 1];
};

static void forget(Gate *g, Pending *p, bool close_fd)
{
    if (p->prev)
        p->prev->next = p->next;
    else
        g->head = p->next;
    if (p->next)
        p->next->prev = p->prev;
    g->npending--;
    if (p->holds_head && p->ip[0])
        quota_give(g->srv->quota, p->ip, QUOTA_HEADS);
    if (p->holds_head && p->net[0])
        quota_give(g->srv->quota, p->net, QUOTA_HEADS);
    if (close_fd)
        close(p->fd); // also leaves the epoll set
    free(p);
}

/* The /64 an IPv6 peer belongs to, as "2001:db8:1:2::/64"; "" for IPv4 (also when
 * mapped into IPv6), where one address is one client. */
static void net64_text(const struct sockaddr *sa, char *out, size_t cap)
{
    out[0] = '\0';
    if (sa->sa_family != AF_INET6)
        return;
    const struct in6_addr *a = &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr;
    if (IN6_IS_ADDR_V4MAPPED(a))
        return;
    struct in6_addr net;
    memset(&net, 0, sizeof net);
    memcpy(&net, a, 8);
    char text[INET6_ADDRSTRLEN];
    if (inet_ntop(AF_INET6, &net, text, sizeof text) != NULL)
        snprintf(out, cap, "%s/64", text);
}

/* Takes a waiting head's place for the peer and its /64; false if either is full. A
 * trusted proxy takes none (ip and net are set to ""): it bounds its clients itself. */
static bool take_head(Gate *g, const struct sockaddr *peer, char *ip, char *net)
{
    if (realip_trusted_peer(g->srv->proxies, peer)) {
        ip[0] = net[0] = '\0';
        return true;
    }
    const int limit = g->srv->cfg.heads_per_ip;
    if (!quota_take(g->srv->quota, ip, QUOTA_HEADS, limit))
        return false;
    if (net[0] && !quota_take(g->srv->quota, net, QUOTA_HEADS, limit)) {
        quota_give(g->srv->quota, ip, QUOTA_HEADS);
        return false;
    }
    return true;
}

static bool examine(Gate *g, Pending *p);

static void accept_all(Gate *g)
{
    for (;;) {
        struct sockaddr_storage sa;
        socklen_t alen = sizeof sa;
        const int fd = accept4(g->lfd, (struct sockaddr *)&sa, &alen,
                               SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return; // EAGAIN, or an error of that one connection (the listener is fine)
        // Counted before any header is read: by the TCP peer, even behind a trusted
        // proxy (which bounds its clients' connections itself).
        char ip[REALIP_TEXT], net[REALIP_TEXT];
        realip_peer_text((const struct sockaddr *)&sa, ip, sizeof ip);
        net64_text((const struct sockaddr *)&sa, net, sizeof net);
        Pending *p = NULL;
        if (g->npending >= g->srv->cfg.max_connections || (p = calloc(1, sizeof *p)) == NULL) {
            close(fd); // as the library does beyond its connection limits
            continue;
        }
        p->fd = fd;
        p->since = clock_ms();
        p->addr = sa;
        p->alen = alen;
        snprintf(p->ip, sizeof p->ip, "%s", ip);
        snprintf(p->net, sizeof p->net, "%s", net);
        p->next = g->head;
        if (g->head)
            g->head->prev = p;
        g->head = p;
        g->npending++;
        // Edge-triggered: a peek leaves the bytes there, so only new bytes wake us.
        struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLET, .data.ptr = p};
        if (epoll_ctl(g->ep, EPOLL_CTL_ADD, fd, &ev) != 0) {
            forget(g, p, true);
            continue;
        }
        // A head that came with the connection is looked at at once and needs no place
        // among the waiting: a burst of honest clients behind one address (a school's
        // network) is not refused for heads that were never waited for.
        if (!examine(g, p))
            continue; // handed over, or refused
        if (!take_head(g, (const struct sockaddr *)&sa, p->ip, p->net)) {
            forget(g, p, true);
            continue;
        }
        p->holds_head = true;
    }
}

/* Whether [s, s+n) is a decimal number as Content-Length needs it. */
static bool all_digits(const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n == 0 || n > 18)
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* The refusal a complete head [h, h+n) deserves (its status and message), or 0 if the
 * library may have it. Only what the library would refuse in its own words is looked
 * at; everything else is on_request's (http.c). */
static int check_head(const char *h, size_t n, const char **msg, bool *chunked)
{
    *chunked = false;
    while (n > 0 && (*h == '\r' || *h == '\n'))
        h++, n--;
    const char *eol = memchr(h, '\n', n);
    size_t ll = eol ? (size_t)(eol - h) : n;
    if (ll > 0 && h[ll - 1] == '\r')
        ll--;
    const char *sp1 = memchr(h, ' ', ll);
    const char *sp2 = NULL;
    for (const char *q = h + ll; q > h; q--)
        if (q[-1] == ' ') {
            sp2 = q - 1;
            break;
        }
    if (sp1 == NULL || sp2 == sp1) {
        *msg = "the request line is malformed: it is METHOD TARGET HTTP/1.1";
        return 400;
    }
    const char *ver = sp2 + 1;
    const size_t vl = (size_t)(h + ll - ver);
    if (!(vl == 8 && (memcmp(ver, "HTTP/1.1", 8) == 0 || memcmp(ver, "HTTP/1.0", 8) == 0))) {
        if (vl >= 6 && memcmp(ver, "HTTP/", 5) == 0) {
            *msg = "this server speaks HTTP/1.0 and HTTP/1.1 only";
            return 505;
        }
        *msg = "the request line is malformed: it is METHOD TARGET HTTP/1.1";
        return 400;
    }
    for (const char *line = eol ? eol + 1 : h + n; line < h + n;) {
        const char *end = memchr(line, '\n', (size_t)(h + n - line));
        const size_t len = end ? (size_t)(end - line) : (size_t)(h + n - line);
        const size_t bare = len > 0 && line[len - 1] == '\r' ? len - 1 : len;
        static const char CL[] = "content-length:", TE[] = "transfer-encoding:";
        if (bare == 0) { // the blank line that ends the head
            line += len + 1;
            continue;
        }
        if (memchr(line, ':', bare) == NULL || line[0] == ' ' || line[0] == '\t') {
            // The library answers these in HTML; a line folded onto the one before is
            // obsolete (RFC 9112, 5.2) and read by no two servers alike.
            *msg = "a header line is malformed: each is Name: value on a line of its own";
            return 400;
        }
        if (len >= sizeof CL - 1 && strncasecmp(line, CL, sizeof CL - 1) == 0 &&
            !all_digits(line + sizeof CL - 1, len - (sizeof CL - 1))) {
            *msg = "the Content-Length header is not a number of bytes";
            return 400;
        }
        if (bare >= sizeof TE - 1 && strncasecmp(line, TE, sizeof TE - 1) == 0) {
            // The library would leave another coding (gzip) unanswered; chunks are
            // checked before it reads them (check_chunks).
            const char *v = line + sizeof TE - 1, *ve = line + bare;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            if ((size_t)(ve - v) == 7 && strncasecmp(v, "chunked", 7) == 0) {
                *chunked = true;
                line += len + 1;
                continue;
            }
            *msg = "this server reads request bodies without a Transfer-Encoding: send the "
                   "body as it is, with a Content-Length";
            return 501;
        }
        line += len + 1;
    }
    return 0;
}

/* Writes the JSON refusal and starts closing: the client's further bytes are read and
 * dropped until it closes or DRAIN_MS pass, so that closing with unread bytes does not
 * reset the connection before the client has read the answer. */
static void refuse(Gate *g, Pending *p, int status, const char *msg)
{
    Response r;
    memset(&r, 0, sizeof r);
    response_error(&r, status, "%s", msg);
    char head[1024];
    int hl = snprintf(head, sizeof head, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
                      "Content-Length: %zu\r\nConnection: close\r\nCache-Control: no-store\r\n",
                      status, MHD_get_reason_phrase_for((unsigned)status), r.content_type,
                      r.len);
    for (const HttpHeader *sh = http_security_headers(false); sh->name; sh++)
        hl += snprintf(head + hl, sizeof head - (size_t)hl, "%s: %s\r\n", sh->name, sh->value);
    if (status == 429 || status == 503) // a share that frees as connections close
        hl += snprintf(head + hl, sizeof head - (size_t)hl, "Retry-After: 5\r\n");
    hl += snprintf(head + hl, sizeof head - (size_t)hl, "\r\n");
    if (hl < (int)sizeof head && r.body &&
        send(p->fd, head, (size_t)hl, MSG_NOSIGNAL | MSG_DONTWAIT | MSG_MORE) == hl &&
        send(p->fd, r.body, r.len, MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)r.len &&
        (p->holds_head ||
         (p->holds_head = take_head(g, (const struct sockaddr *)&p->addr, p->ip, p->net)))) {
        // A connection draining here holds a place among its address's heads, so that a
        // flood of refused requests is bounded as unfinished heads are; without a place
        // it is closed at once.
        shutdown(p->fd, SHUT_WR);
        p->closing = true;
        p->since = clock_ms();
        struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP, .data.ptr = p};
        if (epoll_ctl(g->ep, EPOLL_CTL_MOD, p->fd, &ev) != 0)
            forget(g, p, true);
    } else {
        forget(g, p, true);
    }
    free(r.body);
}

/* Reads what a closing connection still sends; closes it at its end. */
static void drain(Gate *g, Pending *p)
{
    ssize_t n;
    while ((n = recv(p->fd, g->buf, sizeof g->buf, 0)) > 0) {
    }
    if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        forget(g, p, true);
}

/* The X-Forwarded-For lines of the head [h, h+n), joined with commas in the order
 * received, into out (cap bytes); false if it has none. A joined value that does not
 * fit is cut, and then fails as an address where it is read. */
static bool head_forwarded(const char *h, size_t n, char *out, size_t cap)
{
    static const char XFF[] = "x-forwarded-for:";
    size_t used = 0;
    bool any = false;
    out[0] = '\0';
    for (const char *line = h; line < h + n;) {
        const char *end = memchr(line, '\n', (size_t)(h + n - line));
        const size_t len = end ? (size_t)(end - line) : (size_t)(h + n - line);
        if (len >= sizeof XFF - 1 && strncasecmp(line, XFF, sizeof XFF - 1) == 0) {
            const char *v = line + sizeof XFF - 1, *ve = line + len;
            while (v < ve && (*v == ' ' || *v == '\t'))
                v++;
            while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
                ve--;
            const int w = snprintf(out + used, cap - used, "%s%.*s", any ? "," : "",
                                   (int)(ve - v), v);
            used = w < 0 || (size_t)w >= cap - used ? cap - 1 : used + (size_t)w;
            any = true;
        }
        line += len + 1;
    }
    return any;
}

/* Takes one of QUOTA_CONNS for the client of p's head, whose first `n` bytes are in
 * g->buf, and names it in h; refuses p (false) if the head names no client or the
 * client holds --max-per-ip connections already. */
static bool take_conn(Gate *g, Pending *p, size_t n, Held *h)
{
    char xff[SERVER_MAX_HEADERS + 1];
    const bool has = head_forwarded(g->buf, n, xff, sizeof xff);
    ErrBuf err;
    err_clear(&err);
    if (realip_client(g->srv->proxies, (const struct sockaddr *)&p->addr, has ? xff : NULL,
                      h->client, sizeof h->client, &err) != STATUS_OK) {
        refuse(g, p, 400, err.msg);
        return false;
    }
    if (!quota_take(g->srv->quota, h->client, QUOTA_CONNS, g->srv->cfg.max_per_ip)) {
        char msg[160];
        snprintf(msg, sizeof msg, "your address has %d connections open, the most it may "
                 "have: close some", g->srv->cfg.max_per_ip);
        refuse(g, p, 429, msg);
        return false;
    }
    return true;
}

static unsigned held_bucket(int fd)
{
    return (unsigned)fd % HELD_BUCKETS;
}

/* Records h, handed to the library. A stale record of the same fd (a close the library
 * did not report) gives its hold back first, so that nothing is counted twice. */
static void hold(Gate *g, Held *h)
{
    Held *stale = NULL;
    pthread_mutex_lock(&g->held_lock);
    for (Held **q = &g->held[held_bucket(h->fd)]; *q; q = &(*q)->next)
        if ((*q)->fd == h->fd) {
            stale = *q;
            *q = stale->next;
            break;
        }
    h->next = g->held[held_bucket(h->fd)];
    g->held[held_bucket(h->fd)] = h;
    pthread_mutex_unlock(&g->held_lock);
    if (stale) {
        quota_give(g->srv->quota, stale->client, QUOTA_CONNS);
        free(stale);
    }
}

void gate_closed(Gate *g, int fd)
{
    if (g == NULL)
        return;
    Held *h = NULL;
    pthread_mutex_lock(&g->held_lock);
    for (Held **q = &g->held[held_bucket(fd)]; *q; q = &(*q)->next)
        if ((*q)->fd == fd) {
            h = *q;
            *q = h->next;
            break;
        }
    pthread_mutex_unlock(&g->held_lock);
    if (h) {
        quota_give(g->srv->quota, h->client, QUOTA_CONNS);
        free(h);
    }
}

/* Whether the chunked body [b, b+n) is framed right so far: -1 not (*msg says why), 0
 * right but not all in yet, 1 right up to its last chunk (trailers are the library's). */
static int check_chunks(const char *b, size_t n, const char **msg)
{
    size_t i = 0;
    for (;;) {
        const char *eol = memchr(b + i, '\n', n - i);
        if (eol == NULL)
            return n - i > 256 ? (*msg = "a chunk's size line is too long", -1) : 0;
        size_t size = 0, digits = 0;
        const char *q = b + i;
        for (; q < eol && isxdigit((unsigned char)*q); q++, digits++) {
            if (digits >= 15) {
                *msg = "a chunk's size is too large";
                return -1;
            }
            size = size * 16 + (size_t)(isdigit((unsigned char)*q) ? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10));
        }
        if (digits == 0 || (q < eol && *q != ';' && *q != '\r' && *q != ' ' && *q != '\t')) {
            *msg = "a chunk's size is not a hexadecimal number";
            return -1;
        }
        i = (size_t)(eol - b) + 1;
        if (size == 0)
            return 1;
        if (n - i < size + 1)
            return 0;
        i += size;
        if (b[i] == '\r') {
            if (n - i < 2)
                return 0;
            i++;
        }
        if (b[i] != '\n') {
            *msg = "a chunk is longer than its size says";
            return -1;
        }
        i++;
    }
}

/* Looks at what p's client has sent so far: waits for more (true), refuses, or hands
 * over (false: p is waiting no more, or gone). */
static bool examine(Gate *g, Pending *p)
{
    const ssize_t n = recv(p->fd, g->buf, sizeof g->buf - 1, MSG_PEEK);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
        forget(g, p, true);
        return false;
    }
    if (n < 0)
        return true;
    const size_t got = (size_t)n;
    g->buf[got] = '\0';
    // The head is looked for in its bound; what follows is a body's.
    const size_t len = got < HEAD_MAX + 1 ? got : HEAD_MAX + 1;
    const char *end = memmem(g->buf, len, "\r\n\r\n", 4);
    const char *lf = memmem(g->buf, len, "\n\n", 2);
    if (end == NULL || (lf && lf < end))
        end = lf;
    if (end != NULL && memchr(g->buf, '\0', (size_t)(end - g->buf)) != NULL) {
        refuse(g, p, 400, "the request head contains a NUL byte");
        return false;
    }
    if (end == NULL && len <= HEAD_MAX) {
        if (memchr(g->buf, '\0', len) == NULL)
            return true; // wait for the rest of the head
        refuse(g, p, 400, "the request head contains a NUL byte");
        return false;
    }
    char msg[128];
    if (end == NULL) {
        const char *eol = memchr(g->buf, '\n', len);
        if (eol == NULL || eol - g->buf > SERVER_MAX_URL + 64)
            snprintf(msg, sizeof msg, "a request's URL is at most %d bytes", SERVER_MAX_URL);
        else
            snprintf(msg, sizeof msg, "a request's headers are at most %d bytes in all",
                     SERVER_MAX_HEADERS);
        refuse(g, p, eol == NULL || eol - g->buf > SERVER_MAX_URL + 64 ? 414 : 431, msg);
        return false;
    }
    const char *why = NULL;
    bool chunked = false;
    const int status = check_head(g->buf, (size_t)(end - g->buf) + 2, &why, &chunked);
    if (status != 0) {
        refuse(g, p, status, why);
        return false;
    }
    if (chunked) {
        // Waits (within the head's time-out) for the body's last chunk, or as much of
        // it as the check reads, and refuses bad framing in JSON.
        const size_t body = (size_t)(end - g->buf) + (end[0] == '\r' ? 4 : 2);
        const int framed = check_chunks(g->buf + body, got - body, &why);
        if (framed < 0) {
            refuse(g, p, 400, why);
            return false;
        }
        if (framed == 0 && got < sizeof g->buf - 1)
            return true;
    }
    Held *h = calloc(1, sizeof *h);
    if (h == NULL) {
        refuse(g, p, 503, "the server is out of memory; try again later");
        return false;
    }
    if (!take_conn(g, p, (size_t)(end - g->buf), h)) {
        free(h);
        return false; // refused
    }
    epoll_ctl(g->ep, EPOLL_CTL_DEL, p->fd, NULL);
    const int fd = p->fd;
    const struct sockaddr_storage sa = p->addr;
    const socklen_t alen = p->alen;
    forget(g, p, false);
    h->fd = fd;
    hold(g, h);
    // The library closes the socket itself if it cannot take it.
    if (MHD_add_connection(g->srv->daemon, fd, (const struct sockaddr *)&sa, alen) != MHD_YES)
        gate_closed(g, fd);
    return false;
}

/* Drops heads that did not come in time and closings that did not end. */
static void expire(Gate *g)
{
    const int64_t now = clock_ms();
    const int64_t head_ms = g->srv->cfg.head_timeout_s * 1000L;
    for (Pending *p = g->head, *next; p; p = next) {
        next = p->next;
        if (now - p->since > (p->closing ? DRAIN_MS : head_ms))
            forget(g, p, true);
    }
}

static void *gate_main(void *arg)
{
    Gate *g = arg;
    struct epoll_event evs[128];
    int64_t last = clock_ms();
    for (;;) {
        const int n = epoll_wait(g->ep, evs, 128, 250);
        for (int i = 0; i < n; i++) {
            if (evs[i].data.ptr == g)
                return NULL;
            if (evs[i].data.ptr == NULL)
                accept_all(g);
        }
        // Each connection once per wake-up; one handed over or closed above is not
        // named again (evs[] holds only this round's).
        for (int i = 0; i < n; i++) {
            Pending *p = evs[i].data.ptr;
            if (p == NULL || p == (void *)g)
                continue;
            if (p->closing)
                drain(g, p);
            else
                examine(g, p);
        }
        if (clock_ms() - last >= 250) {
            last = clock_ms();
            expire(g);
        }
    }
}

Status gate_start(Server *srv, const struct sockaddr *sa, socklen_t salen, Gate **out,
                  ErrBuf *err)
{
    Gate *g = calloc(1, sizeof *g);
    if (g == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    g->srv = srv;
    g->stopfd = -1;
    pthread_mutex_init(&g->held_lock, NULL);
    g->lfd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    if (g->lfd < 0 || setsockopt(g->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(g->lfd, sa, salen) != 0 || listen(g->lfd, 1024) != 0) {
        const int e = errno;
        if (g->lfd >= 0)
            close(g->lfd);
        pthread_mutex_destroy(&g->held_lock);
        free(g);
        return err_set(err, STATUS_IO, "cannot listen on %s port %d: %s", srv->cfg.bind,
                       srv->cfg.port, strerror(e));
    }
    struct sockaddr_storage bound;
    socklen_t bl = sizeof bound;
    srv->port = srv->cfg.port;
    if (getsockname(g->lfd, (struct sockaddr *)&bound, &bl) == 0)
        srv->port = ntohs(bound.ss_family == AF_INET6
                              ? ((struct sockaddr_in6 *)&bound)->sin6_port
                              : ((struct sockaddr_in *)&bound)->sin_port);
    g->ep = epoll_create1(EPOLL_CLOEXEC);
    g->stopfd = eventfd(0, EFD_CLOEXEC);
    // Known before the first connection is handed over, whose close the library reports.
    *out = g;
    struct epoll_event lev = {.events = EPOLLIN, .data.ptr = NULL};
    struct epoll_event sev = {.events = EPOLLIN, .data.ptr = g};
    if (g->ep < 0 || g->stopfd < 0 || epoll_ctl(g->ep, EPOLL_CTL_ADD, g->lfd, &lev) != 0 ||
        epoll_ctl(g->ep, EPOLL_CTL_ADD, g->stopfd, &sev) != 0 ||
        pthread_create(&g->thread, NULL, gate_main, g) != 0) {
        const int e = errno;
        close(g->lfd);
        if (g->ep >= 0)
            close(g->ep);
        if (g->stopfd >= 0)
            close(g->stopfd);
        pthread_mutex_destroy(&g->held_lock);
        free(g);
        *out = NULL;
        return err_set(err, STATUS_IO, "cannot start the listening thread: %s", strerror(e));
    }
    return STATUS_OK;
}

void gate_stop(Gate *g)
{
    if (g == NULL)
        return;
    const uint64_t one = 1;
    if (write(g->stopfd, &one, sizeof one) != (ssize_t)sizeof one) {
        // An eventfd write fails only on overflow, which one write cannot reach.
    }
    pthread_join(g->thread, NULL);
    while (g->head)
        forget(g, g->head, true);
    close(g->lfd);
    close(g->ep);
    close(g->stopfd);
    g->lfd = g->ep = g->stopfd = -1;
}

void gate_free(Gate *g)
{
    if (g == NULL)
        return;
    for (int b = 0; b < HELD_BUCKETS; b++)
        while (g->held[b]) {
            Held *h = g->held[b];
            g->held[b] = h->next;
            quota_give(g->srv->quota, h->client, QUOTA_CONNS);
            free(h);
        }
    pthread_mutex_destroy(&g->held_lock);
    free(g);
}
