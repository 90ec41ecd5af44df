/*
 * test_contract.c - the game contract of core/game.h, checked over every registered game.
 *
 * OpenSpiel's basic_tests in C: for each game (default rules, plus a few rule settings
 * picked generically from its option table) play random games with fixed seeds and check
 * at every position what game.h promises: move lists, move and position texts, make and
 * unmake, hashes, is_ok, game length, returns, error handling of garbage input. Nothing
 * here knows any particular game; a new game is covered by registering it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/observation.h"
#include "play/registry.h"
#include "core/rng.h"
#include "support/rule_text.h"
#include "support/slow_build.h"

enum {
    MAX_COMBOS = 40,       /* rule settings tried per game */
    SETTING_LEN = 320,     /* "name=value" */
    DEFAULT_GAMES = 3,     /* random games with the default rules */
    COMBO_GAMES = 2,       /* random games per other rule setting */
    FULL_OPENING = 20,     /* every position of the first plies gets the full checks, */
    FULL_EVERY = 10,       /* and every n-th one after that (some games generate slowly) */
    TEXT_SAMPLE = 6,       /* moves per fully checked position whose text is round-tripped */
    GARBAGE_EVERY = 50,    /* garbage texts are tried at every n-th position */
    LONG_GARBAGE = 5000,   /* length of the very long garbage texts */
};

/* One rule setting to test: at most one "name=value" over the defaults. */
typedef struct Combo {
    int n;
    char setting[SETTING_LEN];
} Combo;

/* Picks rule settings from the option table alone: each non-default choice of every
 * choice option, and the minimum (plus a small value above it) of every integer option,
 * since minimums are where limits like ply caps bite. Free-text options are left alone. */
static int pick_combos(const GameOps *ops, Combo *out)
{
    int n = 0;
    out[n++] = (Combo){0, ""};
    for (int i = 0; i < ops->option_count && n < MAX_COMBOS; i++) {
        const RuleOption *o = &ops->options[i];
        if (o->kind == RULE_TEXT || o->kind == RULE_FILE)
            continue;
        if (o->choices != NULL) {
            const char *p = o->choices;
            while (*p != '\0' && n < MAX_COMBOS) {
                const char *bar = strchr(p, '|');
                size_t len = bar ? (size_t)(bar - p) : strlen(p);
                if (len != strlen(o->default_value) || strncmp(p, o->default_value, len) != 0) {
                    out[n].n = 1;
                    snprintf(out[n].setting, SETTING_LEN, "%s=%.*s", o->name, (int)len, p);
                    n++;
                }
                if (bar == NULL)
                    break;
                p = bar + 1;
            }
            continue;
        }
        bool room = o->min <= LONG_MAX - 10 && o->min + 10 <= o->max; /* no overflow */
        long values[2] = {o->min, room ? o->min + 10 : o->min};
        for (int k = 0; k < 2 && n < MAX_COMBOS; k++) {
            if (k == 1 && !room)
                continue;
            out[n].n = 1;
            snprintf(out[n].setting, SETTING_LEN, "%s=%ld", o->name, values[k]);
            n++;
        }
    }
    return n;
}

static Game *create_game(const GameOps *ops, const Combo *c)
{
    const char *rules[1] = {c->setting};
    ErrBuf err;
    err_clear(&err);
    Game *g = NULL;
    Status st = rule_text_create(ops, 0, rules, c->n, &g, &err);
    if (st != STATUS_OK)
        fail_msg("%s %s: game_create failed: %s", ops->name, c->setting, err.msg);
    return g;
}

/* --- helpers over states ------------------------------------------------------------ */

static char *move_text(const Game *g, const GameState *s, Move m)
{
    StrBuf sb;
    sb_init(&sb);
    g->ops->format_move(g, s, m, &sb);
    char *t = strdup(sb_str(&sb));
    sb_free(&sb);
    assert_non_null(t);
    return t;
}

static char *position_text(const Game *g, const GameState *s)
{
    StrBuf sb;
    sb_init(&sb);
    g->ops->format_position(g, s, &sb);
    assert_false(sb_failed(&sb));
    char *t = strdup(sb_str(&sb));
    sb_free(&sb);
    assert_non_null(t);
    return t;
}

static void check_is_ok(const Game *g, const GameState *s, const char *when)
{
    ErrBuf err;
    err_clear(&err);
    if (!g->ops->is_ok(g, s, &err)) {
        char *pos = position_text(g, s);
        fail_msg("%s: is_ok failed %s at '%s': %s", g->ops->name, when, pos, err.msg);
    }
}

static int cmp_move(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return (x > y) - (x < y);
}

/* Copies and sorts a move list so that lists compare as sets. */
static void sorted(const MoveList *in, Move *out)
{
    memcpy(out, in->moves, sizeof in->moves[0] * (size_t)in->count);
    qsort(out, (size_t)in->count, sizeof out[0], cmp_move);
}

/* --- the checks at one position ------------------------------------------------------ */

