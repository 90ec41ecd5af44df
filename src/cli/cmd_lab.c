/*
 * cmd_lab.c - `crown lab`: self-play studies for game designers (docs/LAB.md).
 *
 *   crown lab GAME --players A,B --games N [--compare N=V,...]... [--ladder 1,3,5]
 *             [--shard I/N] [--jobs J] [--seed S] --out DIR
 *   crown lab merge DIR... --out DIR
 *
 * The study plays into DIR/study.json and DIR/results.csv; the summary and the report (not
 * for a shard, whose merge draws it) are then made from those two files read back, by the same code that merges shards, so a
 * merged study and a study run in one piece give the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "lab/lab_report.h"
#include "lab/lab_results.h"
#include "lab/lab_run.h"
#include "lab/lab_study.h"
#include "lab/lab_summary.h"

enum { MAX_COMPARE = LAB_MAX_SETS - 1 };

static int finish(const char *dir, LabStudy *st)
{
    ErrBuf err;
    long games, failed;
    bool plotted;
    if (lab_report_study(st, dir, &games, &failed, &plotted, &err) != STATUS_OK)
        return cli_error("%s", err.msg);
    if (!plotted)
        fprintf(stderr, "crown: warning: gnuplot could not be run; the report has no plots\n");
    if (st->shards == 1)
        printf("%ld games (%ld failed) summarised in %s/summary.json and %s/report.html\n",
               games, failed, dir, dir);
    else
        printf("%ld games (%ld failed) of shard %d/%d summarised in %s/summary.json\n", games,
               failed, st->shard, st->shards, dir);
    return 0;
}

static bool make_dir(const char *dir)
{
    struct stat sb;
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))) {
        cli_error("cannot make the folder '%s': %s", dir, strerror(errno));
        return false;
    }
    return true;
}

typedef struct Progress {
    int64_t start_ms, last_ms;
    bool shown;
} Progress;

static bool show_progress(void *ctx, long done, long total)
{
    Progress *p = ctx;
    const int64_t now = clock_ms();
    if (done < total && now - p->last_ms < 200)
        return true;
    p->last_ms = now;
    const int width = 30, filled = total > 0 ? (int)(width * done / total) : width;
    const double left = done > 0 ? (double)(now - p->start_ms) / 1000.0 * (double)(total - done) /
                                       (double)done
                                 : 0;
    fprintf(stderr, "\r[%.*s%*s] %ld/%ld games, %ld:%02ld left ", filled,
            "##############################", width - filled, "", done, total,
            (long)left / 60, (long)left % 60);
    if (done == total)
        fputc('\n', stderr);
    fflush(stderr);
    p->shown = true;
    return true;
}

static int merge(int argc, char **argv)
{
    const char *out = NULL;
    const char *dirs[256];
    int n = 0;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strncmp(argv[i], "--out=", 6) == 0)
            out = argv[i] + 6;
        else if (strncmp(argv[i], "--", 2) == 0)
            return cli_error("lab merge: unknown option '%s'", argv[i]), 2;
        else if (n < (int)(sizeof dirs / sizeof dirs[0]))
            dirs[n++] = argv[i];
        else
            return cli_error("lab merge: too many folders"), 2;
    }
    if (out == NULL || n == 0)
        return cli_error("usage: crown lab merge DIR... --out DIR"), 2;
    LabStudy *st = calloc(2, sizeof *st);
    int *seen = NULL;
    LabRows rows = {0};
    ErrBuf err;
    int rc = 0;
    if (st == NULL)
        return cli_error("out of memory");
    for (int i = 0; i < n && rc == 0; i++) {
        LabStudy *s = i == 0 ? &st[0] : &st[1];
        if (lab_study_load(s, dirs[i], &err) != STATUS_OK) {
            rc = cli_error("%s", err.msg);
            break;
        }
        if (i == 0)
            seen = calloc((size_t)s->shards + 1, sizeof *seen);
        else if (!lab_study_same(&st[0], s))
            rc = cli_error("'%s' holds another study than '%s'", dirs[i], dirs[0]);
        if (rc == 0 && seen == NULL)
            rc = cli_error("out of memory");
        if (rc == 0 && seen[s->shard]++)
            rc = cli_error("shard %d/%d is given twice ('%s')", s->shard, s->shards, dirs[i]);
        if (rc == 0 && lab_results_read(s, dirs[i], &rows, &err) != STATUS_OK)
            rc = cli_error("%s", err.msg);
    }
    for (int k = 1; rc == 0 && k <= st[0].shards; k++)
        if (!seen[k])
            rc = cli_error("shard %d/%d is missing", k, st[0].shards);
    if (rc == 0 && lab_rows_sort(&rows, &err) != STATUS_OK)
        rc = cli_error("%s", err.msg);
    if (rc == 0 && rows.count != lab_study_total(&st[0]))
        rc = cli_error("the shards hold %ld games of the study's %ld", rows.count,
                       lab_study_total(&st[0]));
    if (rc == 0 && make_dir(out)) {
        st[0].shard = st[0].shards = 1;
        if (lab_study_save(&st[0], out, &err) != STATUS_OK ||
            lab_results_write(&st[0], &rows, out, &err) != STATUS_OK)
            rc = cli_error("%s", err.msg);
        else
            rc = finish(out, &st[1]);
    } else if (rc == 0) {
        rc = 1;
    }
    lab_rows_free(&rows);
    free(seen);
    free(st);
    return rc;
}

/* Reads "1,3,5" into levels. */
static bool read_levels(const char *text, int *levels, int *n)
{
    *n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        const long v = strtol(p, &end, 10);
        if (end == p || *n == LAB_MAX_LADDER || (*end != ',' && *end != '\0'))
            return false;
        levels[(*n)++] = (int)v;
        p = *end == ',' ? end + 1 : end;
    }
    return *n > 0;
}

