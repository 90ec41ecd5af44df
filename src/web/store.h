/*
 * store.h - where games live between requests and across restarts: each game's set-up
 * (game, rules, start position, seed), its seats (player spec and secret token) and its
 * actions as move texts. The server calls only these functions; behind them a backend
 * chosen by the --db text keeps the data: a SQLite file (the default, one process) or a
 * PostgreSQL database ("postgresql://..." or "postgres://...") that several `crown serve`
 * processes share.
 *
 * Every write is one transaction that has committed (durably) before the call returns, so
 * a caller that acknowledges a move only after store_append has returned never
 * acknowledges a move a crash can lose. Every write names the version its writer last
 * saw and is refused with STATUS_CONFLICT when the game has moved on since (another
 * process wrote it), so a stale writer never changes a game. A SQLite file is held with an
 * exclusive lock, so a second server cannot open it and serve stale copies of its games.
 * The schema is versioned (table schema_version); store_open upgrades an older database
 * in place. Any thread may call any function.
 */
#ifndef CROWN_WEB_STORE_H
#define CROWN_WEB_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"
#include "web/secret.h"

typedef struct Store Store;
typedef struct StoreStmt StoreStmt; /* store_backend.h: the store's files make them */

enum {
    STORE_PLAYER_LEN = 32,
    STORE_SCHEMA_VERSION = 15, /* what store_open brings every database to */
};

/* A game as stored: enough to rebuild it exactly. */
typedef struct StoredGame {
    char id[SECRET_ID_LEN + 1];
    char game[64];     /* registry name */
    int players;
    /* The options as one JSON object of name and value pairs (games stored before 0.2:
     * "name=value" lines); owned. */
    char *rules;
    char *start;       /* start position text; owned */
    uint64_t seed;
    int64_t created;   /* seconds since 1970 */
    uint64_t version;
    char player[MAX_PLAYERS][STORE_PLAYER_LEN]; /* "human", "ai:5", ... */
    char token[MAX_PLAYERS][SECRET_TOKEN_LEN + 1];
    char **moves;      /* action texts in order; owned */
    int n_moves;
    /* What the game is beyond its moves (web/meta.h: an end outside the rules, a draw
     * offer, hints, rematch links) as one JSON object; owned, NULL read as "{}". */
    char *meta;
} StoredGame;

/* What a write to a game's moves stamps on it. */
typedef struct StoreStamp {
    uint64_t expect;  /* the game's version as the writer last read or wrote it */
    uint64_t version; /* the version after the write; greater than expect */
    bool ai_next;     /* an AI seat is to move after the write: this process claims it */
    /* The game's new meta (StoredGame.meta) written in the same transaction by
     * store_append and store_truncate, or NULL to leave it: a game's clock moves with
     * its moves, and a takeback's with the moves it takes back. */
    const char *meta;
    /* With meta: when its clock's running time runs out (milliseconds since 1970), 0 when
     * no clock runs, so that store_claim_flags finds the game without loading it. */
    int64_t flag_at;
    /* Rows beside the game written in the same transaction (a rated game's ratings with
     * its end: store_rating_stamp); one of them refused (it changes no row) refuses the
     * whole write with STATUS_CONFLICT, as a stale version does. NULL: none. */
    const StoreStmt *also;
    int n_also;
} StoreStamp;

/* Opens (creating when missing) the database named by `db` (a file path, or a
 * postgresql:// URL) and brings its schema to STORE_SCHEMA_VERSION. */
Status store_open(const char *db, Store **out, ErrBuf *err);
void store_close(Store *st);
/* True when other processes may write the same games (PostgreSQL): the caller then
 * checks versions before trusting what it holds in memory. */
bool store_shared(const Store *st);

/* Inserts a new game with its seats and its moves (an imported game's; usually none);
 * ai_next as in StoreStamp. */
Status store_insert_game(Store *st, const StoredGame *g, bool ai_next, ErrBuf *err);
/* Appends actions first_ply, first_ply + 1, ... and sets the game's version. */
Status store_append(Store *st, const char *id, int first_ply, const char *const *texts, int n,
                    const StoreStamp *stamp, ErrBuf *err);
/* Deletes the actions from `keep` on (undo) and sets the game's version. */
Status store_truncate(Store *st, const char *id, int keep, const StoreStamp *stamp,
                      ErrBuf *err);
/* Replaces the game's meta (see StoredGame) and sets its version. */
Status store_set_meta(Store *st, const char *id, const char *meta, const StoreStamp *stamp,
                      ErrBuf *err);
/* Reads a game. STATUS_ILLEGAL with "no such game" when the id is unknown. On success
 * *out owns its strings: free them with stored_game_free. */
Status store_load(Store *st, const char *id, StoredGame *out, ErrBuf *err);
void stored_game_free(StoredGame *g);
/* The game's version alone (cheap): STATUS_ILLEGAL when the id is unknown. */
Status store_version(Store *st, const char *id, uint64_t *out, ErrBuf *err);
/* Retention: up to cap ids of games whose last change is older than `before` (seconds
 * since 1970) and that are known to be over (over true) or not known to be. */
Status store_list_stale(Store *st, int64_t before, bool over, char (*ids)[SECRET_ID_LEN + 1],
                        int cap, int *n, ErrBuf *err);
