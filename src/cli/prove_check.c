/*
 * prove_check.c - `crown prove kings-valley --check N`: random positions of the solved
 * table, each proven from an empty prover table, compared with the table's value. The
 * sample is drawn from the seed before any proof, so the result does not depend on the
 * threads, and a logged run can be resumed: the log's question line must match, and each
 * logged position must be the one the seed draws at its place.
 */
#include "cli/prove_check.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/game_api.h"
#include "core/rng.h"
#include "solve/dfpn.h"
#include "solve/kvs_index.h"
#include "solve/kvs_table.h"

/* One position: drawn by the main thread, proven by any (or read from the log). */
typedef struct CheckItem {
    char text[KVS_TEXT_CAP];
    DfpnValue want, got;
    int plies;
    bool done;
    uint64_t nodes;
    Status status;
    ErrBuf err;
} CheckItem;

/* The positions and what the threads share: the next to take and the running counts
 * (atomic), for the progress line; the log, written under its lock. */
typedef struct CheckRun {
    const Game *g;
    const DfpnOptions *opt;
    CheckItem *items;
    long count;
    long next, done, wrong, unknown, failed;
    int64_t start_ms;
    FILE *log;
    pthread_mutex_t log_lock;
    int log_errno; /* the first failed write's errno, 0 while all went through */
} CheckRun;

static char value_code(DfpnValue v)
{
    return v == DFPN_WIN ? 'W' : v == DFPN_LOSS ? 'L' : v == DFPN_DRAW ? 'D' : 'U';
}

static bool value_of_code(char c, DfpnValue *v)
{
    switch (c) {
    case 'W':
        return *v = DFPN_WIN, true;
    case 'L':
        return *v = DFPN_LOSS, true;
    case 'D':
        return *v = DFPN_DRAW, true;
    case 'U':
        return *v = DFPN_UNKNOWN, true;
    default:
        return false;
    }
}

static const char *value_word(DfpnValue v)
{
    return v == DFPN_WIN ? "win" : v == DFPN_LOSS ? "loss" : v == DFPN_DRAW ? "draw" : "unknown";
}

/* One line a finished position, flushed at once: a stop loses only the positions
 * being proven. */
static void log_result(CheckRun *r, long k, const CheckItem *it)
{
    if (r->log == NULL)
        return;
    pthread_mutex_lock(&r->log_lock);
    if (r->log_errno == 0 &&
        (fprintf(r->log, "%ld %c %llu %s\n", k, value_code(it->got),
                 (unsigned long long)it->nodes, it->text) < 0 ||
         fflush(r->log) != 0))
        r->log_errno = errno ? errno : EIO;
    pthread_mutex_unlock(&r->log_lock);
}

static void count_result(CheckRun *r, const CheckItem *it)
{
    if (it->got == DFPN_UNKNOWN)
        __atomic_fetch_add(&r->unknown, 1, __ATOMIC_RELAXED);
    else if (it->got != it->want)
        __atomic_fetch_add(&r->wrong, 1, __ATOMIC_RELAXED);
}

/* Proves positions until none is left; the main thread prints the progress between
 * them, at most every 10 seconds. */
static void check_work(CheckRun *r, bool show)
{
    GameState *s = game_state_new(r->g);
    int64_t shown = r->start_ms;
    for (;;) {
        const long k = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
        if (k >= r->count || __atomic_load_n(&r->failed, __ATOMIC_RELAXED))
            break;
        CheckItem *it = &r->items[k];
        if (it->done)
            continue; // taken from the log
        DfpnStats st = {0};
        it->status = s == NULL ? err_set(&it->err, STATUS_NOMEM, "out of memory")
                               : r->g->ops->parse_position(r->g, s, it->text, &it->err);
        if (it->status == STATUS_OK)
            it->status = dfpn_value(r->g, s, r->opt, &it->got, &st, &it->err);
        if (it->status != STATUS_OK) {
            __atomic_store_n(&r->failed, 1, __ATOMIC_RELAXED);
            break;
        }
        it->nodes = st.nodes;
        it->done = true;
        count_result(r, it);
        log_result(r, k, it);
        const long done = __atomic_add_fetch(&r->done, 1, __ATOMIC_RELAXED);
        const int64_t now = clock_ms();
        if (show && (now - shown >= 10000 || done == r->count)) {
            shown = now;
            fprintf(stderr, "checked %ld of %ld, %ld wrong, %ld unknown, %.0f s\n", done,
                    r->count, __atomic_load_n(&r->wrong, __ATOMIC_RELAXED),
                    __atomic_load_n(&r->unknown, __ATOMIC_RELAXED),
                    (double)(now - r->start_ms) / 1000.0);
        }
    }
    free(s);
}

static void *check_worker(void *arg)
{
    check_work(arg, false);
    return NULL;
}

/* Draws `count` random entries of the table that it decides within PROVE_CHECK_PLIES
 * plies, either side to move, skipping positions already over (a locked king). */