/* Texts no game accepts as a position or a move: empty, blank, very long, bad numbers,
 * squares off any board, binary junk. Texts a game might use for a real action ("-" for a
 * pass, "0" for an option) are left out. Filled at run time (the long ones). */
typedef struct Garbage {
    const char *texts[32];
    int n;
    char *long_x, *long_digits, *long_slashes;
} Garbage;

static void garbage_init(Garbage *gb)
{
    gb->long_x = malloc(LONG_GARBAGE + 1);
    gb->long_digits = malloc(LONG_GARBAGE + 1);
    gb->long_slashes = malloc(LONG_GARBAGE + 1);
    assert_non_null(gb->long_x);
    assert_non_null(gb->long_digits);
    assert_non_null(gb->long_slashes);
    memset(gb->long_x, 'x', LONG_GARBAGE);
    memset(gb->long_digits, '9', LONG_GARBAGE);
    for (int i = 0; i < LONG_GARBAGE; i++)
        gb->long_slashes[i] = i % 2 ? '/' : '1';
    gb->long_x[LONG_GARBAGE] = gb->long_digits[LONG_GARBAGE] = '\0';
    gb->long_slashes[LONG_GARBAGE] = '\0';
    const char *fixed[] = {
        "",
        " ",
        "          ",
        "\t\n\r",
        "/",
        "-1",
        "99999999999999999999999999",
        "a0-a1",
        "z99-z98",
        "a1-",
        "-a1",
        "@@@@",
        "%s%s%n%d",
        "\x01\x02\x03\xff\xfe\x80",
        "\x7f\x7f\x7f",
        "\xc3\x28\xa0\xa1",
    };
    gb->n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        gb->texts[gb->n++] = fixed[i];
    gb->texts[gb->n++] = gb->long_x;
    gb->texts[gb->n++] = gb->long_digits;
    gb->texts[gb->n++] = gb->long_slashes;
}

static void garbage_free(Garbage *gb)
{
    free(gb->long_x);
    free(gb->long_digits);
    free(gb->long_slashes);
}

/* A garbage position text must fail with a message and leave the state alone. */
static void expect_bad_position(const Game *g, const GameState *s, GameState *scratch,
                                const char *text)
{
    memcpy(scratch, s, g->state_size);
    ErrBuf err;
    err_clear(&err);
    Status st = g->ops->parse_position(g, scratch, text, &err);
    if (st == STATUS_OK)
        fail_msg("%s: garbage position text accepted: '%.60s'", g->ops->name, text);
    if (err.msg[0] == '\0')
        fail_msg("%s: garbage position '%.60s' rejected without a message", g->ops->name, text);
    if (memcmp(scratch, s, g->state_size) != 0)
        fail_msg("%s: rejected position text '%.60s' changed the state", g->ops->name, text);
}

static void expect_bad_move(const Game *g, const GameState *s, const char *text)
{
    GameState *before = game_state_clone(g, s);
    assert_non_null(before);
    ErrBuf err;
    err_clear(&err);
    Move m = MOVE_NONE;
    Status st = g->ops->parse_move(g, s, text, &m, &err);
    if (st == STATUS_OK)
        fail_msg("%s: garbage move text accepted: '%.60s'", g->ops->name, text);
    if (err.msg[0] == '\0')
        fail_msg("%s: garbage move '%.60s' rejected without a message", g->ops->name, text);
    if (memcmp(before, s, g->state_size) != 0)
        fail_msg("%s: rejected move text '%.60s' changed the state", g->ops->name, text);
    free(before);
}

/* Position text round trip: format -> parse -> format is the identity, and the parsed
 * state is the same position (hash; to_move and moves unless the game is over: the text
 * carries no history, so a repetition draw may legitimately not survive it). */
static void check_position_text(const Game *g, const GameState *s, const MoveList *moves)
{
    char *text = position_text(g, s);
    GameState *parsed = game_state_new(g);
    assert_non_null(parsed);
    ErrBuf err;
    err_clear(&err);
    Status st = g->ops->parse_position(g, parsed, text, &err);
    if (st != STATUS_OK)
        fail_msg("%s: own position text '%s' does not parse: %s", g->ops->name, text, err.msg);
    check_is_ok(g, parsed, "after parse_position");
    char *again = position_text(g, parsed);
    if (strcmp(text, again) != 0)
        fail_msg("%s: position text '%s' formats back as '%s'", g->ops->name, text, again);
    if (g->ops->hash(g, parsed) != g->ops->hash(g, s))
        fail_msg("%s: parsed position '%s' has another hash", g->ops->name, text);
    int tm = g->ops->to_move(g, s);
    if (tm != PLAYER_NONE) {
        if (g->ops->to_move(g, parsed) != tm)
            fail_msg("%s: parsed position '%s' has another player to move", g->ops->name, text);
        MoveList *pm = malloc(sizeof *pm);
        Move *a = malloc(sizeof(Move) * MOVELIST_CAP);
        Move *b = malloc(sizeof(Move) * MOVELIST_CAP);
        assert_true(pm != NULL && a != NULL && b != NULL);
        g->ops->gen_moves(g, parsed, pm);
        if (pm->count != moves->count)
            fail_msg("%s: parsed position '%s' has %d moves, not %d", g->ops->name, text,
                     pm->count, moves->count);
        sorted(pm, a);
        sorted(moves, b);
        if (memcmp(a, b, sizeof(Move) * (size_t)pm->count) != 0)
            fail_msg("%s: parsed position '%s' has other moves", g->ops->name, text);
        free(pm);
        free(a);
        free(b);
    }
    /* Corrupted variants of a valid text are garbage too. */
    size_t len = strlen(text);
    char *junk = malloc(len + 16);
    assert_non_null(junk);
    snprintf(junk, len + 16, "%s ~junk!", text);
    expect_bad_position(g, s, parsed, junk);
    snprintf(junk, len + 16, "%s", text);
    junk[0] = '\x01';
    expect_bad_position(g, s, parsed, junk);
    free(junk);
    free(again);
    free(parsed);
    free(text);
}

