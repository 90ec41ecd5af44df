/*
 * nnue_stack.c - a search's network evaluation with accumulators updated from the
 * difference of two positions' features (nnue_stack.h).
 */
#include "search/nnue_stack.h"

#include <string.h>

#include "search/limits.h"

typedef struct NnueSlot {
    NnueAccumulator acc[2];
    uint16_t feat[2][NNUE_MAX_ACTIVE];
    int n[2];
    bool valid;
} NnueSlot;

struct NnueStack {
    const Game *g;
    const Nnue *net;
    const Mem *mem;
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
    *out = st;
    return STATUS_OK;
}

void nnue_stack_free(NnueStack *st)
{
    if (st != NULL)
        mem_free(st->mem, st);
}

void nnue_stack_counts(const NnueStack *st, uint64_t *refreshes, uint64_t *evaluations)
{
    *refreshes = st->refreshes;
    *evaluations = st->evaluations;
}

/* The features of `to` missing from `from` (add) and those of `from` gone from `to`
 * (sub), both lists ascending; false as soon as they pass `most` in all, when a
 * refresh is the cheaper. */
static bool diff(const uint16_t *from, int nf, const uint16_t *to, int nt, uint16_t *add,
                 int *n_add, uint16_t *sub, int *n_sub, int most)
{
    int i = 0, j = 0, a = 0, s = 0;
    while (i < nf || j < nt) {
        if (j == nt || (i < nf && from[i] < to[j]))
            sub[s++] = from[i++];
        else if (i == nf || to[j] < from[i])
            add[a++] = to[j++];
        else
            i++, j++;
        if (a + s > most)
            return false;
    }
    *n_add = a;
    *n_sub = s;
    return true;
}

int nnue_stack_evaluate(NnueStack *st, const GameState *s, int ply)
{
    const Game *g = st->g;
    if (ply < 0)
        ply = 0;
    if (ply > SEARCH_MAX_PLY)
        ply = SEARCH_MAX_PLY;
    NnueSlot *dst = &st->slot[ply];
    const NnueSlot *src = ply > 0 && st->slot[ply - 1].valid ? &st->slot[ply - 1]
                          : dst->valid                        ? dst
                                                              : NULL;
    for (int p = 0; p < 2; p++) {
        st->evaluations++;
        uint16_t feat[NNUE_MAX_ACTIVE], add[NNUE_MAX_ACTIVE], sub[NNUE_MAX_ACTIVE];
        const int n = g->ops->nnue_features(g, s, p, feat, NNUE_MAX_ACTIVE);
        int n_add = 0, n_sub = 0;
        // Past half the features, adding and removing costs more than starting over.
        if (src != NULL &&
            diff(src->feat[p], src->n[p], feat, n, add, &n_add, sub, &n_sub, n / 2 + 1)) {
            if (src != dst)
                dst->acc[p] = src->acc[p];
            nnue_update(st->net, add, n_add, sub, n_sub, &dst->acc[p]);
        } else {
            nnue_refresh(st->net, feat, n, &dst->acc[p]);
            st->refreshes++;
        }
        memcpy(dst->feat[p], feat, (size_t)n * sizeof feat[0]);
        dst->n[p] = n;
    }
    dst->valid = true;
    const int mover = g->ops->to_move(g, s) == 1 ? 1 : 0;
    return nnue_forward(st->net, &dst->acc[mover], &dst->acc[1 - mover]);
}
