/*
 * kvs_index.c - ranking and unranking of the solver's positions.
 */
#include "solve/kvs_index.h"

#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define KVS_HAVE_BMI2_PATH 1
#endif

static void unrank_set(const KvsIndex *ix, uint64_t r, int k, int n, int *out);
static void build_rank_tables(KvsIndex *ix);

/* The five squares the mover's king is turned onto: a1, b1, c1, b2, c2. */
static const int king_reps[5] = {0, 1, 2, 6, 7};

/* Whether k may stand beside a king on rep: every square when only the identity keeps
 * rep in place, else the one of each mirror pair with the smaller number. */
static bool allowed_other(const KvsBoard *b, int rep, int k)
{
    for (int t = 1; t < KVS_SYMS; t++)
        if (b->sym[t][rep] == rep && b->sym[t][k] < k)
            return false;
    return true;
}

void kvs_index_init(KvsIndex *ix, int soldiers)
{
    kvs_board_init(&ix->board);
    ix->soldiers = soldiers;
    for (int n = 0; n <= KVS_CELLS; n++)
        for (int k = 0; k <= KVS_MAX_SOLDIERS; k++)
            ix->binom[n][k] = k == 0 ? 1 : n == 0 ? 0 : ix->binom[n - 1][k - 1] + ix->binom[n - 1][k];
    ix->n_mover = ix->binom[KVS_FREE][soldiers];
    ix->n_other = ix->binom[KVS_FREE - soldiers][soldiers];
    ix->per_pair = ix->n_mover * ix->n_other;
    for (int a = 0; a < KVS_CELLS; a++)
        for (int c = 0; c < KVS_CELLS; c++)
            ix->pair_of[a][c] = -1;
    int pairs = 0;
    for (int r = 0; r < 5; r++) {
        for (int k = 0; k < KVS_CELLS; k++) {
            if (k == king_reps[r] || k == KVS_VALLEY || !allowed_other(&ix->board, king_reps[r], k))
                continue;
            ix->pair_king[pairs][0] = (uint8_t)king_reps[r];
            ix->pair_king[pairs][1] = (uint8_t)k;
            ix->pair_of[king_reps[r]][k] = (int8_t)pairs;
            uint32_t free = kvs_free_squares(king_reps[r], k);
            for (int f = 0; f < KVS_FREE; f++, free &= free - 1)
                ix->pair_free[pairs][f] = (uint8_t)__builtin_ctz(free);
            pairs++;
        }
    }
    ix->size = (uint64_t)pairs * ix->per_pair;
    for (int a = 0; a < KVS_CELLS; a++) {
        for (int c = 0; c < KVS_CELLS; c++) {
            ix->canon_count[a][c] = 0;
            if (a == c || a == KVS_VALLEY || c == KVS_VALLEY)
                continue;
            for (int t = 0; t < KVS_SYMS; t++)
                if (ix->pair_of[ix->board.sym[t][a]][ix->board.sym[t][c]] >= 0)
                    ix->canon_sym[a][c][ix->canon_count[a][c]++] = (uint8_t)t;
        }
    }
    build_rank_tables(ix);
    (void)kvs_index_use_bmi2(ix, true);
}

static void build_rank_tables(KvsIndex *ix)
{
    memset(ix->combo, 0, sizeof ix->combo);
    for (uint64_t r = 0; r < ix->n_mover; r++) {
        int m[KVS_MAX_SOLDIERS];
        unrank_set(ix, r, ix->soldiers, KVS_FREE, m);
        for (int k = 0; k < ix->soldiers; k++)
            ix->combo[r][k] = (uint8_t)m[k];
    }
    // Masks of more squares than a side has soldiers are never ranked; their sums are
    // cut to 16 bits harmlessly.
    for (uint32_t x = 0; x < (1u << KVS_RANK_SPLIT); x++) {
        uint64_t r = 0;
        int i = 1;
        for (uint32_t m = x; m && i <= KVS_MAX_SOLDIERS; m &= m - 1)
            r += ix->binom[__builtin_ctz(m)][i++];
        ix->rank_low[x] = (uint16_t)r;
        for (int below = 0; below <= KVS_MAX_SOLDIERS; below++) {
            uint64_t h = 0;
            int j = below + 1;
            for (uint32_t m = x; m && j <= KVS_MAX_SOLDIERS; m &= m - 1)
                h += ix->binom[KVS_RANK_SPLIT + __builtin_ctz(m)][j++];
            ix->rank_high[below][x] = (uint16_t)h;
        }
    }
}

