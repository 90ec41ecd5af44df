/*
 * tune_data.c - tuning positions in memory and on file (tune_data.h). States are kept
 * whole, as the game's evaluation reads them, in one growing block, so that a fit
 * evaluates them without parsing anything again.
 */
#include "play/tune_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "search/limits.h"

static const char MAGIC[] = "# crown tune data";

void tune_data_init(TuneData *d, const Game *g)
{
    memset(d, 0, sizeof *d);
    d->game = g;
}

void tune_data_free(TuneData *d)
{
    free(d->states);
    free(d->result);
    free(d->score);
    tune_data_init(d, d->game);
}

Status tune_data_add(TuneData *d, const GameState *s, double result, const int *score,
                     ErrBuf *err)
{
    const size_t size = d->game->state_size;
    if (d->count == d->cap) {
        const long cap = d->cap ? 2 * d->cap : 1024;
        unsigned char *states = realloc(d->states, (size_t)cap * size);
        if (states == NULL)
            return err_set(err, STATUS_NOMEM, "out of memory for %ld positions", cap);
        d->states = states;
        double *res = realloc(d->result, (size_t)cap * sizeof *res);
        if (res == NULL)
            return err_set(err, STATUS_NOMEM, "out of memory for %ld positions", cap);
        d->result = res;
        int *sc = realloc(d->score, (size_t)cap * sizeof *sc);
        if (sc == NULL)
            return err_set(err, STATUS_NOMEM, "out of memory for %ld positions", cap);
        d->score = sc;
        d->cap = cap;
    }
    memcpy(d->states + (size_t)d->count * size, s, size);
    d->score[d->count] = score != NULL ? *score : 0;
    d->scored += score != NULL;
    d->result[d->count++] = result;
    return STATUS_OK;
}

void tune_data_header(const Game *g, StrBuf *out)
{
    sb_printf(out, "%s\ngame %s\n", MAGIC, g->ops->name);
}

Status tune_data_line(const Game *g, const GameState *s, double result, const int *score,
                      StrBuf *out, ErrBuf *err)
{
    StrBuf text;
    sb_init(&text);
    g->ops->format_position(g, s, &text);
    Status st = STATUS_OK;
    if (sb_failed(&text))
        st = err_set(err, STATUS_NOMEM, "out of memory");
    else if (strpbrk(sb_str(&text), "\t\n\r") != NULL)
        st = err_set(err, STATUS_UNSUPPORTED,
                     "%s writes positions on several lines; tuning data needs one a line",
                     g->ops->name);
    else if (score != NULL)
        sb_printf(out, "%g\t%s\t%d\n", result, sb_str(&text), *score);
    else
        sb_printf(out, "%g\t%s\n", result, sb_str(&text));
    sb_free(&text);
    return st;
}

/* Reads one position line (no newline) into d. */
static Status read_line(TuneData *d, char *line, GameState *scratch, ErrBuf *err)
{
    char *tab = strchr(line, '\t');
    if (tab == NULL)
        return err_set(err, STATUS_PARSE, "expected a result, a tab and a position");
    *tab = '\0';
    char *end;
    errno = 0;
    const double r = strtod(line, &end);
    if (errno != 0 || end == line || *end != '\0' || !(r == 0 || r == 0.5 || r == 1))
        return err_set(err, STATUS_PARSE, "the result must be 1, 0.5 or 0, not '%s'", line);
    // A second tab starts the score; positions hold no tab (tune_data_line).
    char *score_text = strchr(tab + 1, '\t');
    int score = 0;
    if (score_text != NULL) {
        *score_text++ = '\0';
        errno = 0;
        const long v = strtol(score_text, &end, 10);
        if (errno != 0 || end == score_text || *end != '\0' || v <= -SCORE_WIN_BOUND ||
            v >= SCORE_WIN_BOUND)
            return err_set(err, STATUS_PARSE,
                           "the score must be a whole number of centi-units, not a forced "
                           "result, not '%s'",
                           score_text);
        score = (int)v;
    }
    const Game *g = d->game;
    ErrBuf perr;
    if (g->ops->parse_position(g, scratch, tab + 1, &perr) != STATUS_OK)
        return err_set(err, STATUS_PARSE, "bad position: %s", perr.msg);
    return tune_data_add(d, scratch, r, score_text != NULL ? &score : NULL, err);
}

Status tune_data_load(TuneData *d, const char *path, ErrBuf *err)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot open '%s': %s", path, strerror(errno));
    GameState *scratch = game_state_new(d->game);
    if (scratch == NULL) {
        fclose(f);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    char *line = NULL;
    size_t cap = 0;
    long number = 0;
    bool seen_game = false;
    Status st = STATUS_OK;
    ErrBuf why;
    ssize_t len;
    while (st == STATUS_OK && (len = getline(&line, &cap, f)) >= 0) {
        number++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (number == 1 && strcmp(line, MAGIC) != 0) {
            st = err_set(&why, STATUS_PARSE, "not a tuning data file (its first line is not '%s')",
                         MAGIC);
        } else if (len == 0 || line[0] == '#') {
            continue;
        } else if (strncmp(line, "game ", 5) == 0) {
            if (strcmp(line + 5, d->game->ops->name) != 0)
                st = err_set(&why, STATUS_PARSE, "positions of %s, not %s", line + 5,
                             d->game->ops->name);
            seen_game = true;
        } else if (!seen_game) {
            st = err_set(&why, STATUS_PARSE, "a position before the 'game NAME' line");
        } else {
            st = read_line(d, line, scratch, &why);
        }
    }
    if (st == STATUS_OK && ferror(f))
        st = err_set(err, STATUS_IO, "cannot read '%s': %s", path, strerror(errno));
    else if (st == STATUS_OK && number == 0)
        st = err_set(err, STATUS_PARSE, "%s: empty file, not tuning data", path);
    else if (st != STATUS_OK && st != STATUS_IO)
        st = err_set(err, st, "%s:%ld: %s", path, number, why.msg);
    free(line);
    free(scratch);
    fclose(f);
    if (st != STATUS_OK)
        tune_data_free(d);
    return st;
}