/* Every move: dense index in range, make/unmake identity; text round trip for a sample
 * (parse_move checks legality, which can cost a whole move generation per call). */
static void check_actions(const Game *g, GameState *s, const Move *moves, int n, void *undo,
                          bool texts)
{
    const GameOps *ops = g->ops;
    GameState *before = game_state_clone(g, s);
    assert_non_null(before);
    uint64_t h = ops->hash(g, s);
    int stride = n <= TEXT_SAMPLE ? 1 : (n + TEXT_SAMPLE - 1) / TEXT_SAMPLE;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        if (m == MOVE_NONE)
            fail_msg("%s: MOVE_NONE offered as a move", ops->name);
        int idx = ops->move_index(g, s, m);
        if (idx < 0 || idx >= g->move_index_count)
            fail_msg("%s: move_index %d outside [0, %d)", ops->name, idx, g->move_index_count);
        if (texts && ops->to_move(g, s) >= 0 && (i % stride == 0 || i == n - 1)) {
            char *t = move_text(g, s, m);
            if (t[0] == '\0')
                fail_msg("%s: empty move text", ops->name);
            ErrBuf err;
            err_clear(&err);
            Move back = MOVE_NONE;
            Status st = ops->parse_move(g, s, t, &back, &err);
            if (st != STATUS_OK)
                fail_msg("%s: move text '%s' does not parse: %s", ops->name, t, err.msg);
            if (back != m)
                fail_msg("%s: move text '%s' parses to another move", ops->name, t);
            free(t);
        }
        ops->make(g, s, m, undo);
        check_is_ok(g, s, "after make");
        ops->unmake(g, s, m, undo);
        check_is_ok(g, s, "after unmake");
        if (memcmp(before, s, g->state_size) != 0) {
            char *t = move_text(g, s, m);
            fail_msg("%s: make/unmake of '%s' did not restore the state", ops->name, t);
        }
        if (ops->hash(g, s) != h)
            fail_msg("%s: make/unmake changed the hash", ops->name);
    }
    free(before);
}

static void check_no_duplicates(const Game *g, const Move *moves, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (moves[i] == moves[j])
                fail_msg("%s: move listed twice", g->ops->name);
}

static void check_over(const Game *g, const GameState *s)
{
    double ret[MAX_PLAYERS] = {0};
    g->ops->returns(g, s, ret);
    if (g->ops->flags & GAME_ZERO_SUM) {
        double sum = 0;
        for (int p = 0; p < g->players; p++)
            sum += ret[p];
        if (fabs(sum) > 1e-9)
            fail_msg("%s: returns of a zero-sum game sum to %g", g->ops->name, sum);
    }
    StrBuf why;
    sb_init(&why);
    g->ops->describe_result(g, s, &why);
    if (sb_str(&why)[0] == '\0')
        fail_msg("%s: finished game without a described result", g->ops->name);
    sb_free(&why);
    if (g->ops->end_reason != NULL) {
        const int r = g->ops->end_reason(g, s);
        if (r < 0 || r >= g->ops->end_reason_count || g->ops->end_reasons[r] == NULL)
            fail_msg("%s: end_reason %d of a finished game is not one of its %d end reasons",
                     g->ops->name, r, g->ops->end_reason_count);
    }
}

static void check_determinize(const Game *g, const GameState *s, Rng *rng)
{
    if (g->ops->determinize == NULL)
        return;
    GameState *c = game_state_new(g);
    assert_non_null(c);
    StrBuf seen, seen_after;
    sb_init(&seen);
    sb_init(&seen_after);
    for (int obs = 0; obs < g->players; obs++) {
        memcpy(c, s, g->state_size);
        g->ops->determinize(g, c, obs, rng);
        check_is_ok(g, c, "after determinize");
        if (g->ops->to_move(g, c) != g->ops->to_move(g, s))
            fail_msg("%s: determinize changed the player to move", g->ops->name);
        // Everything the observer can see stays as it was.
        if (g->ops->format_view != NULL) {
            sb_clear(&seen);
            sb_clear(&seen_after);
            g->ops->format_view(g, s, obs, &seen);
            g->ops->format_view(g, c, obs, &seen_after);
            if (strcmp(sb_str(&seen), sb_str(&seen_after)) != 0)
                fail_msg("%s: determinize for player %d changed what he sees:\n%s\nbecame\n%s",
                         g->ops->name, obs + 1, sb_str(&seen), sb_str(&seen_after));
        }
    }
    sb_free(&seen);
    sb_free(&seen_after);
    free(c);
}

