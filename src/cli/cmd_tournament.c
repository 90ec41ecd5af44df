/*
 * cmd_tournament.c - `crown tournament GAME --players A,B,C...`: a round-robin or a
 * gauntlet among any seats `crown match` accepts (AI levels, outside engines), what
 * engine authors run cutechess-cli for. The schedule is play/pairing.c's (Berger tables,
 * or the gauntlet's order); each meeting of two entrants is --games games of a match
 * between them, played by match_runner.c, so one start is played with both colours. The
 * games run on --concurrency threads, each keeping one process per outside engine; the
 * table is play/standings.c's with Elo from match_stats.c. Every game's seeds follow
 * from --seed, its pair and its number in the pair, so the results do not depend on the
 * threads.
 */
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
#include "play/pairing.h"
#include "play/pool.h"
#include "play/seats.h"
#include "play/standings.h"

enum { TOUR_ENGINE_OPTIONS = 16, TOUR_MAX_GAMES = 1000000 };

typedef enum TourFormat { FORMAT_ROUND_ROBIN, FORMAT_GAUNTLET } TourFormat;

typedef struct Entrant {
    char text[SEAT_TEXT_CAP];
    EngineOption option[TOUR_ENGINE_OPTIONS];
    int n_options;
    bool outside;
} Entrant;

/* Two entrants who meet: a match between them, spec 0 (a) first in its game 0. */
typedef struct Pair {
    int a, b;
    Seats specs;
    MatchRunner runner;
    int games; /* scheduled so far: the next game's number in this pair */
} Pair;

/* A game of the tournament: its pair, its number there, its round. */
typedef struct Scheduled {
    int pair, index, round;
} Scheduled;

typedef struct Tournament {
    const Game *game;
    TourFormat format;
    int n;
    Entrant entrant[CLI_MAX_ENTRIES];
    Pair *pairs;
    int n_pairs;
    int *pair_of; /* n x n: the pair of two entrants, or -1 */
    Scheduled *sched;
    int n_games;
    MatchGame *results;
    int finished, failed;
} Tournament;

/* What tournament reads from its own flags. */
typedef struct TourArgs {
    TourFormat format;
    long rounds;
    long concurrency; /* 0: not given */
} TourArgs;

static bool take_flag(void *ctx, int which, const char *flag, const char *value)
{
    TourArgs *a = ctx;
    if (which == 0) {
        if (strcmp(value, "round-robin") == 0)
            a->format = FORMAT_ROUND_ROBIN;
        else if (strcmp(value, "gauntlet") == 0)
            a->format = FORMAT_GAUNTLET;
        else
            return cli_error("--format is round-robin or gauntlet, not '%s'", value), false;
        return true;
    }
    return cli_read_number(flag, value, 1, which == 1 ? 1000 : PLAY_POOL_MAX_JOBS,
                           which == 1 ? &a->rounds : &a->concurrency);
}

/* The points of a pair's spec 0 in one of its games: 1, 0.5 or 0. */
static double points_of_a(const MatchGame *g)
{
    return g->returns[0] > g->returns[1] ? 1 : g->returns[0] < g->returns[1] ? 0 : 0.5;
}

/* The game as a board of the tournament: who had the first seat, and his points. Game
 * i of a pair seats spec (k + i) % 2 in seat k (match_runner.h). */
static PairingResult result_of(const Tournament *t, int i)
{
    const Scheduled *s = &t->sched[i];
    const Pair *p = &t->pairs[s->pair];
    const double a_points = points_of_a(&t->results[i]);
    if (s->index % 2 == 0)
        return (PairingResult){{p->a, p->b}, a_points};
    return (PairingResult){{p->b, p->a}, 1 - a_points};
}

