/*
 * weblog.c - the library's lines counted, summed up and rate-limited (weblog.h). The
 * routine lines are told apart by their opening words, which libmicrohttpd 0.9.75 keeps
 * fixed; every other line is keyed by its whole text, so that one message repeated is
 * written once a minute and a new one at once.
 */
#include "web/weblog.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum {
    WEBLOG_WINDOW_MS = 60 * 1000, /* a summary, or the same line, at most this often */
    WEBLOG_KEYS = 32,             /* distinct other lines remembered */
    WEBLOG_LINE = 200
};

/* The routine lines: what each means, in the summary's words; NULL for a line that is
 * not even summed up. The library says "Closing connection (application reported error
 * generating data)" whenever a tab leaves a game page: the server ends the event stream
 * whose client hung up that way (sse.c), and a player's terminal should not read it as
 * an error every time. */
static const struct {
    const char *prefix;
    const char *meaning;
} ROUTINE[] = {
    {"Closing connection (application", NULL},
    {"Server reached connection limit", "connections refused at --max-connections"},
    {"Connection reset by peer", "connections reset by their clients"},
    {"Failed to send data", "answers cut off by their clients"},
    {"Error receiving data", "requests cut off by their clients"},
    {"Failed to receive data", "requests cut off by their clients"},
};
enum { N_ROUTINE = sizeof ROUTINE / sizeof ROUTINE[0] };

typedef struct Other {
    char line[WEBLOG_LINE];
    int64_t written_ms; /* when last written */
    long held;          /* how often it came since, not written */
} Other;

struct WebLog {
    FILE *out;
    bool quiet;
    pthread_mutex_t lock;
    long routine[N_ROUTINE]; /* counts since the last summary */
    int64_t summary_ms;      /* when the window of those counts began */
    Other other[WEBLOG_KEYS];
    int n_other;
};

WebLog *weblog_new(FILE *out, bool quiet)
{
    WebLog *l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    l->out = out;
    l->quiet = quiet;
    l->summary_ms = -1;
    pthread_mutex_init(&l->lock, NULL);
    return l;
}

/* Writes the counts of the routine lines since the last summary and clears them. */
static void summarise(WebLog *l, int64_t now_ms)
{
    long any = 0;
    for (int i = 0; i < N_ROUTINE; i++)
        if (ROUTINE[i].meaning != NULL)
            any += l->routine[i];
    if (any > 0 && !l->quiet) {
        fprintf(l->out, "crown serve: in the last %lld s:", (long long)(now_ms - l->summary_ms + 999) / 1000);
        const char *sep = " ";
        for (int i = 0; i < N_ROUTINE; i++)
            if (l->routine[i] > 0 && ROUTINE[i].meaning != NULL) {
                fprintf(l->out, "%s%ld %s", sep, l->routine[i], ROUTINE[i].meaning);
                sep = "; ";
            }
        fputc('\n', l->out);
        fflush(l->out);
    }
    memset(l->routine, 0, sizeof l->routine);
    l->summary_ms = now_ms;
}

static void write_other(WebLog *l, Other *o, int64_t now_ms)
{
    if (o->held > 0)
        fprintf(l->out, "crown serve: %s (and %ld times more in the last %lld s)\n", o->line,
                o->held, (long long)(now_ms - o->written_ms + 999) / 1000);
    else
        fprintf(l->out, "crown serve: %s\n", o->line);
    fflush(l->out);
    o->held = 0;
    o->written_ms = now_ms;
}

void weblog_library(WebLog *l, const char *line, int64_t now_ms)
{
    if (l == NULL || line == NULL)
        return;
    char text[WEBLOG_LINE];
    snprintf(text, sizeof text, "%s", line);
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
        text[--n] = '\0';
    pthread_mutex_lock(&l->lock);
    if (l->summary_ms < 0)
        l->summary_ms = now_ms;
    int kind = -1;
    for (int i = 0; i < N_ROUTINE && kind < 0; i++)
        if (strncmp(text, ROUTINE[i].prefix, strlen(ROUTINE[i].prefix)) == 0)
            kind = i;
    if (kind >= 0) {
        l->routine[kind]++;
        if (now_ms - l->summary_ms >= WEBLOG_WINDOW_MS)
            summarise(l, now_ms);
    } else {
        Other *o = NULL;
        for (int i = 0; i < l->n_other && o == NULL; i++)
            if (strcmp(l->other[i].line, text) == 0)
                o = &l->other[i];
        if (o == NULL) {
            // A new line: remembered in a free place, else in the one written longest ago.
            int slot = 0;
            if (l->n_other < WEBLOG_KEYS)
                slot = l->n_other++;
            else
                for (int i = 1; i < WEBLOG_KEYS; i++)
                    if (l->other[i].written_ms < l->other[slot].written_ms)
                        slot = i;
            o = &l->other[slot];
            snprintf(o->line, sizeof o->line, "%s", text);
            o->held = 0;
            write_other(l, o, now_ms);
        } else if (now_ms - o->written_ms >= WEBLOG_WINDOW_MS) {
            write_other(l, o, now_ms);
        } else {
            o->held++;
        }
    }
    pthread_mutex_unlock(&l->lock);
}

void weblog_free(WebLog *l, int64_t now_ms)
{
    if (l == NULL)
        return;
    // The last window: what was counted and held back, so that nothing goes unsaid.
    summarise(l, now_ms);
    for (int i = 0; i < l->n_other; i++)
        if (l->other[i].held > 0)
            write_other(l, &l->other[i], now_ms);
    pthread_mutex_destroy(&l->lock);
    free(l);
}
