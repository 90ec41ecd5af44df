/*
 * kvs_pack.h - the solved King's Valley table packed for sharing: win/draw/loss apart
 * from the distance, in zstd-compressed blocks with an index of blocks, read through a
 * small cache of decompressed blocks.
 *
 * A block holds 1024 consecutive entries (by default) as two zstd frames: the outcome of
 * each entry in two bits (0 draw or unused, 1 win, 2 loss, four to a byte), then one byte
 * for each entry that is not a draw, the distance in moves (plies / 2; the parity
 * follows from the outcome), the wins' in order, then the losses'. Both frames are
 * compressed with a dictionary of their kind trained on sample blocks, which is what
 * makes blocks this small compress well. The file layout is in docs/SOLVED.md.
 */
#ifndef CROWN_SOLVE_KVS_PACK_H
#define CROWN_SOLVE_KVS_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "solve/kvs_file.h"
#include "solve/kvs_retro.h"

#define KVS_PACK_MAGIC "crown-kvs-packed 1\n"

typedef struct KvsPackOptions {
    int block;   /* entries a block (a multiple of 64); 0: the default */
    int level;   /* zstd's level; 0: the default */
    int threads; /* 1 or more */
} KvsPackOptions;

typedef struct KvsPackStats {
    uint64_t blocks;
    uint64_t bytes;            /* the whole file */
    uint64_t outcome_bytes;    /* compressed outcome frames */
    uint64_t distance_bytes;   /* compressed distance frames */
    uint64_t dictionary_bytes; /* both dictionaries */
} KvsPackStats;

/* Writes the packed form of a finished table: its values (ix->size bytes), the text
 * head of its header to repeat (rules, checksum, counts: the full table's), through a
 * temporary file. */
Status kvs_pack_write(const char *path, const KvsIndex *ix, const uint8_t *values,
                      const char *head, const KvsPackOptions *opt, KvsPackStats *stats,
                      ErrBuf *err);

typedef struct KvsPacked KvsPacked;

/* Reads the packed layout after the header (`body`, `len` bytes, mapped by the caller
 * and kept while the result lives), for a table of `entries` entries; STATUS_CORRUPT if
 * the header's figures or the index of blocks do not add up. */
Status kvs_packed_open(const char *header, const uint8_t *body, uint64_t len, uint64_t entries,
                       KvsPacked **out, ErrBuf *err);
void kvs_packed_close(KvsPacked *pk);

/* The value byte of entry i (kvs_retro.h's), through the cache; safe from any thread.
 * STATUS_CORRUPT if its block does not decompress. */
Status kvs_packed_entry(const KvsPacked *pk, uint64_t i, uint8_t *out, ErrBuf *err);

/* Entries [start, start + n) into out, block by block without the cache (for whole-table
 * passes: the checksum, counts, comparisons). */
Status kvs_packed_range(const KvsPacked *pk, uint64_t start, uint64_t n, uint8_t *out,
                        ErrBuf *err);

#endif
