/*
 * kd_features.c - King Down positions as an evaluation network's input features
 * (GameOps.nnue_features, search/nnue.h): every piece as (its side as the perspective
 * sees it, its type, its square from that side), and each side's power, so that a
 * normal move changes two or three features of each perspective.
 *
 * The perspective's own pieces come first and the board is turned for Black (ranks
 * mirrored), so one set of weights serves both seats and "my pawn on my fourth rank" is
 * one feature whoever plays. Indices ascend as the game writes them: the outer loops run
 * over side and type in index order, and the squares of a bitboard come out ascending;
 * Black's board is mirrored by reversing its bytes (ranks), which keeps them so. A
 * search follows a move by the squares of each side and type that changed
 * (kd_nnue_delta), not by listing every piece.
 */
#include "games/kingdown/kd_internal.h"

#include <limits.h>

static int put_squares(uint64_t bb, int base, uint16_t *out, int n, int cap)
{
    while (bb && n < cap) {
        out[n++] = (uint16_t)(base + bits_lowest(bb));
        bb &= bb - 1;
    }
    return n;
}

/* The feature of a side's power, `rel` as the perspective sees the side, if it has one. */
static int put_power(int power, int rel, uint16_t *out, int n)
{
    if (power != KD_POW_NONE)
        out[n++] = (uint16_t)(KD_NNUE_POWER_BASE + rel * (KD_POWERS - 1) + power - 1);
    return n;
}

int kd_nnue_features(const KdPos *p, int perspective, uint16_t *out, int cap)
{
    int n = 0;
    for (int rel = 0; rel < 2; rel++) {
        const int colour = rel == 0 ? perspective : 1 - perspective;
        for (int t = KD_PAWN; t < KD_TYPES; t++) {
            uint64_t bb = kd_pieces(p, colour, t);
            if (perspective == 1)
                bb = __builtin_bswap64(bb);
            n = put_squares(bb, KD_NNUE_PIECE_BASE(rel, t), out, n, cap);
        }
    }
    for (int rel = 0; rel < 2; rel++) {
        const int colour = rel == 0 ? perspective : 1 - perspective;
        if (n < cap)
            n = put_power(p->power[colour], rel, out, n);
    }
    return n;
}

void kd_nnue_snapshot(const KdPos *p, KdNnueSnapshot *out)
{
    for (int c = 0; c < 2; c++) {
        for (int t = KD_PAWN; t < KD_TYPES; t++)
            out->pieces[c][t] = kd_pieces(p, c, t);
        out->power[c] = p->power[c];
    }
}

void kd_nnue_delta(const KdNnueSnapshot *before, const KdNnueSnapshot *after, int perspective,
                   uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    int a = 0, s = 0;
    for (int rel = 0; rel < 2; rel++) {
        const int colour = rel == 0 ? perspective : 1 - perspective;
        for (int t = KD_PAWN; t < KD_TYPES; t++) {
            uint64_t was = before->pieces[colour][t], is = after->pieces[colour][t];
            if (was == is)
                continue;
            if (perspective == 1) {
                was = __builtin_bswap64(was);
                is = __builtin_bswap64(is);
            }
            s = put_squares(was & ~is, KD_NNUE_PIECE_BASE(rel, t), sub, s, INT_MAX);
            a = put_squares(is & ~was, KD_NNUE_PIECE_BASE(rel, t), add, a, INT_MAX);
        }
        if (before->power[colour] != after->power[colour]) {
            s = put_power(before->power[colour], rel, sub, s);
            a = put_power(after->power[colour], rel, add, a);
        }
    }
    *n_add = a;
    *n_sub = s;
}
