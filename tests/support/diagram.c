/*
 * diagram.c - board diagrams to position text (see diagram.h). Strict about the layout
 * so that a mistyped diagram fails loudly instead of testing some other position.
 */
#include "diagram.h"

#include <stdio.h>
#include <string.h>

/* Appends c to out at *n; false when it would not fit with the terminator. */
static bool put(char *out, size_t cap, size_t *n, char c)
{
    if (*n + 1 >= cap)
        return false;
    out[(*n)++] = c;
    out[*n] = '\0';
    return true;
}

bool diagram_position(const char *const *rows, int n_rows, int to_move, int ply, char *out,
                      size_t cap)
{
    if (cap == 0 || n_rows <= 0 || (to_move != 1 && to_move != 2) || ply < 0)
        return false;
    size_t n = 0;
    out[0] = '\0';
    int width = -1;
    for (int r = 0; r < n_rows; r++) {
        const char *row = rows[r];
        size_t len = strlen(row);
        /* "x x x": squares at even offsets, single spaces at odd ones. */
        if (len == 0 || len % 2 == 0)
            return false;
        int squares = (int)(len + 1) / 2;
        if (squares > 9 || (width >= 0 && squares != width))
            return false;
        width = squares;
        int empty = 0;
        for (size_t i = 0; i < len; i++) {
            char c = row[i];
            if (i % 2 == 1) {
                if (c != ' ')
                    return false;
                continue;
            }
            if (c == '.') {
                empty++;
                continue;
            }
            if (strchr("KSks#", c) == NULL)
                return false;
            if (empty > 0 && !put(out, cap, &n, (char)('0' + empty)))
                return false;
            empty = 0;
            if (!put(out, cap, &n, c))
                return false;
        }
        if (empty > 0 && !put(out, cap, &n, (char)('0' + empty)))
            return false;
        if (r + 1 < n_rows && !put(out, cap, &n, '/'))
            return false;
    }
    char tail[32];
    snprintf(tail, sizeof tail, " %d %d", to_move, ply);
    for (const char *p = tail; *p != '\0'; p++)
        if (!put(out, cap, &n, *p))
            return false;
    return true;
}

size_t diagram_ranks(const char *const *rows, int n_rows, int files, int stride, char *out,
                     size_t cap)
{
    size_t n = 0;
    for (int r = 0; r < n_rows; r++) {
        int run = 0;
        for (int f = 0; f < files; f++) {
            const char ch = rows[r][f * stride];
            if (ch == '.') {
                run++;
                continue;
            }
            if (run)
                n += (size_t)snprintf(out + n, cap - n, "%d", run);
            run = 0;
            n += (size_t)snprintf(out + n, cap - n, "%c", ch);
        }
        if (run)
            n += (size_t)snprintf(out + n, cap - n, "%d", run);
        if (r + 1 < n_rows)
            n += (size_t)snprintf(out + n, cap - n, "/");
    }
    return n;
}
