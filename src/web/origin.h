/*
 * origin.h - the check of where a request comes from: its Host must name this server
 * (an address literal, localhost, or a configured site's host: a name that another DNS
 * points here is refused), and an Origin, which browsers send with every POST and every
 * cross-site request, must be this server's own (scheme included) or a configured
 * site's (--public-url, --allow-origin).
 */
#ifndef CROWN_WEB_ORIGIN_H
#define CROWN_WEB_ORIGIN_H

#include <stdbool.h>
#include <sys/socket.h>

typedef struct Server Server;

/* Why a request may not be served from where it comes (a 403's message), or NULL. Its
 * Host, Origin and X-Forwarded-Proto headers (each NULL when absent) and its TCP peer
 * (NULL when unknown): only a trusted proxy may say the page was served over https. */
const char *origin_refusal(const Server *srv, const char *host, const char *origin,
                           const char *forwarded_proto, const struct sockaddr *peer);

/* Whether the browser reached this server over https: --public-url says https, or a
 * trusted proxy (its TCP peer) says so in X-Forwarded-Proto. */
bool origin_https(const Server *srv, const char *forwarded_proto, const struct sockaddr *peer);

#endif
