/*
 * test_nnue.c - evaluation networks (src/search/nnue*.c): a net file is refused with a
 * message for every fault of its header or weights, and read otherwise; the portable and
 * AVX2 kernels give the same values; a search's accumulators, brought from position to
 * position by the features that changed, give exactly the values computed from scratch
 * along random lines made and unmade, in every game with features; King's Castle's and
 * King's Guard's features, drawn from small diagrams and seen from both seats alike;
 * agents take /nnue and /classic, refuse them where they mean nothing, and play King
 * Down with the built-in net.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "core/strbuf.h"
#include "play/registry.h"
#include "search/agent.h"
#include "search/nnue.h"
#include "search/nnue_stack.h"

/* --- a net of random weights, written as a file's bytes -------------------------------- */

typedef struct Bytes {
    unsigned char *p;
    size_t n, cap;
} Bytes;

static void put(Bytes *b, const void *src, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    memcpy(b->p + b->n, src, n);
    b->n += n;
}

static void put_le(Bytes *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++) {
        const unsigned char c = (unsigned char)(v >> (8 * i));
        put(b, &c, 1);
    }
}

static long rand_in(Rng *r, long lo, long hi)
{
    return lo + (long)rng_below(r, (uint32_t)(hi - lo + 1));
}

/* The header's fields can be spoilt one at a time: version, game, feature set. */
static Bytes random_net(const Game *g, uint64_t seed, int version, const char *game,
                        const char *set)
{
    Rng r;
    rng_seed(&r, seed);
    Bytes w = {0};
    const int inputs = g->ops->nnue_feature_count;
    for (int i = 0; i < NNUE_HIDDEN; i++)
        put_le(&w, (uint64_t)rand_in(&r, -40, 60), 2);
    for (long i = 0; i < (long)inputs * NNUE_HIDDEN; i++)
        put_le(&w, (uint64_t)rand_in(&r, -60, 60), 2);
    for (int i = 0; i < NNUE_L1; i++)
        put_le(&w, (uint64_t)rand_in(&r, -3000, 3000), 4);
    for (int i = 0; i < NNUE_L1 * 2 * NNUE_HIDDEN; i++)
        put_le(&w, (uint64_t)rand_in(&r, -127, 127), 1);
    for (int i = 0; i < NNUE_L2; i++)
        put_le(&w, (uint64_t)rand_in(&r, -3000, 3000), 4);
    for (int i = 0; i < NNUE_L2 * NNUE_L1; i++)
        put_le(&w, (uint64_t)rand_in(&r, -127, 127), 1);
    put_le(&w, (uint64_t)rand_in(&r, -5000, 5000), 4);
    for (int i = 0; i < NNUE_L2; i++)
        put_le(&w, (uint64_t)rand_in(&r, -127, 127), 1);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < w.n; i++) {
        h ^= w.p[i];
        h *= 0x100000001b3ULL;
    }
    Bytes b = {0};
    put(&b, "CRNN", 4);
    put_le(&b, (uint64_t)version, 4);
    char name[NNUE_NAME_LEN] = {0};
    strncpy(name, game, sizeof name - 1);
    put(&b, name, sizeof name);
    memset(name, 0, sizeof name);
    strncpy(name, set, sizeof name - 1);
    put(&b, name, sizeof name);
    put_le(&b, (uint64_t)inputs, 4);
    put_le(&b, NNUE_HIDDEN, 4);
    put_le(&b, NNUE_L1, 4);
    put_le(&b, NNUE_L2, 4);
    put_le(&b, h, 8);
    put(&b, w.p, w.n);
    free(w.p);
    return b;
}

static Game *new_game(const char *name)
{
    Game *g;
    ErrBuf err;
    assert_int_equal(game_create(registry_find(name), 0, NULL, 0, &g, &err), STATUS_OK);
    return g;
}

static Game *king_down(void)
{
    return new_game("king-down");
}

/* The games with input features, whose accumulators the search keeps. */
static const char *const FEATURE_GAMES[] = {"king-down",       "kings-castle",
                                            "kings-guard",     "kings-guard-8x8",
                                            "kings-valley-7x7", "kings-valley-labyrinth"};
