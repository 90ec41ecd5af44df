/*
 * lab_report.c - the study report: tables from the summary, plots from gnuplot.
 *
 * gnuplot reads one script on its standard input, with the data inline, and writes one
 * SVG file per plot into DIR/plots/; the page embeds each file's <svg> element, so the
 * page alone is the whole report. The SVG terminal's output has no scripts and no
 * external references.
 */
#include "lab/lab_report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/strbuf.h"
#include "lab/lab_results.h"
#include "lab/lab_summary.h"

static const char *const PLOTS[] = {"win-rates", "lengths", "end-reasons", "ladder", "points"};
enum { N_PLOTS = (int)(sizeof PLOTS / sizeof PLOTS[0]) };

const char *lab_report_plot_name(int i)
{
    return i >= 0 && i < N_PLOTS ? PLOTS[i] : NULL;
}

enum { LAB_WHO = 600 };

static const char *jstr(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static double jnum(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

static void html_text(StrBuf *out, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': sb_puts(out, "&lt;"); break;
        case '>': sb_puts(out, "&gt;"); break;
        case '&': sb_puts(out, "&amp;"); break;
        case '"': sb_puts(out, "&quot;"); break;
        default: sb_putc(out, *s);
        }
}

/* A text as a gnuplot string in double quotes. */
static void gp_text(StrBuf *out, const char *s)
{
    sb_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_putc(out, '\\');
        sb_putc(out, *s == '\n' ? ' ' : *s);
    }
    sb_putc(out, '"');
}

/* The attributes that mark words as message KEY of the web app's catalogues
 * (data-i18n, and data-i18n-args with its placeholders' values): the web lab says them
 * in its reader's language (docs/I18N.md), a report read from disk stays English.
 * Takes args (may be NULL). */
static void mark(StrBuf *out, const char *key, json_t *args)
{
    sb_printf(out, " data-i18n=\"%s\"", key);
    if (args) {
        char *text = json_dumps(args, JSON_COMPACT | JSON_SORT_KEYS);
        sb_puts(out, " data-i18n-args=\"");
        html_text(out, text ? text : "{}");
        sb_putc(out, '"');
        free(text);
        json_decref(args);
    }
}