/* The observation of `observer` at s, checked against the schema. */
static void observe_checked(const Game *g, const GameState *s, int observer, Observation *o)
{
    g->ops->observe(g, s, observer, o);
    ErrBuf err;
    err_clear(&err);
    if (!obs_check(g->observation, o, &err))
        fail_msg("%s: malformed observation for observer %d: %s", g->ops->name, observer,
                 err.msg);
    if (o->observer != observer || o->to_move != g->ops->to_move(g, s))
        fail_msg("%s: observation names observer %d and to_move %d, not %d and %d",
                 g->ops->name, o->observer, o->to_move, observer, g->ops->to_move(g, s));
}

static bool has_cell(const Observation *o, const char *name, size_t len)
{
    for (int i = 0; i < o->cell_count; i++)
        if (strlen(o->cells[i].name) == len && strncmp(o->cells[i].name, name, len) == 0)
            return true;
    return false;
}

/* Observations (core/observation.h): well formed at every visited position for the
 * player to move; when `full`, for every observer and the spectator: the same twice
 * (bytes, JSON and tensor), cell names that are the game's (every name move_cells gives
 * is a cell), every zone fully listed, and for a hidden-information game the same
 * after determinize for that observer. */
static void check_observation(const Game *g, const GameState *s, const MoveList *moves,
                              bool full, Rng *rng)
{
    const GameOps *ops = g->ops;
    if ((ops->observe == NULL) != (g->observation == NULL))
        fail_msg("%s: observe and Game.observation come together", ops->name);
    if (ops->observe == NULL)
        return;
    const ObsSchema *sc = g->observation;
    Observation *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    assert_true(a != NULL && b != NULL);
    const int tm = ops->to_move(g, s);
    observe_checked(g, s, tm >= 0 ? tm : PLAYER_NONE, a);
    if (!full) {
        free(a);
        free(b);
        return;
    }
    int area = 0;
    for (int z = 0; z < sc->zone_count; z++)
        area += sc->zones[z].shape == OBS_HEX ? 0 : sc->zones[z].cols * sc->zones[z].rows;
    const int size = obs_tensor_size(sc);
    int dims[OBS_MAX_DIMS];
    const int nd = obs_tensor_shape(sc, dims);
    int product = 1;
    for (int i = 0; i < nd; i++)
        product *= dims[i];
    if (product != size || size <= 0)
        fail_msg("%s: tensor shape of %d floats, size %d", ops->name, product, size);
    float *ta = malloc(sizeof(float) * (size_t)size), *tb = malloc(sizeof(float) * (size_t)size);
    assert_true(ta != NULL && tb != NULL);
    StrBuf ja, jb, cells;
    sb_init(&ja);
    sb_init(&jb);
    sb_init(&cells);
    GameState *d = game_state_new(g);
    assert_non_null(d);
    for (int observer = -1; observer < g->players; observer++) {
        observe_checked(g, s, observer, a);
        observe_checked(g, s, observer, b);
        if (memcmp(a, b, sizeof *a) != 0)
            fail_msg("%s: two observations of one position differ", ops->name);
        // Square and line zones list every place of their grid; a hex zone only those on
        // the board, which the game alone knows.
        int listed = 0;
        for (int i = 0; i < a->cell_count; i++)
            listed += sc->zones[a->cells[i].zone].shape != OBS_HEX;
        if (listed != area)
            fail_msg("%s: %d cells of square and line zones listed, not %d", ops->name, listed,
                     area);
        sb_clear(&ja);
        sb_clear(&jb);
        obs_write_json(sc, a, &ja);
        obs_write_json(sc, b, &jb);
        assert_string_equal(sb_str(&ja), sb_str(&jb));
        for (int i = 0; i < size; i++)
            ta[i] = tb[i] = -1;
        obs_write_tensor(sc, a, ta);
        obs_write_tensor(sc, b, tb);
        for (int i = 0; i < size; i++)
            if (!(ta[i] == tb[i] && isfinite(ta[i])))
                fail_msg("%s: tensor entry %d is %g then %g", ops->name, i, (double)ta[i],
                         (double)tb[i]);
        if (ops->determinize != NULL && observer >= 0) {
            memcpy(d, s, g->state_size);
            ops->determinize(g, d, observer, rng);
            observe_checked(g, d, observer, b);
            sb_clear(&jb);
            obs_write_json(sc, b, &jb);
            if (strcmp(sb_str(&ja), sb_str(&jb)) != 0)
                fail_msg("%s: determinize for seat %d changed its observation:\n%s\nbecame\n%s",
                         ops->name, observer, sb_str(&ja), sb_str(&jb));
        }
    }
    if (ops->move_cells != NULL && tm >= 0)
        for (int i = 0; i < moves->count; i++) {
            sb_clear(&cells);
            ops->move_cells(g, s, moves->moves[i], &cells);
            for (const char *p = sb_str(&cells); *p;) {
                const size_t len = strcspn(p, " ");
                if (len > 0 && !has_cell(a, p, len))
                    fail_msg("%s: move_cells names '%.*s', which is no cell of the observation",
                             ops->name, (int)len, p);
                p += len + (p[len] == ' ');
            }
        }
    free(d);
    sb_free(&ja);
    sb_free(&jb);
    sb_free(&cells);
    free(ta);
    free(tb);
    free(a);
    free(b);
}

