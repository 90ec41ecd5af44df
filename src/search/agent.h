/*
 * agent.h - a player program for any game: chooses an algorithm (alpha-beta, MCTS or
 * random) and a strength level, and answers "what do you play here?".
 *
 * One Agent is one searcher for one thread, with all its state (TT, tree, Rng) inside
 * it; any number of agents may live in one process. Only agent_stop may be called from
 * another thread.
 */
#ifndef CROWN_SEARCH_AGENT_H
#define CROWN_SEARCH_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/mem.h"
#include "core/status.h"
#include "core/strbuf.h"
#include "search/limits.h"
#include "search/turn_clock.h"

typedef enum AgentKind {
    AGENT_AI,
    AGENT_ALPHABETA,
    AGENT_MCTS,
    AGENT_RANDOM,
    AGENT_GREEDY, /* the action with the best immediate score (search/greedy.h) */
} AgentKind;

enum {
    AGENT_LEVEL_MIN = 1,
    AGENT_LEVEL_MAX = 10,
    AGENT_LEVEL_DEFAULT = 5,
    /* In AgentSpec.limits.depth or .movetime_ms: drop the level's limit of that kind
     * without setting another (nodes uses UINT64_MAX for the same). */
    SEARCH_UNLIMITED = -1,
};

/* Which evaluation alpha-beta scores with (AgentSpec.eval). */
typedef enum AgentEval {
    AGENT_EVAL_DEFAULT, /* the game's: its network if nnue_is_default, else classic */
    AGENT_EVAL_CLASSIC, /* the game's hand-written evaluation */
    AGENT_EVAL_NNUE     /* the network built in for the game (search/nnue.h) */
} AgentEval;

typedef struct AgentSpec {
    /* AGENT_AI = the best algorithm for the game: alpha-beta for two-player zero-sum
     * perfect-information games without chance that have ops->evaluate, else MCTS
     * with the game's guided playouts when it has them (mcts_config_guided) */
    AgentKind kind;
    int level;           /* 1..10, 10 strongest; default 5 (0 also means 5) */
    SearchLimits limits; /* each nonzero field overrides the level's own limit */
    uint64_t seed;       /* for MCTS/random, variety and any randomness of weak levels */
    /* Always the first of equally good moves (the old agents' play, for comparisons):
     * no variety (alphabeta.h) and no random tie-break. Written "ai:10/novariety". */
    bool no_variety;
    /* Alpha-beta's evaluation: the game's default (AGENT_EVAL_DEFAULT: its network
     * where the net's record makes it the default, nnue_is_default, else the
     * hand-written one), or one named: "ai:10/nnue", "ai:10/classic". */
    AgentEval eval;
    /* Where the agent and its search tables take memory (NULL: the C library); it
     * must outlive the agent. */
    const Mem *mem;
} AgentSpec;

typedef struct Agent Agent;

/* The spec of a default agent: AGENT_AI, level 5, the level's limits, seed 0. */
void agent_spec_default(AgentSpec *spec);

/* Reads "ai", "ai:7", "ab", "ab:3", "alphabeta", "mcts", "mcts:4", "uct", "random",
 * "greedy" (case-sensitive; every name but random and greedy takes ":LEVEL" with LEVEL
 * 1..10), each but random optionally followed by "/novariety" (AgentSpec.no_variety),
 * and "ai" and "ab" by "/nnue" or "/classic" (AgentSpec.eval), in either order.
 * "mcts" and "uct" are the same plain UCT. "greedy" needs a game with a score
 * hook; a nonzero limits.nodes caps the states it looks at per decision. On success *out is a default spec of that kind and
 * level; on error (STATUS_PARSE, with a message listing what is allowed) it is
 * unchanged. */
Status agent_spec_parse(const char *text, AgentSpec *out, ErrBuf *err);

/* Creates an agent for g, which must outlive it. Resolves AGENT_AI, then refuses with
 * STATUS_UNSUPPORTED and a clear message: alpha-beta for a game without GAME_ZERO_SUM
 * or GAME_PERFECT_INFO, with GAME_HAS_CHANCE, without evaluate, or with players != 2;
 * a level outside 1..10; STATUS_NOT_FOUND for "/nnue" where the game has no network
 * or MCTS would play (the default evaluation falls back to the hand-written one there).
 * Allocates everything the searches need (STATUS_NOMEM if it cannot). On error *out is
 * NULL.
 *
 * Levels set the limits below; a nonzero field of spec->limits replaces the level's
 * limit of that kind (SEARCH_UNLIMITED / UINT64_MAX: none at all). Alpha-beta stops at
 * the depth, the nodes or the time, whichever comes first, and levels 1-9 add noise (in
 * centi-units, fixed per position and seed) to every evaluation. So a level is an amount
 * of search and of judgement, not of time: at an equal move time a lower level still
 * searches less and misjudges more, and level 10 is the full engine:
 *
 *   level           1    2    3    4    5     6     7     8     9     10
 *   ab depth        1    2    3    4    5     6     8     10    14    none
 *   ab nodes        300  1k   2k   4k   8k    16k   40k   100k  300k  none
 *   ab noise        300  150  80   50   30    20    12    6     3     0
 *   mcts iterations 200  500  1k   3k   10k   20k   40k   80k   130k  200k
 *   time (ms)       100  200  300  500  1000  1500  2000  3000  4000  5000
 */
