/*
 * crown.c - the public C API (include/crown.h) over the engine: handles that wrap a Game,
 * a GameState with its own undo stack, and an Agent, each carrying its last error and
 * the text it last gave out, so that callers need no engine header and no globals.
 *
 * Every entry point checks its arguments and legality before touching anything, so a
 * failed call leaves its handle exactly as it was.
 */
#include "crown.h"

#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/invariant.h"
#include "core/mem.h"
#include "core/observation.h"
#include "play/registry.h"
#include "play/turn.h"
#include "play/words.h"
#include "core/status.h"
#include "core/strbuf.h"
#include "search/agent.h"

/* The engine's first Status codes are the API's codes; CROWN_ERROR_ARGUMENT is the API's
 * own, so the later engine codes are renumbered by api_code. Its limits are the API's. */
_Static_assert((int)CROWN_OK == (int)STATUS_OK && (int)CROWN_ERROR_PARSE == (int)STATUS_PARSE &&
                   (int)CROWN_ERROR_ILLEGAL == (int)STATUS_ILLEGAL &&
                   (int)CROWN_ERROR_UNSUPPORTED == (int)STATUS_UNSUPPORTED &&
                   (int)CROWN_ERROR_IO == (int)STATUS_IO &&
                   (int)CROWN_ERROR_NOMEM == (int)STATUS_NOMEM,
               "crown.h status codes must match core/status.h");
_Static_assert((int)CROWN_PLAYER_NONE == (int)PLAYER_NONE &&
                   (int)CROWN_PLAYER_CHANCE == (int)PLAYER_CHANCE &&
                   (int)CROWN_MAX_ACTIONS == (int)MOVELIST_CAP &&
                   (int)CROWN_MAX_PLAYERS == (int)MAX_PLAYERS &&
                   (int)CROWN_ERROR_LEN == (int)ERRBUF_LEN,
               "crown.h constants must match core/game.h and core/status.h");
_Static_assert(sizeof(crown_action) == sizeof(Move), "crown_action is a Move");
_Static_assert((int)CROWN_OBS_MAX_DIMS == (int)OBS_MAX_DIMS, "one tensor rank");
_Static_assert((int)CROWN_MAX_PV == (int)SEARCH_PV_CAP && (int)CROWN_SCORE_WIN == (int)SCORE_WIN &&
                   (int)CROWN_SCORE_WIN_BOUND == (int)SCORE_WIN_BOUND,
               "crown.h's search figures are the search's");

enum { PERFT_MAX_DEPTH = 64, WHO_UNKNOWN = INT_MIN, INDEX_UNKNOWN = -1 };

/* The API's code for an engine Status: every engine result passes through here, since
 * the engine's codes after STATUS_NOMEM collide with CROWN_ERROR_ARGUMENT and up. */
static int api_code(Status st)
{
    switch (st) {
    case STATUS_NOT_FOUND:
        return CROWN_ERROR_NOT_FOUND;
    case STATUS_NOT_YOUR_TURN:
        return CROWN_ERROR_NOT_YOUR_TURN;
    case STATUS_CONFLICT:
        return CROWN_ERROR_CONFLICT;
    case STATUS_CORRUPT:
        return CROWN_ERROR_CORRUPT;
    default:
        return (int)st;
    }
}

struct crown_game {
    Game *game;
    Mem mem; /* the caller's allocator; alloc NULL: the C library's */
};

/* A legal action with its index (crown.h's action indices). */
typedef struct IndexedMove {
    int index;
    Move move;
} IndexedMove;

struct crown_state {
    const crown_game *game;
    GameState *s;
    /* The undo stack: actions applied, each with its undo record. whos[i] is who acts in
     * the position before moves[i], and whos[depth] who acts now: asked once (it can cost
     * a move generation, in a game that ends when its player cannot move, and a loop asks
     * several times per action), WHO_UNKNOWN until then, and found again after undo. */
    Move *moves;
    int *whos;
    int *indices; /* the index of moves[i], taken in the position it was played in */
    unsigned char *undo;
    int depth, cap;
    int errcode;
    ErrBuf err;
    StrBuf text;
    MoveList scratch; /* legality checks without a large stack frame */
    /* scratch holds the legal actions of s: a program that lists them and then plays one
     * (every random or search loop) generates them once, not twice. Cleared by every
     * change of s. */
    bool legal_fresh;
    /* The legal actions or chance outcomes by ascending index (with the outcomes'
     * probabilities), for the callers that number actions as OpenSpiel does; kept, as
     * scratch is, until the position changes. */
    IndexedMove indexed[MOVELIST_CAP];
    double indexed_prob[CHANCE_CAP];
    int indexed_count;
    bool indexed_fresh;
    ChanceList chance;
    Observation *obs; /* allocated on first use: it is large */
};

struct crown_agent {
    const crown_game *game;
    AgentSpec spec;
    Agent *agent;
    SearchResult last;
    SearchProgress listener; /* always given to the search; tells `progress` if set */
    crown_progress_fn progress;
    void *progress_ud;
    /* Set while crown_agent_think runs: a second think, or new limits (which replace
     * the searching Agent), from another thread is CROWN_ERROR_CONFLICT, not a race. */
    atomic_bool busy;
    int errcode;
    ErrBuf err;
    StrBuf text;
};

/* Calls that only read a position take a const handle (crown.h) yet record their outcome
 * on it: the last error, the text given out and the cached legal actions and observation
 * are the handle's caches, not its position. Every handle is allocated here, never
 * defined const, so writing through the cast is defined. */
