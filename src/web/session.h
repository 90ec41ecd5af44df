/*
 * session.h - games in play: a game record with its seats, tokens and the texts of its
 * actions, kept in memory, loaded from the store on first use, and changed only through
 * the functions here, which commit every change to the store before it becomes visible.
 *
 * The server is the referee: every action is read and checked by the play layer
 * (play/turn.h, the game's own parse_move / parse_actions) against the current position,
 * and chance is drawn here. Functions answer with crown Status codes; only the API layer
 * (api.c) turns them into HTTP statuses, so nothing here is tied to HTTP.
 *
 * Locking: each Session has a mutex guarding everything in it but the fields marked
 * fixed (set when the session is made, read without the lock). Lock order: session
 * table, then a session, then the store or the AI queue; never the other way round.
 * Sessions live until the server stops, so a pointer from session_find stays valid.
 */
#ifndef CROWN_WEB_SESSION_H
#define CROWN_WEB_SESSION_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/record.h"
#include "play/seats.h"
#include "search/agent.h"
#include "web/secret.h"
#include "web/store.h"

typedef struct Server Server;

typedef struct Session {
    pthread_mutex_t mu;
    pthread_cond_t changed; /* broadcast whenever version changes, and at shutdown */

    /* fixed */
    char id[SECRET_ID_LEN + 1];
    const Game *game; /* == rec.game; the configured game never changes */
    uint64_t seed;
    int64_t created;
    Seats seats; /* each seat's player ("human" or an agent spec); no agents */
    char token[MAX_PLAYERS][SECRET_TOKEN_LEN + 1];

    /* guarded by mu */
    GameRecord rec;
    char **texts; /* the text of each action of rec, as played */
    char **cells; /* the cells each action touched (ops->move_cells), "" if none */
    int8_t *actor; /* who played each action: a seat, or PLAYER_CHANCE */
    int texts_cap;
    uint64_t version; /* bumped by every visible change: moves, undo, AI start/stop */
    /* The version the store holds as this process last read or wrote it (<= version):
     * a store version that differs means another process changed the game. */
    uint64_t stored_version;
    int thinking;     /* the seat whose AI is thinking, or -1 */
    int thinking_elsewhere; /* ... in another process (shared store), or -1 */
    bool ai_queued;   /* an AI move job for this session waits in the queue */
    Agent *agent;     /* the AI think in progress, for agent_stop on undo */
    char ai_error[ERRBUF_LEN]; /* why the last AI move failed, or "" */
    /* The API's cache of state bodies per view (0: public, 1 + seat: that seat's own
     * view of a hidden-information game), valid while cache_version == version. */
    char *cache[1 + MAX_PLAYERS];
    size_t cache_len[1 + MAX_PLAYERS];
    uint64_t cache_version[1 + MAX_PLAYERS];

    struct Session *next; /* in the table's hash chain */
} Session;

typedef struct SessionTable SessionTable;

SessionTable *sessions_new(void);
/* Frees every session; no other thread may use them any more. */
void sessions_free(SessionTable *t);
/* Wakes every thread waiting on a session (server-sent event streams) at shutdown. */
void sessions_wake_all(SessionTable *t);

/* What a new game is made of; validated by session_create. */
typedef struct NewGame {
    const GameOps *ops;
    int players;
    RuleSetting rules[2 * GAME_MAX_OPTIONS];
    int n_rules;
    char player[MAX_PLAYERS][STORE_PLAYER_LEN];
    bool seed_set;
    uint64_t seed;
    const char *position; /* NULL: the game's start position */
} NewGame;

/* The functions below return STATUS_OK, or the reason in *err and a code saying what
 * kind of refusal it is: STATUS_PARSE (a malformed request), STATUS_ILLEGAL (against the
 * rules), STATUS_NOT_YOUR_TURN, STATUS_CONFLICT (the game's state forbids it now),
 * STATUS_NOT_FOUND, STATUS_CORRUPT (a stored game this build cannot read), STATUS_NOMEM
 * or STATUS_IO (the store, the randomness). */

/* Creates, stores and registers a new game; *out is its session. */
Status session_create(Server *srv, const NewGame *ng, Session **out, ErrBuf *err);
/* Finds a game by id, loading it from the store on first use; with a shared store it
 * first re-reads a game another process has changed. */
Status session_find(Server *srv, const char *id, Session **out, ErrBuf *err);

/* For a shared store's listener (StoreWatch): another process committed a change to game
 * `id`, now at `version` (a session held here re-reads it and wakes its streams), or
 * started thinking its AI move (shown as thinking until the next change); an AI move of
 * game `id` is now this process's to play. */
void session_store_changed(Server *srv, const char *id, uint64_t version);
void session_store_thinking(Server *srv, const char *id);
void session_store_orphaned(Server *srv, const char *id);
/* For the listener that may have missed notices: re-reads every game held that changed. */
void session_store_missed(Server *srv);

/* The seat whose token this is, or -1 (NULL or unknown tokens). Needs no lock. */
int session_seat_of(const Session *s, const char *token);

/* Plays the actions of `text` for `seat`: one action, or a whole turn as the game
 * writes it (parse_actions) or as actions separated by ';'. expect_ply >= 0 refuses
 * the move (STATUS_CONFLICT) unless exactly that many actions have been played, so a
 * repeated request cannot play twice. Commits before it returns STATUS_OK. */
Status session_play(Server *srv, Session *s, int seat, const char *text, int expect_ply,
                 ErrBuf *err);
/* Takes back the actions since `seat` last had the move (at least one of its own), in
 * games where every other seat is an AI; stops the AI if it is thinking. */
Status session_undo(Server *srv, Session *s, int seat, ErrBuf *err);

/* For the AI workers. session_ai_claim claims the move in the store (with several
 * processes, the one holding the claim plays it), checks under the lock that an AI seat
 * is to move and no think runs, marks it thinking and hands out a copy of the position and the
 * seat's spec; the caller then thinks without the lock and reports with
 * session_ai_finish, which plays the move only if nothing changed meanwhile. */
typedef struct AiClaim {
    int seat;
    AgentSpec spec;
    GameState *state; /* owned by the caller: free() */
    uint64_t version; /* the version the think started from */
} AiClaim;
bool session_ai_claim(Server *srv, Session *s, AiClaim *claim);
/* Registers the agent thinking for this session (running true), or clears it (false)
 * unless another think has registered its own agent since. */
void session_ai_running(Session *s, Agent *a, bool running);
void session_ai_finish(Server *srv, Session *s, const AiClaim *claim, bool ok, Move best,
                       const char *error);
/* Queues an AI move if an AI seat is to move and none is queued or thinking; the caller
 * holds s->mu. */
void session_schedule_ai_locked(Server *srv, Session *s);

/* The viewer's hint position: a copy of the position when `seat` is to move. */
Status session_copy_for_hint(Session *s, int seat, GameState **out, ErrBuf *err);

#endif
