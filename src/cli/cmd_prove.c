/*
 * cmd_prove.c - `crown prove GAME`: the value of a position by proof-number search
 * (solve/dfpn.h) within a budget of time and memory, the winning strategy written with
 * --out, and `crown prove --verify FILE`, which re-checks such a file by the rules alone
 * (solve/proof_check.h). With --checkpoint DIR the prover's table is kept in DIR and
 * taken up by the next run, and SIGINT or SIGTERM stop it with a last checkpoint.
 * With --check N it is held against the solved King's Valley table instead: N random
 * positions the table decides within 15 plies, each proven afresh.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/game_api.h"
#include "solve/dfpn.h"
#include "solve/kvs_table.h"
#include "solve/proof_check.h"

enum {
    PROVE_MAX_ARGS = 128,
    /* --check: positions the table decides within this many plies (issue 34's bound) */
    PROVE_CHECK_PLIES = 15,
};

/* The flags only prove reads, taken out before the shared parser sees the rest. */
typedef struct ProveFlags {
    double hours;
    double memory_gb;
    bool memory_set;
    const char *verify;
    const char *checkpoint; /* a folder */
} ProveFlags;

/* SIGINT and SIGTERM while proving with a checkpoint: blocked, and taken by the search's
 * polling (sigtimedwait with no wait), so that a stop ends in a clean last checkpoint
 * with no signal handler and no flag at file scope. */
typedef struct StopSignals {
    sigset_t set, old;
} StopSignals;

static bool stop_signalled(void *ctx)
{
    const StopSignals *sig = ctx;
    const struct timespec now = {0, 0};
    return sigtimedwait(&sig->set, NULL, &now) > 0;
}

static void stop_signals_block(StopSignals *sig)
{
    sigemptyset(&sig->set);
    sigaddset(&sig->set, SIGINT);
    sigaddset(&sig->set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &sig->set, &sig->old);
}

/* Takes any stop that came after the last poll first: the work is over, and unblocked
 * it would kill the process before it reports. */
static void stop_signals_restore(StopSignals *sig)
{
    while (stop_signalled(sig))
        ;
    pthread_sigmask(SIG_SETMASK, &sig->old, NULL);
}

/* DIR/prove.checkpoint into path, DIR made when missing. */
static bool checkpoint_path(const char *dir, char *path, size_t cap)
{
    struct stat sb;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cli_error("--checkpoint: cannot make the folder %s: %s", dir, strerror(errno)),
               false;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
        return cli_error("--checkpoint: %s is not a folder", dir), false;
    if (snprintf(path, cap, "%s/prove.checkpoint", dir) >= (int)cap)
        return cli_error("--checkpoint: the folder's name is too long"), false;
    return true;
}

static bool read_real(const char *flag, const char *text, double min, double max, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (errno || *end || end == text || !(v >= min && v <= max)) {
        cli_error("%s must be a number from %g to %g, not '%s'", flag, min, max, text);
        return false;
    }
    *out = v;
    return true;
}

static bool take_flags(int argc, char **argv, ProveFlags *f, char **rest, int *n_rest)
{
    *f = (ProveFlags){.hours = 0, .memory_gb = 0.25, .memory_set = false, .verify = NULL,
                      .checkpoint = NULL};
    *n_rest = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const bool ours = strcmp(a, "--hours") == 0 || strcmp(a, "--memory") == 0 ||
                          strcmp(a, "--verify") == 0 || strcmp(a, "--checkpoint") == 0;
        if (!ours) {
            if (*n_rest == PROVE_MAX_ARGS)
                return cli_error("too many arguments"), false;
            rest[(*n_rest)++] = argv[i];
            continue;
        }
        if (i + 1 >= argc)
            return cli_error("%s needs a value", a), false;
        const char *v = argv[++i];
        f->memory_set |= strcmp(a, "--memory") == 0;
        if (strcmp(a, "--checkpoint") == 0)
            f->checkpoint = v;
        else if (strcmp(a, "--verify") == 0)
            f->verify = v;
        else if (!read_real(a, v, 0.0001, strcmp(a, "--hours") == 0 ? 10000 : 1024,
                            strcmp(a, "--hours") == 0 ? &f->hours : &f->memory_gb))
            return false;
    }
    return true;
}

