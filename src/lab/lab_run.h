/*
 * lab_run.h - playing a study's games (its shard's share) on several threads.
 */
#ifndef CROWN_LAB_RUN_H
#define CROWN_LAB_RUN_H

#include <stdatomic.h>

#include "lab/lab_results.h"
#include "lab/lab_study.h"

/* Called after each game, under the runner's lock: games done and to do in this run;
 * false starts no more games (a server stopping), and the run ends with those done. */
typedef bool LabProgress(void *ctx, long done, long total);

/* Plays every game of the study's shard on `jobs` threads into *rows, in game order (the
 * first ones only, when progress said stop). A game whose player fails is a row marked
 * failed with the reason; the run goes on. */
Status lab_run(const LabStudy *st, int jobs, LabProgress *progress, void *ctx, LabRows *rows,
               ErrBuf *err);
/* lab_run, and when *abort (if not NULL) is set the games in play end before their next
 * move, marked failed: a server stopping waits for one move, not for whole games. */
Status lab_run_until(const LabStudy *st, int jobs, LabProgress *progress, void *ctx,
                     const atomic_bool *abort, LabRows *rows, ErrBuf *err);

/* Plays game `index` of the study into *row; abort as in lab_run_until. */
void lab_play_game(const LabStudy *st, long index, const atomic_bool *abort, LabRow *row);

#endif
