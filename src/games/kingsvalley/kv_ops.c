/*
 * kv_ops.c - the four King's Valley games as GameOps tables: their rule options, the
 * geometry each configuration builds, and thin adapters from the interface to kv_*.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "games/kingsvalley/kingsvalley.h"
#include "games/kingsvalley/kv_internal.h"

typedef enum KvVariant { KV_STANDARD, KV_RETRIEVE, KV_7X7, KV_LABYRINTH } KvVariant;

#define KV_COMMON_OPTIONS                                                                      \
    {"first-move-soldier", "Soldier moves first",                                              \
     "the first move of the game must be made by a soldier", "on", "on|off", 0, 0,             \
     RULE_CHOICE, RULE_ADVANCED},                                                              \
        {"locked-king-loses", "Locked king loses",                                             \
         "a player whose king cannot move at the start of his turn loses", "on", "on|off", 0,  \
         0, RULE_CHOICE, RULE_ADVANCED},                                                       \
        {"max-plies", "Turn limit", "the game is drawn once this many turns have been played", \
         "300", NULL, 0, KV_MAX_PLIES_LIMIT, RULE_INTEGER, RULE_ADVANCED},                     \
        {"repetition", "Draw by repetition",                                                   \
         "the third occurrence of a position with the same player to move is a draw", "on",    \
         "on|off", 0, 0, RULE_CHOICE, RULE_ADVANCED},                                          \
        {"no-move", "No legal move", "a player with no legal move loses, or the game is drawn",\
         "loss", "loss|draw", 0, 0, RULE_CHOICE, RULE_ADVANCED}

static const RuleOption kv_options[] = {KV_COMMON_OPTIONS};
static const RuleOption kv_7x7_options[] = {
    KV_COMMON_OPTIONS,
    {"trap", "Trapping a king",
     "no move may shut a king off from the Valley: both kings, the opponent's, or off", "both",
     "both|opponent|off", 0, 0, RULE_CHOICE, RULE_ADVANCED},
};

/* The memo of the lazy trap test: recent plans and a table of reach results, which
 * iterative deepening and transpositions meet again and again. */
enum { KV_SEARCH_MEMO = 1 << 17 };
typedef struct KvSearchMemo {
    KvReachCache cache;
    KvReachEntry table[KV_SEARCH_MEMO];
} KvSearchMemo;

static KvVariant variant_of(const GameOps *ops)
{
    if (ops == &kv_retrieve_ops)
        return KV_RETRIEVE;
    if (ops == &kv_7x7_ops)
        return KV_7X7;
    if (ops == &kv_labyrinth_ops)
        return KV_LABYRINTH;
    return KV_STANDARD;
}

static void build_geometry(KvConfig *c)
{
    const int n = c->size;
    const int df[KV_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};
    const int dr[KV_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};
    c->cells = n * n;
    c->valley = (n / 2) * n + n / 2;
    c->on_board = c->cells == 64 ? ~0ULL : (1ULL << c->cells) - 1;
    for (int d = 0; d < KV_DIRS; d++) {
        c->delta[d] = dr[d] * n + df[d];
        c->step_from[d] = 0;
        for (int sq = 0; sq < c->cells; sq++) {
            int f = sq % n + df[d], r = sq / n + dr[d];
            int last = sq;
            c->ray[d][sq] = 0;
            if (f >= 0 && f < n && r >= 0 && r < n)
                c->step_from[d] |= 1ULL << sq;
            while (f >= 0 && f < n && r >= 0 && r < n) {
                last = r * n + f;
                c->ray[d][sq] |= 1ULL << last;
                f += df[d];
                r += dr[d];
            }
            c->ray_end[d][sq] = (int8_t)last;
        }
    }
    for (int sq = 0; sq < c->cells; sq++) {
        c->neighbours[sq] = 0;
        for (int d = 0; d < KV_DIRS; d++)
            if (c->step_from[d] & (1ULL << sq))
                c->neighbours[sq] |= 1ULL << (sq + c->delta[d]);
    }
    c->valley_inside = bits_count(c->neighbours[c->valley]) == KV_DIRS;
    for (int sq = 0; sq < c->cells; sq++) {
        c->toward_valley[sq] = -1;
        c->between_valley[sq] = 0;
        for (int d = 0; d < KV_DIRS; d++) {
            if (c->ray[d][sq] & (1ULL << c->valley)) {
                c->toward_valley[sq] = (int8_t)d;
                c->between_valley[sq] = c->ray[d][sq] & ~c->ray[d][c->valley] &
                                        ~(1ULL << c->valley);
            }
        }
    }
    // Hash keys come from a fixed seed so that hashes are the same in every run.
    uint64_t seed = 0x6B696E67732D7661ULL + (uint64_t)n;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 2; k++)
            for (int sq = 0; sq < KV_MAX_CELLS; sq++)
                c->zobrist[p][k][sq] = rng_mix(&seed);
    c->zobrist_second_to_move = rng_mix(&seed);
}

