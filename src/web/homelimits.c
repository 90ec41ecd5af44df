/*
 * homelimits.c - the limits of a player at home (homelimits.h). A loopback address is
 * 127.0.0.0/8 or ::1 in realip.h's canonical spelling (an IPv4 peer on an IPv6 socket is
 * already written as IPv4 there).
 */
#include "web/homelimits.h"

#include <string.h>

static bool loopback(const char *addr)
{
    return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0;
}

bool homelimits_applies(const ServeConfig *cfg, const char *addr)
{
    switch (cfg->limits) {
    case LIMITS_HOME:
        return true;
    case LIMITS_PUBLIC:
        return false;
    case LIMITS_AUTO:
        break;
    }
    return addr != NULL && loopback(addr);
}

int homelimits_games(const ServeConfig *cfg, const char *addr, QuotaKind kind)
{
    const bool home = homelimits_applies(cfg, addr);
    if (kind == QUOTA_AIAI_GAMES)
        return home ? cfg->home_aiai_games : cfg->aiai_games;
    return home ? cfg->home_ai_games : cfg->ai_games;
}

int homelimits_creates(const ServeConfig *cfg, const char *addr)
{
    return homelimits_applies(cfg, addr) ? cfg->home_creates_per_hour : cfg->creates_per_hour;
}