bool kvs_index_use_bmi2(KvsIndex *ix, bool want)
{
#ifdef KVS_HAVE_BMI2_PATH
    ix->bmi2 = want && __builtin_cpu_supports("bmi2");
#else
    (void)want;
    ix->bmi2 = false;
#endif
    return ix->bmi2;
}

static uint64_t rank_set(const KvsIndex *ix, uint32_t set, uint32_t free)
{
    uint64_t r = 0;
    int i = 1;
    while (set) {
        const uint32_t bit = set & -set;
        set &= set - 1;
        r += ix->binom[__builtin_popcount(free & (bit - 1))][i++];
    }
    return r;
}

uint64_t kvs_index_raw(const KvsIndex *ix, int pair, const KvsPos *p)
{
    const uint32_t free = kvs_free_squares(p->king[0], p->king[1]);
    return ((uint64_t)pair * ix->n_mover + rank_set(ix, p->soldiers[0], free)) * ix->n_other +
           rank_set(ix, p->soldiers[1], free & ~p->soldiers[0]);
}

/* The image of a mask of a few squares, one lookup a square. */
static uint32_t image_of_few(const KvsBoard *b, int t, uint32_t m)
{
    uint32_t img = 0;
    for (; m; m &= m - 1)
        img |= 1u << b->sym[t][__builtin_ctz(m)];
    return img;
}

/* The soldier masks of q turned by symmetry t, from im's images of its bases. */
static inline void near_masks(const KvsIndex *ix, KvsImages *im, const KvsPos *q, int t,
                              uint32_t *m0, uint32_t *m1)
{
    const KvsBoard *b = &ix->board;
    *m0 = q->soldiers[0];
    *m1 = q->soldiers[1];
    if (t == 0)
        return;
    if (!(im->have & (1u << t))) {
        im->image[t][0] = kvs_image_mask(b, t, im->base[0]);
        im->image[t][1] = kvs_image_mask(b, t, im->base[1]);
        im->have |= 1u << t;
    }
    *m0 = im->image[t][0] ^ image_of_few(b, t, q->soldiers[0] ^ im->base[0]);
    *m1 = im->image[t][1] ^ image_of_few(b, t, q->soldiers[1] ^ im->base[1]);
}

/* Keeps the smallest of a position's raw indexes; equal ones mean a mirror fixes it. */
static inline void keep_least(uint64_t i, uint64_t *best, int *stab)
{
    if (i == *best)
        *stab = 2;
    else if (i < *best)
        *best = i;
}

/* The ranks of both sides' soldiers as one number (mover * n_other + other), counting
 * the free squares below each soldier. */
static inline uint64_t ranks_portable(const KvsIndex *ix, uint32_t m0, uint32_t m1,
                                      uint32_t free)
{
    return rank_set(ix, m0, free) * ix->n_other + rank_set(ix, m1, free & ~m0);
}

#ifdef KVS_HAVE_BMI2_PATH
/* The rank of a compact mask of at most four squares. */
static inline uint64_t rank_compact(const KvsIndex *ix, uint32_t x)
{
    const uint32_t low = x & ((1u << KVS_RANK_SPLIT) - 1);
    return (uint64_t)ix->rank_low[low] +
           ix->rank_high[__builtin_popcount(low)][x >> KVS_RANK_SPLIT];
}

/* The same, the soldiers squeezed onto the free squares by one instruction each. */
__attribute__((target("bmi2,popcnt"))) static inline uint64_t
ranks_bmi2(const KvsIndex *ix, uint32_t m0, uint32_t m1, uint32_t free)
{
    return rank_compact(ix, _pext_u32(m0, free)) * ix->n_other +
           rank_compact(ix, _pext_u32(m1, free & ~m0));
}
#endif

