/*
 * perft_table.h - the committed perft tables, tests/perft/<game>.perft: finding one from a
 * test program, and reading it line by line.
 *
 * Every table has one layout, a position a line:
 *     <game> [name=value ...] ;<position text> ;D1 n ;D2 n ...
 * with '#' comments and blank lines between. A count is a letter, a depth and the number
 * of leaves expected: Dk counts leaves k actions deep; a game may give other letters a
 * meaning of its own (King's Guard's Tk counts whole turns). The reader knows no game: it
 * only takes lines apart, and fails the test on any it cannot read.
 */
#ifndef CROWN_TESTS_SUPPORT_PERFT_TABLE_H
#define CROWN_TESTS_SUPPORT_PERFT_TABLE_H

#include <stddef.h>
#include <stdint.h>

enum {
    PERFT_TABLE_MAX_SETTINGS = 12,
    PERFT_TABLE_MAX_COUNTS = 16,
    PERFT_TABLE_MAX_DEPTH = 12, /* a deeper count is a typing error: it would never finish */
    PERFT_TABLE_PATH = 4096,
};

typedef struct PerftCount {
    char kind; /* 'D', or a letter the game's test defines */
    int depth;
    uint64_t leaves;
} PerftCount;

/* One position of a table. The strings point into the reader's line buffer and live only
 * for the callback. */
typedef struct PerftLine {
    int line_no;
    const char *game;
    const char *settings[PERFT_TABLE_MAX_SETTINGS];
    int n_settings;
    const char *position;
    PerftCount counts[PERFT_TABLE_MAX_COUNTS];
    int n_counts;
} PerftLine;

typedef void (*PerftLineFn)(const PerftLine *line, void *ctx);

/* Where tests/perft/<file> is: under $CROWN_ROOT when set, else relative to the working
 * directory when there, else relative to the test binary (build/<variant>/tests/). */
void perft_table_path(const char *argv0, const char *file, char *out, size_t cap);

/* Calls each_line for every position of the table at path; returns how many there were. */
int perft_table_read(const char *path, PerftLineFn each_line, void *ctx);

#endif