enum { FEATURE_GAME_COUNT = (int)(sizeof FEATURE_GAMES / sizeof FEATURE_GAMES[0]) };

static Nnue *load_random(const Game *g, uint64_t seed)
{
    Bytes b = random_net(g, seed, NNUE_VERSION, g->ops->name, g->ops->nnue_feature_set);
    Nnue *net;
    ErrBuf err;
    assert_int_equal(nnue_load(g, b.p, b.n, NULL, &net, &err), STATUS_OK);
    free(b.p);
    return net;
}

static void expect_refused(const Game *g, const unsigned char *p, size_t n, const char *words)
{
    Nnue *net = (Nnue *)1;
    ErrBuf err;
    assert_int_not_equal(nnue_load(g, p, n, NULL, &net, &err), STATUS_OK);
    assert_null(net);
    if (strstr(err.msg, words) == NULL)
        fail_msg("expected '%s' in: %s", words, err.msg);
}

static void test_refusals(void **state)
{
    (void)state;
    Game *g = king_down();
    const char *set = g->ops->nnue_feature_set;
    Bytes good = random_net(g, 1, NNUE_VERSION, "king-down", set);
    expect_refused(g, (const unsigned char *)"XXXX", 4, "no CRNN");
    expect_refused(g, good.p, 40, "cut short");
    expect_refused(g, good.p, good.n - 1, "bytes of weights");
    good.p[good.n - 1] ^= 1;
    expect_refused(g, good.p, good.n, "do not match its hash");
    Bytes old = random_net(g, 1, NNUE_VERSION + 1, "king-down", set);
    expect_refused(g, old.p, old.n, "network version");
    Bytes other = random_net(g, 1, NNUE_VERSION, "kings-guard", set);
    expect_refused(g, other.p, other.n, "for kings-guard, not king-down");
    Bytes tiles = random_net(g, 1, NNUE_VERSION, "king-of-the-valley", set);
    Bytes wrong_set = random_net(g, 1, NNUE_VERSION, "king-down", "kd-something-else");
    expect_refused(g, wrong_set.p, wrong_set.n, "reads features kd-something-else");
    // A game without features cannot have a net at all.
    Game *kotv = new_game("king-of-the-valley");
    ErrBuf err;
    expect_refused(kotv, tiles.p, tiles.n, "no input features");
    Nnue *net;
    assert_int_equal(nnue_load_builtin(kotv, NULL, &net, &err), STATUS_NOT_FOUND);
    assert_non_null(strstr(err.msg, "king-down"));
    assert_int_equal(nnue_load_file(g, "/nonexistent/net.nnue", NULL, &net, &err), STATUS_IO);
    game_destroy(kotv);
    free(good.p);
    free(old.p);
    free(other.p);
    free(tiles.p);
    free(wrong_set.p);
    game_destroy(g);
}

/* Random positions of random games: a few hundred of them, reached by random moves. */
static void random_positions(const Game *g, uint64_t seed, int count,
                             void (*visit)(void *ctx, const GameState *s), void *ctx)
{
    Rng r;
    rng_seed(&r, seed);
    GameState *s = malloc(g->state_size);
    MoveList *list = malloc(sizeof *list);
    unsigned char *undo = malloc(g->undo_size);
    int seen = 0;
    while (seen < count) {
        g->ops->new_game(g, s, rng_next(&r));
        while (seen < count && g->ops->to_move(g, s) >= 0) {
            visit(ctx, s);
            seen++;
            const int n = g->ops->gen_moves(g, s, list);
            g->ops->make(g, s, list->moves[rng_below(&r, (uint32_t)n)], undo);
        }
    }
    free(undo);
    free(list);
    free(s);
}

typedef struct KernelPair {
    const Game *g;
    Nnue *a, *b;
    int differ;
} KernelPair;

static void compare_kernels(void *ctx, const GameState *s)
{
    KernelPair *k = ctx;
    k->differ += nnue_evaluate(k->a, k->g, s) != nnue_evaluate(k->b, k->g, s);
}

