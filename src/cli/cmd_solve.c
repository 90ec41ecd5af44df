/*
 * cmd_solve.c - `crown solve kings-valley`: runs the retrograde solver for the rules
 * asked and writes the table where analyze, the AI and the server look for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/game_api.h"
#include "solve/kvs_retro.h"
#include "solve/kvs_table.h"

/* Creates every missing directory above path (mkdir -p of its parent). */
static void make_parents(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(buf, 0755);
        *p = '/';
    }
}

int cmd_solve(int argc, char **argv)
{
    CliOptions o;
    if (!cli_parse_options(argc, argv, 2, &o))
        return 2;
    if (o.n_positional != 1)
        return cli_error("usage: crown solve kings-valley [--rule NAME=VALUE]... [--out FILE] "
                         "[--threads N]"),
               2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    free(s);
    ErrBuf err;
    KvsRules rules;
    char path[4096];
    if (kvs_rules_of_game(g, &rules, &err) != STATUS_OK ||
        (o.out == NULL && kvs_default_path(&rules, path, sizeof path, &err) != STATUS_OK)) {
        game_destroy(g);
        return cli_error("%s", err.msg);
    }
    if (o.out != NULL)
        snprintf(path, sizeof path, "%s", o.out);
    make_parents(path);
    KvsTable *old;
    if (kvs_table_open(path, g, &old, &err) == STATUS_OK) {
        printf("%s is already solved:\n%s", path, kvs_table_header(old));
        kvs_table_close(old);
        game_destroy(g);
        return 0;
    }
    game_destroy(g);
    KvsIndex *ix = malloc(sizeof *ix);
    if (ix == NULL)
        return cli_error("out of memory");
    kvs_index_init(ix, rules.soldiers);
    char ckpt[4200];
    snprintf(ckpt, sizeof ckpt, "%s.part", path);
    KvsSolveOptions opt = {.rules = rules,
                           .threads = o.threads > 0 ? (int)o.threads : 2,
                           .checkpoint = ckpt,
                           .checkpoint_seconds = 60,
                           .progress = true};
    fprintf(stderr, "solving %llu positions (one byte each) into %s, %d threads\n",
            (unsigned long long)ix->size, path, opt.threads);
    uint8_t *table;
    KvsSolveStats st;
    int rc = 0;
    if (kvs_solve(ix, &opt, &table, &st, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
    } else {
        if (kvs_table_write(path, ix, &rules, table, &st, &err) != STATUS_OK) {
            rc = cli_error("%s", err.msg);
        } else {
            remove(ckpt);
            struct rusage ru;
            getrusage(RUSAGE_SELF, &ru);
            printf("table %s\npositions %llu (won %llu, lost %llu, drawn %llu; %llu unused "
                   "entries)\nlongest %d plies (entry %llu)\nbackward plies %d\ntime %.0f s%s\n"
                   "peak memory %ld MB\n",
                   path, (unsigned long long)(st.won + st.lost + st.drawn),
                   (unsigned long long)st.won, (unsigned long long)st.lost,
                   (unsigned long long)st.drawn, (unsigned long long)st.unused, st.longest,
                   (unsigned long long)st.longest_index, st.passes, st.seconds,
                   st.resumed ? " (after resuming a checkpoint)" : "", ru.ru_maxrss / 1024);
        }
        free(table);
    }
    free(ix);
    return rc;
}
