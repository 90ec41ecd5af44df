/*
 * cmd_puzzles.c - `crown puzzles GAME --count N`: finds puzzles (play/puzzle.h) and
 * writes one a line as JSON; proven from the solved table for King's Valley and
 * Retrieve the King (the command says when the table is missing and how to make it),
 * searched at two depths for the other two-player games. `--verify FILE` checks a
 * written set: against the table when there is one, else by search.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/clock.h"
#include "core/game_api.h"
#include "play/perfect.h"
#include "play/puzzle.h"

typedef struct PuzzleArgs {
    long count, min_plies, max_plies, sample;
    const char *verify;
} PuzzleArgs;

static bool take_flag(void *ctx, int which, const char *flag, const char *value)
{
    PuzzleArgs *a = ctx;
    switch (which) {
    case 0:
        return cli_read_number(flag, value, 1, 1000000, &a->count);
    case 1:
        return cli_read_number(flag, value, 1, PUZZLE_MAX_PLIES, &a->min_plies);
    case 2:
        return cli_read_number(flag, value, 1, PUZZLE_MAX_PLIES, &a->max_plies);
    case 3:
        a->verify = value;
        return true;
    default:
        return cli_read_number(flag, value, 1, 1000000, &a->sample);
    }
}

/* A puzzle's id in its links: a hash of its game and position (FNV-1a), so that the same
 * puzzle keeps its link when the set is made again. */
static void puzzle_id(const char *game, const char *position, char out[17])
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = game; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    for (const char *p = position; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    out[10] = '\0';
}

typedef struct Writer {
    FILE *f;
    const Game *g;
    const CliOptions *o;
    long n;
    int64_t start;
} Writer;

static bool write_puzzle(void *ctx, const Puzzle *p)
{
    Writer *w = ctx;
    char id[17];
    puzzle_id(w->g->ops->name, p->position, id);
    json_t *sol = json_array(), *themes = json_array();
    for (int i = 0; i < p->plies; i++)
        json_array_append_new(sol, json_string(p->solution[i]));
    for (int i = 0; i < p->n_themes; i++)
        json_array_append_new(themes, json_string(p->themes[i]));
    json_t *o = json_pack("{s:s,s:s,s:s,s:o,s:i,s:o,s:i,s:b,s:s}", "id", id, "game",
                          w->g->ops->name, "position", p->position, "solution", sol, "plies",
                          p->plies, "themes", themes, "rating", p->rating, "proven",
                          p->proven, "value", p->value);
    if (w->o->n_rules > 0) {
        json_t *rules = json_object();
        for (int i = 0; i < w->o->n_rules; i++)
            json_object_set_new(rules, w->o->rules[i].name, json_string(w->o->rules[i].value));
        json_object_set_new(o, "rules", rules);
    }
    char *line = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (line == NULL)
        return false;
    fprintf(w->f, "%s\n", line);
    free(line);
    fflush(w->f);
    w->n++;
    fprintf(stderr, "\r%ld puzzles, %.0f s ", w->n, (double)(clock_ms() - w->start) / 1000.0);
    return true;
}

/* The table for g's rules, or an error that says how to make it. */
static int open_table(const CliOptions *o, const Game *g, Perfect **pf, const KvsTable **t)
{
    if (!cli_open_perfect(o, pf))
        return 1;
    *t = perfect_table(*pf, g);
    if (*t != NULL)
        return 0;
    KvsRules rules;
    char path[4096], name[64], how[160] = "";
    ErrBuf err;
    kvs_rules_of_game(g, &rules, &err);
    kvs_rules_name(&rules, name, sizeof name);
    if (kvs_default_path(&rules, path, sizeof path, &err) != STATUS_OK)
        snprintf(path, sizeof path, "the data directory");
    for (int i = 0; i < o->n_rules; i++) {
        const size_t n = strlen(how);
        snprintf(how + n, sizeof how - n, " --rule %s=%s", o->rules[i].name, o->rules[i].value);
    }
    return cli_error("%s's puzzles are proven from its solved table (%s), and there is none "
                     "at %s: make it with `crown solve kings-valley%s` (about 1.7 GB; "
                     "docs/SOLVED.md), or name one with --tablebase FILE",
                     g->ops->name, name, path, how);
}