/* Under the pool's lock as each game ends: its line on stderr. */
static bool game_done(void *ctx, long index)
{
    Tournament *t = ctx;
    const MatchGame *g = &t->results[index];
    t->finished++;
    const Scheduled *s = &t->sched[index];
    if (g->failed) {
        t->failed++;
        fprintf(stderr, "[%d/%d] round %d game %ld: failed: %s\n", t->finished, t->n_games,
                s->round, index + 1, g->error);
        return true;
    }
    const PairingResult r = result_of(t, (int)index);
    const char *score = r.white_points == 1 ? "1-0" : r.white_points == 0 ? "0-1" : "1/2-1/2";
    fprintf(stderr, "[%d/%d] round %d game %ld: %s - %s %s (%d actions)%s%s\n", t->finished,
            t->n_games, s->round, index + 1, t->entrant[r.pair.white].text,
            t->entrant[r.pair.black].text, score, g->actions, g->forfeit[0] ? ": " : "",
            g->forfeit);
    return true;
}

/* The pool's view of the tournament: one engine process per outside entrant and thread. */
typedef struct ThreadEngines {
    EngineClient client[CLI_MAX_ENTRIES];
} ThreadEngines;

static void *thread_begin(void *ctx)
{
    const Tournament *t = ctx;
    ThreadEngines *e = calloc(1, sizeof *e);
    for (int k = 0; e != NULL && k < t->n; k++)
        engine_client_init(&e->client[k], t->entrant[k].text, t->entrant[k].option,
                           t->entrant[k].n_options);
    return e;
}

static void thread_end(void *ctx, void *thread)
{
    const Tournament *t = ctx;
    ThreadEngines *e = thread;
    for (int k = 0; e != NULL && k < t->n; k++)
        engine_client_close(&e->client[k]);
    free(e);
}

static void play_one(void *ctx, void *thread, long index)
{
    Tournament *t = ctx;
    ThreadEngines *e = thread;
    const Scheduled *s = &t->sched[index];
    const Pair *p = &t->pairs[s->pair];
    EngineClient *of_spec[2] = {NULL, NULL};
    if (e != NULL) {
        of_spec[0] = &e->client[p->a];
        of_spec[1] = &e->client[p->b];
    }
    match_play_game(&p->runner, s->index, e != NULL ? of_spec : NULL, &t->results[index]);
}

/* Splits --players into entrants; false after printing why. */
static bool read_entrants(Tournament *t, const char *players)
{
    const char *p = players;
    while (*p != '\0' || p == players) {
        const size_t len = strcspn(p, ",");
        if (t->n == CLI_MAX_ENTRIES)
            return cli_error("a tournament has at most %d players", CLI_MAX_ENTRIES), false;
        if (len == 0 || len >= SEAT_TEXT_CAP)
            return cli_error("--players: entry %d is %s", t->n + 1, len ? "too long" : "empty"),
                   false;
        memcpy(t->entrant[t->n].text, p, len);
        t->entrant[t->n].text[len] = '\0';
        t->n++;
        p += len;
        if (*p == ',' && *++p == '\0')
            return cli_error("--players: entry %d is empty", t->n + 1), false;
    }
    if (t->n < 2)
        return cli_error("a tournament needs at least 2 players in --players"), false;
    return true;
}

/* The pair of entrants a and b, made the first time they meet with `a` first. */
static int pair_for(Tournament *t, int a, int b, const CliOptions *o, const Perfect *perfect,
                    ErrBuf *err)
{
    int *slot = &t->pair_of[a * t->n + b];
    if (*slot >= 0)
        return *slot;
    Pair *p = &t->pairs[t->n_pairs];
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    char list[2 * SEAT_TEXT_CAP + 2];
    snprintf(list, sizeof list, "%s,%s", t->entrant[a].text, t->entrant[b].text);
    const SearchLimits lim = cli_search_limits(o);
    if (seats_parse(list, 2, &lim, o->seed, &p->specs, err) != STATUS_OK)
        return -1;
    p->specs.perfect = perfect;
    // Each pair's seeds differ, so that one entrant's games against two others do not
    // repeat its choices; the starts (match_starts) are the same for every pair.
    p->runner = (MatchRunner){.game = t->game, .specs = &p->specs, .seed = o->seed * 1000003ULL +
                              (uint64_t)(a * CLI_MAX_ENTRIES + b), .limits = lim, .tc = o->tc,
                              .keep_record = o->out != NULL};
    *slot = t->pair_of[b * t->n + a] = t->n_pairs;
    return t->n_pairs++;
}