static void test_kernels_agree(void **state)
{
    (void)state;
    Game *g = king_down();
    KernelPair k = {.g = g, .a = load_random(g, 7), .b = load_random(g, 7)};
    ErrBuf err;
    assert_int_equal(nnue_set_kernel(k.a, NNUE_KERNEL_PORTABLE, &err), STATUS_OK);
    assert_string_equal(nnue_kernel_name(k.a), "portable");
    if (nnue_set_kernel(k.b, NNUE_KERNEL_AVX2, &err) != STATUS_OK) {
        print_message("no AVX2 here: the portable kernel alone is tested\n");
    } else {
        assert_string_equal(nnue_kernel_name(k.b), "avx2");
        random_positions(g, 11, 600, compare_kernels, &k);
        assert_int_equal(k.differ, 0);
    }
    nnue_free(k.a);
    nnue_free(k.b);
    game_destroy(g);
}

/* A depth-first walk as a search makes it, every action pushed before it is made:
 * the positions evaluated at their ply through the stack (every one, or as a fixed-depth
 * search does, the leaves only, with a pass now and then where the game has one),
 * against the value from scratch. */
typedef struct WalkCtx {
    const Game *g;
    const Nnue *net;
    NnueStack *st;
    Rng r;
    bool leaves_only;
    int bad;
} WalkCtx;

static void walk(WalkCtx *w, GameState *s, int ply, int depth)
{
    const Game *g = w->g;
    const bool leaf = depth == 0 || g->ops->to_move(g, s) < 0;
    if (leaf || !w->leaves_only)
        w->bad += nnue_stack_evaluate(w->st, s, ply) != nnue_evaluate(w->net, g, s);
    if (leaf)
        return;
    MoveList list;
    const int n = g->ops->gen_moves(g, s, &list);
    unsigned char undo[4096];
    assert_true(g->undo_size <= sizeof undo);
    if (w->leaves_only && g->ops->make_null != NULL && rng_below(&w->r, 3) == 0) {
        nnue_stack_push(w->st, s, ply + 1);
        if (g->ops->make_null(g, s, undo)) {
            walk(w, s, ply + 1, depth - 1);
            g->ops->unmake_null(g, s, undo);
        }
    }
    for (int i = 0; i < 3 && i < n; i++) {
        const Move m = list.moves[rng_below(&w->r, (uint32_t)n)];
        nnue_stack_push(w->st, s, ply + 1);
        g->ops->make(g, s, m, undo);
        walk(w, s, ply + 1, depth - 1);
        g->ops->unmake(g, s, m, undo);
    }
}

static void walk_from(void *ctx, const GameState *s)
{
    WalkCtx *w = ctx;
    GameState *copy = malloc(w->g->state_size);
    memcpy(copy, s, w->g->state_size);
    nnue_stack_reset(w->st); // a new root
    // Deeper and deeper from the same root, as iterative deepening does.
    for (int depth = w->leaves_only ? 1 : 3; depth <= 3; depth++)
        walk(w, copy, 0, depth);
    free(copy);
}

static void test_incremental_is_exact(void **state)
{
    (void)state;
    for (int i = 0; i < FEATURE_GAME_COUNT; i++) {
        for (int leaves_only = 0; leaves_only < 2; leaves_only++) {
            Game *g = new_game(FEATURE_GAMES[i]);
            Nnue *net = load_random(g, 3);
            WalkCtx w = {.g = g, .net = net, .leaves_only = leaves_only};
            rng_seed(&w.r, 5);
            ErrBuf err;
            assert_int_equal(nnue_stack_new(g, net, NULL, &w.st, &err), STATUS_OK);
            random_positions(g, 13, 40, walk_from, &w);
            if (w.bad != 0)
                fail_msg("%s: %d accumulators differ from fresh ones", FEATURE_GAMES[i], w.bad);
            uint64_t refreshes, evaluations;
            nnue_stack_counts(w.st, &refreshes, &evaluations);
            // Accumulators come down the line, one refresh a root.
            assert_true(evaluations > 1000);
            if (refreshes > 2 * 40)
                fail_msg("%s: %llu refreshes of %llu", FEATURE_GAMES[i],
                         (unsigned long long)refreshes, (unsigned long long)evaluations);
            nnue_stack_free(w.st);
            nnue_free(net);
            game_destroy(g);
        }
    }
}