static crown_state *state_cache(const crown_state *s)
{
    return (crown_state *)s;
}

static crown_agent *agent_cache(const crown_agent *a)
{
    return (crown_agent *)a;
}

/* ---- Errors --------------------------------------------------------------------- */

static int error_out(crown_error *out, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int error_out(crown_error *out, int code, const char *fmt, ...)
{
    if (out != NULL) {
        out->code = code;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(out->message, sizeof out->message, fmt, ap);
        va_end(ap);
    }
    return code;
}

static int error_ok(crown_error *out)
{
    if (out != NULL) {
        out->code = CROWN_OK;
        out->message[0] = '\0';
    }
    return CROWN_OK;
}

/* Records the outcome of a call on a state: st with the message already in s->err. */
static int state_result(crown_state *s, int st)
{
    s->errcode = st;
    if (st == CROWN_OK)
        err_clear(&s->err);
    return st;
}

static int state_fail(crown_state *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int state_fail(crown_state *s, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err.msg, sizeof s->err.msg, fmt, ap);
    va_end(ap);
    s->errcode = code;
    return code;
}

static int agent_result(crown_agent *a, int st)
{
    a->errcode = st;
    if (st == CROWN_OK)
        err_clear(&a->err);
    return st;
}

/* ---- Library -------------------------------------------------------------------- */

const char *crown_version(void)
{
    return CROWN_VERSION;
}

int crown_version_number(void)
{
    return CROWN_VERSION_NUMBER;
}

const char *crown_status_name(int code)
{
    switch (code) {
    case CROWN_OK:
        return "ok";
    case CROWN_ERROR_PARSE:
        return "parse error";
    case CROWN_ERROR_ILLEGAL:
        return "illegal";
    case CROWN_ERROR_UNSUPPORTED:
        return "unsupported";
    case CROWN_ERROR_IO:
        return "i/o error";
    case CROWN_ERROR_NOMEM:
        return "out of memory";
    case CROWN_ERROR_ARGUMENT:
        return "bad argument";
    case CROWN_ERROR_NOT_FOUND:
        return "not found";
    case CROWN_ERROR_NOT_YOUR_TURN:
        return "not your turn";
    case CROWN_ERROR_CONFLICT:
        return "conflict";
    case CROWN_ERROR_CORRUPT:
        return "corrupt data";
    default:
        return "unknown status";
    }
}

int crown_game_count(void)
{
    return registry_count();
}

const char *crown_game_names(int i)
{
    if (i < 0 || i >= registry_count())
        return NULL;
    return registry_at(i)->name;
}

/* ---- Games ---------------------------------------------------------------------- */

int crown_game_new(const char *name, const char *const *names, const char *const *values,
                   int n_options, crown_game **out, crown_error *err)
{
    return crown_game_new_with(NULL, name, names, values, n_options, out, err);
}

int crown_game_new_with(const crown_allocator *alloc, const char *name,
                        const char *const *names, const char *const *values, int n_options,
                        crown_game **out, crown_error *err)
{
    if (out == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_game_new: out is NULL");
    *out = NULL;
    Mem mem = {0};
    if (alloc != NULL) {
        if (alloc->alloc_fn == NULL || alloc->realloc_fn == NULL || alloc->free_fn == NULL)
            return error_out(err, CROWN_ERROR_ARGUMENT,
                             "crown_game_new_with: the allocator lacks a function");
        mem = (Mem){alloc->alloc_fn, alloc->realloc_fn, alloc->free_fn, alloc->ud};
    }
    if (name == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_game_new: no game name");
    if (n_options < 0 || (n_options > 0 && (names == NULL || values == NULL)))
        return error_out(err, CROWN_ERROR_ARGUMENT,
                         "crown_game_new: %d options without their names and values", n_options);
    const GameOps *ops;
    ErrBuf lookup;
    Status found = registry_lookup(name, &ops, &lookup);
    if (found != STATUS_OK)
        return error_out(err, api_code(found), "%s", lookup.msg);
    RuleSetting *rules = mem_zalloc(&mem, sizeof *rules * ((size_t)n_options + 1));
    crown_game *h = mem_zalloc(&mem, sizeof *h);
    if (rules == NULL || h == NULL) {
        mem_free(&mem, rules);
        mem_free(&mem, h);
        return error_out(err, CROWN_ERROR_NOMEM, "out of memory");
    }
    h->mem = mem;
    for (int i = 0; i < n_options; i++)
        rules[i] = (RuleSetting){.name = names[i], .value = values[i]};
    ErrBuf e;
    err_clear(&e);
    int st = api_code(game_create(ops, 0, rules, n_options, &h->game, &e));
    mem_free(&mem, rules);
    if (st != CROWN_OK) {
        mem_free(&mem, h);
        return error_out(err, st, "%s", e.msg);
    }
    *out = h;
    return error_ok(err);
}

void crown_game_free(crown_game *game)
{
    if (game == NULL)
        return;
    game_destroy(game->game);
    const Mem mem = game->mem; /* the handle goes with it */
    mem_free(&mem, game);
}

const char *crown_game_name(const crown_game *game)
{
    return game ? game->game->ops->name : NULL;
}

int crown_game_players(const crown_game *game)
{
    return game ? game->game->players : 0;
}

int crown_game_option_count(const crown_game *game)
{
    return game ? game->game->ops->option_count : 0;
}

const char *crown_game_option_name(const crown_game *game, int i)
{
    if (game == NULL || i < 0 || i >= game->game->ops->option_count)
        return NULL;
    return game->game->ops->options[i].name;
}

const char *crown_game_option_value(const crown_game *game, const char *name)
{
    if (game == NULL || name == NULL)
        return NULL;
    return game_option(game->game, name);
}

/* ---- States --------------------------------------------------------------------- */

static bool stack_reserve(crown_state *s, int need);

/* After every change of the position but undo: what was kept of the old one is stale. */
static void state_changed(crown_state *s)
{
    s->legal_fresh = false;
    s->indexed_fresh = false;
    s->whos[s->depth] = WHO_UNKNOWN;
}

/* Who acts now; kept in the stack, which a const state may write (see whos). */
static int who_now(const crown_state *s)
{
    int *now = &s->whos[s->depth];
    if (*now == WHO_UNKNOWN) {
        const Game *g = s->game->game;
        *now = g->ops->to_move(g, s->s);
    }
    return *now;
}

static void state_free_parts(crown_state *s)
{
    const Mem *mem = &s->game->mem;
    mem_free(mem, s->s);
    mem_free(mem, s->moves);
    mem_free(mem, s->whos);
    mem_free(mem, s->indices);
    mem_free(mem, s->undo);
    mem_free(mem, s->obs);
    sb_free(&s->text);
    mem_free(mem, s);
}

/* A state with room on its stack for the present position, or NULL. */
static crown_state *state_alloc(const crown_game *game)
{
    crown_state *s = mem_zalloc(&game->mem, sizeof *s);
    if (s == NULL)
        return NULL;
    s->game = game;
    sb_init_mem(&s->text, &game->mem);
    err_clear(&s->err);
    s->s = mem_zalloc(&game->mem, game->game->state_size);
    if (s->s == NULL || !stack_reserve(s, 1)) {
        state_free_parts(s);
        return NULL;
    }
    return s;
}

int crown_state_new(const crown_game *game, uint64_t seed, crown_state **out, crown_error *err)
{
    if (out == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_state_new: out is NULL");
    *out = NULL;
    if (game == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_state_new: game is NULL");
    crown_state *s = state_alloc(game);
    if (s == NULL)
        return error_out(err, CROWN_ERROR_NOMEM, "out of memory");
    game->game->ops->new_game(game->game, s->s, seed);
    state_changed(s);
    *out = s;
    return error_ok(err);
}

/* Makes room for one more action on the undo stack. */
static bool stack_reserve(crown_state *s, int need)
{
    if (need <= s->cap)
        return true;
    const Game *g = s->game->game;
    int cap = s->cap ? s->cap : 8; /* every state has one, and clones are many */
    while (cap < need)
        cap *= 2;
    size_t usize = g->undo_size ? g->undo_size : 1;
    const Mem *mem = &s->game->mem;
    Move *moves = mem_realloc(mem, s->moves, sizeof *moves * (size_t)cap);
    if (moves == NULL)
        return false;
    s->moves = moves;
    int *whos = mem_realloc(mem, s->whos, sizeof *whos * (size_t)cap);
    if (whos == NULL)
        return false;
    s->whos = whos;
    int *indices = mem_realloc(mem, s->indices, sizeof *indices * (size_t)cap);
    if (indices == NULL)
        return false;
    s->indices = indices;
    unsigned char *undo = mem_realloc(mem, s->undo, usize * (size_t)cap);
    if (undo == NULL)
        return false;
    s->undo = undo;
    s->cap = cap;
    return true;
}

static void *undo_at(const crown_state *s, int i)
{
    size_t usize = s->game->game->undo_size ? s->game->game->undo_size : 1;
    return s->undo + usize * (size_t)i;
}

int crown_state_clone(const crown_state *state, crown_state **out, crown_error *err)
{
    if (out == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_state_clone: out is NULL");
    *out = NULL;
    if (state == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_state_clone: state is NULL");
    crown_state *c = state_alloc(state->game);
    if (c == NULL || !stack_reserve(c, state->depth + 1)) {
        crown_state_free(c);
        return error_out(err, CROWN_ERROR_NOMEM, "out of memory");
    }
    game_state_copy(state->game->game, c->s, state->s);
    if (state->depth > 0) {
        memcpy(c->moves, state->moves, sizeof *c->moves * (size_t)state->depth);
        memcpy(c->indices, state->indices, sizeof *c->indices * (size_t)state->depth);
        memcpy(c->undo, state->undo,
               (size_t)((unsigned char *)undo_at(state, state->depth) - state->undo));
    }
    memcpy(c->whos, state->whos, sizeof *c->whos * (size_t)(state->depth + 1));
    c->depth = state->depth;
    *out = c;
    return error_ok(err);
}

void crown_state_free(crown_state *state)
{
    if (state != NULL)
        state_free_parts(state);
}

int crown_state_errcode(const crown_state *state)
{
    return state ? state->errcode : CROWN_ERROR_ARGUMENT;
}

const char *crown_state_errmsg(const crown_state *state)
{
    return state ? state->err.msg : "state is NULL";
}

const crown_game *crown_state_game(const crown_state *state)
{
    return state ? state->game : NULL;
}

int crown_state_parse(crown_state *state, const char *text)
{
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_parse: text is NULL");
    const Game *g = state->game->game;
    int st = api_code(g->ops->parse_position(g, state->s, text, &state->err));
    if (st == CROWN_OK) {
        state->depth = 0;
        state_changed(state);
    }
    return state_result(state, st);
}

/* Points *text at the handle's text buffer after `write` filled it. */
static int state_text(crown_state *state, const char **text)
{
    if (sb_failed(&state->text)) {
        sb_free(&state->text); /* empty again, on the game's allocator */
        return state_fail(state, CROWN_ERROR_NOMEM, "out of memory");
    }
    *text = sb_str(&state->text);
    return state_result(state, CROWN_OK);
}

int crown_state_format(const crown_state *handle, const char **text)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_format: text is NULL");
    const Game *g = state->game->game;
    sb_clear(&state->text);
    g->ops->format_position(g, state->s, &state->text);
    return state_text(state, text);
}

int crown_state_render(const crown_state *handle, const char **text)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_render: text is NULL");
    const Game *g = state->game->game;
    sb_clear(&state->text);
    g->ops->render(g, state->s, 0, &state->text);
    return state_text(state, text);
}

int crown_state_to_move(const crown_state *state)
{
    if (state == NULL)
        return CROWN_PLAYER_NONE;
    return who_now(state);
}

int crown_state_is_over(const crown_state *state)
{
    return crown_state_to_move(state) == CROWN_PLAYER_NONE;
}

uint64_t crown_state_hash(const crown_state *state)
{
    if (state == NULL)
        return 0;
    const Game *g = state->game->game;
    return g->ops->hash(g, state->s);
}

/* The cap rule of crown.h for a list of n items given into `out`: sets *count, and
 * *write when the items are to be copied; a status to return otherwise. */
static int cap_rule(crown_state *state, int n, const void *out, int cap, int *count, bool *write)
{
    *write = false;
    if (count == NULL || cap < 0 || (cap > 0 && out == NULL))
        return state_fail(state, CROWN_ERROR_ARGUMENT, "no count, or a cap without an array");
    *count = n;
    if (cap == 0 && out == NULL)
        return state_result(state, CROWN_OK);
    if (cap < n)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "room for %d actions, %d needed", cap, n);
    *write = true;
    return CROWN_OK;
}

/* Copies n items to the caller's arrays under the cap rule of crown.h. */
static int list_out(crown_state *state, const Move *moves, const double *prob, int n,
                    crown_action *out, double *prob_out, int cap, int *count)
{
    bool write;
    int st = cap_rule(state, n, out, cap, count, &write);
    if (!write)
        return st;
    memcpy(out, moves, sizeof *out * (size_t)n);
    if (prob_out != NULL && prob != NULL)
        memcpy(prob_out, prob, sizeof *prob_out * (size_t)n);
    return state_result(state, CROWN_OK);
}

/* The legal actions of the player to move, in state->scratch. */
static const MoveList *legal_list(crown_state *state)
{
    if (!state->legal_fresh) {
        const Game *g = state->game->game;
        /* The return value is the count; a game need not set the list's own. */
        state->scratch.count = g->ops->gen_moves(g, state->s, &state->scratch);
        state->legal_fresh = true;
    }
    return &state->scratch;
}

int crown_state_legal_actions(const crown_state *handle, crown_action *out, int cap, int *count)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    const MoveList *list = legal_list(state);
    return list_out(state, list->moves, NULL, list->count, out, NULL, cap, count);
}

int crown_state_chance_outcomes(const crown_state *handle, crown_action *out, double *prob, int cap,
                                int *count)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    const Game *g = state->game->game;
    int n = 0;
    if (who_now(state) == PLAYER_CHANCE)
        n = g->ops->chance_outcomes(g, state->s, &state->chance);
    return list_out(state, state->chance.outcomes, state->chance.prob, n, out, prob, cap, count);
}

/* True if m is a legal action or chance outcome of the state. */
static bool is_legal(crown_state *state, Move m)
{
    const Game *g = state->game->game;
    int who = who_now(state);
    if (who == PLAYER_NONE)
        return false;
    if (who == PLAYER_CHANCE) {
        int n = g->ops->chance_outcomes(g, state->s, &state->chance);
        for (int i = 0; i < n; i++)
            if (state->chance.outcomes[i] == m)
                return true;
        return false;
    }
    const MoveList *list = legal_list(state);
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m)
            return true;
    return false;
}

static int illegal(crown_state *state, crown_action action)
{
    if (crown_state_is_over(state))
        return state_fail(state, CROWN_ERROR_ILLEGAL, "the game is over");
    return state_fail(state, CROWN_ERROR_ILLEGAL, "action %u is not legal in this position",
                      (unsigned)action);
}

int crown_action_from_text(const crown_state *handle, const char *text, crown_action *out)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL || out == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_action_from_text: NULL argument");
    const Game *g = state->game->game;
    if (who_now(state) == PLAYER_NONE)
        return state_fail(state, CROWN_ERROR_ILLEGAL, "the game is over");
    Move m = MOVE_NONE;
    int st = api_code(play_parse_action(g, state->s, text, &m, &state->err));
    if (st == CROWN_OK)
        *out = m;
    return state_result(state, st);
}

