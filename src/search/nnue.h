/*
 * nnue.h - evaluation networks: a game's position as sparse input features (the game's
 * nnue_features hook, game.h), a first layer kept as an accumulator per perspective,
 * and two small dense layers, all in integers, so that one position gives the same
 * value bit for bit on every machine, in the trainer's quantised model
 * (tools/nnue/nnue_quant.py) and on either kernel (portable C, or AVX2 chosen at run time).
 *
 * The shape, fixed at compile time so that the compiler unrolls and vectorises it:
 *   inputs -> NNUE_HIDDEN (int16 weights, one accumulator per perspective)
 *   clamp(acc[mover]) ++ clamp(acc[other]), 0..127 -> NNUE_L1 (int8 weights, >> 6, clamp)
 *   -> NNUE_L2 (the same) -> 1 (int8 weights): the value in 1/16 centi-units.
 *
 * The file (docs/TRAINING.md), little-endian: the header "CRNN", version, the game's
 * name and feature set (32 bytes each, NUL padded), the sizes, an FNV-1a hash of the
 * weights that follow; then ft_bias[H] int16, ft_weight[inputs][H] int16, b1[L1] int32,
 * w1[L1][2H] int8, b2[L2] int32, w2[L2][L1] int8, b3 int32, w3[L2] int8.
 */
#ifndef CROWN_SEARCH_NNUE_H
#define CROWN_SEARCH_NNUE_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/mem.h"
#include "core/status.h"

enum {
    NNUE_VERSION = 1,
    NNUE_HIDDEN = 64,      /* accumulator width per perspective */
    NNUE_L1 = 16,
    NNUE_L2 = 16,
    NNUE_MAX_ACTIVE = 96,  /* the most features a position may have per perspective */
    NNUE_MAX_INPUTS = 16384,
    NNUE_NAME_LEN = 32,
    NNUE_HEADER_BYTES = 4 + 4 + 2 * NNUE_NAME_LEN + 4 * 4 + 8,
};

/* Which kernel computes the layers: NNUE_KERNEL_AUTO picks AVX2 where the processor has
 * it. Every kernel gives the same values; the choice exists for the tests. */
typedef enum NnueKernel { NNUE_KERNEL_AUTO, NNUE_KERNEL_PORTABLE, NNUE_KERNEL_AVX2 } NnueKernel;

typedef struct Nnue Nnue;

/* One perspective's accumulator: the first layer's sums for the active features. */
typedef struct NnueAccumulator {
    int16_t v[NNUE_HIDDEN];
} NnueAccumulator;

/* Reads a net from its bytes for game g, checking the header against the game (name,
 * feature set and feature count) and the weights against their hash. On error *out is
 * NULL and the message says what is wrong. */
Status nnue_load(const Game *g, const unsigned char *bytes, size_t size, const Mem *mem,
                 Nnue **out, ErrBuf *err);
/* Reads a net from a file (a net being trained; the built-in ones come with the build). */
Status nnue_load_file(const Game *g, const char *path, const Mem *mem, Nnue **out,
                      ErrBuf *err);
/* The net built into crown for g, if there is one (nets/GAME.nnue); STATUS_NOT_FOUND
 * with a message naming the games that have one otherwise. */
Status nnue_load_builtin(const Game *g, const Mem *mem, Nnue **out, ErrBuf *err);
/* Whether the build carries a network for this game (what nnue_load_builtin would load). */
bool nnue_has_builtin(const Game *g);
/* Whether that network is also the game's default evaluation (its record's "default
 * nnue" line): what alpha-beta scores with unless told "classic" (AGENT_EVAL_DEFAULT). */
bool nnue_is_default(const Game *g);
void nnue_free(Nnue *net);

/* STATUS_UNSUPPORTED when the processor cannot run `k`; else the net uses it. */
Status nnue_set_kernel(Nnue *net, NnueKernel k, ErrBuf *err);
/* The kernel in use, as a word: "portable" or "avx2". */
const char *nnue_kernel_name(const Nnue *net);

/* The accumulator of the features `active` (count of them) from scratch. */
void nnue_refresh(const Nnue *net, const uint16_t *active, int count, NnueAccumulator *acc);
/* Adds the features `add` and removes `sub` from an accumulator. */
void nnue_update(const Nnue *net, const uint16_t *add, int n_add, const uint16_t *sub, int n_sub,
                 NnueAccumulator *acc);
/* The value, in centi-units for the player whose accumulator is `mover`. */
int nnue_forward(const Nnue *net, const NnueAccumulator *mover, const NnueAccumulator *other);

/* The value of s for its player to move, from scratch (for callers outside a search). */
int nnue_evaluate(const Nnue *net, const Game *g, const GameState *s);

/* Whether g has input features for a net (the nnue_features hook). */
bool nnue_game_has_features(const Game *g);

#endif
