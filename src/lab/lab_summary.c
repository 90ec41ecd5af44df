/*
 * lab_summary.c - counting a study's rows into its summary.
 *
 * An outcome per seat: a win is a sole first place, a draw a game where every seat is
 * level, a shared win a first place tied with some but not all, anything else a loss.
 * Seats (positions at the table) show the first-player advantage; players (entries of
 * --players, which rotate over the seats) show who is stronger.
 */
#include "lab/lab_summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "lab/lab_stats.h"
#include "play/registry.h"

enum { MAX_REASONS = 32, MAX_BINS = 64 };

typedef enum Outcome { WIN, DRAW, SHARED, LOSS } Outcome;

static Outcome outcome(const LabRow *r, int seat)
{
    int above = 0, level = 0;
    for (int k = 0; k < r->players; k++) {
        above += r->returns[k] > r->returns[seat];
        level += r->returns[k] == r->returns[seat];
    }
    if (above > 0)
        return LOSS;
    if (level == r->players)
        return DRAW;
    return level == 1 ? WIN : SHARED;
}

static int rank_of(const LabRow *r, int seat)
{
    int rank = 1;
    for (int k = 0; k < r->players; k++)
        rank += r->returns[k] > r->returns[seat];
    return rank;
}

static json_t *rate(long k, long n)
{
    const LabRate r = lab_wilson(k, n);
    return json_pack("{s:f, s:f, s:f}", "rate", r.rate, "lo", r.lo, "hi", r.hi);
}

/* The tally of one seat or one player over a set's games. */
typedef struct Tally {
    long n, count[4];
    double rank, score, ret;
} Tally;

static void tally_add(Tally *t, const LabRow *r, int seat)
{
    t->n++;
    t->count[outcome(r, seat)]++;
    t->rank += rank_of(r, seat);
    t->score += r->scores[seat];
    t->ret += r->returns[seat];
}

static json_t *tally_json(const Tally *t, const char *key, json_t *id, bool scored)
{
    const double n = t->n ? (double)t->n : 1;
    json_t *o = json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:f, s:f}", key, id,
                          "games", (json_int_t)t->n, "wins", (json_int_t)t->count[WIN], "draws",
                          (json_int_t)t->count[DRAW], "shared", (json_int_t)t->count[SHARED],
                          "losses", (json_int_t)t->count[LOSS], "win", rate(t->count[WIN], t->n),
                          "draw", rate(t->count[DRAW], t->n), "shared_win",
                          rate(t->count[SHARED], t->n), "loss", rate(t->count[LOSS], t->n),
                          "mean_rank", t->rank / n, "mean_return", t->ret / n);
    if (scored)
        json_object_set_new(o, "mean_score", json_real(t->score / n));
    return o;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The end reasons the summary lists: every one the game has, then any other seen. */
typedef struct Reasons {
    const char *key[MAX_REASONS];
    int count;
} Reasons;

static int reason_index(Reasons *rs, const char *key, bool add)
{
    for (int i = 0; i < rs->count; i++)
        if (strcmp(rs->key[i], key) == 0)
            return i;
    if (!add || rs->count == MAX_REASONS)
        return -1;
    rs->key[rs->count] = key;
    return rs->count++;
}

/* A set's figures, and what the comparisons need of them. */
typedef struct SetFigures {
    long n;
    long first_wins, draws, reason[MAX_REASONS];
    double length_mean, length_var;
} SetFigures;

/* The game's own figures over a set's games: per game the mean and how many games saw
 * any; per player also the mean by seat and by player (entry of --players), and the win
 * rate of seats that used it (value above 0) against seats that did not. */
static json_t *metrics_json(const LabStudy *st, const GameOps *ops, int set, const LabRows *rows,
                            int n_players)
{
    json_t *list = json_array();
    for (int i = 0; ops && i < ops->metric_count; i++) {
        const bool per = ops->metrics[i].per_player;
        long n = 0, with = 0, used = 0, used_wins = 0, unused = 0, unused_wins = 0;
        double sum = 0, seat_sum[MAX_PLAYERS] = {0}, player_sum[MAX_PLAYERS] = {0};
        for (long g = 0; g < rows->count; g++) {
            const LabRow *r = &rows->row[g];
            if (r->set != set || r->failed || r->players != n_players || r->n_metrics <= i)
                continue;
            double total = 0;
            const int rot = lab_game_rotation(st, r->index);
            for (int k = 0; k < (per ? r->players : 1); k++) {
                total += r->metrics[i][k];
                seat_sum[k] += r->metrics[i][k];
                player_sum[(k + rot) % r->players] += r->metrics[i][k];
                if (!per)
                    continue;
                const bool won = outcome(r, k) == WIN;
                if (r->metrics[i][k] > 0) {
                    used++;
                    used_wins += won;
                } else {
                    unused++;
                    unused_wins += won;
                }
            }
            n++;
            with += total > 0;
            sum += total;
        }
        json_t *m = json_pack("{s:s, s:b, s:f, s:I, s:o}", "metric", ops->metrics[i].name,
                              "per_player", per, "mean", n ? sum / (double)n : 0, "games_with",
                              (json_int_t)with, "games_with_rate", rate(with, n));
        if (per) {
            json_t *seats = json_array(), *players = json_array();
            for (int k = 0; k < n_players; k++) {
                json_array_append_new(seats, json_real(n ? seat_sum[k] / (double)n : 0));
                json_array_append_new(players, json_real(n ? player_sum[k] / (double)n : 0));
            }
            json_object_set_new(m, "mean_by_seat", seats);
            json_object_set_new(m, "mean_by_player", players);
            json_object_set_new(m, "win_when_used", rate(used_wins, used));
            json_object_set_new(m, "win_when_unused", rate(unused_wins, unused));
            json_object_set_new(m, "used", json_integer(used));
            json_object_set_new(m, "seats_with", rate(used, used + unused));
        }
        json_array_append_new(list, m);
    }
    return list;
}

