/*
 * kg_features.c - King's Guard positions as an evaluation network's input features
 * (GameOps.nnue_features, search/nnue.h), one hook for both boards, each with its own
 * feature set (the 9x10 board and its towers of 5, the 8x8 board and its towers of 4).
 *
 * A feature is one piece: its kind as the perspective sees it (own guard, own king,
 * enemy guard, enemy king), its square and its level in the stack. Why every piece
 * and not only each stack's top: in this game the buried pieces are the future (whoever
 * tops a stack moves them all, and a piece's level is its range), so the net must see
 * them; and since an action moves one piece, from the top of one stack to the top of
 * another, it changes exactly two features of each perspective, fewer than a top piece
 * and height class per square would (four: both squares' top and height). The sides
 * have 10 pieces each at most, so 20 features are active, far under NNUE_MAX_ACTIVE.
 *
 * The board is turned for the second player (ranks mirrored, as the set-up is), so one
 * set of weights serves both seats and "my tower two ranks from my king" is one feature
 * whoever plays. Indices run kind, then level, then square (as the perspective sees it),
 * so that the squares of one kind and level are one block: the trainer's --factorise
 * gives each block a shared weight (what a guard three high is worth anywhere), which a
 * small data set learns far sooner than one weight a square. A turn in progress is not
 * a feature: the search plays the rest of the turn before it trusts a value.
 */
#include "games/kingsguard/kg_internal.h"

#include <string.h>

/* The feature of the piece at (sq, level) of k as perspective sees it. */
static uint16_t feature_of(const KgConfig *c, const KgCore *k, int sq, int level, int perspective)
{
    const int cells = c->files * c->ranks, file = sq % c->stride, rank = sq / c->stride;
    const int cell = (perspective == 0 ? rank : c->ranks - 1 - rank) * c->files + file;
    const int owner = kg_owner_at(k, sq, level);
    const bool king = k->king[owner] == sq && k->king_level[owner] == level;
    const int kind = (owner == perspective ? 0 : 2) + (king ? 1 : 0);
    return (uint16_t)((kind * c->limit + level) * cells + cell);
}

int kg_nnue_features(const KgConfig *c, const KgCore *k, int perspective, uint16_t *out,
                     int cap)
{
    int n = 0;
    for (Bb128 occ = bb128_load(k->occ); occ;) {
        const int sq = bb128_pop(&occ);
        for (int level = 0; level < k->height[sq] && level < c->limit; level++) {
            if (n == cap)
                return n;
            // Insertion into the ascending list: 20 pieces at most.
            const uint16_t feat = feature_of(c, k, sq, level, perspective);
            int i = n++;
            for (; i > 0 && out[i - 1] > feat; i--)
                out[i] = out[i - 1];
            out[i] = feat;
        }
    }
    return n;
}

/* The features of the stack on sq in k. */
static int put_stack(const KgConfig *c, const KgCore *k, int sq, int perspective, uint16_t *out,
                     int n)
{
    for (int level = 0; level < k->height[sq] && level < c->limit; level++)
        out[n++] = feature_of(c, k, sq, level, perspective);
    return n;
}

static bool king_on(const KgCore *k, int sq)
{
    return k->king[0] == sq || k->king[1] == sq;
}

/* A stack whose height, owners or king changed is taken away whole and put back: an
 * action changes two stacks, of five pieces at most. */
void kg_nnue_delta(const KgConfig *c, const KgCore *before, const KgCore *after, int perspective,
                   uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    int a = 0, s = 0;
    const bool kings_moved =
        memcmp(before->king, after->king, sizeof before->king) != 0 ||
        memcmp(before->king_level, after->king_level, sizeof before->king_level) != 0;
    for (Bb128 occ = bb128_load(before->occ) | bb128_load(after->occ); occ;) {
        const int sq = bb128_pop(&occ);
        const bool king_moved = kings_moved && (king_on(before, sq) || king_on(after, sq));
        if (before->height[sq] == after->height[sq] && before->owners[sq] == after->owners[sq] &&
            !king_moved)
            continue;
        s = put_stack(c, before, sq, perspective, sub, s);
        a = put_stack(c, after, sq, perspective, add, a);
    }
    *n_add = a;
    *n_sub = s;
}
