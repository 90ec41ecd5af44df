/*
 * session_internal.h - what the files of the sessions (session.c, session_play.c,
 * session_create.c) share of their insides; nothing else includes it.
 */
#ifndef CROWN_WEB_SESSION_INTERNAL_H
#define CROWN_WEB_SESSION_INTERNAL_H

#include <pthread.h>

#include "play/turn.h"
#include "web/session.h"

enum {
    TABLE_BUCKETS = 1024,
    CHANCE_STEPS = 256, /* chance draws that may follow one change before a player acts */
    COMMIT_CAP = PLAY_TURN_CAP + CHANCE_STEPS,
};

/* The sessions in memory, by id. */
struct SessionTable {
    pthread_mutex_t mu;
    Session *bucket[TABLE_BUCKETS];
    long count;   /* sessions in memory */
    long evicted; /* sessions that left memory since the start */
    long retired; /* games deleted by the retention since the start */
    long flagged; /* games out of memory this process ended on time since the start */
    SessionHooks hooks; /* set before the first session is made */
};

/* session.c: the table and lifetime. */
/* A zeroed session of table t, its lock made, nobody's reference yet. */
Session *session_alloc(const SessionTable *t);
/* Frees s and gives back what its owner holds (srv may be NULL at the end). */
void session_destroy(Server *srv, Session *s);
/* Puts s in the table; the caller holds the table's lock. */
void sessions_insert_locked(SessionTable *t, Session *s);
/* Gives back what the owner holds for this game (once). */
void session_release_quota_locked(Server *srv, Session *s);
/* Drops the texts of actions n and after. */
void session_texts_truncate(Session *s, int n);
/* With a shared store, re-reads s when the store's version is not the one last seen. */
Status session_refresh_locked(Server *srv, Session *s, ErrBuf *err);
/* Brings s up to what the store holds when another process has changed it: keeps the
 * actions both agree on, replays the stored ones after them, drops any think of ours
 * (its move would be stale) and wakes the streams. Nothing changes when the store's
 * version is the one this process last saw. */
Status session_sync_locked(Server *srv, Session *s, ErrBuf *err);

/* session_play.c: changes. */
/* Bumps the version after a visible change and wakes the streams. */
void session_changed_locked(Session *s);
/* Whether an AI seat of s is to move in st, a position of game g. */
bool session_ai_to_move(const Session *s, const Game *g, const GameState *st);
/* Commits actions acts[0..n) (legal one after the other from the current position) and
 * the chance draws that follow them, then shows them. Fails only for want of memory or
 * of the store, changing nothing. */
Status session_commit_actions(Server *srv, Session *s, const Move *acts, int n, ErrBuf *err);
/* Ends the game on time when the running seat's time has run out at `now`; true if it
 * did. A loss, or a draw when the game says no opponent can still win (API.md). */
bool session_flag_locked(Server *srv, Session *s, int64_t now);
/* Reads "human" or an agent spec for `seat`; the AI's seed follows from the game's. */
bool session_seat_spec(Session *s, int seat, const char *player, ErrBuf *err);
/* Room for n action texts in s (false: out of memory). */
bool session_texts_reserve(Session *s, int n);
/* The cells action m touches in st, as a malloc'd text ("" for none or no hook). */
char *session_cells_of(const Game *g, const GameState *st, Move m);
/* A malloc'd copy of t, or NULL. */
char *session_strdup(const char *t);

/* session_rating.c */
typedef struct StoreRatingWrite StoreRatingWrite;
/* Before the write that ends rated game s with the seats' returns `ret`: the ratings the
 * result gives, in m's rating fields, and in *w the store's writes of them to go with
 * the end (store_rating_stamp; the caller frees *w after the write). *w is NULL, m
 * unchanged, when the game is not rated or its ratings cannot be read now. */
void session_rating_prepare_locked(Server *srv, const Session *s, const double ret[MAX_PLAYERS],
                                   GameMeta *m, StoreRatingWrite **w);
/* Rates s when it is a rated game that is over and not rated yet (its end was written
 * without its ratings): the store takes the result once (store_rating_write), and the
 * meta records it. One whose rating cannot be written now is rated when next loaded. */
void session_rate_locked(Server *srv, Session *s);

/* session_create.c */
/* Sets up s->rec from a configured game and its start, taking ownership of g. */
Status session_init_record(Session *s, Game *g, const GameState *start, ErrBuf *err);

#endif