/* <TAG marked as KEY>English words</TAG>; takes args. */
static void say(StrBuf *out, const char *tag, const char *key, json_t *args, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void say(StrBuf *out, const char *tag, const char *key, json_t *args, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    sb_printf(out, "<%s", tag);
    mark(out, key, args);
    sb_putc(out, '>');
    html_text(out, text);
    sb_printf(out, "</%s>", tag);
}

/* A table's header row: each column's key and English name, or a symbol said the same
 * in every language (a NULL key). */
static void header_row(StrBuf *out, const char *const *cols, int n)
{
    sb_puts(out, "<table><tr>");
    for (int i = 0; i < n; i++) {
        if (cols[2 * i])
            say(out, "th", cols[2 * i], NULL, "%s", cols[2 * i + 1]);
        else
            sb_printf(out, "<th>%s</th>", cols[2 * i + 1]);
    }
    sb_puts(out, "</tr>\n");
}

static void rate_cell(StrBuf *out, const json_t *rate)
{
    sb_printf(out, "<td>%.1f%% <small>(%.1f&ndash;%.1f)</small></td>", 100 * jnum(rate, "rate"),
              100 * jnum(rate, "lo"), 100 * jnum(rate, "hi"));
}

static void tally_rows(StrBuf *out, const json_t *list, const char *key)
{
    const char *const cols[] = {strcmp(key, "seat") == 0 ? "report.col.seat" : "report.col.player",
                                key,
                                "report.col.games", "games", "report.col.win", "win",
                                "report.col.draw", "draw", "report.col.shared-win", "shared win",
                                "report.col.loss", "loss", "report.col.mean-rank", "mean rank",
                                "report.col.mean-score", "mean score"};
    header_row(out, cols, 8);
    size_t i;
    json_t *t;
    json_array_foreach(list, i, t) {
        const json_t *id = json_object_get(t, key);
        sb_puts(out, "<tr><td>");
        if (json_is_string(id))
            html_text(out, json_string_value(id));
        else
            sb_printf(out, "%lld", (long long)json_integer_value(id));
        sb_printf(out, "</td><td>%lld</td>", (long long)json_integer_value(json_object_get(t, "games")));
        rate_cell(out, json_object_get(t, "win"));
        rate_cell(out, json_object_get(t, "draw"));
        rate_cell(out, json_object_get(t, "shared_win"));
        rate_cell(out, json_object_get(t, "loss"));
        sb_printf(out, "<td>%.2f</td>", jnum(t, "mean_rank"));
        if (json_object_get(t, "mean_score"))
            sb_printf(out, "<td>%.2f</td></tr>\n", jnum(t, "mean_score"));
        else
            sb_puts(out, "<td>&ndash;</td></tr>\n");
    }
    sb_puts(out, "</table>\n");
}

static void metrics_table(StrBuf *out, const json_t *metrics)
{
    say(out, "h3", "report.figures", NULL, "The game's own figures");
    const char *const cols[] = {"report.col.figure", "figure", "report.col.mean-game",
                                "mean a game", "report.col.games-with", "games with any",
                                "report.col.seats-with", "seats with any",
                                "report.col.mean-by-seat", "mean by seat", "report.col.win-with",
                                "win rate of a seat with / without"};
    header_row(out, cols, 6);
    size_t i;
    json_t *r;
    json_array_foreach(metrics, i, r) {
        sb_puts(out, "<tr><td>");
        html_text(out, jstr(r, "metric"));
        sb_printf(out, "</td><td>%.2f</td>", jnum(r, "mean"));
        rate_cell(out, json_object_get(r, "games_with_rate"));
        if (json_is_true(json_object_get(r, "per_player"))) {
            size_t k;
            json_t *v;
            rate_cell(out, json_object_get(r, "seats_with"));
            sb_puts(out, "<td>");
            json_array_foreach(json_object_get(r, "mean_by_seat"), k, v)
                sb_printf(out, "%s%.2f", k ? " / " : "", json_number_value(v));
            sb_puts(out, "</td>");
            const json_t *w = json_object_get(r, "win_when_used");
            const json_t *wo = json_object_get(r, "win_when_unused");
            sb_printf(out, "<td>%.1f%% / %.1f%%</td></tr>\n", 100 * jnum(w, "rate"),
                      100 * jnum(wo, "rate"));
        } else {
            sb_puts(out, "<td>&ndash;</td><td>&ndash;</td><td>&ndash;</td></tr>\n");
        }
    }
    sb_puts(out, "</table>\n");
}

static void set_section(StrBuf *out, const json_t *set, int bin)
{
    const long long n = (long long)json_integer_value(json_object_get(set, "set"));
    const long long games = (long long)json_integer_value(json_object_get(set, "games"));
    const long long failed = (long long)json_integer_value(json_object_get(set, "failed"));
    say(out, "h2", "report.set.title", json_pack("{s:I, s:s}", "n", (json_int_t)n, "label",
                                                  jstr(set, "label")),
        "Set %lld: %s", n, jstr(set, "label"));
    sb_puts(out, "\n");
    if (jstr(set, "rules")[0])
        say(out, "p", "report.set.about",
            json_pack("{s:s, s:s, s:I, s:I}", "rules", jstr(set, "rules"), "players",
                      jstr(set, "players"), "games", (json_int_t)games, "failed",
                      (json_int_t)failed),
            "rules: %s, players: %s; %lld games played, %lld failed.", jstr(set, "rules"),
            jstr(set, "players"), games, failed);
    else
        say(out, "p", "report.set.about-defaults",
            json_pack("{s:s, s:I, s:I}", "players", jstr(set, "players"), "games",
                      (json_int_t)games, "failed", (json_int_t)failed),
            "rules: the defaults, players: %s; %lld games played, %lld failed.",
            jstr(set, "players"), games, failed);
    sb_puts(out, "\n");
    say(out, "h3", "report.by-seat", NULL, "By seat");
    tally_rows(out, json_object_get(set, "seats"), "seat");
    say(out, "h3", "report.by-player", NULL, "By player");
    tally_rows(out, json_object_get(set, "by_player"), "player");
    say(out, "h3", "report.why-ended", NULL, "Why games ended");
    const char *const why_cols[] = {"report.col.reason", "reason", "report.col.games", "games",
                                    "report.col.rate", "rate"};
    header_row(out, why_cols, 3);
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(set, "end_reasons"), i, r) {
        sb_puts(out, "<tr><td>");
        html_text(out, jstr(r, "reason"));
        sb_printf(out, "</td><td>%lld</td>", (long long)json_integer_value(json_object_get(r, "count")));
        rate_cell(out, json_object_get(r, "rate"));
        sb_puts(out, "</tr>\n");
    }
    sb_puts(out, "</table>\n");
    if (json_array_size(json_object_get(set, "metrics")) > 0)
        metrics_table(out, json_object_get(set, "metrics"));
    if (json_array_size(json_object_get(set, "setup_families")) > 0) {
        say(out, "h3", "report.by-family", NULL, "By set-up family");
        const char *const cols[] = {"report.col.family", "family", "report.col.games", "games",
                                    "report.first-seat-wins", "first seat wins", "report.draws",
                                    "draws"};
        header_row(out, cols, 4);
        json_array_foreach(json_object_get(set, "setup_families"), i, r) {
            sb_puts(out, "<tr><td>");
            html_text(out, jstr(r, "family"));
            sb_printf(out, "</td><td>%lld</td>",
                      (long long)json_integer_value(json_object_get(r, "games")));
            rate_cell(out, json_object_get(r, "first_seat_win"));
            rate_cell(out, json_object_get(r, "draw"));
            sb_puts(out, "</tr>\n");
        }
        sb_puts(out, "</table>\n");
    }
    const json_t *len = json_object_get(set, "length");
    if (json_object_get(len, "mean")) {
        say(out, "h3", "report.length", NULL, "Length (actions)");
        const char *const cols[] = {"report.col.mean", "mean", "report.col.sd", "sd",
                                    "report.col.min", "min", NULL, "10%", NULL, "25%",
                                    "report.col.median", "median", NULL, "75%", NULL, "90%",
                                    "report.col.max", "max", "report.col.bin", "bin"};
        header_row(out, cols, 10);
        sb_puts(out, "<tr>");
        static const char *const keys[] = {"mean", "sd", "min", "p10", "p25", "median", "p75",
                                           "p90", "max"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            sb_printf(out, "<td>%.1f</td>", jnum(len, keys[k]));
        sb_printf(out, "<td>%d</td></tr></table>\n", bin);
    }
}

/* A comparison's row: the set, what is measured (marked as key, its English words), the
 * figures. Takes args. */
static void comparison_row(StrBuf *out, const json_t *c, const char *key, json_t *args,
                           const char *words, const json_t *d, double f)
{
    sb_puts(out, "<tr><td>");
    html_text(out, jstr(c, "label"));
    sb_puts(out, "</td>");
    say(out, "td", key, args, "%s", words);
    sb_printf(out, "<td>%.1f</td><td>%.1f</td><td>%+.1f</td><td>%.3g</td></tr>\n",
              f * jnum(d, "baseline"), f * jnum(d, "this"), f * jnum(d, "difference"),
              jnum(d, "p"));
}

static void comparisons_section(StrBuf *out, const json_t *list)
{
    if (json_array_size(list) == 0)
        return;
    say(out, "h2", "report.baseline.title", NULL, "Against the baseline");
    say(out, "p", "report.baseline.about", NULL,
        "Differences from set 1 with two-sided p-values: two-proportion z-tests for rates, "
        "Welch's z for the mean length. With many rows, expect a few p-values under 0.05 by "
        "chance alone.");
    const char *const cols[] = {"report.col.set", "set", "report.col.measure", "measure",
                                "report.col.baseline", "baseline", "report.col.this", "this set",
                                "report.col.difference", "difference", NULL, "p"};
    header_row(out, cols, 6);
    size_t i, j;
    json_t *c, *r;
    json_array_foreach(list, i, c) {
        comparison_row(out, c, "report.first-seat-wins", NULL, "first seat wins",
                       json_object_get(c, "first_seat_win"), 100);
        comparison_row(out, c, "report.draws", NULL, "draws", json_object_get(c, "draw"), 100);
        comparison_row(out, c, "report.mean-length", NULL, "mean length",
                       json_object_get(c, "mean_length"), 1);
        json_array_foreach(json_object_get(c, "end_reasons"), j, r) {
            const json_t *d = json_object_get(r, "rate");
            if (jnum(d, "baseline") == 0 && jnum(d, "this") == 0)
                continue;
            char words[256];
            snprintf(words, sizeof words, "ends by %s (%%)", jstr(r, "reason"));
            comparison_row(out, c, "report.ends-by", json_pack("{s:s}", "reason", jstr(r, "reason")),
                           words, d, 100);
        }
    }
    sb_puts(out, "</table>\n");
}

static void ladder_section(StrBuf *out, const json_t *ladders)
{
    size_t i, j;
    json_t *l, *v;
    json_array_foreach(ladders, i, l) {
        const long long players = (long long)json_integer_value(json_object_get(l, "players"));
        say(out, "h2", "report.ladder.title", json_pack("{s:I}", "count", (json_int_t)players),
            "Elo ladder, %lld players", players);
        sb_puts(out, "\n");
        if (!json_is_true(json_object_get(l, "fitted")))
            say(out, "p", "report.ladder.unfitted", NULL,
                "The levels did not all meet, so no ladder could be fitted.");
        const char *const cols[] = {"report.col.level", "level", NULL, "Elo",
                                    "report.col.margin", "95% margin", "report.col.pairings",
                                    "pairings", "report.col.score", "score"};
        header_row(out, cols, 5);
        json_array_foreach(json_object_get(l, "levels"), j, v)
            sb_printf(out, "<tr><td>ai:%lld</td><td>%+.0f</td><td>&plusmn;%.0f</td><td>%lld</td>"
                           "<td>%.1f%%</td></tr>\n",
                      (long long)json_integer_value(json_object_get(v, "level")), jnum(v, "elo"),
                      jnum(v, "margin"), (long long)json_integer_value(json_object_get(v, "pairings")),
                      100 * jnum(v, "score"));
        sb_puts(out, "</table>\n");
    }
}

/* A path as a gnuplot string in single quotes, where a quote is doubled. */
static void gp_path(StrBuf *out, const char *dir, const char *name)
{
    sb_putc(out, '\'');
    for (const char *s = dir; *s; s++) {
        if (*s == '\'')
            sb_putc(out, '\'');
        sb_putc(out, *s);
    }
    sb_printf(out, "/plots/%s.svg'", name);
}

static void plot_win_rates(StrBuf *gp, const json_t *sets, const char *dir)
{
    const size_t n = json_array_size(sets);
    size_t i, k;
    json_t *set, *seat;
    sb_puts(gp, "reset\nset terminal svg size 760,360 dynamic font 'sans,11'\nset output ");
    gp_path(gp, dir, PLOTS[0]);
    sb_printf(gp, "\nset title 'Win rate by seat, 95%% intervals'\nset yrange [0:1]\n"
                  "set xrange [0.5:%zu.5]\nset key outside right\nset grid ytics\n"
                  "set xtics rotate by -30 noenhanced\nset xtics (",
              n);
    json_array_foreach(sets, i, set) {
        sb_printf(gp, "%s", i ? ", " : "");
        gp_text(gp, jstr(set, "label"));
        sb_printf(gp, " %zu", i + 1);
    }
    sb_puts(gp, ")\n$win << EOD\n");
    size_t seats = 0;
    json_array_foreach(sets, i, set)
        seats = json_array_size(json_object_get(set, "seats")) > seats
                    ? json_array_size(json_object_get(set, "seats"))
                    : seats;
    for (k = 0; k < seats; k++) {
        json_array_foreach(sets, i, set) {
            seat = json_array_get(json_object_get(set, "seats"), k);
            if (seat == NULL)
                continue;
            const json_t *w = json_object_get(seat, "win");
            sb_printf(gp, "%.4f %.6f %.6f %.6f\n",
                      (double)(i + 1) + 0.12 * ((double)k - (double)(seats - 1) / 2), jnum(w, "rate"),
                      jnum(w, "lo"), jnum(w, "hi"));
        }
        sb_puts(gp, "\n\n");
    }
    sb_puts(gp, "EOD\nplot ");
    for (k = 0; k < seats; k++)
        sb_printf(gp, "%s$win index %zu using 1:2:3:4 with yerrorbars pt 7 title 'seat %zu'",
                  k ? ", " : "", k, k + 1);
    sb_puts(gp, "\n");
}

static void plot_lengths(StrBuf *gp, const json_t *sets, int bin, const char *dir)
{
    size_t i, b;
    json_t *set, *c;
    sb_puts(gp, "reset\nset terminal svg size 760,360 dynamic font 'sans,11'\nset output ");
    gp_path(gp, dir, PLOTS[1]);
    sb_puts(gp, "\nset title 'Game length (actions)'\nset ylabel 'share of games'\n"
                "set key outside right noenhanced\nset grid\n$len << EOD\n");
    json_array_foreach(sets, i, set) {
        const json_t *hist = json_object_get(json_object_get(set, "length"), "histogram");
        const double n = (double)json_integer_value(json_object_get(set, "games"));
        json_array_foreach(hist, b, c)
            sb_printf(gp, "%zu %.6f\n", b * (size_t)bin, n > 0 ? (double)json_integer_value(c) / n : 0);
        sb_printf(gp, "%zu 0\n\n\n", json_array_size(hist) * (size_t)bin);
    }
    sb_puts(gp, "EOD\nplot ");
    json_array_foreach(sets, i, set) {
        sb_printf(gp, "%s$len index %zu using 1:2 with steps lw 2 title ", i ? ", " : "", i);
        gp_text(gp, jstr(set, "label"));
    }
    sb_puts(gp, "\n");
}

static void plot_end_reasons(StrBuf *gp, const json_t *summary, const char *dir)
{
    const json_t *sets = json_object_get(summary, "sets");
    const json_t *keys = json_object_get(summary, "end_reasons");
    size_t i, k;
    json_t *set, *key;
    sb_puts(gp, "reset\nset terminal svg size 760,360 dynamic font 'sans,11'\nset output ");
    gp_path(gp, dir, PLOTS[2]);
    sb_puts(gp, "\nset title 'Why games ended'\nset ylabel 'share of games'\nset yrange [0:1]\n"
                "set style data histograms\nset style histogram rowstacked\n"
                "set style fill solid 0.8 border -1\nset boxwidth 0.7\nset key outside right "
                "noenhanced\nset xtics rotate by -30 noenhanced\n$why << EOD\nset");
    json_array_foreach(keys, k, key) {
        sb_putc(gp, ' ');
        gp_text(gp, json_string_value(key));
    }
    sb_putc(gp, '\n');
    json_array_foreach(sets, i, set) {
        gp_text(gp, jstr(set, "label"));
        json_array_foreach(json_object_get(set, "end_reasons"), k, key)
            sb_printf(gp, " %.6f", jnum(json_object_get(key, "rate"), "rate"));
        sb_putc(gp, '\n');
    }
    sb_printf(gp, "EOD\nplot for [i=2:%zu] $why using i:xtic(1) title columnheader(i)\n",
              json_array_size(keys) + 1);
}

static void plot_ladder(StrBuf *gp, const json_t *ladders, const char *dir)
{
    size_t i, j;
    json_t *l, *v;
    sb_puts(gp, "reset\nset terminal svg size 760,360 dynamic font 'sans,11'\nset output ");
    gp_path(gp, dir, PLOTS[3]);
    sb_puts(gp, "\nset title 'Elo by level, 95% margins (first level at 0)'\nset xlabel 'level'\n"
                "set ylabel 'Elo'\nset grid\nset key outside right\nset xrange [0.5:10.5]\n"
                "$elo << EOD\n");
    json_array_foreach(ladders, i, l) {
        json_array_foreach(json_object_get(l, "levels"), j, v)
            sb_printf(gp, "%.3f %.3f %.3f\n",
                      (double)json_integer_value(json_object_get(v, "level")) + 0.08 * (double)i,
                      jnum(v, "elo"), jnum(v, "margin"));
        sb_puts(gp, "\n\n");
    }
    sb_puts(gp, "EOD\nplot ");
    json_array_foreach(ladders, i, l)
        sb_printf(gp, "%s$elo index %zu using 1:2:3 with yerrorlines pt 7 title '%lld players'",
                  i ? ", " : "", i, (long long)json_integer_value(json_object_get(l, "players")));
    sb_puts(gp, "\n");
}

static bool is_points(const json_t *metric)
{
    return strncmp(jstr(metric, "metric"), "points-", 7) == 0 &&
           json_is_true(json_object_get(metric, "per_player"));
}

/* The score-source stacks: per set and player, the mean points from each source (the
 * game's per-player figures named points-*). False when the game has none. */
static bool plot_points(StrBuf *gp, const json_t *sets, const char *dir)
{
    const json_t *first = json_object_get(json_array_get(sets, 0), "metrics");
    size_t i, k, m;
    json_t *set, *metric, *v;
    int sources = 0;
    json_array_foreach(first, m, metric)
        sources += is_points(metric);
    if (sources == 0)
        return false;
    sb_puts(gp, "reset\nset terminal svg size 760,400 dynamic font 'sans,11'\nset output ");
    gp_path(gp, dir, PLOTS[4]);
    sb_puts(gp, "\nset title 'Mean points by source, per player'\nset ylabel 'points'\n"
                "set style data histograms\nset style histogram rowstacked\n"
                "set style fill solid 0.8 border -1\nset boxwidth 0.7\nset key outside right "
                "noenhanced\nset xtics rotate by -30 noenhanced\n$pts << EOD\nwho");
    json_array_foreach(first, m, metric)
        if (is_points(metric)) {
            sb_putc(gp, ' ');
            gp_text(gp, jstr(metric, "metric") + 7);
        }
    sb_putc(gp, '\n');
    json_array_foreach(sets, i, set) {
        const json_t *players = json_object_get(set, "by_player");
        for (k = 0; k < json_array_size(players); k++) {
            char who[LAB_WHO];
            snprintf(who, sizeof who, "%s%s%s", json_array_size(sets) > 1 ? jstr(set, "label") : "",
                     json_array_size(sets) > 1 ? ": " : "",
                     jstr(json_array_get(players, k), "player"));
            gp_text(gp, who);
            json_array_foreach(json_object_get(set, "metrics"), m, metric) {
                if (!is_points(metric))
                    continue;
                v = json_array_get(json_object_get(metric, "mean_by_player"), k);
                sb_printf(gp, " %.4f", json_number_value(v));
            }
            sb_putc(gp, '\n');
        }
    }
    sb_printf(gp, "EOD\nplot for [i=2:%d] $pts using i:xtic(1) title columnheader(i)\n",
              sources + 1);
    return true;
}

/* Runs gnuplot on the script; true when it ran and succeeded. */
static bool run_gnuplot(const char *script)
{
    FILE *p = popen("gnuplot 2>/dev/null", "w");
    if (p == NULL)
        return false;
    fputs(script, p);
    const int rc = pclose(p);
    return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

/* The plots' own words (their titles, axes and keys, as the scripts above write them)
 * and their messages. */
static const char *const PLOT_WORDS[][2] = {
    {"Win rate by seat, 95% intervals", "report.plot.win-rates"},
    {"Game length (actions)", "report.plot.lengths"},
    {"share of games", "report.plot.share"},
    {"Why games ended", "report.why-ended"},
    {"Elo by level, 95% margins (first level at 0)", "report.plot.ladder"},
    {"level", "report.col.level"},
    {"Mean points by source, per player", "report.plot.points"},
    {"points", "report.plot.points-axis"},
};

/* Marks a plot's text (gnuplot's <tspan ...>TEXT</tspan>) that is one of the plots' own
 * words; a set's label or a figure's name is left as it is. */
static void mark_plot_text(StrBuf *out, const char *text, size_t n)
{
    char t[128];
    if (n >= sizeof t)
        return;
    memcpy(t, text, n);
    t[n] = '\0';
    for (size_t i = 0; i < sizeof PLOT_WORDS / sizeof PLOT_WORDS[0]; i++)
        if (strcmp(t, PLOT_WORDS[i][0]) == 0) {
            mark(out, PLOT_WORDS[i][1], NULL);
            return;
        }
    int k = 0, end = 0;
    if (sscanf(t, "seat %d%n", &k, &end) == 1 && t[end] == '\0')
        mark(out, "report.plot.seat", json_pack("{s:i}", "n", k));
    else if (sscanf(t, "%d players%n", &k, &end) == 1 && t[end] == '\0')
        mark(out, "report.plot.players", json_pack("{s:i}", "count", k));
}

/* Appends the <svg> element of DIR/plots/NAME.svg, its own words marked; false when
 * there is none. */
static bool embed_svg(StrBuf *out, const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/plots/%s.svg", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    StrBuf svg;
    sb_init(&svg);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
        buf[n] = '\0';
        sb_puts(&svg, buf);
    }
    fclose(f);
    const char *p = strstr(sb_str(&svg), "<svg");
    if (p) {
        sb_puts(out, "<figure>");
        for (;;) {
            const char *tag = strstr(p, "<tspan");
            const char *gt = tag ? strchr(tag, '>') : NULL;
            const char *close = gt ? strstr(gt, "</tspan>") : NULL;
            if (close == NULL) {
                sb_puts(out, p);
                break;
            }
            sb_printf(out, "%.*s", (int)(gt - p), p);
            mark_plot_text(out, gt + 1, (size_t)(close - gt - 1));
            p = gt;
        }
        sb_puts(out, "</figure>\n");
    }
    sb_free(&svg);
    return p != NULL;
}

static const char STYLE[] =
    "body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#222}"
    "table{border-collapse:collapse;margin:.5rem 0 1rem}td,th{border:1px solid #ccc;"
    "padding:.2rem .5rem;text-align:right}th{background:#f3f3f3}td:first-child{text-align:left}"
    "small{color:#666}figure{margin:1rem 0}svg{max-width:100%;height:auto}code{background:#f3f3f3}";

Status lab_report_write(const json_t *summary, const char *dir, bool *plotted, ErrBuf *err)
{
    const json_t *sets = json_object_get(summary, "sets");
    const json_t *ladders = json_object_get(summary, "ladders");
    const int bin = (int)json_integer_value(json_object_get(summary, "length_bin"));
    char path[4096];
    snprintf(path, sizeof path, "%s/plots", dir);
    *plotted = false;
    if (mkdir(path, 0777) == 0 || errno == EEXIST) {
        // A plot this study does not draw must not linger from an earlier one.
        for (int p = 0; p < N_PLOTS; p++) {
            char old[4200];
            snprintf(old, sizeof old, "%s/%s.svg", path, PLOTS[p]);
            unlink(old);
        }
        StrBuf gp;
        sb_init(&gp);
        plot_win_rates(&gp, sets, dir);
        plot_lengths(&gp, sets, bin > 0 ? bin : 1, dir);
        plot_end_reasons(&gp, summary, dir);
        if (json_array_size(ladders) > 0)
            plot_ladder(&gp, ladders, dir);
        plot_points(&gp, sets, dir);
        *plotted = run_gnuplot(sb_str(&gp));
        sb_free(&gp);
    }
    StrBuf h;
    sb_init(&h);
    const char *game = jstr(summary, "game");
    sb_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    say(&h, "title", "report.title", json_pack("{s:s}", "game", game), "%s study", game);
    sb_printf(&h, "\n<style>%s</style></head><body>\n", STYLE);
    say(&h, "h1", "report.heading", json_pack("{s:s}", "game", game), "%s: a self-play study",
        game);
    const size_t n_sets = json_array_size(sets);
    const json_int_t each = json_integer_value(json_object_get(summary, "games_per_set"));
    const json_int_t study = json_integer_value(json_object_get(summary, "study_games"));
    const json_int_t rows = json_integer_value(json_object_get(summary, "rows"));
    const json_int_t played = json_integer_value(json_object_get(summary, "played"));
    sb_puts(&h, "\n<p>");
    say(&h, "span", "report.intro",
        json_pack("{s:I, s:I, s:I, s:I, s:I}", "count", (json_int_t)n_sets, "each", each,
                  "study", study, "rows", rows, "played", played),
        "%zu rule set%s, %lld games each (%lld in the study); %lld games in these results, "
        "%lld played to the end.",
        n_sets, n_sets == 1 ? "" : "s", (long long)each, (long long)study, (long long)rows,
        (long long)played);
    sb_puts(&h, " ");
    say(&h, "span", "report.seed", json_pack("{s:s}", "seed", jstr(summary, "seed")),
        "Seed %s. Intervals are 95%% Wilson score intervals.", jstr(summary, "seed"));
    sb_puts(&h, "</p>\n");
    if (*plotted) {
        for (int p = 0; p < N_PLOTS; p++)
            embed_svg(&h, dir, PLOTS[p]);
    } else {
        sb_puts(&h, "<p><em");
        mark(&h, "report.no-plots", NULL);
        sb_puts(&h, ">No plots: gnuplot could not be run (Debian package gnuplot-nox).</em>"
                    "</p>\n");
    }
    comparisons_section(&h, json_object_get(summary, "comparisons"));
    ladder_section(&h, ladders);
    size_t i;
    json_t *set;
    json_array_foreach(sets, i, set)
        set_section(&h, set, bin);
    sb_puts(&h, "</body></html>\n");
    snprintf(path, sizeof path, "%s/report.html", dir);
    FILE *f = fopen(path, "w");
    Status s = STATUS_OK;
    if (f == NULL || fputs(sb_str(&h), f) == EOF)
        s = err_set(err, STATUS_IO, "cannot write '%s'", path);
    if (f && fclose(f) != 0 && s == STATUS_OK)
        s = err_set(err, STATUS_IO, "error writing '%s'", path);
    sb_free(&h);
    return s;
}

Status lab_report_study(LabStudy *st, const char *dir, long *games, long *failed, bool *plotted,
                        ErrBuf *err)
{
    LabRows rows = {0};
    *games = *failed = 0;
    *plotted = true;
    Status s;
    if ((s = lab_study_load(st, dir, err)) != STATUS_OK ||
        (s = lab_results_read(st, dir, &rows, err)) != STATUS_OK ||
        (s = lab_rows_sort(&rows, err)) != STATUS_OK) {
        lab_rows_free(&rows);
        return s;
    }
    json_t *summary = lab_summary_build(st, &rows);
    // A shard's report would show a share of the study; the merge draws the whole one.
    if (summary == NULL)
        s = err_set(err, STATUS_NOMEM, "out of memory");
    else if ((s = lab_summary_write(summary, dir, err)) == STATUS_OK && st->shards == 1)
        s = lab_report_write(summary, dir, plotted, err);
    json_decref(summary);
    *games = rows.count;
    for (long i = 0; i < rows.count; i++)
        *failed += rows.row[i].failed;
    lab_rows_free(&rows);
    return s;
}
