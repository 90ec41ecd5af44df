/*
 * test_kv_perft.c - the King's Valley games against the plain reference generator.
 *
 * Three layers: the perft numbers the issue gives for the kings-valley start; the
 * committed table tests/perft/kings-valley.perft (numbers from tests/support/kv_reference,
 * checked here against both the fast perft hook and the generic make/unmake perft); and
 * random games through the game interface in which every visited position's text and
 * result, and its move list (at every position, or in long 7x7 trap games at every few),
 * must match the reference, with perft compared now and again. Positions are reached
 * only by play, half the time steering back to earlier positions, so the reference and
 * the fast game share history and repetition draws are compared too.
 *
 * Run with a test name pattern as argument to run only those tests; CROWN_ROOT locates
 * the table when not run from the source root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/registry.h"
#include "core/rng.h"
#include "support/kv_reference.h"

enum {
    MAX_SETTINGS = 4,
    LOG_CAP = 8192,   /* moves played so far, for reproducing a failure */
    LINE_CAP = 1024,  /* one line of the perft table */
    PATH_CAP = 4096,
    MAX_DEPTHS = 12,
};

/* The fast game and the reference side by side, kept at the same position. */
typedef struct Pair {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    Game *g;
    GameState *s;
    void *undo;
    KvRefGame *ref;
    char log[LOG_CAP]; /* "<start text> : c1-c4 a5-a2 ..." */
} Pair;

static void describe(const Pair *p, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s", p->game);
    for (int i = 0; i < p->n_settings && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, " %s", p->settings[i]);
}

/* Sets up both from a position text (NULL: the fast game's new_game, which must then
 * print as the reference start text). */
static void pair_open(Pair *p, const char *game, const char *const *settings, int n_settings,
                      const char *text)
{
    memset(p, 0, sizeof *p);
    p->game = game;
    p->n_settings = n_settings;
    for (int i = 0; i < n_settings; i++)
        p->settings[i] = settings[i];
    const GameOps *ops = registry_find(game);
    if (ops == NULL)
        fail_msg("game %s is not registered", game);
    ErrBuf err;
    err_clear(&err);
    if (game_create(ops, 0, settings, n_settings, &p->g, &err) != STATUS_OK)
        fail_msg("%s: game_create: %s", game, err.msg);
    p->s = game_state_new(p->g);
    p->undo = game_undo_new(p->g);
    assert_true(p->s != NULL && p->undo != NULL);
    KvRefRules rules;
    char rerr[128];
    if (!kvref_rules_for(game, settings, n_settings, &rules, rerr, sizeof rerr))
        fail_msg("%s: reference rules: %s", game, rerr);
    if (text == NULL) {
        ops->new_game(p->g, p->s, 1);
        text = kvref_start_text(game);
        StrBuf sb;
        sb_init(&sb);
        ops->format_position(p->g, p->s, &sb);
        if (strcmp(sb_str(&sb), text) != 0)
            fail_msg("%s: start position is '%s', not '%s'", game, sb_str(&sb), text);
        sb_free(&sb);
    } else if (ops->parse_position(p->g, p->s, text, &err) != STATUS_OK) {
        fail_msg("%s: fast parse of '%s': %s", game, text, err.msg);
    }
    p->ref = kvref_game_new(&rules, text, rerr, sizeof rerr);
    if (p->ref == NULL)
        fail_msg("%s: reference parse of '%s': %s", game, text, rerr);
    snprintf(p->log, sizeof p->log, "%s :", text);
}

static void pair_close(Pair *p)
{
    free(p->ref);
    free(p->undo);
    free(p->s);
    game_destroy(p->g);
    p->g = NULL;
}

typedef char MoveText[KVREF_MOVE_TEXT];

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The fast move list as sorted texts. */
static int fast_texts(const Pair *p, MoveList *list, MoveText *out)
{
    int n = p->g->ops->gen_moves(p->g, p->s, list);
    for (int i = 0; i < n; i++) {
        StrBuf sb;
        sb_init(&sb);
        p->g->ops->format_move(p->g, p->s, list->moves[i], &sb);
        snprintf(out[i], sizeof out[i], "%s", sb_str(&sb));
        sb_free(&sb);
    }
    qsort(out, (size_t)n, sizeof out[0], cmp_text);
    return n;
}

