/*
 * test_kings_guard_perft.c - the King's Guard games against the plain reference generator.
 *
 * Four layers: the start positions of both boards, counted per action and per whole
 * turn; the committed table tests/perft/kings-guard.perft (numbers from
 * tests/support/kg_reference, checked against the fast perft hook and the generic
 * make/unmake perft); random games in which every position's legal actions, text and
 * result must match the reference, with perft compared now and then; and thousands of
 * random positions built to be unusual (tall and full towers, kings next to enemy
 * stacks, turns in progress), each compared and played into for a few actions.
 *
 * Perft per action counts the leaves `depth` actions deep (pick up, place, end each
 * count one). Perft per turn counts leaves `depth` whole turns deep, a turn being one
 * sequence of placements from one start square (RULINGS 3.4.9); the game offers no hook
 * for it, so it is computed here through the interface: a turn is over when the player
 * to move changes or the game ends.
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
#include "support/kg_reference.h"

enum {
    MAX_SETTINGS = 4,
    LINE_CAP = 2048,
    PATH_CAP = 4096,
    MAX_FIELDS = 16,
    TEXT_CAP = 4096,
};

/* The game and the reference side by side, kept at the same position. */
typedef struct Pair {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    Game *g;
    GameState *s;
    void *undo;
    KgRefGame *ref;
} Pair;

static void describe(const Pair *p, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s", p->game);
    for (int i = 0; i < p->n_settings && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, " %s", p->settings[i]);
}

/* Sets both up from a position text (NULL: the game's start, which must print as the
 * reference's start text). */
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
    KgRefRules rules;
    char rerr[128];
    if (!kgref_rules_for(game, settings, n_settings, &rules, rerr, sizeof rerr))
        fail_msg("%s: reference rules: %s", game, rerr);
    char start[KGREF_POSITION_TEXT];
    if (text == NULL) {
        ops->new_game(p->g, p->s, 1);
        kgref_start_text(&rules, start, sizeof start);
        text = start;
        StrBuf sb;
        sb_init(&sb);
        ops->format_position(p->g, p->s, &sb);
        if (strcmp(sb_str(&sb), text) != 0)
            fail_msg("%s: start position is '%s', not '%s'", game, sb_str(&sb), text);
        sb_free(&sb);
    } else if (ops->parse_position(p->g, p->s, text, &err) != STATUS_OK) {
        fail_msg("%s: fast parse of '%s': %s", game, text, err.msg);
    }
    p->ref = kgref_game_new(&rules, text, rerr, sizeof rerr);
    if (p->ref == NULL)
        fail_msg("%s: reference parse of '%s': %s", game, text, rerr);
}

static void pair_close(Pair *p)
{
    kgref_game_free(p->ref);
    free(p->undo);
    free(p->s);
    game_destroy(p->g);
    p->g = NULL;
}

