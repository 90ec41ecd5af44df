/*
 * nnue_nets.h - the evaluation networks built into crown: every nets/GAME.nnue, compiled
 * in by tools/embed-nets.sh (the Makefile's generated nnue_nets_data.c), so that a net
 * comes with the build and is never fetched or read from a path at run time.
 */
#ifndef CROWN_SEARCH_NNUE_NETS_H
#define CROWN_SEARCH_NNUE_NETS_H

#include <stddef.h>

typedef struct NnueBlob {
    const char *game; /* the registry name of the game the net evaluates */
    const unsigned char *bytes;
    size_t size;
    /* whether the net is the game's default evaluation: its record (nets/GAME.txt)
     * says "default nnue", written there once the net has beaten the hand-written one */
    int is_default;
} NnueBlob;

extern const NnueBlob nnue_blobs[];
extern const int nnue_blob_count;

#endif
