/*
 * lab_summary.h - the figures of a study, made from its rows alone: per rule set each
 * seat's and each player's win, draw and loss rates with 95% intervals (ranks and scores
 * when more than two play), why games ended, the distribution of lengths; the
 * significance of each set's differences from the baseline; the Elo ladder of a ladder
 * study. Written as DIR/summary.json; the report is drawn from the same object.
 */
#ifndef CROWN_LAB_SUMMARY_H
#define CROWN_LAB_SUMMARY_H

#include <jansson.h>

#include "lab/lab_results.h"
#include "lab/lab_study.h"

/* The summary of rows (sorted by game number) of study st; NULL when out of memory. */
json_t *lab_summary_build(const LabStudy *st, const LabRows *rows);

/* Writes DIR/summary.json: two-space indents, keys in a fixed order, reals to 6 digits, so
 * the same rows always give the same bytes. */
Status lab_summary_write(const json_t *summary, const char *dir, ErrBuf *err);

#endif
