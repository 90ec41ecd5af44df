/*
 * lab_results.c - the rows of a study and its results.csv. Numbers are written with as
 * many digits as they need to read back the same, so that a row read back is the row
 * written: the summary of a run and the summary of its shards merged are then made from
 * the same numbers.
 */
#include "lab/lab_results.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "play/registry.h"

static const char *const COLUMNS[] = {"game",   "seed",   "set",     "rules",  "setup",  "seats",
                                      "result", "reason", "length", "returns", "scores", "metrics"};
enum { N_COLUMNS = (int)(sizeof COLUMNS / sizeof COLUMNS[0]) };

void lab_rows_free(LabRows *r)
{
    free(r->row);
    memset(r, 0, sizeof *r);
}

Status lab_rows_add(LabRows *r, const LabRow *row, ErrBuf *err)
{
    if (r->count == r->cap) {
        const long cap = r->cap ? r->cap * 2 : 64;
        LabRow *grown = realloc(r->row, sizeof *grown * (size_t)cap);
        if (grown == NULL)
            return err_set(err, STATUS_NOMEM, "out of memory");
        r->row = grown;
        r->cap = cap;
    }
    r->row[r->count++] = *row;
    return STATUS_OK;
}

static int by_index(const void *a, const void *b)
{
    const long x = ((const LabRow *)a)->index, y = ((const LabRow *)b)->index;
    return (x > y) - (x < y);
}

Status lab_rows_sort(LabRows *r, ErrBuf *err)
{
    if (r->count > 1)
        qsort(r->row, (size_t)r->count, sizeof *r->row, by_index);
    for (long i = 1; i < r->count; i++)
        if (r->row[i].index == r->row[i - 1].index)
            return err_set(err, STATUS_CONFLICT, "game %ld is in the results twice",
                           r->row[i].index + 1);
    return STATUS_OK;
}

void lab_row_result(const LabRow *row, char *out, int cap)
{
    if (row->failed) {
        snprintf(out, (size_t)cap, "failed");
        return;
    }
    double best = row->returns[0];
    int at_best = 0;
    for (int k = 1; k < row->players; k++)
        best = row->returns[k] > best ? row->returns[k] : best;
    for (int k = 0; k < row->players; k++)
        at_best += row->returns[k] == best;
    if (at_best == row->players) {
        snprintf(out, (size_t)cap, "draw");
        return;
    }
    int len = 0;
    out[0] = '\0';
    for (int k = 0; k < row->players; k++)
        if (row->returns[k] == best)
            len += snprintf(out + len, (size_t)(len < cap ? cap - len : 0), "%s%d",
                            len ? "+" : "", k + 1);
}

static void put_numbers(const double *v, int n, char *out, int cap)
{
    int len = 0;
    out[0] = '\0';
    for (int k = 0; k < n; k++)
    {
        // The shortest of 15 or 17 digits that reads back as the same number.
        char num[32];
        snprintf(num, sizeof num, "%.15g", v[k]);
        if (strtod(num, NULL) != v[k])
            snprintf(num, sizeof num, "%.17g", v[k]);
        len += snprintf(out + len, (size_t)(len < cap ? cap - len : 0), "%s%s", k ? "|" : "", num);
    }
}

/* "NAME=V|NAME=V1;V2" from the game's metric table. */
static void put_metrics(const GameOps *ops, const LabRow *r, char *out, int cap)
{
    int len = 0;
    out[0] = '\0';
    for (int i = 0; ops && i < r->n_metrics && i < ops->metric_count; i++) {
        const int n = ops->metrics[i].per_player ? r->players : 1;
        char values[MAX_PLAYERS * 28];
        put_numbers(r->metrics[i], n, values, sizeof values);
        for (char *p = values; *p; p++)
            *p = *p == '|' ? ';' : *p;
        len += snprintf(out + len, (size_t)(len < cap ? cap - len : 0), "%s%s=%s", len ? "|" : "",
                        ops->metrics[i].name, values);
    }
}

