/*
 * cmd_solve.c - `crown solve kings-valley`: runs the retrograde solver for the rules
 * asked and writes the table where analyze, the AI and the server look for it; with
 * --check, compares a written table with alpha-beta on random positions; with --report,
 * prints its results (solve_report.h) for both games' starts; with --compress, packs it
 * for sharing (solve_pack.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/solve_pack.h"
#include "cli/solve_report.h"
#include "core/clock.h"
#include "core/game_api.h"
#include "play/registry.h"
#include "search/agent.h"
#include "solve/kvs_retro.h"
#include "solve/kvs_table.h"

/* --check: random positions of the table against alpha-beta searched `depth` plies with
 * no table. A value within the horizon must be the search's exact win or loss score;
 * a draw or a longer result must not be a win or loss to the search. */
static int check_table(const CliOptions *o, const Game *g, const char *path, long count)
{
    const int depth = o->limits.depth > 0 ? o->limits.depth : 7;
    ErrBuf err;
    KvsTable *t;
    if (kvs_table_open(path, g, &t, &err) != STATUS_OK)
        return cli_error("%s", err.msg);
    const int64_t t0 = clock_ms();
    if (kvs_table_verify(t, &err) != STATUS_OK) {
        kvs_table_close(t);
        return cli_error("%s", err.msg);
    }
    printf("checksum ok (%.1f s)\n", (double)(clock_ms() - t0) / 1000.0);
    AgentSpec spec;
    agent_spec_parse("ab", &spec, &err);
    spec.limits.depth = depth;
    spec.limits.movetime_ms = SEARCH_UNLIMITED;
    spec.limits.nodes = UINT64_MAX;
    Agent *a;
    if (agent_new(g, &spec, &a, &err) != STATUS_OK) {
        kvs_table_close(t);
        return cli_error("%s", err.msg);
    }
    const KvsIndex *ix = kvs_table_index(t);
    GameState *s = game_state_new(g);
    Rng rng;
    rng_seed(&rng, o->seed);
    long within = 0, beyond = 0, wrong = 0;
    const int64_t start = clock_ms();
    while (within < count) {
        const uint64_t i = rng_next(&rng) % ix->size;
        const uint8_t v = kvs_table_entry(t, i);
        const bool in = v != 0 && v - 1 <= depth;
        // Mostly positions the search can prove; one in ten beyond its horizon.
        if ((!in && rng_below(&rng, 10) != 0) || !kvs_index_canonical(ix, i))
            continue;
        const KvsPos p = kvs_index_position(ix, i);
        char text[KVS_TEXT_CAP];
        kvs_pos_text(&p, (int)rng_below(&rng, 2), 1, text);
        if (g->ops->parse_position(g, s, text, &err) != STATUS_OK)
            return cli_error("%s: %s", text, err.msg);
        if (game_is_over(g, s))
            continue; // a locked king: lost before any search
        SearchResult r;
        agent_new_game(a);
        if (agent_think(a, s, &r, &err) != STATUS_OK)
            return cli_error("%s: %s", text, err.msg);
        const int plies = v - 1;
        const int want = !in ? 0 : (plies & 1) ? SCORE_WIN - plies : -SCORE_WIN + plies;
        const bool ok = in ? r.score == want : !score_is_decisive(r.score);
        in ? within++ : beyond++;
        if (!ok && ++wrong <= 10)
            printf("mismatch %s: table %d, search score %d\n", text, v, r.score);
        if ((within + beyond) % 1000 == 0)
            fprintf(stderr, "\rchecked %ld + %ld, %ld wrong, %.0f s ", within, beyond, wrong,
                    (double)(clock_ms() - start) / 1000.0);
    }
    fprintf(stderr, "\n");
    printf("checked %ld positions within %d plies and %ld beyond: %ld mismatches, %.0f s\n",
           within, depth, beyond, wrong, (double)(clock_ms() - start) / 1000.0);
    free(s);
    agent_free(a);
    kvs_table_close(t);
    return wrong == 0 ? 0 : 1;
}

/* One start of the report: `name`'s set-up with first-move-soldier `fms` and the other
 * rules of the command line. */
