/*
 * cmd_match.c - `crown match GAME --players A,B --games N`: AI against AI.
 *
 * The games are played by match_runner.c: game i seats the specs rotated by i, so each
 * side plays every seat equally often, from the start of its group (match_starts.c), so
 * each start is played with every seating. Games are seeded from (seed, i), so they may
 * run on several threads (--jobs) and, with depth or node limits, the totals are the
 * same every run. Outside engines (uci:COMMAND, ugi:COMMAND) run one process per thread
 * and entry, kept from game to game; the turn runner referees their moves and clocks.
 */
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/match_runner.h"
#include "cli/match_stats.h"
#include "cli/turn_runner.h"
#include "core/game_api.h"
#include "play/seats.h"

enum { MATCH_ENGINE_OPTIONS = 16 };

/* Per --players entry: the options of its outside engine. */
typedef struct EntryOptions {
    EngineOption option[MATCH_ENGINE_OPTIONS];
    int n;
} EntryOptions;

typedef struct Match {
    const Game *game;
    Seats specs; /* seat k of game i is specs[(k + i) % n] */
    EntryOptions entry_options[MAX_PLAYERS];
    int n_games;
    MatchGame *games;
} Match;

static bool report_game(void *ctx, int index, const MatchGame *r)
{
    const Match *mt = ctx;
    if (r->failed) {
        printf("game %d: failed: %s\n", index + 1, r->error);
    } else {
        printf("game %d:", index + 1);
        for (int k = 0; k < mt->game->players; k++)
            printf("%s %s %+g", k ? "," : "", mt->specs.seat[k].text, r->returns[k]);
        printf(" (%d actions)\n", r->actions);
        if (r->forfeit[0])
            printf("game %d: %s\n", index + 1, r->forfeit);
    }
    fflush(stdout);
    return true;
}

/* The rank of spec k in game i: 1 plus the number of players with a better return
 * (players with equal returns share a rank). */
static int rank_of(const Match *mt, int i, int k)
{
    int rank = 1;
    for (int j = 0; j < mt->specs.count; j++)
        rank += mt->games[i].returns[j] > mt->games[i].returns[k];
    return rank;
}

/* Games of more than two players: per player (each entry of --players) the wins (sole
 * first places), shared first places, mean rank, mean score and mean return, then the
 * mean rank of each player in each seat. Seat of spec k in game i: (k - i) mod n. */
static void report_players(const Match *mt)
{
    const int n = mt->specs.count;
    const bool scored = mt->game->ops->score != NULL;
    printf("%-3s %-16s %6s %6s %7s %9s %10s %11s\n", "", "player", "games", "wins", "shared",
           "mean rank", scored ? "mean score" : "", "mean return");
    for (int k = 0; k < n; k++) {
        int games = 0, wins = 0, shared = 0;
        double rank = 0, score = 0, ret = 0;
        for (int i = 0; i < mt->n_games; i++) {
            if (mt->games[i].failed)
                continue;
            games++;
            const int r = rank_of(mt, i, k);
            int tied = 0;
            for (int j = 0; j < n; j++)
                tied += j != k && mt->games[i].returns[j] == mt->games[i].returns[k];
            wins += r == 1 && tied == 0;
            shared += r == 1 && tied > 0;
            rank += r;
            score += mt->games[i].score[k];
            ret += mt->games[i].returns[k];
        }
        const double d = games > 0 ? games : 1;
        printf("%-3d %-16s %6d %6d %7d %9.3f ", k + 1, mt->specs.seat[k].text, games, wins, shared,
               rank / d);
        if (scored)
            printf("%10.2f", score / d);
        else
            printf("%10s", "");
        printf(" %+11.3f   (wins %.1f%%)\n", ret / d, 100.0 * wins / d);
    }
    printf("%-18s", "mean rank by seat");
    for (int seat = 0; seat < n; seat++)
        printf("    seat %d", seat + 1);
    printf("\n");
    for (int k = 0; k < n; k++) {
        printf("%-3d %-14s", k + 1, mt->specs.seat[k].text);
        for (int seat = 0; seat < n; seat++) {
            double sum = 0;
            int cnt = 0;
            for (int i = 0; i < mt->n_games; i++)
                if (!mt->games[i].failed && ((k - i) % n + n) % n == seat) {
                    sum += rank_of(mt, i, k);
                    cnt++;
                }
            if (cnt > 0)
                printf(" %9.3f", sum / cnt);
            else
                printf(" %9s", "-");
        }
        printf("\n");
    }
}