static int check_sample(const Game *g, const KvsTable *t, uint64_t seed, CheckItem *items,
                        long count)
{
    const KvsIndex *ix = kvs_table_index(t);
    GameState *s = game_state_new(g);
    if (s == NULL)
        return cli_error("out of memory");
    Rng rng;
    rng_seed(&rng, seed);
    ErrBuf err;
    for (long n = 0; n < count;) {
        const uint64_t i = rng_next(&rng) % ix->size;
        const uint8_t v = kvs_table_entry(t, i);
        if (v == 0 || v - 1 > PROVE_CHECK_PLIES || !kvs_index_canonical(ix, i))
            continue;
        const KvsPos p = kvs_index_position(ix, i);
        CheckItem *it = &items[n];
        kvs_pos_text(&p, (int)rng_below(&rng, 2), 1, it->text);
        if (g->ops->parse_position(g, s, it->text, &err) != STATUS_OK) {
            free(s);
            return cli_error("--check: %s: %s", it->text, err.msg);
        }
        if (game_is_over(g, s))
            continue; // a locked king: lost before any search
        it->plies = v - 1;
        it->want = ((v - 1) & 1) ? DFPN_WIN : DFPN_LOSS;
        n++;
    }
    free(s);
    return 0;
}

/* The log's first line: everything that decides the sample and the proofs' budgets. */
static void question_line(const CliOptions *o, const Game *g, const char *table,
                          const DfpnOptions *opt, char *out, size_t cap)
{
    const char *base = strrchr(table, '/');
    snprintf(out, cap,
             "crown prove --check 1: game %s, table %s, seed %llu, count %ld, plies %d, "
             "memory %llu, nodes %llu, seconds %g%s\n",
             g->ops->name, base ? base + 1 : table,
             (unsigned long long)(o->seed_set ? o->seed : 1), o->check, PROVE_CHECK_PLIES,
             (unsigned long long)opt->tt_bytes, (unsigned long long)opt->max_nodes,
             opt->seconds, opt->weak ? ", numbers weak" : "");
}

/* Takes the results of an earlier run from the log at `path`, when there is one, and
 * opens it to append. A last line cut short by a stop is dropped from the file. */
static int open_log(const char *path, const char *question, CheckRun *r, long *resumed)
{
    *resumed = 0;
    FILE *in = fopen(path, "r");
    if (in == NULL && errno != ENOENT)
        return cli_error("--checkpoint: cannot read %s: %s", path, strerror(errno));
    long keep = 0; // bytes of whole lines
    if (in != NULL) {
        char line[512];
        int number = 0;
        int rc = 0;
        while (rc == 0 && fgets(line, sizeof line, in) != NULL) {
            number++;
            const size_t len = strlen(line);
            if (len == 0 || line[len - 1] != '\n')
                break; // cut short: dropped below
            if (number == 1) {
                if (strcmp(line, question) != 0)
                    rc = cli_error("--checkpoint: %s is the log of another check:\n  it "
                                   "has   %.*s\n  this is %.*s\nuse another folder, or "
                                   "remove the log to start again",
                                   path, (int)strlen(line) - 1, line,
                                   (int)strlen(question) - 1, question);
                keep = ftell(in);
                continue;
            }
            line[len - 1] = '\0';
            long k;
            char code;
            unsigned long long nodes;
            int text_at = 0;
            DfpnValue got;
            if (sscanf(line, "%ld %c %llu %n", &k, &code, &nodes, &text_at) != 3 ||
                text_at == 0 || k < 0 || k >= r->count || !value_of_code(code, &got)) {
                rc = cli_error("--checkpoint: line %d of %s is not a check result", number,
                               path);
            } else if (strcmp(line + text_at, r->items[k].text) != 0) {
                rc = cli_error("--checkpoint: line %d of %s has position %s where the seed "
                               "draws %s (was the table solved again?); remove the log",
                               number, path, line + text_at, r->items[k].text);
            } else {
                CheckItem *it = &r->items[k];
                *resumed += !it->done;
                it->done = true;
                it->got = got;
                it->nodes = nodes;
                keep = ftell(in);
            }
        }
        fclose(in);
        if (rc != 0)
            return rc;
        if (truncate(path, keep) != 0)
            return cli_error("--checkpoint: cannot write %s: %s", path, strerror(errno));
    }
    r->log = fopen(path, "a");
    if (r->log == NULL)
        return cli_error("--checkpoint: cannot write %s: %s", path, strerror(errno));
    if (keep == 0 && (fputs(question, r->log) < 0 || fflush(r->log) != 0)) {
        fclose(r->log);
        r->log = NULL;
        return cli_error("--checkpoint: cannot write %s: %s", path, strerror(errno));
    }
    for (long k = 0; k < r->count; k++)
        if (r->items[k].done) {
            r->done++;
            count_result(r, &r->items[k]);
        }
    return 0;
}

/* Opens the table of the game's rules (or --tablebase) and draws the sample into a new
 * array of o->check items. */
