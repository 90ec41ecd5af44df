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

static void rate_cell(StrBuf *out, const json_t *rate)
{
    sb_printf(out, "<td>%.1f%% <small>(%.1f&ndash;%.1f)</small></td>", 100 * jnum(rate, "rate"),
              100 * jnum(rate, "lo"), 100 * jnum(rate, "hi"));
}

static void tally_rows(StrBuf *out, const json_t *list, const char *key)
{
    sb_printf(out, "<table><tr><th>%s</th><th>games</th><th>win</th><th>draw</th>"
                   "<th>shared win</th><th>loss</th><th>mean rank</th><th>mean score</th></tr>\n",
              key);
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

static void set_section(StrBuf *out, const json_t *set, int bin)
{
    sb_printf(out, "<h2>Set %lld: ", (long long)json_integer_value(json_object_get(set, "set")));
    html_text(out, jstr(set, "label"));
    sb_puts(out, "</h2>\n<p>rules: <code>");
    html_text(out, jstr(set, "rules")[0] ? jstr(set, "rules") : "(defaults)");
    sb_puts(out, "</code>, players: <code>");
    html_text(out, jstr(set, "players"));
    sb_printf(out, "</code>; %lld games played, %lld failed.</p>\n",
              (long long)json_integer_value(json_object_get(set, "games")),
              (long long)json_integer_value(json_object_get(set, "failed")));
    sb_puts(out, "<h3>By seat</h3>\n");
    tally_rows(out, json_object_get(set, "seats"), "seat");
    sb_puts(out, "<h3>By player</h3>\n");
    tally_rows(out, json_object_get(set, "by_player"), "player");
    sb_puts(out, "<h3>Why games ended</h3>\n<table><tr><th>reason</th><th>games</th>"
                 "<th>rate</th></tr>\n");
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
    if (json_array_size(json_object_get(set, "metrics")) > 0) {
        sb_puts(out, "<h3>The game's own figures</h3>\n<table><tr><th>figure</th><th>mean a "
                     "game</th><th>games with any</th><th>seats with any</th><th>mean by "
                     "seat</th><th>win rate of a seat with / without</th></tr>\n");
        json_array_foreach(json_object_get(set, "metrics"), i, r) {
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
    if (json_array_size(json_object_get(set, "setup_families")) > 0) {
        sb_puts(out, "<h3>By set-up family</h3>\n<table><tr><th>family</th><th>games</th>"
                     "<th>first seat wins</th><th>draws</th></tr>\n");
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
        sb_printf(out, "<h3>Length (actions)</h3>\n<table><tr><th>mean</th><th>sd</th>"
                       "<th>min</th><th>10%%</th><th>25%%</th><th>median</th><th>75%%</th>"
                       "<th>90%%</th><th>max</th><th>bin</th></tr>\n<tr>");
        static const char *const keys[] = {"mean", "sd", "min", "p10", "p25", "median", "p75",
                                           "p90", "max"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            sb_printf(out, "<td>%.1f</td>", jnum(len, keys[k]));
        sb_printf(out, "<td>%d</td></tr></table>\n", bin);
    }
}

static void comparisons_section(StrBuf *out, const json_t *list)
{
    if (json_array_size(list) == 0)
        return;
    sb_puts(out, "<h2>Against the baseline</h2>\n<p>Differences from set 1 with two-sided "
                 "p-values: two-proportion z-tests for rates, Welch's z for the mean length. "
                 "With many rows, expect a few p-values under 0.05 by chance alone.</p>\n"
                 "<table><tr><th>set</th><th>measure</th><th>baseline</th><th>this set</th>"
                 "<th>difference</th><th>p</th></tr>\n");
    size_t i, j;
    json_t *c, *r;
    json_array_foreach(list, i, c) {
        struct {
            const char *name;
            const json_t *d;
            bool percent;
        } rows[3] = {{"first seat wins", json_object_get(c, "first_seat_win"), true},
                     {"draws", json_object_get(c, "draw"), true},
                     {"mean length", json_object_get(c, "mean_length"), false}};
        for (int k = 0; k < 3; k++) {
            const double f = rows[k].percent ? 100 : 1;
            sb_puts(out, "<tr><td>");
            html_text(out, jstr(c, "label"));
            sb_printf(out, "</td><td>%s</td><td>%.1f</td><td>%.1f</td><td>%+.1f</td>"
                           "<td>%.3g</td></tr>\n",
                      rows[k].name, f * jnum(rows[k].d, "baseline"), f * jnum(rows[k].d, "this"),
                      f * jnum(rows[k].d, "difference"), jnum(rows[k].d, "p"));
        }
        json_array_foreach(json_object_get(c, "end_reasons"), j, r) {
            const json_t *d = json_object_get(r, "rate");
            if (jnum(d, "baseline") == 0 && jnum(d, "this") == 0)
                continue;
            sb_puts(out, "<tr><td>");
            html_text(out, jstr(c, "label"));
            sb_puts(out, "</td><td>ends by ");
            html_text(out, jstr(r, "reason"));
            sb_printf(out, " (%%)</td><td>%.1f</td><td>%.1f</td><td>%+.1f</td><td>%.3g</td></tr>\n",
                      100 * jnum(d, "baseline"), 100 * jnum(d, "this"),
                      100 * jnum(d, "difference"), jnum(d, "p"));
        }
    }
    sb_puts(out, "</table>\n");
}

static void ladder_section(StrBuf *out, const json_t *ladders)
{
    size_t i, j;
    json_t *l, *v;
    json_array_foreach(ladders, i, l) {
        sb_printf(out, "<h2>Elo ladder, %lld players</h2>\n",
                  (long long)json_integer_value(json_object_get(l, "players")));
        if (!json_is_true(json_object_get(l, "fitted")))
            sb_puts(out, "<p>The levels did not all meet, so no ladder could be fitted.</p>\n");
        sb_puts(out, "<table><tr><th>level</th><th>Elo</th><th>95% margin</th>"
                     "<th>pairings</th><th>score</th></tr>\n");
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

/* Appends the <svg> element of DIR/plots/NAME.svg; false when there is none. */
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
    const char *start = strstr(sb_str(&svg), "<svg");
    if (start)
        sb_printf(out, "<figure>%s</figure>\n", start);
    sb_free(&svg);
    return start != NULL;
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
    sb_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>");
    html_text(&h, jstr(summary, "game"));
    sb_printf(&h, " study</title>\n<style>%s</style></head><body>\n<h1>", STYLE);
    html_text(&h, jstr(summary, "game"));
    sb_printf(&h, ": a self-play study</h1>\n<p>%zu rule set%s, %lld games each (%lld in the "
                  "study); %lld games in these results, %lld played to the end. Seed %s. "
                  "Intervals are 95%% Wilson score intervals.</p>\n",
              json_array_size(sets), json_array_size(sets) == 1 ? "" : "s",
              (long long)json_integer_value(json_object_get(summary, "games_per_set")),
              (long long)json_integer_value(json_object_get(summary, "study_games")),
              (long long)json_integer_value(json_object_get(summary, "rows")),
              (long long)json_integer_value(json_object_get(summary, "played")),
              jstr(summary, "seed"));
    if (*plotted) {
        for (int p = 0; p < N_PLOTS; p++)
            embed_svg(&h, dir, PLOTS[p]);
    } else {
        sb_puts(&h, "<p><em>No plots: gnuplot could not be run (Debian package "
                    "gnuplot-nox).</em></p>\n");
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