static const char *value_words(DfpnValue v, int mover, bool interrupted)
{
    switch (v) {
    case DFPN_WIN:
        return mover == 0 ? "first player wins" : "second player wins";
    case DFPN_LOSS:
        return mover == 0 ? "second player wins" : "first player wins";
    case DFPN_DRAW:
        return "draw";
    default:
        return interrupted ? "unknown (stopped by a signal)" : "unknown (budget spent)";
    }
}

/* The most-proving line of an open answer, in the game's move text. */
static void print_line(const Game *g, const GameState *root, const DfpnStats *st)
{
    if (st->line_len == 0)
        return;
    GameState *s = game_state_clone(g, root);
    void *undo = game_undo_new(g);
    StrBuf sb;
    sb_init(&sb);
    for (int i = 0; s && undo && i < st->line_len; i++) {
        sb_puts(&sb, i ? " " : "");
        g->ops->format_move(g, s, st->line[i], &sb);
        g->ops->make(g, s, st->line[i], undo);
    }
    if (s && undo && !sb_failed(&sb))
        printf("most-proving line of \"player %d wins\" (%d plies): %s\n",
               st->line_attacker + 1, st->line_len, sb_str(&sb));
    sb_free(&sb);
    free(undo);
    free(s);
}

static void print_stats(const DfpnStats *st)
{
    for (int p = 0; p < 2; p++) {
        if (st->pn[p] == 0 && st->dn[p] == 0)
            continue;
        if (st->decided[p])
            printf("player %d wins: %s\n", p + 1, st->won[p] ? "proved" : "disproved");
        else
            printf("player %d wins: open, proof number %llu, disproof number %llu\n", p + 1,
                   (unsigned long long)st->pn[p], (unsigned long long)st->dn[p]);
    }
    printf("nodes %llu, %.2f s, %.0f nodes per second\n", (unsigned long long)st->nodes,
           st->seconds, st->seconds > 0 ? (double)st->nodes / st->seconds : 0.0);
    if (st->resumed)
        printf("resumed from the checkpoint: %llu of those nodes were spent before\n",
               (unsigned long long)st->resumed_nodes);
}

static int verify(const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return cli_error("--verify: cannot open %s: %s", path, strerror(errno));
    ErrBuf err;
    ProofHeader *h = malloc(sizeof *h);
    if (!h || proof_read_header(in, h, &err) != STATUS_OK) {
        fclose(in);
        free(h);
        return cli_error("%s: %s", path, h ? err.msg : "out of memory");
    }
    // The header's game, rules and position, set up as the command line would.
    CliOptions o;
    memset(&o, 0, sizeof o);
    o.positional[0] = h->game;
    o.n_positional = 1;
    o.position = h->position;
    for (int i = 0; i < h->n_rules && i < CLI_MAX_RULES; i++) {
        if (rule_setting_split(h->rules[i], &o.rules[i], &err) != STATUS_OK) {
            fclose(in);
            free(h);
            return cli_error("%s: %s", path, err.msg);
        }
        o.n_rules++;
    }
    Game *g;
    GameState *s;
    int rc = 1;
    if (cli_make_game(&o, &g, &s)) {
        ProofCheckStats st;
        if (proof_check_tree(g, s, h->winner, in, &st, &err) != STATUS_OK) {
            cli_error("%s: proof rejected: %s", path, err.msg);
        } else {
            printf("proof verified: player %d wins %s from %s\n", h->winner + 1, h->game,
                   h->position);
            printf("%llu positions, %llu won lines, longest %d plies\n",
                   (unsigned long long)st.positions, (unsigned long long)st.wins, st.longest);
            rc = 0;
        }
        free(s);
        game_destroy(g);
    }
    fclose(in);
    free(h);
    return rc;
}

