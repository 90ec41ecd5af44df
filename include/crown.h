/*
 * crown.h - the public C API of the crown engine, for programs that embed it.
 *
 * This is the only header an embedding program needs; it includes no other crown
 * header and exposes no engine structure. Everything is reached through three opaque
 * handles:
 *
 *   crown_game   a game with its rule options chosen; read-only once created, so any
 *                number of states and agents, in any threads, may share one
 *   crown_state  a position of a game, with the stack of actions applied to it (so
 *                crown_state_undo needs nothing from the caller)
 *   crown_agent  a player program (alpha-beta, MCTS, ...) with its limits
 *
 * Errors. Every call that can fail returns an int status, CROWN_OK (0) or one of the
 * CROWN_ERROR_* codes, and then changes nothing but the error message. Calls on a handle
 * keep the message on that handle (crown_state_errmsg, crown_agent_errmsg); calls that
 * create a handle, or that only read a shared crown_game, write it into an optional
 * caller-owned crown_error. There is no global state: separate handles may be used from
 * separate threads at the same time; one handle must not be used by two threads at once
 * (except crown_agent_stop, and a crown_game, which is never written after creation).
 *
 * Text. Calls that give text (const char **) point into storage owned by the handle,
 * valid until the next call on that handle that gives text, or until it is freed.
 *
 * Const. A call that takes a const crown_state (or crown_agent) does not change the
 * position (or the agent's search) but still records its error and text on the handle,
 * so the one-thread-per-handle rule applies to it too.
 *
 * Actions are integers (crown_action), the game's own packing of one action; convert
 * with crown_action_from_text / crown_action_to_text. A turn of several actions is the
 * same player acting several times in a row. Chance events (drawing a tile) are actions
 * of the pseudo-player CROWN_PLAYER_CHANCE, listed with their probabilities by
 * crown_state_chance_outcomes and applied like any other action.
 *
 * Stability: within one major version (CROWN_VERSION_MAJOR, the soname libcrown.so.N)
 * functions are only ever added, never changed or removed, and codes keep their values.
 */
#ifndef CROWN_H
#define CROWN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CROWN_VERSION_MAJOR 0
#define CROWN_VERSION_MINOR 3
#define CROWN_VERSION_PATCH 0
#define CROWN_VERSION "0.3.0"
/* MAJOR * 10000 + MINOR * 100 + PATCH, for comparisons in #if. */
#define CROWN_VERSION_NUMBER                                                                  \
    (CROWN_VERSION_MAJOR * 10000 + CROWN_VERSION_MINOR * 100 + CROWN_VERSION_PATCH)

#if defined(__GNUC__) || defined(__clang__)
#define CROWN_API __attribute__((visibility("default")))
#else
#define CROWN_API
#endif

/* Status codes. */
enum {
    CROWN_OK = 0,
    CROWN_ERROR_PARSE = 1,       /* a text (position, action, option value) could not be read */
    CROWN_ERROR_ILLEGAL = 2,     /* well-formed, but against the rules or the game's state */
    CROWN_ERROR_UNSUPPORTED = 3, /* the request makes no sense for this game or algorithm */
    CROWN_ERROR_IO = 4,          /* a file (a rule option naming one) could not be read */
    CROWN_ERROR_NOMEM = 5,       /* an allocation failed */
    CROWN_ERROR_ARGUMENT = 6,    /* a NULL handle, a buffer too small, a value out of range */
    CROWN_ERROR_NOT_FOUND = 7,   /* no such game, seat or thing */
    CROWN_ERROR_NOT_YOUR_TURN = 8, /* someone else (or chance) is to act */
    CROWN_ERROR_CONFLICT = 9,    /* the handle is busy: an agent asked to think, or to take new
                                  * limits, while it thinks in another thread (the call
                                  * changes nothing, not even the agent's message) */
    CROWN_ERROR_CORRUPT = 10,    /* stored data this build cannot read */
};

/* to_move values besides the players 0..n-1. */
enum {
    CROWN_PLAYER_NONE = -1,   /* the game is over */
    CROWN_PLAYER_CHANCE = -2, /* chance acts next */
};

enum {
    CROWN_MAX_ACTIONS = 1024, /* no position of any game offers more actions */
    CROWN_MAX_PLAYERS = 4,
    CROWN_ERROR_LEN = 256,
    CROWN_OBS_MAX_DIMS = 3, /* dimensions of an observation tensor */
    CROWN_MAX_PV = 64,      /* actions of a principal variation */
};

