/*
 * cmd_match.c - `crown match GAME --players A,B --games N`: AI against AI.
 *
 * Game i seats the specs rotated by i, so each side plays every seat equally often. Games
 * are independent and seeded from (seed, i), so they may run on several threads
 * (--jobs) and, with depth or node limits, the totals are the same every run.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/match_stats.h"
#include "core/record.h"
#include "play/seats.h"
#include "core/game_api.h"
#include "play/words.h"

typedef struct MatchGame {
    double returns[MAX_PLAYERS]; /* per spec (not per seat) */
    double score[MAX_PLAYERS];   /* per spec: ops->score at the end, when the game has it */
    int actions;
    char *record_text;           /* when --out is given */
    bool failed;
    char error[ERRBUF_LEN];
} MatchGame;

typedef struct Match {
    const Game *game;
    const GameState *start;
    const CliOptions *opts;
    Seats specs; /* seat k of game i is specs[(k + i) % n] */
    int n_games;
    MatchGame *games;
    pthread_mutex_t lock;
    int next;  /* next game index to play; guarded by lock */
    int done;  /* games finished; guarded by lock */
} Match;

static void play_one(Match *mt, int index)
{
    MatchGame *out = &mt->games[index];
    const Game *g = mt->game;
    const int n = g->players;
    ErrBuf err;
    Seats seats;
    memset(&seats, 0, sizeof seats);
    seats.count = n;
    for (int k = 0; k < n; k++) {
        seats.seat[k] = mt->specs.seat[(k + index) % n];
        seats.seat[k].agent = NULL;
        seats.seat[k].spec.seed = mt->opts->seed * 1000003ULL + (uint64_t)index * 31 + (uint64_t)k;
    }
    // The record owns a Game; each game gets its own copy of the configured game.
    Game *own;
    RuleSetting rules[GAME_MAX_OPTIONS];
    for (int i = 0; i < g->ops->option_count; i++)
        rules[i] = (RuleSetting){g->ops->options[i].name, g->values[i]};
    GameRecord rec;
    if (game_create(g->ops, g->players, rules, g->ops->option_count, &own, &err) != STATUS_OK ||
        record_init(&rec, own, mt->start, &err) != STATUS_OK ||
        seats_start(&seats, rec.game, &err) != STATUS_OK) {
        out->failed = true;
        snprintf(out->error, sizeof out->error, "%s", err.msg);
        return;
    }
    Rng chance;
    rng_seed(&chance, mt->opts->seed * 7919 + (uint64_t)index);
    for (;;) {
        const int p = own->ops->to_move(own, rec.current);
        if (p == PLAYER_NONE)
            break;
        Move m;
        if (seats_auto_action(&seats, own, rec.current, &chance, &m, NULL, &err) != STATUS_OK) {
            out->failed = true;
            snprintf(out->error, sizeof out->error, "%s", err.msg);
            break;
        }
        if (record_push(&rec, m, &err) != STATUS_OK) {
            out->failed = true;
            break;
        }
    }
    double ret[MAX_PLAYERS];
    own->ops->returns(own, rec.current, ret);
    for (int k = 0; k < n; k++) {
        out->returns[(k + index) % n] = ret[k];
        if (own->ops->score != NULL)
            out->score[(k + index) % n] = own->ops->score(own, rec.current, k);
    }
    out->actions = rec.count;
    if (mt->opts->out) {
        seats_format(&seats, rec.players, (int)sizeof rec.players);
        StrBuf text;
        sb_init(&text);
        StrBuf result;
        sb_init(&result);
        play_result_text(rec.game, rec.current, PLAYER_NONE, &result);
        record_write(&rec, sb_str(&result), &text);
        sb_free(&result);
        out->record_text = strdup(sb_str(&text));
        sb_free(&text);
    }
    seats_stop(&seats);
    record_free(&rec);
}

static void report_game(Match *mt, int index)
{
    const MatchGame *r = &mt->games[index];
    if (r->failed) {
        printf("game %d: failed: %s\n", index + 1, r->error);
    } else {
        printf("game %d:", index + 1);
        for (int k = 0; k < mt->game->players; k++)
            printf("%s %s %+g", k ? "," : "", mt->specs.seat[k].text, r->returns[k]);
        printf(" (%d actions)\n", r->actions);
    }
    fflush(stdout);
}

static void *worker(void *arg)
{
    Match *mt = arg;
    for (;;) {
        pthread_mutex_lock(&mt->lock);
        const int index = mt->next < mt->n_games ? mt->next++ : -1;
        pthread_mutex_unlock(&mt->lock);
        if (index < 0)
            return NULL;
        play_one(mt, index);
        pthread_mutex_lock(&mt->lock);
        mt->done++;
        report_game(mt, index);
        pthread_mutex_unlock(&mt->lock);
    }
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
                         "[--out FILE] [--jobs J]"),
               2;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    Match mt;
    memset(&mt, 0, sizeof mt);
    mt.game = g;
    mt.start = s;
    mt.opts = &o;
    mt.n_games = (int)o.games;
    ErrBuf err;
    int rc = 0;
    Perfect *perfect = NULL;
    const SearchLimits lim = cli_search_limits(&o);
    if (seats_parse(o.players, g->players, &lim, o.seed, &mt.specs, &err) != STATUS_OK) {
        rc = cli_error("%s", err.msg);
        goto done;
    }
    for (int k = 0; k < mt.specs.count; k++)
        if (mt.specs.seat[k].human) {
            rc = cli_error("match is for AI players only");
            goto done;
        }
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
    pthread_mutex_init(&mt.lock, NULL);
    const int jobs = (int)(o.jobs < o.games ? o.jobs : o.games);
    pthread_t threads[64];
    for (int j = 1; j < jobs; j++)
        pthread_create(&threads[j], NULL, worker, &mt);
    worker(&mt);
    for (int j = 1; j < jobs; j++)
        pthread_join(threads[j], NULL);
    pthread_mutex_destroy(&mt.lock);

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
    free(s);
    perfect_free(perfect);
    game_destroy(g);
    return rc;
}
