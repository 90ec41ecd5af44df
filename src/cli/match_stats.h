/*
 * match_stats.h - the arithmetic of a two-player match result: score and Elo difference
 * with its 95% error margin.
 */
#ifndef CROWN_CLI_MATCH_STATS_H
#define CROWN_CLI_MATCH_STATS_H

typedef struct MatchStats {
    int wins, draws, losses;
    double score;     /* (wins + draws / 2) / games */
    double elo;       /* Elo difference implied by the score; +-INFINITY at 100% / 0% */
    double elo_error; /* half-width of the 95% interval, from the per-game variance */
} MatchStats;

void match_stats_compute(MatchStats *m);

#endif
