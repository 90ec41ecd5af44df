/*
 * greedy.c - the greedy baseline: a depth-first walk over the rest of the mover's own
 * turn with make/unmake, scoring where the turn ends (see greedy.h).
 */
#include "search/greedy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/invariant.h"
#include "search/deadline.h"

struct Greedy {
    const Mem *mem; /* where its buffers come from (NULL: the C library) */
    const Game *g;
    const GameOps *ops;
    GameState *work;
    unsigned char *undo;   /* GREEDY_MAX_DEPTH undo records */
    MoveList *lists;       /* one move list per depth */
    uint64_t nodes, budget;
    int player;
    Move line[GREEDY_MAX_DEPTH], best_line[GREEDY_MAX_DEPTH];
    int best_len;
    double best_in_subtree; /* best score under the first action being explored */
};

Status greedy_check_game(const Game *g, ErrBuf *err)
{
    if (g->ops->score == NULL)
        return err_set(err, STATUS_UNSUPPORTED,
                       "greedy needs a game that can score a position (%s has no score hook)",
                       g->ops->name);
    return STATUS_OK;
}

Status greedy_new(const Game *g, const Mem *mem, Greedy **out, ErrBuf *err)
{
    *out = NULL;
    Status st = greedy_check_game(g, err);
    if (st != STATUS_OK)
        return st;
    Greedy *gr = mem_zalloc(mem, sizeof *gr);
    if (gr == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    gr->mem = mem;
    gr->g = g;
    gr->ops = g->ops;
    gr->work = mem_zalloc(mem, g->state_size);
    gr->undo = mem_alloc(mem, (g->undo_size ? g->undo_size : 1) * GREEDY_MAX_DEPTH);
    gr->lists = mem_alloc(mem, sizeof *gr->lists * GREEDY_MAX_DEPTH);
    if (gr->work == NULL || gr->undo == NULL || gr->lists == NULL) {
        greedy_free(gr);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    *out = gr;
    return STATUS_OK;
}

void greedy_free(Greedy *gr)
{
    if (gr == NULL)
        return;
    const Mem *mem = gr->mem;
    mem_free(mem, gr->work);
    mem_free(mem, gr->undo);
    mem_free(mem, gr->lists);
    mem_free(mem, gr);
}

/* The best score reachable from the work state by the player's own actions; `depth`
 * actions have been made since the root. */
static double walk(Greedy *gr, int depth)
{
    const Game *g = gr->g;
    const GameOps *ops = gr->ops;
    GameState *s = gr->work;
    gr->nodes++;
    if (depth >= GREEDY_MAX_DEPTH || gr->nodes >= gr->budget || ops->to_move(g, s) != gr->player) {
        const double v = ops->score(g, s, gr->player);
        if (v > gr->best_in_subtree) {
            gr->best_in_subtree = v;
            memcpy(gr->best_line, gr->line, sizeof(Move) * (size_t)depth);
            gr->best_len = depth;
        }
        return v;
    }
    MoveList *ml = &gr->lists[depth];
    const int n = ops->gen_moves(g, s, ml);
    void *u = gr->undo + (size_t)depth * (g->undo_size ? g->undo_size : 1);
    double best = -HUGE_VAL;
    for (int i = 0; i < n; i++) {
        gr->line[depth] = ml->moves[i];
        ops->make(g, s, ml->moves[i], u);
        GAME_CHECK(g, s);
        const double v = walk(gr, depth + 1);
        ops->unmake(g, s, ml->moves[i], u);
        GAME_CHECK(g, s);
        if (v > best)
            best = v;
    }
    return n > 0 ? best : ops->score(g, s, gr->player);
}

void greedy_search(Greedy *gr, const GameState *s, const SearchLimits *limits, Rng *rng,
                   SearchResult *out)
{
    const Game *g = gr->g;
    const GameOps *ops = gr->ops;
    Deadline clock;
    deadline_start(&clock, 0, NULL);
    memset(out, 0, sizeof *out);
    gr->player = ops->to_move(g, s);
    gr->nodes = 0;
    gr->budget = limits != NULL && limits->nodes > 0 ? limits->nodes : GREEDY_DEFAULT_NODES;
    MoveList *root = mem_alloc(gr->mem, sizeof *root);
    if (root == NULL || gr->player < 0) {
        mem_free(gr->mem, root);
        return;
    }
    const int n = ops->gen_moves(g, s, root);
    // Each first action gets an equal share of the budget, so that a large subtree early
    // in the list cannot starve the others.
    const uint64_t total = gr->budget;
    double best = -HUGE_VAL;
    int ties = 0;
    Move best_line[GREEDY_MAX_DEPTH];
    int best_len = 0;
    for (int i = 0; i < n; i++) {
        game_state_copy(g, gr->work, s);
        gr->budget = gr->nodes + total / (uint64_t)n + 1;
        gr->best_in_subtree = -HUGE_VAL;
        gr->best_len = 0;
        gr->line[0] = root->moves[i];
        ops->make(g, gr->work, root->moves[i], gr->undo);
        GAME_CHECK(g, gr->work);
        const double v = walk(gr, 1);
        // Ties between first actions are broken uniformly at random (reservoir).
        if (v > best + 1e-9) {
            best = v;
            ties = 1;
        } else if (fabs(v - best) <= 1e-9) {
            ties++;
            if (rng_below(rng, (uint32_t)ties) != 0)
                continue;
        } else {
            continue;
        }
        out->best = root->moves[i];
        best_len = gr->best_len > 0 ? gr->best_len : 1;
        memcpy(best_line, gr->best_len > 0 ? gr->best_line : gr->line,
               sizeof(Move) * (size_t)best_len);
    }
    mem_free(gr->mem, root);
    out->value = best;
    out->pv_len = best_len < SEARCH_PV_CAP ? best_len : SEARCH_PV_CAP;
    memcpy(out->pv, best_line, sizeof(Move) * (size_t)out->pv_len);
    out->nodes = gr->nodes;
    out->depth = best_len;
    out->time_ms = deadline_elapsed_ms(&clock);
}