static int ref_texts(const Pair *p, MoveText *out)
{
    KvRefMove moves[KVREF_MAX_MOVES];
    int n = kvref_legal_moves(p->ref, moves);
    for (int i = 0; i < n; i++)
        kvref_format_move(moves[i], out[i]);
    qsort(out, (size_t)n, sizeof out[0], cmp_text);
    return n;
}

static void join(MoveText *t, int n, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", t[i]);
}

/* Everything observable at the current position must agree: position text, result and,
 * when `moves` is set, the move list (the costly part under the 7x7 trap rule). Leaves the
 * sorted move texts in `out` (the agreed list, or the fast one when not compared) and
 * returns their count. */
static int compare_position(const Pair *p, MoveList *list, MoveText *out, bool moves)
{
    char rules[256];
    describe(p, rules, sizeof rules);
    const GameOps *ops = p->g->ops;
    char ref_pos[KVREF_POSITION_TEXT];
    kvref_format_position(kvref_current(p->ref), ref_pos, sizeof ref_pos);
    StrBuf sb;
    sb_init(&sb);
    ops->format_position(p->g, p->s, &sb);
    if (strcmp(sb_str(&sb), ref_pos) != 0)
        fail_msg("[%s] position text '%s', reference '%s'\n  moves: %s", rules, sb_str(&sb),
                 ref_pos, p->log);
    sb_free(&sb);

    const char *why;
    KvRefResult want = kvref_result(p->ref, &why);
    int tm = ops->to_move(p->g, p->s);
    if ((want == KVREF_ONGOING) != (tm != PLAYER_NONE))
        fail_msg("[%s] at '%s' the fast game says %s, the reference %s (%s)\n  moves: %s",
                 rules, ref_pos, tm == PLAYER_NONE ? "over" : "not over",
                 want == KVREF_ONGOING ? "not over" : "over", why, p->log);
    if (want == KVREF_ONGOING && tm != kvref_current(p->ref)->to_move)
        fail_msg("[%s] at '%s' fast to_move %d\n  moves: %s", rules, ref_pos, tm, p->log);
    if (want != KVREF_ONGOING) {
        double ret[MAX_PLAYERS] = {0};
        ops->returns(p->g, p->s, ret);
        double first = want == KVREF_FIRST_WINS ? 1 : want == KVREF_SECOND_WINS ? -1 : 0;
        if (ret[0] != first || ret[1] != -first)
            fail_msg("[%s] at '%s' fast returns %g %g, reference says %s (%s)\n  moves: %s",
                     rules, ref_pos, ret[0], ret[1],
                     want == KVREF_DRAW ? "draw" : want == KVREF_FIRST_WINS ? "1 wins" : "2 wins",
                     why, p->log);
    }

    MoveText fast[MOVELIST_CAP];
    int nf = fast_texts(p, list, fast);
    if (!moves) {
        if (nf > KVREF_MAX_MOVES)
            fail_msg("[%s] %d moves at '%s'", rules, nf, ref_pos);
        memcpy(out, fast, sizeof fast[0] * (size_t)nf);
        return nf;
    }
    MoveText *ref = out;
    int nr = ref_texts(p, ref);
    char a[1024], b[1024];
    join(fast, nf, a, sizeof a);
    join(ref, nr, b, sizeof b);
    if (strcmp(a, b) != 0)
        fail_msg("[%s] moves at '%s'\n  fast (%d): %s\n  ref  (%d): %s\n  moves: %s", rules,
                 ref_pos, nf, a, nr, b, p->log);
    return nr;
}