/* The delta hooks' contract (game.h): what nnue_delta lists between the snapshots of
 * a position and of each position one action (or a pass) away is exactly what the
 * features of the two differ by. */
typedef struct DeltaCtx {
    const Game *g;
    int16_t *count; /* per input: a scratch tally, zero between checks */
    int checked, wrong;
} DeltaCtx;

static void tally(DeltaCtx *d, const uint16_t *f, int n, int by)
{
    for (int i = 0; i < n; i++)
        d->count[f[i]] = (int16_t)(d->count[f[i]] + by);
}

static bool tally_clear(DeltaCtx *d, const uint16_t *f, int n)
{
    bool ok = true;
    for (int i = 0; i < n; i++) {
        ok = ok && d->count[f[i]] == 0;
        d->count[f[i]] = 0;
    }
    return ok;
}

static void check_delta(DeltaCtx *d, const void *before, const GameState *s_before,
                        const GameState *s_after, bool pass)
{
    const Game *g = d->g;
    unsigned char after[4096];
    assert_true((size_t)g->ops->nnue_snapshot_size <= sizeof after);
    g->ops->nnue_snapshot(g, s_after, after);
    for (int p = 0; p < 2; p++) {
        uint16_t was[NNUE_MAX_ACTIVE], is[NNUE_MAX_ACTIVE], add[NNUE_MAX_ACTIVE],
            sub[NNUE_MAX_ACTIVE];
        const int n_was = g->ops->nnue_features(g, s_before, p, was, NNUE_MAX_ACTIVE);
        const int n_is = g->ops->nnue_features(g, s_after, p, is, NNUE_MAX_ACTIVE);
        int n_add = -1, n_sub = -1;
        g->ops->nnue_delta(g, before, after, p, add, &n_add, sub, &n_sub);
        bool ok = n_add >= 0 && n_sub >= 0 && n_add <= NNUE_MAX_ACTIVE &&
                  n_sub <= NNUE_MAX_ACTIVE && (!pass || n_add + n_sub == 0);
        if (ok) {
            tally(d, was, n_was, 1);
            tally(d, sub, n_sub, -1);
            tally(d, add, n_add, 1);
            tally(d, is, n_is, -1);
            // Every list cleared, whatever the first one found.
            const bool ok_was = tally_clear(d, was, n_was), ok_sub = tally_clear(d, sub, n_sub);
            const bool ok_add = tally_clear(d, add, n_add), ok_is = tally_clear(d, is, n_is);
            ok = ok_was && ok_sub && ok_add && ok_is;
        }
        d->checked++;
        d->wrong += !ok;
    }
}

static void deltas_from(void *ctx, const GameState *s)
{
    DeltaCtx *d = ctx;
    const Game *g = d->g;
    GameState *t = malloc(g->state_size);
    memcpy(t, s, g->state_size);
    unsigned char before[4096], undo[4096];
    assert_true(g->undo_size <= sizeof undo);
    g->ops->nnue_snapshot(g, t, before);
    MoveList list;
    const int n = g->ops->gen_moves(g, t, &list);
    for (int i = 0; i < n; i++) {
        g->ops->make(g, t, list.moves[i], undo);
        check_delta(d, before, s, t, false);
        g->ops->unmake(g, t, list.moves[i], undo);
    }
    if (g->ops->make_null != NULL && g->ops->make_null(g, t, undo)) {
        check_delta(d, before, s, t, true);
        g->ops->unmake_null(g, t, undo);
    }
    free(t);
}

static void test_delta_hooks(void **state)
{
    (void)state;
    for (int i = 0; i < FEATURE_GAME_COUNT; i++) {
        Game *g = new_game(FEATURE_GAMES[i]);
        // Every game with features follows moves by deltas (nnue_stack.h).
        assert_non_null(g->ops->nnue_snapshot);
        assert_non_null(g->ops->nnue_delta);
        DeltaCtx d = {.g = g, .count = calloc((size_t)g->ops->nnue_feature_count, 2)};
        random_positions(g, 17, 30, deltas_from, &d);
        if (d.wrong != 0 || d.checked < 200)
            fail_msg("%s: %d of %d deltas wrong", FEATURE_GAMES[i], d.wrong, d.checked);
        free(d.count);
        game_destroy(g);
    }
}

