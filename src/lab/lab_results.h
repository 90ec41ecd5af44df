/*
 * lab_results.h - one played game of a study as a row, and DIR/results.csv: one row per
 * game, in game order, written and read back (through Debian's libcsv).
 *
 * Columns: game (1-based number in the study), seed, set (1-based), rules, setup (the
 * start position), seats (the players in seat order), result ("1" when seat 1 wins
 * alone, "draw" when every seat is level, "1+3" for a shared first place, "failed"),
 * reason (the game's end reason key, or what failed), length (the players' actions, no
 * chance draws), returns and scores (one per seat, '|'-separated; scores empty when the
 * game keeps none), metrics (the game's measure figures, '|'-separated NAME=VALUE, with
 * one value per seat, ';'-separated, for a figure per player).
 */
#ifndef CROWN_LAB_RESULTS_H
#define CROWN_LAB_RESULTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"
#include "lab/lab_study.h"

typedef struct LabRow {
    long index; /* 0-based game number in the study */
    uint64_t seed;
    int set; /* 0-based */
    char setup[LAB_SETUP];
    char seats[LAB_TEXT];
    int players;
    bool failed;
    char reason[ERRBUF_LEN]; /* the end reason key; what went wrong when failed */
    int length;
    double returns[MAX_PLAYERS];
    bool scored;
    double scores[MAX_PLAYERS];
    int n_metrics; /* the game's measure figures, in its order; per seat when per player */
    double metrics[GAME_MAX_METRICS][MAX_PLAYERS];
} LabRow;

typedef struct LabRows {
    LabRow *row;
    long count, cap;
} LabRows;

void lab_rows_free(LabRows *r);
Status lab_rows_add(LabRows *r, const LabRow *row, ErrBuf *err);
/* Sorts by game number; STATUS_CONFLICT when a number is there twice. */
Status lab_rows_sort(LabRows *r, ErrBuf *err);

/* "1", "draw", "1+3" or "failed", from the returns. */
void lab_row_result(const LabRow *row, char *out, int cap);

Status lab_results_write(const LabStudy *st, const LabRows *rows, const char *dir, ErrBuf *err);
/* Appends the rows of DIR/results.csv to *rows, checking them against the study. */
Status lab_results_read(const LabStudy *st, const char *dir, LabRows *rows, ErrBuf *err);

#endif