/* Plays the move with this text in both. */
static void pair_play(Pair *p, const MoveList *list, const char *text)
{
    const GameOps *ops = p->g->ops;
    Move m = MOVE_NONE;
    for (int i = 0; i < list->count && m == MOVE_NONE; i++) {
        StrBuf sb;
        sb_init(&sb);
        ops->format_move(p->g, p->s, list->moves[i], &sb);
        if (strcmp(sb_str(&sb), text) == 0)
            m = list->moves[i];
        sb_free(&sb);
    }
    /* The text comes from the agreed move list, so only its syntax needs reading (a
     * legality check would regenerate the list, which is slow under the trap rule). */
    KvRefMove rm;
    assert_true(m != MOVE_NONE);
    assert_true(kvref_parse_move(p->ref->rules.size, text, &rm));
    ops->make(p->g, p->s, m, p->undo);
    kvref_play(p->ref, rm);
    size_t len = strlen(p->log);
    snprintf(p->log + len, sizeof p->log - len, " %s", text);
}

static void compare_perft(const Pair *p, int depth)
{
    uint64_t want = kvref_perft(p->ref, depth);
    uint64_t fast = game_perft(p->g, p->s, depth);
    uint64_t generic = game_perft_generic(p->g, p->s, depth);
    if (fast != want || generic != want) {
        char rules[256], pos[KVREF_POSITION_TEXT];
        describe(p, rules, sizeof rules);
        kvref_format_position(kvref_current(p->ref), pos, sizeof pos);
        fail_msg("[%s] perft %d at '%s': reference %llu, fast %llu, generic %llu\n  moves: %s",
                 rules, depth, pos, (unsigned long long)want, (unsigned long long)fast,
                 (unsigned long long)generic, p->log);
    }
}

/* --- (a) the numbers given with the issue ------------------------------------------ */

static void test_given_start_numbers(void **state)
{
    (void)state;
    static const uint64_t want[] = {10, 110, 1570, 21708};
    Pair p;
    pair_open(&p, "kings-valley", NULL, 0, NULL);
    for (int d = 1; d <= 4; d++) {
        assert_int_equal(kvref_perft(p.ref, d), want[d - 1]);
        assert_int_equal(game_perft(p.g, p.s, d), want[d - 1]);
        assert_int_equal(game_perft_generic(p.g, p.s, d), want[d - 1]);
    }
    pair_close(&p);
}

/* --- (b) the committed table ---------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* One table line: "<game> [name=value ...] ;<position> ;D1 n ;D2 n ...". The rule
 * settings after the game name are an extension of the EPD-style format for the 7x7
 * trap option and the like. */
static void check_table_line(char *line, int line_no)
{
    char *fields[MAX_DEPTHS + 2] = {0};
    int nf = 0;
    char *p = line;
    while (nf < MAX_DEPTHS + 2) {
        fields[nf++] = p;
        char *semi = strchr(p, ';');
        if (semi == NULL)
            break;
        *semi = '\0';
        p = semi + 1;
    }
    if (nf < 3)
        fail_msg("perft table line %d: expected game ;position ;D1 n", line_no);
    char *head = trim(fields[0]);
    const char *settings[MAX_SETTINGS];
    int ns = 0;
    char *game = head;
    char *sp = strchr(head, ' ');
    while (sp != NULL) {
        *sp = '\0';
        char *next = sp + 1;
        while (*next == ' ')
            next++;
        if (ns == MAX_SETTINGS)
            fail_msg("perft table line %d: too many settings", line_no);
        settings[ns++] = next;
        sp = strchr(next, ' ');
    }
    Pair pair;
    pair_open(&pair, game, settings, ns, trim(fields[1]));
    for (int i = 2; i < nf; i++) {
        int depth;
        unsigned long long n;
        if (sscanf(trim(fields[i]), "D%d %llu", &depth, &n) != 2 || depth < 1)
            fail_msg("perft table line %d: bad field '%s'", line_no, fields[i]);
        uint64_t fast = game_perft(pair.g, pair.s, depth);
        uint64_t generic = game_perft_generic(pair.g, pair.s, depth);
        if (fast != n || generic != n)
            fail_msg("perft table line %d (%s ;%s) D%d: table %llu, fast %llu, generic %llu",
                     line_no, game, trim(fields[1]), depth, n,
                     (unsigned long long)fast, (unsigned long long)generic);
        /* The reference re-derives the shallow numbers, so an edited table is caught (only
         * D1 under the trap rule, where each reference generation is costly). */
        int ref_depth = pair.ref->rules.trap == KVREF_TRAP_OFF ? 2 : 1;
        if (depth <= ref_depth && kvref_perft(pair.ref, depth) != n)
            fail_msg("perft table line %d D%d: reference disagrees with the table", line_no,
                     depth);
    }
    pair_close(&pair);
}

