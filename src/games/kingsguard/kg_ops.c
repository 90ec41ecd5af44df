/*
 * kg_ops.c - the two King's Guard games as GameOps tables: their rule options, the
 * geometry and set-up each configuration builds, and thin adapters from the interface
 * to kg_*.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "games/kingsguard/kg_internal.h"
#include "games/kingsguard/kingsguard.h"

#define KG_STEPS_OPTION                                                                        \
    {"steps", "Steps",                                                                         \
     "each step of a piece goes to one of the 4 orthogonal neighbours, or to any of all 8",    \
     "orthogonal", "orthogonal|all", 0, 0, RULE_CHOICE, RULE_MAIN}
#define KG_DRAW_OPTIONS                                                                        \
    {"max-plies", "Turn limit", "the game is drawn once this many turns have been played",     \
     "300", NULL, 0, KG_MAX_PLIES_LIMIT, RULE_INTEGER, RULE_ADVANCED},                         \
        {"repetition", "Draw by repetition",                                                   \
         "the third occurrence of a position at the start of a turn is a draw", "on",          \
         "on|off", 0, 0, RULE_CHOICE, RULE_ADVANCED},                                          \
        {"no-move", "No legal move",                                                           \
         "a player who has no legal turn loses, or the game is drawn", "lose", "lose|draw", 0, \
         0, RULE_CHOICE, RULE_ADVANCED}

static const RuleOption kg_options[] = {KG_STEPS_OPTION, KG_DRAW_OPTIONS};
static const RuleOption kg_8x8_options[] = {
    KG_STEPS_OPTION,
    {"king-file", "King's file", "the file of both kings at set-up on the 8x8 board", "e", "e|d", 0,
     0, RULE_CHOICE, RULE_ADVANCED},
    KG_DRAW_OPTIONS,
};

/* Writes the set-up as a position text. The guards stand in a V pointing at the
 * opponent: one per file, rising by a rank a file towards the middle (two apex squares
 * side by side on the 8-file board); the king sits behind on the first rank. */
static void build_start(KgConfig *c, int king_file)
{
    char rows[KG_MAX_RANKS][KG_MAX_FILES + 1];
    const int n = c->files;
    if (n > KG_MAX_FILES || c->ranks > KG_MAX_RANKS || king_file >= n)
        return; // cannot happen: the two boards are fixed
    for (int r = 0; r < c->ranks; r++) {
        memset(rows[r], '.', (size_t)n);
        rows[r][n] = '\0';
    }
    for (int f = 0; f < n; f++) {
        const int from_edge = f < n - 1 - f ? f : n - 1 - f;
        rows[from_edge][f] = 'G';
        rows[c->ranks - 1 - from_edge][f] = 'g';
    }
    rows[0][king_file] = 'K';
    rows[c->ranks - 1][king_file] = 'k';
    size_t len = 0;
    for (int r = c->ranks - 1; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < n; f++) {
            if (rows[r][f] == '.') {
                empty++;
                continue;
            }
            if (empty)
                len += (size_t)snprintf(c->start + len, sizeof c->start - len, "%d", empty);
            empty = 0;
            len += (size_t)snprintf(c->start + len, sizeof c->start - len, "%c", rows[r][f]);
        }
        if (empty)
            len += (size_t)snprintf(c->start + len, sizeof c->start - len, "%d", empty);
        if (r > 0)
            len += (size_t)snprintf(c->start + len, sizeof c->start - len, "/");
    }
    snprintf(c->start + len, sizeof c->start - len, " 1 0");
}