/* The guided playout ends the game in a sound state with values in [-1, 1]. */
static void check_guided_playout(const Game *g, const GameState *s, Rng *rng)
{
    if (g->ops->guided_playout == NULL)
        return;
    GameState *c = game_state_clone(g, s);
    assert_non_null(c);
    double v[MAX_PLAYERS];
    g->ops->guided_playout(g, c, rng, v);
    check_is_ok(g, c, "after a guided playout");
    if (g->ops->to_move(g, c) != PLAYER_NONE)
        fail_msg("%s: a guided playout stopped before the end", g->ops->name);
    for (int p = 0; p < g->players; p++)
        if (!(v[p] >= -1 && v[p] <= 1))
            fail_msg("%s: guided playout value %g for player %d", g->ops->name, v[p], p + 1);
    free(c);
}

/* Lazy legality: the candidates candidate_legal keeps are gen_moves' list, in order, or
 * gen_moves decides when it keeps none; no candidates once the game is over; s unchanged. */
static void check_lazy_legality(const Game *g, const GameState *s, const MoveList *moves)
{
    const GameOps *ops = g->ops;
    if ((ops->gen_candidates == NULL) != (ops->candidate_legal == NULL))
        fail_msg("%s: gen_candidates and candidate_legal come together", ops->name);
    if (ops->gen_candidates == NULL)
        return;
    MoveList *cand = malloc(sizeof *cand), *kept = malloc(sizeof *kept);
    void *memo = calloc(1, g->legal_memo_size + 1);
    GameState *before = game_state_clone(g, s);
    assert_true(cand != NULL && kept != NULL && memo != NULL && before != NULL);
    const int n = ops->gen_candidates(g, s, cand);
    if (n != cand->count || n < moves->count)
        fail_msg("%s: %d candidates (listed %d) for %d moves", ops->name, n, cand->count,
                 moves->count);
    kept->count = 0;
    for (int i = 0; i < n; i++)
        if (ops->candidate_legal(g, s, cand->moves[i], memo))
            kept->moves[kept->count++] = cand->moves[i];
    if (kept->count > 0 && (kept->count != moves->count ||
                            memcmp(kept->moves, moves->moves, sizeof(Move) * (size_t)kept->count)))
        fail_msg("%s: the candidates kept are not gen_moves' list", ops->name);
    if (memcmp(before, s, g->state_size) != 0)
        fail_msg("%s: the lazy legality hooks changed the position", ops->name);
    free(before);
    free(memo);
    free(kept);
    free(cand);
}

/* The search hints: a noisy value in its range for every move, and a null move that
 * leaves a consistent position with the other player to move and unmakes byte for
 * byte; evaluate_static only with evaluate and noisy, quiesce_finish only with
 * evaluate_static and naming none or one of the moves; in_check, noisy, evaluate_static
 * and quiesce_finish change nothing. */
static void check_search_hints(const Game *g, GameState *s, const MoveList *moves, void *undo)
{
    const GameOps *ops = g->ops;
    if ((ops->make_null == NULL) != (ops->unmake_null == NULL))
        fail_msg("%s: make_null and unmake_null come together", ops->name);
    const int tm = ops->to_move(g, s);
    if (tm < 0)
        return;
    GameState *before = game_state_clone(g, s);
    assert_non_null(before);
    for (int i = 0; ops->noisy != NULL && i < moves->count; i++) {
        const int v = ops->noisy(g, s, moves->moves[i]);
        if (v < 0 || v >= 1 << 20)
            fail_msg("%s: noisy value %d out of range", ops->name, v);
    }
    if (ops->in_check != NULL)
        (void)ops->in_check(g, s);
    if (ops->evaluate_static != NULL) {
        if (ops->evaluate == NULL || ops->noisy == NULL)
            fail_msg("%s: evaluate_static comes with evaluate and noisy", ops->name);
        (void)ops->evaluate_static(g, s);
    }
    if (ops->quiesce_finish != NULL) {
        if (ops->evaluate_static == NULL)
            fail_msg("%s: quiesce_finish comes with evaluate_static", ops->name);
        const Move finish = ops->quiesce_finish(g, s);
        bool listed = finish == MOVE_NONE;
        for (int i = 0; !listed && i < moves->count; i++)
            listed = moves->moves[i] == finish;
        if (!listed)
            fail_msg("%s: quiesce_finish names a move that is not legal", ops->name);
    }
    if (ops->make_null != NULL && !(ops->in_check != NULL && ops->in_check(g, s)) &&
        ops->make_null(g, s, undo)) {
        check_is_ok(g, s, "after a null move");
        if (ops->to_move(g, s) == tm)
            fail_msg("%s: a null move left the same player to move", ops->name);
        ops->unmake_null(g, s, undo);
    }
    if (memcmp(before, s, g->state_size) != 0)
        fail_msg("%s: the search hints did not leave the state as it was", ops->name);
    free(before);
}