static void test_perft_table(void **state)
{
    const char *path = *state;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s (run from the source root or set CROWN_ROOT)", path);
    char line[LINE_CAP];
    int line_no = 0, checked = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        line_no++;
        char *t = trim(line);
        if (t[0] == '\0' || t[0] == '#')
            continue;
        check_table_line(t, line_no);
        checked++;
    }
    fclose(f);
    assert_true(checked >= 10);
    print_message("perft table: %d positions\n", checked);
}

/* --- (c) random games against the reference ------------------------------------------ */

typedef struct RandomCase {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    int games;
    int perft_every; /* compare perft at every n-th position */
    int perft_depth;
    int full_plies;  /* move lists are compared at every position before this ply, */
    int list_every;  /* and at every n-th one after it (text and result always) */
} RandomCase;

/* Picks the next move: half the time one that repeats an earlier position when there is
 * such a move, so that repetition draws happen often enough to be compared. */
static int pick_move(Pair *p, Rng *rng, MoveText *texts, int n)
{
    int repeats[KVREF_MAX_MOVES];
    int nrep = 0;
    for (int i = 0; i < n; i++) {
        KvRefMove m;
        assert_true(kvref_parse_move(p->ref->rules.size, texts[i], &m));
        kvref_play(p->ref, m);
        if (kvref_occurrences(p->ref) >= 2)
            repeats[nrep++] = i;
        kvref_undo(p->ref);
    }
    if (nrep > 0 && rng_below(rng, 2) == 0)
        return repeats[rng_below(rng, (uint32_t)nrep)];
    return (int)rng_below(rng, (uint32_t)n);
}

/* How the reference says games ended, so the output shows which rules were reached. */
static const char *const ENDINGS[] = {"king on the Valley", "king locked", "ply limit",
                                      "threefold repetition", "no legal move"};
enum { N_ENDINGS = 5 };

static void tally_ending(const KvRefGame *ref, long *endings)
{
    const char *why;
    kvref_result(ref, &why);
    for (int i = 0; i < N_ENDINGS; i++)
        if (strcmp(why, ENDINGS[i]) == 0)
            endings[i]++;
}

/* Plays the case's games; returns the number of positions visited. */
static long run_case(const RandomCase *c, uint64_t seed, long *perfts, long *endings,
                     long *lists)
{
    long positions = 0, compared = 0;
    MoveList *list = malloc(sizeof *list);
    assert_non_null(list);
    for (int k = 0; k < c->games; k++) {
        Pair p;
        pair_open(&p, c->game, c->settings, c->n_settings, NULL);
        Rng rng;
        rng_seed(&rng, seed + (uint64_t)k);
        for (int ply = 0;; ply++) {
            MoveText texts[KVREF_MAX_MOVES];
            bool full = ply < c->full_plies || ply % c->list_every == 0;
            int n = compare_position(&p, list, texts, full);
            positions++;
            compared += full;
            if (full && c->perft_every > 0 && compared % c->perft_every == 0) {
                compare_perft(&p, c->perft_depth);
                (*perfts)++;
            }
            if (n == 0) {
                tally_ending(p.ref, endings);
                break;
            }
            int i = pick_move(&p, &rng, texts, n);
            pair_play(&p, list, texts[i]);
        }
        pair_close(&p);
    }
    free(list);
    *lists += compared;
    return positions;
}

static void run_cases(const RandomCase *cases, size_t n, uint64_t seed)
{
    long positions = 0, perfts = 0, lists = 0, endings[N_ENDINGS] = {0};
    for (size_t i = 0; i < n; i++) {
        long before = positions;
        positions += run_case(&cases[i], seed + 1000 * (uint64_t)i, &perfts, endings, &lists);
        print_message("  %-24s", cases[i].game);
        for (int k = 0; k < cases[i].n_settings; k++)
            print_message(" %s", cases[i].settings[k]);
        print_message(": %ld positions\n", positions - before);
    }
    print_message("%ld positions (%ld move lists compared), %ld perft comparisons; games ended by",
                  positions, lists, perfts);
    for (int i = 0; i < N_ENDINGS; i++)
        print_message("%s %s %ld", i ? "," : "", ENDINGS[i], endings[i]);
    print_message("\n");
}