int crown_action_to_text(const crown_state *handle, crown_action action, const char **text)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_action_to_text: text is NULL");
    if (!is_legal(state, action))
        return illegal(state, action);
    const Game *g = state->game->game;
    sb_clear(&state->text);
    g->ops->format_move(g, state->s, action, &state->text);
    return state_text(state, text);
}

static int index_of(const Game *g, const GameState *s, Move m, bool chance);

/* Plays a legal action, whose index is `index` (or INDEX_UNKNOWN), and pushes it; the
 * stack has room (stack_reserve). */
static void push_action(crown_state *state, Move action, int index)
{
    const Game *g = state->game->game;
    state->indices[state->depth] =
        index != INDEX_UNKNOWN ? index
                               : index_of(g, state->s, action, who_now(state) == PLAYER_CHANCE);
    g->ops->make(g, state->s, action, undo_at(state, state->depth));
    GAME_CHECK(g, state->s);
    state->moves[state->depth++] = action;
    state_changed(state);
}

int crown_state_apply(crown_state *state, crown_action action)
{
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (!is_legal(state, action))
        return illegal(state, action);
    if (!stack_reserve(state, state->depth + 2))
        return state_fail(state, CROWN_ERROR_NOMEM, "out of memory");
    push_action(state, action, INDEX_UNKNOWN);
    return state_result(state, CROWN_OK);
}