static void build_geometry(KgConfig *c)
{
    c->stride = c->files + 1;
    c->squares = c->stride * c->ranks;
    c->on_board = 0;
    for (int r = 0; r < c->ranks; r++)
        for (int f = 0; f < c->files; f++)
            c->on_board |= bb128_bit(r * c->stride + f);
    for (int sq = 0; sq < KG_MAX_SQ; sq++)
        c->neighbours[sq] = sq < c->squares && bb128_has(c->on_board, sq)
                                ? kg_spread(c, bb128_bit(sq))
                                : 0;
    // Hash keys come from a fixed seed so that hashes are the same in every run.
    uint64_t seed = 0x6B696E6773677561ULL + (uint64_t)c->files;
    for (int k = 0; k < KG_KINDS; k++)
        for (int lv = 0; lv < KG_MAX_HEIGHT; lv++)
            for (int sq = 0; sq < KG_MAX_SQ; sq++)
                c->zobrist[k][lv][sq] = rng_mix(&seed);
    for (int sq = 0; sq < KG_MAX_SQ; sq++)
        c->zobrist_origin[sq] = rng_mix(&seed);
    c->zobrist_placed = rng_mix(&seed);
    c->zobrist_second = rng_mix(&seed);
}

static Status kg_configure(Game *g, ErrBuf *err)
{
    // Aligned for the 128-bit bitboards inside.
    KgConfig *c = aligned_alloc(16, (sizeof *c + 15) / 16 * 16);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    memset(c, 0, sizeof *c);
    const bool small = g->ops == &kg_8x8_ops;
    c->files = small ? 8 : 9;
    c->ranks = small ? 8 : 10;
    c->limit = small ? 4 : 5;
    c->guards = small ? 8 : 9;
    c->steps_all = game_option_is(g, "steps", "all");
    c->repetition = game_option_is(g, "repetition", "on");
    c->no_move_loses = game_option_is(g, "no-move", "lose");
    c->max_plies = (int)game_option_long(g, "max-plies", 300);
    build_geometry(c);
    int king_file = 4; // e
    if (small && game_option_is(g, "king-file", "d"))
        king_file = 3;
    build_start(c, king_file);
    kg_obs_schema(c);
    g->config = c;
    g->observation = &c->obs;
    c->hist_cap = c->max_plies + 1;
    c->state_bytes = sizeof(KgState) + rep_history_bytes(c->hist_cap, false);
    g->state_size = c->state_bytes;
    g->undo_size = sizeof(KgUndo);
    g->move_index_count = c->squares * c->squares + c->squares + 1;
    // A turn is a pick-up, at most `limit` placements and an end.
    g->max_game_length = c->max_plies > 0 ? c->max_plies * (c->limit + 2) : 1;
    return STATUS_OK;
}

static void kg_release(Game *g)
{
    free(g->config);
    g->config = NULL;
}

static void ops_new_game(const Game *g, GameState *s, uint64_t seed)
{
    (void)seed;
    const KgConfig *c = kg_cfg(g);
    ErrBuf err;
    memset(s, 0, g->state_size);
    Status st = kg_parse_position(c, (KgState *)s, c->start, &err);
    (void)st; // the start texts are built by build_start and checked by the tests
}

static Status ops_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    return kg_parse_position(kg_cfg(g), (KgState *)s, text, err);
}

static void ops_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    kg_format_position(kg_cfg(g), (const KgState *)s, out);
}

static Status ops_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                             ErrBuf *err)
{
    return kg_parse_action(kg_cfg(g), (const KgState *)s, text, out, err);
}

static void ops_format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)s;
    kg_format_action(kg_cfg(g), m, out);
}

static Status ops_parse_actions(const Game *g, const GameState *s, const char *text, Move *out,
                                int cap, int *count, ErrBuf *err)
{
    return kg_parse_actions(kg_cfg(g), (const KgState *)s, text, out, cap, count, err);
}

static int ops_to_move(const Game *g, const GameState *s)
{
    (void)g;
    const KgState *k = (const KgState *)s;
    return k->k.result == KG_PLAYING ? k->k.turn : PLAYER_NONE;
}

static int ops_noisy(const Game *g, const GameState *s, Move m)
{
    return kg_noisy(kg_cfg(g), (const KgState *)s, m);
}

