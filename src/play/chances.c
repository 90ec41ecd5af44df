/*
 * chances.c - scores as win chances (chances.h). A game's evaluation counts in its own
 * centi-units, so each game has its scale s: a score of s means about a 73% chance
 * (1 / (1 + e^-1)). The scales are fitted to self-play results by crown tune --fit-scale
 * on the hint's own scores (docs/STRENGTH.md, "Win chances": data, commands, errors).
 */
#include "play/chances.h"

#include "play/registry.h"

#include <math.h>

/* Each game's scale is its GameOps.chance_scale, fitted on 2026-11-24, King's Castle and
 * King Down again on 2026-11-25 after their quiescence and tuned piece values
 * (docs/STRENGTH.md, "Win chances"); the first guesses were 300 for the King's Valley
 * family and King's Castle, 400 for King's Guard, 270 for King Down. */

double play_chance_scale(const char *game)
{
    const GameOps *ops = registry_find(game);
    return ops ? ops->chance_scale : 0;
}

double play_win_chance(const Game *g, const SearchResult *r)
{
    if (!r->has_score) {
        const double c = (r->value + 1.0) / 2.0;
        return c < 0.0 ? 0.0 : c > 1.0 ? 1.0 : c;
    }
    if (r->score >= SCORE_WIN_BOUND)
        return 1.0;
    if (r->score <= -SCORE_WIN_BOUND)
        return 0.0;
    // A game without a fitted scale gets the scale most games have.
    const double s = g->ops->chance_scale;
    return 1.0 / (1.0 + exp(-(double)r->score / (s > 0 ? s : 300.0)));
}

void play_chance_words(const Game *g, const SearchResult *r, StrBuf *out)
{
    if (r->has_score && r->score >= SCORE_WIN_BOUND) {
        const int n = SCORE_WIN - r->score;
        sb_printf(out, "you win by force in %d move%s", n, n == 1 ? "" : "s");
    } else if (r->has_score && r->score <= -SCORE_WIN_BOUND) {
        const int n = SCORE_WIN + r->score;
        sb_printf(out, "the other side wins by force in %d move%s", n, n == 1 ? "" : "s");
    } else {
        // Whole percents, never 0 or 100: only a forced result is certain.
        int pct = (int)lround(100.0 * play_win_chance(g, r));
        pct = pct < 1 ? 1 : pct > 99 ? 99 : pct;
        sb_printf(out, "about %d%% to win", pct);
    }
}