/* What lab reads from its own flags. */
typedef struct LabArgs {
    const char *compare[MAX_COMPARE], *ladder, *shard;
    int n_compare;
} LabArgs;

static bool take_flag(void *ctx, int which, const char *flag, const char *value)
{
    (void)flag;
    LabArgs *a = ctx;
    if (which == 0 && a->n_compare == MAX_COMPARE)
        return cli_error("too many --compare sets"), false;
    if (which == 0)
        a->compare[a->n_compare++] = value;
    else if (which == 1)
        a->ladder = value;
    else
        a->shard = value;
    return true;
}

int cmd_lab(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[2], "merge") == 0)
        return merge(argc, argv);
    static const char *const own[] = {"--compare", "--ladder", "--shard"};
    LabArgs a = {.n_compare = 0};
    CliOptions o;
    const int parsed = cli_parse_own_options(argc, argv, own, 3, take_flag, &a, &o);
    if (parsed != 0)
        return parsed;
    const char **compare = a.compare, *ladder = a.ladder, *shard = a.shard;
    const int n_compare = a.n_compare;
    if (o.help || o.n_positional != 1 || o.out == NULL || (o.players == NULL) == (ladder == NULL) ||
        (ladder && n_compare > 0))
        return cli_error("usage: crown lab GAME (--players SPEC,SPEC... [--compare NAME=VALUE,..."
                         "]... | --ladder L,L...) --games N --out DIR [--rule NAME=VALUE]... "
                         "[--jobs J] [--seed S] [--shard I/N]; crown lab merge DIR... --out DIR"),
               2;
    char rules[LAB_TEXT] = "";
    int len = 0;
    for (int i = 0; i < o.n_rules; i++)
        len += snprintf(rules + len, (size_t)(len < (int)sizeof rules ? (int)sizeof rules - len : 0),
                        "%s%s=%s", i ? "," : "", o.rules[i].name, o.rules[i].value);
    if (len >= (int)sizeof rules)
        return cli_error("too many --rule settings for a study");
    LabStudy *st = calloc(2, sizeof *st);
    if (st == NULL)
        return cli_error("out of memory");
    const SearchLimits lim = cli_search_limits(&o);
    ErrBuf err;
    Status s;
    int levels[LAB_MAX_LADDER], n_levels = 0;
    if (ladder && !read_levels(ladder, levels, &n_levels))
        s = err_set(&err, STATUS_PARSE, "--ladder takes levels such as 1,3,5,7,10, not '%s'",
                    ladder);
    else if (ladder)
        s = lab_study_ladder(st, o.positional[0], rules, levels, n_levels, o.games, o.seed, &lim,
                             &err);
    else
        s = lab_study_plain(st, o.positional[0], rules, compare, n_compare, o.players, o.games,
                            o.seed, &lim, &err);
    if (s == STATUS_OK && shard)
        s = lab_study_set_shard(st, shard, &err);
    int rc = 0;
    if (s != STATUS_OK) {
        rc = cli_error("%s", err.msg);
    } else if (!make_dir(o.out)) {
        rc = 1;
    } else if (lab_study_save(st, o.out, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
    } else {
        Progress prog = {.start_ms = clock_ms()};
        LabRows rows = {0};
        const bool tty = isatty(STDERR_FILENO);
        if (lab_run(st, (int)o.jobs, tty ? show_progress : NULL, &prog, &rows, &err) !=
                STATUS_OK ||
            lab_results_write(st, &rows, o.out, &err) != STATUS_OK)
            rc = cli_error("%s", err.msg);
        else
            rc = finish(o.out, &st[1]);
        lab_rows_free(&rows);
    }
    free(st);
    return rc;
}