/* Lays out every game: rounds of the format's schedule, cycle after cycle, each board
 * a meeting of `games` games. */
static bool schedule(Tournament *t, const TourArgs *a, long games, const CliOptions *o,
                     const Perfect *perfect)
{
    const int per_cycle = a->format == FORMAT_ROUND_ROBIN ? pairing_round_robin_rounds(t->n)
                                                          : pairing_gauntlet_rounds(t->n);
    const int boards = a->format == FORMAT_ROUND_ROBIN ? t->n / 2 : 1;
    const long total = a->rounds * per_cycle * boards * games;
    if (total > TOUR_MAX_GAMES)
        return cli_error("that tournament has %ld games; at most %d", total, TOUR_MAX_GAMES),
               false;
    t->pairs = calloc((size_t)t->n * (size_t)t->n / 2 + 1, sizeof *t->pairs);
    t->pair_of = malloc((size_t)t->n * (size_t)t->n * sizeof *t->pair_of);
    t->sched = calloc((size_t)total, sizeof *t->sched);
    t->results = calloc((size_t)total, sizeof *t->results);
    if (t->pairs == NULL || t->pair_of == NULL || t->sched == NULL || t->results == NULL)
        return cli_error("out of memory"), false;
    for (int i = 0; i < t->n * t->n; i++)
        t->pair_of[i] = -1;
    ErrBuf err;
    for (int round = 0; round < a->rounds * per_cycle; round++) {
        Pairing out[CLI_MAX_ENTRIES / 2 + 1];
        int count;
        const Status s = a->format == FORMAT_ROUND_ROBIN
                             ? pairing_round_robin(t->n, round, out, &count, &err)
                             : pairing_gauntlet(t->n, round, out, &count, &err);
        if (s != STATUS_OK)
            return cli_error("%s", err.msg), false;
        for (int b = 0; b < count; b++) {
            if (out[b].black == PAIRING_BYE)
                continue;
            const int p = pair_for(t, out[b].white, out[b].black, o, perfect, &err);
            if (p < 0)
                return cli_error("%s", err.msg), false;
            for (long g = 0; g < games; g++)
                t->sched[t->n_games++] = (Scheduled){p, t->pairs[p].games++, round + 1};
        }
    }
    return true;
}

/* "+120 +/- 45", "+inf", "+120 +/- inf". */
static void format_elo(const MatchStats *st, char *out, size_t cap)
{
    const double elo = st->elo + 0.0; // an even score is +0, not -0
    if (!isfinite(elo))
        snprintf(out, cap, "%s", elo > 0 ? "+inf" : "-inf");
    else if (!isfinite(st->elo_error))
        snprintf(out, cap, "%+.0f +/- inf", elo);
    else
        snprintf(out, cap, "%+.0f +/- %.0f", elo, st->elo_error);
}

/* The standings, then the crosstable: rows and columns in order of place, each cell
 * the row's points against the column over their games. */