/* Up to cap ids of unfinished games with a seat waiting for a player (meta "open"),
 * newest first: the server's list of open games. */
Status store_list_open(Store *st, char (*ids)[SECRET_ID_LEN + 1], int cap, int *n,
                       ErrBuf *err);
/* Claims up to cap games whose clock ran out by now_ms (StoreStamp.flag_at) for this
 * process to end on time: each claimed one is put off until now_ms + lease_ms, so that no
 * other process claims it meanwhile, and one this process fails to end (killed, say) is
 * claimed again after the lease. Ending it clears its flag_at with its meta. */
Status store_claim_flags(Store *st, int64_t now_ms, int64_t lease_ms,
                         char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err);
/* Notes that a game is over at `version`, so that the retention of unfinished games skips
 * it; any later change of the game clears the note. STATUS_CONFLICT when the game is no
 * longer at that version. */
Status store_mark_over(Store *st, const char *id, uint64_t version, ErrBuf *err);
/* Deletes a game with its seats and moves (and pending AI work) if it has not changed
 * since `before` (seconds since 1970): STATUS_CONFLICT when it has, since a process
 * sharing the store may have taken it up again meanwhile. */
Status store_delete_game(Store *st, const char *id, int64_t before, ErrBuf *err);
/* The number of stored games (for the start-up message). */
long store_count_games(Store *st);

/* Claims the AI move a write with ai_next left pending, before thinking it: *mine is
 * true when this process holds the claim (it wrote it, or the holder's lease ran out),
 * false when another live process does. With one process it is always mine. */
Status store_ai_claim(Store *st, const char *id, bool *mine, ErrBuf *err);

/* Per-address limits that hold across the processes sharing a store: the database
 * counts them (one transaction per check, under a lock per address). A store only one
 * process uses counts nothing in the two hold calls below (*ok is always true): the
 * server's own counts (quota.c) are the whole truth there. */
/* Counts a creation from addr (a game; a key of the caller's for other things), unless
 * addr created per_hour of them in the last hour: then *ok is false, nothing is counted
 * and *retry_s says when one more may be. Both stores keep the count, so that a restart
 * does not forget it. */
Status store_count_create(Store *st, const char *addr, int per_hour, bool *ok, int *retry_s,
                          ErrBuf *err);
/* Takes a hold of `kind` (a QuotaKind) for game `id`, about to be stored, unless addr
 * holds `limit` live ones: a hold lives while its game is unfinished and changed within
 * idle_s seconds (before the game is stored, for a minute), so the holds of a process
 * killed meanwhile run out as its games would have left its memory. */
Status store_hold_take(Store *st, const char *addr, const char *id, int kind, int limit,
                       int idle_s, bool *ok, ErrBuf *err);
/* Gives back game id's hold (the game ended or left memory); none is fine. */
Status store_hold_give(Store *st, const char *id, ErrBuf *err);

/* Holds that live with the process that took them (open event streams, hints waiting
 * for the AI), counted across the processes sharing a store. A process marks itself
 * alive with store_live_beat every few seconds; the holds of one whose last beat is
 * dead_s seconds old or more (killed, say) no longer count, and a beat sweeps them away.
 * A store only one process uses counts nothing (*refused is always STORE_ADMITTED, *hold
 * 0): the server's own counts are the whole truth there. */
typedef enum StoreRefusal {
    STORE_ADMITTED,
    STORE_ADDR_FULL, /* addr holds addr_limit of `kind` */
    STORE_GAME_FULL, /* game holds game_limit of `kind` */
} StoreRefusal;
/* Takes a hold of `kind` (a QuotaKind) for addr and, when game is not NULL, for that
 * game, unless either is at its limit; *hold names it for store_live_give. */
Status store_live_take(Store *st, const char *addr, const char *game, int kind,
                       int addr_limit, int game_limit, int dead_s, int64_t *hold,
                       StoreRefusal *refused, ErrBuf *err);
/* Gives back a hold store_live_take took; 0 is fine. */
Status store_live_give(Store *st, int64_t hold, ErrBuf *err);
/* This process is alive; processes silent for dead_s seconds lose their holds. */
Status store_live_beat(Store *st, int dead_s, ErrBuf *err);

/* What a shared store reports from its listener thread: another process committed a
 * change to game `id` (now at `version`), or to tournament `id`; a process claimed game `id`'s AI move to think
 * it (store_ai_claim); an AI move whose holder stopped renewing its claim (killed, say)
 * is now claimed by this process and should be played; the listener lost its connection
 * and may have missed changes of any game (after reconnecting). */
typedef struct StoreWatch {
    void *ctx;
    void (*changed)(void *ctx, const char *id, uint64_t version);
    void (*thinking)(void *ctx, const char *id);
    void (*orphaned)(void *ctx, const char *id);
    void (*missed)(void *ctx);
    /* another process changed tournament `id`, now at `version` (store_tour_notify) */
    void (*tournament)(void *ctx, const char *id, uint64_t version);
} StoreWatch;
/* Starts reporting (shared stores; nothing for SQLite). The callbacks run on the store's
 * own thread until store_unwatch, which returns once they have stopped. */
Status store_watch(Store *st, const StoreWatch *w, ErrBuf *err);
void store_unwatch(Store *st);

#endif
