/*
 * cmd_prove.c - `crown prove GAME`: the value of a position by proof-number search
 * (solve/dfpn.h) within a budget of time and memory, the winning strategy written with
 * --out, and `crown prove --verify FILE`, which re-checks such a file by the rules alone
 * (solve/proof_check.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/game_api.h"
#include "solve/dfpn.h"
#include "solve/proof_check.h"

enum { PROVE_MAX_ARGS = 128 };

/* The flags only prove reads, taken out before the shared parser sees the rest. */
typedef struct ProveFlags {
    double hours;
    double memory_gb;
    const char *verify;
} ProveFlags;

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
    *f = (ProveFlags){.hours = 0, .memory_gb = 0.25, .verify = NULL};
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
        if (strcmp(a, "--checkpoint") == 0)
            return cli_error("--checkpoint: checkpoints are not implemented yet"), false;
        if (strcmp(a, "--verify") == 0)
            f->verify = v;
        else if (!read_real(a, v, 0.0001, strcmp(a, "--hours") == 0 ? 10000 : 1024,
                            strcmp(a, "--hours") == 0 ? &f->hours : &f->memory_gb))
            return false;
    }
    return true;
}

static const char *value_words(DfpnValue v, int mover)
{
    switch (v) {
    case DFPN_WIN:
        return mover == 0 ? "first player wins" : "second player wins";
    case DFPN_LOSS:
        return mover == 0 ? "second player wins" : "first player wins";
    case DFPN_DRAW:
        return "draw";
    default:
        return "unknown (budget spent)";
    }
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
    CliOptions o;
    if (!cli_parse_options(n_rest, rest, 2, &o))
        return 2;
    if (o.n_positional != 1)
        return cli_error("usage: crown prove GAME [--position TEXT] [--rule NAME=VALUE]... "
                         "[--hours H] [--memory GB] [--nodes N] [--out FILE]"),
               2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    const DfpnOptions opt = {.tt_bytes = (uint64_t)(f.memory_gb * 1073741824.0),
                             .seconds = f.hours * 3600.0,
                             .max_nodes = o.limits.nodes == UINT64_MAX ? 0 : o.limits.nodes,
                             .progress = stderr,
                             .progress_seconds = 10};
    ErrBuf err;
    DfpnValue v;
    DfpnStats st;
    int rc = 0;
    const int mover = g->ops->to_move(g, s);
    if (dfpn_value(g, s, &opt, &v, &st, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
    } else {
        printf("value: %s\n", value_words(v, mover));
        print_stats(&st);
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
                                                           : "budget spent writing the proof");
            } else if (fclose(out) != 0) {
                rc = cli_error("--out: cannot write %s", o.out);
            } else {
                printf("proof written to %s\n", o.out);
            }
        }
    }
    free(s);
    game_destroy(g);
    return rc;
}