static void print_table(const Tournament *t, const PairingResult *res, int n_res,
                        const Standing *table)
{
    int width = 6;
    for (int i = 0; i < t->n; i++) {
        const int w = (int)strlen(t->entrant[i].text);
        width = w > width ? w : width;
    }
    if (width > 40)
        width = 40;
    printf("%5s  %-*s %6s %7s %6s %6s %6s  %-16s %6s\n", "place", width, "player", "games",
           "points", "score", "wins", "draws", "Elo", "SB");
    for (int r = 0; r < t->n; r++) {
        const Standing *s = &table[r];
        MatchStats st = {.wins = s->wins, .draws = s->draws, .losses = s->losses};
        match_stats_compute(&st);
        char elo[48];
        format_elo(&st, elo, sizeof elo);
        printf("%5d  %-*.*s %6d %7.1f %5.1f%% %6d %6d  %-16s %6.2f\n", s->place, width, width,
               t->entrant[s->player].text, s->games, s->points, 100 * st.score, s->wins,
               s->draws, s->games > 0 ? elo : "-", s->sonneborn_berger);
    }
    printf("\ncrosstable (points of the row's player against the column's)\n%5s  %-*s", "", width,
           "");
    for (int c = 0; c < t->n; c++)
        printf(" %5d", c + 1);
    printf("\n");
    for (int r = 0; r < t->n; r++) {
        const int pr = table[r].player;
        printf("%5d  %-*.*s", r + 1, width, width, t->entrant[pr].text);
        for (int c = 0; c < t->n; c++) {
            const int pc = table[c].player;
            double pts = 0;
            int met = 0;
            for (int i = 0; i < n_res; i++) {
                const Pairing p = res[i].pair;
                if (p.white == pr && p.black == pc)
                    pts += res[i].white_points, met++;
                else if (p.white == pc && p.black == pr)
                    pts += 1 - res[i].white_points, met++;
            }
            if (r == c)
                printf(" %5s", "*");
            else if (met == 0)
                printf(" %5s", "-");
            else
                printf(" %5.1f", pts);
        }
        printf("\n");
    }
}

static bool write_records(const Tournament *t, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return cli_error("cannot write '%s'", path), false;
    int written = 0;
    for (int i = 0; i < t->n_games; i++)
        if (t->results[i].record_text)
            fprintf(f, "%s%s", written++ ? "\n" : "", t->results[i].record_text);
    if (fclose(f) != 0)
        return cli_error("error writing '%s'", path), false;
    printf("%d games written to %s\n", written, path);
    return true;
}

/* Checks every entrant can play the game, once, before any game starts. */
static bool check_entrants(Tournament *t, const CliOptions *o, const Perfect *perfect)
{
    bool outside = false;
    const SearchLimits lim = cli_search_limits(o);
    for (int k = 0; k < t->n; k++) {
        char list[2 * SEAT_TEXT_CAP + 2];
        snprintf(list, sizeof list, "%s,%s", t->entrant[k].text, t->entrant[k].text);
        Seats s;
        ErrBuf err;
        if (seats_parse(list, 2, &lim, o->seed, &s, &err) != STATUS_OK ||
            turn_runner_check_game(t->game, &s, &err) != STATUS_OK)
            return cli_error("--players entry %d: %s", k + 1, err.msg), false;
        if (s.seat[0].human)
            return cli_error("a tournament is for AI players and outside engines, not '%s'",
                             t->entrant[k].text),
                   false;
        s.perfect = perfect;
        if (seats_start(&s, t->game, &err) != STATUS_OK)
            return cli_error("--players entry %d: %s", k + 1, err.msg), false;
        seats_stop(&s);
        t->entrant[k].outside = s.seat[0].outside;
        outside |= s.seat[0].outside;
        cli_engine_options_for(o, k, t->entrant[k].option, TOUR_ENGINE_OPTIONS,
                               &t->entrant[k].n_options);
    }
    for (int i = 0; i < o->n_engine_options; i++) {
        const int e = o->engine_options[i].entry;
        if (e > t->n || (e == 0 && !outside) || (e > 0 && !t->entrant[e - 1].outside))
            return cli_error("--engine-option %s: %s", o->engine_options[i].option.name,
                             e > t->n ? "there is no such entry in --players"
                                      : "that player is not an outside engine"),
                   false;
    }
    if (outside)
        signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error, not our end */
    return true;
}

