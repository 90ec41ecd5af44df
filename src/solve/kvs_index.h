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

enum { KVS_PAIRS = 75, KVS_FREE = 22 };

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
} KvsIndex;

/* Builds the tables for N soldiers a side (0..4). */
void kvs_index_init(KvsIndex *ix, int soldiers);

/* The index of p (kings off the Valley, N soldiers each, nothing on the Valley), and in
 * *stab 2 when a mirror maps p onto itself, else 1. */
uint64_t kvs_index_of(const KvsIndex *ix, const KvsPos *p, int *stab);

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
