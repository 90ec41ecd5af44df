/*
 * homelimits.h - which clients get the limits of a player at home rather than those
 * that protect a public server. Someone alone on their machine (a loopback client, or
 * every client of a server started with --limits home, as ./play does) would otherwise
 * meet a limit sized for strangers: three games against the AI at once, sixty games
 * an hour. A limit given by its own option binds everyone (serve.c copies it to the
 * home twin), and --limits public gives loopback clients the public limits too.
 */
#ifndef CROWN_WEB_HOMELIMITS_H
#define CROWN_WEB_HOMELIMITS_H

#include <stdbool.h>

#include "web/config.h"
#include "web/quota.h"

/* Whether addr, a canonical address text (realip.h), gets the home limits under cfg. */
bool homelimits_applies(const ServeConfig *cfg, const char *addr);
/* Games of quota kind `kind` (QUOTA_AI_GAMES or QUOTA_AIAI_GAMES) addr may hold at once. */
int homelimits_games(const ServeConfig *cfg, const char *addr, QuotaKind kind);
/* Games addr may create an hour. */
int homelimits_creates(const ServeConfig *cfg, const char *addr);

#endif
