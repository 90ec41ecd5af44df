/*
 * perft_pair.c - the fast game beside its reference generator (see perft_pair.h). Every
 * failure names the rules, the reference's position and the actions that led there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "perft_pair.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "rule_text.h"
#include "play/registry.h"
#include "core/strbuf.h"

enum {
    RULES_TEXT = 512,
    MESSAGE_CAP = 4 * PERFT_PAIR_LOG, /* two action lists and the log fit */
};

void perft_pair_describe(const PerftPair *p, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "%s", p->game);
    for (int i = 0; i < p->n_settings && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, " %s", p->settings[i]);
}

/* Fails the test with "[rules] at '<reference position>': <message>" and the log. The
 * buffer is not freed: the test ends here. */
static void fail_at(const PerftPair *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail_at(const PerftPair *p, const char *fmt, ...)
{
    char rules[RULES_TEXT];
    perft_pair_describe(p, rules, sizeof rules);
    char *position = malloc(PERFT_PAIR_POSITION_TEXT);
    char *message = malloc(MESSAGE_CAP);
    assert_true(position != NULL && message != NULL);
    p->reference->format_position(p->ref, position, PERFT_PAIR_POSITION_TEXT);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, MESSAGE_CAP, fmt, ap);
    va_end(ap);
    fail_msg("[%s] at '%s': %s\n  moves: %s", rules, position, message, p->log);
}

Game *perft_game_create(const char *game, const char *const *settings, int n_settings)
{
    const GameOps *ops = registry_find(game);
    Game *g = NULL;
    ErrBuf err;
    err_clear(&err);
    if (ops == NULL || rule_text_create(ops, 0, settings, n_settings, &g, &err) != STATUS_OK)
        fail_msg("%s: %s", game, ops == NULL ? "not a registered game" : err.msg);
    return g;
}

void perft_pair_open(PerftPair *p, const PerftReference *reference, const char *game,
                     const char *const *settings, int n_settings, const char *text,
                     uint64_t seed)
{
    if (n_settings > PERFT_PAIR_MAX_SETTINGS)
        fail_msg("%s: more than %d settings", game, PERFT_PAIR_MAX_SETTINGS);
    p->reference = reference;
    p->game = game;
    p->n_settings = n_settings;
    for (int i = 0; i < n_settings; i++)
        p->settings[i] = settings[i];
    p->g = perft_game_create(game, settings, n_settings);
    p->s = game_state_new(p->g);
    p->undo = game_undo_new(p->g);
    assert_true(p->s != NULL && p->undo != NULL);
    const GameOps *ops = p->g->ops;
    StrBuf setup;
    sb_init(&setup);
    if (text == NULL) {
        ops->new_game(p->g, p->s, seed);
        ops->format_position(p->g, p->s, &setup);
        text = sb_str(&setup);
        if (reference->start_text != NULL) {
            char want[PERFT_PAIR_POSITION_TEXT];
            reference->start_text(p, want, sizeof want);
            if (strcmp(text, want) != 0)
                fail_msg("%s: the set-up is '%s', not '%s'", game, text, want);
        }
    } else {
        ErrBuf err;
        err_clear(&err);
        if (ops->parse_position(p->g, p->s, text, &err) != STATUS_OK)
            fail_msg("%s: the game cannot read '%s': %s", game, text, err.msg);
    }
    char err[256];
    p->ref = reference->open(p, text, err, sizeof err);
    if (p->ref == NULL)
        fail_msg("%s: the reference cannot read '%s': %s", game, text, err);
    p->log_len = (size_t)snprintf(p->log, sizeof p->log, "%s :", text);
    sb_free(&setup);
}

void perft_pair_close(PerftPair *p)
{
    if (p->reference->close != NULL)
        p->reference->close(p->ref);
    else
        free(p->ref);
    free(p->undo);
    free(p->s);
    game_destroy(p->g);
    p->g = NULL;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(((const PairAction *)a)->text, ((const PairAction *)b)->text);
}