static int report_start(const CliOptions *o, const KvsTable *t, const char *name,
                        const char *fms)
{
    RuleSetting rules[CLI_MAX_RULES + 1];
    int n = 0;
    for (int i = 0; i < o->n_rules; i++)
        if (strcmp(o->rules[i].name, "first-move-soldier") != 0)
            rules[n++] = o->rules[i];
    rules[n++] = (RuleSetting){"first-move-soldier", fms};
    ErrBuf err;
    Game *g;
    const GameOps *ops = registry_find(name);
    if (ops == NULL || game_create(ops, 0, rules, n, &g, &err) != STATUS_OK)
        return cli_error("%s: %s", name, ops ? err.msg : "not a game");
    GameState *s = game_state_new(g);
    StrBuf out;
    sb_init(&out);
    Status st = s ? STATUS_OK : err_set(&err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK) {
        g->ops->new_game(g, s, o->seed);
        g->ops->format_position(g, s, &out);
        printf("%s, first-move-soldier %s (start %s):\n", name, fms, sb_str(&out));
        sb_clear(&out);
        if ((st = kvs_table_fits(t, g, &err)) == STATUS_OK)
            st = solve_report_start(t, g, s, &out, &err);
    }
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    free(s);
    game_destroy(g);
    return st == STATUS_OK ? 0 : cli_error("%s", err.msg);
}

/* --report: the table at path, for the starts of both games it solves. */
static int report(const CliOptions *o, const Game *g, const char *path)
{
    ErrBuf err;
    KvsTable *t;
    if (kvs_table_open(path, g, &t, &err) != STATUS_OK)
        return cli_error("%s", err.msg);
    char rn[64];
    kvs_rules_name(kvs_table_rules(t), rn, sizeof rn);
    printf("table %s (%s)\n", path, rn);
    int rc = 0;
    static const char *const games[] = {"kings-valley", "retrieve-the-king"};
    static const char *const fms[] = {"on", "off"};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            rc |= report_start(o, t, games[i], fms[k]);
    StrBuf out;
    sb_init(&out);
    if (solve_report_table(t, g, &out, &err) != STATUS_OK)
        rc = cli_error("%s", err.msg);
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    kvs_table_close(t);
    return rc;
}

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

/* Opens as the other one-game commands do (cmd_playouts.c, cmd_prove.c): its usage, the
 * shared options, the game; the helpers hold the logic, what is left is each one's words. */
int cmd_solve(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown solve kings-valley [--rule NAME=VALUE]... [--out FILE] "
        "[--soldiers N] [--threads N] [--check N [--depth H] [--seed S]] "
        "[--report [--tablebase FILE]] [--compress [--tablebase FILE] [--out FILE] [--level L]]";
    CliOptions o;
    if (!cli_parse_game_options(argc, argv, usage, &o))
        return 2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    free(s);
    ErrBuf err;
    KvsRules rules;
    char path[4096];
    if (kvs_rules_of_game(g, &rules, &err) != STATUS_OK ||
        ((o.out == NULL || o.compress) && kvs_default_path(&rules, path, sizeof path, &err) != STATUS_OK)) {
        game_destroy(g);
        return cli_error("%s", err.msg);
    }
    if (o.compress) {
        // The full table (--tablebase, else the default) packed to --out, else beside it.
        char full[4096], packed[4200];
        snprintf(full, sizeof full, "%s", o.tablebase ? o.tablebase : path);
        const size_t n = strlen(full);
        if (o.out != NULL)
            snprintf(packed, sizeof packed, "%s", o.out);
        else if (n > 4 && strcmp(full + n - 4, ".kvt") == 0)
            snprintf(packed, sizeof packed, "%.*s.kvz", (int)(n - 4), full);
        else
            snprintf(packed, sizeof packed, "%s.kvz", full);
        const int rc = solve_pack(&o, g, full, packed);
        game_destroy(g);
        return rc;
    }
    if (o.out != NULL)
        snprintf(path, sizeof path, "%s", o.out);
    // A reduced game (fewer soldiers a side) is for tests; it never takes the default
    // place of the game's table.
    if (o.soldiers_set && o.soldiers != rules.soldiers) {
        if (o.out == NULL) {
            game_destroy(g);
            return cli_error("--soldiers %ld needs --out FILE", o.soldiers);
        }
        rules.soldiers = (int)o.soldiers;
    }
    if (o.report) {
        const int rc = report(&o, g, o.tablebase ? o.tablebase : path);
        game_destroy(g);
        return rc;
    }
    if (o.check > 0) {
        const int rc = check_table(&o, g, path, o.check);
        game_destroy(g);
        return rc;
    }
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
                           .checkpoint_seconds = 120,
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