static bool ops_in_check(const Game *g, const GameState *s)
{
    return kg_in_check(kg_cfg(g), (const KgState *)s);
}

static Move ops_quiesce_finish(const Game *g, const GameState *s)
{
    return kg_quiesce_finish(kg_cfg(g), (const KgState *)s);
}

static bool ops_make_null(const Game *g, GameState *s, void *undo)
{
    return kg_make_null(kg_cfg(g), (KgState *)s, (KgUndo *)undo);
}

static void ops_unmake_null(const Game *g, GameState *s, const void *undo)
{
    (void)g;
    kg_unmake((KgState *)s, (const KgUndo *)undo);
}

static int ops_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    out->count = kg_gen(kg_cfg(g), (const KgState *)s, out->moves);
    return out->count;
}

static void ops_make(const Game *g, GameState *s, Move m, void *undo)
{
    kg_make(kg_cfg(g), (KgState *)s, m, (KgUndo *)undo);
}

static void ops_unmake(const Game *g, GameState *s, Move m, const void *undo)
{
    (void)g;
    (void)m;
    kg_unmake((KgState *)s, (const KgUndo *)undo);
}

static void ops_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    (void)g;
    const KgState *k = (const KgState *)s;
    const int winner = k->k.result == KG_WIN_FIRST ? 0 : k->k.result == KG_WIN_SECOND ? 1 : -1;
    game_returns_two_player(winner, out);
}

static void ops_describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    const KgState *k = (const KgState *)s;
    switch ((KgReason)k->k.reason) {
    case KG_REASON_NONE:
        break;
    case KG_REASON_CAPTURE:
        sb_puts(out, "a king was captured");
        break;
    case KG_REASON_NO_MOVE:
        sb_printf(out, "the player to move has no legal turn (%s)",
                  kg_cfg(g)->no_move_loses ? "and loses" : "a draw by rule no-move=draw");
        break;
    case KG_REASON_REPETITION:
        sb_puts(out, "the same position occurred a third time");
        break;
    case KG_REASON_PLY_LIMIT:
        sb_puts(out, "the turn limit (max-plies) was reached");
        break;
    }
}

/* Indexed by KgReason less one. */
static const char *const kg_end_reasons[] = {"capture", "no-move", "repetition", "ply-limit"};

static int ops_end_reason(const Game *g, const GameState *s)
{
    (void)g;
    return (int)((const KgState *)s)->k.reason - 1;
}

static uint64_t ops_hash(const Game *g, const GameState *s)
{
    (void)g;
    return ((const KgState *)s)->k.hash;
}

static int ops_move_index(const Game *g, const GameState *s, Move m)
{
    (void)s;
    const int n = kg_cfg(g)->squares;
    switch (kg_kind(m)) {
    case KG_PICK:
        return kg_a(m);
    case KG_PLACE:
        return n + kg_a(m) * n + kg_b(m);
    case KG_END:
        break;
    }
    return n + n * n;
}

