/*
 * kc_ops.c - King's Castle as a GameOps table: its rule options (every inferred choice
 * of docs/games/kings-castle.md plus the engine's draw rules), the configuration they
 * build, and thin adapters from the interface to kc_*.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "games/kingscastle/kc_internal.h"
#include "games/kingscastle/kingscastle.h"

enum { KC_DEFAULT_MAX_PLIES = 400 };

static const RuleOption kc_options[] = {
    {"swap", "Swap", "Black's first move may take over White's first man instead of placing", "on",
     "on|off", 0, 0, RULE_CHOICE, RULE_MAIN},
    {"single-range", "Single's range",
     "a single stops on any cell of its open line (any), or slides to the end of it (full)", "any",
     "any|full", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"single-throne", "Singles and the Throne",
     "a single inside the Castle may not cross the empty Throne (block), or may pass over it "
     "without stopping (cross)",
     "block", "block|cross", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"capture-limit", "Capture limit",
     "a phalanx may enter a line of opposing men only if that whole line is shorter than the "
     "phalanx (whole-line), or only if it enters fewer of its men than it has itself (entered)",
     "whole-line", "whole-line|entered", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"throne-entry", "Entering the Throne",
     "a man goes onto the Throne by itself after a move that leaves it flanked (auto), or "
     "only as a later move of its own (move)",
     "auto", "auto|move", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"throne-loss", "Losing the Throne",
     "the Throne man is removed when a man of a flanking pair is captured (capture), or when "
     "a flanking pair is broken by any means, throws included (broken)",
     "capture", "capture|broken", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"no-move", "No legal move",
     "a player with no legal move loses (loss), or the game is drawn (draw)", "loss", "loss|draw",
     0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"repetition", "Draw by repetition",
     "the third occurrence of a position with the same player to move draws", "draw", "draw|off", 0,
     0, RULE_CHOICE, RULE_ADVANCED},
    {"max-plies", "Turn limit", "the game is drawn once this many turns have been played", "400",
     NULL, 0, KC_MAX_PLIES_LIMIT, RULE_INTEGER, RULE_ADVANCED},
};

static Status kc_configure(Game *g, ErrBuf *err)
{
    KcConfig *c = calloc(1, sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    kc_build_geometry(c);
    c->swap = game_option_is(g, "swap", "on");
    c->single_full = game_option_is(g, "single-range", "full");
    c->single_cross = game_option_is(g, "single-throne", "cross");
    c->capture_entered = game_option_is(g, "capture-limit", "entered");
    c->throne_by_move = game_option_is(g, "throne-entry", "move");
    c->loss_if_broken = game_option_is(g, "throne-loss", "broken");
    c->no_move_draw = game_option_is(g, "no-move", "draw");
    c->repetition = game_option_is(g, "repetition", "draw");
    c->max_plies = (int)game_option_long(g, "max-plies", KC_DEFAULT_MAX_PLIES);
    kc_obs_schema(c);
    g->config = c;
    g->observation = &c->obs;
    c->hist_cap = c->max_plies + 1;
    g->state_size = sizeof(KcState) + rep_history_bytes(c->hist_cap, c->repetition);
    g->undo_size = sizeof(KcUndo);
    // Placements and the swap, then slides by (front cell, direction, k, distance).
    g->move_index_count = KC_GRID + 1 + KC_GRID * KC_DIRS * KC_MAX_LINE * KC_MAX_LINE;
    g->max_game_length = c->max_plies;
    return STATUS_OK;
}

static void kc_release(Game *g)
{
    free(g->config);
    g->config = NULL;
}

static void ops_new_game(const Game *g, GameState *gs, uint64_t seed)
{
    (void)seed;
    KcState *s = (KcState *)gs;
    memset(s, 0, g->state_size);
    s->hash = kc_compute_hash(kc_cfg(g), s);
    kc_start_history(kc_cfg(g), s);
    kc_settle(kc_cfg(g), s);
}

static Status ops_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    return kc_parse_position(kc_cfg(g), (KcState *)s, text, err);
}

static void ops_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    kc_format_position((const KcState *)s, out);
}

static Status ops_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                             ErrBuf *err)
{
    return kc_parse_move(kc_cfg(g), (const KcState *)s, text, out, err);
}

static void ops_format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    kc_format_move(kc_cfg(g), (const KcState *)s, m, out);
}

static int ops_to_move(const Game *g, const GameState *s)
{
    (void)g;
    const KcState *k = (const KcState *)s;
    return k->result == KC_PLAYING ? k->turn : PLAYER_NONE;
}

static int ops_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    out->count = kc_gen_moves(kc_cfg(g), (const KcState *)s, out->moves);
    return out->count;
}

static void ops_make(const Game *g, GameState *s, Move m, void *undo)
{
    kc_make(kc_cfg(g), (KcState *)s, m, (KcUndo *)undo);
}

static void ops_unmake(const Game *g, GameState *s, Move m, const void *undo)
{
    (void)g;
    kc_unmake((KcState *)s, m, (const KcUndo *)undo);
}

static void ops_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    (void)g;
    const KcState *k = (const KcState *)s;
    const int winner = k->result == KC_WHITE_WINS ? 0 : k->result == KC_BLACK_WINS ? 1 : -1;
    game_returns_two_player(winner, out);
}

static void ops_describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    const KcState *k = (const KcState *)s;
    static const char *const reasons[] = {
        [KC_REASON_NONE] = "",
        [KC_REASON_THRONE] = "found his own man on the Throne at the start of his turn",
        [KC_REASON_NO_MOVE] = "the player to move has no legal move",
        [KC_REASON_REPETITION] = "the same position occurred a third time",
        [KC_REASON_PLY_LIMIT] = "the turn limit (max-plies) was reached",
    };
    if (k->reason == KC_REASON_THRONE)
        sb_printf(out, "%s %s", k->turn ? "Black" : "White", reasons[k->reason]);
    else
        sb_puts(out, reasons[k->reason]);
}

/* Indexed by KcReason less one. */
static const char *const kc_end_reasons[] = {"throne", "no-move", "repetition", "ply-limit"};