/* crown_agent_last_score: a win now; a win n actions away scores CROWN_SCORE_WIN - n, and
 * any score of at least CROWN_SCORE_WIN_BOUND in absolute value is a proven result. */
enum {
    CROWN_SCORE_WIN = 1000000,
    CROWN_SCORE_WIN_BOUND = 990000,
};

typedef uint32_t crown_action;

typedef struct crown_game crown_game;
typedef struct crown_state crown_state;
typedef struct crown_agent crown_agent;

/* Where a call without a handle of its own puts its failure; may always be NULL. */
typedef struct crown_error {
    int code;                      /* CROWN_OK or a CROWN_ERROR_* code */
    char message[CROWN_ERROR_LEN]; /* one line saying what is wrong; "" when code is 0 */
} crown_error;

/* Where the library takes memory for a game's handles and their tables (see
 * crown_game_new_with): three functions with malloc's, realloc's and free's contracts,
 * each given `ud` first; realloc_fn may be given NULL, free_fn never is. When alloc_fn or
 * realloc_fn returns NULL the call fails with CROWN_ERROR_NOMEM, changing nothing, but
 * for an MCTS think, which searches on in the tree it has. Calls may come from any
 * thread that uses a handle of the game. */
typedef struct crown_allocator {
    void *(*alloc_fn)(void *ud, size_t size);
    void *(*realloc_fn)(void *ud, void *ptr, size_t size);
    void (*free_fn)(void *ud, void *ptr);
    void *ud;
} crown_allocator;

/* What an agent's search tells after each iteration it completes (crown_agent_set_progress).
 * Fields are only ever added at the end. */
typedef struct crown_progress {
    int depth;              /* the iteration's depth, in actions */
    int seldepth;           /* the deepest line it looked at, in actions */
    uint64_t nodes;         /* nodes searched so far in this think */
    int64_t time_ms;        /* time spent so far in this think */
    int score;              /* as crown_agent_last_score's *score */
    int hashfull;           /* permille of the transposition table in use */
    const crown_action *pv; /* the principal variation, its best action first; valid
                             * during the call only */
    int pv_len;
} crown_progress;

/* Called on the thinking thread; it may call crown_agent_stop on the agent, and no other
 * call on it (crown_agent_think and crown_agent_set_limits are CROWN_ERROR_CONFLICT). */
typedef void (*crown_progress_fn)(void *ud, const crown_progress *progress);

/* ---- Library ---------------------------------------------------------------------- */

/* The version of the library linked at run time, "MAJOR.MINOR.PATCH" (CROWN_VERSION is
 * the one compiled against), and the same as CROWN_VERSION_NUMBER. */
CROWN_API const char *crown_version(void);
CROWN_API int crown_version_number(void);

/* A short name of a status code ("parse error"); "unknown status" for others. */
CROWN_API const char *crown_status_name(int code);

/* The registered games: crown_game_names(i) for i in [0, crown_game_count()), else NULL. */
CROWN_API int crown_game_count(void);
CROWN_API const char *crown_game_names(int i);

/* ---- Games ------------------------------------------------------------------------ */

/* Creates the game `name` ("kings-valley", see crown_game_names) with rule options given
 * as n_options name/value pairs (names[i] = values[i]; both may be NULL when n_options
 * is 0); options not given keep their defaults. The player count, where a game lets it
 * vary, is the option "players". An unknown game is CROWN_ERROR_NOT_FOUND, unknown
 * options and values out of range CROWN_ERROR_PARSE, each with a message listing what is
 * allowed. On error *out is NULL. */
CROWN_API int crown_game_new(const char *name, const char *const *names,
                             const char *const *values, int n_options, crown_game **out,
                             crown_error *err);
/* crown_game_new taking its memory from `alloc` (copied; NULL: the C library's): the
 * game's handle, and every state and agent of the game, with their positions, undo
 * stacks, observations, the text they give out and the agents' search tables
 * (transposition table, MCTS tree), are allocated and freed through it. What the game's
 * rules allocate once at creation, and scratch memory a call frees before it returns
 * (a move's text while it is read), still come from the C library. */
CROWN_API int crown_game_new_with(const crown_allocator *alloc, const char *name,
                                  const char *const *names, const char *const *values,
                                  int n_options, crown_game **out, crown_error *err);
/* Frees the game; NULL is allowed. Free its states and agents first. */
CROWN_API void crown_game_free(crown_game *game);

