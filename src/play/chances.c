/*
 * chances.c - scores as win chances (chances.h). A game's evaluation counts in its own
 * centi-units, so each game has its scale s: a score of s means about a 73% chance
 * (1 / (1 + e^-1)). The scales are fitted to self-play results by crown tune --fit-scale
 * on the hint's own scores (docs/STRENGTH.md, "Win chances": data, commands, errors).
 */
#include "play/chances.h"

#include <math.h>
#include <string.h>

/* Fitted on 2026-11-24, King's Castle and King Down again on 2026-11-25 after their
 * quiescence and tuned piece values (docs/STRENGTH.md, "Win chances"); the first guesses
 * were 300 for the King's Valley family and King's Castle, 400 for King's Guard, 270 for
 * King Down. */
static const struct {
    const char *game;
    double scale;
} SCALES[] = {
    {"kings-valley", 56.0},
    {"retrieve-the-king", 61.0},
    {"kings-valley-7x7", 42.0},
    {"kings-valley-labyrinth", 32.0},
    {"kings-guard", 1356.0},
    {"kings-guard-8x8", 827.0},
    {"kings-castle", 195.0},
    {"king-down", 459.0},
    // Not fitted: its hints come from MCTS, whose mean return is the chance already.
    {"king-of-the-valley", 300.0},
};

void play_chance_agent(AgentSpec *spec)
{
    agent_spec_default(spec);
    spec->level = AGENT_LEVEL_MAX;
}

double play_chance_scale(const char *game)
{
    for (size_t i = 0; i < sizeof SCALES / sizeof *SCALES; i++)
        if (strcmp(game, SCALES[i].game) == 0)
            return SCALES[i].scale;
    return 0;
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
    // A game the table lacks gets the scale most games have.
    const double s = play_chance_scale(g->ops->name);
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
