/*
 * puzzle.c - a puzzle's line as a judge sees it (puzzle.h), its themes in the project's
 * own words, its rating, and the check of a written puzzle against a judge. Nothing
 * here knows where "the only move" comes from: a table and a search answer alike.
 */
#include "play/puzzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/strbuf.h"

/* What the line did, for the themes and the rating. */
typedef struct LineFacts {
    int solver_moves;
    int alternatives; /* beside the first move */
    bool noisy;       /* a move of the solver's takes something */
    bool shot;        /* ... or shoots ('*' in its text) */
    bool check;       /* ... or leaves the opponent in check */
    bool squeeze;     /* an opponent's reply was chosen among moves a rule had cut */
    bool first_ends;  /* the first move ends the game */
    int end_reason;   /* why the game ended on the line, or -1 */
} LineFacts;

/* The words for an end of the game, by the game's end-reason key, per family of games:
 * the themes a player would look for. Keys the table lacks give no theme. */
typedef struct EndTheme {
    const char *prefix; /* the game's name starts so */
    const char *reason;
    const char *theme;
} EndTheme;

static const EndTheme END_THEMES[] = {
    {"kings-valley", "valley", "king-to-the-valley"},
    {"kings-valley", "locked", "blocked-king"},
    {"kings-valley", "no-move", "no-move-left"},
    {"retrieve-the-king", "valley", "king-to-the-valley"},
    {"retrieve-the-king", "locked", "blocked-king"},
    {"retrieve-the-king", "no-move", "no-move-left"},
    {"kings-guard", "capture", "king-buried"},
    {"kings-guard", "no-move", "no-turn-left"},
    {"kings-castle", "throne", "throne-held"},
    {"kings-castle", "no-move", "no-move-left"},
    {"king-down", "checkmate", "checkmate"},
    {"king-down", "literal-mate", "king-taken"},
};

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void add_theme(Puzzle *p, const char *t)
{
    if (p->n_themes < PUZZLE_MAX_THEMES)
        p->themes[p->n_themes++] = t;
}

static void set_themes(const Game *g, const LineFacts *f, Puzzle *p)
{
    const char *name = g->ops->name;
    p->n_themes = 0;
    add_theme(p, f->solver_moves == 1 ? "one-move" : f->solver_moves == 2 ? "two-moves" : "long");
    if (f->end_reason >= 0 && f->end_reason < g->ops->end_reason_count) {
        const char *key = g->ops->end_reasons[f->end_reason];
        for (size_t i = 0; i < sizeof END_THEMES / sizeof END_THEMES[0]; i++)
            if (starts_with(name, END_THEMES[i].prefix) && strcmp(key, END_THEMES[i].reason) == 0)
                add_theme(p, END_THEMES[i].theme);
    } else {
        add_theme(p, "advantage"); // the line stops with the win still to be taken
    }
    // Only King Down writes a shot with '*' (an archer's, or Death Touch).
    if (f->shot && starts_with(name, "king-down"))
        add_theme(p, "archers-shot");
    if (f->noisy)
        add_theme(p, starts_with(name, "kings-guard") ? "stack-taken" : "capture");
    if (f->check)
        add_theme(p, "check");
    if (f->squeeze)
        add_theme(p, "trap-squeeze");
    if (!f->first_ends && !f->noisy && f->solver_moves > 1)
        add_theme(p, "quiet-move");
}

/* The rating: a puzzle of one move among few is easy, one of several only moves among
 * many is hard, and a first move that takes nothing and ends nothing is harder to see.
 * A rough start that players' results then move (docs/PUZZLES.md). */
static int rate(const LineFacts *f, bool proven)
{
    const int alts = f->alternatives < 20 ? f->alternatives : 20;
    int r = 800 + 250 * (f->solver_moves - 1) + 15 * alts;
    if (!f->first_ends && !f->noisy)
        r += 150;
    if (!proven)
        r += 100; // the search's puzzles come from mid-games, with more on the board
    return r < 400 ? 400 : r > 2800 ? 2800 : r;
}

/* Whether the player to move in s has fewer legal moves than candidates: a rule beyond
 * the pieces' moves (the 7x7 trap rule) cut some. */
static bool rule_cut(const Game *g, const GameState *s)
{
    if (g->ops->gen_candidates == NULL)
        return false;
    MoveList *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    bool cut = false;
    if (a && b)
        cut = g->ops->gen_candidates(g, s, a) > g->ops->gen_moves(g, s, b);
    free(a);
    free(b);
    return cut;
}

static bool copy_text(char *dst, size_t cap, const char *src)
{
    const size_t n = strlen(src);
    if (n >= cap)
        return false;
    memcpy(dst, src, n + 1);
    return true;
}