int crown_state_apply_text(crown_state *state, const char *text)
{
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_apply_text: text is NULL");
    /* The play layer reads the text as crown play and the web do: a whole turn, in any
     * of the spellings players use; every action is legal in turn, so pushing them
     * cannot fail halfway but for memory, which is reserved first. */
    const Game *g = state->game->game;
    Move acts[PLAY_TURN_CAP];
    int n = 0;
    int st = api_code(play_parse_next(g, state->s, text, acts, PLAY_TURN_CAP, &n, &state->err));
    if (st != CROWN_OK)
        return state_result(state, st);
    if (!stack_reserve(state, state->depth + n + 1))
        return state_fail(state, CROWN_ERROR_NOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        push_action(state, acts[i], INDEX_UNKNOWN);
    return state_result(state, CROWN_OK);
}

int crown_state_undo(crown_state *state)
{
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (state->depth == 0)
        return state_fail(state, CROWN_ERROR_ILLEGAL, "nothing to undo");
    const Game *g = state->game->game;
    state->depth--;
    g->ops->unmake(g, state->s, state->moves[state->depth], undo_at(state, state->depth));
    /* whos[depth] is known: it was asked before the action */
    state->legal_fresh = false;
    state->indexed_fresh = false;
    GAME_CHECK(g, state->s);
    return state_result(state, CROWN_OK);
}

int crown_state_undo_depth(const crown_state *state)
{
    return state ? state->depth : 0;
}

int crown_state_undo_action(crown_state *state, crown_action action)
{
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (state->depth == 0)
        return state_fail(state, CROWN_ERROR_ILLEGAL, "nothing to undo");
    Move last = state->moves[state->depth - 1];
    if (last != action)
        return state_fail(state, CROWN_ERROR_ILLEGAL,
                          "action %u is not the last action applied (%u is)", (unsigned)action,
                          (unsigned)last);
    return crown_state_undo(state);
}

int crown_state_history(const crown_state *handle, crown_action *out, int cap, int *count)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    return list_out(state, state->moves, NULL, state->depth, out, NULL, cap, count);
}

