/*
 * kvs_pack.h - the solved King's Valley table packed for sharing: win/draw/loss apart
 * from the distance, in zstd-compressed blocks with an index of blocks, read through a
 * small cache of decompressed blocks.
 *
 * A block holds 2048 consecutive entries (by default) as two zstd frames: the outcome of
 * each entry in two bits (0 draw, 1 win, 2 loss, four to a byte; an unused entry, which
 * no probe asks for, is stored as whatever joins the run before it, and read as 0 by
 * kvs_table), then one byte for each loss, its distance in moves (plies / 2; the parity
 * follows from the outcome). A frame of zeros is stored as no bytes. The wins' distances are left out, as chess endgame tablebases leave out one
 * side's: a win is one ply longer than its shortest losing reply, which kvs_table reads
 * with the successors' probes. A table may be coded against a base table of other rules
 * over the same positions (locked-king-loses off against on): each code then is
 * exclusive-ored with the base's, and each loss's distance less the base's where the
 * base loses too, so that the entries where the rule sets agree cost next to nothing.
 * Both frames are compressed with a dictionary of their kind trained on sample blocks,
 * which is what makes blocks this small compress well. The file layout is in
 * docs/SOLVED.md.
 */
#ifndef CROWN_SOLVE_KVS_PACK_H
#define CROWN_SOLVE_KVS_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "solve/kvs_file.h"
#include "solve/kvs_retro.h"

#define KVS_PACK_MAGIC "crown-kvs-packed 2\n"
/* The first format, which stored the wins' distances and had no base. */
#define KVS_PACK_MAGIC_1 "crown-kvs-packed 1\n"

/* The value byte the packed form gives a win: its distance is not stored (no real
 * value comes near: the longest result is 97 plies). Even, as every win's value is. */
enum { KVS_PACK_WON = 254 };

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

/* Writes the packed form of a finished table: its values (ix->size bytes), coded
 * against base's values if base is not NULL (the head then names the base: fields
 * `base` and `base-checksum`), the text head of its header to repeat (rules, checksum,
 * counts: the full table's), through a temporary file. */
Status kvs_pack_write(const char *path, const KvsIndex *ix, const uint8_t *values,
                      const uint8_t *base, const char *head, const KvsPackOptions *opt,
                      KvsPackStats *stats, ErrBuf *err);

typedef struct KvsPacked KvsPacked;

/* Reads the packed layout after the header (`body`, `len` bytes, mapped by the caller
 * and kept while the result lives), for a table of `entries` entries, with the opened
 * base the header names (NULL if it names none; kept by the caller while the result
 * lives); STATUS_CORRUPT if the header's figures or the index of blocks do not add up,
 * or the base does not fit. */
Status kvs_packed_open(const char *header, const uint8_t *body, uint64_t len, uint64_t entries,
                       const KvsPacked *base, KvsPacked **out, ErrBuf *err);
void kvs_packed_close(KvsPacked *pk);

/* The value byte of entry i (kvs_retro.h's, KVS_PACK_WON for a win), through the cache;
 * safe from any thread. STATUS_CORRUPT if its block does not decompress. */
Status kvs_packed_entry(const KvsPacked *pk, uint64_t i, uint8_t *out, ErrBuf *err);

/* Entries [start, start + n) into out as kvs_packed_entry gives them, block by block
 * without the cache (for whole-table passes). */
Status kvs_packed_range(const KvsPacked *pk, uint64_t start, uint64_t n, uint8_t *out,
                        ErrBuf *err);

#endif
