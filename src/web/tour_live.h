/*
 * tour_live.h - a tournament's event stream (GET /api/tournaments/ID/events): an event
 * each time the tournament's version moves on (an entrant joined or left, a round was
 * paired, a game's result recorded, the tournament started, ended or was cancelled),
 * carrying that version as its id, so that the page reads the tournament again then and
 * not on a timer; a browser reconnecting with Last-Event-ID gets an event at once only if
 * it missed one. A stream holds no thread: its connection is suspended until a change, a
 * keep-alive or the server's stop resumes it. The limits are the game streams' (streams.h,
 * quota.h, store_live_take): per address, and per tournament as per game.
 */
#ifndef CROWN_WEB_TOUR_LIVE_H
#define CROWN_WEB_TOUR_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

struct MHD_Connection;
struct MHD_Response;
typedef struct Server Server;
typedef struct TourLive TourLive;

Status tour_live_new(TourLive **out, ErrBuf *err);
/* Once no stream is left (the HTTP daemon has stopped). NULL is fine. */
void tour_live_free(TourLive *tl);

/* The event stream of tournament id for connection c, from client addr, which sent
 * last_id as Last-Event-ID (NULL: none); NULL with *code and msg set when refused (no
 * such tournament, a limit reached: 429 with *retry seconds). */
struct MHD_Response *tour_live_open(Server *srv, struct MHD_Connection *c, const char *id,
                                    const char *addr, const char *last_id, int *code,
                                    int *retry, char *msg, size_t n);

/* Tournament id changed in this process: its version read from the store, sent to this
 * process's streams and told to the other processes sharing the store. */
void tour_live_changed(Server *srv, const char *id);
/* Another process changed tournament id, now at `version` (the store's watch). */
void tour_live_remote(Server *srv, const char *id, uint64_t version);
/* The store's watch may have missed changes: every watched tournament read again. */
void tour_live_missed(Server *srv);
/* Keep-alives to the streams sent nothing for --keep-alive seconds, which also finds the
 * streams whose client has gone (the housekeeping's call, every second). */
void tour_live_tick(Server *srv);
/* Resumes every stream to end it, the server stopping. */
void tour_live_wake_all(TourLive *tl);

#endif
