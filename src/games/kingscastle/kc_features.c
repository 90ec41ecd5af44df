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
 * a move. Men never outnumber the 91 cells, under NNUE_MAX_ACTIVE.
 */
#include "games/kingscastle/kc_internal.h"

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
