/*
 * meta.h - what a game on the server is beyond its moves: an end outside the rules (a
 * resignation, a draw agreed), a standing draw offer, a takeback asked for (and whether
 * it was declined), whether hints are allowed between people, and the links between a game and its rematch. Kept in the store as one JSON
 * object next to the moves (store.h, StoredGame.meta), so it survives a restart.
 */
#ifndef CROWN_WEB_META_H
#define CROWN_WEB_META_H

#include <stdbool.h>

#include "core/game.h"
#include "core/status.h"
#include "play/finish.h"
#include "web/gameclock.h"
#include "web/secret.h"

enum {
    META_ACCOUNT_LEN = 24, /* an account's name (3 to 20 characters), or DELETED_PLAYER */
};

/* What a seat of a deleted account shows. */
#define META_DELETED_PLAYER "deleted player"

typedef struct GameMeta {
    PlayEnd end;    /* an end outside the rules (play/finish.h), stored by its key */
    int end_seat;   /* who resigned or flagged, or who accepted the draw */
    int end_ply;    /* the actions played when it ended */
    int offer_seat; /* the seat whose draw offer stands, or -1 */
    int offer_ply;  /* the actions played when it was made */
    /* The seat whose draw offer was declined, or -1: told (on every page, reloads too)
     * until anyone acts, so it is kept with the ply it was declined at. */
    int declined_seat;
    int declined_ply;
    int takeback_seat;      /* the seat that asked the other to take back its turn, or -1 */
    int takeback_ply;       /* the actions played when it asked: the request lapses after */
    bool takeback_declined; /* the other player said no (the asker is told) */
    bool hints;     /* hints allowed although several seats are people */
    char rematch[SECRET_ID_LEN + 1];    /* the rematch's id, "" while there is none */
    /* Indexed by this game's seats: that player's token in the rematch, where he sits
     * in another seat; so each player finds his own link, and nobody else's. */
    char rematch_token[MAX_PLAYERS][SECRET_TOKEN_LEN + 1];
    char rematch_of[SECRET_ID_LEN + 1]; /* the game this one is the rematch of, or "" */
    PlayClock clock;  /* the time control and each seat's time left, or none */
    int64_t moved_ms; /* when the last action was played (wall clock), 0 if unknown */
    unsigned open;    /* the human seats still waiting for a player to take them (bits) */
    bool rated;       /* a rated game between two accounts, chosen at its creation */
    /* The name of the account sitting in each seat, "" for none (a player without an
     * account, or an AI): the names beside the board. */
    char account[MAX_PLAYERS][META_ACCOUNT_LEN];
    /* A rated game once its result is rated (session_rating.c): each seat's rating after the
     * game and what the game changed it by. */
    bool rating_done;
    double rating_after[MAX_PLAYERS];
    double rating_change[MAX_PLAYERS];
} GameMeta;

void meta_init(GameMeta *m);
/* Reads the stored JSON (NULL or "" read as "{}"); leaves *m unchanged on error. */
Status meta_parse(const char *text, int players, GameMeta *m, ErrBuf *err);
/* The stored JSON, malloc'd; NULL when out of memory. */
char *meta_format(const GameMeta *m, int players);
/* When m's running clock runs out (wall-clock ms), 0 when none runs or the game ended
 * outside its rules: the store's StoreStamp.flag_at. */
int64_t meta_flag_at(const GameMeta *m);

#endif
