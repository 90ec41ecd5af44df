/*
 * kd_attack.c - which pieces attack a square, and check. Check is about the pieces'
 * normal way of capturing only: token powers never give check.
 */
#include "games/kingdown/kd_internal.h"

uint64_t kd_attackers(const KdConfig *c, const KdPos *p, int sq, int by, uint64_t occ)
{
    const int def = by ^ 1;
    const uint64_t mine = p->side[by];
    uint64_t a = 0;
    const uint64_t pawns = p->bb[KD_PAWN] & mine;
    if (pawns && p->power[def] != KD_HOLY_LIGHT) {
        // A pawn of `by` on b captures b + diagonal, so b = sq - diagonal, which is where a
        // pawn of the defender on sq would capture. A Darkness pawn captures straight ahead.
        a |= (p->power[by] == KD_DARKNESS ? c->fwd[def][sq] : c->pawn_att[def][sq]) & pawns;
    }
    a |= c->knight[sq] & p->bb[KD_KNIGHT] & mine;
    a |= c->archer[sq] & p->bb[KD_ARCHER] & mine;
    uint64_t adjacent = p->bb[KD_MAESTER];
    if (p->power[by] != KD_MERCY)
        adjacent |= p->bb[KD_KING];
    a |= c->king[sq] & adjacent & mine;
    // A beast on b captures every neighbour but b + forward: b != sq - forward.
    a |= c->king[sq] & ~c->fwd[def][sq] & p->bb[KD_BEAST] & mine;
    const uint64_t diag = (p->bb[KD_BISHOP] | p->bb[KD_QUEEN]) & mine;
    const uint64_t orth = (p->bb[KD_ROOK] | p->bb[KD_QUEEN]) & mine;
    if (diag)
        a |= kd_bishop_att(c, sq, occ) & diag;
    if (orth)
        a |= kd_rook_att(c, sq, occ) & orth;
    return a;
}

bool kd_in_check(const KdConfig *c, const KdPos *p, int colour)
{
    return kd_attackers(c, p, p->king[colour], colour ^ 1, p->bb[KD_EMPTY]) != 0;
}
