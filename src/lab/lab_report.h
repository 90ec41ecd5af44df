/*
 * lab_report.h - DIR/report.html: a study's summary as a page that opens from disk
 * without a network, its plots drawn by gnuplot (Debian's gnuplot-nox) as SVG and
 * embedded in the page.
 */
#ifndef CROWN_LAB_REPORT_H
#define CROWN_LAB_REPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "core/status.h"

/* Writes DIR/report.html from the summary. When gnuplot cannot be run the page is written
 * without plots, saying so, and *plotted is false. */
Status lab_report_write(const json_t *summary, const char *dir, bool *plotted, ErrBuf *err);

#endif