/* kvs_index_near's loop, made twice so that each way of ranking is inlined in it. */
__attribute__((always_inline)) static inline uint64_t
near_loop(const KvsIndex *ix, KvsImages *im, const KvsPos *q, int *stab, bool bmi2)
{
    const int a = q->king[0], c = q->king[1];
    uint64_t best = UINT64_MAX;
    *stab = 1;
    for (int j = 0; j < ix->canon_count[a][c]; j++) {
        const int t = ix->canon_sym[a][c][j];
        uint32_t m0, m1;
        near_masks(ix, im, q, t, &m0, &m1);
        const int k0 = ix->board.sym[t][a], k1 = ix->board.sym[t][c];
        const uint32_t free = kvs_free_squares(k0, k1);
        uint64_t ranks = 0;
#ifdef KVS_HAVE_BMI2_PATH
        if (bmi2)
            ranks = ranks_bmi2(ix, m0, m1, free);
        else
#endif
            ranks = ranks_portable(ix, m0, m1, free);
        keep_least((uint64_t)ix->pair_of[k0][k1] * ix->per_pair + ranks, &best, stab);
    }
    (void)bmi2;
    return best;
}

static uint64_t near_portable(const KvsIndex *ix, KvsImages *im, const KvsPos *q, int *stab)
{
    return near_loop(ix, im, q, stab, false);
}

#ifdef KVS_HAVE_BMI2_PATH
__attribute__((target("bmi2,popcnt"))) static uint64_t near_bmi2(const KvsIndex *ix,
                                                                 KvsImages *im,
                                                                 const KvsPos *q, int *stab)
{
    return near_loop(ix, im, q, stab, true);
}
#endif

uint64_t kvs_index_near(const KvsIndex *ix, KvsImages *im, const KvsPos *q, int *stab)
{
#ifdef KVS_HAVE_BMI2_PATH
    if (ix->bmi2)
        return near_bmi2(ix, im, q, stab);
#endif
    return near_portable(ix, im, q, stab);
}

/* The combination of rank r (of `k` elements out of n) as its compact positions, in
 * ascending order. */
static void unrank_set(const KvsIndex *ix, uint64_t r, int k, int n, int *out)
{
    int c = n - 1;
    for (int i = k; i >= 1; i--) {
        while (ix->binom[c][i] > r)
            c--;
        r -= ix->binom[c][i];
        out[i - 1] = c--;
    }
}

/* Squares come straight from the pair's list of free squares: the rank's compact
 * positions index it, the other side's after skipping the mover's (this is the solver's
 * hottest path: every entry of every pass is unranked). */
KvsPos kvs_index_position(const KvsIndex *ix, uint64_t i)
{
    const uint64_t other = i % ix->n_other;
    const uint64_t mover = (i / ix->n_other) % ix->n_mover;
    const int pair = (int)(i / ix->per_pair);
    KvsPos p;
    p.king[0] = ix->pair_king[pair][0];
    p.king[1] = ix->pair_king[pair][1];
    const int n = ix->soldiers;
    const uint8_t *sq = ix->pair_free[pair];
    const uint8_t *m = ix->combo[mover], *o = ix->combo[other];
    p.soldiers[0] = 0;
    p.soldiers[1] = 0;
    for (int k = 0; k < n; k++)
        p.soldiers[0] |= 1u << sq[m[k]];
    for (int k = 0; k < n; k++) {
        int c = o[k];
        for (int j = 0; j < n; j++)
            c += m[j] <= c; // m ascending: each mover square at or below shifts it up
        p.soldiers[1] |= 1u << sq[c];
    }
    return p;
}

/* A position is near itself: its own masks are the bases, and each symmetry asked for
 * turns them once. */
uint64_t kvs_index_of(const KvsIndex *ix, const KvsPos *p, int *stab)
{
    KvsImages im;
    kvs_images_init(&im, p->soldiers[0], p->soldiers[1]);
    return kvs_index_near(ix, &im, p, stab);
}

bool kvs_index_canonical(const KvsIndex *ix, uint64_t i)
{
    // Only kings on a line of symmetry leave two placements of the soldiers one entry.
    const uint8_t *kings = ix->pair_king[i / ix->per_pair];
    if (ix->canon_count[kings[0]][kings[1]] != 2)
        return true;
    const KvsPos p = kvs_index_position(ix, i);
    int stab;
    return kvs_index_of(ix, &p, &stab) == i;
}
