/*
 * kvs_index.h - numbering the positions of the solver's table: the eight board
 * symmetries folded out, and ranking and unranking as plain arithmetic.
 *
 * The king of the side to move is turned into one of five squares (a1, b1, c1, b2, c2);
 * when that square lies on a mirror line, the other king is kept on one side of it:
 * 75 king pairs in all. Each side's soldiers are then a combination of the squares left
 * (22 for the mover's, 22 - N for the other's), numbered by the combinatorial number
 * system: index = (pair * C(22, N) + mover rank) * C(22 - N, N) + other rank. A pair
 * on a mirror line has two images per position; the one with the smaller index is the
 * position's, and the other entry is never used (kvs_index_canonical says which).
 */
#ifndef CROWN_SOLVE_KVS_INDEX_H
#define CROWN_SOLVE_KVS_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "solve/kvs_board.h"

enum {
    KVS_PAIRS = 75,
    KVS_FREE = 22,
    KVS_MAX_COMBOS = 7315, /* C(22, 4): the most ranks a side's soldiers have */
    KVS_RANK_SPLIT = 11,   /* compact masks are ranked in two halves of 11 squares */
};

typedef struct KvsIndex {
    KvsBoard board;
    int soldiers;      /* N, soldiers on each side: 4 in the game, fewer in tests */
    uint64_t n_mover;  /* C(22, N) */
    uint64_t n_other;  /* C(22 - N, N) */
    uint64_t per_pair; /* n_mover * n_other */
    uint64_t size;     /* entries: 75 * per_pair */
    uint8_t pair_king[KVS_PAIRS][2];
    uint8_t pair_free[KVS_PAIRS][KVS_FREE]; /* the squares left for soldiers, ascending */
    int8_t pair_of[KVS_CELLS][KVS_CELLS]; /* the pair of a canonical placement, or -1 */
    uint8_t canon_count[KVS_CELLS][KVS_CELLS]; /* symmetries that make the kings canonical */
    uint8_t canon_sym[KVS_CELLS][KVS_CELLS][2];
    uint64_t binom[KVS_CELLS + 1][KVS_MAX_SOLDIERS + 1];
    /* The combination of each rank as ascending compact positions: unranking is a
     * lookup. A rank of fewer squares (the other side's 18) has the same combination,
     * since the combinatorial number system lists the lower squares' combinations first. */
    uint8_t combo[KVS_MAX_COMBOS][KVS_MAX_SOLDIERS];
    /* The rank of a compact mask: rank_low[low half] + rank_high[soldiers in the low
     * half][high half]; used where the processor extracts bits in one instruction. */
    uint16_t rank_low[1 << KVS_RANK_SPLIT];
    uint16_t rank_high[KVS_MAX_SOLDIERS + 1][1 << KVS_RANK_SPLIT];
    bool bmi2; /* the processor has pext: ranks by rank_low and rank_high */
} KvsIndex;

/* Builds the tables for N soldiers a side (0..4). */
void kvs_index_init(KvsIndex *ix, int soldiers);

/* Whether ranks use the processor's bit extraction (the default where it has it) or the
 * portable count of squares below; the tests compare the two. Returns the setting. */
bool kvs_index_use_bmi2(KvsIndex *ix, bool want);

/* The index of p (kings off the Valley, N soldiers each, nothing on the Valley), and in
 * *stab 2 when a mirror maps p onto itself, else 1. */
uint64_t kvs_index_of(const KvsIndex *ix, const KvsPos *p, int *stab);

/* The images of two soldier masks under the eight symmetries, made as they are asked
 * for. The positions one move away from a position share all but two squares of these
 * masks, and an image is linear over exclusive or (the image of a ^ b is the images'),
 * so each of them is turned by two square lookups instead of a whole mask transform. */
typedef struct KvsImages {
    uint32_t base[2];
    uint32_t image[KVS_SYMS][2];
    uint32_t have; /* bit t: image[t] is made */
} KvsImages;

/* Images of the masks side 0 and side 1 of the positions to come will be near to. */
static inline void kvs_images_init(KvsImages *im, uint32_t side0, uint32_t side1)
{
    im->base[0] = side0;
    im->base[1] = side1;
    im->have = 0;
}

/* kvs_index_of for a position whose soldier masks differ little from im's bases: the
 * same index and *stab, for any q, faster the fewer squares differ. */
uint64_t kvs_index_near(const KvsIndex *ix, KvsImages *im, const KvsPos *q, int *stab);

/* The position stored at index i (its kings already canonical). */
KvsPos kvs_index_position(const KvsIndex *ix, uint64_t i);

/* Whether entry i is the one its position uses (false for the unused twin). */
bool kvs_index_canonical(const KvsIndex *ix, uint64_t i);

/* The ranks of the soldiers of a position whose kings are already canonical. */
uint64_t kvs_index_raw(const KvsIndex *ix, int pair, const KvsPos *p);

/* Squares that are free for soldiers once both kings stand: all but the Valley and them. */
static inline uint32_t kvs_free_squares(int k0, int k1)
{
    return ((1u << KVS_CELLS) - 1) & ~(1u << KVS_VALLEY) & ~(1u << k0) & ~(1u << k1);
}

#endif