Status agent_new(const Game *g, const AgentSpec *spec, Agent **out, ErrBuf *err);
/* Frees the agent; NULL is allowed. No think may be running. */
void agent_free(Agent *a);

/* Forgets everything learnt (TT, history, killers) and reseeds the Rng from the spec:
 * after it, the same search gives the same result as a fresh agent. */
void agent_new_game(Agent *a);

/* Chooses a move for the player to move in s (s is not modified). Error if the game is
 * over (STATUS_ILLEGAL) or it is a chance node (STATUS_UNSUPPORTED). out->best is a
 * legal move of s. Deterministic given the spec (seed, limits) and the agent's past
 * thinks since creation or agent_new_game, unless a time limit or agent_stop cuts the
 * search. The Rng advances from one think to the next. A move time is per turn, not per
 * action (agent_think_in_turn). Among root moves of (nearly) equal value it picks one at
 * random from its seed (alphabeta.h's variety; MCTS breaks exact ties with its Rng),
 * unless the spec says no_variety. */
Status agent_think(Agent *a, const GameState *s, SearchResult *out, ErrBuf *err);

/* The same, with the move time a budget for the whole turn kept in *turn
 * (turn_clock.h): the first action of a turn of several actions plans it, the following
 * ones spend what is left. agent_think does this with the agent's own TurnClock; a
 * caller that creates an agent per action keeps one between them and passes it here. */
Status agent_think_in_turn(Agent *a, const GameState *s, TurnClock *turn, SearchResult *out,
                           ErrBuf *err);

/* May be called from another thread: a running think returns soon with its best so
 * far. The request is cleared when a think returns, so a stop that arrives just before
 * a think starts is not lost (that think returns at once, after the shortest search
 * that still gives a move); do not call it while no think runs or is about to. */
void agent_stop(Agent *a);

/* A source of exact moves beside the search, such as a solved table (src/solve): asked
 * first at every think; when it answers true it has written a legal move and its exact
 * score (SCORE_WIN - n for a win in n, 0 for a draw) into *out, and the agent does not
 * search. It may draw among equal moves with the agent's rng. */
typedef struct AgentOracle {
    void *ctx;
    bool (*choose)(void *ctx, const Game *g, const GameState *s, Rng *rng, SearchResult *out);
} AgentOracle;

/* Lets the agent play from `oracle` where it answers (NULL: never); the oracle's context
 * must outlive the agent. */
void agent_set_oracle(Agent *a, const AgentOracle *oracle);

/* Changes the memory used by the agent's searcher: the TT size of alpha-beta (it is
 * cleared), the node arena cap of MCTS (0 = the default). STATUS_NOMEM keeps the old TT. */
Status agent_set_memory(Agent *a, size_t bytes, ErrBuf *err);

/* Replaces the limits of the next thinks as agent_new sets them from spec->limits: the
 * level's own, each nonzero field of *over taking the place of its kind, and its root
 * moves and progress listener as they are. An agent kept
 * for a whole game (the engine protocols) gets each move's limits so, keeping its TT. */
void agent_set_limits(Agent *a, const SearchLimits *over);

/* Restricts the root of the next thinks to `moves` (UCI's searchmoves; not copied, so
 * they must outlive the thinks), or lifts the restriction (count 0). The other limits
 * stay. */
void agent_set_root_moves(Agent *a, const Move *moves, int count);

/* Replaces the time limit of the next thinks (0 or less: none); the other limits stay.
 * For a clock that runs down: the caller budgets each move (search/timeman.h). */
void agent_set_movetime(Agent *a, int64_t movetime_ms);

/* The algorithm the agent runs: never AGENT_AI, which agent_new resolved. */
AgentKind agent_kind(const Agent *a);
/* The limits its searches use, levels and overrides applied (0 = none). */
SearchLimits agent_limits(const Agent *a);
/* The bytes of the agent's transposition table: fitted to its node cap unless
 * agent_set_memory chose them; 0 for an agent without one (MCTS, greedy, random). */
size_t agent_table_bytes(const Agent *a);
/* Appends e.g. "alphabeta level 5 (depth 6, 1000 ms)". */
void agent_describe(const Agent *a, StrBuf *out);
/* What scores the agent's positions: "nnue" (a network), "classic" (the game's hand-written
 * evaluation), "playouts" (MCTS) or "none" (random and greedy play). */
const char *agent_evaluation(const Agent *a);

/* Appends the score of a result: "cp 35", "win in 3", "loss in 4" (in actions) when
 * the search gives a score, else "value 0.412" (MCTS mean return). */
void search_format_score(const SearchResult *r, StrBuf *out);

/* "ai", "alphabeta", "mcts", "random", "greedy". */
const char *agent_kind_name(AgentKind k);
/* Reads an evaluation's name, "classic" or "nnue", into *out; false (and *out unchanged)
 * for anything else: the callers say so in their own terms (a flag, an option). */
bool agent_eval_parse(const char *text, AgentEval *out);
/* "classic" or "nnue", the suffix that names it ("default" for AGENT_EVAL_DEFAULT). */
const char *agent_eval_name(AgentEval e);

#endif
