/*
 * lab_api.c - studies from the browser (lab_api.h). One study runs at a time, on a thread
 * of its own with one job, so the games of people playing keep the other cores; stopping
 * the server lets the games in play end and starts no more. A study is refused unless its
 * players are crown's own (no outside engine is ever started from a request) and its
 * rules read no file on the server, as with games created from the browser.
 */
#include "web/lab_api.h"

#include <dirent.h>
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
#include "lab/lab_report.h"
#include "lab/lab_results.h"
#include "lab/lab_run.h"
#include "lab/lab_study.h"
#include "play/registry.h"
#include "web/api.h"
#include "web/secret.h"

enum { LAB_PATH = 4096, LAB_ID = 40, LAB_MAX_COMPARE = 8, LAB_MAX_LISTED = 100 };

struct LabServer {
    char dir[LAB_PATH];
    int max_games;
    pthread_mutex_t mu;
    atomic_bool stop;
    atomic_bool cancel; /* the running study's owner asked it to stop */
    atomic_bool halt;   /* stop or cancel: the game in play ends before its next move */
    /* guarded by mu: the study running or run last, and its thread */
    bool running, joinable;
    pthread_t thread;
    char id[LAB_ID];
    long done, total;
    char error[ERRBUF_LEN];
    unsigned seq;
    LabStudy *st; /* the running study's, owned by its thread */
    /* The running study's owner token, given only to whoever started it: without it
     * anyone could stop anyone's study. */
    char owner[SECRET_TOKEN_LEN + 1];
};

Status lab_server_open(const char *dir, int max_games, LabServer **out, ErrBuf *err)
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
    lab->max_games = max_games > 0 ? max_games : LAB_DEFAULT_MAX_GAMES;
    pthread_mutex_init(&lab->mu, NULL);
    atomic_init(&lab->stop, false);
    atomic_init(&lab->cancel, false);
    atomic_init(&lab->halt, false);
    *out = lab;
    return STATUS_OK;
}

void lab_server_close(LabServer *lab)
{
    if (lab == NULL)
        return;
    atomic_store(&lab->stop, true);
    atomic_store(&lab->halt, true);
    pthread_mutex_lock(&lab->mu);
    const bool join = lab->joinable;
    lab->joinable = false;
    pthread_mutex_unlock(&lab->mu);
    if (join)
        pthread_join(lab->thread, NULL);
    pthread_mutex_destroy(&lab->mu);
    free(lab);
}

static bool progress(void *ctx, long done, long total)
{
    LabServer *lab = ctx;
    pthread_mutex_lock(&lab->mu);
    lab->done = done;
    lab->total = total;
    pthread_mutex_unlock(&lab->mu);
    return !atomic_load(&lab->stop) && !atomic_load(&lab->cancel);
}

/* The study's thread: the same steps as `crown lab` after study.json (the games,
 * results.csv, the summary and report), into DIR/ID. */
static void *run_study(void *arg)
{
    LabServer *lab = arg;
    LabStudy *st = lab->st, *back = calloc(1, sizeof *back);
    char dir[LAB_PATH + 64];
    snprintf(dir, sizeof dir, "%s/%s", lab->dir, lab->id);
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
    lab_rows_free(&rows);
    free(back);
    free(st);
    pthread_mutex_lock(&lab->mu);
    lab->running = false;
    lab->st = NULL;
    snprintf(lab->error, sizeof lab->error, "%s", err.msg);
    pthread_mutex_unlock(&lab->mu);
    return NULL;
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

/* A study's id names its folder: letters, digits and '-' only, so no path leaves DIR. */
static bool valid_id(const char *id)
{
    const size_t n = strlen(id);
    if (n == 0 || n >= LAB_ID)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(id[i] >= '0' && id[i] <= '9') && !(id[i] >= 'a' && id[i] <= 'z') && id[i] != '-')
            return false;
    return true;
}

/* "running", "done" (its summary is written), or "stopped" (the server stopped it, or it
 * failed). The caller holds mu. */
static const char *state_of(const LabServer *lab, const char *id)
{
    if (lab->running && strcmp(lab->id, id) == 0)
        return "running";
    char path[LAB_PATH + 64];
    snprintf(path, sizeof path, "%s/%s/summary.json", lab->dir, id);
    struct stat sb;
    return stat(path, &sb) == 0 ? "done" : "stopped";
}

/* One study as the page lists it: its id, state, and what study.json says. */
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
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:s, s:o}", "id", id, "state",
                          state_of(lab, id), "game",
                          json_is_string(json_object_get(study, "game"))
                              ? json_string_value(json_object_get(study, "game"))
                              : "?",
                          "games", json_integer_value(json_object_get(study, "games")),
                          "players", json_is_string(players) ? json_string_value(players) : "?",
                          "sets", sets);
    if (o != NULL && strcmp(state_of(lab, id), "running") == 0)
        json_object_set_new(o, "progress", json_pack("{s:I, s:I}", "done", (json_int_t)lab->done,
                                                     "total", (json_int_t)lab->total));
    if (o != NULL && strcmp(lab->id, id) == 0 && lab->error[0])
        json_object_set_new(o, "error", json_string(lab->error));
    json_decref(study);
    return o;
}

static int newest_first(const void *a, const void *b)
{
    return strcmp(*(const char *const *)b, *(const char *const *)a);
}

