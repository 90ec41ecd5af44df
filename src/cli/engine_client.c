/*
 * engine_client.c - outside engines over pipes (engine_client.h). The pipes are made
 * close-on-exec so that engines started by other match threads do not inherit them;
 * reads wait in poll with what is left of the deadline, so no engine can stall the
 * runner; a write to a dead engine fails with EPIPE (the command ignores SIGPIPE).
 */
#define _GNU_SOURCE
#include "cli/engine_client.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/protocol_moves.h"
#include "core/clock.h"
#include "core/game_api.h"

extern char **environ;

enum {
    MAX_ARGS = 32,
    QUIT_GRACE_MS = 300, /* time to exit after `quit` before it is killed */
};

void engine_client_init(EngineClient *e, const char *spec, const EngineOption *options,
                        int n_options)
{
    memset(e, 0, sizeof *e);
    snprintf(e->spec, sizeof e->spec, "%s", spec);
    e->ugi = strncmp(spec, "ugi:", 4) == 0;
    e->options = options;
    e->n_options = n_options;
    e->to_engine = e->from_engine = -1;
}

/* Whether the process has ended (and is reaped); its status in words into why. */
static bool has_exited(EngineClient *e, char *why, size_t cap)
{
    int status;
    if (e->pid <= 0 || waitpid(e->pid, &status, WNOHANG) != e->pid)
        return false;
    if (WIFEXITED(status))
        snprintf(why, cap, "exited with status %d", WEXITSTATUS(status));
    else
        snprintf(why, cap, "was killed by signal %d", WTERMSIG(status));
    e->pid = 0;
    return true;
}

void engine_client_close(EngineClient *e)
{
    if (e->to_engine >= 0) {
        static const char quit[] = "quit\n";
        ssize_t w = write(e->to_engine, quit, sizeof quit - 1);
        (void)w;
        close(e->to_engine);
    }
    if (e->from_engine >= 0)
        close(e->from_engine);
    e->to_engine = e->from_engine = -1;
    char why[64];
    const int64_t until = clock_ms() + QUIT_GRACE_MS;
    while (e->pid > 0 && !has_exited(e, why, sizeof why) && clock_ms() < until)
        usleep(5000);
    if (e->pid > 0) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, NULL, 0);
        e->pid = 0;
    }
    e->len = 0;
    e->broken = false;
}

static Status write_all(EngineClient *e, const char *p, size_t left, ErrBuf *err)
{
    while (left > 0) {
        ssize_t w = write(e->to_engine, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            e->broken = true;
            char why[64] = "closed its input";
            has_exited(e, why, sizeof why);
            return err_set(err, STATUS_IO, "%s %s", e->spec, why);
        }
        p += w;
        left -= (size_t)w;
    }
    return STATUS_OK;
}

/* One command line: text, then its newline. */
static Status send_line(EngineClient *e, ErrBuf *err, const char *text)
{
    Status st = write_all(e, text, strlen(text), err);
    return st == STATUS_OK ? write_all(e, "\n", 1, err) : st;
}

/* The next line from the engine into out (NUL-terminated, without the newline), waiting
 * until the absolute time `until` (clock_ms) at most. */
static Status read_line(EngineClient *e, int64_t until, char *out, size_t cap, ErrBuf *err)
{
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl != NULL || e->len == sizeof e->buf) {
            size_t n = nl ? (size_t)(nl - e->buf) : e->len;
            size_t keep = n < cap ? n : cap - 1;
            memcpy(out, e->buf, keep);
            out[keep] = '\0';
            if (keep > 0 && out[keep - 1] == '\r')
                out[keep - 1] = '\0';
            size_t used = nl ? n + 1 : n;
            memmove(e->buf, e->buf + used, e->len - used);
            e->len -= used;
            return STATUS_OK;
        }
        const int64_t wait = until - clock_ms();
        if (wait <= 0) {
            e->broken = true;
            return err_set(err, STATUS_IO, "time-out");
        }
        struct pollfd pfd = {.fd = e->from_engine, .events = POLLIN};
        int r = poll(&pfd, 1, wait > 1000000 ? 1000000 : (int)wait);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            continue; /* the deadline is looked at again above */
        ssize_t got = read(e->from_engine, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            e->broken = true;
            char why[64] = "closed its output";
            const int64_t reap = clock_ms() + 100;
            while (!has_exited(e, why, sizeof why) && e->pid > 0 && clock_ms() < reap)
                usleep(2000);
            return err_set(err, STATUS_IO, "%s %s", e->spec, why);
        }
        e->len += (size_t)got;
    }
}

/* Reads lines until one starting with the word `want` (copied to line) or the time. */
static Status wait_for(EngineClient *e, const char *want, int64_t until, char *line,
                       size_t cap, ErrBuf *err)
{
    const size_t wl = strlen(want);
    for (;;) {
        ErrBuf e2;
        if (read_line(e, until, line, cap, &e2) != STATUS_OK) {
            if (strcmp(e2.msg, "time-out") == 0)
                return err_set(err, STATUS_IO, "%s gave no '%s' in time", e->spec, want);
            return err_set(err, STATUS_IO, "%s", e2.msg);
        }
        if (strncmp(line, want, wl) == 0 && (line[wl] == '\0' || line[wl] == ' '))
            return STATUS_OK;
        if (strncmp(line, "id name ", 8) == 0)
            snprintf(e->name, sizeof e->name, "%s", line + 8);
    }
}