/* The searched check of a proven puzzle: its solution's moves must be the only proven
 * wins at the depth of its win. */
static Status verify_by_search(const Game *g, const Puzzle *p, const char *const *sol,
                               int depth, ErrBuf *err)
{
    int plies = 0;
    if (sscanf(p->value, "win in %d", &plies) != 1)
        return err_set(err, STATUS_PARSE, "value '%s' is not a win", p->value);
    PuzzleSearch *ps;
    Status st = puzzle_search_new(g, plies > depth ? depth : plies, p->proven, &ps, err);
    if (st != STATUS_OK)
        return st;
    PuzzleJudge j;
    puzzle_search_judge(ps, &j);
    st = puzzle_check(&j, g, p->position, sol, p->plies, err);
    puzzle_search_free(ps);
    return st;
}

/* --verify FILE: every puzzle of the file (or the first --sample of those a check can
 * settle) checked. */
static int verify(const CliOptions *o, const PuzzleArgs *a, const Game *g)
{
    FILE *f = fopen(a->verify, "r");
    if (f == NULL)
        return cli_error("%s: cannot open it", a->verify);
    Perfect *pf = NULL;
    const KvsTable *t = NULL;
    KvsRules rules;
    ErrBuf err;
    if (!cli_open_perfect(o, &pf)) {
        fclose(f);
        return 1;
    }
    if (kvs_rules_of_game(g, &rules, &err) == STATUS_OK)
        t = perfect_table(pf, g);
    const int depth = o->limits.depth > 0 ? o->limits.depth : 2;
    PuzzleSearch *ps = NULL;
    PuzzleJudge judge;
    if (t != NULL) {
        puzzle_table_judge(t, &judge);
    } else if (puzzle_search_new(g, depth, false, &ps, &err) == STATUS_OK) {
        puzzle_search_judge(ps, &judge);
    } else {
        fclose(f);
        perfect_free(pf);
        return cli_error("%s", err.msg);
    }
    char line[8192];
    long lineno = 0, checked = 0, skipped = 0, wrong = 0;
    Puzzle *p = malloc(sizeof *p);
    while (p != NULL && fgets(line, sizeof line, f) != NULL &&
           (a->sample == 0 || checked < a->sample)) {
        lineno++;
        json_error_t jerr;
        json_t *j = json_loads(line, 0, &jerr);
        const char *game = NULL, *pos = NULL, *value = "";
        json_t *sol = NULL;
        int proven = 0;
        if (j == NULL || json_unpack(j, "{s:s,s:s,s:o,s?b,s?s}", "game", &game, "position", &pos,
                                     "solution", &sol, "proven", &proven, "value", &value) != 0 ||
            !json_is_array(sol) || json_array_size(sol) > PUZZLE_MAX_PLIES ||
            strcmp(game, g->ops->name) != 0) {
            printf("line %ld: not a puzzle of %s\n", lineno, g->ops->name);
            wrong++;
            json_decref(j);
            continue;
        }
        const char *texts[PUZZLE_MAX_PLIES];
        const int n = (int)json_array_size(sol);
        for (int i = 0; i < n; i++)
            texts[i] = json_string_value(json_array_get(sol, (size_t)i));
        snprintf(p->position, sizeof p->position, "%s", pos);
        snprintf(p->value, sizeof p->value, "%s", value);
        p->plies = n;
        p->proven = proven;
        Status st;
        int win = 0;
        if (t != NULL || !proven) {
            st = puzzle_check(&judge, g, pos, texts, n, &err);
        } else if (sscanf(value, "win in %d", &win) == 1 && win <= depth + 3) {
            st = verify_by_search(g, p, texts, depth + 3, &err);
        } else {
            skipped++; // a win too long for the search to see
            json_decref(j);
            continue;
        }
        checked++;
        if (st != STATUS_OK) {
            printf("line %ld (%s): %s\n", lineno, pos, err.msg);
            wrong++;
        }
        json_decref(j);
    }
    const char *how = t != NULL ? "against the solved table" : "by search";
    printf("checked %ld puzzles %s: %ld wrong", checked, how, wrong);
    if (skipped > 0)
        printf(", %ld left (their wins are beyond the search's depth)", skipped);
    printf("\n");
    free(p);
    fclose(f);
    puzzle_search_free(ps);
    perfect_free(pf);
    return wrong == 0 && checked > 0 ? 0 : 1;
}