static int draw_sample(const CliOptions *o, const Game *g, char *path, size_t cap,
                       CheckItem **items)
{
    ErrBuf err;
    KvsRules rules;
    if (kvs_rules_of_game(g, &rules, &err) != STATUS_OK)
        return cli_error("--check: %s", err.msg);
    if (o->tablebase != NULL)
        snprintf(path, cap, "%s", o->tablebase);
    else if (kvs_default_path(&rules, path, cap, &err) != STATUS_OK)
        return cli_error("--check: %s", err.msg);
    KvsTable *t;
    if (kvs_table_open(path, g, &t, &err) != STATUS_OK)
        return cli_error("--check: %s (make the table with `crown solve kings-valley`)",
                         err.msg);
    *items = calloc((size_t)o->check, sizeof **items);
    if (*items == NULL) {
        kvs_table_close(t);
        return cli_error("out of memory");
    }
    const int rc = check_sample(g, t, o->seed_set ? o->seed : 1, *items, o->check);
    kvs_table_close(t);
    if (rc != 0) {
        free(*items);
        *items = NULL;
    }
    return rc;
}

/* The summary, the first mismatches by position, and the exit status. */
static int report(const CheckRun *run, long resumed, const char *log_path)
{
    long wins = 0, shown = 0;
    uint64_t nodes = 0;
    for (long k = 0; k < run->count; k++) {
        const CheckItem *it = &run->items[k];
        if (run->failed && it->status != STATUS_OK && it->err.msg[0] != '\0')
            return cli_error("--check: %s: %s", it->text, it->err.msg);
        wins += it->want == DFPN_WIN;
        nodes += it->nodes;
        if (it->done && it->got != DFPN_UNKNOWN && it->got != it->want && ++shown <= 10)
            printf("mismatch %s: prover %s, table %s in %d plies\n", it->text,
                   value_word(it->got), value_word(it->want), it->plies);
    }
    const double secs = (double)(clock_ms() - run->start_ms) / 1000.0;
    printf("checked %ld positions (%ld won, %ld lost for the side to move): %ld wrong, "
           "%ld unknown at the budget; %llu nodes, %.1f s\n",
           run->done, wins, run->done - wins, run->wrong, run->unknown,
           (unsigned long long)nodes, secs);
    if (resumed > 0)
        printf("%ld of them were checked by earlier runs (%s); the time is this run's\n",
               resumed, log_path);
    if (run->log_errno != 0)
        return cli_error("--checkpoint: cannot write %s: %s", log_path,
                         strerror(run->log_errno));
    return run->wrong == 0 && run->unknown == 0 && run->done == run->count ? 0 : 1;
}

int prove_check(const CliOptions *o, const Game *g, const ProveCheckSetup *setup)
{
    char table[4096];
    CheckItem *items;
    int rc = draw_sample(o, g, table, sizeof table, &items);
    if (rc != 0)
        return rc;
    // Each position is proven from an empty table: a small one (unless --memory says
    // otherwise), since clearing the default quarter gigabyte would cost more than the
    // proof of a 15-ply position.
    const double gb = setup->memory_set ? setup->memory_gb : 4.0 / 1024.0;
    const DfpnOptions opt = {.tt_bytes = (uint64_t)(gb * 1073741824.0),
                             .seconds = setup->hours * 3600.0,
                             .max_nodes = o->limits.nodes == UINT64_MAX ? 0 : o->limits.nodes,
                             .weak = setup->weak};
    CheckRun run = {.g = g, .opt = &opt, .items = items, .count = o->check};
    char log_path[4200] = "";
    long resumed = 0;
    if (setup->log_dir != NULL) {
        char question[4400];
        question_line(o, g, table, &opt, question, sizeof question);
        snprintf(log_path, sizeof log_path, "%s/check.log", setup->log_dir);
        if ((rc = open_log(log_path, question, &run, &resumed)) != 0) {
            free(items);
            return rc;
        }
    }
    pthread_mutex_init(&run.log_lock, NULL);
    printf("checking %ld positions of %s decided within %d plies on %ld thread%s\n", o->check,
           table, PROVE_CHECK_PLIES, o->jobs, o->jobs == 1 ? "" : "s");
    if (resumed > 0)
        printf("taken up from %s: %ld checked, %ld wrong, %ld unknown\n", log_path, run.done,
               run.wrong, run.unknown);
    fflush(stdout);
    run.start_ms = clock_ms();
    enum { MAX_JOBS = 64 };
    pthread_t th[MAX_JOBS];
    int started = 0;
    for (long j = 1; j < o->jobs && j < MAX_JOBS; j++)
        if (pthread_create(&th[started], NULL, check_worker, &run) == 0)
            started++;
    check_work(&run, true);
    for (int j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    rc = report(&run, resumed, log_path);
    if (run.log != NULL && fclose(run.log) != 0 && rc == 0)
        rc = cli_error("--checkpoint: cannot write %s", log_path);
    pthread_mutex_destroy(&run.log_lock);
    free(items);
    return rc;
}