/* Move lists compared at every position. */
#define EVERY_PLY KVREF_MAX_HISTORY, 1

static void test_random_5x5(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-valley", {0}, 0, 60, 7, 3, EVERY_PLY},
        {"kings-valley", {"first-move-soldier=off"}, 1, 30, 11, 3, EVERY_PLY},
        {"kings-valley", {"locked-king-loses=off"}, 1, 40, 11, 3, EVERY_PLY},
        {"kings-valley", {"locked-king-loses=off", "first-move-soldier=off"}, 2, 20, 13, 3,
         EVERY_PLY},
        {"kings-valley", {"max-plies=12"}, 1, 30, 5, 3, EVERY_PLY},
        {"kings-valley", {"max-plies=0"}, 1, 1, 1, 2, EVERY_PLY},
        {"retrieve-the-king", {0}, 0, 50, 7, 3, EVERY_PLY},
        {"retrieve-the-king", {"locked-king-loses=off"}, 1, 30, 11, 3, EVERY_PLY},
        {"retrieve-the-king", {"first-move-soldier=off", "max-plies=40"}, 2, 20, 11, 3,
         EVERY_PLY},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 0x5000);
}

static void test_random_labyrinth(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-valley-labyrinth", {0}, 0, 12, 13, 3, EVERY_PLY},
        {"kings-valley-labyrinth", {"locked-king-loses=off"}, 1, 8, 17, 3, EVERY_PLY},
        {"kings-valley-labyrinth", {"first-move-soldier=off", "max-plies=60"}, 2, 8, 17, 3,
         EVERY_PLY},
        {"kings-valley-7x7", {"trap=off"}, 1, 8, 17, 3, EVERY_PLY},
        {"kings-valley-7x7", {"trap=off", "locked-king-loses=off", "max-plies=80"}, 3, 6, 17, 3,
         EVERY_PLY},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 0x7000);
}

/* The trap filter makes every 7x7 move generation cost the reference thousands of
 * hypothetical positions (tens of thousands late in a game, when paths are scarce), so
 * move lists are compared at every position of the opening and then every few plies;
 * texts and results are compared at every position. */
static void test_random_7x7_trap(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-valley-7x7", {0}, 0, 2, 31, 2, 30, 10},
        {"kings-valley-7x7", {"max-plies=50"}, 1, 3, 37, 2, 50, 1},
        {"kings-valley-7x7", {"trap=opponent"}, 1, 1, 31, 2, 30, 10},
        {"kings-valley-7x7", {"locked-king-loses=off", "max-plies=120"}, 2, 2, 0, 0, 30, 10},
        {"kings-valley-7x7", {"first-move-soldier=off", "max-plies=30"}, 2, 2, 0, 0, 30, 1},
        {"kings-valley-7x7", {"trap=opponent", "locked-king-loses=off", "max-plies=120"}, 3, 2,
         0, 0, 30, 10},
    };
    run_cases(cases, sizeof cases / sizeof cases[0], 0x9000);
}

/* The table file: $CROWN_ROOT/tests/perft/..., else relative to the working directory,
 * else relative to the binary (build/<variant>/tests/test_kv_perft). */
static void find_table(const char *argv0, char *out, size_t cap)
{
    const char *rel = "tests/perft/kings-valley.perft";
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
    int dir_len = slash ? (int)(slash - argv0) : 1;
    snprintf(out, cap, "%.*s/../../../%s", dir_len, slash ? argv0 : ".", rel);
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    char path[PATH_CAP];
    find_table(argv[0], path, sizeof path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_given_start_numbers),
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_5x5),
        cmocka_unit_test(test_random_labyrinth),
        cmocka_unit_test(test_random_7x7_trap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