/* All checks at one position: move list, chance list, make/unmake of every action;
 * `full` adds the text checks and determinize. Fills `list` (the moves) or `chance` and
 * returns the number of actions. */
/* Every legal action is plain or of one of the game's kinds, with a label, its args are
 * key=value words, and asking changes nothing; the turn's help, when there is one, is a
 * line of words. */
static void check_action_words(const Game *g, const GameState *s, const MoveList *moves)
{
    const GameOps *ops = g->ops;
    GameState *before = game_state_clone(g, s);
    assert_non_null(before);
    StrBuf label;
    sb_init(&label);
    for (int i = 0; i < moves->count; i++) {
        // The hook itself, not game_action_kind, which would hide an index out of range.
        sb_clear(&label);
        const int raw = ops->action_kind ? ops->action_kind(g, s, moves->moves[i], &label) : -1;
        if (raw < -1 || raw >= ops->action_kind_count)
            fail_msg("%s: action %d is of kind %d, not one of its %d", ops->name, i, raw,
                     ops->action_kind_count);
        sb_clear(&label);
        const int k = game_action_kind(g, s, moves->moves[i], &label);
        if (k >= ops->action_kind_count || (k >= 0 && sb_str(&label)[0] == '\0'))
            fail_msg("%s: action %d is of kind %d with label '%s'", ops->name, i, k,
                     sb_str(&label));
        if (ops->action_args == NULL)
            continue;
        sb_clear(&label);
        ops->action_args(g, s, moves->moves[i], &label);
        // Words of key=value: a key of lower-case letters, a value without spaces.
        for (const char *w = sb_str(&label); *w;) {
            const size_t n = strcspn(w, " ");
            const char *eq = memchr(w, '=', n);
            const size_t key = strspn(w, "abcdefghijklmnopqrstuvwxyz");
            if (eq == NULL || eq == w || eq == w + n - 1 || key != (size_t)(eq - w))
                fail_msg("%s: action args '%s' are not key=value words", ops->name,
                         sb_str(&label));
            w += n;
            w += strspn(w, " ");
        }
    }
    sb_free(&label);
    const char *help = game_turn_help(g, s);
    if (help != NULL && strlen(help) < 8)
        fail_msg("%s: turn help '%s' says nothing", ops->name, help);
    if (memcmp(before, s, g->state_size) != 0)
        fail_msg("%s: action_kind or turn_help changed the state", ops->name);
    free(before);
}