/* One position of --check: drawn by the main thread, proven by any. */
typedef struct CheckItem {
    char text[KVS_TEXT_CAP];
    DfpnValue want, got;
    int plies;
    uint64_t nodes;
    Status status;
    ErrBuf err;
} CheckItem;

/* The positions and what the threads share: the next to take and the running counts
 * (atomic), for the progress line. */
typedef struct CheckRun {
    const Game *g;
    const DfpnOptions *opt;
    CheckItem *items;
    long count;
    long next, done, wrong, unknown, failed;
    int64_t start_ms;
} CheckRun;

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
        if (it->got == DFPN_UNKNOWN)
            __atomic_fetch_add(&r->unknown, 1, __ATOMIC_RELAXED);
        else if (it->got != it->want)
            __atomic_fetch_add(&r->wrong, 1, __ATOMIC_RELAXED);
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

/* --check: `count` random positions of the solved table (the --tablebase file or the
 * rules' default one) that it decides within PROVE_CHECK_PLIES plies, either side to
 * move, each proven from an empty prover table on one of --jobs threads; every value
 * must be the table's. The positions are drawn first, so the result does not depend on
 * the threads. */
static int check_against_table(const CliOptions *o, const Game *g, const ProveFlags *f)
{
    ErrBuf err;
    KvsRules rules;
    char path[4096];
    if (kvs_rules_of_game(g, &rules, &err) != STATUS_OK)
        return cli_error("--check: %s", err.msg);
    if (o->tablebase != NULL)
        snprintf(path, sizeof path, "%s", o->tablebase);
    else if (kvs_default_path(&rules, path, sizeof path, &err) != STATUS_OK)
        return cli_error("--check: %s", err.msg);
    KvsTable *t;
    if (kvs_table_open(path, g, &t, &err) != STATUS_OK)
        return cli_error("--check: %s (make the table with `crown solve kings-valley`)",
                         err.msg);
    CheckItem *items = calloc((size_t)o->check, sizeof *items);
    if (items == NULL) {
        kvs_table_close(t);
        return cli_error("out of memory");
    }
    int rc = check_sample(g, t, o->seed_set ? o->seed : 1, items, o->check);
    kvs_table_close(t);
    if (rc != 0) {
        free(items);
        return rc;
    }
    // Each position is proven from an empty table: a small one (unless --memory says
    // otherwise), since clearing the default quarter gigabyte would cost more than the
    // proof of a 15-ply position.
    const double gb = f->memory_set ? f->memory_gb : 4.0 / 1024.0;
    const DfpnOptions opt = {.tt_bytes = (uint64_t)(gb * 1073741824.0),
                             .seconds = f->hours * 3600.0,
                             .max_nodes = o->limits.nodes == UINT64_MAX ? 0 : o->limits.nodes};
    printf("checking %ld positions of %s decided within %d plies on %ld thread%s\n", o->check,
           path, PROVE_CHECK_PLIES, o->jobs, o->jobs == 1 ? "" : "s");
    fflush(stdout);
    CheckRun run = {.g = g, .opt = &opt, .items = items, .count = o->check,
                    .start_ms = clock_ms()};
    enum { MAX_JOBS = 64 };
    pthread_t th[MAX_JOBS];
    int started = 0;
    for (long j = 1; j < o->jobs && j < MAX_JOBS; j++)
        if (pthread_create(&th[started], NULL, check_worker, &run) == 0)
            started++;
    check_work(&run, true);
    for (int j = 0; j < started; j++)
        pthread_join(th[j], NULL);
    long wins = 0, shown = 0;
    uint64_t nodes = 0;
    for (long k = 0; k < run.count && rc == 0; k++) {
        const CheckItem *it = &items[k];
        if (run.failed && it->status != STATUS_OK && it->err.msg[0] != '\0')
            rc = cli_error("--check: %s: %s", it->text, it->err.msg);
        wins += it->want == DFPN_WIN;
        nodes += it->nodes;
        if (it->got != DFPN_UNKNOWN && it->got != it->want && ++shown <= 10)
            printf("mismatch %s: prover %s, table %s in %d plies\n", it->text,
                   it->got == DFPN_WIN ? "win" : it->got == DFPN_LOSS ? "loss" : "draw",
                   it->want == DFPN_WIN ? "win" : "loss", it->plies);
    }
    if (rc == 0) {
        const double secs = (double)(clock_ms() - run.start_ms) / 1000.0;
        printf("checked %ld positions (%ld won, %ld lost for the side to move): %ld wrong, "
               "%ld unknown at the budget; %llu nodes, %.1f s\n",
               run.done, wins, run.done - wins, run.wrong, run.unknown,
               (unsigned long long)nodes, secs);
        rc = run.wrong == 0 && run.unknown == 0 ? 0 : 1;
    }
    free(items);
    return rc;
}

