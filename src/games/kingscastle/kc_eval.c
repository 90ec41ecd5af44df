/*
 * kc_eval.c - the King's Castle evaluation, in centi-units for the player to move.
 *
 * The game is won on the Throne, which takes two men on opposite inner cells, and men get
 * into the Castle only as phalanxes through its twelve doors. So the evaluation counts,
 * for each side:
 *   - Throne control: a complete flanking pair (the Throne follows after the next move
 *     unless the opponent captures a flanker), and for the player to move, an opposing
 *     man already on the Throne (he must capture a flanker now or lose);
 *   - flanking threats: an inner cell held while the opposite one is still empty;
 *   - men inside the Castle, inner cells above entrance cells;
 *   - phalanx strength: every link of two connected men in a line (a longer line captures
 *     more and is harder to capture), and lines of two or three lined up in front of a
 *     door with the way in open, the only way into the Castle;
 *   - material, since captures are the one way to shrink the other side.
 * Wins and losses are the search's business; these terms only steer towards them.
 */
#include "games/kingscastle/kc_internal.h"

enum {
    EVAL_MAN = 40,
    EVAL_LINK = 12,         /* per pair of connected men along a line */
    EVAL_ENTRANCE = 35,     /* per man on an entrance cell */
    EVAL_INNER = 90,        /* per man on an inner cell */
    EVAL_HALF_FLANK = 70,   /* an inner cell held, the opposite one empty */
    EVAL_PAIR = 450,        /* a complete flanking pair */
    EVAL_DOOR_2 = 30,       /* two men lined up at a door, the way in open */
    EVAL_DOOR_3 = 80,       /* three */
    EVAL_THRONE_HELD = 700, /* the opponent sits on the Throne: capture a flanker or lose */
    EVAL_TEMPO = 10,
};

/* How far a phalanx of k men at a door could get in: the number of castle cells beyond
 * the door it may enter (not own, no opposing line of k or more in the way). */
static int way_in(const KcConfig *c, int a, int k, Bb128 own, Bb128 opp)
{
    int n = 0;
    for (int i = 0; i < k && i < 4; i++) {
        const int x = c->inward[a][i];
        if (bb128_has(own, x))
            break;
        if (bb128_has(opp, x) && (i == 0 || !bb128_has(opp, c->inward[a][i - 1]))) {
            int run = 0;
            for (int j = i; j < 4 && bb128_has(opp, c->inward[a][j]); j++)
                run++;
            if (run >= k)
                break;
        }
        n++;
    }
    return n;
}

static int side_score(const KcConfig *c, Bb128 own, Bb128 opp)
{
    const Bb128 men = own & ~c->throne_bit;
    int score = EVAL_MAN * bb128_count(men);
    int links = 0;
    for (int d = 0; d < 3; d++)
        links += bb128_count(men & bb128_shift(men & c->conn_from[d], c->delta[d]));
    score += EVAL_LINK * links;
    score += EVAL_INNER * bb128_count(men & c->inner);
    score += EVAL_ENTRANCE * bb128_count(men & c->castle & ~c->inner & ~c->throne_bit);
    const bool throne_empty = !bb128_has(own | opp, KC_THRONE);
    for (int i = 0; i < 3; i++) {
        const Bb128 pair = c->pair_mask[i];
        const int held = bb128_count(men & pair);
        if (held == 2)
            score += throne_empty ? EVAL_PAIR : EVAL_PAIR / 2;
        else if (held == 1 && !(opp & pair))
            score += EVAL_HALF_FLANK;
    }
    for (int a = 0; a < 12; a++) {
        int k = 0;
        while (k < 3 && bb128_has(men, c->approach[a][k]))
            k++;
        if (k >= 2 && way_in(c, a, k, men, opp) > 0)
            score += k == 2 ? EVAL_DOOR_2 : EVAL_DOOR_3;
    }
    return score;
}

int kc_evaluate(const KcConfig *c, const KcState *s)
{
    const int p = s->turn;
    const Bb128 own = kc_men(s, p), opp = kc_men(s, 1 - p);
    int score = side_score(c, own, opp) - side_score(c, opp, own) + EVAL_TEMPO;
    if (bb128_has(opp, KC_THRONE))
        score -= EVAL_THRONE_HELD;
    return score;
}