static int check_position(const Game *g, GameState *s, bool full, bool garbage,
                          const Garbage *gb, MoveList *list, ChanceList *chance, void *undo,
                          Rng *rng)
{
    const GameOps *ops = g->ops;
    check_is_ok(g, s, "at a visited position");
    int tm = ops->to_move(g, s);
    int n = ops->gen_moves(g, s, list);
    if (n != list->count)
        fail_msg("%s: gen_moves returned %d but listed %d", ops->name, n, list->count);
    if (n < 0 || n > MOVELIST_CAP)
        fail_msg("%s: gen_moves count %d out of range", ops->name, n);
    int actions = n;
    if (tm != PLAYER_NONE && ops->end_reason != NULL && ops->end_reason(g, s) != -1)
        fail_msg("%s: end_reason of a game in progress is not -1", ops->name);
    check_action_words(g, s, list);
    if (full && ops->can_win != NULL) {
        // Asked by the server when a flag falls, at any position: it must only look.
        GameState *before = game_state_clone(g, s);
        assert_non_null(before);
        for (int p = 0; p < g->players; p++)
            (void)ops->can_win(g, s, p);
        if (memcmp(before, s, g->state_size) != 0)
            fail_msg("%s: can_win changed the state", ops->name);
        free(before);
    }
    if (tm == PLAYER_NONE) {
        if (n != 0)
            fail_msg("%s: finished game offers %d moves", ops->name, n);
        check_over(g, s);
    } else if (tm == PLAYER_CHANCE) {
        if (n != 0)
            fail_msg("%s: moves offered while chance acts", ops->name);
        if (ops->chance_outcomes == NULL)
            fail_msg("%s: PLAYER_CHANCE without chance_outcomes", ops->name);
        actions = ops->chance_outcomes(g, s, chance);
        if (actions <= 0 || actions > CHANCE_CAP)
            fail_msg("%s: %d chance outcomes", ops->name, actions);
        double sum = 0;
        for (int i = 0; i < actions; i++) {
            if (!(chance->prob[i] > 0))
                fail_msg("%s: chance outcome with probability %g", ops->name, chance->prob[i]);
            sum += chance->prob[i];
        }
        if (fabs(sum - 1) > 1e-9)
            fail_msg("%s: chance probabilities sum to %.12g", ops->name, sum);
        check_no_duplicates(g, chance->outcomes, actions);
    } else {
        if (tm < 0 || tm >= g->players)
            fail_msg("%s: to_move %d with %d players", ops->name, tm, g->players);
        if (n == 0)
            fail_msg("%s: no moves but the game is not over", ops->name);
        check_no_duplicates(g, list->moves, n);
    }
    check_actions(g, s, tm == PLAYER_CHANCE ? chance->outcomes : list->moves, actions, undo,
                  full);
    if (full) {
        check_position_text(g, s, list);
        check_determinize(g, s, rng);
        check_guided_playout(g, s, rng);
        check_lazy_legality(g, s, list);
        check_search_hints(g, s, list, undo);
    }
    check_observation(g, s, list, full, rng);
    if (garbage) {
        GameState *scratch = game_state_new(g);
        assert_non_null(scratch);
        for (int i = 0; i < gb->n; i++)
            expect_bad_position(g, s, scratch, gb->texts[i]);
        free(scratch);
        if (tm >= 0) {
            for (int i = 0; i < gb->n; i++)
                expect_bad_move(g, s, gb->texts[i]);
            char *t = move_text(g, s, list->moves[0]);
            size_t len = strlen(t);
            char *junk = malloc(len + 2);
            assert_non_null(junk);
            snprintf(junk, len + 2, "%s\x01", t);
            expect_bad_move(g, s, junk);
            free(junk);
            free(t);
        }
    }
    return actions;
}

/* --- random games --------------------------------------------------------------------- */

/* Plays one random game from the start, checking every position (fully in the opening
 * and then now and again), and replays its moves to check that play is deterministic. */
static long play_checked_game(const Game *g, uint64_t seed, const Garbage *gb)
{
    const GameOps *ops = g->ops;
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    MoveList *list = malloc(sizeof *list);
    ChanceList *chance = malloc(sizeof *chance);
    Move *played = malloc(sizeof(Move) * ((size_t)g->max_game_length + 1));
    assert_true(s != NULL && undo != NULL && list != NULL && chance != NULL && played != NULL);
    Rng rng;
    rng_seed(&rng, seed);
    ops->new_game(g, s, seed);
    int plies = 0;
    for (;;) {
        bool full = plies < FULL_OPENING || plies % FULL_EVERY == 0;
        int n = check_position(g, s, full, plies % GARBAGE_EVERY == 0, gb, list, chance, undo,
                               &rng);
        if (ops->to_move(g, s) == PLAYER_NONE)
            break;
        if (plies >= g->max_game_length)
            fail_msg("%s: game longer than max_game_length %d", ops->name,
                     g->max_game_length);
        Move m = ops->to_move(g, s) == PLAYER_CHANCE ? game_sample_chance(g, s, &rng)
                                                      : list->moves[rng_below(&rng, (uint32_t)n)];
        played[plies++] = m;
        ops->make(g, s, m, undo);
    }
    /* Replaying the same actions from the same start gives the same bytes. */
    GameState *replay = game_state_new(g);
    assert_non_null(replay);
    ops->new_game(g, replay, seed);
    /* The replay also feeds the measure hook, which must leave both states as they were
     * and give finite figures. */
    GameState *before = game_state_new(g), *kept = game_state_new(g);
    assert_true(before != NULL && kept != NULL);
    double figures[GAME_MAX_METRICS][MAX_PLAYERS] = {{0}};
    assert_true(ops->metric_count <= GAME_MAX_METRICS);
    for (int i = 0; i <= plies; i++) {
        const bool end = i == plies;
        if (!end) {
            memcpy(before, replay, g->state_size);
            ops->make(g, replay, played[i], undo);
        }
        if (ops->measure == NULL)
            continue;
        memcpy(kept, before, g->state_size);
        ops->measure(g, end ? NULL : before, end ? MOVE_NONE : played[i], replay, figures);
        if (!end && memcmp(kept, before, g->state_size) != 0)
            fail_msg("%s: measure changed the state before the action", ops->name);
    }
    for (int k = 0; k < ops->metric_count; k++)
        for (int p = 0; p < MAX_PLAYERS; p++)
            if (!isfinite(figures[k][p]))
                fail_msg("%s: figure %s is not finite", ops->name, ops->metrics[k].name);
    free(kept);
    free(before);
    if (memcmp(replay, s, g->state_size) != 0)
        fail_msg("%s: replaying a game gave another state", ops->name);
    free(replay);
    free(played);
    free(chance);
    free(list);
    free(undo);
    free(s);
    return plies + 1;
}