/* Games by set-up family (the game's setup_family hook, read from each row's start):
 * per family, in the order of their keys, the games and the first seat's win and draw
 * rates. An empty list when the game has no families. */
typedef struct Family {
    char key[64];
    long n, wins, draws;
} Family;

static int by_key(const void *a, const void *b)
{
    return strcmp(((const Family *)a)->key, ((const Family *)b)->key);
}

static json_t *families_json(const LabStudy *st, int set, const LabRows *rows, int n_players)
{
    json_t *list = json_array();
    const GameOps *ops = registry_find(st->game);
    Game *g = NULL;
    ErrBuf err;
    if (ops == NULL || ops->setup_family == NULL || lab_set_game(st, set, &g, &err) != STATUS_OK)
        return list;
    enum { MAX_FAMILIES = 64 };
    Family fam[MAX_FAMILIES];
    int n_fam = 0;
    GameState *s = game_state_new(g);
    StrBuf key;
    sb_init(&key);
    for (long i = 0; s != NULL && i < rows->count; i++) {
        const LabRow *r = &rows->row[i];
        if (r->set != set || r->failed || r->players != n_players ||
            ops->parse_position(g, s, r->setup, &err) != STATUS_OK)
            continue;
        sb_clear(&key);
        ops->setup_family(g, s, &key);
        int f = 0;
        while (f < n_fam && strcmp(fam[f].key, sb_str(&key)) != 0)
            f++;
        if (f == n_fam) {
            if (n_fam == MAX_FAMILIES)
                continue;
            memset(&fam[n_fam], 0, sizeof fam[n_fam]);
            snprintf(fam[n_fam++].key, sizeof fam[0].key, "%s", sb_str(&key));
        }
        fam[f].n++;
        fam[f].wins += outcome(r, 0) == WIN;
        fam[f].draws += outcome(r, 0) == DRAW;
    }
    sb_free(&key);
    free(s);
    game_destroy(g);
    qsort(fam, (size_t)n_fam, sizeof fam[0], by_key);
    for (int f = 0; f < n_fam; f++)
        json_array_append_new(list, json_pack("{s:s, s:I, s:o, s:o}", "family", fam[f].key,
                                              "games", (json_int_t)fam[f].n, "first_seat_win",
                                              rate(fam[f].wins, fam[f].n), "draw",
                                              rate(fam[f].draws, fam[f].n)));
    return list;
}