static Status kv_configure(Game *g, ErrBuf *err)
{
    KvConfig *c = calloc(1, sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    const KvVariant v = variant_of(g->ops);
    c->size = (v == KV_7X7 || v == KV_LABYRINTH) ? 7 : 5;
    build_geometry(c);
    c->first_move_soldier = game_option_is(g, "first-move-soldier", "on");
    c->locked_king_loses = game_option_is(g, "locked-king-loses", "on");
    c->max_plies = (int)game_option_long(g, "max-plies", 300);
    c->repetition = game_option_is(g, "repetition", "on");
    c->no_move_draws = game_option_is(g, "no-move", "draw");
    c->trap = KV_TRAP_OFF;
    if (v == KV_7X7) {
        const char *t = game_option(g, "trap");
        c->trap = strcmp(t, "both") == 0 ? KV_TRAP_BOTH
                  : strcmp(t, "opponent") == 0 ? KV_TRAP_OPPONENT
                                               : KV_TRAP_OFF;
    }
    const char *start = "sskss/5/5/5/SSKSS 1 0";
    if (v == KV_RETRIEVE)
        start = "ssKss/5/5/5/SSkSS 1 0";
    else if (v == KV_7X7)
        start = "sssksss/7/7/7/7/7/SSSKSSS 1 0";
    else if (v == KV_LABYRINTH) {
        start = "sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS 1 0";
        const int pillars[4] = {2 * 7 + 1, 2 * 7 + 5, 4 * 7 + 1, 4 * 7 + 5};
        for (int i = 0; i < 4; i++)
            c->pillars |= 1ULL << pillars[i];
    }
    snprintf(c->start, sizeof c->start, "%s", start);
    kv_obs_schema(c);
    g->config = c;
    g->observation = &c->obs;
    c->hist_cap = c->max_plies + 1;
    // With the repetition rule, every make asks whether its position is a third
    // occurrence: the history's filter answers most without a scan of the whole game
    // (a long line of the prover or a search made that scan a sixth of its time).
    g->state_size = sizeof(KvState) + rep_history_bytes(c->hist_cap, c->repetition);
    g->undo_size = sizeof(KvUndo);
    g->move_index_count = c->cells * c->cells;
    g->max_game_length = c->max_plies;
    g->legal_memo_size = c->trap != KV_TRAP_OFF ? sizeof(KvSearchMemo) : 0;
    return STATUS_OK;
}

static void kv_release(Game *g)
{
    free(g->config);
    g->config = NULL;
}

static void ops_new_game(const Game *g, GameState *s, uint64_t seed)
{
    (void)seed;
    const KvConfig *c = kv_cfg(g);
    ErrBuf err;
    memset(s, 0, g->state_size);
    Status st = kv_parse_position(c, (KvState *)s, c->start, &err);
    (void)st; // the start texts are constants checked by the tests
}

static Status ops_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    return kv_parse_position(kv_cfg(g), (KvState *)s, text, err);
}

static void ops_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    kv_format_position(kv_cfg(g), (const KvState *)s, out);
}

static Status ops_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                             ErrBuf *err)
{
    return kv_parse_move_text(kv_cfg(g), (const KvState *)s, text, out, err);
}

static void ops_format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)s;
    kv_format_square(kv_cfg(g), kv_from(m), out);
    sb_putc(out, '-');
    kv_format_square(kv_cfg(g), kv_to(m), out);
}

static int ops_to_move(const Game *g, const GameState *s)
{
    (void)g;
    const KvState *k = (const KvState *)s;
    return k->result == KV_PLAYING ? k->turn : PLAYER_NONE;
}

static int ops_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    out->count = kv_gen_legal(kv_cfg(g), (const KvState *)s, out->moves);
    return out->count;
}

static int ops_gen_candidates(const Game *g, const GameState *s, MoveList *out)
{
    const KvState *k = (const KvState *)s;
    out->count = k->result == KV_PLAYING ? kv_gen_pseudo(kv_cfg(g), k, out->moves) : 0;
    return out->count;
}

static bool ops_candidate_legal(const Game *g, const GameState *s, Move m, void *memo)
{
    const KvConfig *c = kv_cfg(g);
    if (c->trap == KV_TRAP_OFF)
        return true;
    KvSearchMemo *sm = memo;
    // The memo starts zeroed and may have been copied: its table pointer is set here.
    sm->cache.table = sm->table;
    sm->cache.mask = KV_SEARCH_MEMO - 1;
    return kv_trap_allows(c, (const KvState *)s, m, &sm->cache);
}