CROWN_API const char *crown_game_name(const crown_game *game);
CROWN_API int crown_game_players(const crown_game *game);
/* Rule options: their count, the name of option i (NULL outside [0, count)), and the
 * value an option has in this game (NULL if the game has no such option). */
CROWN_API int crown_game_option_count(const crown_game *game);
CROWN_API const char *crown_game_option_name(const crown_game *game, int i);
CROWN_API const char *crown_game_option_value(const crown_game *game, const char *name);

/* ---- States ----------------------------------------------------------------------- */

/* Creates the start position of `game` (which must outlive it); `seed` drives any
 * random set-up. On error *out is NULL. */
CROWN_API int crown_state_new(const crown_game *game, uint64_t seed, crown_state **out,
                              crown_error *err);
/* An independent copy, undo stack included. On error *out is NULL. */
CROWN_API int crown_state_clone(const crown_state *state, crown_state **out, crown_error *err);
/* Frees the state; NULL is allowed. */
CROWN_API void crown_state_free(crown_state *state);

/* The code and message of the last failed call on this state ("" and CROWN_OK after a
 * call that succeeded). */
CROWN_API int crown_state_errcode(const crown_state *state);
CROWN_API const char *crown_state_errmsg(const crown_state *state);

CROWN_API const crown_game *crown_state_game(const crown_state *state);

/* Sets the position from its text (the game's position format) and empties the undo
 * stack. On error the state is unchanged. */
CROWN_API int crown_state_parse(crown_state *state, const char *text);
/* The position text; crown_state_parse reads it back to the same position. */
CROWN_API int crown_state_format(const crown_state *state, const char **text);
/* A drawing of the board for a terminal, plain ASCII. */
CROWN_API int crown_state_render(const crown_state *state, const char **text);

/* Who acts next: a player 0..n-1, CROWN_PLAYER_CHANCE or CROWN_PLAYER_NONE. */
CROWN_API int crown_state_to_move(const crown_state *state);
/* 1 once the game is over, else 0. */
CROWN_API int crown_state_is_over(const crown_state *state);
/* A key of the position: equal positions have equal hashes. */
CROWN_API uint64_t crown_state_hash(const crown_state *state);

/* The legal actions of the player to move, in a fixed order; none when the game is over
 * or chance acts. *count is set to their number; they are written to out[0..count) when
 * cap is at least that (out may be NULL with cap 0 to ask only the count; a smaller
 * nonzero cap is CROWN_ERROR_ARGUMENT). CROWN_MAX_ACTIONS is always enough. */
CROWN_API int crown_state_legal_actions(const crown_state *state, crown_action *out, int cap,
                                        int *count);
/* The outcomes of the chance event and their probabilities (summing to 1) when
 * crown_state_to_move is CROWN_PLAYER_CHANCE, else none; cap as above (prob may be NULL). */
CROWN_API int crown_state_chance_outcomes(const crown_state *state, crown_action *out,
                                          double *prob, int cap, int *count);

/* Reads one action and checks it is legal here: a chance outcome by its exact text when
 * chance acts, else an action of the player to move in the game's notation or in the
 * spellings `crown play` and the browser read too (upper case "A1-A4", squares run
 * together "a1a4", or joined by a dash "e2-e4" where the game writes "e2e4"). A text
 * that two spellings read as different actions is CROWN_ERROR_PARSE. */
CROWN_API int crown_action_from_text(const crown_state *state, const char *text,
                                     crown_action *out);
/* The notation of an action legal here (CROWN_ERROR_ILLEGAL for any other). */
CROWN_API int crown_action_to_text(const crown_state *state, crown_action action,
                                   const char **text);

/* Plays an action legal here (a legal action of the player to move, or a chance
 * outcome) and pushes it on the undo stack. An illegal action is CROWN_ERROR_ILLEGAL and
 * changes nothing. */
CROWN_API int crown_state_apply(crown_state *state, crown_action action);
/* Plays what a player types, as `crown play` and the browser read it: one action as
 * crown_action_from_text reads it, or a whole turn of several actions, in the game's
 * turn notation (King's Guard's "c3-c5,c4") or as action texts separated by ';'. Each
 * action is pushed on the undo stack; a text of which any part is unreadable or illegal
 * changes nothing. At a chance node, one outcome by its text. */
CROWN_API int crown_state_apply_text(crown_state *state, const char *text);
/* Takes back the last applied action (CROWN_ERROR_ILLEGAL when there is none): the
 * state is then byte for byte what it was before, hash included. */
