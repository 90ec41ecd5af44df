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

/* The filter's word holding hash's bucket count. */
static inline size_t count_word(const RepHistory *h, uint64_t hash)
{
    return h->cap + bucket_of(hash) / COUNTS_PER_WORD;
}

/* 1 in the position of hash's bucket count within its word. */
static inline uint64_t count_one(uint64_t hash)
{
    return 1ULL << (bucket_of(hash) % COUNTS_PER_WORD * 16);
}

static inline unsigned bucket_count(const RepHistory *h, const uint64_t *words, uint64_t hash)
{
    return (unsigned)(words[count_word(h, hash)] / count_one(hash)) & 0xffffu;
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

void rep_history_push(RepHistory *h, uint64_t *words, uint64_t hash)
{
    words[h->len++] = hash;
    if (h->filtered)
        words[count_word(h, hash)] += count_one(hash);
}

void rep_history_pop(RepHistory *h, uint64_t *words)
{
    const uint64_t hash = words[--h->len];
    words[h->len] = 0;
    if (h->filtered)
        words[count_word(h, hash)] -= count_one(hash);
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
                       bool current, uint64_t hash, ErrBuf *err)
{
    if (h->cap != cap || h->filtered != filtered || h->pad != 0)
        return err_set(err, STATUS_ILLEGAL, "history header is inconsistent"), false;
    if (h->len > cap)
        return err_set(err, STATUS_ILLEGAL, "history overflow"), false;
    if (current && (h->len < 1 || words[h->len - 1] != hash))
        return err_set(err, STATUS_ILLEGAL, "position history is inconsistent"), false;
    for (int i = h->len; i < cap; i++)
        if (words[i] != 0)
            return err_set(err, STATUS_ILLEGAL, "stale history entry at %d", i), false;
    if (!filtered)
        return true;
    uint64_t counts[FILTER_WORDS] = {0};
    for (int i = 0; i < h->len; i++) {
        counts[bucket_of(words[i]) / COUNTS_PER_WORD] += count_one(words[i]);
    }
    if (memcmp(counts, words + cap, sizeof counts) != 0)
        return err_set(err, STATUS_ILLEGAL, "repetition filter differs from the history"), false;
    return true;
}