/* --- the features of King's Castle and King's Guard -------------------------------------- */

static int features_of(const Game *g, const char *position, int perspective, uint16_t *out)
{
    GameState *s = malloc(g->state_size);
    ErrBuf err;
    if (g->ops->parse_position(g, s, position, &err) != STATUS_OK)
        fail_msg("%s: %s", position, err.msg);
    const int n = g->ops->nnue_features(g, s, perspective, out, NNUE_MAX_ACTIVE);
    free(s);
    return n;
}

static void expect_features(const Game *g, const char *position, int perspective,
                            const uint16_t *want, int n_want)
{
    uint16_t got[NNUE_MAX_ACTIVE];
    const int n = features_of(g, position, perspective, got);
    assert_int_equal(n, n_want);
    for (int i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s as seat %d: feature %d is %d, not %d", position, perspective, i,
                     got[i], want[i]);
}

static void test_feature_diagrams(void **state)
{
    (void)state;
    // King's Castle: a man is (own 0 or the opponent's 121) + his grid cell, the grid
    // numbered from the top row, 11 a row. White on the top row's first cell (5) and
    // left of the Throne (59), Black on the bottom row's last cell (115).
    Game *kc = new_game("kings-castle");
    const char *castle = "W5/7/8/9/10/4W6/10/9/8/7/5B w 10";
    expect_features(kc, castle, 0, (const uint16_t[]){5, 59, 121 + 115}, 3);
    expect_features(kc, castle, 1, (const uint16_t[]){115, 121 + 5, 121 + 59}, 3);
    game_destroy(kc);

    // King's Guard 8x8: a piece is ((kind * 4 + level) * 64 + square), the kinds own
    // guard, own king, enemy guard, enemy king; the second seat sees the ranks mirrored.
    // On a1 a second player's guard under a first player's, the kings on e1 and e8.
    Game *kg = new_game("kings-guard-8x8");
    const char *guard = "4k3/8/8/8/8/8/8/(gG)3K3 1 5";
    expect_features(kg, guard, 0,
                    (const uint16_t[]){(0 * 4 + 1) * 64 + 0, (1 * 4 + 0) * 64 + 4,
                                       (2 * 4 + 0) * 64 + 0, (3 * 4 + 0) * 64 + 60},
                    4);
    expect_features(kg, guard, 1,
                    (const uint16_t[]){(0 * 4 + 0) * 64 + 56, (1 * 4 + 0) * 64 + 4,
                                       (2 * 4 + 1) * 64 + 56, (3 * 4 + 0) * 64 + 60},
                    4);
    game_destroy(kg);
    // On 9x10 towers reach 5: a king on a tower of five on e5, the top (level 4).
    Game *big = new_game("kings-guard");
    const char *tower = "4k4/9/9/9/9/4(GgGgK)4/9/9/9/9 2 7";
    const int e5 = 4 * 9 + 4, e6 = 5 * 9 + 4, e10 = 9 * 9 + 4; // e5 the second seat's e6
    expect_features(big, tower, 0,
                    (const uint16_t[]){(0 * 5 + 0) * 90 + e5, (0 * 5 + 2) * 90 + e5,
                                       (1 * 5 + 4) * 90 + e5, (2 * 5 + 1) * 90 + e5,
                                       (2 * 5 + 3) * 90 + e5, (3 * 5 + 0) * 90 + e10},
                    6);
    expect_features(big, tower, 1,
                    (const uint16_t[]){(0 * 5 + 1) * 90 + e6, (0 * 5 + 3) * 90 + e6,
                                       (1 * 5 + 0) * 90 + 4, (2 * 5 + 0) * 90 + e6,
                                       (2 * 5 + 2) * 90 + e6, (3 * 5 + 4) * 90 + e6},
                    6);
    game_destroy(big);
}