int crown_state_returns(const crown_state *handle, double *out, int cap)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    const Game *g = state->game->game;
    if (out == NULL || cap < g->players)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "room for %d returns, %d needed", cap,
                          g->players);
    if (!game_is_over(g, state->s))
        return state_fail(state, CROWN_ERROR_ILLEGAL, "the game is not over");
    double r[MAX_PLAYERS] = {0};
    g->ops->returns(g, state->s, r);
    memcpy(out, r, sizeof *out * (size_t)g->players);
    return state_result(state, CROWN_OK);
}

int crown_state_result_text(const crown_state *handle, const char **text)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_result_text: text is NULL");
    const Game *g = state->game->game;
    sb_clear(&state->text);
    if (game_is_over(g, state->s))
        g->ops->describe_result(g, state->s, &state->text);
    return state_text(state, text);
}

int crown_state_result_words(const crown_state *handle, int viewer, const char **text)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    const Game *g = state->game->game;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_result_words: text is NULL");
    if (viewer != CROWN_PLAYER_NONE && (viewer < 0 || viewer >= g->players))
        return state_fail(state, CROWN_ERROR_ARGUMENT, "viewer %d is neither a seat 0..%d nor "
                          "CROWN_PLAYER_NONE", viewer, g->players - 1);
    sb_clear(&state->text);
    play_result_text(g, state->s, viewer, &state->text);
    return state_text(state, text);
}

int crown_state_perft(const crown_state *handle, int depth, uint64_t *count)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (count == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_perft: count is NULL");
    if (depth < 0 || depth > PERFT_MAX_DEPTH)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "perft depth %d is not in 0..%d", depth,
                          PERFT_MAX_DEPTH);
    /* On a copy: the state stays untouched even if a game's fast path leaves traces. */
    const Game *g = state->game->game;
    GameState *copy = mem_alloc(&state->game->mem, g->state_size);
    if (copy == NULL)
        return state_fail(state, CROWN_ERROR_NOMEM, "out of memory");
    game_state_copy(g, copy, state->s);
    uint64_t n = 0;
    const Status st = game_perft_mem(g, copy, depth, &state->game->mem, &n);
    mem_free(&state->game->mem, copy);
    if (st != STATUS_OK)
        return state_fail(state, CROWN_ERROR_NOMEM, "out of memory for perft %d", depth);
    *count = n;
    return state_result(state, CROWN_OK);
}

/* ---- Action indices ------------------------------------------------------------- */

/* Players' actions keep the game's action index; chance outcomes, whose ids close its
 * range (Game.chance_index_count), count from 0 on their own. */
static int index_of(const Game *g, const GameState *s, Move m, bool chance)
{
    int index = game_action_index(g, s, m);
    return chance ? index - (game_action_index_count(g) - g->chance_index_count) : index;
}

int crown_game_num_distinct_actions(const crown_game *game)
{
    return game ? game_action_index_count(game->game) - game->game->chance_index_count : 0;
}