static int ops_end_reason(const Game *g, const GameState *s)
{
    (void)g;
    return (int)((const KcState *)s)->reason - 1;
}

static uint64_t ops_hash(const Game *g, const GameState *s)
{
    (void)g;
    return ((const KcState *)s)->hash;
}

static int ops_move_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    switch (kc_kind(m)) {
    case KC_PLACE:
        return kc_cell(m);
    case KC_SWAP:
        return KC_GRID;
    default:
        return KC_GRID + 1 +
               ((kc_cell(m) * KC_DIRS + kc_dir(m)) * KC_MAX_LINE + kc_k(m) - 1) * KC_MAX_LINE +
               kc_m(m) - 1;
    }
}

static bool ops_is_ok(const Game *g, const GameState *gs, ErrBuf *err)
{
    const KcConfig *c = kc_cfg(g);
    const KcState *s = (const KcState *)gs;
    const Bb128 w = kc_men(s, 0), b = kc_men(s, 1);
    if (w & b)
        return err_set(err, STATUS_ILLEGAL, "a cell holds men of both players"), false;
    if ((w | b) & ~c->board)
        return err_set(err, STATUS_ILLEGAL, "a man stands off the board"), false;
    if (s->turn > 1)
        return err_set(err, STATUS_ILLEGAL, "bad player to move"), false;
    if (s->hash != kc_compute_hash(c, s))
        return err_set(err, STATUS_ILLEGAL, "incremental hash differs from a fresh one"), false;
    if (!rep_history_is_ok(&s->hist, s->history, c->hist_cap, c->repetition, true, s->hash,
                           err))
        return false;
    KcState *fresh = (KcState *)game_state_clone(g, gs);
    if (fresh == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory"), false;
    kc_settle(c, fresh);
    const bool ok = fresh->result == s->result && fresh->reason == s->reason;
    free(fresh);
    if (!ok)
        return err_set(err, STATUS_ILLEGAL, "stored result differs from a fresh one"), false;
    return true;
}

static void ops_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    kc_render(kc_cfg(g), (const KcState *)s, flags, out);
}

static int ops_evaluate(const Game *g, const GameState *s)
{
    return kc_evaluate(kc_cfg(g), (const KcState *)s);
}

static int ops_nnue_features(const Game *g, const GameState *s, int perspective, uint16_t *out,
                             int cap)
{
    (void)g;
    return kc_nnue_features((const KcState *)s, perspective, out, cap);
}

static void ops_nnue_snapshot(const Game *g, const GameState *s, void *out)
{
    (void)g;
    kc_nnue_snapshot((const KcState *)s, out);
}

static void ops_nnue_delta(const Game *g, const void *before, const void *after, int perspective,
                           uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    (void)g;
    kc_nnue_delta(before, after, perspective, add, n_add, sub, n_sub);
}

static int ops_noisy(const Game *g, const GameState *s, Move m)
{
    return kc_noisy(kc_cfg(g), (const KcState *)s, m);
}