/* The position text with the sides exchanged: King's Castle's colours (W/B, w/b), or
 * King's Guard's owners (case) with the ranks in reverse order and the other player to
 * move. NULL for a King's Guard turn in progress, whose start square would need turning
 * too. */
static char *exchanged(const Game *g, const char *text)
{
    char *out = malloc(strlen(text) + 1);
    const char *space = strchr(text, ' ');
    assert_non_null(space);
    if (strcmp(g->ops->name, "kings-castle") == 0) {
        static const char from[] = "WBwb", to[] = "BWbw";
        for (size_t i = 0; text[i]; i++) {
            const char *c = strchr(from, text[i]);
            out[i] = c != NULL ? to[c - from] : text[i];
        }
        out[strlen(text)] = '\0';
        return out;
    }
    int turn, ply;
    char rest[8];
    if (sscanf(space, " %d %d%7s", &turn, &ply, rest) != 2) {
        free(out);
        return NULL;
    }
    // Ranks in reverse order, each piece's owner exchanged by its case.
    size_t n = 0;
    const char *end = space;
    while (end > text) {
        const char *start = end;
        while (start > text && start[-1] != '/')
            start--;
        for (const char *c = start; c < end; c++)
            out[n++] = islower((unsigned char)*c)   ? (char)toupper((unsigned char)*c)
                       : isupper((unsigned char)*c) ? (char)tolower((unsigned char)*c)
                                                    : *c;
        end = start > text ? start - 1 : text;
        if (start > text)
            out[n++] = '/';
    }
    snprintf(out + n, strlen(text) + 1 - n, " %d %d", 3 - turn, ply);
    return out;
}

typedef struct SymmetryCtx {
    const Game *g;
    int checked;
} SymmetryCtx;

static void compare_seats(void *ctx, const GameState *s)
{
    SymmetryCtx *y = ctx;
    const Game *g = y->g;
    StrBuf text;
    sb_init(&text);
    g->ops->format_position(g, s, &text);
    char *other = exchanged(g, sb_str(&text));
    if (other != NULL) {
        for (int p = 0; p < 2; p++) {
            uint16_t a[NNUE_MAX_ACTIVE], b[NNUE_MAX_ACTIVE];
            const int na = g->ops->nnue_features(g, s, p, a, NNUE_MAX_ACTIVE);
            const int nb = features_of(g, other, 1 - p, b);
            if (na != nb || memcmp(a, b, (size_t)na * sizeof a[0]) != 0)
                fail_msg("%s as seat %d and %s as seat %d differ", sb_str(&text), p, other,
                         1 - p);
            for (int i = 0; i < na; i++) {
                assert_true(a[i] < g->ops->nnue_feature_count);
                assert_true(i == 0 || a[i - 1] < a[i]);
            }
        }
        y->checked++;
    }
    free(other);
    sb_free(&text);
}

static void test_seats_alike(void **state)
{
    (void)state;
    static const char *const games[] = {"kings-castle", "kings-guard", "kings-guard-8x8"};
    for (int i = 0; i < 3; i++) {
        SymmetryCtx y = {.g = new_game(games[i])};
        random_positions(y.g, 17, 300, compare_seats, &y);
        assert_true(y.checked >= 50);
        game_destroy((Game *)y.g);
    }
}

