/*
 * lab_api.c - studies from the browser (lab_api.h). One study runs at a time, on a thread
 * of its own with one job, so the games of people playing keep the other cores; the
 * others wait in a queue that thread takes them from in order. Stopping the server
 * starts no queued study and ends the running one before its next move. A study is
 * refused unless its players are crown's own (no outside engine is ever started from a
 * request) and its rules read no file on the server, as with games created from the
 * browser. What one address may ask is bounded (studies and games waiting or running,
 * starts an hour), and so is what the lab keeps on disk (--lab-keep folders, 20 of one
 * address): each study's folder holds its owner's address in owner.addr, never served,
 * so that the bound holds across restarts.
 */
#include "web/lab_api.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/game_api.h"
#include "core/strbuf.h"
#include "lab/lab_report.h"
#include "lab/lab_results.h"
#include "lab/lab_run.h"
#include "lab/lab_study.h"
#include "play/registry.h"
#include "web/api.h"
#include "web/lab_folder.h"
#include "web/language.h"
#include "web/messages.h"
#include "web/config.h"
#include "web/ratelimit.h"
#include "web/secret.h"

enum {
    LAB_PATH = LAB_FOLDER_PATH,
    LAB_ID = LAB_FOLDER_ID,
    LAB_ADDR = 64,
    LAB_MAX_COMPARE = 8,
    LAB_MAX_LISTED = 100,
    LAB_RETRY_S = 60, /* Retry-After when the wait depends on studies ending */
};

/* A study running or waiting its turn. */
typedef struct LabJob {
    char id[LAB_ID];
    char owner[SECRET_TOKEN_LEN + 1]; /* its owner token, given only to whoever started it */
    char addr[LAB_ADDR];              /* who started it, for the per-address limits */
    long total;                       /* games of every set */
    LabStudy *st;
} LabJob;

struct LabServer {
    char dir[LAB_PATH];
    LabLimits lim;
    RateLimiter *starts; /* studies started per address an hour */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t wake; /* a study to run, or the server stopping */
    atomic_bool stop;    /* set under mu, so that no study starts after it */
    atomic_bool cancel;  /* the running study's owner asked it to stop */
    atomic_bool halt;    /* stop or cancel: the game in play ends before its next move */
    /* guarded by mu */
    bool running; /* run holds a study, being played or about to be */
    LabJob run;
    LabJob queue[LAB_QUEUE]; /* waiting, the next first */
    int queued;
    long done, total; /* the running study's progress */
    unsigned seq;
    const Messages *messages; /* the reports' words in each language */
};

/* The place of study ID in the queue (1: next to run), or 0. The caller holds mu. */
static int place_of(const LabServer *lab, const char *id)
{
    for (int i = 0; i < lab->queued; i++)
        if (strcmp(lab->queue[i].id, id) == 0)
            return i + 1;
    return 0;
}

static bool active(const LabServer *lab, const char *id)
{
    return (lab->running && strcmp(lab->run.id, id) == 0) || place_of(lab, id) > 0;
}

/* After a study is added: the oldest ended studies of its address past
 * LAB_KEEP_PER_ADDR, then the lab's oldest past --lab-keep, are deleted. A running or
 * queued study is never deleted, even when that leaves more. The caller holds mu. */
static void prune(LabServer *lab, const char *addr)
{
    int n;
    char **ids = lab_folder_ids(lab->dir, &n);
    if (ids == NULL)
        return;
    lab_folder_sort(ids, n, false);
    int kept = n;
    if (addr[0] != '\0') {
        bool *mine = calloc((size_t)n + 1, sizeof *mine);
        int count = 0;
        char who[LAB_ADDR];
        for (int i = 0; mine != NULL && i < n; i++) {
            lab_folder_read(lab->dir, ids[i], "owner.addr", who, sizeof who);
            mine[i] = strcmp(who, addr) == 0;
            count += mine[i];
        }
        for (int i = 0; mine != NULL && i < n && count > LAB_KEEP_PER_ADDR; i++)
            if (mine[i] && !active(lab, ids[i]) && lab_folder_remove(lab->dir, ids[i])) {
                count--;
                kept--;
                ids[i][0] = '\0';
            }
        free(mine);
    }
    for (int i = 0; i < n && kept > lab->lim.keep; i++)
        if (ids[i][0] != '\0' && !active(lab, ids[i]) && lab_folder_remove(lab->dir, ids[i]))
            kept--;
    lab_folder_free_ids(ids, n);
}