int cmd_puzzles(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown puzzles GAME --count N [--seed S] [--min-plies A --max-plies B] "
        "[--out FILE] [--depth D] [--rule NAME=VALUE]... [--tablebase FILE] [--position TEXT]"
        " | crown puzzles GAME --verify FILE [--sample N] [--depth D]";
    static const char *const own[] = {"--count", "--min-plies", "--max-plies", "--verify",
                                      "--sample"};
    PuzzleArgs a = {.count = 0, .min_plies = 1, .max_plies = 15};
    CliOptions o;
    const int parsed = cli_parse_own_options(argc, argv, own, (int)(sizeof own / sizeof own[0]),
                                             take_flag, &a, &o);
    if (parsed != 0)
        return parsed;
    if (o.n_positional != 1 || (a.count == 0) == (a.verify == NULL))
        return cli_error("%s", usage), 2;
    if (a.min_plies > a.max_plies)
        return cli_error("--min-plies %ld is more than --max-plies %ld", a.min_plies,
                         a.max_plies),
               2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    free(s);
    int rc = 0;
    ErrBuf err;
    KvsRules rules;
    if (g->players != 2 || (g->ops->flags & GAME_HAS_CHANCE) ||
        !(g->ops->flags & GAME_PERFECT_INFO)) {
        rc = cli_error("puzzles need a two-player game of perfect information without "
                       "chance; %s is not one",
                       g->ops->name);
        game_destroy(g);
        return rc;
    }
    if (a.verify != NULL) {
        rc = verify(&o, &a, g);
        game_destroy(g);
        return rc;
    }
    Perfect *pf = NULL;
    PuzzleSearch *ps = NULL;
    PuzzleJudge judge;
    PuzzleFindOptions fo = {.count = a.count, .seed = o.seed, .min_plies = (int)a.min_plies,
                            .max_plies = (int)a.max_plies, .start = o.position};
    if (kvs_rules_of_game(g, &rules, &err) == STATUS_OK) {
        if ((rc = open_table(&o, g, &pf, &fo.table)) != 0)
            goto done;
        puzzle_table_judge(fo.table, &judge);
    } else {
        const int depth = o.limits.depth > 0 ? o.limits.depth : 2;
        if (puzzle_search_new(g, depth, false, &ps, &err) != STATUS_OK) {
            rc = cli_error("%s", err.msg);
            goto done;
        }
        puzzle_search_judge(ps, &judge);
    }
    Writer w = {.f = stdout, .g = g, .o = &o, .start = clock_ms()};
    if (o.out != NULL && (w.f = fopen(o.out, "w")) == NULL) {
        rc = cli_error("%s: cannot write it", o.out);
        goto done;
    }
    long games = 0;
    if (puzzle_find(&judge, g, &fo, write_puzzle, &w, &games, &err) != STATUS_OK)
        rc = cli_error("%s", err.msg);
    fprintf(stderr, "\r%ld puzzles from %ld games, %.0f s\n", w.n, games,
            (double)(clock_ms() - w.start) / 1000.0);
    if (w.f != stdout && fclose(w.f) != 0)
        rc = cli_error("%s: cannot write it", o.out);
    if (rc == 0 && w.n < a.count)
        rc = cli_error("found %ld puzzles of the %ld asked", w.n, a.count);
done:
    puzzle_search_free(ps);
    perfect_free(pf);
    game_destroy(g);
    return rc;
}