int crown_game_max_chance_outcomes(const crown_game *game)
{
    return game ? game->game->chance_index_count : 0;
}

int crown_game_perfect_information(const crown_game *game)
{
    return game && (game->game->ops->flags & GAME_PERFECT_INFO) ? 1 : 0;
}

int crown_game_max_game_length(const crown_game *game)
{
    return game ? game->game->max_game_length : 0;
}

/* Sorts n keys ascending: runs of 16 by insertion, then merged pairwise through tmp. A
 * key packs an index above its action, so that one integer compare orders them. */
static void sort_keys(uint64_t *a, uint64_t *tmp, int n)
{
    enum { RUN = 16 };
    for (int lo = 0; lo < n; lo += RUN) {
        int hi = lo + RUN < n ? lo + RUN : n;
        for (int i = lo + 1; i < hi; i++) {
            uint64_t x = a[i];
            int j = i;
            for (; j > lo && a[j - 1] > x; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
    }
    for (int width = RUN; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, sizeof *a * (size_t)n);
    }
}

/* Fills state->indexed from n actions (and their probabilities, or NULL) in index order. */
static void fill_indexed(crown_state *state, const Move *moves, const double *prob, int n,
                         bool chance)
{
    const Game *g = state->game->game;
    uint64_t keys[MOVELIST_CAP], tmp[MOVELIST_CAP];
    bool sorted = true;
    for (int i = 0; i < n; i++) {
        keys[i] = (uint64_t)index_of(g, state->s, moves[i], chance) << 32 | (uint64_t)i;
        sorted = sorted && (i == 0 || keys[i] > keys[i - 1]);
    }
    if (!sorted)
        sort_keys(keys, tmp, n);
    for (int i = 0; i < n; i++) {
        const int at = (int)(keys[i] & 0xffffffffu);
        state->indexed[i] = (IndexedMove){(int)(keys[i] >> 32), moves[at]};
        if (prob != NULL)
            state->indexed_prob[i] = prob[at];
    }
}

/* The legal actions, or chance outcomes, in state->indexed by ascending index. */
static void indexed_list(crown_state *state)
{
    if (state->indexed_fresh)
        return;
    const Game *g = state->game->game;
    int who = who_now(state), n = 0;
    if (who == PLAYER_CHANCE) {
        n = g->ops->chance_outcomes(g, state->s, &state->chance);
        fill_indexed(state, state->chance.outcomes, state->chance.prob, n, true);
    } else if (who != PLAYER_NONE) {
        const MoveList *list = legal_list(state);
        n = list->count;
        fill_indexed(state, list->moves, NULL, n, false);
    }
    state->indexed_count = n;
    state->indexed_fresh = true;
}

/* The entry of `index` in state->indexed, or NULL when no legal action has it. */
static const IndexedMove *find_index(crown_state *state, int index)
{
    indexed_list(state);
    int lo = 0, hi = state->indexed_count;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (state->indexed[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < state->indexed_count && state->indexed[lo].index == index ? &state->indexed[lo]
                                                                          : NULL;
}

static int index_illegal(crown_state *state, int index)
{
    if (crown_state_is_over(state))
        return state_fail(state, CROWN_ERROR_ILLEGAL, "the game is over");
    return state_fail(state, CROWN_ERROR_ILLEGAL, "no legal %s has index %d here",
                      who_now(state) == PLAYER_CHANCE ? "chance outcome" : "action", index);
}

int crown_state_legal_indices(const crown_state *handle, int *out, double *prob, int cap, int *count)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    indexed_list(state);
    const int n = state->indexed_count;
    bool write;
    int st = cap_rule(state, n, out, cap, count, &write);
    if (!write)
        return st;
    for (int i = 0; i < n; i++)
        out[i] = state->indexed[i].index;
    if (prob != NULL && who_now(state) == PLAYER_CHANCE)
        memcpy(prob, state->indexed_prob, sizeof *prob * (size_t)n);
    return state_result(state, CROWN_OK);
}

int crown_state_action_index(const crown_state *handle, crown_action action, int *index)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (index == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_action_index: index is NULL");
    if (!is_legal(state, action))
        return illegal(state, action);
    const Game *g = state->game->game;
    *index = index_of(g, state->s, action, who_now(state) == PLAYER_CHANCE);
    return state_result(state, CROWN_OK);
}

int crown_state_index_action(const crown_state *handle, int index, crown_action *action)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (action == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "crown_state_index_action: action is NULL");
    const IndexedMove *e = find_index(state, index);
    if (e == NULL)
        return index_illegal(state, index);
    *action = e->move;
    return state_result(state, CROWN_OK);
}

int crown_state_apply_index(crown_state *state, int index)
{
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    const IndexedMove *e = find_index(state, index);
    if (e == NULL)
        return index_illegal(state, index);
    if (!stack_reserve(state, state->depth + 2))
        return state_fail(state, CROWN_ERROR_NOMEM, "out of memory");
    push_action(state, e->move, e->index);
    return state_result(state, CROWN_OK);
}

int crown_state_history_indices(const crown_state *handle, int *out, int cap, int *count)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    bool write;
    int st = cap_rule(state, state->depth, out, cap, count, &write);
    if (!write)
        return st;
    memcpy(out, state->indices, sizeof *out * (size_t)state->depth);
    return state_result(state, CROWN_OK);
}

/* ---- Observations --------------------------------------------------------------- */

static bool has_observations(const Game *g)
{
    return g->observation != NULL && g->ops->observe != NULL;
}