CROWN_API int crown_state_undo(crown_state *state);
/* The number of actions crown_state_undo can take back. */
CROWN_API int crown_state_undo_depth(const crown_state *state);
/* crown_state_undo, after checking that `action` is the last action applied
 * (CROWN_ERROR_ILLEGAL, saying which was, when it is not): a caller that names what it
 * takes back cannot take back the wrong action. */
CROWN_API int crown_state_undo_action(crown_state *state, crown_action action);
/* The actions applied, oldest first (those crown_state_undo can take back); cap as for
 * crown_state_legal_actions, crown_state_undo_depth always enough. */
CROWN_API int crown_state_history(const crown_state *state, crown_action *out, int cap,
                                  int *count);

/* The final value per player once the game is over (two players: 1 win, -1 loss, 0
 * draw), in out[0..players); cap must be at least the game's players.
 * CROWN_ERROR_ILLEGAL while the game goes on. */
CROWN_API int crown_state_returns(const crown_state *state, double *out, int cap);
/* Why the game ended ("a king reached the Valley"); "" while it goes on. */
CROWN_API int crown_state_result_text(const crown_state *state, const char **text);
/* The result in the words `crown play` and the browser use: for viewer
 * CROWN_PLAYER_NONE the neutral form ("first player wins: a king reached the Valley",
 * "draw: ..."), for a seat the form addressed to it ("You won: ...", "You lost: second
 * player wins: ..."); "unfinished" while the game goes on. Another viewer is
 * CROWN_ERROR_ARGUMENT. */
CROWN_API int crown_state_result_words(const crown_state *state, int viewer, const char **text);

/* The number of action sequences `depth` (0..64) actions deep from here, chance outcomes
 * counting as branches. The state is unchanged afterwards. */
CROWN_API int crown_state_perft(const crown_state *state, int depth, uint64_t *count);

/* ---- Action indices ------------------------------------------------------------- */

/* OpenSpiel's numbering of actions, for learning programs whose policies are vectors: a
 * player's legal action has an index in [0, crown_game_num_distinct_actions) and a chance
 * outcome one in [0, crown_game_max_chance_outcomes), fixed by the game and its options,
 * so that an index names the same move (the same squares, the same kind) in every
 * position where it is legal; no two legal actions of one position share an index. */
CROWN_API int crown_game_num_distinct_actions(const crown_game *game);
/* 0 for a game without chance. */
CROWN_API int crown_game_max_chance_outcomes(const crown_game *game);
/* 1 when nothing is ever hidden from any player, else 0. */
CROWN_API int crown_game_perfect_information(const crown_game *game);
/* No game lasts more actions than this (chance outcomes and every action of a turn
 * counted), whatever is played. */
CROWN_API int crown_game_max_game_length(const crown_game *game);
/* The indices of the legal actions, ascending; at a chance node those of its outcomes
 * (prob, which may be NULL, gets their probabilities; it is not written at a player's
 * node); none once the game is over. cap as for crown_state_legal_actions. */
CROWN_API int crown_state_legal_indices(const crown_state *state, int *out, double *prob, int cap,
                                              int *count);
/* The index of an action (or chance outcome) legal here, and the action of an index;
 * CROWN_ERROR_ILLEGAL for one that is not legal here. */
CROWN_API int crown_state_action_index(const crown_state *state, crown_action action, int *index);
CROWN_API int crown_state_index_action(const crown_state *state, int index, crown_action *action);
/* crown_state_apply of the action with this index. */
CROWN_API int crown_state_apply_index(crown_state *state, int index);
/* The indices of the actions applied, oldest first, as crown_state_history gives them. */
CROWN_API int crown_state_history_indices(const crown_state *state, int *out, int cap, int *count);

/* ---- Observations ----------------------------------------------------------------- */

/* What one observer may see of a position, for interfaces and learning programs. An
 * observer is a seat 0..players-1, or CROWN_PLAYER_NONE for a spectator (who sees only
 * what is public). Games without observations give CROWN_ERROR_UNSUPPORTED.
 *
 * The tensor's shape is fixed by the game and its options: [planes, rows, cols] for a
 * game of one board (OpenSpiel's layout), [size] for others; its length in floats is the
 * product of the dims. crown_game_observation_shape writes *ndims dims into dims[0..cap)
 * (CROWN_OBS_MAX_DIMS is always enough). */
CROWN_API int crown_game_observation_shape(const crown_game *game, int *dims, int cap,
                                           int *ndims, crown_error *err);
