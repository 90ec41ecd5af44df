/*
 * store.h - where games live between requests and across restarts: a SQLite database in
 * WAL mode holding each game's set-up (game, rules, start position, seed), its seats
 * (player spec and secret token) and its actions as move texts.
 *
 * Every write is one transaction that has committed (synchronous=FULL) before the call
 * returns, so a caller that acknowledges a move only after store_append has returned
 * never acknowledges a move a crash can lose. The database is held with an exclusive
 * lock, so a second server cannot open the same file and serve stale copies of its
 * games. All calls are serialised by the store's own mutex; any thread may call them.
 */
#ifndef CROWN_WEB_STORE_H
#define CROWN_WEB_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"
#include "web/secret.h"

typedef struct Store Store;

enum { STORE_PLAYER_LEN = 32 };

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
} StoredGame;

/* Opens (creating when missing) the database file and its tables. */
Status store_open(const char *path, Store **out, ErrBuf *err);
void store_close(Store *st);

/* Inserts a new game with its seats and no moves. */
Status store_insert_game(Store *st, const StoredGame *g, ErrBuf *err);
/* Appends actions first_ply, first_ply + 1, ... and sets the game's version. */
Status store_append(Store *st, const char *id, int first_ply, const char *const *texts, int n,
                    uint64_t version, ErrBuf *err);
/* Deletes the actions from `keep` on (undo) and sets the game's version. */
Status store_truncate(Store *st, const char *id, int keep, uint64_t version, ErrBuf *err);
/* Reads a game. STATUS_ILLEGAL with "no such game" when the id is unknown. On success
 * *out owns its strings: free them with stored_game_free. */
Status store_load(Store *st, const char *id, StoredGame *out, ErrBuf *err);
void stored_game_free(StoredGame *g);
/* Retention: up to cap ids of games whose last change is older than `before` (seconds
 * since 1970) and that are known to be over (over true) or not known to be. */
Status store_list_stale(Store *st, int64_t before, bool over, char (*ids)[SECRET_ID_LEN + 1],
                        int cap, int *n, ErrBuf *err);
/* Notes that a game is over, so that the retention of unfinished games skips it; any
 * later change of the game clears the note. */
Status store_mark_over(Store *st, const char *id, ErrBuf *err);
/* Deletes a game with its seats and moves. */
Status store_delete_game(Store *st, const char *id, ErrBuf *err);
/* The number of stored games (for the start-up message). */
long store_count_games(Store *st);

#endif