static bool progress(void *ctx, long done, long total)
{
    LabServer *lab = ctx;
    pthread_mutex_lock(&lab->mu);
    lab->done = done;
    lab->total = total;
    pthread_mutex_unlock(&lab->mu);
    return !atomic_load(&lab->halt);
}

/* Plays one study: the same steps as `crown lab` after study.json (the games,
 * results.csv, the summary and report), into DIR/ID; why it stopped or failed goes to
 * DIR/ID/error.txt, which outlives the server. */
static void play(LabServer *lab, const LabStudy *st, const char *id)
{
    LabStudy *back = calloc(1, sizeof *back);
    char dir[LAB_PATH + 64];
    snprintf(dir, sizeof dir, "%s/%s", lab->dir, id);
    ErrBuf err = {.msg = ""};
    LabRows rows = {0};
    long games, failed;
    bool plotted;
    Status s = back == NULL ? err_set(&err, STATUS_NOMEM, "out of memory")
                            : lab_run_until(st, 1, progress, lab, &lab->halt, &rows, &err);
    if (s == STATUS_OK && atomic_load(&lab->stop)) /* a share of the study: no summary */
        s = err_set(&err, STATUS_CONFLICT, "the server stopped after %ld games", rows.count);
    if (s == STATUS_OK && atomic_load(&lab->cancel))
        s = err_set(&err, STATUS_CONFLICT, "its owner stopped it after %ld games", rows.count);
    if (s == STATUS_OK && lab_results_write(st, &rows, dir, &err) == STATUS_OK)
        lab_report_study(back, dir, &games, &failed, &plotted, &err);
    if (err.msg[0] != '\0')
        lab_folder_write(lab->dir, id, "error.txt", err.msg);
    lab_rows_free(&rows);
    free(back);
}

/* Makes job the running study and wakes the lab's thread. The caller holds mu, and the
 * lab is not stopping (so halt may be cleared). */
static void begin(LabServer *lab, const LabJob *job)
{
    lab->run = *job;
    lab->running = true;
    lab->done = 0;
    lab->total = job->total;
    atomic_store(&lab->cancel, false);
    atomic_store(&lab->halt, false);
    pthread_cond_signal(&lab->wake);
}

/* The lab's thread: plays the running study, then the next in the queue, until the
 * server stops. */
static void *worker(void *arg)
{
    LabServer *lab = arg;
    pthread_mutex_lock(&lab->mu);
    for (;;) {
        while (!lab->running && !atomic_load(&lab->stop))
            pthread_cond_wait(&lab->wake, &lab->mu);
        if (atomic_load(&lab->stop))
            break;
        LabStudy *st = lab->run.st;
        char id[LAB_ID];
        memcpy(id, lab->run.id, sizeof id);
        pthread_mutex_unlock(&lab->mu);
        play(lab, st, id);
        free(st);
        pthread_mutex_lock(&lab->mu);
        lab->run.st = NULL;
        lab->running = false;
        if (lab->queued > 0 && !atomic_load(&lab->stop)) {
            const LabJob next = lab->queue[0];
            lab->queued--;
            memmove(lab->queue, lab->queue + 1, (size_t)lab->queued * sizeof lab->queue[0]);
            begin(lab, &next);
        }
    }
    pthread_mutex_unlock(&lab->mu);
    return NULL;
}