bool puzzle_from_position(const PuzzleJudge *j, const Game *g, const GameState *start,
                          int min_plies, int max_plies, Puzzle *out)
{
    if (max_plies > PUZZLE_MAX_PLIES)
        max_plies = PUZZLE_MAX_PLIES;
    if (game_is_over(g, start) || g->ops->to_move(g, start) < 0 || max_plies < 1)
        return false;
    GameState *s = game_state_clone(g, start);
    void *undo = game_undo_new(g);
    StrBuf t;
    sb_init(&t);
    bool ok = s != NULL && undo != NULL;
    const int solver = ok ? g->ops->to_move(g, s) : 0;
    LineFacts f = {.end_reason = -1};
    int kept = 0; // plies up to and with the last move of the solver's
    LineFacts kept_facts = f;
    if (ok) {
        g->ops->format_position(g, s, &t);
        ok = copy_text(out->position, sizeof out->position, sb_str(&t));
    }
    out->plies = 0;
    while (ok && out->plies < max_plies && !game_is_over(g, s)) {
        const int mover = g->ops->to_move(g, s);
        Move m;
        if (mover == solver) {
            PuzzleVerdict v;
            if (!j->only(j->ctx, g, s, &v))
                break;
            m = v.only;
            if (f.solver_moves == 0) {
                f.alternatives = v.alternatives;
                copy_text(out->value, sizeof out->value, v.value);
            }
            f.solver_moves++;
            f.noisy |= g->ops->noisy != NULL && g->ops->noisy(g, s, m) > 0;
        } else if (mover >= 0) {
            ErrBuf err;
            if (j->reply(j->ctx, g, s, &m, &err) != STATUS_OK)
                break;
            f.squeeze |= rule_cut(g, s);
        } else {
            break; // chance: no puzzle goes through a draw
        }
        sb_clear(&t);
        g->ops->format_move(g, s, m, &t);
        if (!copy_text(out->solution[out->plies], PUZZLE_MOVE_CAP, sb_str(&t)))
            break;
        f.shot |= mover == solver && strchr(sb_str(&t), '*') != NULL;
        g->ops->make(g, s, m, undo);
        out->plies++;
        if (mover == solver) {
            f.check |= g->ops->in_check != NULL && !game_is_over(g, s) && g->ops->in_check(g, s);
            if (f.solver_moves == 1)
                f.first_ends = game_is_over(g, s);
            if (game_is_over(g, s) && g->ops->end_reason != NULL)
                f.end_reason = g->ops->end_reason(g, s);
            // A turn of several actions (King's Guard) is the solver's move only whole.
            if (game_is_over(g, s) || g->ops->to_move(g, s) != solver) {
                kept = out->plies;
                kept_facts = f;
            }
        }
    }
    out->plies = kept;
    f = kept_facts; // what a cut tail did does not count
    ok = ok && kept >= min_plies && kept >= 1;
    if (ok) {
        out->proven = j->proven;
        set_themes(g, &f, out);
        out->rating = rate(&f, j->proven);
    }
    sb_free(&t);
    free(undo);
    free(s);
    return ok;
}

Status puzzle_check(const PuzzleJudge *j, const Game *g, const char *position,
                    const char *const *solution, int plies, ErrBuf *err)
{
    GameState *s = game_state_new(g);
    if (s == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    Status st = g->ops->parse_position(g, s, position, err);
    const int solver = st == STATUS_OK ? g->ops->to_move(g, s) : 0;
    StrBuf t;
    sb_init(&t);
    for (int i = 0; st == STATUS_OK && i < plies; i++) {
        if (game_is_over(g, s)) {
            st = err_set(err, STATUS_ILLEGAL, "ply %d: the game is already over", i + 1);
            break;
        }
        const int mover = g->ops->to_move(g, s);
        Move m;
        if ((st = game_parse_action(g, s, solution[i], &m, err)) != STATUS_OK) {
            st = err_set(err, STATUS_ILLEGAL, "ply %d: %s", i + 1, err->msg);
            break;
        }
        if (mover == solver) {
            PuzzleVerdict v;
            if (!j->only(j->ctx, g, s, &v)) {
                st = err_set(err, STATUS_ILLEGAL, "ply %d: %s is not the only good move there",
                             i + 1, solution[i]);
                break;
            }
            if (v.only != m) {
                sb_clear(&t);
                g->ops->format_move(g, s, v.only, &t);
                st = err_set(err, STATUS_ILLEGAL, "ply %d: the only good move is %s, not %s",
                             i + 1, sb_str(&t), solution[i]);
                break;
            }
        } else if (j->stubborn != NULL && !j->stubborn(j->ctx, g, s, m)) {
            st = err_set(err, STATUS_ILLEGAL, "ply %d: %s is not the most stubborn reply",
                         i + 1, solution[i]);
            break;
        }
        void *u = game_undo_new(g);
        if (u == NULL) {
            st = err_set(err, STATUS_NOMEM, "out of memory");
            break;
        }
        g->ops->make(g, s, m, u);
        free(u);
    }
    sb_free(&t);
    free(s);
    return st;
}