static int run(Tournament *t, const TourArgs *a, const CliOptions *o, GameState *start)
{
    const long games = o->games_set ? o->games : 2;
    if (t->game->players != 2)
        return cli_error("a tournament needs a two-player game; %s is played by %d",
                         t->game->ops->name, t->game->players);
    if (play_clock_on(&o->tc) && o->limits.movetime_ms > 0)
        return cli_error("give either --tc or --movetime");
    if (!read_entrants(t, o->players))
        return 2;
    Perfect *perfect = NULL;
    if (!cli_open_perfect(o, &perfect))
        return 2;
    int rc = 0;
    MatchStarts starts;
    ErrBuf err;
    if (match_starts_init(&starts, t->game, start, o->position != NULL, o->seed, o->openings,
                          &err) != STATUS_OK) {
        perfect_free(perfect);
        return cli_error("%s", err.msg);
    }
    if (!check_entrants(t, o, perfect) || !schedule(t, a, games, o, perfect)) {
        rc = 1;
        goto done;
    }
    for (int p = 0; p < t->n_pairs; p++)
        t->pairs[p].runner.starts = &starts;
    printf("tournament %s: %s of %d players, %d games (%ld a meeting, %ld %s); starts: %s\n",
           t->game->ops->name, a->format == FORMAT_ROUND_ROBIN ? "round-robin" : "gauntlet",
           t->n, t->n_games, games, a->rounds, a->rounds == 1 ? "cycle" : "cycles",
           match_starts_kind(&starts));
    fflush(stdout);
    const PlayPool pool = {.count = t->n_games, .jobs = (int)o->jobs, .ctx = t,
                           .thread_begin = thread_begin, .thread_end = thread_end,
                           .play = play_one, .done = game_done};
    play_pool_run(&pool);

    PairingResult *res = calloc((size_t)t->n_games + 1, sizeof *res);
    Standing *table = calloc((size_t)t->n, sizeof *table);
    int n_res = 0;
    if (res == NULL || table == NULL) {
        rc = cli_error("out of memory");
    } else {
        for (int i = 0; i < t->n_games; i++)
            if (!t->results[i].failed)
                res[n_res++] = result_of(t, i);
        if (standings_compute(t->n, res, n_res, table, &err) != STATUS_OK) {
            rc = cli_error("%s", err.msg);
        } else {
            const TieBreak order[] = {TIEBREAK_SONNEBORN_BERGER, TIEBREAK_WINS};
            standings_sort(table, t->n, order, 2);
            print_table(t, res, n_res, table);
            printf("%d distinct games of %d\n", match_distinct_games(t->results, t->n_games),
                   n_res);
        }
    }
    free(res);
    free(table);
    if (o->out != NULL && !write_records(t, o->out))
        rc = 1;
    if (t->failed > 0)
        rc = cli_error("%d games failed", t->failed);
done:
    match_starts_free(&starts);
    perfect_free(perfect);
    return rc;
}

int cmd_tournament(int argc, char **argv)
{
    static const char *const own[] = {"--format", "--rounds", "--concurrency"};
    TourArgs a = {.format = FORMAT_ROUND_ROBIN, .rounds = 1};
    CliOptions o;
    const int parsed = cli_parse_own_options(argc, argv, own, (int)(sizeof own / sizeof own[0]),
                                             take_flag, &a, &o);
    if (parsed != 0)
        return parsed;
    if (o.n_positional != 1 || o.players == NULL)
        return cli_error("usage: crown tournament GAME --players SPEC,SPEC,... [--format "
                         "round-robin|gauntlet] [--games N] [--rounds R] [--concurrency N]"),
               2;
    if (a.concurrency > 0)
        o.jobs = a.concurrency;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    Tournament *t = calloc(1, sizeof *t);
    int rc;
    if (t == NULL) {
        rc = cli_error("out of memory");
    } else {
        t->game = g;
        t->format = a.format;
        rc = run(t, &a, &o, s);
        for (int i = 0; t->results != NULL && i < t->n_games; i++)
            free(t->results[i].record_text);
        free(t->results);
        free(t->sched);
        free(t->pair_of);
        free(t->pairs);
        free(t);
    }
    free(s);
    game_destroy(g);
    return rc;
}