Status lab_server_open(const char *dir, const LabLimits *limits, const Messages *messages,
                       LabServer **out, ErrBuf *err)
{
    *out = NULL;
    if (dir == NULL)
        return STATUS_OK;
    struct stat sb;
    if (mkdir(dir, 0777) != 0 && !(errno == EEXIST && stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode)))
        return err_set(err, STATUS_IO, "--lab: cannot make the folder '%s': %s", dir,
                       strerror(errno));
    if (strlen(dir) >= LAB_PATH - 2 * LAB_ID)
        return err_set(err, STATUS_UNSUPPORTED, "--lab: the folder's name is too long");
    LabServer *lab = calloc(1, sizeof *lab);
    if (lab == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    snprintf(lab->dir, sizeof lab->dir, "%s", dir);
    lab->messages = messages;
    lab->lim.max_games = limits && limits->max_games > 0 ? limits->max_games
                                                         : LAB_DEFAULT_MAX_GAMES;
    lab->lim.keep = limits && limits->keep > 0 ? limits->keep : LAB_DEFAULT_KEEP;
    lab->lim.starts_per_hour = limits && limits->starts_per_hour > 0 ? limits->starts_per_hour
                                                                     : LAB_DEFAULT_STARTS;
    lab->starts = ratelimit_new_window(lab->lim.starts_per_hour, 3600);
    if (lab->starts == NULL) {
        free(lab);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    pthread_mutex_init(&lab->mu, NULL);
    pthread_cond_init(&lab->wake, NULL);
    atomic_init(&lab->stop, false);
    atomic_init(&lab->cancel, false);
    atomic_init(&lab->halt, false);
    if (pthread_create(&lab->thread, NULL, worker, lab) != 0) {
        pthread_cond_destroy(&lab->wake);
        pthread_mutex_destroy(&lab->mu);
        ratelimit_free(lab->starts);
        free(lab);
        return err_set(err, STATUS_IO, "--lab: cannot start the lab's thread");
    }
    *out = lab;
    return STATUS_OK;
}

void lab_server_close(LabServer *lab)
{
    if (lab == NULL)
        return;
    pthread_mutex_lock(&lab->mu);
    atomic_store(&lab->stop, true);
    atomic_store(&lab->halt, true);
    pthread_cond_broadcast(&lab->wake);
    pthread_mutex_unlock(&lab->mu);
    pthread_join(lab->thread, NULL);
    // What never started says so after a restart, rather than looking like a failure.
    if (lab->running) {
        lab_folder_write(lab->dir, lab->run.id, "error.txt", "the server stopped before it started");
        free(lab->run.st);
    }
    for (int i = 0; i < lab->queued; i++) {
        lab_folder_write(lab->dir, lab->queue[i].id, "error.txt", "the server stopped before it started");
        free(lab->queue[i].st);
    }
    ratelimit_free(lab->starts);
    pthread_cond_destroy(&lab->wake);
    pthread_mutex_destroy(&lab->mu);
    free(lab);
}

static void reply(Response *res, int status, json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (text == NULL)
        response_error(res, 503, "out of memory");
    else
        response_json(res, status, text, strlen(text));
}

/* "running", "queued", "done" (its summary is written), or "stopped" (the server or its
 * owner stopped it, or it failed). The caller holds mu. */
static const char *state_of(const LabServer *lab, const char *id)
{
    if (lab->running && strcmp(lab->run.id, id) == 0)
        return "running";
    if (place_of(lab, id) > 0)
        return "queued";
    char path[LAB_PATH + 64];
    snprintf(path, sizeof path, "%s/%s/summary.json", lab->dir, id);
    struct stat sb;
    return stat(path, &sb) == 0 ? "done" : "stopped";
}

/* One study as the page lists it: its id, state, and what study.json says; its place
 * while queued, its progress while running, why it stopped or failed. The caller holds
 * mu. */
static json_t *study_json(const LabServer *lab, const char *id)
{
    char path[LAB_PATH + 64];
    snprintf(path, sizeof path, "%s/%s/study.json", lab->dir, id);
    json_t *study = json_load_file(path, 0, NULL);
    json_t *sets = json_array();
    size_t i;
    json_t *set;
    json_array_foreach(json_object_get(study, "sets"), i, set)
        json_array_append(sets, json_object_get(set, "label"));
    const json_t *players = json_object_get(json_array_get(json_object_get(study, "sets"), 0),
                                            "players");
    const char *state = state_of(lab, id);
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:s, s:o}", "id", id, "state", state, "game",
                          json_is_string(json_object_get(study, "game"))
                              ? json_string_value(json_object_get(study, "game"))
                              : "?",
                          "games", json_integer_value(json_object_get(study, "games")),
                          "players", json_is_string(players) ? json_string_value(players) : "?",
                          "sets", sets);
    json_decref(study);
    if (o == NULL)
        return NULL;
    if (strcmp(state, "running") == 0) {
        json_object_set_new(o, "progress", json_pack("{s:I, s:I}", "done", (json_int_t)lab->done,
                                                     "total", (json_int_t)lab->total));
    } else if (strcmp(state, "queued") == 0) {
        json_object_set_new(o, "place", json_integer(place_of(lab, id)));
    } else {
        char why[ERRBUF_LEN];
        lab_folder_read(lab->dir, id, "error.txt", why, sizeof why);
        if (why[0] != '\0')
            json_object_set_new(o, "error", json_string(why));
    }
    return o;
}