/* Recomputes every derived field and checks every invariant; the first failure wins. */
static bool ops_is_ok(const Game *g, const GameState *gs, ErrBuf *err)
{
    const KgConfig *c = kg_cfg(g);
    const KgState *s = (const KgState *)gs;
    const KgCore *k = &s->k;
    for (int sq = 0; sq < KG_MAX_SQ; sq++) {
        const bool on = sq < c->squares && bb128_has(c->on_board, sq);
        if (k->height[sq] > (on ? c->limit : 0))
            return err_set(err, STATUS_ILLEGAL, "square %d holds %d pieces", sq, k->height[sq]),
                   false;
        if (k->owners[sq] >> k->height[sq])
            return err_set(err, STATUS_ILLEGAL, "owner bits above the stack on square %d", sq),
                   false;
    }
    KgCore fresh;
    memcpy(&fresh, k, sizeof fresh);
    kg_rebuild_bitboards(c, &fresh);
    if (memcmp(&fresh.occ, &k->occ, sizeof k->occ) != 0 ||
        memcmp(&fresh.top, &k->top, sizeof k->top) != 0 ||
        memcmp(&fresh.full, &k->full, sizeof k->full) != 0)
        return err_set(err, STATUS_ILLEGAL, "bitboards differ from the stacks"), false;
    int buried = 0;
    for (int p = 0; p < 2; p++) {
        const int sq = k->king[p], lv = k->king_level[p];
        if (sq >= c->squares || lv >= k->height[sq] || kg_owner_at(k, sq, lv) != p)
            return err_set(err, STATUS_ILLEGAL, "king %d is not where the state says", p + 1),
                   false;
        buried += lv + 1 != k->height[sq];
    }
    if (k->king[0] == k->king[1] && buried == 0)
        return err_set(err, STATUS_ILLEGAL, "both kings on top of one stack"), false;
    if (buried > 1)
        return err_set(err, STATUS_ILLEGAL, "both kings are buried"), false;
    if (k->turn > 1 || k->pad != 0 || k->pad2[0] != 0 || k->pad2[1] != 0)
        return err_set(err, STATUS_ILLEGAL, "bad player to move or padding"), false;
    if (k->origin != KG_NO_SQ) {
        if (k->origin >= c->squares || k->height[k->origin] == 0 ||
            k->height[k->origin] + k->placed > c->limit)
            return err_set(err, STATUS_ILLEGAL, "the turn in progress has a bad start square"),
                   false;
        if (k->result != KG_PLAYING)
            return err_set(err, STATUS_ILLEGAL, "a turn in progress in a finished game"), false;
        if (k->placed == 0 && kg_owner_at(k, k->origin, k->height[k->origin] - 1) != k->turn)
            return err_set(err, STATUS_ILLEGAL, "picked up a stack the mover does not control"),
                   false;
    } else if (k->placed != 0) {
        return err_set(err, STATUS_ILLEGAL, "pieces placed outside a turn"), false;
    }
    if (k->hash != kg_compute_hash(c, k))
        return err_set(err, STATUS_ILLEGAL, "incremental hash differs from a fresh one"), false;
    // Between turns the history ends with the current position.
    if (!rep_history_is_ok(&k->hist, s->history, c->hist_cap, false, k->origin == KG_NO_SQ,
                           k->hash, err))
        return false;
    if (k->origin == KG_NO_SQ) {
        KgState *copy = (KgState *)game_state_clone(g, gs);
        if (copy == NULL)
            return err_set(err, STATUS_NOMEM, "out of memory"), false;
        kg_settle(c, copy);
        const bool same = copy->k.result == k->result && copy->k.reason == k->reason;
        free(copy);
        if (!same)
            return err_set(err, STATUS_ILLEGAL, "stored result differs from a fresh one"), false;
    } else if (buried) {
        return err_set(err, STATUS_ILLEGAL, "a king is buried but the turn goes on"), false;
    }
    return true;
}

static void ops_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    kg_render(kg_cfg(g), (const KgState *)s, flags, out);
}

static int ops_evaluate(const Game *g, const GameState *s)
{
    return kg_evaluate(kg_cfg(g), (const KgState *)s);
}

static int ops_nnue_features(const Game *g, const GameState *s, int perspective, uint16_t *out,
                             int cap)
{
    return kg_nnue_features(kg_cfg(g), &((const KgState *)s)->k, perspective, out, cap);
}

static void ops_nnue_snapshot(const Game *g, const GameState *s, void *out)
{
    (void)g;
    memcpy(out, &((const KgState *)s)->k, sizeof(KgCore));
}

static void ops_nnue_delta(const Game *g, const void *before, const void *after, int perspective,
                           uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    kg_nnue_delta(kg_cfg(g), before, after, perspective, add, n_add, sub, n_sub);
}

static void ops_playout(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS])
{
    kg_playout(kg_cfg(g), (KgState *)s, rng);
    ops_returns(g, s, out);
}

