/*
 * origin.c - where requests may come from (origin.h): the Host a request names and the
 * Origin a browser sends, checked against the server's own address and the configured
 * sites, so that neither DNS rebinding nor another site's page acts on this server.
 */
#include "web/origin.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "web/context.h"
#include "web/realip.h"

/* The scheme and authority of a URL ("https://crown.example:8443/x" -> its first 28
 * characters), as an Origin header writes them; 0 if it is not such a URL. */
static size_t origin_len(const char *url)
{
    const char *p = strstr(url, "://");
    if (p == NULL || p == url)
        return 0;
    p += 3;
    const size_t n = strcspn(p, "/?#");
    return n == 0 ? 0 : (size_t)(p - url) + n;
}

/* Whether `origin` (n bytes) is one of the configured sites': --public-url's and
 * --allow-origin's, comma-separated. */
static bool configured_origin(const Server *srv, const char *origin, size_t n)
{
    const char *lists[2] = {srv->cfg.public_url, srv->cfg.allow_origins};
    for (int k = 0; k < 2; k++)
        for (const char *p = lists[k]; p && *p;) {
            const size_t item = strcspn(p, ",");
            char one[512];
            snprintf(one, sizeof one, "%.*s", (int)item, p);
            const size_t ol = origin_len(one);
            if (ol == n && strncasecmp(one, origin, n) == 0)
                return true;
            p += item + (p[item] == ',');
        }
    return false;
}

/* Whether a Host header names this server: an address literal or localhost (what a
 * browser uses to reach a server on this machine or the local network), or a
 * configured site's host. A name that an attacker's DNS points here (DNS rebinding) is
 * none of these. */
static bool host_allowed(const Server *srv, const char *host)
{
    char name[256];
    if (host[0] == '[') {
        const char *end = strchr(host, ']');
        if (end == NULL || (size_t)(end - host) >= sizeof name)
            return false;
        snprintf(name, sizeof name, "%.*s", (int)(end - host - 1), host + 1);
        struct in6_addr a6;
        return inet_pton(AF_INET6, name, &a6) == 1;
    }
    const size_t n = strcspn(host, ":");
    if (n == 0 || n >= sizeof name)
        return false;
    snprintf(name, sizeof name, "%.*s", (int)n, host);
    struct in_addr a4;
    if (strcasecmp(name, "localhost") == 0 || inet_pton(AF_INET, name, &a4) == 1)
        return true;
    char http[300], https[300];
    snprintf(http, sizeof http, "http://%s", host);
    snprintf(https, sizeof https, "https://%s", host);
    return configured_origin(srv, http, strlen(http)) ||
           configured_origin(srv, https, strlen(https));
}

/* A trusted proxy's word that the browser used https. */
static bool proxied_https(const Server *srv, const char *forwarded_proto,
                          const struct sockaddr *peer)
{
    return forwarded_proto != NULL && strcasecmp(forwarded_proto, "https") == 0 &&
           peer != NULL && realip_trusted_peer(srv->proxies, peer);
}

bool origin_https(const Server *srv, const char *forwarded_proto, const struct sockaddr *peer)
{
    const char *pub = srv->cfg.public_url;
    return (pub != NULL && strncasecmp(pub, "https://", 8) == 0) ||
           proxied_https(srv, forwarded_proto, peer);
}

const char *origin_refusal(const Server *srv, const char *host, const char *origin,
                           const char *forwarded_proto, const struct sockaddr *peer)
{
    if (host != NULL && !host_allowed(srv, host))
        return "the Host header does not name this server: start it with --public-url "
               "URL to serve it under a name";
    if (origin == NULL)
        return NULL;
    const size_t on = strlen(origin);
    if (configured_origin(srv, origin, on))
        return NULL;
    if (host != NULL) {
        // The scheme the page was served under: this server speaks plain HTTP, and only
        // a trusted proxy that ends TLS may say the browser used https.
        const char *scheme = proxied_https(srv, forwarded_proto, peer) ? "https://" : "http://";
        const size_t sl = strlen(scheme);
        if (strncasecmp(origin, scheme, sl) == 0 && strcasecmp(origin + sl, host) == 0)
            return NULL;
    }
    return "requests from another site's pages are refused: the Origin is not this "
           "server's (--public-url, --allow-origin)";
}