static void compare_status(const PerftPair *p)
{
    const Game *g = p->g;
    RefStatus want;
    memset(&want, 0, sizeof want);
    p->reference->status(p->ref, &want);
    const char *why = want.why != NULL ? want.why : "";
    const int tm = g->ops->to_move(g, p->s);
    const bool some_player = want.to_move == REF_SOME_PLAYER && tm >= 0;
    if (tm != want.to_move && !some_player)
        fail_at(p, "the game's player to act is %d, the reference's %d (%s)", tm, want.to_move,
                why);
    if (tm != PLAYER_NONE)
        return;
    double returns[MAX_PLAYERS] = {0};
    g->ops->returns(g, p->s, returns);
    for (int q = 0; want.has_returns && q < g->players; q++)
        if (returns[q] != want.returns[q])
            fail_at(p, "player %d's return is %g, the reference's %g (%s)", q + 1, returns[q],
                    want.returns[q], why);
    for (int q = 0; want.has_scores && q < g->players; q++) {
        const double score = g->ops->score(g, p->s, q);
        if (fabs(score - want.scores[q]) > 1e-9)
            fail_at(p, "player %d's score is %g, the reference's %g (%s)", q + 1, score,
                    want.scores[q], why);
    }
}

/* The game's actions, or its chance outcomes with their probabilities, in its order. */
static int list_game_actions(const PerftPair *p, PairAction *out)
{
    const Game *g = p->g;
    MoveList *moves = malloc(sizeof *moves);
    ChanceList *chance = malloc(sizeof *chance);
    assert_true(moves != NULL && chance != NULL);
    const bool at_chance = g->ops->to_move(g, p->s) == PLAYER_CHANCE;
    const int n = at_chance ? g->ops->chance_outcomes(g, p->s, chance)
                            : g->ops->gen_moves(g, p->s, moves);
    StrBuf sb;
    sb_init(&sb);
    for (int i = 0; i < n; i++) {
        out[i].move = at_chance ? chance->outcomes[i] : moves->moves[i];
        out[i].prob = at_chance ? chance->prob[i] : 0;
        sb_clear(&sb);
        g->ops->format_move(g, p->s, out[i].move, &sb);
        snprintf(out[i].text, sizeof out[i].text, "%s", sb_str(&sb));
    }
    sb_free(&sb);
    free(chance);
    free(moves);
    return n;
}

static char *join_texts(const PairAction *a, int n)
{
    char *out = malloc(PERFT_PAIR_LOG);
    assert_non_null(out);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < PERFT_PAIR_LOG; i++)
        len += (size_t)snprintf(out + len, PERFT_PAIR_LOG - len, "%s%s", i ? " " : "", a[i].text);
    return out;
}

/* The game's sorted actions against the reference's, chance probabilities included. */
static void compare_actions(const PerftPair *p, const PairAction *game, int n, PairAction *ref)
{
    const int nr = p->reference->actions(p->ref, ref);
    qsort(ref, (size_t)nr, sizeof ref[0], by_text);
    bool same = n == nr;
    for (int i = 0; same && i < n; i++)
        same = strcmp(game[i].text, ref[i].text) == 0;
    if (!same)
        fail_at(p, "the actions differ\n  game (%d): %s\n  ref  (%d): %s", n, join_texts(game, n),
                nr, join_texts(ref, nr));
    for (int i = 0; i < n; i++)
        if (fabs(game[i].prob - ref[i].prob) > 1e-12)
            fail_at(p, "chance outcome %s has probability %g, the reference's %g", game[i].text,
                    game[i].prob, ref[i].prob);
}

int perft_pair_compare(const PerftPair *p, PairActions *out, unsigned flags)
{
    const Game *g = p->g;
    char *ref_position = malloc(PERFT_PAIR_POSITION_TEXT);
    assert_non_null(ref_position);
    p->reference->format_position(p->ref, ref_position, PERFT_PAIR_POSITION_TEXT);
    StrBuf sb;
    sb_init(&sb);
    g->ops->format_position(g, p->s, &sb);
    if (strcmp(sb_str(&sb), ref_position) != 0)
        fail_at(p, "the game's position text is '%s'", sb_str(&sb));
    sb_free(&sb);
    free(ref_position);
    ErrBuf err;
    err_clear(&err);
    if (!g->ops->is_ok(g, p->s, &err))
        fail_at(p, "is_ok: %s", err.msg);
    compare_status(p);

    const int n = list_game_actions(p, out->at);
    out->count = n;
    PairAction *sorted = out->at;
    if (flags & PAIR_GAME_ORDER) {
        memcpy(out->game_sorted, out->at, sizeof out->at[0] * (size_t)n);
        sorted = out->game_sorted;
    }
    qsort(sorted, (size_t)n, sizeof sorted[0], by_text);
    if (!(flags & PAIR_SKIP_REFERENCE_ACTIONS))
        compare_actions(p, sorted, n, out->reference);
    return n;
}

