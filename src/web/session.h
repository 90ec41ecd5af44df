/*
 * session.h - games in play: a game record with its seats, tokens and the texts of its
 * actions, kept in memory, loaded from the store on first use, and changed only through
 * the functions here, which commit every change to the store before it becomes visible.
 *
 * The server is the referee: every action is read and checked by the play layer
 * (play/turn.h, the game's own parse_move / parse_actions) against the current position,
 * and chance is drawn here. Functions answer with crown Status codes; only the handlers,
 * through message.c, turn them into HTTP statuses, so nothing here is tied to HTTP.
 *
 * Locking: each Session has a mutex guarding everything in it but the fields marked
 * fixed (set when the session is made, read without the lock). Lock order: session
 * table, then a session, then the store or the AI queue; never the other way round.
 *
 * Lifetime: session_find and session_create hand out a reference, given back with
 * session_release; a queued AI move, an open event stream and the store's listener
 * (while it updates a session) hold one too. A session nobody holds and nobody touched
 * for the idle time leaves memory (sessions_evict) and is loaded again by the next
 * session_find, so memory follows the games in use, not the games stored; a notice from
 * the store about a game not in memory is ignored.
 */
#ifndef CROWN_WEB_SESSION_H
#define CROWN_WEB_SESSION_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/record.h"
#include "play/glicko2.h"
#include "play/seats.h"
#include "search/agent.h"
#include "web/meta.h"
#include "web/quota.h"
#include "web/secret.h"
#include "web/store.h"

typedef struct Server Server;
typedef struct Session Session;
typedef struct SseStream SseStream;
typedef struct SseEvent SseEvent;

/* What the layers above the sessions do when one changes: set once at start, before the
 * first session is made (server.c); a NULL member does nothing. The sessions call up
 * only through these, so they include nothing of the AI queue or the event streams. */
typedef struct SessionHooks {
    /* The event streams (sse.c): wake those of s after a change, s->mu held; let go of
     * s's shared events when s leaves memory. */
    void (*wake_locked)(Session *s);
    void (*forget)(Session *s);
    /* The AI workers (ai.c): queue the move of the AI seat to move in s, s->mu held. */
    void (*queue_move)(void *ai, Session *s);
    void *ai;
} SessionHooks;

struct Session {
    pthread_mutex_t mu;

    /* fixed */
    const SessionHooks *hooks; /* the table's */
    char id[SECRET_ID_LEN + 1];
    const Game *game; /* == rec.game; the configured game never changes */
    uint64_t seed;
    int64_t created;
    Seats seats; /* each seat's player ("human" or an agent spec); no agents */
    char token[MAX_PLAYERS][SECRET_TOKEN_LEN + 1];
    char owner[64]; /* the address that created it, "" when loaded from the store */

    atomic_int refs;          /* references handed out (see Lifetime above) */
    atomic_llong last_used;   /* clock_ms() when the last reference was given back */

    /* guarded by mu */
    int quota_kind;   /* the QuotaKind the owner holds for this game until it ends, or -1 */
    int64_t changed_ms; /* clock_ms() of the last visible change (version), or of its making */
    int nstreams;     /* open event streams: the length of `streams` below */
    int seat_streams[MAX_PLAYERS]; /* of nstreams, those of each seat (streams.c) */
    bool hint_queued; /* a hint for this game waits for an AI worker */
    bool sse_queued;  /* the event hub has this game's change to send out (sse.c) */
    int64_t ai_ms;    /* AI think time spent since the session was made or loaded */
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
    TurnClock ai_turn; /* the AI's turn of several actions: one time budget for all */
    char ai_error[ERRBUF_LEN]; /* why the last AI move failed, or "" */
    GameMeta meta;    /* resignation, agreed draw, draw offer, hints, rematch (meta.h) */
    /* The API's cache of state bodies per view (0: public, 1 + seat: that seat's own
     * view of a hidden-information game), valid while cache_version == version. */
    char *cache[1 + MAX_PLAYERS];
    size_t cache_len[1 + MAX_PLAYERS];
    uint64_t cache_version[1 + MAX_PLAYERS];
    /* The event streams of this game (sse.c), woken whenever version changes and at
     * shutdown; each holds a reference, so the session stays in memory while one is
     * open. */
    SseStream *streams;
    /* The event each viewer's streams send now (sse.c): index 1 + viewer; formatted once
     * per version and viewer, and shared by every stream that sends it. */
    SseEvent *events[1 + MAX_PLAYERS];