int cmd_match(int argc, char **argv)
{
    CliOptions o;
    if (!cli_parse_options(argc, argv, 2, &o))
        return 2;
    if (o.n_positional != 1 || o.players == NULL)
        return cli_error("usage: crown match GAME --players SPEC,SPEC --games N [--seed S] "
                         "[--openings FILE] [--out FILE] [--jobs J]"),
               2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    Match mt;
    memset(&mt, 0, sizeof mt);
    mt.game = g;
    mt.n_games = (int)o.games;
    ErrBuf err;
    int rc = 0;
    MatchStarts starts;
    if (match_starts_init(&starts, g, s, o.position != NULL, o.seed, o.openings, &err) !=
        STATUS_OK) {
        rc = cli_error("%s", err.msg);
        free(s);
        game_destroy(g);
        return rc;
    }
    Perfect *perfect = NULL;
    const SearchLimits lim = cli_search_limits(&o);
    if (seats_parse(o.players, g->players, &lim, o.seed, &mt.specs, &err) != STATUS_OK ||
        turn_runner_check_game(g, &mt.specs, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    bool outside = false;
    for (int k = 0; k < mt.specs.count; k++) {
        if (mt.specs.seat[k].human) {
            rc = cli_error("match is for AI players only, and outside engines");
            goto done;
        }
        outside |= mt.specs.seat[k].outside;
        cli_engine_options_for(&o, k, mt.entry_options[k].option, MATCH_ENGINE_OPTIONS,
                               &mt.entry_options[k].n);
    }
    for (int i = 0; i < o.n_engine_options; i++) {
        const int e = o.engine_options[i].entry;
        if (e > mt.specs.count || (e > 0 && !mt.specs.seat[e - 1].outside) ||
            (e == 0 && !outside)) {
            rc = cli_error("--engine-option %s: %s", o.engine_options[i].option.name,
                           e > mt.specs.count ? "there is no such entry in --players"
                                              : "that player is not an outside engine");
            goto done;
        }
    }
    if (play_clock_on(&o.tc) && o.limits.movetime_ms > 0) {
        rc = cli_error("give either --tc or --movetime");
        goto done;
    }
    if (outside)
        signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error, not our end */
    if (!cli_open_perfect(&o, &perfect)) {
        rc = 2;
        goto done;
    }
    mt.specs.perfect = perfect;
    // Fail early on a spec the game cannot use (alpha-beta on a chance game, say).
    if (seats_start(&mt.specs, g, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    seats_stop(&mt.specs);
    mt.games = calloc((size_t)mt.n_games, sizeof *mt.games);
    if (mt.games == NULL) {
        rc = cli_error("out of memory");
        goto done;
    }
    MatchRunner runner = {.game = g, .specs = &mt.specs, .starts = &starts, .seed = o.seed,
                          .keep_record = o.out != NULL};
    runner.limits = lim;
    runner.tc = o.tc;
    for (int k = 0; k < mt.specs.count; k++) {
        runner.engine_options[k] = mt.entry_options[k].option;
        runner.n_engine_options[k] = mt.entry_options[k].n;
    }
    match_run(&runner, mt.games, mt.n_games, (int)o.jobs, report_game, &mt);

    int failed = 0;
    for (int i = 0; i < mt.n_games; i++)
        failed += mt.games[i].failed;
    if (g->players == 2) {
        MatchStats st = {0};
        for (int i = 0; i < mt.n_games; i++) {
            if (mt.games[i].failed)
                continue;
            const double a = mt.games[i].returns[0], b = mt.games[i].returns[1];
            if (a > b)
                st.wins++;
            else if (a < b)
                st.losses++;
            else
                st.draws++;
        }
        match_stats_compute(&st);
        printf("%s vs %s: %d games, %d wins, %d draws, %d losses\n", mt.specs.seat[0].text,
               mt.specs.seat[1].text, st.wins + st.draws + st.losses, st.wins, st.draws,
               st.losses);
        printf("score %.1f%%, Elo difference ", 100 * st.score);
        if (isfinite(st.elo) && isfinite(st.elo_error))
            printf("%+.0f +/- %.0f (95%%)\n", st.elo, st.elo_error);
        else if (isfinite(st.elo))
            printf("%+.0f (margin unbounded)\n", st.elo);
        else
            printf("%s (every game went one way)\n", st.elo > 0 ? "+inf" : "-inf");
    } else {
        report_players(&mt);
    }
    printf("%d distinct games of %d; starts: %s\n", match_distinct_games(mt.games, mt.n_games),
           mt.n_games - failed, match_starts_kind(&starts));
    if (o.out) {
        FILE *f = fopen(o.out, "w");
        if (f == NULL) {
            rc = cli_error("cannot write '%s'", o.out);
        } else {
            for (int i = 0; i < mt.n_games; i++)
                if (mt.games[i].record_text)
                    fprintf(f, "%s%s", i ? "\n" : "", mt.games[i].record_text);
            if (fclose(f) != 0)
                rc = cli_error("error writing '%s'", o.out);
            else
                printf("games written to %s\n", o.out);
        }
    }
    if (failed)
        rc = cli_error("%d games failed", failed);
done:
    if (mt.games)
        for (int i = 0; i < mt.n_games; i++)
            free(mt.games[i].record_text);
    free(mt.games);
    match_starts_free(&starts);
    free(s);
    perfect_free(perfect);
    game_destroy(g);
    return rc;
}