/* GET /api/lab: the lab's limits and its studies, newest first. */
static void list(LabServer *lab, Response *res)
{
    int n;
    char **ids = lab_folder_ids(lab->dir, &n);
    if (ids == NULL) {
        response_error(res, 500, "cannot read the lab's folder: %s", strerror(errno));
        return;
    }
    lab_folder_sort(ids, n, true);
    json_t *studies = json_array();
    pthread_mutex_lock(&lab->mu);
    for (int i = 0; i < n && i < LAB_MAX_LISTED; i++)
        json_array_append_new(studies, study_json(lab, ids[i]));
    json_t *j = json_pack("{s:b, s:i, s:o, s:i, s:o, s:{s:i, s:i, s:i, s:i, s:i, s:i}}",
                          "enabled", 1, "max_games", lab->lim.max_games, "running",
                          lab->running ? json_string(lab->run.id) : json_null(), "queued",
                          lab->queued, "studies", studies, "limits", "queue", LAB_QUEUE,
                          "studies_per_address", LAB_STUDIES_PER_ADDR, "games_per_address",
                          lab->lim.max_games, "starts_per_hour", lab->lim.starts_per_hour,
                          "keep", lab->lim.keep, "keep_per_address", LAB_KEEP_PER_ADDR);
    pthread_mutex_unlock(&lab->mu);
    lab_folder_free_ids(ids, n);
    reply(res, 200, j);
}

/* Takes a checked study in: refused when its address holds too much of the lab or
 * started too many, or the queue is full; else kept in a new folder of DIR (study.json,
 * owner.addr) and run at once (201) or queued (202), with its owner token. */
