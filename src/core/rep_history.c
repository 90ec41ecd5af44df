/*
 * rep_history.c - the position history of repetition draws (see rep_history.h).
 */
#include "core/rep_history.h"

#include <string.h>

enum { COUNTS_PER_WORD = 4, FILTER_WORDS = REP_FILTER_BUCKETS / COUNTS_PER_WORD };

static inline unsigned bucket_of(uint64_t hash)
{
    return (unsigned)(hash >> 54);
}

/* The filter's word and bit shift of hash's bucket. */
static inline uint64_t *filter_word(const RepHistory *h, uint64_t *words, uint64_t hash,
                                    unsigned *shift)
{
    const unsigned b = bucket_of(hash);
    *shift = (b % COUNTS_PER_WORD) * 16;
    return &words[h->cap + b / COUNTS_PER_WORD];
}

static inline unsigned bucket_count(const RepHistory *h, const uint64_t *words, uint64_t hash)
{
    const unsigned b = bucket_of(hash);
    return (unsigned)(words[h->cap + b / COUNTS_PER_WORD] >> (b % COUNTS_PER_WORD * 16)) &
           0xffffu;
}

size_t rep_history_bytes(int cap, bool filtered)
{
    return sizeof(uint64_t) * ((size_t)cap + (filtered ? FILTER_WORDS : 0));
}

void rep_history_init(RepHistory *h, uint64_t *words, int cap, bool filtered)
{
    h->len = 0;
    h->cap = (uint16_t)cap;
    h->filtered = filtered;
    h->pad = 0;
    memset(words, 0, rep_history_bytes(cap, filtered));
}

void rep_history_clear(RepHistory *h, uint64_t *words)
{
    rep_history_init(h, words, h->cap, h->filtered);
}

void rep_history_push(RepHistory *h, uint64_t *words, uint64_t hash)
{
    words[h->len++] = hash;
    if (h->filtered) {
        unsigned shift;
        *filter_word(h, words, hash, &shift) += 1ULL << shift;
    }
}

void rep_history_pop(RepHistory *h, uint64_t *words)
{
    const uint64_t hash = words[--h->len];
    words[h->len] = 0;
    if (h->filtered) {
        unsigned shift;
        *filter_word(h, words, hash, &shift) -= 1ULL << shift;
    }
}

int rep_history_earlier(const RepHistory *h, const uint64_t *words)
{
    int count = 0;
    const uint64_t last = words[h->len - 1];
    for (int i = (int)h->len - 3; i >= 0; i -= 2)
        count += words[i] == last;
    return count;
}

bool rep_history_threefold(const RepHistory *h, const uint64_t *words)
{
    if (h->len == 0)
        return false;
    if (h->filtered && bucket_count(h, words, words[h->len - 1]) < 3)
        return false;
    return rep_history_earlier(h, words) >= 2;
}

bool rep_history_is_ok(const RepHistory *h, const uint64_t *words, int cap, bool filtered,
                       ErrBuf *err)
{
    if (h->cap != cap || h->filtered != filtered || h->pad != 0)
        return err_set(err, STATUS_ILLEGAL, "history header is inconsistent"), false;
    if (h->len > cap)
        return err_set(err, STATUS_ILLEGAL, "history overflow"), false;
    for (int i = h->len; i < cap; i++)
        if (words[i] != 0)
            return err_set(err, STATUS_ILLEGAL, "stale history entry at %d", i), false;
    if (!filtered)
        return true;
    uint64_t counts[FILTER_WORDS] = {0};
    for (int i = 0; i < h->len; i++) {
        const unsigned b = bucket_of(words[i]);
        counts[b / COUNTS_PER_WORD] += 1ULL << (b % COUNTS_PER_WORD * 16);
    }
    if (memcmp(counts, words + cap, sizeof counts) != 0)
        return err_set(err, STATUS_ILLEGAL, "repetition filter differs from the history"), false;
    return true;
}