int crown_game_observation_shape(const crown_game *game, int *dims, int cap, int *ndims,
                                 crown_error *err)
{
    if (game == NULL || dims == NULL || ndims == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT,
                         "crown_game_observation_shape: NULL game, dims or ndims");
    const Game *g = game->game;
    if (!has_observations(g))
        return error_out(err, CROWN_ERROR_UNSUPPORTED, "%s has no observations", g->ops->name);
    int d[OBS_MAX_DIMS];
    int n = obs_tensor_shape(g->observation, d);
    if (cap < n)
        return error_out(err, CROWN_ERROR_ARGUMENT, "room for %d dims, %d needed", cap, n);
    memcpy(dims, d, sizeof *dims * (size_t)n);
    *ndims = n;
    return error_ok(err);
}

/* Fills the state's observation for `observer` after checking that it may be made. */
static int observe(crown_state *state, int observer)
{
    const Game *g = state->game->game;
    if (!has_observations(g))
        return state_fail(state, CROWN_ERROR_UNSUPPORTED, "%s has no observations",
                          g->ops->name);
    if (observer != PLAYER_NONE && (observer < 0 || observer >= g->players))
        return state_fail(state, CROWN_ERROR_ARGUMENT,
                          "observer %d is neither a seat 0..%d nor a spectator (%d)", observer,
                          g->players - 1, PLAYER_NONE);
    if (state->obs == NULL &&
        (state->obs = mem_alloc(&state->game->mem, sizeof *state->obs)) == NULL)
        return state_fail(state, CROWN_ERROR_NOMEM, "out of memory");
    g->ops->observe(g, state->s, observer, state->obs);
    return CROWN_OK;
}

int crown_state_observation_json(const crown_state *handle, int observer, const char **text)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT,
                          "crown_state_observation_json: text is NULL");
    int st = observe(state, observer);
    if (st != CROWN_OK)
        return st;
    sb_clear(&state->text);
    obs_write_json(state->game->game->observation, state->obs, &state->text);
    return state_text(state, text);
}

int crown_state_observation_tensor(const crown_state *handle, int observer, float *out, size_t n)
{
    crown_state *state = state_cache(handle);
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    const Game *g = state->game->game;
    if (out == NULL)
        return state_fail(state, CROWN_ERROR_ARGUMENT,
                          "crown_state_observation_tensor: out is NULL");
    if (has_observations(g) && n < (size_t)obs_tensor_size(g->observation))
        return state_fail(state, CROWN_ERROR_ARGUMENT, "room for %zu floats, %d needed", n,
                          obs_tensor_size(g->observation));
    int st = observe(state, observer);
    if (st != CROWN_OK)
        return st;
    obs_write_tensor(g->observation, state->obs, out);
    return state_result(state, CROWN_OK);
}

int crown_state_resample(crown_state *state, int observer, uint64_t seed)
{
    if (state == NULL)
        return CROWN_ERROR_ARGUMENT;
    const Game *g = state->game->game;
    if (observer < 0 || observer >= g->players)
        return state_fail(state, CROWN_ERROR_ARGUMENT, "observer %d is not a seat 0..%d",
                          observer, g->players - 1);
    if (g->ops->determinize != NULL) {
        Rng rng;
        rng_seed(&rng, seed);
        g->ops->determinize(g, state->s, observer, &rng);
        state_changed(state);
    }
    return state_result(state, CROWN_OK);
}

/* ---- Agents --------------------------------------------------------------------- */

/* The search's listener: the caller's progress function, when it set one. */
static void on_iteration(void *ctx, const SearchResult *so_far, int seldepth, int hashfull)
{
    const crown_agent *a = ctx;
    if (a->progress == NULL)
        return;
    const crown_progress p = {
        .depth = so_far->depth,
        .seldepth = seldepth,
        .nodes = so_far->nodes,
        .time_ms = so_far->time_ms,
        .score = so_far->score,
        .hashfull = hashfull,
        .pv = so_far->pv,
        .pv_len = so_far->pv_len,
    };
    a->progress(a->progress_ud, &p);
}