static json_t *set_json(const LabStudy *st, int set, const LabRows *rows, Reasons *rs,
                        int bin, SetFigures *fig)
{
    const int n_players = lab_list_count(st->sets[set].players);
    Tally seat[MAX_PLAYERS], player[MAX_PLAYERS];
    memset(seat, 0, sizeof seat);
    memset(player, 0, sizeof player);
    memset(fig, 0, sizeof *fig);
    long failed = 0, hist[MAX_BINS] = {0};
    double *len = malloc(sizeof *len * (size_t)(rows->count + 1));
    bool scored = false;
    for (long i = 0; i < rows->count; i++) {
        const LabRow *r = &rows->row[i];
        if (r->set != set)
            continue;
        if (r->failed || r->players != n_players) {
            failed++;
            continue;
        }
        scored |= r->scored;
        const int rot = lab_game_rotation(st, r->index);
        for (int k = 0; k < r->players; k++) {
            tally_add(&seat[k], r, k);
            tally_add(&player[(k + rot) % r->players], r, k);
        }
        fig->first_wins += outcome(r, 0) == WIN;
        fig->draws += outcome(r, 0) == DRAW;
        const int ri = reason_index(rs, r->reason, false);
        if (ri >= 0)
            fig->reason[ri]++;
        if (len)
            len[fig->n] = r->length;
        const int b = r->length / bin;
        hist[b < MAX_BINS ? b : MAX_BINS - 1]++;
        fig->n++;
    }
    json_t *seats = json_array(), *players = json_array(), *reasons = json_array();
    char list[LAB_TEXT];
    snprintf(list, sizeof list, "%s", st->sets[set].players);
    char *save = NULL, *tok = strtok_r(list, ",", &save);
    for (int k = 0; k < n_players; k++) {
        json_array_append_new(seats, tally_json(&seat[k], "seat", json_integer(k + 1), scored));
        json_array_append_new(players,
                              tally_json(&player[k], "player", json_string(tok ? tok : "?"),
                                         scored));
        tok = tok ? strtok_r(NULL, ",", &save) : NULL;
    }
    for (int i = 0; i < rs->count; i++)
        json_array_append_new(reasons, json_pack("{s:s, s:I, s:o}", "reason", rs->key[i], "count",
                                                 (json_int_t)fig->reason[i], "rate",
                                                 rate(fig->reason[i], fig->n)));
    json_t *length;
    if (fig->n > 0 && len) {
        qsort(len, (size_t)fig->n, sizeof *len, by_value);
        double sum = 0, sq = 0;
        for (long i = 0; i < fig->n; i++)
            sum += len[i];
        fig->length_mean = sum / (double)fig->n;
        for (long i = 0; i < fig->n; i++)
            sq += (len[i] - fig->length_mean) * (len[i] - fig->length_mean);
        fig->length_var = fig->n > 1 ? sq / (double)(fig->n - 1) : 0;
        length = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "mean",
                           fig->length_mean, "sd", sqrt(fig->length_var), "min", len[0], "p10",
                           lab_quantile(len, fig->n, 0.1), "p25", lab_quantile(len, fig->n, 0.25),
                           "median", lab_quantile(len, fig->n, 0.5), "p75",
                           lab_quantile(len, fig->n, 0.75), "p90", lab_quantile(len, fig->n, 0.9),
                           "max", len[fig->n - 1]);
    } else {
        length = json_object();
    }
    free(len);
    json_t *histogram = json_array();
    int last = 0;
    for (int b = 0; b < MAX_BINS; b++)
        last = hist[b] ? b : last;
    for (int b = 0; b <= last; b++)
        json_array_append_new(histogram, json_integer(hist[b]));
    json_object_set_new(length, "histogram", histogram);
    return json_pack("{s:i, s:s, s:s, s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o}", "set",
                     set + 1, "label", st->sets[set].label, "rules", st->sets[set].rules,
                     "players", st->sets[set].players, "games", (json_int_t)fig->n, "failed",
                     (json_int_t)failed, "seats", seats, "by_player", players, "end_reasons",
                     reasons, "length", length, "metrics",
                     metrics_json(st, registry_find(st->game), set, rows, n_players),
                     "setup_families", families_json(st, set, rows, n_players));
}

static json_t *difference(double base, double other, double p)
{
    return json_pack("{s:f, s:f, s:f, s:f}", "baseline", base, "this", other, "difference",
                     other - base, "p", p);
}

static double share(long k, long n)
{
    return n > 0 ? (double)k / (double)n : 0;
}

static json_t *comparison_json(const LabStudy *st, int set, const SetFigures *b,
                               const SetFigures *o, const Reasons *rs)
{
    json_t *reasons = json_array();
    for (int i = 0; i < rs->count; i++)
        json_array_append_new(
            reasons, json_pack("{s:s, s:o}", "reason", rs->key[i], "rate",
                               difference(share(b->reason[i], b->n), share(o->reason[i], o->n),
                                          lab_two_proportion_p(b->reason[i], b->n, o->reason[i],
                                                               o->n))));
    return json_pack(
        "{s:i, s:s, s:o, s:o, s:o, s:o}", "set", set + 1, "label", st->sets[set].label,
        "first_seat_win",
        difference(share(b->first_wins, b->n), share(o->first_wins, o->n),
                   lab_two_proportion_p(b->first_wins, b->n, o->first_wins, o->n)),
        "draw",
        difference(share(b->draws, b->n), share(o->draws, o->n),
                   lab_two_proportion_p(b->draws, b->n, o->draws, o->n)),
        "mean_length",
        difference(b->length_mean, o->length_mean,
                   lab_mean_difference_p(b->length_mean, b->length_var, b->n, o->length_mean,
                                         o->length_var, o->n)),
        "end_reasons", reasons);
}

/* The level of entry `k` of a seat list of "ai:L" players; 0 when it is not one. */
static int seat_level(const char *seats, int k)
{
    const char *p = seats;
    for (int i = 0; i < k && p; i++) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    int level = 0;
    return p && sscanf(p, "ai:%d", &level) == 1 ? level : 0;
}