static void enqueue(LabServer *lab, const Request *req, LabStudy *st, Response *res)
{
    const long total = lab_study_total(st);
    char addr[LAB_ADDR];
    snprintf(addr, sizeof addr, "%s", req->addr ? req->addr : "");
    pthread_mutex_lock(&lab->mu);
    int mine = 0;
    long games = 0;
    for (int i = -1; i < lab->queued; i++) {
        const LabJob *job = i < 0 ? (lab->running ? &lab->run : NULL) : &lab->queue[i];
        if (job != NULL && strcmp(job->addr, addr) == 0) {
            mine++;
            games += job->total;
        }
    }
    int retry = 0;
    bool ok = false;
    if (atomic_load(&lab->stop)) {
        res->retry_after = LAB_RETRY_S;
        response_error(res, 503, "the server is stopping: no study starts now");
    } else if (mine >= LAB_STUDIES_PER_ADDR) {
        res->retry_after = LAB_RETRY_S;
        response_error(res, 429, "your address has %d studies running or queued, the most it "
                       "may have at once: stop one (POST /api/lab/ID/stop) or wait for one "
                       "to end", mine);
    } else if (games + total > lab->lim.max_games) {
        res->retry_after = LAB_RETRY_S;
        response_error(res, 429, "your address's studies running or queued have %ld games; "
                       "with this one's %ld that is more than the %d it may have at once: "
                       "wait for them to end or ask fewer", games, total, lab->lim.max_games);
    } else if ((lab->running ? 1 : 0) + lab->queued >= LAB_QUEUE) {
        res->retry_after = LAB_RETRY_S;
        response_error(res, 503, "the lab's queue is full (%d studies running or queued): "
                       "try again later", LAB_QUEUE);
    } else if (!ratelimit_take(lab->starts, addr, &retry)) {
        res->retry_after = retry;
        response_error(res, 429, "too many studies started from your address: at most %d an "
                       "hour; try again in %d s", lab->lim.starts_per_hour, retry);
    } else {
        ok = true;
    }
    if (!ok) {
        pthread_mutex_unlock(&lab->mu);
        free(st);
        return;
    }
    LabJob job = {.total = total, .st = st};
    snprintf(job.addr, sizeof job.addr, "%s", addr);
    ErrBuf err = {.msg = ""};
    if (!secret_hex(job.owner, SECRET_TOKEN_BYTES)) {
        pthread_mutex_unlock(&lab->mu);
        free(st);
        response_error(res, 503, "no randomness for the study's owner token");
        return;
    }
    // After a restart the sequence starts again: a second's ids may be taken already.
    char dir[LAB_PATH + 64];
    int made = -1;
    for (int tries = 0; made != 0 && tries < 1000; tries++) {
        snprintf(job.id, sizeof job.id, "%lld-%u", (long long)time(NULL), lab->seq++);
        snprintf(dir, sizeof dir, "%s/%s", lab->dir, job.id);
        made = mkdir(dir, 0777);
        if (made != 0 && errno != EEXIST)
            break;
    }
    if (made != 0)
        err_set(&err, STATUS_IO, "%s", strerror(errno));
    else if (lab_study_save(st, dir, &err) == STATUS_OK)
        err.msg[0] = '\0';
    if (err.msg[0] == '\0' && !lab_folder_write(lab->dir, job.id, "owner.addr", addr))
        err_set(&err, STATUS_IO, "cannot write its owner.addr");
    if (err.msg[0] != '\0') {
        if (made == 0)
            lab_folder_remove(lab->dir, job.id);
        pthread_mutex_unlock(&lab->mu);
        free(st);
        response_error(res, 500, "cannot keep the study in the lab's folder: %s", err.msg);
        return;
    }
    const bool now = !lab->running;
    if (now)
        begin(lab, &job);
    else
        lab->queue[lab->queued++] = job;
    prune(lab, addr);
    json_t *j = study_json(lab, job.id);
    if (j != NULL)
        json_object_set_new(j, "owner_token", json_string(job.owner));
    snprintf(res->location, sizeof res->location, "/api/lab/%s", job.id);
    pthread_mutex_unlock(&lab->mu);
    reply(res, now ? 201 : 202, j);
}

/* Refuses rules that name a file on the server ("tiles=FILE"): a request must not make
 * the server read its files. */
static bool rules_read_no_file(const char *game, const char *text, Response *res)
{
    const GameOps *ops = registry_find(game);
    char buf[LAB_TEXT];
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); ops && tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq == NULL)
            continue; /* lab_study_plain says what is wrong */
        *eq = '\0';
        const int idx = game_option_index(ops, tok);
        const RuleOption *opt = idx < 0 ? NULL : &ops->options[idx];
        if (opt && opt->kind == RULE_FILE && strcmp(eq + 1, opt->default_value) != 0) {
            response_error(res, 400, "rule '%s' names a file on the server, which the web app "
                           "does not read; run such studies with crown lab", tok);
            return false;
        }
    }
    return true;
}

static const char *text_field(const json_t *body, const char *key, const char *fallback)
{
    const json_t *v = json_object_get(body, key);
    return json_is_string(v) ? json_string_value(v) : v == NULL ? fallback : NULL;
}

/* POST /api/lab {game, players, games, rules?, compare?: [..], seed?}: checks the
 * study, then enqueue takes it in. */
