/*
 * netaddr.c - this machine's reachable address (netaddr.h) from getifaddrs. IPv6
 * link-local addresses are skipped: a link to them needs a zone that browsers refuse.
 */
#define _DEFAULT_SOURCE
#include "web/netaddr.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>

bool netaddr_reachable(bool v6, char *buf, size_t len)
{
    if (len > 0)
        buf[0] = '\0';
    struct ifaddrs *list = NULL;
    if (getifaddrs(&list) != 0)
        return false;
    bool found = false;
    for (struct ifaddrs *a = list; a != NULL && !found; a = a->ifa_next) {
        if (a->ifa_addr == NULL || !(a->ifa_flags & IFF_UP) || (a->ifa_flags & IFF_LOOPBACK))
            continue;
        if (!v6 && a->ifa_addr->sa_family == AF_INET) {
            const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)a->ifa_addr;
            found = inet_ntop(AF_INET, &in->sin_addr, buf, (socklen_t)len) != NULL;
        } else if (v6 && a->ifa_addr->sa_family == AF_INET6) {
            const struct sockaddr_in6 *in =
                (const struct sockaddr_in6 *)(const void *)a->ifa_addr;
            if (!IN6_IS_ADDR_LINKLOCAL(&in->sin6_addr))
                found = inet_ntop(AF_INET6, &in->sin6_addr, buf, (socklen_t)len) != NULL;
        }
    }
    freeifaddrs(list);
    return found;
}