int cmd_prove(int argc, char **argv)
{
    ProveFlags f;
    char *rest[PROVE_MAX_ARGS];
    int n_rest;
    if (!take_flags(argc, argv, &f, rest, &n_rest))
        return 2;
    if (f.verify) {
        if (n_rest != 2)
            return cli_error("usage: crown prove --verify FILE"), 2;
        return verify(f.verify);
    }
    static const char usage[] =
        "usage: crown prove GAME [--position TEXT] [--rule NAME=VALUE]... "
        "[--hours H] [--memory GB] [--nodes N] [--out FILE] "
        "[--checkpoint DIR] | crown prove kings-valley --check N [--seed S] "
        "[--jobs J] [--tablebase FILE]";
    CliOptions o;
    if (!cli_parse_game_options(n_rest, rest, usage, &o))
        return 2;
    char ckpt[4096];
    if (f.checkpoint && !checkpoint_path(f.checkpoint, ckpt, sizeof ckpt))
        return 1;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    if (o.check > 0) {
        const int rc = check_against_table(&o, g, &f);
        free(s);
        game_destroy(g);
        return rc;
    }
    StopSignals sig;
    DfpnOptions opt = {.tt_bytes = (uint64_t)(f.memory_gb * 1073741824.0),
                       .seconds = f.hours * 3600.0,
                       .max_nodes = o.limits.nodes == UINT64_MAX ? 0 : o.limits.nodes,
                       .progress = stderr,
                       .progress_seconds = 10};
    if (f.checkpoint) {
        opt.checkpoint = ckpt;
        opt.checkpoint_seconds = 300;
        opt.interrupted = stop_signalled;
        opt.interrupt_ctx = &sig;
        stop_signals_block(&sig);
    }
    ErrBuf err;
    DfpnValue v;
    DfpnStats st;
    int rc = 0;
    const int mover = g->ops->to_move(g, s);
    if (dfpn_value(g, s, &opt, &v, &st, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
    } else {
        printf("value: %s\n", value_words(v, mover, st.interrupted));
        print_stats(&st);
        print_line(g, s, &st);
        if (st.checkpoint_error[0])
            rc = cli_error("--checkpoint: %s", st.checkpoint_error);
        // The proof is searched with a table of its own: the checkpoint keeps the value's.
        opt.checkpoint = NULL;
        if (o.out && (v == DFPN_WIN || v == DFPN_LOSS)) {
            FILE *out = fopen(o.out, "w");
            bool proved = false;
            Status ws = STATUS_OK;
            if (!out) {
                rc = cli_error("--out: cannot write %s: %s", o.out, strerror(errno));
            } else if ((ws = dfpn_write_proof(g, s, v == DFPN_WIN ? mover : 1 - mover, &opt,
                                              out, &proved, &st, &err)) != STATUS_OK ||
                       !proved) {
                fclose(out);
                remove(o.out);
                rc = cli_error("--out: %s", ws != STATUS_OK ? err.msg
                                            : st.interrupted ? "stopped by a signal"
                                                             : "budget spent writing the proof");
            } else if (fclose(out) != 0) {
                rc = cli_error("--out: cannot write %s", o.out);
            } else {
                printf("proof written to %s\n", o.out);
            }
        }
    }
    if (f.checkpoint)
        stop_signals_restore(&sig);
    free(s);
    game_destroy(g);
    return rc;
}