static void start(LabServer *lab, const Request *req, Response *res)
{
    json_error_t jerr;
    json_t *body = json_loadb(req->body, req->body_len, 0, &jerr);
    if (!json_is_object(body)) {
        json_decref(body);
        response_error(res, 400, "the body is not a JSON object: %s", jerr.text);
        return;
    }
    const char *game = text_field(body, "game", NULL), *players = text_field(body, "players", NULL);
    const char *rules = text_field(body, "rules", "");
    const json_t *games_v = json_object_get(body, "games"), *seed_v = json_object_get(body, "seed");
    const json_t *cmp = json_object_get(body, "compare");
    const char *compare[LAB_MAX_COMPARE];
    int n_compare = 0;
    bool ok = game && players && rules && json_is_integer(games_v) &&
              (seed_v == NULL || json_is_integer(seed_v)) && (cmp == NULL || json_is_array(cmp));
    if (!ok) {
        response_error(res, 400, "a study is {\"game\": NAME, \"players\": \"SPEC,SPEC\", "
                       "\"games\": N, \"rules\": \"NAME=VALUE,...\", \"compare\": "
                       "[\"NAME=VALUE,...\"], \"seed\": S}; rules, compare and seed may be left out");
        json_decref(body);
        return;
    }
    size_t i;
    json_t *c;
    json_array_foreach(cmp, i, c) {
        if (!json_is_string(c) || n_compare == LAB_MAX_COMPARE) {
            response_error(res, 400, "compare is a list of at most %d texts \"NAME=VALUE,...\"",
                           LAB_MAX_COMPARE);
            json_decref(body);
            return;
        }
        compare[n_compare++] = json_string_value(c);
    }
    const long long games = json_integer_value(games_v);
    // games is checked alone first, so that the product cannot overflow.
    if (games < 1 || games > lab->lim.max_games || games * (n_compare + 1) > lab->lim.max_games) {
        response_error(res, 400, "a study here plays 1 to %d games in all (games times rule "
                       "sets), not %lld x %d", lab->lim.max_games, games, n_compare + 1);
        json_decref(body);
        return;
    }
    if (strstr(players, "uci") || strstr(players, "ugi")) {
        response_error(res, 400, "a study from the browser is played by crown's own players "
                       "(ai:LEVEL, random, greedy ...), not outside engines");
        json_decref(body);
        return;
    }
    ok = rules_read_no_file(game, rules, res);
    for (int k = 0; ok && k < n_compare; k++)
        ok = rules_read_no_file(game, compare[k], res);
    LabStudy *st = ok ? calloc(1, sizeof *st) : NULL;
    if (ok && st == NULL)
        response_error(res, 503, "out of memory");
    const SearchLimits limits = {0};
    ErrBuf err = {.msg = ""};
    const uint64_t seed = seed_v ? (uint64_t)json_integer_value(seed_v) : (uint64_t)time(NULL);
    if (st != NULL && lab_study_plain(st, game, rules, compare, n_compare, players, (long)games,
                                      seed, &limits, &err) != STATUS_OK) {
        response_error(res, 400, "%s", err.msg);
        free(st);
        st = NULL;
    }
    json_decref(body);
    if (st != NULL)
        enqueue(lab, req, st, res);
}

/* POST /api/lab/ID/stop {"token": OWNER_TOKEN}: the running study stops after the game in
 * play, keeping the games played (its state becomes "stopped", with no summary); a
 * queued one leaves the queue and the lab, having played nothing. */
static void stop_study(LabServer *lab, const char *id, const Request *req, Response *res)
{
    json_t *body = parse_body(req, res);
    if (body == NULL)
        return;
    const char *token = text_field(body, "token", NULL);
    const char *owner = NULL;
    pthread_mutex_lock(&lab->mu);
    const bool running = lab->running && strcmp(lab->run.id, id) == 0;
    const int place = place_of(lab, id);
    if (running)
        owner = lab->run.owner;
    else if (place > 0)
        owner = lab->queue[place - 1].owner;
    json_t *j = NULL;
    int status = 0;
    if (owner == NULL) {
        response_error(res, 409, "study '%s' is not running or queued", id);
    } else if (token == NULL || !secret_equal(token, owner)) {
        response_error(res, 403, "only the study's owner may stop it: send {\"token\": "
                       "OWNER_TOKEN}, the owner_token its start answered");
    } else if (running) {
        atomic_store(&lab->cancel, true);
        atomic_store(&lab->halt, true);
        j = json_pack("{s:s, s:s}", "id", id, "state", "stopping");
        status = 202;
    } else {
        free(lab->queue[place - 1].st);
        lab->queued--;
        memmove(lab->queue + place - 1, lab->queue + place,
                (size_t)(lab->queued - (place - 1)) * sizeof lab->queue[0]);
        lab_folder_remove(lab->dir, id);
        j = json_pack("{s:s, s:s}", "id", id, "state", "removed");
        status = 200;
    }
    pthread_mutex_unlock(&lab->mu);
    json_decref(body);
    if (status != 0)
        reply(res, status, j);
}