/* GET /api/lab: the lab's limits and its studies, newest first. */
static void list(LabServer *lab, Response *res)
{
    DIR *d = opendir(lab->dir);
    if (d == NULL) {
        response_error(res, 500, "cannot read the lab's folder: %s", strerror(errno));
        return;
    }
    char *ids[LAB_MAX_LISTED * 4];
    int n = 0;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL && n < (int)(sizeof ids / sizeof ids[0]))
        if (valid_id(e->d_name) && (ids[n] = strdup(e->d_name)) != NULL)
            n++;
    closedir(d);
    qsort(ids, (size_t)n, sizeof ids[0], newest_first);
    json_t *studies = json_array();
    pthread_mutex_lock(&lab->mu);
    for (int i = 0; i < n; i++) {
        if (i < LAB_MAX_LISTED)
            json_array_append_new(studies, study_json(lab, ids[i]));
        free(ids[i]);
    }
    json_t *j = json_pack("{s:b, s:i, s:o, s:o}", "enabled", 1, "max_games", lab->max_games,
                          "running", lab->running ? json_string(lab->id) : json_null(),
                          "studies", studies);
    pthread_mutex_unlock(&lab->mu);
    reply(res, 200, j);
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

/* POST /api/lab {game, players, games, rules?, compare?: [..], seed?}: starts a study. */
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
    if (games < 1 || games > lab->max_games || games * (n_compare + 1) > lab->max_games) {
        response_error(res, 400, "a study here plays 1 to %d games in all (games times rule "
                       "sets), not %lld x %d", lab->max_games, games, n_compare + 1);
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
    if (st == NULL)
        return;
    pthread_mutex_lock(&lab->mu);
    if (lab->running || atomic_load(&lab->stop)) {
        pthread_mutex_unlock(&lab->mu);
        free(st);
        response_error(res, 409, "a study is running already: one at a time");
        return;
    }
    if (lab->joinable) /* the last study's thread, which has ended */
        pthread_join(lab->thread, NULL);
    lab->joinable = false;
    if (!secret_hex(lab->owner, SECRET_TOKEN_BYTES)) {
        pthread_mutex_unlock(&lab->mu);
        free(st);
        response_error(res, 503, "no randomness for the study's owner token");
        return;
    }
    atomic_store(&lab->cancel, false);
    atomic_store(&lab->halt, false);
    snprintf(lab->id, sizeof lab->id, "%lld-%u", (long long)time(NULL), lab->seq++);
    char dir[LAB_PATH + 64];
    snprintf(dir, sizeof dir, "%s/%s", lab->dir, lab->id);
    if (mkdir(dir, 0777) != 0)
        err_set(&err, STATUS_IO, "%s", strerror(errno));
    else if (lab_study_save(st, dir, &err) == STATUS_OK)
        err.msg[0] = '\0';
    if (err.msg[0] != '\0') {
        pthread_mutex_unlock(&lab->mu);
        free(st);
        response_error(res, 500, "cannot keep the study in the lab's folder: %s", err.msg);
        return;
    }
    lab->st = st;
    lab->running = true;
    lab->done = 0;
    lab->total = lab_study_total(st);
    lab->error[0] = '\0';
    if (pthread_create(&lab->thread, NULL, run_study, lab) != 0) {
        lab->running = false;
        lab->st = NULL;
        pthread_mutex_unlock(&lab->mu);
        free(st);
        response_error(res, 503, "cannot start the study's thread");
        return;
    }
    lab->joinable = true;
    json_t *j = study_json(lab, lab->id);
    if (j != NULL)
        json_object_set_new(j, "owner_token", json_string(lab->owner));
    snprintf(res->location, sizeof res->location, "/api/lab/%s", lab->id);
    pthread_mutex_unlock(&lab->mu);
    reply(res, 201, j);
}

/* POST /api/lab/ID/stop {"token": OWNER_TOKEN}: the running study stops after the game in
 * play, keeping the games played (its state becomes "stopped", with no summary). */
static void stop_study(LabServer *lab, const char *id, const Request *req, Response *res)
{
    json_t *body = parse_body(req, res);
    if (body == NULL)
        return;
    const char *token = text_field(body, "token", NULL);
    bool stopping = false;
    pthread_mutex_lock(&lab->mu);
    if (!lab->running || strcmp(lab->id, id) != 0) {
        response_error(res, 409, "study '%s' is not running", id);
    } else if (token == NULL || !secret_equal(token, lab->owner)) {
        response_error(res, 403, "only the study's owner may stop it: send {\"token\": "
                       "OWNER_TOKEN}, the owner_token its start answered");
    } else {
        atomic_store(&lab->cancel, true);
        atomic_store(&lab->halt, true);
        stopping = true;
    }
    pthread_mutex_unlock(&lab->mu);
    json_decref(body);
    if (stopping)
        reply(res, 202, json_pack("{s:s, s:s}", "id", id, "state", "stopping"));
}

/* GET /api/lab/ID/summary or /report: a file of a study that is done. */
static void study_file(LabServer *lab, const char *id, const char *name, Response *res)
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
    if (!valid_id(id) || stat(path, &sb) != 0) {
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
        study_file(lab, id, what[0] == 's' ? "summary.json" : "report.html", res);
    } else {
        response_error(res, 404, "a study has summary and report, not '%.40s'", what);
    }
    return true;
}
