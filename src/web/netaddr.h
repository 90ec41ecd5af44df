/*
 * netaddr.h - the address of this machine that other machines reach: what invite links
 * name when the server listens on every address (crown serve --listen 0.0.0.0).
 */
#ifndef CROWN_WEB_NETADDR_H
#define CROWN_WEB_NETADDR_H

#include <stdbool.h>
#include <stddef.h>

/* Writes into buf the first address of an interface that is up and not the loopback:
 * IPv6 when v6, else IPv4. False when there is none (buf then holds ""). */
bool netaddr_reachable(bool v6, char *buf, size_t len);

#endif
