/*
 * kvs_board.h - the 5x5 King's Valley board as the solver sees it: 25-bit masks, slides,
 * the eight symmetries, and positions seen from the side to move.
 *
 * The rules do not depend on direction or colour, so a position is stored as "the side
 * to move" and "the other side": a move swaps the two. This is a second, independent
 * implementation of the rules (the games layer is the reference); tests compare them.
 */
#ifndef CROWN_SOLVE_KVS_BOARD_H
#define CROWN_SOLVE_KVS_BOARD_H

#include <stdbool.h>
#include <stdint.h>

enum {
    KVS_SIZE = 5,
    KVS_CELLS = 25,
    KVS_VALLEY = 12, /* c3 */
    KVS_DIRS = 8,
    KVS_SYMS = 8,
    KVS_MAX_SOLDIERS = 4,
    KVS_MAX_SUCC = 5 * KVS_DIRS,       /* a king and four soldiers, eight ways each */
    KVS_MAX_PRED = 5 * KVS_DIRS * 4,   /* at most four origins along each line */
};

/* [0] is the side to move, [1] the other side; soldiers exclude the king. */
typedef struct KvsPos {
    uint32_t soldiers[2];
    uint8_t king[2];
} KvsPos;

/* Read-only geometry, built once by kvs_board_init. */
typedef struct KvsBoard {
    uint32_t ray[KVS_DIRS][KVS_CELLS];   /* squares beyond sq in direction d */
    int8_t ray_end[KVS_DIRS][KVS_CELLS]; /* the last of them, or sq itself */
    int8_t step[KVS_DIRS][KVS_CELLS];    /* the neighbour in direction d, or -1 */
    int delta[KVS_DIRS];
    uint32_t neighbours[KVS_CELLS];
    uint8_t sym[KVS_SYMS][KVS_CELLS]; /* image of each square; sym[0] is the identity */
    uint32_t sym_mask[KVS_SYMS][4][128]; /* image of each 7-bit slice of a mask */
} KvsBoard;

void kvs_board_init(KvsBoard *b);

static inline uint32_t kvs_occupied(const KvsPos *p)
{
    return p->soldiers[0] | p->soldiers[1] | (1u << p->king[0]) | (1u << p->king[1]);
}

/* Whether the side to move has a king with no free neighbour. */
static inline bool kvs_locked(const KvsBoard *b, const KvsPos *p)
{
    return (b->neighbours[p->king[0]] & ~kvs_occupied(p)) == 0;
}

/* The positions after each move of the side to move, seen from the new side to move;
 * the king's slides onto the Valley are not listed but reported in *valley_win. */
int kvs_successors(const KvsBoard *b, const KvsPos *p, KvsPos *out, bool *valley_win);

/* Every position (seen from its side to move) from which one move leads to p: the
 * other side's man on s came from t along a line when the square beyond s blocks it and
 * the squares from t to s were empty. Neither the king nor a soldier starts on the
 * Valley, and soldiers never stop there. Locked or finished predecessors are listed
 * too; the caller knows their values. */
int kvs_predecessors(const KvsBoard *b, const KvsPos *p, KvsPos *out);

/* The image of a mask of squares under symmetry t, seven squares a lookup. */
static inline uint32_t kvs_image_mask(const KvsBoard *b, int t, uint32_t m)
{
    return b->sym_mask[t][0][m & 127] | b->sym_mask[t][1][(m >> 7) & 127] |
           b->sym_mask[t][2][(m >> 14) & 127] | b->sym_mask[t][3][(m >> 21) & 127];
}

/* The image of p under symmetry t. */
KvsPos kvs_transform(const KvsBoard *b, const KvsPos *p, int t);

#endif
