/*
 * tt.h - the transposition table of alpha-beta: a caller-owned object (no globals) of
 * 2^k buckets of four 16-byte entries, one cache line each.
 *
 * A bucket is picked by the low bits of the position key and an entry is recognised by
 * the key's high 32 bits, so two positions share an entry only if their keys agree in
 * 32 + k bits; the search checks a stored move against the legal moves before trusting
 * it. Scores are stored relative to the node (see tt_score_to_tt) so that a win found
 * through a transposition keeps its correct distance.
 */
#ifndef CROWN_SEARCH_TT_H
#define CROWN_SEARCH_TT_H

#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/mem.h"
#include "core/status.h"

/* What a score in an entry means relative to the true value. */
enum TTBound {
    TT_BOUND_NONE = 0,  /* empty entry */
    TT_BOUND_UPPER = 1, /* true value <= score (every move failed low) */
    TT_BOUND_LOWER = 2, /* true value >= score (a move failed high) */
    TT_BOUND_EXACT = 3, /* score is the value at that depth */
};

enum {
    TT_BUCKET_ENTRIES = 4,
    TT_AGE_BITS = 6,
    TT_AGE_MASK = (1 << TT_AGE_BITS) - 1,
};

typedef struct TTEntry {
    uint32_t check;    /* high 32 bits of the key */
    Move move;         /* best or refuting move, or MOVE_NONE */
    int32_t score;     /* node-relative (tt_score_to_tt) */
    uint8_t depth;     /* remaining depth the entry was searched to */
    uint8_t bound_age; /* enum TTBound in the low 2 bits, search age above */
    uint16_t pad;
} TTEntry;

typedef struct TTBucket {
    TTEntry e[TT_BUCKET_ENTRIES];
} TTBucket;

typedef struct TTable {
    TTBucket *buckets;
    const Mem *mem; /* where buckets came from (NULL: the C library) */
    uint64_t mask; /* bucket count - 1 */
    unsigned age;  /* of the current search, 0..TT_AGE_MASK */
} TTable;

/* A probe's answer, with the score already converted back to the probing node. */
typedef struct TTHit {
    Move move;
    int score;
    int depth;
    int bound; /* enum TTBound */
} TTHit;

/* Allocates the largest power-of-two number of buckets that fits in `bytes` (at least
 * one bucket) and clears them. On STATUS_NOMEM *tt is left empty (tt_free is safe). */
Status tt_init(TTable *tt, size_t bytes, const Mem *mem, ErrBuf *err);
/* Releases the table; *tt becomes an empty table. Safe on an empty table. */
void tt_free(TTable *tt);
/* Forgets every entry and resets the age, so a cleared table behaves as a new one. */
void tt_clear(TTable *tt);
/* Starts a new search: entries of older searches become the first to be replaced. */
void tt_new_search(TTable *tt);
/* Bytes held by the table. */
size_t tt_bytes(const TTable *tt);
/* The permille of entries written by the current search, from a sample of the first
 * buckets (UCI's hashfull). */
int tt_hashfull(const TTable *tt);

/* Looks `key` up; true with *hit filled if found. `ply` is the node's distance from the
 * root, for the score conversion. */
bool tt_probe(const TTable *tt, uint64_t key, int ply, TTHit *hit);
/* Records a search result for `key`. `score` is from the node's view and `ply` its
 * distance from the root. Within the bucket the same key is overwritten (keeping its
 * move when `move` is MOVE_NONE) unless the old entry of this search is much deeper;
 * otherwise the shallowest, oldest entry is replaced. */
void tt_store(TTable *tt, uint64_t key, int ply, Move move, int score, int depth, int bound);

/* Decisive scores are stored as distances from the node, not from the root. */
int tt_score_to_tt(int score, int ply);
int tt_score_from_tt(int score, int ply);

#endif
