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
 *
 * A game whose repetitions reach back only to its last irreversible move (a 50-move
 * count bounds them) may keep a ring instead, so the state does not grow with the game:
 * len then counts every push, entry i lives in words[i % cap], and the scan is bounded
 * by the caller's span. A push over an old entry hands it back for the undo record, so
 * that unmaking restores the words byte for byte. Rings have no filter.
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
    uint16_t ring;     /* 1 if the entries wrap around (see above) */
} RepHistory;

/* Bytes of the words of a history of `cap` entries, with or without the filter. */
size_t rep_history_bytes(int cap, bool filtered);

/* An empty history over zeroed words. */
void rep_history_init(RepHistory *h, uint64_t *words, int cap, bool filtered);
/* An empty ring of `cap` entries over zeroed words; cap must exceed the longest span
 * the game scans. */
void rep_history_init_ring(RepHistory *h, uint64_t *words, int cap);

/* The filter's bucket of a hash, and 1 in the place of its count within its word.
 * Pushing and scanning happen on every move of a search, so they are inline. */
static inline unsigned rep_bucket(uint64_t hash)
{
    return (unsigned)(hash >> 54);
}
static inline unsigned rep_count_shift(uint64_t hash)
{
    return rep_bucket(hash) % REP_COUNTS_PER_WORD * 16;
}
static inline uint64_t rep_count_one(uint64_t hash)
{
    return 1ULL << rep_count_shift(hash);
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

/* The word of entry i: i itself until a ring wraps (no division on the common path). */
static inline unsigned rep_slot(const RepHistory *h, unsigned i)
{
    return i < h->cap ? i : i % h->cap;
}

/* Pushes onto a ring and returns the entry it overwrote (for rep_history_pop_ring). */
static inline uint64_t rep_history_push_ring(RepHistory *h, uint64_t *words, uint64_t hash)
{
    uint64_t *slot = &words[rep_slot(h, h->len++)];
    const uint64_t old = *slot;
    *slot = hash;
    return old;
}

/* Removes the newest entry of a ring, putting back what its push overwrote. */
static inline void rep_history_pop_ring(RepHistory *h, uint64_t *words, uint64_t old)
{
    words[rep_slot(h, --h->len)] = old;
}

/* The newest entry; the history must not be empty. */
static inline uint64_t rep_history_newest(const RepHistory *h, const uint64_t *words)
{
    return words[rep_slot(h, h->len - 1u)];
}

/* Earlier occurrences of the newest entry with the same player to move: among the
 * entries 2, 4, 6... up to `span` before it (no further than the oldest entry, and, in a
 * ring, than cap - 1). The history must not be empty. */
static inline int rep_history_earlier_within(const RepHistory *h, const uint64_t *words,
                                             int span)
{
    int count = 0;
    const int newest = (int)rep_slot(h, h->len - 1u);
    const uint64_t last = words[newest];
    if (span > (int)h->len - 1)
        span = (int)h->len - 1;
    if (span > (int)h->cap - 1)
        span = (int)h->cap - 1;
    // A ring wraps below index 0 to its top; the loop is split there rather than taking
    // a modulo per entry.
    const int stop = newest - span;
    int i = newest - 2;
    for (; i >= 0 && i >= stop; i -= 2)
        count += words[i] == last;
    for (i += h->cap; i >= stop + (int)h->cap; i -= 2)
        count += words[i] == last;
    return count;
}

/* The same over the whole history. */
static inline int rep_history_earlier(const RepHistory *h, const uint64_t *words)
{
    return rep_history_earlier_within(h, words, (int)h->len - 1);
}

/* True when the newest entry is at least the third occurrence of its position (two
 * earlier ones, same player to move); the filter, when there is one, answers most
 * positions without the scan: fewer than three entries in the bucket. */
static inline bool rep_history_threefold(const RepHistory *h, const uint64_t *words)
{
    if (h->len == 0)
        return false;
    const uint64_t last = words[h->len - 1];
    if (h->filtered && (words[rep_count_word(h, last)] >> rep_count_shift(last) & 0xffffu) < 3)
        return false;
    return rep_history_earlier(h, words) >= 2;
}

/* Checks the header against cap and filtered, that unused entries are zero, that the
 * filter counts the entries and, when `current`, that the newest entry is `hash` (the
 * position the state is in); false with a message otherwise. */
bool rep_history_is_ok(const RepHistory *h, const uint64_t *words, int cap, bool filtered,
                       bool current, uint64_t hash, ErrBuf *err);

#endif