static void ops_make(const Game *g, GameState *s, Move m, void *undo)
{
    kv_make(kv_cfg(g), (KvState *)s, m, (KvUndo *)undo);
}

static void ops_unmake(const Game *g, GameState *s, Move m, const void *undo)
{
    (void)g;
    kv_unmake((KvState *)s, m, (const KvUndo *)undo);
}

static void ops_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    (void)g;
    const KvState *k = (const KvState *)s;
    const int winner = k->result == KV_WIN_FIRST ? 0 : k->result == KV_WIN_SECOND ? 1 : -1;
    game_returns_two_player(winner, out);
}

static void ops_describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    const KvState *k = (const KvState *)s;
    static const char *const reasons[] = {
        [KV_REASON_NONE] = "",
        [KV_REASON_VALLEY] = "a king reached the Valley",
        [KV_REASON_LOCKED] = "the king of the player to move is locked in",
        [KV_REASON_NO_MOVE] = "the player to move has no legal move",
        [KV_REASON_REPETITION] = "the same position occurred a third time",
        [KV_REASON_PLY_LIMIT] = "the turn limit (max-plies) was reached",
    };
    sb_puts(out, reasons[k->reason]);
}

/* Indexed by KvReason less one. */
static const char *const kv_end_reasons[] = {"valley", "locked", "no-move", "repetition",
                                              "ply-limit"};

static int ops_end_reason(const Game *g, const GameState *s)
{
    (void)g;
    return (int)((const KvState *)s)->reason - 1;
}

static uint64_t ops_hash(const Game *g, const GameState *s)
{
    (void)g;
    return ((const KvState *)s)->hash;
}

static int ops_move_index(const Game *g, const GameState *s, Move m)
{
    (void)s;
    return kv_from(m) * kv_cfg(g)->cells + kv_to(m);
}

static bool ops_is_ok(const Game *g, const GameState *gs, ErrBuf *err)
{
    const KvConfig *c = kv_cfg(g);
    const KvState *s = (const KvState *)gs;
    if (s->men[0] & s->men[1])
        return err_set(err, STATUS_ILLEGAL, "a square holds men of both players"), false;
    if ((s->men[0] | s->men[1]) & (c->pillars | ~c->on_board))
        return err_set(err, STATUS_ILLEGAL, "a man stands on a pillar or off the board"), false;
    for (int p = 0; p < 2; p++)
        if (!(s->men[p] & (1ULL << s->king[p])))
            return err_set(err, STATUS_ILLEGAL, "king %d is not among his men", p + 1), false;
    if (s->turn > 1)
        return err_set(err, STATUS_ILLEGAL, "bad player to move"), false;
    if (s->hash != kv_compute_hash(c, s))
        return err_set(err, STATUS_ILLEGAL, "incremental hash differs from a fresh one"), false;
    if (!rep_history_is_ok(&s->hist, s->history, c->hist_cap, c->repetition, true, s->hash,
                           err))
        return false;
    KvState *fresh = (KvState *)game_state_clone(g, gs);
    if (fresh == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory"), false;
    kv_settle_result(c, fresh);
    const bool same = fresh->result == s->result && fresh->reason == s->reason;
    free(fresh);
    if (!same)
        return err_set(err, STATUS_ILLEGAL, "stored result differs from a fresh one"), false;
    return true;
}

static void ops_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    kv_render(kv_cfg(g), (const KvState *)s, flags, out);
}

static int ops_evaluate(const Game *g, const GameState *s)
{
    return kv_evaluate(kv_cfg(g), (const KvState *)s);
}

/* A king's slide onto the Valley, the game's goal, is its one noisy action: quiescence
 * plays it out past the horizon, so a search that ends a move short of it still sees it. */
static int ops_noisy(const Game *g, const GameState *gs, Move m)
{
    const KvState *s = (const KvState *)gs;
    return kv_from(m) == s->king[s->turn] && kv_to(m) == kv_cfg(g)->valley;
}

/* The player to move is in check when the opponent's king could slide onto the Valley:
 * he must stop it (or win first), so the search looks one move deeper. */
static bool ops_in_check(const Game *g, const GameState *gs)
{
    const KvConfig *c = kv_cfg(g);
    const KvState *s = (const KvState *)gs;
    return kv_king_slides_to_valley(c, s->king[1 - s->turn], kv_occupied(c, s));
}

static void ops_playout(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS])
{
    kv_playout(kv_cfg(g), (KvState *)s, rng);
    ops_returns(g, s, out);
}

