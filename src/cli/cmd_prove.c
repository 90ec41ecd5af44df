/*
 * cmd_prove.c - `crown prove GAME`: the value of a position by proof-number search
 * (solve/dfpn.h) within a budget of time and memory, the winning strategy written with
 * --out, and `crown prove --verify FILE`, which re-checks such a file by the rules alone
 * (solve/proof_check.h). With --checkpoint DIR the prover's table is kept in DIR and
 * taken up by the next run, and SIGINT or SIGTERM stop it with a last checkpoint.
 * With --check N it is held against the solved King's Valley table instead
 * (cli/prove_check.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/prove_check.h"
#include "cli/stop_signals.h"
#include "core/clock.h"
#include "core/game_api.h"
#include "solve/dfpn.h"
#include "solve/dfpn_checkpoint.h"
#include "solve/proof_check.h"

enum { PROVE_MAX_ARGS = 128 };
/* --shrink keeps its entries in memory while it reads: 24 bytes each, so 6 GB at most. */
#define SHRINK_MAX (1ULL << 28)

/* The flags only prove reads, taken out before the shared parser sees the rest. */
typedef struct ProveFlags {
    double hours;
    double memory_gb;
    bool memory_set;
    const char *verify;
    const char *checkpoint; /* a folder */
    bool weak;              /* --numbers weak */
    uint64_t shrink;        /* --shrink N: entries to keep, 0 when not asked */
    const char *to;         /* --to DIR, where --shrink writes */
} ProveFlags;

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
                          strcmp(a, "--verify") == 0 || strcmp(a, "--checkpoint") == 0 ||
                          strcmp(a, "--numbers") == 0 || strcmp(a, "--shrink") == 0 ||
                          strcmp(a, "--to") == 0;
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
        else if (strcmp(a, "--numbers") == 0) {
            if (strcmp(v, "sum") != 0 && strcmp(v, "weak") != 0)
                return cli_error("--numbers must be sum or weak, not '%s'", v), false;
            f->weak = strcmp(v, "weak") == 0;
        }
        else if (strcmp(a, "--verify") == 0)
            f->verify = v;
        else if (strcmp(a, "--to") == 0)
            f->to = v;
        else if (strcmp(a, "--shrink") == 0) {
            char *end;
            errno = 0;
            const unsigned long long n = strtoull(v, &end, 10);
            if (errno || *end || end == v || *v == '-' || n < 1 || n > SHRINK_MAX)
                return cli_error("--shrink must be a count of entries from 1 to %llu, not "
                                 "'%s'", (unsigned long long)SHRINK_MAX, v), false;
            f->shrink = n;
        }
        else if (!read_real(a, v, 0.0001, strcmp(a, "--hours") == 0 ? 10000 : 1024,
                            strcmp(a, "--hours") == 0 ? &f->hours : &f->memory_gb))
            return false;
    }
    return true;
}