static void ops_playout(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS])
{
    kc_playout(kc_cfg(g), (KcState *)s, rng);
    ops_returns(g, s, out);
}

static bool ops_perft_leaves(const Game *g, GameState *s, int depth, uint64_t *count)
{
    if (depth != 1)
        return false;
    *count = (uint64_t)kc_count_moves(kc_cfg(g), (const KcState *)s);
    return true;
}

/* A placement touches its cell; a single its start and end cells; a phalanx its men from
 * the rear (named first in the move text) to the front, then where the front stops. The
 * swap touches none. */
static void ops_observe(const Game *g, const GameState *s, int observer, Observation *out)
{
    kc_observe(kc_cfg(g), (const KcState *)s, observer, out);
}

static void ops_move_cells(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)s;
    const KcConfig *c = kc_cfg(g);
    if (kc_kind(m) == KC_PLACE) {
        kc_format_cell(kc_cell(m), out);
        return;
    }
    if (kc_kind(m) != KC_SLIDE)
        return;
    const int d = kc_dir(m), k = kc_k(m);
    int men[16];
    men[0] = kc_cell(m);
    for (int i = 1; i < k && i < 16; i++)
        if ((men[i] = c->raw_step[(d + 3) % KC_DIRS][men[i - 1]]) < 0)
            return; // not a move of this board: nothing sensible to show
    int to = kc_cell(m);
    for (int i = 0; i < kc_m(m) && to >= 0; i++)
        to = c->raw_step[d][to];
    if (to < 0 || k < 1 || k > 16)
        return;
    for (int i = k - 1; i >= 0; i--) {
        kc_format_cell(men[i], out);
        sb_putc(out, ' ');
    }
    kc_format_cell(to, out);
}

/* The one action that is not a move on the board: Black taking over White's first man. */
static const ActionKind kc_action_kinds[] = {
    {"swap", "Swap", "take White's first man as your own; White then plays again"},
};

static int ops_action_kind(const Game *g, const GameState *s, Move m, StrBuf *label)
{
    (void)g;
    (void)s;
    (void)label;
    return kc_kind(m) == KC_SWAP ? 0 : -1;
}

const GameOps kc_ops = {
    .name = "kings-castle",
    .title = "King's Castle",
    .family = "kings-castle",
    .action_kind = ops_action_kind,
    .action_kinds = kc_action_kinds,
    .action_kind_count = 1,
    .bench_depth = 5,
    .chance_scale = 195.0,
    .summary = "King's Castle (Freeling): place men, move phalanxes through the doors of the "
               "Castle and flank its Throne",
    .min_players = 2,
    .max_players = 2,
    .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM,
    .options = kc_options,
    .option_count = (int)(sizeof kc_options / sizeof kc_options[0]),
    .configure = kc_configure,
    .release = kc_release,
    GAME_OPS_COMMON_HOOKS,
    .evaluate = ops_evaluate,
    /* No variety: against the same agent without it, at equal depth, a margin of 8
     * centi-units (below the tempo, 10, and a phalanx link, 12) scored 20% in 40 games
     * at depth 3, and even exact ties (the root order shuffled, then a draw among equal
     * values) 39% in 100 games at depths 3 and 4: among moves the evaluation cannot
     * tell apart, the one the move ordering tries first is the better one here. */
    .variety_margin = -1,
    /* Quiescence (kc_search.c): the evaluation resolves no captures of its own, so it is
     * its own static part. No in_check: the opponent on the Throne, the one threat to
     * answer at once, is in the evaluation, and the unseating captures are noisy; as
     * check (every move searched there, one action deeper) it scored 41.7% in 300 games
     * against the same search without (docs/STRENGTH.md, "Quiescence"). */
    .noisy = ops_noisy,
    .evaluate_static = ops_evaluate,
    .playout = ops_playout,
    .perft_leaves = ops_perft_leaves,
    .end_reasons = kc_end_reasons,
    .end_reason_count = (int)(sizeof kc_end_reasons / sizeof kc_end_reasons[0]),
    .measure = kc_measure,
    .metrics = kc_metrics,
    .metric_count = KC_METRIC_COUNT,
    .nnue_feature_set = "kc-man-cell-1",
    .nnue_feature_count = KC_NNUE_FEATURES,
    .nnue_features = ops_nnue_features,
    .nnue_snapshot_size = sizeof(KcNnueSnapshot),
    .nnue_snapshot = ops_nnue_snapshot,
    .nnue_delta = ops_nnue_delta,
};
