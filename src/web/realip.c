/*
 * realip.c - the client address behind trusted proxies (realip.h), with inet_pton and
 * inet_ntop. An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is taken as the IPv4 address
 * it maps, in the trusted list, the peer and the header alike, so that a server on an
 * IPv6 socket matches "127.0.0.1" as one on an IPv4 socket does.
 */
#include "web/realip.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

typedef struct Addr {
    int family; /* AF_INET (the first 4 bytes of a) or AF_INET6 */
    unsigned char a[16];
} Addr;

/* An address and how many leading bits of it a trusted block fixes. */
typedef struct Block {
    Addr addr;
    int bits;
} Block;

struct TrustedProxies {
    int n;
    Block block[];
};

static const unsigned char V4_MAPPED[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* An IPv4-mapped IPv6 address becomes the IPv4 address it maps. */
static void unmap(Addr *x)
{
    if (x->family == AF_INET6 && memcmp(x->a, V4_MAPPED, sizeof V4_MAPPED) == 0) {
        memmove(x->a, x->a + 12, 4);
        memset(x->a + 4, 0, 12);
        x->family = AF_INET;
    }
}

/* Reads the n bytes at s as an IPv4 or IPv6 address. */
static bool addr_read(const char *s, size_t n, Addr *out)
{
    char text[REALIP_TEXT];
    if (n == 0 || n >= sizeof text)
        return false;
    memcpy(text, s, n);
    text[n] = '\0';
    memset(out, 0, sizeof *out);
    if (inet_pton(AF_INET, text, out->a) == 1)
        out->family = AF_INET;
    else if (inet_pton(AF_INET6, text, out->a) == 1)
        out->family = AF_INET6;
    else
        return false;
    unmap(out);
    return true;
}

static void addr_text(const Addr *x, char *out, size_t cap)
{
    if (inet_ntop(x->family, x->a, out, (socklen_t)cap) == NULL && cap > 0)
        out[0] = '\0';
}

static bool addr_of_socket(const struct sockaddr *sa, Addr *out)
{
    memset(out, 0, sizeof *out);
    if (sa == NULL)
        return false;
    if (sa->sa_family == AF_INET) {
        out->family = AF_INET;
        memcpy(out->a, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
    } else if (sa->sa_family == AF_INET6) {
        out->family = AF_INET6;
        memcpy(out->a, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
        unmap(out);
    } else {
        return false;
    }
    return true;
}

static bool in_block(const Addr *x, const Block *b)
{
    if (x->family != b->addr.family)
        return false;
    const int whole = b->bits / 8, rest = b->bits % 8;
    if (memcmp(x->a, b->addr.a, (size_t)whole) != 0)
        return false;
    const unsigned mask = (0xffu << (8 - rest)) & 0xffu;
    return rest == 0 || ((x->a[whole] ^ b->addr.a[whole]) & mask) == 0;
}

static bool trusted(const TrustedProxies *t, const Addr *x)
{
    for (int i = 0; t != NULL && i < t->n; i++)
        if (in_block(x, &t->block[i]))
            return true;
    return false;
}

/* [*s, *e) trimmed of blanks on both sides. */
static void trim(const char **s, const char **e)
{
    while (*s < *e && (**s == ' ' || **s == '\t'))
        (*s)++;
    while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
        (*e)--;
}

/* One entry of the trusted list, [s, e) trimmed: ADDR or ADDR/BITS. */
static bool block_read(const char *s, const char *e, Block *out)
{
    const char *slash = memchr(s, '/', (size_t)(e - s));
    if (!addr_read(s, (size_t)((slash ? slash : e) - s), &out->addr))
        return false;
    const int max = out->addr.family == AF_INET ? 32 : 128;
    out->bits = max;
    if (slash == NULL)
        return true;
    if (slash + 1 == e || e - slash > 4)
        return false;
    int bits = 0;
    for (const char *d = slash + 1; d < e; d++) {
        if (*d < '0' || *d > '9')
            return false;
        bits = bits * 10 + (*d - '0');
    }
    // A block written in IPv4-mapped form counts its bits in the IPv6 address.
    if (max == 32 && memchr(s, ':', (size_t)(slash - s)) != NULL)
        bits -= 96;
    if (bits < 0 || bits > max)
        return false;
    out->bits = bits;
    return true;
}

Status realip_parse(const char *list, TrustedProxies **out, ErrBuf *err)
{
    *out = NULL;
    if (list == NULL || list[0] == '\0')
        return STATUS_OK;
    int n = 1;
    for (const char *c = list; *c; c++)
        n += *c == ',';
    TrustedProxies *t = calloc(1, sizeof *t + (size_t)n * sizeof t->block[0]);
    if (t == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    for (const char *s = list;;) {
        const char *comma = strchr(s, ',');
        const char *e = comma ? comma : s + strlen(s);
        const char *from = s, *to = e;
        trim(&from, &to);
        if (!block_read(from, to, &t->block[t->n])) {
            free(t);
            return err_set(err, STATUS_PARSE, "--trusted-proxy wants addresses or CIDR blocks "
                           "separated by commas (127.0.0.1,10.0.0.0/8,fd00::/8), not '%.*s'",
                           (int)(to - from > 80 ? 80 : to - from), from);
        }
        t->n++;
        if (comma == NULL)
            break;
        s = comma + 1;
    }
    *out = t;
    return STATUS_OK;
}

void realip_free(TrustedProxies *t)
{
    free(t);
}

void realip_peer_text(const struct sockaddr *sa, char *out, size_t cap)
{
    Addr x;
    if (addr_of_socket(sa, &x))
        addr_text(&x, out, cap);
    else if (cap > 0)
        out[0] = '\0';
}

bool realip_trusted_peer(const TrustedProxies *t, const struct sockaddr *peer)
{
    Addr x;
    return t != NULL && addr_of_socket(peer, &x) && trusted(t, &x);
}

Status realip_client(const TrustedProxies *t, const struct sockaddr *peer, const char *xff,
                     char *out, size_t cap, ErrBuf *err)
{
    Addr client;
    if (cap > 0)
        out[0] = '\0';
    if (!addr_of_socket(peer, &client))
        return STATUS_OK; // not a network peer: nothing to count by, as before
    if (!trusted(t, &client)) {
        addr_text(&client, out, cap);
        return STATUS_OK;
    }
    if (xff == NULL)
        return err_set(err, STATUS_PARSE, "a request through a trusted proxy (--trusted-proxy) "
                       "needs an X-Forwarded-For header naming the client's address");
    // From the right: each trusted address passes on to the one before it.
    for (const char *e = xff + strlen(xff);;) {
        const char *s = e;
        while (s > xff && s[-1] != ',')
            s--;
        const char *from = s, *to = e;
        trim(&from, &to);
        if (from == to)
            return err_set(err, STATUS_PARSE, "X-Forwarded-For has an empty entry where the "
                           "client's address should be");
        if (!addr_read(from, (size_t)(to - from), &client))
            return err_set(err, STATUS_PARSE, "X-Forwarded-For names '%.*s', which is not an "
                           "IPv4 or IPv6 address", (int)(to - from > 64 ? 64 : to - from), from);
        if (s == xff || !trusted(t, &client))
            break;
        e = s - 1;
    }
    addr_text(&client, out, cap);
    return STATUS_OK;
}