    struct Session *next; /* in the table's hash chain */
};

typedef struct SessionTable SessionTable;

SessionTable *sessions_new(void);
/* Sets what the sessions call up to (SessionHooks), before the first session is made. */
void sessions_set_hooks(SessionTable *t, const SessionHooks *hooks);
/* Frees every session; no other thread may use them any more. */
void sessions_free(SessionTable *t);
/* Counts for GET /api/stats: sessions in memory, and since the start those that left
 * memory, the games the retention deleted and the games ended on time by
 * sessions_flag_stored. */
void sessions_stats(SessionTable *t, long *in_memory, long *evicted, long *retired,
                    long *flagged);
/* Wakes every session's event streams, at shutdown. */
void sessions_wake_all(SessionTable *t);
/* Calls fn for every session held, with its mutex held. */
void sessions_each_locked(SessionTable *t, void (*fn)(Session *s, void *ctx), void *ctx);

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
    const char *owner;    /* the creator's address */
    int quota_kind;       /* what the creator took in srv->quota for it (-1: nothing); the
                           * session gives it back when the game ends or leaves memory */
    bool hints;           /* hints allowed although several seats are people */
    const char *rematch_of; /* the id of the game this one is the rematch of, or NULL */
    PlayClock clock;      /* the time control (gameclock.h), or none */
    unsigned open;        /* human seats left for a player to take (session_join), bits */
    bool rated;           /* a rated game between two accounts (GameMeta.rated) */
    const char *account;  /* the creator's account name for seat account_seat, or NULL */
    int account_seat;
    /* Other seats' accounts, by seat (NULL: none): a rated game's rematch seats both. */
    const char *accounts[MAX_PLAYERS];
    char id[SECRET_ID_LEN + 1]; /* the id chosen beforehand (a shared store's hold names
                                 * it), or "" for a new one */
    /* An imported game: its actions, chance draws included, are played from `position`
     * and stored with the game in one write; NULL for none. Its game must be configured
     * as ops, players and rules say. */
    const GameRecord *record;
} NewGame;

/* The functions below return STATUS_OK, or the reason in *err and a code saying what
 * kind of refusal it is: STATUS_PARSE (a malformed request), STATUS_ILLEGAL (against the
 * rules), STATUS_NOT_YOUR_TURN, STATUS_CONFLICT (the game's state forbids it now),
 * STATUS_NOT_FOUND, STATUS_CORRUPT (a stored game this build cannot read), STATUS_NOMEM
 * or STATUS_IO (the store, the randomness). */

/* Creates, stores and registers a new game; *out is its session, with a reference. */
Status session_create(Server *srv, const NewGame *ng, Session **out, ErrBuf *err);
/* Finds a game by id, loading it from the store when it is not in memory; with a shared
 * store it first re-reads a game another process has changed. *out comes with a
 * reference. */
Status session_find(Server *srv, const char *id, Session **out, ErrBuf *err);
/* Another reference to a session the caller holds one of. */
void session_hold(Session *s);
/* Gives back a reference; s may leave memory after it. */
void session_release(Session *s);

/* Removes from memory the sessions nobody holds that were last released more than
 * idle_ms ago; returns how many. */
int sessions_evict(Server *srv, int64_t idle_ms);
/* Gives back what `owner` holds of quota `kind` for its games in memory that did not
 * change for idle_ms: games it left for others, though a tab may still show them.
 * Returns how many. */
