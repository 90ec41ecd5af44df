/*
 * lab_report.h - DIR/report.html: a study's summary as a page that opens from disk
 * without a network, its plots drawn by gnuplot (Debian's gnuplot-nox) as SVG and
 * embedded in the page. Its words are English, each marked with its message of the web
 * app's catalogues (data-i18n="report.KEY", data-i18n-args with the numbers and names),
 * which the web lab says in its reader's language (web/messages.h).
 */
#ifndef CROWN_LAB_REPORT_H
#define CROWN_LAB_REPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "core/status.h"
#include "lab/lab_study.h"

/* Writes DIR/report.html from the summary. When gnuplot cannot be run the page is written
 * without plots, saying so, and *plotted is false. */
Status lab_report_write(const json_t *summary, const char *dir, bool *plotted, ErrBuf *err);

/* What follows a run or a merge in DIR (study.json and results.csv written): loads the
 * study into *st and its rows, writes summary.json and, unless st is a shard, the report.
 * *games and *failed count the rows; *plotted as for lab_report_write. */
Status lab_report_study(LabStudy *st, const char *dir, long *games, long *failed, bool *plotted,
                        ErrBuf *err);

/* The name of plot i, drawn into DIR/plots/NAME.svg, or NULL past the last: whoever
 * deletes a study's folder removes only the files the lab wrote. */
const char *lab_report_plot_name(int i);

#endif
