/*
 * lab_study.h - what a self-play study plays: a game, its rule sets (a baseline and the
 * variants compared with it, or the pairings of a skill ladder), the players of each,
 * how many games, and the seed every game's randomness comes from.
 *
 * Games are numbered 0 .. sets * games - 1 across the whole study, set by set; game i
 * of a set seats the players rotated by i and takes its seed from the study's seed and
 * its number alone, so a game plays the same whatever runs it: one thread or many, one
 * machine or a shard of many (shard s of n plays the games whose number is s - 1 mod n).
 * The study is kept as DIR/study.json beside the results so shards can be merged.
 */
#ifndef CROWN_LAB_STUDY_H
#define CROWN_LAB_STUDY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"
#include "search/limits.h"

/* LAB_SETUP holds the longest start position (King of the Valley's, with its piles). */
enum { LAB_MAX_SETS = 128, LAB_MAX_LADDER = 10, LAB_TEXT = 256, LAB_SETUP = 1024 };

typedef struct LabSet {
    char label[LAB_TEXT];   /* what the report calls it: "baseline", "trap=opponent" */
    char rules[LAB_TEXT];   /* every setting of the set, "NAME=VALUE,NAME=VALUE" */
    char players[LAB_TEXT]; /* the players in seat order of its first game, "ai:1,random" */
} LabSet;

typedef struct LabStudy {
    char game[64];
    LabSet sets[LAB_MAX_SETS];
    int n_sets;
    long games; /* per set */
    uint64_t seed;
    SearchLimits limits; /* as given on the command line (cli_search_limits) */
    int ladder[LAB_MAX_LADDER]; /* the levels of a ladder study, n_ladder of them */
    int n_ladder;
    int shard, shards; /* this share of the study, 1 .. shards */
} LabStudy;

/* Fills *st for a plain study: set 0 is `rules` alone (the baseline), and each of the
 * n_compare texts "NAME=VALUE,..." a further set with those settings over the baseline's.
 * Every set is checked: the rules make a game and the players suit it. */
Status lab_study_plain(LabStudy *st, const char *game, const char *rules,
                       const char *const *compare, int n_compare, const char *players,
                       long games, uint64_t seed, const SearchLimits *limits, ErrBuf *err);

/* Fills *st for a ladder: every pair of the levels (ai:L) in a set of its own; for a game
 * whose seat count is a rule (`players`) not fixed by `rules`, also every three and four
 * of them at those seat counts. */
Status lab_study_ladder(LabStudy *st, const char *game, const char *rules, const int *levels,
                        int n_levels, long games, uint64_t seed, const SearchLimits *limits,
                        ErrBuf *err);

/* Reads "I/N" (1 <= I <= N) into the study's shard. */
Status lab_study_set_shard(LabStudy *st, const char *text, ErrBuf *err);

long lab_study_total(const LabStudy *st);
/* Whether game `index` belongs to this study's shard. */
bool lab_study_owns(const LabStudy *st, long index);
/* The seed of game `index`: its set-up, its chance draws and its players' randomness. */
uint64_t lab_game_seed(const LabStudy *st, long index);
/* The players of game `index` in seat order: its set's list rotated by the game's number
 * within the set. Writes "ai:1,random" style text. */
void lab_game_players(const LabStudy *st, long index, char *out, int cap);
/* The number of entries of a comma-separated player list. */
int lab_list_count(const char *list);
/* The rotation of game `index`: seat k holds entry (k + rotation) % count of the list. */
int lab_game_rotation(const LabStudy *st, long index);

/* Creates the configured game of set `set`. */
Status lab_set_game(const LabStudy *st, int set, Game **out, ErrBuf *err);

/* DIR/study.json, written and read back. */
Status lab_study_save(const LabStudy *st, const char *dir, ErrBuf *err);
Status lab_study_load(LabStudy *st, const char *dir, ErrBuf *err);
/* Whether two studies are the same but for their shard. */
bool lab_study_same(const LabStudy *a, const LabStudy *b);

#endif
