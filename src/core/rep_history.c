/*
 * rep_history.c - the position history of repetition draws (see rep_history.h).
 */
#include "core/rep_history.h"

#include <string.h>

size_t rep_history_bytes(int cap, bool filtered)
{
    return sizeof(uint64_t) * ((size_t)cap + (filtered ? REP_FILTER_WORDS : 0));
}

void rep_history_init(RepHistory *h, uint64_t *words, int cap, bool filtered)
{
    h->len = 0;
    h->cap = (uint16_t)cap;
    h->filtered = filtered;
    h->ring = 0;
    memset(words, 0, rep_history_bytes(cap, filtered));
}

void rep_history_init_ring(RepHistory *h, uint64_t *words, int cap)
{
    rep_history_init(h, words, cap, false);
    h->ring = 1;
}

bool rep_history_is_ok(const RepHistory *h, const uint64_t *words, int cap, bool filtered,
                       bool current, uint64_t hash, ErrBuf *err)
{
    if (h->cap != cap || h->filtered != filtered || h->ring > 1 || (h->ring && filtered))
        return err_set(err, STATUS_ILLEGAL, "history header is inconsistent"), false;
    if (h->len > cap && !h->ring)
        return err_set(err, STATUS_ILLEGAL, "history overflow"), false;
    if (current && (h->len < 1 || rep_history_newest(h, words) != hash))
        return err_set(err, STATUS_ILLEGAL, "position history is inconsistent"), false;
    for (int i = h->len; i < cap; i++)
        if (words[i] != 0)
            return err_set(err, STATUS_ILLEGAL, "stale history entry at %d", i), false;
    if (!filtered)
        return true;
    uint64_t counts[REP_FILTER_WORDS] = {0};
    for (int i = 0; i < h->len; i++)
        counts[rep_bucket(words[i]) / REP_COUNTS_PER_WORD] += rep_count_one(words[i]);
    if (memcmp(counts, words + cap, sizeof counts) != 0)
        return err_set(err, STATUS_ILLEGAL, "repetition filter differs from the history"), false;
    return true;
}
