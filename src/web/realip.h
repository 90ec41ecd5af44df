/*
 * realip.h - the client address that every per-address limit counts: the TCP peer's,
 * or, when the peer is one of the trusted reverse proxies (crown serve --trusted-proxy),
 * the address the proxies recorded in X-Forwarded-For. Addresses are compared as
 * binary and written in one canonical spelling, so that "::1" and "0::1", or an IPv4
 * peer seen through an IPv6 socket, are one address.
 */
#ifndef CROWN_WEB_REALIP_H
#define CROWN_WEB_REALIP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "core/status.h"

/* Room for any address's text (INET6_ADDRSTRLEN and a NUL, rounded up). */
enum { REALIP_TEXT = 64 };

typedef struct TrustedProxies TrustedProxies;

/* Reads a comma-separated list of addresses and CIDR blocks (IPv4 and IPv6, such as
 * "127.0.0.1,10.0.0.0/8,fd00::/8") into *out; NULL or "" trusts none (*out NULL).
 * STATUS_PARSE naming the entry that is neither. */
Status realip_parse(const char *list, TrustedProxies **out, ErrBuf *err);
void realip_free(TrustedProxies *t);

/* The canonical text of a socket address (IPv4 and IPv6); "" for another family. */
void realip_peer_text(const struct sockaddr *sa, char *out, size_t cap);

/* Whether peer is one of t's trusted proxies (false for NULL t). */
bool realip_trusted_peer(const TrustedProxies *t, const struct sockaddr *peer);

/* The client address of a request from `peer` whose X-Forwarded-For header lines,
 * joined with commas in the order received, are `xff` (NULL when it has none). From a
 * peer not in t the header is ignored: the peer is the client. From a trusted peer the
 * entries are read from the right, the last one that proxy appended first, and the
 * client is the first that is not itself trusted (the leftmost if all are): an entry a
 * client wrote itself stands left of those the proxies appended, so it is never
 * believed. Entries left of the client are not read. STATUS_PARSE, saying what is
 * wrong, when a trusted peer sends no header or an entry read is not an address. */
Status realip_client(const TrustedProxies *t, const struct sockaddr *peer, const char *xff,
                     char *out, size_t cap, ErrBuf *err);

#endif
