/*
 * nnue_stack.c - a search's network evaluation with accumulators brought down the line
 * by the features each move changed (nnue_stack.h).
 */
#include "search/nnue_stack.h"

#include <string.h>
#ifdef CROWN_CHECK_INVARIANTS
#include <stdio.h>
#include <stdlib.h>
#endif

#include "search/limits.h"

typedef struct NnueSlot {
    NnueAccumulator acc[2];
    bool summed;  /* acc holds this ply's position on the current line */
    bool snapped; /* the snapshot does */
} NnueSlot;

struct NnueStack {
    const Game *g;
    const Nnue *net;
    const Mem *mem;
    bool incremental;     /* the game has the snapshot and delta hooks */
    size_t snapshot_size; /* rounded up to keep snapshots aligned */
    unsigned char *snapshots; /* one per slot */
    uint64_t refreshes, evaluations;
    NnueSlot slot[SEARCH_MAX_PLY + 1];
};

Status nnue_stack_new(const Game *g, const Nnue *net, const Mem *mem, NnueStack **out, ErrBuf *err)
{
    *out = NULL;
    if (!nnue_game_has_features(g))
        return err_set(err, STATUS_UNSUPPORTED, "%s has no input features for a network",
                       g->ops->name);
    NnueStack *st = mem_zalloc(mem, sizeof *st);
    if (st == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    st->g = g;
    st->net = net;
    st->mem = mem;
    const GameOps *ops = g->ops;
    st->incremental =
        ops->nnue_snapshot != NULL && ops->nnue_delta != NULL && ops->nnue_snapshot_size > 0;
    if (st->incremental) {
        st->snapshot_size = ((size_t)ops->nnue_snapshot_size + 15) / 16 * 16;
        st->snapshots = mem_aligned_alloc(mem, 16, st->snapshot_size * (SEARCH_MAX_PLY + 1));
        if (st->snapshots == NULL) {
            mem_free(mem, st);
            return err_set(err, STATUS_NOMEM, "out of memory");
        }
    }
    *out = st;
    return STATUS_OK;
}

void nnue_stack_free(NnueStack *st)
{
    if (st == NULL)
        return;
    mem_aligned_free(st->mem, st->snapshots);
    mem_free(st->mem, st);
}

void nnue_stack_counts(const NnueStack *st, uint64_t *refreshes, uint64_t *evaluations)
{
    *refreshes = st->refreshes;
    *evaluations = st->evaluations;
}

void nnue_stack_reset(NnueStack *st)
{
    for (int i = 0; i <= SEARCH_MAX_PLY; i++)
        st->slot[i].summed = st->slot[i].snapped = false;
}

static void *snapshot_of(NnueStack *st, int ply)
{
    return st->snapshots + (size_t)ply * st->snapshot_size;
}

static void refresh(NnueStack *st, const GameState *s, NnueAccumulator acc[2])
{
    for (int p = 0; p < 2; p++) {
        uint16_t feat[NNUE_MAX_ACTIVE];
        const int n = st->g->ops->nnue_features(st->g, s, p, feat, NNUE_MAX_ACTIVE);
        nnue_refresh(st->net, feat, n, &acc[p]);
        st->refreshes++;
    }
    st->evaluations += 2;
}

void nnue_stack_push(NnueStack *st, const GameState *s, int child_ply)
{
    if (child_ply < 1 || child_ply > SEARCH_MAX_PLY)
        return;
    NnueSlot *child = &st->slot[child_ply], *parent = &st->slot[child_ply - 1];
    child->summed = child->snapped = false;
    if (!st->incremental)
        return;
    // Once a node: its later moves leave the same position.
    if (!parent->snapped) {
        st->g->ops->nnue_snapshot(st->g, s, snapshot_of(st, child_ply - 1));
        parent->snapped = true;
    }
    // The root is summed once a search, so that every line comes down from it even
    // where the search evaluates only leaves.
    if (child_ply == 1 && !parent->summed) {
        refresh(st, s, parent->acc);
        parent->summed = true;
    }
}

/* Slot `ply`'s accumulators from slot ply - 1's, both snapped, the parent summed. */
static void follow(NnueStack *st, int ply)
{
    const void *before = snapshot_of(st, ply - 1), *after = snapshot_of(st, ply);
    NnueSlot *dst = &st->slot[ply];
    for (int p = 0; p < 2; p++) {
        uint16_t add[NNUE_MAX_ACTIVE], sub[NNUE_MAX_ACTIVE];
        int n_add = 0, n_sub = 0;
        st->g->ops->nnue_delta(st->g, before, after, p, add, &n_add, sub, &n_sub);
        dst->acc[p] = st->slot[ply - 1].acc[p];
        nnue_update(st->net, add, n_add, sub, n_sub, &dst->acc[p]);
    }
    st->evaluations += 2;
    dst->summed = true;
}

int nnue_stack_evaluate(NnueStack *st, const GameState *s, int ply)
{
    const Game *g = st->g;
    const int mover = g->ops->to_move(g, s) == 1 ? 1 : 0;
    if (ply < 0 || ply > SEARCH_MAX_PLY || !st->incremental) {
        NnueAccumulator acc[2];
        refresh(st, s, acc);
        return nnue_forward(st->net, &acc[mover], &acc[1 - mover]);
    }
    NnueSlot *dst = &st->slot[ply];
    if (!dst->summed) {
        if (!dst->snapped) {
            g->ops->nnue_snapshot(g, s, snapshot_of(st, ply));
            dst->snapped = true;
        }
        // Every slot above on the line is snapped (its move was pushed); the nearest
        // summed one is where the sums come down from.
        int top = ply;
        while (top > 0 && !st->slot[top].summed)
            top--;
        if (st->slot[top].summed) {
            for (int i = top + 1; i <= ply; i++)
                follow(st, i);
        } else {
            refresh(st, s, dst->acc);
            dst->summed = true;
        }
    }
    const int value = nnue_forward(st->net, &dst->acc[mover], &dst->acc[1 - mover]);
#ifdef CROWN_CHECK_INVARIANTS
    // The debug build checks every value brought down the line against fresh sums: a
    // game's delta that misses a feature, or a make the search did not push, shows here.
    if (value != nnue_evaluate(st->net, g, s)) {
        fprintf(stderr, "%s: the network's accumulators at ply %d differ from fresh sums\n",
                g->ops->name, ply);
        abort();
    }
#endif
    return value;
}