static Status start(EngineClient *e, ErrBuf *err)
{
    char words[sizeof e->spec];
    snprintf(words, sizeof words, "%s", e->spec + 4);
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    char *save = NULL;
    for (char *t = strtok_r(words, " \t", &save); t && argc < MAX_ARGS;
         t = strtok_r(NULL, " \t", &save))
        argv[argc++] = t;
    argv[argc] = NULL;
    if (argc == 0)
        return err_set(err, STATUS_PARSE, "'%s' names no command", e->spec);
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0)
        return err_set(err, STATUS_IO, "%s: pipe: %s", e->spec, strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return err_set(err, STATUS_IO, "%s: pipe: %s", e->spec, strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        return err_set(err, STATUS_IO, "%s: cannot start '%s': %s", e->spec, argv[0],
                       strerror(rc));
    }
    e->pid = pid;
    e->to_engine = in[1];
    e->from_engine = out[0];
    e->len = 0;
    e->broken = false;
    char line[ENGINE_LINE_CAP];
    Status st = send_line(e, err, e->ugi ? "ugi" : "uci");
    if (st == STATUS_OK)
        st = wait_for(e, e->ugi ? "ugiok" : "uciok", clock_ms() + ENGINE_HANDSHAKE_MS, line,
                      sizeof line, err);
    for (int i = 0; st == STATUS_OK && i < e->n_options; i++) {
        StrBuf opt;
        sb_init(&opt);
        sb_printf(&opt, "setoption name %s value %s", e->options[i].name, e->options[i].value);
        st = send_line(e, err, sb_str(&opt));
        sb_free(&opt);
    }
    return st;
}

Status engine_client_new_game(EngineClient *e, ErrBuf *err)
{
    char line[ENGINE_LINE_CAP];
    char why[64];
    if (e->pid > 0 && !e->broken && !has_exited(e, why, sizeof why)) {
        Status st = send_line(e, err, e->ugi ? "uginewgame" : "ucinewgame");
        if (st == STATUS_OK)
            st = send_line(e, err, "isready");
        if (st == STATUS_OK &&
            wait_for(e, "readyok", clock_ms() + ENGINE_HANDSHAKE_MS, line, sizeof line,
                     err) == STATUS_OK)
            return STATUS_OK;
    }
    // Not started yet, dead, or it failed the last time: a fresh process.
    engine_client_close(e);
    Status st = start(e, err);
    if (st == STATUS_OK)
        st = send_line(e, err, e->ugi ? "uginewgame" : "ucinewgame");
    if (st == STATUS_OK)
        st = send_line(e, err, "isready");
    if (st == STATUS_OK)
        st = wait_for(e, "readyok", clock_ms() + ENGINE_HANDSHAKE_MS, line, sizeof line, err);
    if (st != STATUS_OK)
        engine_client_close(e);
    return st;
}

Status engine_client_go(EngineClient *e, const Game *g, const GameState *start_pos,
                        const Move *acts, int n, const char *go_args, int64_t timeout_ms,
                        StrBuf *move, ErrBuf *err)
{
    if (e->pid <= 0 || e->broken)
        return err_set(err, STATUS_IO, "%s is not running", e->spec);
    StrBuf cmd, text, initial;
    sb_init(&cmd);
    sb_init(&text);
    sb_init(&initial);
    GameState *fresh = game_state_new(g);
    if (fresh == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    g->ops->new_game(g, fresh, 0);
    g->ops->format_position(g, fresh, &initial);
    g->ops->format_position(g, start_pos, &text);
    free(fresh);
    if (strcmp(sb_str(&initial), sb_str(&text)) == 0)
        sb_puts(&cmd, "position startpos");
    else
        sb_printf(&cmd, "position fen %s", sb_str(&text));
    if (n > 0) {
        sb_puts(&cmd, " moves ");
        protocol_write_line(e->ugi ? protocol_write_ugi_move : protocol_write_uci_move, g,
                            start_pos, acts, n, &cmd);
    }
    Status st = send_line(e, err, sb_str(&cmd));
    sb_clear(&cmd);
    sb_printf(&cmd, "go %s", go_args);
    if (st == STATUS_OK)
        st = send_line(e, err, sb_str(&cmd));
    sb_free(&cmd);
    sb_free(&text);
    sb_free(&initial);
    if (st != STATUS_OK)
        return st;
    char line[ENGINE_LINE_CAP];
    ErrBuf e2;
    if (wait_for(e, "bestmove", clock_ms() + timeout_ms, line, sizeof line, &e2) != STATUS_OK) {
        if (strstr(e2.msg, "in time") != NULL)
            return err_set(err, STATUS_IO, "%s gave no move within %lld ms", e->spec,
                           (long long)timeout_ms);
        return err_set(err, STATUS_IO, "%s", e2.msg);
    }
    const char *w = line + strlen("bestmove");
    w += strspn(w, " ");
    sb_printf(move, "%.*s", (int)strcspn(w, " "), w);
    return STATUS_OK;
}
