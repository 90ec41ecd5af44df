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

void rep_history_push(RepHistory *h, uint64_t *words, uint64_t hash);
/* Removes the newest entry; the history must not be empty. */
void rep_history_pop(RepHistory *h, uint64_t *words);

/* Earlier occurrences of the newest entry with the same player to move: among the
 * entries 2, 4, 6... before it. */
int rep_history_earlier(const RepHistory *h, const uint64_t *words);

/* True when the newest entry is at least the third occurrence of its position (two
 * earlier ones, same player to move); the filter, when there is one, answers most
 * positions without the scan. */
bool rep_history_threefold(const RepHistory *h, const uint64_t *words);

/* Checks the header against cap and filtered, that unused entries are zero, that the
 * filter counts the entries and, when `current`, that the newest entry is `hash` (the
 * position the state is in); false with a message otherwise. */
bool rep_history_is_ok(const RepHistory *h, const uint64_t *words, int cap, bool filtered,
                       bool current, uint64_t hash, ErrBuf *err);

#endif