/* The observation as one JSON object: cells with their names, terrain and pieces, the
 * game's counters and lists, who is to move. */
CROWN_API int crown_state_observation_json(const crown_state *state, int observer,
                                           const char **text);
/* Writes the observation tensor into out[0..n); n must be at least its length. */
CROWN_API int crown_state_observation_tensor(const crown_state *state, int observer, float *out,
                                             size_t n);
/* Draws again, from `seed`, everything that `observer` (a seat) cannot see, keeping what
 * he sees and the actions applied (OpenSpiel's resample_from_infostate); a game of
 * perfect information, or whose secrets are only chance still to come, is unchanged. */
CROWN_API int crown_state_resample(crown_state *state, int observer, uint64_t seed);

/* ---- Agents ----------------------------------------------------------------------- */

/* Creates a player program for `game` (which must outlive it) from a spec text: "ai",
 * "ai:7" (levels 1..10, 10 strongest), "ab[:L]" / "alphabeta[:L]", "mcts[:L]" / "uct",
 * "random", "greedy". `seed` drives its randomness. Algorithms the game does not suit
 * are CROWN_ERROR_UNSUPPORTED with the reason. On error *out is NULL. */
CROWN_API int crown_agent_new(const crown_game *game, const char *spec, uint64_t seed,
                              crown_agent **out, crown_error *err);
/* Frees the agent; NULL is allowed. No think may be running. */
CROWN_API void crown_agent_free(crown_agent *agent);

CROWN_API int crown_agent_errcode(const crown_agent *agent);
CROWN_API const char *crown_agent_errmsg(const crown_agent *agent);

/* Replaces the level's limits: depth in actions (alpha-beta), nodes (alpha-beta nodes or
 * MCTS iterations), movetime_ms of wall time per think; 0 keeps the level's limit of
 * that kind, -1 removes it. A depth or node limit with movetime_ms 0 also removes the
 * level's clock, so that the search is exact: the same agent spec, seed, limits and
 * state then give the same action every time. Resets what the agent has learnt. */
CROWN_API int crown_agent_set_limits(crown_agent *agent, int depth, int64_t nodes,
                                     int64_t movetime_ms);
/* Chooses an action for the player to move in `state` (not changed), legal there. The
 * game being over is CROWN_ERROR_ILLEGAL, a chance node CROWN_ERROR_UNSUPPORTED, a think
 * already running on this agent in another thread CROWN_ERROR_CONFLICT (as is
 * crown_agent_set_limits meanwhile). */
CROWN_API int crown_agent_think(crown_agent *agent, const crown_state *state,
                                crown_action *best);
/* Calls `fn` (NULL: none) with `ud` after each iteration of the agent's later thinks:
 * alpha-beta agents complete one per depth; MCTS, random and greedy agents call none.
 * While the agent thinks this is CROWN_ERROR_CONFLICT. */
CROWN_API int crown_agent_set_progress(crown_agent *agent, crown_progress_fn fn, void *ud);
/* May be called from another thread while crown_agent_think runs: it returns soon with
 * its best action so far. */
CROWN_API void crown_agent_stop(crown_agent *agent);
/* What the agent runs, e.g. "alphabeta level 5 (depth 6, 1000 ms)". */
CROWN_API int crown_agent_describe(const crown_agent *agent, const char **text);
/* Figures of the last think: nodes (or MCTS iterations) and the depth reached. */
CROWN_API uint64_t crown_agent_last_nodes(const crown_agent *agent);
CROWN_API int crown_agent_last_depth(const crown_agent *agent);
/* The value the last think gave its action, from the view of the player who acted.
 * Alpha-beta scores in centi-units, a proven result as CROWN_SCORE_WIN - n (a win n
 * actions away) or -(CROWN_SCORE_WIN - n): 1 is returned and *score set. MCTS gives the
 * mean return at its root in [-1, 1], the other agents a value of their own: 0 is
 * returned and *value set. Before any think: 0 and a value of 0. Either pointer may be
 * NULL. */
CROWN_API int crown_agent_last_score(const crown_agent *agent, int *score, double *value);
/* The principal variation of the last think, its action first (none before any think);
 * cap as for crown_state_legal_actions, CROWN_MAX_PV always enough. */
CROWN_API int crown_agent_last_pv(const crown_agent *agent, crown_action *out, int cap,
                                  int *count);

#ifdef __cplusplus
}
#endif

#endif
