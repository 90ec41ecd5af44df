/*
 * kvs_board.c - slides, successors and predecessors on 25-bit masks for the solver.
 */
#include "solve/kvs_board.h"

void kvs_board_init(KvsBoard *b)
{
    static const int df[KVS_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int dr[KVS_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};
    for (int d = 0; d < KVS_DIRS; d++) {
        b->delta[d] = dr[d] * KVS_SIZE + df[d];
        for (int sq = 0; sq < KVS_CELLS; sq++) {
            int f = sq % KVS_SIZE + df[d], r = sq / KVS_SIZE + dr[d];
            int last = sq;
            b->ray[d][sq] = 0;
            b->step[d][sq] = -1;
            if (f >= 0 && f < KVS_SIZE && r >= 0 && r < KVS_SIZE)
                b->step[d][sq] = (int8_t)(r * KVS_SIZE + f);
            while (f >= 0 && f < KVS_SIZE && r >= 0 && r < KVS_SIZE) {
                last = r * KVS_SIZE + f;
                b->ray[d][sq] |= 1u << last;
                f += df[d];
                r += dr[d];
            }
            b->ray_end[d][sq] = (int8_t)last;
        }
    }
    for (int sq = 0; sq < KVS_CELLS; sq++) {
        b->neighbours[sq] = 0;
        for (int d = 0; d < KVS_DIRS; d++)
            if (b->step[d][sq] >= 0)
                b->neighbours[sq] |= 1u << b->step[d][sq];
    }
    // The dihedral group of the square: four rotations, each with and without a mirror.
    for (int t = 0; t < KVS_SYMS; t++) {
        for (int sq = 0; sq < KVS_CELLS; sq++) {
            int f = sq % KVS_SIZE, r = sq / KVS_SIZE;
            if (t & 4) {
                int tmp = f;
                f = r;
                r = tmp;
            }
            if (t & 1)
                f = KVS_SIZE - 1 - f;
            if (t & 2)
                r = KVS_SIZE - 1 - r;
            b->sym[t][sq] = (uint8_t)(r * KVS_SIZE + f);
        }
        // Masks are turned seven squares at a time by table, the solver's hot path.
        for (int slice = 0; slice < 4; slice++) {
            for (int bits = 0; bits < 128; bits++) {
                uint32_t img = 0;
                for (int k = 0; k < 7; k++)
                    if ((bits >> k) & 1 && slice * 7 + k < KVS_CELLS)
                        img |= 1u << b->sym[t][slice * 7 + k];
                b->sym_mask[t][slice][bits] = img;
            }
        }
    }
}

static inline int slide(const KvsBoard *b, int sq, int d, uint32_t occ)
{
    const uint32_t blockers = b->ray[d][sq] & occ;
    if (blockers == 0)
        return b->ray_end[d][sq];
    const int first = b->delta[d] > 0 ? __builtin_ctz(blockers) : 31 - __builtin_clz(blockers);
    return first - b->delta[d];
}

int kvs_successors(const KvsBoard *b, const KvsPos *p, KvsPos *out, bool *valley_win)
{
    const uint32_t occ = kvs_occupied(p);
    int n = 0;
    *valley_win = false;
    const int k = p->king[0];
    for (int d = 0; d < KVS_DIRS; d++) {
        const int to = slide(b, k, d, occ);
        if (to == k)
            continue;
        if (to == KVS_VALLEY) {
            *valley_win = true;
            continue;
        }
        out[n].soldiers[0] = p->soldiers[1];
        out[n].king[0] = p->king[1];
        out[n].soldiers[1] = p->soldiers[0];
        out[n].king[1] = (uint8_t)to;
        n++;
    }
    uint32_t own = p->soldiers[0];
    while (own) {
        const int sq = __builtin_ctz(own);
        own &= own - 1;
        for (int d = 0; d < KVS_DIRS; d++) {
            const int to = slide(b, sq, d, occ);
            // A soldier may not stop short of the Valley, so that way is shut.
            if (to == sq || to == KVS_VALLEY)
                continue;
            out[n].soldiers[0] = p->soldiers[1];
            out[n].king[0] = p->king[1];
            out[n].soldiers[1] = p->soldiers[0] ^ (1u << sq) ^ (1u << to);
            out[n].king[1] = p->king[0];
            n++;
        }
    }
    return n;
}

/* The empty squares a man on s passes going direction d before the first taken one. */
static inline uint32_t open_run(const KvsBoard *b, int s, int d, uint32_t occ)
{
    const uint32_t ray = b->ray[d][s];
    const uint32_t blockers = ray & occ;
    if (blockers == 0)
        return ray;
    const int first = b->delta[d] > 0 ? __builtin_ctz(blockers) : 31 - __builtin_clz(blockers);
    return ray & ~(b->ray[d][first] | (1u << first));
}

int kvs_predecessors(const KvsBoard *b, const KvsPos *p, KvsPos *out)
{
    const uint32_t occ = kvs_occupied(p);
    int n = 0;
    // The man that just moved belongs to the side not to move now (index 1): the king
    // first, then each soldier. It stopped on s going d only if the square past s is
    // taken or off the board, and it came from any empty square behind s.
    uint32_t men = p->soldiers[1];
    for (int s = p->king[1]; s >= 0; s = men ? __builtin_ctz(men) : -1) {
        const bool king = s == p->king[1]; // no soldier stands on a king's square
        if (!king)
            men &= men - 1;
        uint32_t stopped = 0; // directions whose next square stops a slide
        for (int d = 0; d < KVS_DIRS; d++)
            stopped |= (uint32_t)(b->step[d][s] < 0 || (occ >> b->step[d][s]) & 1) << d;
        for (; stopped; stopped &= stopped - 1) {
            const int back = (__builtin_ctz(stopped) + 4) % KVS_DIRS;
            // The Valley is passed over, never a start.
            for (uint32_t from = open_run(b, s, back, occ) & ~(1u << KVS_VALLEY); from;
                 from &= from - 1) {
                const int t = __builtin_ctz(from);
                out[n].soldiers[0] = p->soldiers[1];
                out[n].king[0] = p->king[1];
                if (king)
                    out[n].king[0] = (uint8_t)t;
                else
                    out[n].soldiers[0] ^= (1u << s) ^ (1u << t);
                out[n].soldiers[1] = p->soldiers[0];
                out[n].king[1] = p->king[0];
                n++;
            }
        }
    }
    return n;
}

KvsPos kvs_transform(const KvsBoard *b, const KvsPos *p, int t)
{
    KvsPos q;
    for (int side = 0; side < 2; side++) {
        q.soldiers[side] = kvs_image_mask(b, t, p->soldiers[side]);
        q.king[side] = b->sym[t][p->king[side]];
    }
    return q;
}
