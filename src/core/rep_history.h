/*
 * rep_history.h - the position history behind repetition draws: the hashes of the
 * positions met since set-up (or since the last turn start, for games that store only
 * those), newest last, with an optional filter that rules most positions out without a
 * scan.
 *
 * A GameState is plain data without pointers, so the history lives in the state: a small
 * RepHistory header among the state's fields and its words in a flexible array member at
 * the end of the state, sized by configure from the game's options (max-plies), so that
 * states are only as large as the game needs. The functions take both.
 *
 * The words hold `cap` hashes, then, with a filter, the count of entries per bucket of
 * the hash's top bits, four 16-bit counts a word: a position whose bucket holds fewer
 * than three entries cannot be a third occurrence. Entries beyond len stay zero, so that
 * equal histories compare equal with memcmp.
 */
#ifndef CROWN_CORE_REP_HISTORY_H
#define CROWN_CORE_REP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

enum {
    REP_FILTER_BUCKETS = 1024, /* buckets of the filter: the top ten bits of the hash */
    REP_COUNTS_PER_WORD = 4,
    REP_FILTER_WORDS = REP_FILTER_BUCKETS / REP_COUNTS_PER_WORD,
};

typedef struct RepHistory {
    uint16_t len;      /* entries used */
    uint16_t cap;      /* entries the words hold */
    uint16_t filtered; /* 1 if the bucket counts follow the entries */
    uint16_t pad;
} RepHistory;

/* Bytes of the words of a history of `cap` entries, with or without the filter. */
size_t rep_history_bytes(int cap, bool filtered);

/* An empty history over zeroed words. */
void rep_history_init(RepHistory *h, uint64_t *words, int cap, bool filtered);

/* The filter's bucket of a hash, and 1 in the place of its count within its word.
 * Pushing and scanning happen on every move of a search, so they are inline. */
static inline unsigned rep_bucket(uint64_t hash)
{
    return (unsigned)(hash >> 54);
}
static inline uint64_t rep_count_one(uint64_t hash)
{
    return 1ULL << (rep_bucket(hash) % REP_COUNTS_PER_WORD * 16);
}
static inline size_t rep_count_word(const RepHistory *h, uint64_t hash)
{
    return h->cap + rep_bucket(hash) / REP_COUNTS_PER_WORD;
}

static inline void rep_history_push(RepHistory *h, uint64_t *words, uint64_t hash)
{
    words[h->len++] = hash;
    if (h->filtered)
        words[rep_count_word(h, hash)] += rep_count_one(hash);
}

/* Removes the newest entry; the history must not be empty. */
static inline void rep_history_pop(RepHistory *h, uint64_t *words)
{
    const uint64_t hash = words[--h->len];
    words[h->len] = 0;
    if (h->filtered)
        words[rep_count_word(h, hash)] -= rep_count_one(hash);
}

/* Earlier occurrences of the newest entry with the same player to move: among the
 * entries 2, 4, 6... before it. */
static inline int rep_history_earlier(const RepHistory *h, const uint64_t *words)
{
    int count = 0;
    const uint64_t last = words[h->len - 1];
    for (int i = (int)h->len - 3; i >= 0; i -= 2)
        count += words[i] == last;
    return count;
}

/* True when the newest entry is at least the third occurrence of its position (two
 * earlier ones, same player to move); the filter, when there is one, answers most
 * positions without the scan: fewer than three entries in the bucket. */
static inline bool rep_history_threefold(const RepHistory *h, const uint64_t *words)
{
    if (h->len == 0)
        return false;
    const uint64_t last = words[h->len - 1];
    if (h->filtered && (words[rep_count_word(h, last)] / rep_count_one(last) & 0xffffu) < 3)
        return false;
    return rep_history_earlier(h, words) >= 2;
}

/* Checks the header against cap and filtered, that unused entries are zero, that the
 * filter counts the entries and, when `current`, that the newest entry is `hash` (the
 * position the state is in); false with a message otherwise. */
bool rep_history_is_ok(const RepHistory *h, const uint64_t *words, int cap, bool filtered,
                       bool current, uint64_t hash, ErrBuf *err);

#endif