int sessions_release_left(Server *srv, const char *owner, int kind, int64_t idle_ms);
/* Retention: deletes from the store the games not in memory that are unfinished and
 * unchanged since abandoned_before, and, when finished_before > 0, the finished ones
 * unchanged since then (seconds since 1970; 0: none). Returns how many were deleted. */
int sessions_retire(Server *srv, int64_t abandoned_before, int64_t finished_before);

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
/* The one taking back of undo and of an agreed takeback (api_takeback.c): the actions
 * since `seat` last had the move are deleted, with `m` (the meta after it, its clock
 * handed to `seat`; NULL keeps the meta) in the same transaction. Under s->mu; the
 * caller has checked who may do it. STATUS_CONFLICT when `seat` has no move to take
 * back or another process changed the game first. */
Status session_take_back_locked(Server *srv, Session *s, int seat, const GameMeta *m,
                                ErrBuf *err);

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
    TurnClock turn;   /* the session's ai_turn, given back by session_ai_finish */
    int64_t budget_ms; /* the game's AI time left: no think may take longer */
} AiClaim;
/* Refuses (with ai_error set) when the game's AI has used its plies or its time
 * (srv->cfg.ai_max_plies, ai_seconds). */
bool session_ai_claim(Server *srv, Session *s, AiClaim *claim);
/* Registers the agent thinking for this session (running true), or clears it (false)
 * unless another think has registered its own agent since. */
void session_ai_running(Session *s, Agent *a, bool running);
void session_ai_finish(Server *srv, Session *s, const AiClaim *claim, bool ok, Move best,
                       const char *error, int64_t think_ms);
/* Queues an AI move if an AI seat is to move and none is queued or thinking; the caller
 * holds s->mu. */
void session_schedule_ai_locked(Server *srv, Session *s);

/* Whether the game is over, by its rules or by the players (a resignation, a draw
 * agreed); the caller holds s->mu. */
bool session_over_locked(const Session *s);
/* What each seat got from a game that is over (session_over_locked): by the end outside
 * the rules when there is one, else by the rules; the caller holds s->mu. */
void session_returns_locked(const Session *s, double out[MAX_PLAYERS]);
/* A stored rating as it stands at `now` (seconds): its deviation grown with the days since
 * `updated`, the end of its last rated game (0: none yet, nothing grows). */
Glicko2 session_rating_now(double rating, double rd, double volatility, int64_t updated,
                           int64_t now);
/* Commits a new meta (meta.h) for s and shows it; an end in it stops the AI. The caller
 * holds s->mu and has checked that the change is allowed. */
Status session_set_meta_locked(Server *srv, Session *s, const GameMeta *m, ErrBuf *err);

/* Ends on time the games in memory whose running clock has run out (the janitor calls
 * it a few times a second; a move by a player out of time does it too). */
void sessions_check_clocks(Server *srv);
/* Ends on time the stored games whose clock has run out, in memory or not (a game with
 * days per move leaves memory while it waits): those this process claims in the store
 * (store_claim_flags), so that with several processes exactly one ends each. The
 * janitor calls it at every sweep. */
void sessions_flag_stored(Server *srv);
/* Takes the first open seat of s for a new player (NewGame.open): *seat is his. account:
 * the player's account name, or NULL; in a rated game, one not seated already. */
Status session_join(Server *srv, Session *s, const char *account, int *seat, ErrBuf *err);
/* Puts account `name` in `seat` (a claim of the seat's token), or with replace, whatever
 * was there (a deleted account's name); STATUS_CONFLICT when another account sits there
 * and replace is false. Unchanged when it is there already. */
Status session_seat_account(Server *srv, Session *s, int seat, const char *name, bool replace,
                            ErrBuf *err);

/* The viewer's hint position: a copy of the position when `seat` is to move. */
Status session_copy_for_hint(Session *s, int seat, GameState **out, ErrBuf *err);

#endif