/* A report in the reader's language: crown lab marks its words with their messages
 * (lab_report.h), said here from the catalogues, the numbers carried over. */
static void report_in_language(const LabServer *lab, const Request *req, Response *res)
{
    StrBuf page;
    sb_init(&page);
    messages_apply(lab->messages, language_choose(req->lang, req->accept_language), res->body,
                   &page);
    char *body = sb_failed(&page) ? NULL : strdup(sb_str(&page));
    if (body) {
        free(res->body);
        res->len = page.len;
        res->body = body;
    }
    sb_free(&page);
}

/* GET /api/lab/ID/summary or /report: a file of a study that is done. */
static void study_file(LabServer *lab, const Request *req, const char *id, const char *name,
                       Response *res)
{
    char path[LAB_PATH + 64];
    snprintf(path, sizeof path, "%s/%s/%s", lab->dir, id, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        response_error(res, 404, "study '%s' has no %s (yet)", id, name);
        return;
    }
    char *text = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)n + 1)) != NULL && fread(text, 1, (size_t)n, f) == (size_t)n) {
        text[n] = '\0';
        response_json(res, 200, text, (size_t)n);
        if (strcmp(name, "report.html") == 0) {
            // A report is one self-contained file: its styles are inline and its plots
            // may be data: images. It runs no script, and is sandboxed so it never could.
            res->content_type = "text/html; charset=utf-8";
            res->csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
                       "frame-ancestors 'none'; sandbox";
            if (lab->messages)
                report_in_language(lab, req, res);
        }
    } else {
        free(text);
        response_error(res, 500, "cannot read the study's %s", name);
    }
    fclose(f);
}

bool lab_api_handle(LabServer *lab, const Request *req, Response *res)
{
    const char *p = req->path;
    if (strncmp(p, "/api/lab", 8) != 0 || (p[8] != '\0' && p[8] != '/'))
        return false;
    const bool get = strcmp(req->method, "GET") == 0;
    if (lab == NULL) {
        response_error(res, 403, "the lab is off on this server: start it with crown serve "
                       "--lab DIR to run studies from the browser");
        return true;
    }
    if (p[8] == '\0' || strcmp(p + 8, "/") == 0) {
        if (get) {
            list(lab, res);
        } else if (strcmp(req->method, "POST") == 0) {
            start(lab, req, res);
        } else {
            res->allow = "GET, POST";
            response_error(res, 405, "use GET to list studies or POST to start one");
        }
        return true;
    }
    char id[LAB_ID + 1] = "";
    const char *rest = p + 9, *slash = strchr(rest, '/');
    const size_t len = slash ? (size_t)(slash - rest) : strlen(rest);
    if (len < sizeof id) {
        memcpy(id, rest, len);
        id[len] = '\0';
    }
    const char *what = slash ? slash + 1 : "";
    char path[LAB_PATH + 64];
    snprintf(path, sizeof path, "%s/%s/study.json", lab->dir, id);
    struct stat sb;
    if (!lab_folder_valid_id(id) || stat(path, &sb) != 0) {
        response_error(res, 404, "no study '%.40s'", rest);
    } else if (strcmp(what, "stop") == 0) {
        if (strcmp(req->method, "POST") == 0) {
            stop_study(lab, id, req, res);
        } else {
            res->allow = "POST";
            response_error(res, 405, "use POST with the owner's token to stop a study");
        }
    } else if (!get) {
        res->allow = "GET";
        response_error(res, 405, "use GET here, not %.10s", req->method);
    } else if (what[0] == '\0') {
        pthread_mutex_lock(&lab->mu);
        json_t *j = study_json(lab, id);
        pthread_mutex_unlock(&lab->mu);
        reply(res, 200, j);
    } else if (strcmp(what, "summary") == 0 || strcmp(what, "report") == 0) {
        study_file(lab, req, id, what[0] == 's' ? "summary.json" : "report.html", res);
    } else {
        response_error(res, 404, "a study has summary and report, not '%.40s'", what);
    }
    return true;
}
