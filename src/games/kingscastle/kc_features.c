/*
 * kc_features.c - King's Castle positions as an evaluation network's input features
 * (GameOps.nnue_features, search/nnue.h): every man as (whose he is as the perspective
 * sees it, his cell), so that a placement changes one feature of each perspective and
 * a slide of k men about 2k, captured men and throws included.
 *
 * The perspective's own men come first. The board is not turned for the second seat:
 * neither player has a home side (men are placed anywhere outside the Castle, the
 * Throne and the doors are the same for both), so "my man on this cell" already means
 * the same whoever plays, and one set of weights serves both seats. Cells keep their
 * grid index (kc_internal.h): 121 a side, of which the 30 grid cells off the hexagon
 * are never active; a dense numbering would save their unused weights, not a feature
 * a move. Men never outnumber the 91 cells, under NNUE_MAX_ACTIVE. A search follows a
 * move by the cells whose men came or went (kc_nnue_delta), not by listing them all.
 */
#include "games/kingscastle/kc_internal.h"

#include <string.h>

int kc_nnue_features(const KcState *s, int perspective, uint16_t *out, int cap)
{
    int n = 0;
    for (int rel = 0; rel < 2; rel++) {
        Bb128 men = kc_men(s, rel == 0 ? perspective : 1 - perspective);
        while (men && n < cap)
            out[n++] = (uint16_t)(rel * KC_GRID + bb128_pop(&men));
    }
    return n;
}

void kc_nnue_snapshot(const KcState *s, KcNnueSnapshot *out)
{
    memcpy(out->men, s->men, sizeof out->men);
}

static Bb128 snapshot_men(const KcNnueSnapshot *x, int p)
{
    return bb128_make(x->men[p][0], x->men[p][1]);
}

void kc_nnue_delta(const KcNnueSnapshot *before, const KcNnueSnapshot *after, int perspective,
                   uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    int a = 0, s = 0;
    for (int rel = 0; rel < 2; rel++) {
        const int p = rel == 0 ? perspective : 1 - perspective;
        const Bb128 was = snapshot_men(before, p), is = snapshot_men(after, p);
        for (Bb128 gone = was & ~is; gone;)
            sub[s++] = (uint16_t)(rel * KC_GRID + bb128_pop(&gone));
        for (Bb128 came = is & ~was; came;)
            add[a++] = (uint16_t)(rel * KC_GRID + bb128_pop(&came));
    }
    *n_add = a;
    *n_sub = s;
}