static bool ops_perft_leaves(const Game *g, GameState *s, int depth, uint64_t *count)
{
    return kg_perft_leaves(kg_cfg(g), (KgState *)s, depth, count);
}

/* A pick-up touches its square, a placement its start and destination squares, the end
 * of a turn none. */
static void ops_move_cells(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)s;
    const KgConfig *c = kg_cfg(g);
    if (kg_kind(m) == KG_PICK || kg_kind(m) == KG_PLACE)
        kg_format_square(c, kg_a(m), out);
    if (kg_kind(m) == KG_PLACE) {
        sb_putc(out, ' ');
        kg_format_square(c, kg_b(m), out);
    }
}

static void ops_observe(const Game *g, const GameState *s, int observer, Observation *out)
{
    kg_observe(kg_cfg(g), (const KgState *)s, observer, out);
}

/* The one action that is not a move on the board: ending a turn before the stack is
 * spent. */
static const ActionKind kg_action_kinds[] = {
    {"end", "End the turn", "leave the rest of the stack where it is"},
};

static int ops_action_kind(const Game *g, const GameState *s, Move m, StrBuf *label)
{
    (void)g;
    (void)s;
    (void)label;
    return kg_kind(m) == KG_END ? 0 : -1;
}

/* Root moves within this many centi-units count as equal: under two squares of reach
 * (kg_eval.c's mobility, 3 a square), far below a piece (100). */
#define KG_VARIETY_MARGIN 5

#define KG_OPS(NAME, TITLE, SUMMARY, OPTIONS, SCALE, FEATURE_SET, FEATURES)                    \
    {                                                                                          \
        .name = NAME, .summary = SUMMARY, .title = TITLE, .family = "kings-guard",             \
        .min_players = 2, .max_players = 2,                                                    \
        .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM, .options = OPTIONS,                        \
        .option_count = (int)(sizeof OPTIONS / sizeof OPTIONS[0]), .configure = kg_configure,  \
        .release = kg_release, GAME_OPS_COMMON_HOOKS,                                          \
        .parse_actions = ops_parse_actions, .evaluate = ops_evaluate,                          \
        .variety_margin = KG_VARIETY_MARGIN, .noisy = ops_noisy, .in_check = ops_in_check,     \
        .make_null = ops_make_null, .unmake_null = ops_unmake_null,                            \
        .evaluate_static = ops_evaluate, .quiesce_finish = ops_quiesce_finish,                 \
        .playout = ops_playout, .perft_leaves = ops_perft_leaves,                              \
        .end_reasons = kg_end_reasons,                                                         \
        .end_reason_count = (int)(sizeof kg_end_reasons / sizeof kg_end_reasons[0]),           \
        .measure = kg_measure, .metrics = kg_metrics, .metric_count = KG_METRIC_COUNT,         \
        .bench_depth = 10, .chance_scale = SCALE, .action_kind = ops_action_kind,              \
        .action_kinds = kg_action_kinds, .action_kind_count = 1,                               \
        .nnue_feature_set = FEATURE_SET, .nnue_feature_count = FEATURES,                       \
        .nnue_features = ops_nnue_features, .nnue_snapshot_size = sizeof(KgCore),              \
        .nnue_snapshot = ops_nnue_snapshot, .nnue_delta = ops_nnue_delta,                      \
    }

const GameOps kg_standard_ops =
    KG_OPS("kings-guard", "King's Guard",
           "King's Guard on 9x10: move stacks, bury the enemy king under any piece", kg_options,
           1356.0, "kg-piece-level-9x10-1", KG_NNUE_FEATURES_9X10);
const GameOps kg_8x8_ops =
    KG_OPS("kings-guard-8x8", "King's Guard 8x8", "King's Guard on a checkerboard: 8 guards a side, towers of 4",
           kg_8x8_options, 827.0, "kg-piece-level-8x8-1", KG_NNUE_FEATURES_8X8);
