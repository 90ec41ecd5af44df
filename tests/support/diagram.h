/*
 * diagram.h - turns a board drawn as text rows into a position text, so that rule tests
 * can show the board they test instead of a hard-to-read position string.
 *
 * A diagram is an array of rows from the top rank down, one character per square
 * separated by single spaces: K S k s # or '.' for an empty square, e.g. "s s k s s".
 */
#ifndef CROWN_TESTS_SUPPORT_DIAGRAM_H
#define CROWN_TESTS_SUPPORT_DIAGRAM_H

#include <stdbool.h>
#include <stddef.h>

/* Writes "<ranks> <to_move> <ply>" into out (runs of '.' become digits, ranks joined by
 * '/'). to_move is 1 or 2 as in the position text. False if a row is malformed, the rows
 * differ in length, a row is wider than 9 squares, or out is too small. */
bool diagram_position(const char *const *rows, int n_rows, int to_move, int ply, char *out,
                      size_t cap);

/* The board part of a FEN-style position text, written into out: rows[r][f * stride] is
 * the piece on file f of the r-th rank from the top ('.' empty), runs of empty squares
 * become their count, ranks are joined by '/'. Returns the length written; out must hold
 * it. For boards of any width (King Down's, whose pieces diagram_position does not know). */
size_t diagram_ranks(const char *const *rows, int n_rows, int files, int stride, char *out,
                     size_t cap);

#endif