static void test_agent_specs(void **state)
{
    (void)state;
    AgentSpec spec;
    ErrBuf err;
    assert_int_equal(agent_spec_parse("ai:10/nnue", &spec, &err), STATUS_OK);
    assert_int_equal(spec.eval, AGENT_EVAL_NNUE);
    assert_int_equal(agent_spec_parse("ab:3/novariety/nnue", &spec, &err), STATUS_OK);
    assert_true(spec.eval == AGENT_EVAL_NNUE && spec.no_variety);
    assert_int_equal(agent_spec_parse("ai/classic", &spec, &err), STATUS_OK);
    assert_int_equal(spec.eval, AGENT_EVAL_CLASSIC);
    assert_int_equal(agent_spec_parse("ai:4", &spec, &err), STATUS_OK);
    assert_int_equal(spec.eval, AGENT_EVAL_DEFAULT);
    assert_int_equal(agent_spec_parse("ai/nnue/classic", &spec, &err), STATUS_PARSE);
    assert_int_equal(agent_spec_parse("ai/nnue/nnue", &spec, &err), STATUS_PARSE);
    assert_int_equal(agent_spec_parse("mcts/nnue", &spec, &err), STATUS_PARSE);
    assert_non_null(strstr(err.msg, "go with ai and ab"));
    assert_int_equal(agent_spec_parse("ai/fast", &spec, &err), STATUS_PARSE);
    assert_non_null(strstr(err.msg, "bad suffix '/fast'"));

    // A game with no net refuses /nnue in words; King Down plays with its own.
    Game *plain = new_game("kings-valley");
    Agent *a;
    assert_int_equal(agent_spec_parse("ab:2/nnue", &spec, &err), STATUS_OK);
    assert_int_equal(agent_new(plain, &spec, &a, &err), STATUS_NOT_FOUND);
    assert_null(a);
    assert_non_null(strstr(err.msg, "no evaluation network"));
    game_destroy(plain);

    Game *g = king_down();
    assert_int_equal(agent_spec_parse("ab:10/nnue", &spec, &err), STATUS_OK);
    spec.limits.depth = 4;
    spec.limits.movetime_ms = SEARCH_UNLIMITED;
    assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_OK);
    GameState *s = malloc(g->state_size);
    g->ops->new_game(g, s, 1);
    SearchResult r;
    assert_int_equal(agent_think(a, s, &r, &err), STATUS_OK);
    MoveList list;
    const int n = g->ops->gen_moves(g, s, &list);
    bool legal = false;
    for (int i = 0; i < n; i++)
        legal |= list.moves[i] == r.best;
    assert_true(legal);
    free(s);
    agent_free(a);
    game_destroy(g);
}

/* Which evaluation an agent scores with when none is named: the game's net where its
 * record makes it the default (nets/kings-castle.txt), else the hand-written one. */
static const char *default_evaluation(const char *game, const char *agent)
{
    Game *g = new_game(game);
    AgentSpec spec;
    ErrBuf err;
    Agent *a = NULL;
    assert_int_equal(agent_spec_parse(agent, &spec, &err), STATUS_OK);
    assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_OK);
    const char *evaluation = agent_evaluation(a);
    agent_free(a);
    game_destroy(g);
    return evaluation;
}

static void test_default_evaluations(void **state)
{
    (void)state;
    Game *kc = new_game("kings-castle");
    Game *kd = king_down();
    assert_true(nnue_is_default(kc));
    assert_false(nnue_is_default(kd));
    game_destroy(kc);
    game_destroy(kd);
    assert_string_equal(default_evaluation("kings-castle", "ai:10"), "nnue");
    assert_string_equal(default_evaluation("kings-castle", "ab:3"), "nnue");
    assert_string_equal(default_evaluation("kings-castle", "ai:10/classic"), "classic");
    assert_string_equal(default_evaluation("kings-castle", "mcts:2"), "playouts");
    assert_string_equal(default_evaluation("king-down", "ai:10"), "classic");
    assert_string_equal(default_evaluation("king-down", "ai:10/nnue"), "nnue");
    assert_string_equal(default_evaluation("kings-valley-labyrinth", "ai:10"), "nnue");
    assert_string_equal(default_evaluation("kings-valley-7x7", "ai:1"), "nnue");
    assert_string_equal(default_evaluation("kings-guard", "ai:10"), "classic");
    // A game without a net keeps its own evaluation, and asks for nothing it lacks.
    assert_string_equal(default_evaluation("kings-valley", "ai:10"), "classic");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_kernels_agree),
        cmocka_unit_test(test_incremental_is_exact),
        cmocka_unit_test(test_delta_hooks),
        cmocka_unit_test(test_feature_diagrams),
        cmocka_unit_test(test_seats_alike),
        cmocka_unit_test(test_agent_specs),
        cmocka_unit_test(test_default_evaluations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