/* `crown prove --shrink N --checkpoint DIR --to DIR2`. */
static int shrink(const ProveFlags *f)
{
    char from[4096], to[4096];
    if (!f->checkpoint || !f->to)
        return cli_error("usage: crown prove --shrink N --checkpoint DIR --to DIR2"), 2;
    // The folder read from is not made when missing: the read says there is none.
    if (snprintf(from, sizeof from, "%s/prove.checkpoint", f->checkpoint) >= (int)sizeof from)
        return cli_error("--checkpoint: the folder's name is too long"), 2;
    struct stat sb;
    if (stat(from, &sb) != 0)
        return cli_error("--shrink: no checkpoint at %s: %s", from, strerror(errno));
    if (!checkpoint_path(f->to, to, sizeof to))
        return 1;
    if (strcmp(from, to) == 0)
        return cli_error("--shrink: --to must be another folder than --checkpoint"), 2;
    ErrBuf err;
    DfpnShrinkStats st;
    if (dfpn_ckpt_shrink(from, to, f->shrink, &st, &err) != STATUS_OK)
        return cli_error("--shrink: %s", err.msg);
    printf("kept %llu of %llu entries (those with most work, %lu nodes or more each) in %s, "
           "%.1f MB\n",
           (unsigned long long)st.entries, (unsigned long long)st.entries_before,
           (unsigned long)st.least_work, to, (double)st.bytes / 1e6);
    return 0;
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
    if (f.shrink || f.to) {
        if (!f.shrink || n_rest != 2)
            return cli_error("usage: crown prove --shrink N --checkpoint DIR --to DIR2"), 2;
        return shrink(&f);
    }
    static const char usage[] =
        "usage: crown prove GAME [--position TEXT] [--rule NAME=VALUE]... "
        "[--hours H] [--memory GB] [--nodes N] [--numbers sum|weak] [--out FILE] "
        "[--checkpoint DIR] | crown prove --verify FILE | crown prove --shrink N "
        "--checkpoint DIR --to DIR2 | crown prove kings-valley --check N [--seed S] "
        "[--jobs J] [--tablebase FILE] [--checkpoint DIR]";
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
        const ProveCheckSetup setup = {.memory_gb = f.memory_gb, .memory_set = f.memory_set,
                                       .hours = f.hours, .log_dir = f.checkpoint,
                                       .weak = f.weak};
        const int rc = prove_check(&o, g, &setup);
        free(s);
        game_destroy(g);
        return rc;
    }
    StopSignals sig;
    DfpnOptions opt = {.tt_bytes = (uint64_t)(f.memory_gb * 1073741824.0),
                       .seconds = f.hours * 3600.0,
                       .max_nodes = o.limits.nodes == UINT64_MAX ? 0 : o.limits.nodes,
                       .progress = stderr,
                       .progress_seconds = 10,
                       .weak = f.weak};
    if (f.checkpoint) {
        opt.checkpoint = ckpt;
        opt.checkpoint_seconds = 300;
        opt.interrupted = stop_signalled;
        opt.interrupt_ctx = &sig;
        stop_signals_block(&sig);
    }
    // The proof goes to a file beside --out, renamed over it once whole: a budget spent
    // or a signal leaves an earlier file of that name as it was.
    char part[4200];
    FILE *proof = NULL;
    if (o.out) {
        const bool fits = snprintf(part, sizeof part, "%s.part", o.out) < (int)sizeof part;
        if (!fits || !(proof = fopen(part, "w"))) {
            const int e = errno;
            if (f.checkpoint)
                stop_signals_restore(&sig);
            free(s);
            game_destroy(g);
            if (!fits)
                return cli_error("--out: the file name is too long (%zu characters; at most "
                                 "%zu)", strlen(o.out), sizeof part - sizeof ".part");
            return cli_error("--out: cannot write %s: %s", part, strerror(e));
        }
        opt.proof = proof;
    }
    ErrBuf err;
    DfpnValue v;
    DfpnStats st;
    int rc = 0;
    const int mover = g->ops->to_move(g, s);
    const bool valued = dfpn_value(g, s, &opt, &v, &st, &err) == STATUS_OK;
    if (!valued) {
        rc = cli_error("%s", err.msg);
    } else {
        printf("value: %s\n", value_words(v, mover, st.interrupted));
        print_stats(&st);
        print_line(g, s, &st);
        if (st.checkpoint_error[0])
            rc = cli_error("--checkpoint: %s", st.checkpoint_error);
    }
    if (proof) {
        const bool decided = valued && (v == DFPN_WIN || v == DFPN_LOSS);
        const bool closed = fclose(proof) == 0;
        if (decided && st.proof_written && closed && rename(part, o.out) == 0) {
            printf("proof written to %s (%llu nodes searched again to write it)\n", o.out,
                   (unsigned long long)st.proof_nodes);
        } else {
            const int e = errno;
            remove(part);
            if (decided && !st.proof_written)
                rc = cli_error("--out: %s", st.interrupted ? "stopped by a signal"
                                                           : "budget spent writing the proof");
            else if (decided)
                rc = cli_error("--out: cannot write %s: %s", o.out, strerror(e));
            else if (valued)
                fprintf(stderr, "crown: --out: no proof written: %s\n",
                        v == DFPN_DRAW ? "a draw has no winning strategy" : "the value is unknown");
        }
    }
    if (f.checkpoint)
        stop_signals_restore(&sig);
    free(s);
    game_destroy(g);
    return rc;
}