static void put_field(FILE *f, const char *text, bool last)
{
    csv_fwrite(f, text, strlen(text));
    fputc(last ? '\n' : ',', f);
}

Status lab_results_write(const LabStudy *st, const LabRows *rows, const char *dir, ErrBuf *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot write '%s': %s", path, strerror(errno));
    const GameOps *ops = registry_find(st->game);
    for (int c = 0; c < N_COLUMNS; c++)
        fprintf(f, "%s%c", COLUMNS[c], c + 1 < N_COLUMNS ? ',' : '\n');
    for (long i = 0; i < rows->count; i++) {
        const LabRow *r = &rows->row[i];
        char num[3][32], result[32], returns[MAX_PLAYERS * 28], scores[MAX_PLAYERS * 28];
        snprintf(num[0], sizeof num[0], "%ld", r->index + 1);
        snprintf(num[1], sizeof num[1], "%" PRIu64, r->seed);
        snprintf(num[2], sizeof num[2], "%d", r->set + 1);
        lab_row_result(r, result, sizeof result);
        put_numbers(r->returns, r->failed ? 0 : r->players, returns, sizeof returns);
        put_numbers(r->scores, r->scored && !r->failed ? r->players : 0, scores, sizeof scores);
        char length[16], metrics[LAB_SETUP];
        snprintf(length, sizeof length, "%d", r->length);
        put_metrics(ops, r, metrics, sizeof metrics);
        const char *field[N_COLUMNS] = {num[0],  num[1],  num[2],  st->sets[r->set].rules,
                                        r->setup, r->seats, result, r->reason,
                                        length,  returns, scores,  metrics};
        for (int c = 0; c < N_COLUMNS; c++)
            put_field(f, field[c], c + 1 == N_COLUMNS);
    }
    if (fclose(f) != 0)
        return err_set(err, STATUS_IO, "error writing '%s'", path);
    return STATUS_OK;
}

/* The reader's state between libcsv's callbacks. */
typedef struct Reader {
    const LabStudy *st;
    const GameOps *ops;
    LabRows *rows;
    long line;
    int column;
    char field[N_COLUMNS][LAB_SETUP];
    bool bad;
    Status status;
    ErrBuf *err;
} Reader;

static void on_field(void *data, size_t len, void *ctx)
{
    Reader *rd = ctx;
    if (rd->column < N_COLUMNS) {
        const size_t n = len < LAB_SETUP - 1 ? len : LAB_SETUP - 1;
        memcpy(rd->field[rd->column], data, n);
        rd->field[rd->column][n] = '\0';
    }
    rd->column++;
}