static bool ops_perft_leaves(const Game *g, GameState *s, int depth, uint64_t *count)
{
    return kv_perft_leaves(kv_cfg(g), (KvState *)s, depth, count);
}

/* The man's square, then where it stops: the two squares of the move text. */
static void ops_move_cells(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)s;
    kv_format_square(kv_cfg(g), kv_from(m), out);
    sb_putc(out, ' ');
    kv_format_square(kv_cfg(g), kv_to(m), out);
}

static void ops_observe(const Game *g, const GameState *s, int observer, Observation *out)
{
    kv_observe(kv_cfg(g), (const KvState *)s, observer, out);
}

static int ops_nnue_features(const Game *g, const GameState *s, int perspective, uint16_t *out,
                             int cap)
{
    return kv_nnue_features(kv_cfg(g), (const KvState *)s, perspective, out, cap);
}

static void ops_nnue_snapshot(const Game *g, const GameState *s, void *out)
{
    (void)g;
    kv_nnue_snapshot((const KvState *)s, out);
}

static void ops_nnue_delta(const Game *g, const void *before, const void *after, int perspective,
                           uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    kv_nnue_delta(kv_cfg(g), before, after, perspective, add, n_add, sub, n_sub);
}

/* Root moves within this many centi-units count as equal: less than one free square
 * next to a king (kv_eval.c's smallest term, 6), so the agents' choice among them gives
 * up nothing the evaluation can see. */
#define KV_VARIETY_MARGIN 5

#define KV_OPS(NAME, TITLE, FLAGS, SUMMARY, OPTIONS, CANDIDATES, CANDIDATE_LEGAL, DEPTH, SCALE, \
               ...)                                                                            \
    {                                                                                          \
        .name = NAME, .summary = SUMMARY, .title = TITLE, .family = "kings-valley",            \
        .min_players = 2, .max_players = 2, .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM | FLAGS, \
        .options = OPTIONS,                                                                    \
        .option_count = (int)(sizeof OPTIONS / sizeof OPTIONS[0]), .configure = kv_configure,  \
        .release = kv_release, GAME_OPS_COMMON_HOOKS,                                          \
        .evaluate = ops_evaluate, .noisy = ops_noisy, .evaluate_static = ops_evaluate,         \
        .in_check = ops_in_check,                                                              \
        .variety_margin = KV_VARIETY_MARGIN, .playout = ops_playout,                           \
        .perft_leaves = ops_perft_leaves,                                                      \
        .gen_candidates = CANDIDATES, .candidate_legal = CANDIDATE_LEGAL,                      \
        .end_reasons = kv_end_reasons,                                                         \
        .end_reason_count = (int)(sizeof kv_end_reasons / sizeof kv_end_reasons[0]),           \
        .measure = kv_measure, .metrics = kv_metrics, .metric_count = KV_METRIC_COUNT,         \
        .bench_depth = DEPTH, .chance_scale = SCALE, __VA_ARGS__                               \
    }

/* The 7x7 games' network inputs (kv_features.c). */
#define KV_NNUE_HOOKS(SET)                                                                     \
    .nnue_feature_set = SET, .nnue_feature_count = KV_NNUE_FEATURES(KV_MAX_CELLS),             \
    .nnue_features = ops_nnue_features, .nnue_snapshot_size = sizeof(KvNnueSnapshot),         \
    .nnue_snapshot = ops_nnue_snapshot, .nnue_delta = ops_nnue_delta

const GameOps kv_standard_ops =
    KV_OPS("kings-valley", "King's Valley", GAME_TABLE_SOLVED, "King's Valley on 5x5: slide your king onto the centre square",
           kv_options, NULL, NULL, 11, 56.0, .nnue_features = NULL);
const GameOps kv_retrieve_ops =
    KV_OPS("retrieve-the-king", "Retrieve the King", GAME_TABLE_SOLVED,
           "King's Valley with each king starting on the opponent's side",
           kv_options, NULL, NULL, 9, 61.0, .nnue_features = NULL);
const GameOps kv_7x7_ops =
    KV_OPS("kings-valley-7x7", "King's Valley 7x7", 0,
           "King's Valley on 7x7 with six soldiers and the trap-prevention rule", kv_7x7_options,
           ops_gen_candidates, ops_candidate_legal, 5, 42.0, KV_NNUE_HOOKS("kv-7x7-man-square-1"));
const GameOps kv_labyrinth_ops = KV_OPS(
    "kings-valley-labyrinth", "King's Valley: Labyrinth", 0, "King's Valley on 7x7 with four immovable pillars", kv_options,
    NULL, NULL, 8, 32.0, KV_NNUE_HOOKS("kv-labyrinth-man-square-1"));
