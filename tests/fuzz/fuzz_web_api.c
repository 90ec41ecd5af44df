/*
 * fuzz_web_api.c - libFuzzer target: the web server's JSON API, driven through
 * api_handle without a socket (server_open starts everything but the HTTP daemon).
 *
 * Input: requests separated by lines "===". Each is a line "METHOD PATH", header lines
 * (only "Authorization: Bearer TOKEN" and "Origin: URL", which passkeys need, matter to
 * the API), an empty line, and the body.
 * In the path and the token, "{id}" and "{token}" stand for the id and the first seat
 * token of the last game created, so that inputs reach moves, undo and records; the
 * session cookie an answer sets goes with the next requests, so that they reach the
 * account's routes. An "Accept-Language:" or "Cookie: crown_lang=" line is given to the
 * page's language choice (language.h), which must name one of its languages. Every
 * answer must be a status from 200 to 599 with a body; the sanitizers do the rest.
 * Each input gets a fresh server over a fresh database in /dev/shm, so inputs replay
 * alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_support.h"
#include "web/language.h"
#include "web/routes.h"
#include "web/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_REQUESTS = 8, ID_LEN = 64 };

/* Replaces "{id}" and "{token}" in `in`, writing at most cap bytes. */
static void substitute(const char *in, const char *id, const char *token, char *out, size_t cap)
{
    size_t n = 0;
    while (*in && n + 1 < cap) {
        const char *with = NULL;
        size_t skip = 0;
        if (strncmp(in, "{id}", 4) == 0)
            with = id, skip = 4;
        else if (strncmp(in, "{token}", 7) == 0)
            with = token, skip = 7;
        if (with != NULL) {
            n += (size_t)snprintf(out + n, cap - n, "%s", with);
            if (n >= cap)
                n = cap - 1;
            in += skip;
        } else {
            out[n++] = *in++;
        }
    }
    out[n] = '\0';
}

/* Copies the string value that follows `"key":"` in json into out (empty if absent). */
static void json_field(const char *json, const char *key, char *out, size_t cap)
{
    out[0] = '\0';
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = json ? strstr(json, pat) : NULL;
    if (p == NULL)
        return;
    p += strlen(pat);
    const char *end = strchr(p, '"');
    if (end != NULL && (size_t)(end - p) < cap)
        snprintf(out, cap, "%.*s", (int)(end - p), p);
}

static void one_request(Server *srv, char *text, char *id, char *token, char *session)
{
    char *line = fuzz_line(&text);
    char *sp = strchr(line, ' ');
    if (sp == NULL)
        return;
    *sp = '\0';
    const char *method = line;
    char path[512], auth[256], origin[256];
    substitute(sp + 1, id, token, path, sizeof path);
    auth[0] = '\0';
    origin[0] = '\0';
    bool has_token = false;
    for (char *h = fuzz_line(&text); h[0] != '\0'; h = fuzz_line(&text)) {
        if (strncmp(h, "Authorization: Bearer ", 22) == 0) {
            substitute(h + 22, id, token, auth, sizeof auth);
            has_token = true;
        }
        static const char ACCEPT[] = "Accept-Language: ";
        static const char COOKIE[] = "Cookie: " LANGUAGE_COOKIE "=";
        const char *accept = strncmp(h, ACCEPT, sizeof ACCEPT - 1) == 0 ? h + sizeof ACCEPT - 1 : NULL;
        const char *cookie = strncmp(h, COOKIE, sizeof COOKIE - 1) == 0 ? h + sizeof COOKIE - 1 : NULL;
        if ((accept || cookie) && (language_choose(cookie, accept) < 0 ||
                                   language_choose(cookie, accept) >= LANGUAGE_COUNT))
            fuzz_fail("the page's language is none of ours", h);
        if (strncmp(h, "Origin: ", 8) == 0)
            snprintf(origin, sizeof origin, "%s", h + 8);
        if (text[0] == '\0')
            break;
    }
    Request req = {
        .method = method,
        .path = path,
        .body = text,
        .body_len = strlen(text),
        .token = has_token ? auth : NULL,
        .addr = "127.0.0.1",
        .session = session[0] ? session : NULL,
        .origin = origin[0] ? origin : NULL,
    };
    Response res;
    memset(&res, 0, sizeof res);
    api_handle(srv, &req, &res);
    if (res.status != 0 && (res.status < 200 || res.status > 599))
        fuzz_fail("an API answer has no HTTP status", path);
    if (res.status == 201) {
        // The new game's id is the last part of its location.
        const char *slash = strrchr(res.location, '/');
        if (slash != NULL)
            snprintf(id, ID_LEN, "%s", slash + 1);
        json_field(res.body, "token", token, ID_LEN);
    }
    if (strncmp(res.set_cookie, HTTP_SESSION_COOKIE "=", sizeof HTTP_SESSION_COOKIE) == 0)
        snprintf(session, ID_LEN + 1, "%.*s", ID_LEN,
                 res.set_cookie + sizeof HTTP_SESSION_COOKIE);
    free(res.body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (text == NULL)
        return 0;
    char db[64];
    snprintf(db, sizeof db, "/dev/shm/crown-fuzz-%ld.db", (long)getpid());
    ServeConfig cfg;
    serve_config_defaults(&cfg);
    cfg.db_path = db;
    cfg.ai_threads = 1;
    cfg.write_rate = 1000;
    cfg.write_burst = 1000;
    cfg.max_connections = 16;
    cfg.max_per_ip = 16;
    cfg.creates_per_hour = 1000;
    cfg.password_low = true; // argon2id at its cheapest: a sign-up is not what is fuzzed
    Server srv;
    ErrBuf err;
    if (server_open(&srv, &cfg, &err) != STATUS_OK)
        fuzz_fail("the server does not start", err.msg);
    char id[ID_LEN] = "", token[ID_LEN] = "", session[ID_LEN + 1] = "";
    char *cursor = text;
    for (int i = 0; i < MAX_REQUESTS && cursor != NULL; i++) {
        char *next = strstr(cursor, "\n===\n");
        if (next != NULL) {
            *next = '\0';
            next += 5;
        }
        one_request(&srv, cursor, id, token, session);
        cursor = next;
    }
    server_stop(&srv);
    char side[80];
    unlink(db);
    snprintf(side, sizeof side, "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db);
    unlink(side);
    free(text);
    return 0;
}