static int ladder_index(const LabStudy *st, int level)
{
    for (int i = 0; i < st->n_ladder; i++)
        if (st->ladder[i] == level)
            return i;
    return -1;
}

/* The Elo ladder of the games of `players` seats: every pair of seats of a game is a
 * game between their levels for the fit. */
static json_t *ladder_json(const LabStudy *st, const LabRows *rows, int players)
{
    enum { L = LAB_MAX_LADDER };
    double points[L * L] = {0}, games[L * L] = {0}, elo[L], margin[L];
    long played[L] = {0};
    double scored[L] = {0};
    const int n = st->n_ladder;
    for (long i = 0; i < rows->count; i++) {
        const LabRow *r = &rows->row[i];
        if (r->failed || r->players != players)
            continue;
        for (int a = 0; a < r->players; a++)
            for (int b = 0; b < r->players; b++) {
                const int la = ladder_index(st, seat_level(r->seats, a));
                const int lb = ladder_index(st, seat_level(r->seats, b));
                if (a == b || la < 0 || lb < 0 || la == lb)
                    continue;
                const double s = r->returns[a] > r->returns[b]    ? 1
                                 : r->returns[a] == r->returns[b] ? 0.5
                                                                  : 0;
                points[la * n + lb] += s;
                games[la * n + lb] += 1;
                played[la]++;
                scored[la] += s;
            }
    }
    const bool fitted = lab_elo_fit(n, points, games, elo, margin);
    json_t *levels = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(levels, json_pack("{s:i, s:f, s:f, s:I, s:f}", "level",
                                                st->ladder[i], "elo", elo[i], "margin", margin[i],
                                                "pairings", (json_int_t)played[i], "score",
                                                share((long)(scored[i] * 2), played[i] * 2)));
    return json_pack("{s:i, s:b, s:o}", "players", players, "fitted", fitted, "levels", levels);
}

json_t *lab_summary_build(const LabStudy *st, const LabRows *rows)
{
    const GameOps *ops = registry_find(st->game);
    Reasons rs = {.count = 0};
    for (int i = 0; ops && i < ops->end_reason_count && i < MAX_REASONS; i++)
        reason_index(&rs, ops->end_reasons[i], true);
    int longest = 0;
    for (long i = 0; i < rows->count; i++)
        if (!rows->row[i].failed) {
            reason_index(&rs, rows->row[i].reason, true);
            longest = rows->row[i].length > longest ? rows->row[i].length : longest;
        }
    // One bin width for every set, 1, 2 or 5 times a power of ten, for about 20 bins.
    int bin = 1;
    for (int step = 0; longest / bin >= 20; step++)
        bin = (step % 3 == 1) ? bin / 2 * 5 : bin * 2;
    json_t *sets = json_array(), *reasons = json_array(), *comparisons = json_array();
    SetFigures *fig = calloc((size_t)st->n_sets, sizeof *fig);
    if (fig == NULL)
        return NULL;
    for (int s = 0; s < st->n_sets; s++)
        json_array_append_new(sets, set_json(st, s, rows, &rs, bin, &fig[s]));
    for (int i = 0; i < rs.count; i++)
        json_array_append_new(reasons, json_string(rs.key[i]));
    if (st->n_ladder == 0)
        for (int s = 1; s < st->n_sets; s++)
            json_array_append_new(comparisons, comparison_json(st, s, &fig[0], &fig[s], &rs));
    free(fig);
    long played = 0;
    for (long i = 0; i < rows->count; i++)
        played += !rows->row[i].failed;
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)st->seed);
    json_t *root = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:o, s:i, s:o}", "game", st->game,
                             "seed", seed, "games_per_set", (json_int_t)st->games, "study_games",
                             (json_int_t)lab_study_total(st), "rows", (json_int_t)rows->count,
                             "played", (json_int_t)played, "end_reasons", reasons,
                             "length_bin", bin, "sets", sets);
    if (root == NULL) {
        json_decref(comparisons);
        return NULL;
    }
    if (st->n_ladder == 0) {
        json_object_set_new(root, "comparisons", comparisons);
    } else {
        json_decref(comparisons);
        json_t *ladders = json_array();
        int seen[MAX_PLAYERS + 1] = {0};
        for (int s = 0; s < st->n_sets; s++) {
            const int n = lab_list_count(st->sets[s].players);
            if (n <= MAX_PLAYERS && !seen[n]++)
                json_array_append_new(ladders, ladder_json(st, rows, n));
        }
        json_object_set_new(root, "ladders", ladders);
    }
    return root;
}

Status lab_summary_write(const json_t *summary, const char *dir, ErrBuf *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    if (json_dump_file(summary, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                          JSON_REAL_PRECISION(6)) != 0)
        return err_set(err, STATUS_IO, "cannot write '%s'", path);
    return STATUS_OK;
}
