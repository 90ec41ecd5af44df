/*
 * puzzle_search.c - the searched puzzle judge, for games without a solved table: the
 * full engine (alpha-beta, no noise, no variety) searches the position twice at depth d,
 * once over every move and once over every move but the best, and the best is the only
 * move when its chance to win is at least PUZZLE_BEST_MIN per cent (or a proven win) and
 * the others' at most PUZZLE_OTHERS_MAX. The same must hold, for the same move, at depth
 * d + PUZZLE_CONFIRM_PLIES. With `decisive` only proven wins count, which is how a
 * proven puzzle is checked by search. A search is an opinion, so a searched puzzle is
 * only as sure as its depths (docs/PUZZLES.md).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/game_api.h"
#include "play/chances.h"
#include "play/puzzle.h"

struct PuzzleSearch {
    Agent *agent[2]; /* depth d, d + PUZZLE_CONFIRM_PLIES */
    bool decisive;
    MoveList others;
};

enum {
    PUZZLE_SHALLOW_DEPTH_MAX = 3,
    PUZZLE_SHALLOW_TT_BYTES = 1u << 20,
};

static Status make_agent(const Game *g, int depth, Agent **out, ErrBuf *err)
{
    // The hand-written evaluation, whatever the game's default: the shipped sets were
    // made and are checked with it, and a puzzle's "only good move" is judged by its
    // margins (a net as default would reopen every set; docs/PUZZLES.md).
    AgentSpec spec;
    Status st = agent_spec_parse("ab:10/novariety/classic", &spec, err);
    if (st != STATUS_OK)
        return st;
    spec.limits.depth = depth;
    spec.limits.nodes = UINT64_MAX;
    spec.limits.movetime_ms = SEARCH_UNLIMITED;
    if ((st = agent_new(g, &spec, out, err)) != STATUS_OK)
        return st;
    // Every position's search starts from a cleared table, so a table larger than the
    // search fills is cleared for nothing: at the shallow depth that clearing was a
    // fifth of the generator's time. The deep search keeps the default size.
    if (depth <= PUZZLE_SHALLOW_DEPTH_MAX)
        st = agent_set_memory(*out, PUZZLE_SHALLOW_TT_BYTES, err);
    return st;
}

Status puzzle_search_new(const Game *g, int depth, bool decisive, PuzzleSearch **out,
                         ErrBuf *err)
{
    *out = NULL;
    if (depth < 1 || depth > 40)
        return err_set(err, STATUS_UNSUPPORTED, "a puzzle search's depth must be 1 to 40, not %d", depth);
    PuzzleSearch *ps = calloc(1, sizeof *ps);
    if (ps == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    ps->decisive = decisive;
    Status st = make_agent(g, depth, &ps->agent[0], err);
    if (st == STATUS_OK)
        st = make_agent(g, depth + PUZZLE_CONFIRM_PLIES, &ps->agent[1], err);
    if (st != STATUS_OK) {
        puzzle_search_free(ps);
        return st;
    }
    *out = ps;
    return STATUS_OK;
}

void puzzle_search_free(PuzzleSearch *ps)
{
    if (ps == NULL)
        return;
    agent_free(ps->agent[0]);
    agent_free(ps->agent[1]);
    free(ps);
}

/* A fresh search (nothing learnt from earlier positions), so that a puzzle's verdict is
 * the same whenever it is asked. */
static bool think(Agent *a, const GameState *s, SearchResult *r)
{
    ErrBuf err;
    agent_new_game(a);
    return agent_think(a, s, r, &err) == STATUS_OK && r->has_score;
}

static bool good(const PuzzleSearch *ps, const Game *g, const SearchResult *r)
{
    if (ps->decisive)
        return r->score >= SCORE_WIN_BOUND;
    return r->score >= SCORE_WIN_BOUND || play_win_chance(g, r) * 100.0 >= PUZZLE_BEST_MIN;
}

static bool given_away(const PuzzleSearch *ps, const Game *g, const SearchResult *r)
{
    if (ps->decisive)
        return r->score < SCORE_WIN_BOUND;
    return r->score < SCORE_WIN_BOUND && play_win_chance(g, r) * 100.0 <= PUZZLE_OTHERS_MAX;
}

/* At one depth: the best move, when it is the only one that keeps the advantage. */
static bool only_at(PuzzleSearch *ps, Agent *a, const Game *g, const GameState *s, Move *best,
                    SearchResult *r1)
{
    SearchResult r2;
    if (!think(a, s, r1) || !good(ps, g, r1))
        return false;
    MoveList *all = &ps->others;
    g->ops->gen_moves(g, s, all);
    int n = 0;
    for (int i = 0; i < all->count; i++)
        if (all->moves[i] != r1->best)
            all->moves[n++] = all->moves[i];
    all->count = n;
    if (n == 0)
        return false; // a forced move is no puzzle
    agent_set_root_moves(a, all->moves, n);
    const bool ok = think(a, s, &r2);
    agent_set_root_moves(a, NULL, 0);
    *best = r1->best;
    return ok && given_away(ps, g, &r2);
}

static bool search_only(void *ctx, const Game *g, const GameState *s, PuzzleVerdict *out)
{
    PuzzleSearch *ps = ctx;
    Move shallow, deep;
    SearchResult r;
    if (!only_at(ps, ps->agent[0], g, s, &shallow, &r) ||
        !only_at(ps, ps->agent[1], g, s, &deep, &r) || shallow != deep)
        return false;
    MoveList *ml = &ps->others;
    out->only = deep;
    out->alternatives = g->ops->gen_moves(g, s, ml) - 1;
    if (r.score >= SCORE_WIN_BOUND)
        snprintf(out->value, sizeof out->value, "win in %d", SCORE_WIN - r.score);
    else
        snprintf(out->value, sizeof out->value, "%.0f%%", play_win_chance(g, &r) * 100.0);
    return true;
}

/* The deeper search's answer for the opponent. */
static Status search_reply(void *ctx, const Game *g, const GameState *s, Move *out, ErrBuf *err)
{
    (void)g; // the agent knows its game
    PuzzleSearch *ps = ctx;
    SearchResult r;
    agent_new_game(ps->agent[1]);
    const Status st = agent_think(ps->agent[1], s, &r, err);
    if (st == STATUS_OK)
        *out = r.best;
    return st;
}

void puzzle_search_judge(PuzzleSearch *ps, PuzzleJudge *out)
{
    *out = (PuzzleJudge){.ctx = ps, .proven = false, .only = search_only, .reply = search_reply,
                         .stubborn = NULL};
}