static bool read_long(const char *t, long min, long max, long *out)
{
    char *end;
    errno = 0;
    const long v = strtol(t, &end, 10);
    if (errno != 0 || end == t || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* Reads "a|b|c" into v; the count of numbers, or -1 on a bad one. */
static int read_numbers(char *t, double *v)
{
    if (t[0] == '\0')
        return 0;
    int n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(t, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
        char *end;
        if (n == MAX_PLAYERS)
            return -1;
        v[n++] = strtod(tok, &end);
        if (end == tok || *end != '\0')
            return -1;
    }
    return n;
}

/* Reads the metrics cell, which must name the game's figures in its order. */
static bool read_metrics(const GameOps *ops, char *t, LabRow *r)
{
    r->n_metrics = 0;
    if (t[0] == '\0')
        return true;
    char *save = NULL;
    for (char *tok = strtok_r(t, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
        const int i = r->n_metrics;
        char *eq = strchr(tok, '=');
        if (ops == NULL || i >= ops->metric_count || eq == NULL)
            return false;
        *eq = '\0';
        if (strcmp(tok, ops->metrics[i].name) != 0)
            return false;
        for (char *p = eq + 1; *p; p++)
            *p = *p == ';' ? '|' : *p;
        const int n = read_numbers(eq + 1, r->metrics[i]);
        if (n != (ops->metrics[i].per_player ? r->players : 1))
            return false;
        r->n_metrics++;
    }
    return true;
}

static void row_done(Reader *rd)
{
    LabRow r;
    memset(&r, 0, sizeof r);
    long index, set, length;
    char *end;
    bool ok = rd->column == N_COLUMNS &&
              read_long(rd->field[0], 1, lab_study_total(rd->st), &index) &&
              read_long(rd->field[2], 1, rd->st->n_sets, &set) &&
              read_long(rd->field[8], 0, 1000000000, &length);
    if (ok) {
        errno = 0;
        r.seed = strtoull(rd->field[1], &end, 10);
        r.index = index - 1;
        r.set = (int)set - 1;
        r.length = (int)length;
        ok = errno == 0 && *end == '\0' && r.set == r.index / rd->st->games &&
             strcmp(rd->field[3], rd->st->sets[r.set].rules) == 0;
    }
    if (ok) {
        snprintf(r.setup, sizeof r.setup, "%s", rd->field[4]);
        snprintf(r.seats, sizeof r.seats, "%.*s", (int)sizeof r.seats - 1, rd->field[5]);
        snprintf(r.reason, sizeof r.reason, "%.*s", (int)sizeof r.reason - 1, rd->field[7]);
        r.failed = strcmp(rd->field[6], "failed") == 0;
        r.players = lab_list_count(r.seats);
        const int nr = read_numbers(rd->field[9], r.returns);
        const int ns = read_numbers(rd->field[10], r.scores);
        r.scored = ns > 0;
        ok = r.players <= MAX_PLAYERS && (r.failed ? nr == 0 : nr == r.players) &&
             (ns == 0 || ns == r.players);
    }
    if (ok) {
        char result[32];
        lab_row_result(&r, result, sizeof result);
        ok = strcmp(result, rd->field[6]) == 0 && read_metrics(rd->ops, rd->field[11], &r);
    }
    if (!ok) {
        rd->bad = true;
        rd->status = err_set(rd->err, STATUS_CORRUPT, "line %ld of the results is not a game "
                             "of this study", rd->line);
    } else if (!rd->bad) {
        const Status s = lab_rows_add(rd->rows, &r, rd->err);
        if (s != STATUS_OK) {
            rd->bad = true;
            rd->status = s;
        }
    }
}

static void on_row(int c, void *ctx)
{
    (void)c;
    Reader *rd = ctx;
    rd->line++;
    bool header = rd->column == N_COLUMNS;
    for (int col = 0; rd->line == 1 && header && col < N_COLUMNS; col++)
        header = strcmp(rd->field[col], COLUMNS[col]) == 0;
    if (rd->line == 1 && !header && !rd->bad) {
        rd->bad = true;
        rd->status = err_set(rd->err, STATUS_CORRUPT, "the results do not start with the "
                             "columns of a study");
    }
    if (rd->line > 1 && !rd->bad)
        row_done(rd);
    rd->column = 0;
}

Status lab_results_read(const LabStudy *st, const char *dir, LabRows *rows, ErrBuf *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot read '%s': %s", path, strerror(errno));
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0) {
        fclose(f);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    Reader *rd = calloc(1, sizeof *rd);
    if (rd == NULL) {
        csv_free(&p);
        fclose(f);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    rd->st = st;
    rd->ops = registry_find(st->game);
    rd->rows = rows;
    rd->err = err;
    char buf[8192];
    size_t n;
    bool parse_error = false;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && !parse_error)
        parse_error = csv_parse(&p, buf, n, on_field, on_row, rd) != n;
    if (!parse_error)
        parse_error = csv_fini(&p, on_field, on_row, rd) != 0;
    Status s = rd->bad ? rd->status : STATUS_OK;
    if (parse_error && !rd->bad)
        s = err_set(err, STATUS_CORRUPT, "'%s' is not CSV: %s", path,
                    csv_strerror(csv_error(&p)));
    csv_free(&p);
    free(rd);
    fclose(f);
    return s;
}