int crown_agent_new(const crown_game *game, const char *spec, uint64_t seed, crown_agent **out,
                    crown_error *err)
{
    if (out == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_agent_new: out is NULL");
    *out = NULL;
    if (game == NULL || spec == NULL)
        return error_out(err, CROWN_ERROR_ARGUMENT, "crown_agent_new: no game or no spec");
    crown_agent *a = mem_zalloc(&game->mem, sizeof *a);
    if (a == NULL)
        return error_out(err, CROWN_ERROR_NOMEM, "out of memory");
    a->game = game;
    atomic_init(&a->busy, false);
    a->listener = (SearchProgress){.iteration = on_iteration, .ctx = a};
    sb_init_mem(&a->text, &game->mem);
    ErrBuf e;
    err_clear(&e);
    int st = api_code(agent_spec_parse(spec, &a->spec, &e));
    if (st == CROWN_OK) {
        a->spec.seed = seed;
        a->spec.mem = &game->mem;
        a->spec.limits.progress = &a->listener; /* kept by crown_agent_set_limits */
        st = api_code(agent_new(game->game, &a->spec, &a->agent, &e));
    }
    if (st != CROWN_OK) {
        error_out(err, st, "%s", e.msg);
        crown_agent_free(a);
        return st;
    }
    *out = a;
    return error_ok(err);
}

void crown_agent_free(crown_agent *agent)
{
    if (agent == NULL)
        return;
    agent_free(agent->agent);
    sb_free(&agent->text);
    mem_free(&agent->game->mem, agent);
}

int crown_agent_errcode(const crown_agent *agent)
{
    return agent ? agent->errcode : CROWN_ERROR_ARGUMENT;
}

const char *crown_agent_errmsg(const crown_agent *agent)
{
    return agent ? agent->err.msg : "agent is NULL";
}

/* crown_agent_set_limits, with the agent marked busy. */
static int set_limits(crown_agent *agent, int depth, int64_t nodes, int64_t movetime_ms)
{
    if (depth < -1 || nodes < -1 || movetime_ms < -1) {
        err_set(&agent->err, STATUS_PARSE, "limits are 0 (the level's), -1 (none) or positive");
        return agent_result(agent, CROWN_ERROR_ARGUMENT);
    }
    AgentSpec spec = agent->spec;
    spec.limits.depth = depth;
    spec.limits.nodes = nodes < 0 ? UINT64_MAX : (uint64_t)nodes;
    spec.limits.movetime_ms = movetime_ms;
    /* As on the command line: an exact limit without a clock must not meet the level's. */
    if ((depth > 0 || nodes > 0) && movetime_ms == 0)
        spec.limits.movetime_ms = SEARCH_UNLIMITED;
    Agent *fresh = NULL;
    int st = api_code(agent_new(agent->game->game, &spec, &fresh, &agent->err));
    if (st != CROWN_OK)
        return agent_result(agent, st);
    agent_free(agent->agent);
    agent->agent = fresh;
    agent->spec = spec;
    return agent_result(agent, CROWN_OK);
}

int crown_agent_set_limits(crown_agent *agent, int depth, int64_t nodes, int64_t movetime_ms)
{
    if (agent == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (atomic_exchange(&agent->busy, true))
        return CROWN_ERROR_CONFLICT; /* the thinking thread owns the message */
    int st = set_limits(agent, depth, nodes, movetime_ms);
    atomic_store(&agent->busy, false);
    return st;
}

int crown_agent_set_progress(crown_agent *agent, crown_progress_fn fn, void *ud)
{
    if (agent == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (atomic_exchange(&agent->busy, true))
        return CROWN_ERROR_CONFLICT; /* the thinking thread reads these */
    agent->progress = fn;
    agent->progress_ud = ud;
    atomic_store(&agent->busy, false);
    return agent_result(agent, CROWN_OK);
}

int crown_agent_think(crown_agent *agent, const crown_state *state, crown_action *best)
{
    if (agent == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (state == NULL || best == NULL) {
        err_set(&agent->err, STATUS_PARSE, "crown_agent_think: NULL state or result");
        return agent_result(agent, CROWN_ERROR_ARGUMENT);
    }
    if (state->game->game != agent->game->game) {
        err_set(&agent->err, STATUS_PARSE, "the state is of another game than the agent");
        return agent_result(agent, CROWN_ERROR_ARGUMENT);
    }
    if (atomic_exchange(&agent->busy, true))
        return CROWN_ERROR_CONFLICT; /* the thinking thread owns the message */
    SearchResult r;
    int st = api_code(agent_think(agent->agent, state->s, &r, &agent->err));
    if (st == CROWN_OK) {
        agent->last = r;
        *best = r.best;
    }
    st = agent_result(agent, st);
    atomic_store(&agent->busy, false);
    return st;
}

void crown_agent_stop(crown_agent *agent)
{
    if (agent != NULL)
        agent_stop(agent->agent);
}

int crown_agent_describe(const crown_agent *handle, const char **text)
{
    crown_agent *agent = agent_cache(handle);
    if (agent == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (text == NULL) {
        err_set(&agent->err, STATUS_PARSE, "crown_agent_describe: text is NULL");
        return agent_result(agent, CROWN_ERROR_ARGUMENT);
    }
    sb_clear(&agent->text);
    agent_describe(agent->agent, &agent->text);
    if (sb_failed(&agent->text)) {
        sb_free(&agent->text); /* empty again, on the game's allocator */
        err_set(&agent->err, STATUS_NOMEM, "out of memory");
        return agent_result(agent, CROWN_ERROR_NOMEM);
    }
    *text = sb_str(&agent->text);
    return agent_result(agent, CROWN_OK);
}

uint64_t crown_agent_last_nodes(const crown_agent *agent)
{
    return agent ? agent->last.nodes : 0;
}

int crown_agent_last_depth(const crown_agent *agent)
{
    return agent ? agent->last.depth : 0;
}

int crown_agent_last_score(const crown_agent *agent, int *score, double *value)
{
    bool has = agent != NULL && agent->last.has_score;
    if (score != NULL)
        *score = has ? agent->last.score : 0;
    if (value != NULL)
        *value = agent != NULL && !has ? agent->last.value : 0.0;
    return has;
}

int crown_agent_last_pv(const crown_agent *handle, crown_action *out, int cap, int *count)
{
    crown_agent *agent = agent_cache(handle);
    if (agent == NULL)
        return CROWN_ERROR_ARGUMENT;
    if (count == NULL || cap < 0 || (cap > 0 && out == NULL)) {
        err_set(&agent->err, STATUS_PARSE, "no count, or a cap without an array");
        return agent_result(agent, CROWN_ERROR_ARGUMENT);
    }
    int n = agent->last.pv_len;
    *count = n;
    if (cap == 0 && out == NULL)
        return agent_result(agent, CROWN_OK);
    if (cap < n) {
        err_set(&agent->err, STATUS_PARSE, "room for %d actions, %d needed", cap, n);
        return agent_result(agent, CROWN_ERROR_ARGUMENT);
    }
    memcpy(out, agent->last.pv, sizeof *out * (size_t)n);
    return agent_result(agent, CROWN_OK);
}