void perft_pair_expect_parses_back(const PerftPair *p, const PairAction *a)
{
    Move back = MOVE_NONE;
    ErrBuf err;
    err_clear(&err);
    if (p->g->ops->parse_move(p->g, p->s, a->text, &back, &err) != STATUS_OK || back != a->move)
        fail_at(p, "'%s' does not read back as itself: %s", a->text, err.msg);
}

void perft_pair_play(PerftPair *p, const PairAction *a)
{
    if (!p->reference->play(p->ref, a->text))
        fail_at(p, "the reference has no action '%s'", a->text);
    p->g->ops->make(p->g, p->s, a->move, p->undo);
    const size_t room = sizeof p->log - p->log_len;
    if (strlen(a->text) + 3 < room)
        p->log_len += (size_t)snprintf(p->log + p->log_len, room, " %s;", a->text);
}

void perft_pair_compare_perft(const PerftPair *p, int depth)
{
    const uint64_t want = p->reference->perft(p->ref, depth);
    const uint64_t fast = game_perft(p->g, p->s, depth);
    const uint64_t generic = game_perft_generic(p->g, p->s, depth);
    if (fast != want || generic != want)
        fail_at(p, "perft %d: reference %llu, fast %llu, generic %llu", depth,
                (unsigned long long)want, (unsigned long long)fast, (unsigned long long)generic);
}

void perft_pair_expect_leaves(const PerftPair *p, const char *what, int depth, uint64_t leaves,
                              unsigned counters)
{
    static const char *const NAMES[] = {"fast", "generic", "reference"};
    for (int c = 0; c < 3; c++) {
        if (!(counters & (1u << c)))
            continue;
        const uint64_t got = c == 0   ? game_perft(p->g, p->s, depth)
                             : c == 1 ? game_perft_generic(p->g, p->s, depth)
                                      : p->reference->perft(p->ref, depth);
        if (got != leaves)
            fail_at(p, "%s: %s perft %d is %llu, not %llu", what, NAMES[c], depth,
                    (unsigned long long)got, (unsigned long long)leaves);
    }
}

typedef struct TableRun {
    const PerftTableCheck *check;
    long counts;
} TableRun;

static void check_table_line(const PerftLine *line, void *ctx)
{
    TableRun *run = ctx;
    const PerftTableCheck *check = run->check;
    if (check->game != NULL && strcmp(line->game, check->game) != 0)
        fail_msg("perft table line %d: the game is %s, not %s", line->line_no, check->game,
                 line->game);
    PerftPair *pair = malloc(sizeof *pair);
    assert_non_null(pair);
    perft_pair_open(pair, check->reference, line->game, line->settings, line->n_settings,
                    line->position, 0);
    const int ref_depth = check->reference_depth_for != NULL ? check->reference_depth_for(pair)
                                                             : check->reference_depth;
    for (int i = 0; i < line->n_counts; i++) {
        const PerftCount *c = &line->counts[i];
        if (c->kind == 'D') {
            char what[64];
            snprintf(what, sizeof what, "perft table line %d D%d", line->line_no, c->depth);
            perft_pair_expect_leaves(pair, what, c->depth, c->leaves,
                                     PERFT_FAST | PERFT_GENERIC |
                                         (c->depth <= ref_depth ? PERFT_REFERENCE : 0));
        } else if (check->check_count != NULL) {
            check->check_count(pair, line, c);
        } else {
            fail_msg("perft table line %d: unknown count %c%d", line->line_no, c->kind,
                     c->depth);
        }
        run->counts++;
    }
    perft_pair_close(pair);
    free(pair);
}

void perft_pair_check_table(const char *path, const PerftTableCheck *check)
{
    TableRun run = {check, 0};
    const int positions = perft_table_read(path, check_table_line, &run);
    if (positions < check->min_positions)
        fail_msg("%s: %d positions, fewer than the %d expected", path, positions,
                 check->min_positions);
    print_message("perft table: %d positions, %ld counts\n", positions, run.counts);
}

void ref_status_two_player(RefStatus *out, int to_move, bool over, int winner)
{
    out->to_move = over ? PLAYER_NONE : to_move;
    out->has_returns = over;
    out->returns[0] = winner == 0 ? 1 : winner == 1 ? -1 : 0;
    out->returns[1] = -out->returns[0];
}