static char *fast_position(const Pair *p, char *out, size_t cap)
{
    StrBuf sb;
    sb_init(&sb);
    p->g->ops->format_position(p->g, p->s, &sb);
    snprintf(out, cap, "%s", sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* --- whole-turn perft through the interface ------------------------------------------------ */

static uint64_t turns_perft(const Game *g, GameState *s, int depth);

static uint64_t finish_turn(const Game *g, GameState *s, int mover, int depth)
{
    const int tm = g->ops->to_move(g, s);
    if (tm != mover)
        return turns_perft(g, s, depth - 1);
    MoveList *list = malloc(sizeof *list);
    void *undo = game_undo_new(g);
    assert_true(list != NULL && undo != NULL);
    const int n = g->ops->gen_moves(g, s, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        g->ops->make(g, s, list->moves[i], undo);
        total += finish_turn(g, s, mover, depth);
        g->ops->unmake(g, s, list->moves[i], undo);
    }
    free(undo);
    free(list);
    return total;
}

static uint64_t turns_perft(const Game *g, GameState *s, int depth)
{
    if (depth == 0)
        return 1;
    const int tm = g->ops->to_move(g, s);
    if (tm == PLAYER_NONE)
        return 0;
    return finish_turn(g, s, tm, depth);
}

/* --- comparing ------------------------------------------------------------------------------- */

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

typedef char ActionText[KGREF_ACTION_TEXT];

/* Everything observable at the current position must agree: position text, result,
 * legal actions. Leaves the game's actions (in its order) in `list`, their texts in
 * `texts`, and returns their count. */
static int compare_position(const Pair *p, MoveList *list, ActionText *texts, const char *log)
{
    char rules[256];
    describe(p, rules, sizeof rules);
    const GameOps *ops = p->g->ops;
    char ref_pos[KGREF_POSITION_TEXT], pos[TEXT_CAP];
    kgref_format_position(&p->ref->rules, kgref_current(p->ref), ref_pos, sizeof ref_pos);
    fast_position(p, pos, sizeof pos);
    if (strcmp(pos, ref_pos) != 0)
        fail_msg("[%s] position text '%s', reference '%s'\n  %s", rules, pos, ref_pos, log);
    ErrBuf err;
    err_clear(&err);
    if (!ops->is_ok(p->g, p->s, &err))
        fail_msg("[%s] is_ok at '%s': %s\n  %s", rules, pos, err.msg, log);

    const char *why;
    const KgRefResult want = kgref_result(p->ref, &why);
    const int tm = ops->to_move(p->g, p->s);
    if ((want == KGREF_ONGOING) != (tm != PLAYER_NONE))
        fail_msg("[%s] at '%s' the game says %s, the reference %s (%s)\n  %s", rules, pos,
                 tm == PLAYER_NONE ? "over" : "not over",
                 want == KGREF_ONGOING ? "not over" : "over", why, log);
    if (want == KGREF_ONGOING && tm != kgref_current(p->ref)->to_move)
        fail_msg("[%s] at '%s' to_move %d\n  %s", rules, pos, tm, log);
    if (want != KGREF_ONGOING) {
        double ret[MAX_PLAYERS] = {0};
        ops->returns(p->g, p->s, ret);
        const double first = want == KGREF_FIRST_WINS ? 1 : want == KGREF_SECOND_WINS ? -1 : 0;
        if (ret[0] != first || ret[1] != -first)
            fail_msg("[%s] at '%s' returns %g %g, reference %d (%s)\n  %s", rules, pos, ret[0],
                     ret[1], (int)want, why, log);
    }

    const int n = ops->gen_moves(p->g, p->s, list);
    static ActionText fast_sorted[MOVELIST_CAP], ref_sorted[KGREF_MAX_ACTIONS];
    for (int i = 0; i < n; i++) {
        StrBuf sb;
        sb_init(&sb);
        ops->format_move(p->g, p->s, list->moves[i], &sb);
        snprintf(texts[i], sizeof texts[i], "%s", sb_str(&sb));
        snprintf(fast_sorted[i], sizeof fast_sorted[i], "%s", sb_str(&sb));
        sb_free(&sb);
    }
    KgRefAction ref[KGREF_MAX_ACTIONS];
    const int nr = kgref_legal(p->ref, ref);
    for (int i = 0; i < nr; i++)
        kgref_format_action(p->ref, ref[i], ref_sorted[i]);
    qsort(fast_sorted, (size_t)n, sizeof fast_sorted[0], cmp_text);
    qsort(ref_sorted, (size_t)nr, sizeof ref_sorted[0], cmp_text);
    bool same = n == nr;
    for (int i = 0; same && i < n; i++)
        same = strcmp(fast_sorted[i], ref_sorted[i]) == 0;
    if (!same) {
        char a[TEXT_CAP], b[TEXT_CAP];
        size_t la = 0, lb = 0;
        a[0] = b[0] = '\0';
        for (int i = 0; i < n && la < sizeof a; i++)
            la += (size_t)snprintf(a + la, sizeof a - la, " %s", fast_sorted[i]);
        for (int i = 0; i < nr && lb < sizeof b; i++)
            lb += (size_t)snprintf(b + lb, sizeof b - lb, " %s", ref_sorted[i]);
        fail_msg("[%s] actions at '%s'\n  game (%d):%s\n  ref  (%d):%s\n  %s", rules, pos, n, a,
                 nr, b, log);
    }
    return n;
}

static void pair_play(Pair *p, const MoveList *list, int i, const char *text)
{
    KgRefAction a;
    if (!kgref_find_action(p->ref, text, &a))
        fail_msg("reference has no '%s'", text);
    p->g->ops->make(p->g, p->s, list->moves[i], p->undo);
    kgref_play(p->ref, a);
}

static void compare_perft(const Pair *p, int depth, const char *log)
{
    const uint64_t want = kgref_perft(p->ref, depth);
    const uint64_t fast = game_perft(p->g, p->s, depth);
    const uint64_t generic = game_perft_generic(p->g, p->s, depth);
    if (fast != want || generic != want) {
        char rules[256], pos[TEXT_CAP];
        describe(p, rules, sizeof rules);
        fail_msg("[%s] perft %d at '%s': reference %llu, fast %llu, generic %llu\n  %s", rules,
                 depth, fast_position(p, pos, sizeof pos), (unsigned long long)want,
                 (unsigned long long)fast, (unsigned long long)generic, log);
    }
}

static void compare_turns(const Pair *p, int depth)
{
    const uint64_t want = kgref_perft_turns(p->ref, depth);
    const uint64_t got = turns_perft(p->g, p->s, depth);
    if (got != want) {
        char pos[TEXT_CAP];
        fail_msg("turn perft %d at '%s': reference %llu, game %llu", depth,
                 fast_position(p, pos, sizeof pos), (unsigned long long)want,
                 (unsigned long long)got);
    }
}

/* --- (a) the start positions ----------------------------------------------------------------- */

typedef struct StartCase {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    uint64_t actions[7]; /* perft per action, depths 1.. (0 ends the list) */
    uint64_t turns[3];   /* perft per turn */
} StartCase;

static void test_start_numbers(void **state)
{
    (void)state;
    static const StartCase cases[] = {
        {"kings-guard", {0}, 0, {10, 35, 349, 1221, 12179, 42890, 0}, {35, 1221, 44362}},
        {"kings-guard", {"steps=all"}, 1, {10, 67, 669, 4481, 43669, 0}, {67, 4481, 0}},
        {"kings-guard-8x8", {0}, 0, {9, 31, 277, 953, 8459, 29888, 0}, {31, 953, 34820}},
        {"kings-guard-8x8", {"king-file=d"}, 1, {9, 31, 277, 953, 8459, 29888, 0},
         {31, 953, 34820}},
        {"kings-guard-8x8", {"steps=all"}, 1, {9, 59, 527, 3449, 29999, 0}, {59, 3449, 0}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const StartCase *sc = &cases[c];
        Pair p;
        pair_open(&p, sc->game, sc->settings, sc->n_settings, NULL);
        for (int d = 1; d <= 7 && sc->actions[d - 1] != 0; d++) {
            const uint64_t want = sc->actions[d - 1];
            assert_int_equal(game_perft(p.g, p.s, d), want);
            assert_int_equal(game_perft_generic(p.g, p.s, d), want);
            if (d <= 4)
                assert_int_equal(kgref_perft(p.ref, d), want);
        }
        for (int d = 1; d <= 3 && sc->turns[d - 1] != 0; d++) {
            assert_int_equal(turns_perft(p.g, p.s, d), sc->turns[d - 1]);
            if (d <= 2)
                assert_int_equal(kgref_perft_turns(p.ref, d), sc->turns[d - 1]);
        }
        pair_close(&p);
    }
}

/* --- (b) the committed table ------------------------------------------------------------------ */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* One line: "<game> [name=value ...] ;<position> ;D1 n ;D2 n ... ;T1 n ...": Dk per
 * action, Tk per whole turn. The reference re-derives the shallow numbers, so an edited
 * table is caught. */
static void check_table_line(char *line, int line_no)
{
    char *fields[MAX_FIELDS] = {0};
    int nf = 0;
    char *p = line;
    while (nf < MAX_FIELDS) {
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
    pair_open(&pair, head, settings, ns, trim(fields[1]));
    for (int i = 2; i < nf; i++) {
        char kind;
        int depth;
        unsigned long long n;
        if (sscanf(trim(fields[i]), "%c%d %llu", &kind, &depth, &n) != 3 || depth < 1 ||
            (kind != 'D' && kind != 'T'))
            fail_msg("perft table line %d: bad field '%s'", line_no, fields[i]);
        if (kind == 'D') {
            const uint64_t fast = game_perft(pair.g, pair.s, depth);
            const uint64_t generic = game_perft_generic(pair.g, pair.s, depth);
            if (fast != n || generic != n)
                fail_msg("perft table line %d D%d: table %llu, fast %llu, generic %llu", line_no,
                         depth, n, (unsigned long long)fast, (unsigned long long)generic);
            if (depth <= 2 && kgref_perft(pair.ref, depth) != n)
                fail_msg("perft table line %d D%d: the reference disagrees", line_no, depth);
        } else {
            const uint64_t got = turns_perft(pair.g, pair.s, depth);
            if (got != n)
                fail_msg("perft table line %d T%d: table %llu, game %llu", line_no, depth, n,
                         (unsigned long long)got);
            if (depth == 1 && kgref_perft_turns(pair.ref, depth) != n)
                fail_msg("perft table line %d T1: the reference disagrees", line_no);
        }
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
    assert_true(checked >= 12);
    print_message("perft table: %d positions\n", checked);
}

/* --- (c) random games --------------------------------------------------------------------------- */

typedef struct RandomCase {
    const char *game;
    const char *settings[MAX_SETTINGS];
    int n_settings;
    int games;
    int perft_every; /* compare perft 2 at every n-th position */
} RandomCase;

static long run_game(const RandomCase *c, uint64_t seed, long *perfts)
{
    Pair p;
    pair_open(&p, c->game, c->settings, c->n_settings, NULL);
    MoveList *list = malloc(sizeof *list);
    ActionText *texts = malloc(sizeof *texts * MOVELIST_CAP);
    char *log = malloc(TEXT_CAP);
    assert_true(list != NULL && texts != NULL && log != NULL);
    Rng rng;
    rng_seed(&rng, seed);
    long positions = 0;
    snprintf(log, TEXT_CAP, "seed %llu", (unsigned long long)seed);
    for (;;) {
        const int n = compare_position(&p, list, texts, log);
        positions++;
        if (c->perft_every > 0 && positions % c->perft_every == 0) {
            compare_perft(&p, 2, log);
            (*perfts)++;
        }
        if (n == 0)
            break;
        // "end" half as often as placements: longer turns, taller towers.
        int i = (int)rng_below(&rng, (uint32_t)n);
        if (strcmp(texts[i], "end") == 0 && n > 1 && rng_below(&rng, 2) == 0)
            i = (int)rng_below(&rng, (uint32_t)(n - 1));
        pair_play(&p, list, i, texts[i]);
    }
    free(log);
    free(texts);
    free(list);
    pair_close(&p);
    return positions;
}

static void test_random_games(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-guard", {0}, 0, 16, 23},
        {"kings-guard", {"steps=all"}, 1, 10, 29},
        {"kings-guard", {"no-move=draw", "max-plies=60"}, 2, 8, 17},
        {"kings-guard", {"repetition=off", "max-plies=40"}, 2, 6, 17},
        {"kings-guard-8x8", {0}, 0, 16, 23},
        {"kings-guard-8x8", {"king-file=d", "steps=all"}, 2, 10, 29},
        {"kings-guard-8x8", {"max-plies=1"}, 1, 2, 1},
        {"kings-guard-8x8", {"max-plies=0"}, 1, 1, 1},
    };
    long positions = 0, perfts = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int k = 0; k < cases[i].games; k++)
            positions += run_game(&cases[i], 0x6B67000 + 100 * i + (uint64_t)k, &perfts);
    print_message("%ld positions compared, %ld perft comparisons\n", positions, perfts);
}

/* --- (d) random positions ------------------------------------------------------------------------ */

/* A random position with many stacks on few squares: tall and full towers, kings among
 * enemy stacks. `window` > 0 crowds everything into a window x window corner of a random
 * place of the board. Returns the text in out. */
static void random_position(const KgRefRules *r, Rng *rng, int window, char *out, size_t cap)
{
    KgRefPos pos;
    memset(&pos, 0, sizeof pos);
    pos.origin_file = pos.origin_rank = -1;
    const int guards = r->files == 9 ? 9 : 8;
    int w = window > 0 ? window : r->files;
    int h = window > 0 ? window : r->ranks;
    if (w > r->files)
        w = r->files;
    if (h > r->ranks)
        h = r->ranks;
    const int f0 = (int)rng_below(rng, (uint32_t)(r->files - w + 1));
    const int r0 = (int)rng_below(rng, (uint32_t)(r->ranks - h + 1));
    // Guards first, each on a random square of the window with room left; then the kings
    // on top of two distinct stacks (or empty squares).
    for (int p = 0; p < 2; p++) {
        const int n = guards / 2 + (int)rng_below(rng, (uint32_t)(guards - guards / 2 + 1));
        for (int i = 0; i < n; i++) {
            for (int tries = 0; tries < 20; tries++) {
                const int f = f0 + (int)rng_below(rng, (uint32_t)w);
                const int k = r0 + (int)rng_below(rng, (uint32_t)h);
                char *st = pos.stack[k][f];
                const size_t len = strlen(st);
                if ((int)len < r->limit) {
                    st[len] = p == 0 ? 'G' : 'g';
                    st[len + 1] = '\0';
                    break;
                }
            }
        }
    }
    for (int p = 0; p < 2; p++) {
        for (int tries = 0; tries < 1000; tries++) {
            const int f = (int)rng_below(rng, (uint32_t)r->files);
            const int k = (int)rng_below(rng, (uint32_t)r->ranks);
            const bool near = window > 0 && tries < 500;
            const int ff = near ? f0 + (int)rng_below(rng, (uint32_t)w) : f;
            const int kk = near ? r0 + (int)rng_below(rng, (uint32_t)h) : k;
            char *st = pos.stack[kk][ff];
            const size_t len = strlen(st);
            if ((int)len < r->limit && strchr(st, 'K') == NULL && strchr(st, 'k') == NULL) {
                st[len] = p == 0 ? 'K' : 'k';
                st[len + 1] = '\0';
                break;
            }
        }
    }
    pos.to_move = (int)rng_below(rng, 2);
    pos.turns = (int)rng_below(rng, 40);
    kgref_format_position(r, &pos, out, cap);
}

/* True if the player to move can capture a king with the first piece of some turn. */
static bool capture_on_offer(const Pair *p)
{
    const Game *g = p->g;
    MoveList *picks = malloc(sizeof *picks), *places = malloc(sizeof *places);
    void *u1 = game_undo_new(g), *u2 = game_undo_new(g);
    assert_true(picks != NULL && places != NULL && u1 != NULL && u2 != NULL);
    bool found = false;
    const int mover = g->ops->to_move(g, p->s);
    const int n = g->ops->gen_moves(g, p->s, picks);
    for (int i = 0; i < n && !found; i++) {
        g->ops->make(g, p->s, picks->moves[i], u1);
        const int m = g->ops->gen_moves(g, p->s, places);
        for (int j = 0; j < m && !found; j++) {
            g->ops->make(g, p->s, places->moves[j], u2);
            double r[MAX_PLAYERS] = {0};
            g->ops->returns(g, p->s, r);
            found = g->ops->to_move(g, p->s) == PLAYER_NONE && r[mover] > 0;
            g->ops->unmake(g, p->s, places->moves[j], u2);
        }
        g->ops->unmake(g, p->s, picks->moves[i], u1);
    }
    free(u2);
    free(u1);
    free(places);
    free(picks);
    return found;
}

/* A stack of exactly the height limit in the position text. */
static bool has_full_tower(const char *text, int limit, bool mover_on_top, int mover)
{
    for (const char *p = strchr(text, '('); p != NULL; p = strchr(p + 1, '(')) {
        const char *end = strchr(p, ')');
        if (end == NULL || end - p - 1 != limit)
            continue;
        const bool first = end[-1] == 'G' || end[-1] == 'K';
        if (!mover_on_top || first == (mover == 0))
            return true;
    }
    return false;
}

/* Turns from here (turn perft 1), counting no further than `cap` + 1: tall towers can
 * have millions of turns. */
static uint64_t count_turns_upto(const Game *g, GameState *s, int mover, uint64_t cap)
{
    if (g->ops->to_move(g, s) != mover)
        return 1;
    MoveList *list = malloc(sizeof *list);
    void *undo = game_undo_new(g);
    assert_true(list != NULL && undo != NULL);
    const int n = g->ops->gen_moves(g, s, list);
    uint64_t total = 0;
    for (int i = 0; i < n && total <= cap; i++) {
        g->ops->make(g, s, list->moves[i], undo);
        total += count_turns_upto(g, s, mover, cap - total);
        g->ops->unmake(g, s, list->moves[i], undo);
    }
    free(undo);
    free(list);
    return total;
}

static void test_random_positions(void **state)
{
    (void)state;
    static const RandomCase cases[] = {
        {"kings-guard", {0}, 0, 4000, 3},
        {"kings-guard", {"steps=all"}, 1, 1000, 5},
        {"kings-guard-8x8", {0}, 0, 3000, 3},
        {"kings-guard-8x8", {"steps=all", "no-move=draw"}, 2, 1000, 5},
    };
    MoveList *list = malloc(sizeof *list);
    ActionText *texts = malloc(sizeof *texts * MOVELIST_CAP);
    assert_true(list != NULL && texts != NULL);
    long positions = 0, perfts = 0, turn_perfts = 0, full = 0, dismantle = 0, attacks = 0;
    long over = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const RandomCase *rc = &cases[c];
        KgRefRules rules;
        char err[128];
        assert_true(kgref_rules_for(rc->game, rc->settings, rc->n_settings, &rules, err,
                                    sizeof err));
        Rng rng;
        rng_seed(&rng, 0x706F73 + c);
        for (int k = 0; k < rc->games; k++) {
            char text[KGREF_POSITION_TEXT], log[KGREF_POSITION_TEXT + 32];
            const int windows[4] = {0, 2, 3, 4};
            random_position(&rules, &rng, windows[k % 4], text, sizeof text);
            snprintf(log, sizeof log, "from %s", text);
            Pair p;
            pair_open(&p, rc->game, rc->settings, rc->n_settings, text);
            const int mover = p.g->ops->to_move(p.g, p.s);
            full += has_full_tower(text, rules.limit, false, 0);
            dismantle += mover >= 0 && has_full_tower(text, rules.limit, true, mover);
            attacks += mover >= 0 && capture_on_offer(&p);
            // The position itself, then a few random actions into it.
            for (int step = 0; step < 6; step++) {
                const int n = compare_position(&p, list, texts, log);
                positions++;
                if (step == 0 && k % rc->perft_every == 0) {
                    compare_perft(&p, 2, log);
                    perfts++;
                    if (mover >= 0 && count_turns_upto(p.g, p.s, mover, 3000) <= 3000) {
                        compare_turns(&p, 1);
                        turn_perfts++;
                    }
                }
                if (n == 0) {
                    over++;
                    break;
                }
                const int i = (int)rng_below(&rng, (uint32_t)n);
                pair_play(&p, list, i, texts[i]);
            }
            pair_close(&p);
        }
    }
    free(texts);
    free(list);
    print_message("%ld positions compared; of the random ones %ld with a full tower, %ld "
                  "with one to dismantle, %ld with a king capture on offer, %ld finished; "
                  "%ld perft 2, %ld turn perft\n",
                  positions, full, dismantle, attacks, over, perfts, turn_perfts);
}

/* --- (e) the playout hook ---------------------------------------------------------------------- */

typedef struct Tally {
    int first, second, draws;
} Tally;

static void tally(Tally *t, const double r[MAX_PLAYERS])
{
    if (r[0] > 0)
        t->first++;
    else if (r[1] > 0)
        t->second++;
    else
        t->draws++;
}

/* |a - b| of two frequencies out of n each, in standard errors of the difference. */
static double sigmas(int a, int b, int n)
{
    const double pa = (double)a / n, pb = (double)b / n;
    const double var = (pa * (1 - pa) + pb * (1 - pb)) / n;
    const double d = pa > pb ? pa - pb : pb - pa;
    return var > 0 ? d / __builtin_sqrt(var) : (d > 0 ? 1e9 : 0);
}

/* The fast playout must play uniformly random actions like the generic loop: the
 * outcome frequencies of the two, from the same positions, must agree. */
static void test_playout_hook(void **state)
{
    (void)state;
    static const struct {
        const char *game, *setting, *text;
    } cases[] = {
        {"kings-guard-8x8", "max-plies=150", "g3k2g/1g4g1/2g2g2/3gg3/3GG3/2G2G2/1G4G1/G3K2G 1 0"},
        {"kings-guard", "max-plies=250",
         "1(gg)2k3g/3(gg)3g1/6g2/9/2g1g4/3G5/9/2G1GG3/1G4G(GG)1/G4K3 1 20"},
        {"kings-guard-8x8", "steps=all", "7k/8/3G4/8/3(Gg)4/8/8/K7 1 12 d4:1"},
        {"kings-guard-8x8", "max-plies=40", "7k/8/8/8/8/8/(GGGg)7/K(GGg)(gggg)5 2 0"},
    };
    enum { N = 3000 };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *settings[1] = {cases[c].setting};
        Pair p;
        pair_open(&p, cases[c].game, settings, 1, cases[c].text);
        const Game *g = p.g;
        GameState *s = game_state_new(g);
        MoveList *list = malloc(sizeof *list);
        assert_true(s != NULL && list != NULL);
        Rng rng;
        rng_seed(&rng, 99 + c);
        Tally fast = {0, 0, 0}, plain = {0, 0, 0};
        for (int i = 0; i < N; i++) {
            double r[MAX_PLAYERS] = {0};
            memcpy(s, p.s, g->state_size);
            g->ops->playout(g, s, &rng, r);
            ErrBuf err;
            if (!g->ops->is_ok(g, s, &err) || g->ops->to_move(g, s) != PLAYER_NONE)
                fail_msg("playout left a bad state: %s", err.msg);
            tally(&fast, r);
            memcpy(s, p.s, g->state_size);
            while (g->ops->to_move(g, s) != PLAYER_NONE) {
                const int n = g->ops->gen_moves(g, s, list);
                g->ops->make(g, s, list->moves[rng_below(&rng, (uint32_t)n)], p.undo);
            }
            g->ops->returns(g, s, r);
            tally(&plain, r);
        }
        print_message("%s: playout hook %d/%d/%d, generic loop %d/%d/%d (wins/losses/draws)\n",
                      cases[c].text, fast.first, fast.second, fast.draws, plain.first,
                      plain.second, plain.draws);
        assert_true(sigmas(fast.first, plain.first, N) < 4);
        assert_true(sigmas(fast.second, plain.second, N) < 4);
        assert_true(sigmas(fast.draws, plain.draws, N) < 4);
        free(list);
        free(s);
        pair_close(&p);
    }
}

/* The table file: $CROWN_ROOT/tests/perft/..., else relative to the working directory,
 * else relative to the binary (build/<variant>/tests/test_kings_guard_perft). */
static void find_table(const char *argv0, char *out, size_t cap)
{
    const char *rel = "tests/perft/kings-guard.perft";
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
    const int dir_len = slash ? (int)(slash - argv0) : 1;
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
        cmocka_unit_test(test_start_numbers),
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_playout_hook),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
