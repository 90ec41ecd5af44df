/*
 * kv_features.c - King's Valley positions on 7x7 as an evaluation network's input
 * features (GameOps.nnue_features, search/nnue.h): each man as (its side as the
 * perspective sees it, king or soldier, its square from that side), four blocks of one
 * feature per cell: own king, own soldiers, the other king, the other soldiers.
 *
 * Why this encoding: nothing is ever captured, so the men are always all there and
 * only where they stand matters; a move slides one man, which changes exactly two
 * features of each perspective. The Valley is the centre cell, the same from both
 * sides, so it needs no input of its own: the weights of the cells around it learn it
 * (a king that stands on it has won, and the search never asks the net about that). The
 * Labyrinth's pillars never move and are the same for every position, so the weights
 * learn them (a lane stopped by a pillar) without an input. Both seats play the same
 * game on a board that is the same turned half round (the start rows, and the pillars,
 * map onto each other), so the second seat's board is turned (cell i becomes
 * cells - 1 - i) and one set of weights serves both. Whose turn it is reaches the net by
 * the order of its two accumulators (the mover's first); what a king can slide to, and
 * a king shut in, are for the hidden layers to learn from where the men stand, as a
 * chess net learns attacks, and the search sees a locked king's loss itself. (On 7x7,
 * whose trap rule turns on just such relations, the first net has not learnt them well
 * enough: docs/STRENGTH.md.)
 *
 * Indices ascend as written: the blocks go in index order, and a bitboard's cells come
 * out lowest first, or, turned, highest first. A search's accumulators follow a move
 * by the cells whose man changed (kv_nnue_delta): a slide changes two of them.
 */
#include "games/kingsvalley/kv_internal.h"

/* The cells of bb as features base + cell (turned: base + last - cell), ascending. */
static int put_cells(uint64_t bb, bool turned, int last, int base, uint16_t *out, int n, int cap)
{
    while (bb && n < cap) {
        if (turned) {
            const int sq = bits_highest(bb);
            out[n++] = (uint16_t)(base + last - sq);
            bb &= ~(1ULL << sq);
        } else {
            out[n++] = (uint16_t)(base + bits_lowest(bb));
            bb &= bb - 1;
        }
    }
    return n;
}

int kv_nnue_features(const KvConfig *c, const KvState *s, int perspective, uint16_t *out, int cap)
{
    const bool turned = perspective == 1;
    int n = 0;
    for (int rel = 0; rel < 2; rel++) {
        const int player = rel == 0 ? perspective : 1 - perspective;
        const uint64_t king = 1ULL << s->king[player];
        n = put_cells(king, turned, c->cells - 1, KV_NNUE_BLOCK(c, rel, 0), out, n, cap);
        n = put_cells(s->men[player] & ~king, turned, c->cells - 1, KV_NNUE_BLOCK(c, rel, 1), out,
                      n, cap);
    }
    return n;
}

void kv_nnue_snapshot(const KvState *s, KvNnueSnapshot *out)
{
    out->men[0] = s->men[0];
    out->men[1] = s->men[1];
    out->king[0] = s->king[0];
    out->king[1] = s->king[1];
}

/* The features of the men of `player` on the cells of `cells` in position x. */
static int put_changed(const KvConfig *c, const KvNnueSnapshot *x, int player, int perspective,
                       uint64_t cells, uint16_t *out, int n)
{
    const int rel = player == perspective ? 0 : 1;
    for (uint64_t bb = cells & x->men[player]; bb; bb &= bb - 1) {
        const int sq = bits_lowest(bb);
        const int cell = perspective == 1 ? c->cells - 1 - sq : sq;
        out[n++] = (uint16_t)(KV_NNUE_BLOCK(c, rel, sq == x->king[player] ? 0 : 1) + cell);
    }
    return n;
}

void kv_nnue_delta(const KvConfig *c, const KvNnueSnapshot *before, const KvNnueSnapshot *after,
                   int perspective, uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    int a = 0, s = 0;
    for (int player = 0; player < 2; player++) {
        // A cell changed when its man came or went, or its king became a soldier's.
        uint64_t changed = before->men[player] ^ after->men[player];
        if (before->king[player] != after->king[player])
            changed |= 1ULL << before->king[player] | 1ULL << after->king[player];
        s = put_changed(c, before, player, perspective, changed, sub, s);
        a = put_changed(c, after, player, perspective, changed, add, a);
    }
    *n_add = a;
    *n_sub = s;
}
