/*
 * tt.c - the transposition table: allocation, probe, and the replacement policy
 * (same key first, then empty, then the entry with the least depth left after ageing).
 */
#include "search/tt.h"

#include <stdlib.h>
#include <string.h>

#include "search/limits.h"

enum {
    TT_BUCKET_BYTES = (int)sizeof(TTBucket),
    TT_AGE_WEIGHT = 4,  /* one search of age costs as much as this much depth */
    TT_KEEP_DEEPER = 2, /* keep a same-search entry deeper than a new bound by more */
};

_Static_assert(sizeof(TTEntry) == 16, "a TT entry is 16 bytes");
_Static_assert(sizeof(TTBucket) == 64, "a TT bucket is one cache line");

static inline int entry_bound(const TTEntry *e)
{
    return e->bound_age & 3;
}

static inline unsigned entry_age(const TTEntry *e)
{
    return (unsigned)(e->bound_age >> 2);
}

/* How many searches ago the entry was written (0 = this search). */
static inline int age_distance(const TTable *tt, const TTEntry *e)
{
    return (int)((tt->age - entry_age(e)) & TT_AGE_MASK);
}

int tt_hashfull(const TTable *tt)
{
    if (tt->buckets == NULL)
        return 0;
    const uint64_t buckets = tt->mask + 1 < 250 ? tt->mask + 1 : 250;
    int used = 0;
    for (uint64_t b = 0; b < buckets; b++)
        for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
            const TTEntry *e = &tt->buckets[b].e[i];
            used += entry_bound(e) != TT_BOUND_NONE && age_distance(tt, e) == 0;
        }
    return (int)(used * 1000 / (buckets * TT_BUCKET_ENTRIES));
}

Status tt_init(TTable *tt, size_t bytes, const Mem *mem, ErrBuf *err)
{
    tt->buckets = NULL;
    tt->mem = mem;
    tt->mask = 0;
    tt->age = 0;
    size_t n = 1;
    while (n * 2 * TT_BUCKET_BYTES <= bytes && n < ((size_t)1 << 40))
        n *= 2;
    // aligned_alloc so that a bucket is exactly one cache line.
    TTBucket *b = mem_aligned_alloc(mem, TT_BUCKET_BYTES, n * TT_BUCKET_BYTES);
    if (b == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory for a %zu MB transposition table",
                       (n * TT_BUCKET_BYTES) >> 20);
    tt->buckets = b;
    tt->mask = n - 1;
    tt_clear(tt);
    return STATUS_OK;
}

void tt_free(TTable *tt)
{
    mem_aligned_free(tt->mem, tt->buckets);
    tt->buckets = NULL;
    tt->mask = 0;
    tt->age = 0;
}

void tt_clear(TTable *tt)
{
    if (tt->buckets != NULL)
        memset(tt->buckets, 0, (size_t)(tt->mask + 1) * TT_BUCKET_BYTES);
    tt->age = 0;
}

void tt_new_search(TTable *tt)
{
    tt->age = (tt->age + 1) & TT_AGE_MASK;
}

size_t tt_bytes(const TTable *tt)
{
    return tt->buckets == NULL ? 0 : (size_t)(tt->mask + 1) * TT_BUCKET_BYTES;
}

int tt_score_to_tt(int score, int ply)
{
    if (score >= SCORE_WIN_BOUND)
        return score + ply;
    if (score <= -SCORE_WIN_BOUND)
        return score - ply;
    return score;
}

int tt_score_from_tt(int score, int ply)
{
    if (score >= SCORE_WIN_BOUND)
        return score - ply;
    if (score <= -SCORE_WIN_BOUND)
        return score + ply;
    return score;
}

bool tt_probe(const TTable *tt, uint64_t key, int ply, TTHit *hit)
{
    const TTBucket *b = &tt->buckets[key & tt->mask];
    const uint32_t check = (uint32_t)(key >> 32);
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        const TTEntry *e = &b->e[i];
        if (e->check == check && entry_bound(e) != TT_BOUND_NONE) {
            hit->move = e->move;
            hit->score = tt_score_from_tt(e->score, ply);
            hit->depth = e->depth;
            hit->bound = entry_bound(e);
            return true;
        }
    }
    return false;
}

void tt_store(TTable *tt, uint64_t key, int ply, Move move, int score, int depth, int bound)
{
    TTBucket *b = &tt->buckets[key & tt->mask];
    const uint32_t check = (uint32_t)(key >> 32);
    TTEntry *slot = NULL;

    // Step 1. The same position: refresh it, unless this search already stored a much
    // deeper result there, which is worth more than a shallow bound.
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        TTEntry *e = &b->e[i];
        if (e->check == check && entry_bound(e) != TT_BOUND_NONE) {
            slot = e;
            break;
        }
    }
    if (slot != NULL) {
        if (bound != TT_BOUND_EXACT && age_distance(tt, slot) == 0 &&
            slot->depth > depth + TT_KEEP_DEEPER) {
            if (move != MOVE_NONE)
                slot->move = move;
            return;
        }
        if (move == MOVE_NONE)
            move = slot->move;
    } else {
        // Step 2. Otherwise the least valuable entry: empty first, then the one with
        // the least depth once old searches are discounted. Ties go to the first.
        int worst = 0;
        for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
            const TTEntry *e = &b->e[i];
            int value = entry_bound(e) == TT_BOUND_NONE
                            ? -1000
                            : e->depth - TT_AGE_WEIGHT * age_distance(tt, e);
            if (slot == NULL || value < worst) {
                slot = &b->e[i];
                worst = value;
            }
        }
    }

    slot->check = check;
    slot->move = move;
    slot->score = tt_score_to_tt(score, ply);
    slot->depth = (uint8_t)(depth < 0 ? 0 : depth > 255 ? 255 : depth);
    slot->bound_age = (uint8_t)((tt->age << 2) | (unsigned)bound);
    slot->pad = 0;
}
