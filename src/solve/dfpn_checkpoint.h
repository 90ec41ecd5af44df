/*
 * dfpn_checkpoint.h - the prover's state on disk (crown prove --checkpoint), so that a
 * proof longer than one budget, one session or one boot goes on where it stopped: the
 * question (game, rules, position), the runs begun and their root numbers, the nodes
 * and seconds spent, and the transposition table's entries. df-pn restarts from the root
 * with whatever its table holds, so the table is the whole state worth keeping.
 *
 * The file is a few text lines, then the entries as little-endian binary, then a
 * checksum of everything before it. It is written aside and renamed over the old one,
 * so a kill leaves one or the other, and it is read back only for the same question and
 * refused whole when damaged.
 */
#ifndef CROWN_SOLVE_DFPN_CHECKPOINT_H
#define CROWN_SOLVE_DFPN_CHECKPOINT_H

#include <stdint.h>

#include "core/game.h"
#include "core/status.h"
#include "core/strbuf.h"

/* One transposition table entry of the prover (dfpn.c); work 0 marks an empty slot. */
typedef struct DfpnEntry {
    uint64_t key;
    uint32_t pn, dn;
    uint32_t work;  /* nodes spent on it, for replacement */
    int32_t depth;  /* plies from the root it was found at */
} DfpnEntry;

enum { DFPN_CKPT_VERSION = 1, DFPN_CKPT_MAX_RUNS = 2 };

/* A win-or-not run: "does `attacker` win?", with its root numbers when written (a proof
 * when pn is 0, a disproof when dn is 0, else still open). */
typedef struct DfpnCkptRun {
    int attacker;
    uint32_t pn, dn;
} DfpnCkptRun;

typedef struct DfpnCkptInfo {
    int n_runs; /* runs begun, in order; the table is the last one's */
    DfpnCkptRun runs[DFPN_CKPT_MAX_RUNS];
    uint64_t nodes; /* over every session so far */
    double seconds;
    uint64_t entries; /* in the file */
} DfpnCkptInfo;

/* The question as the file states it: "game", one "rule NAME=VALUE" per option of the
 * game (every option, so that a default changed later cannot pass for the same rules)
 * and "position", one a line. */
void dfpn_ckpt_question(const Game *g, const GameState *s, StrBuf *out);

/* Writes the checkpoint to path (by way of path.tmp): the question, info and the used
 * slots of table[0..slots). *bytes gets the file's size. */
Status dfpn_ckpt_write(const char *path, const char *question, const DfpnCkptInfo *info,
                       const DfpnEntry *table, uint64_t slots, uint64_t *bytes, ErrBuf *err);

/* Reads the checkpoint at path for `question`: STATUS_NOT_FOUND when there is none,
 * STATUS_CONFLICT when it was written for another question, STATUS_CORRUPT when it is
 * damaged, cut short or of another format version, each with a message that names the
 * file. insert(ctx, entry) takes each entry as it is read; on an error after some were
 * given, the caller must drop them. */
typedef void (*DfpnCkptInsert)(void *ctx, const DfpnEntry *e);
Status dfpn_ckpt_read(const char *path, const char *question, DfpnCkptInfo *info,
                      DfpnCkptInsert insert, void *ctx, ErrBuf *err);

typedef struct DfpnShrinkStats {
    uint64_t entries_before, entries; /* in the checkpoint read, in the one written */
    uint32_t least_work;              /* of the entries kept */
    uint64_t bytes;                   /* of the file written */
} DfpnShrinkStats;

/* Writes to `to` a copy of the checkpoint at `from`, of any question, that keeps only
 * its `keep` entries of most work (ties to the lower key), in key order, and its head
 * as it is: a file small enough to keep or share that resumes the search with the
 * numbers of the nodes it worked on most, the cheap ones found again when needed.
 * `from`'s errors as dfpn_ckpt_read's. */
Status dfpn_ckpt_shrink(const char *from, const char *to, uint64_t keep, DfpnShrinkStats *stats,
                        ErrBuf *err);

#endif