static void test_random_games(void **state)
{
    (void)state;
    Garbage gb;
    garbage_init(&gb);
    Combo combos[MAX_COMBOS];
    assert_true(registry_count() > 0);
    // CROWN_CONTRACT_GAME names one game to check alone (tests/new-game.sh's new one).
    const char *only = getenv("CROWN_CONTRACT_GAME");
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        if (only != NULL && strcmp(only, ops->name) != 0)
            continue;
        int nc = pick_combos(ops, combos);
        long positions = 0;
        for (int c = 0; c < nc; c++) {
            Game *g = create_game(ops, &combos[c]);
            int games = SLOW_BUILD_SHARE(c == 0 ? DEFAULT_GAMES : COMBO_GAMES);
            for (int k = 0; k < games; k++)
                positions +=
                    play_checked_game(g, 0x5eed0000u + (uint64_t)(i * 1000 + c * 10 + k), &gb);
            game_destroy(g);
        }
        print_message("  %-24s %2d rule settings, %5ld positions\n", ops->name, nc, positions);
    }
    garbage_free(&gb);
}

/* --- registry and set-up ---------------------------------------------------------------- */

static void test_registry(void **state)
{
    (void)state;
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        assert_non_null(ops);
        assert_non_null(ops->name);
        assert_ptr_equal(registry_find(ops->name), ops);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(registry_at(j)->name, ops->name);
        assert_true(ops->min_players >= 1 && ops->min_players <= ops->max_players);
        assert_true(ops->max_players <= MAX_PLAYERS);
        assert_true(ops->option_count >= 0 && ops->option_count <= GAME_MAX_OPTIONS);
        for (int k = 0; k < ops->option_count; k++)
            assert_non_null(ops->options[k].default_value);
        // The words a page shows come from here, never from tables keyed by the name.
        assert_true(ops->title != NULL && ops->title[0] != '\0');
        assert_true(ops->family != NULL && ops->family[0] != '\0');
        assert_true(ops->summary != NULL && ops->summary[0] != '\0');
        assert_true((ops->action_kind == NULL) == (ops->action_kind_count == 0));
        for (int k = 0; k < ops->action_kind_count; k++) {
            const ActionKind *a = &ops->action_kinds[k];
            assert_true(a->key && a->key[0] && a->label && a->label[0] && a->help && a->help[0]);
            for (int j = 0; j < k; j++)
                assert_string_not_equal(ops->action_kinds[j].key, a->key);
        }
    }
    assert_null(registry_find("no-such-game"));
}

/* Every player count a game allows configures with sane sizes; new_game with any seed
 * passes is_ok. */
static void test_create_sizes(void **state)
{
    (void)state;
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        for (int p = ops->min_players; p <= ops->max_players; p++) {
            Game *g = NULL;
            ErrBuf err;
            err_clear(&err);
            if (game_create(ops, p, NULL, 0, &g, &err) != STATUS_OK)
                fail_msg("%s with %d players: %s", ops->name, p, err.msg);
            assert_int_equal(g->players, p);
            assert_true(g->state_size > 0);
            assert_true(g->move_index_count > 0);
            assert_true(g->max_game_length > 0);
            GameState *s = game_state_new(g);
            assert_non_null(s);
            for (uint64_t seed = 1; seed <= 3; seed++) {
                g->ops->new_game(g, s, seed);
                check_is_ok(g, s, "after new_game");
            }
            free(s);
            game_destroy(g);
        }
    }
}

/* Unknown rule names and values outside the option table are refused with a message. */
static void test_bad_rules(void **state)
{
    (void)state;
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        const char *bad[] = {"no-such-rule=1", "=", "novalue"};
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            Game *g = NULL;
            ErrBuf err;
            err_clear(&err);
            const char *rules[1] = {bad[k]};
            assert_int_not_equal(rule_text_create(ops, 0, rules, 1, &g, &err), STATUS_OK);
            assert_null(g);
            assert_true(err.msg[0] != '\0');
        }
        for (int k = 0; k < ops->option_count; k++) {
            const RuleOption *o = &ops->options[k];
            if (o->kind == RULE_TEXT || o->kind == RULE_FILE)
                continue;
            char setting[SETTING_LEN];
            if (o->choices != NULL)
                snprintf(setting, sizeof setting, "%s=%s", o->name, "no-such-choice");
            else if (o->max < LONG_MAX)
                snprintf(setting, sizeof setting, "%s=%ld", o->name, o->max + 1);
            else
                snprintf(setting, sizeof setting, "%s=%s", o->name, "not-a-number");
            Game *g = NULL;
            ErrBuf err;
            err_clear(&err);
            const char *rules[1] = {setting};
            assert_int_not_equal(rule_text_create(ops, 0, rules, 1, &g, &err), STATUS_OK);
            assert_true(err.msg[0] != '\0');
        }
    }
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_create_sizes),
        cmocka_unit_test(test_bad_rules),
        cmocka_unit_test(test_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
