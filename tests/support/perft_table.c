/*
 * perft_table.c - reading the perft tables (see perft_table.h). Strict: a line it cannot
 * take apart fails the test, so that a mistyped table never passes by checking less.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "perft_table.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LINE_CAP = 8192 };

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

void perft_table_path(const char *argv0, const char *file, char *out, size_t cap)
{
    char rel[PERFT_TABLE_PATH];
    snprintf(rel, sizeof rel, "tests/perft/%s", file);
    const char *root = getenv("CROWN_ROOT");
    if (root != NULL) {
        snprintf(out, cap, "%s/%s", root, rel);
        return;
    }
    if (access(rel, R_OK) == 0) {
        snprintf(out, cap, "%s", rel);
        return;
    }
    const char *slash = strrchr(argv0, '/');
    const int dir_len = slash ? (int)(slash - argv0) : 1;
    snprintf(out, cap, "%.*s/../../../%s", dir_len, slash ? argv0 : ".", rel);
}

/* "D3 1570": the count's letter, depth and leaves, nothing else. */
static void parse_count(char *field, int line_no, PerftCount *out)
{
    char kind;
    int depth, used = 0;
    unsigned long long leaves;
    const char *t = trim(field);
    if (sscanf(t, "%c%d %llu%n", &kind, &depth, &leaves, &used) != 3 || t[used] != '\0' ||
        !isupper((unsigned char)kind) || depth < 1 || depth > PERFT_TABLE_MAX_DEPTH)
        fail_msg("perft table line %d: bad count '%s'", line_no, t);
    out->kind = kind;
    out->depth = depth;
    out->leaves = leaves;
}

/* Takes the line apart in place. */
static void parse_line(char *text, int line_no, PerftLine *out)
{
    memset(out, 0, sizeof *out);
    out->line_no = line_no;
    char *head = text;
    char *semi = strchr(head, ';');
    if (semi == NULL)
        fail_msg("perft table line %d: expected <game> ;<position> ;D1 n", line_no);
    *semi = '\0';
    char *position = semi + 1;
    semi = strchr(position, ';');
    if (semi == NULL)
        fail_msg("perft table line %d: no counts after the position", line_no);
    *semi = '\0';
    out->position = trim(position);

    char *save = NULL;
    out->game = strtok_r(head, " \t", &save);
    if (out->game == NULL)
        fail_msg("perft table line %d: no game name", line_no);
    for (char *w = strtok_r(NULL, " \t", &save); w != NULL; w = strtok_r(NULL, " \t", &save)) {
        if (out->n_settings == PERFT_TABLE_MAX_SETTINGS)
            fail_msg("perft table line %d: too many settings", line_no);
        out->settings[out->n_settings++] = w;
    }

    for (char *field = semi + 1; field != NULL;) {
        char *next = strchr(field, ';');
        if (next != NULL)
            *next++ = '\0';
        if (out->n_counts == PERFT_TABLE_MAX_COUNTS)
            fail_msg("perft table line %d: too many counts", line_no);
        parse_count(field, line_no, &out->counts[out->n_counts++]);
        field = next;
    }
}

int perft_table_read(const char *path, PerftLineFn each_line, void *ctx)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s (run from the source root or set CROWN_ROOT)", path);
    char *buf = malloc(LINE_CAP);
    PerftLine *line = malloc(sizeof *line);
    assert_true(buf != NULL && line != NULL);
    int line_no = 0, positions = 0;
    while (fgets(buf, LINE_CAP, f) != NULL) {
        line_no++;
        if (strchr(buf, '\n') == NULL && !feof(f))
            fail_msg("%s line %d: longer than %d characters", path, line_no, LINE_CAP - 1);
        char *t = trim(buf);
        if (t[0] == '\0' || t[0] == '#')
            continue;
        parse_line(t, line_no, line);
        each_line(line, ctx);
        positions++;
    }
    free(line);
    free(buf);
    fclose(f);
    return positions;
}
