/*
 * api_import.c - POST /api/import (docs/API.md): a crown game record becomes a game on
 * the server, every seat a person's, to review or to play on. The record is read whole
 * by the one record parser (core/record.h) into a temporary, every action checked by
 * the game's own rules, chance draws included as the record tells them; only a record
 * read to its end is stored, with all its actions in the store's one write, so a bad
 * record creates nothing and its error names the line and the action.
 */
#include "web/api_import.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/record.h"
#include "play/registry.h"
#include "web/api.h"
#include "web/api_games.h"
#include "web/session.h"

/* Whether the line at `line` (up to its end) is "KEY VALUE...": then *value is set. */
static bool line_is(const char *line, size_t len, const char *key, const char **value)
{
    const size_t k = strlen(key);
    if (len <= k || strncmp(line, key, k) != 0 || line[k] != ' ')
        return false;
    *value = line + k + 1;
    return true;
}

/* Refuses, before anything is configured, a rule line that names a file for the server
 * to read (tiles=FILE): a client must not make the server read its files, as in
 * POST /api/games. False with res answered. */
static bool no_file_rules(const char *text, Response *res)
{
    const GameOps *ops = NULL;
    for (int pass = 0; pass < 2; pass++) {
        const char *line = text;
        for (int no = 1; *line; no++) {
            const char *end = strchr(line, '\n');
            const size_t len = end ? (size_t)(end - line) : strlen(line);
            const char *v;
            if (pass == 0 && ops == NULL && line_is(line, len, "game", &v)) {
                char name[64];
                snprintf(name, sizeof name, "%.*s", (int)(len - 5), v);
                name[strcspn(name, "\r")] = '\0';
                ops = registry_find(name);
            } else if (pass == 1 && line_is(line, len, "rule", &v)) {
                for (int i = 0; i < ops->option_count; i++) {
                    const RuleOption *o = &ops->options[i];
                    const size_t n = strlen(o->name), d = strlen(o->default_value);
                    const size_t vlen = len - 5 - (line[len - 1] == '\r');
                    if (o->kind == RULE_FILE && vlen > n && strncmp(v, o->name, n) == 0 &&
                        v[n] == '=' && !(vlen - n - 1 == d && strncmp(v + n + 1,
                                                                      o->default_value, d) == 0)) {
                        response_error(res, 400, "line %d: rule '%s' names a file on the "
                                       "server, which the web app does not read; replay "
                                       "such games with crown play", no, o->name);
                        return false;
                    }
                }
            }
            line = end ? end + 1 : line + len;
        }
        if (ops == NULL)
            return true; // no known game: the parser says so, with its line
    }
    return true;
}

void api_import(Server *srv, const Request *req, Response *res)
{
    json_t *body = parse_body(req, res);
    if (body == NULL)
        return;
    const char *key;
    json_t *v;
    json_object_foreach(body, key, v) {
        if (strcmp(key, "record") != 0 && strcmp(key, "hints") != 0) {
            response_error(res, 400, "unknown field '%.40s': the fields are 'record' and "
                           "'hints'", key);
            json_decref(body);
            return;
        }
    }
    const json_t *text = json_object_get(body, "record");
    const json_t *hints = json_object_get(body, "hints");
    if (!json_is_string(text) || (hints && !json_is_boolean(hints))) {
        response_error(res, 400, json_is_string(text)
                                     ? "'hints' must be true or false"
                                     : "'record' must be the text of a crown game record");
        json_decref(body);
        return;
    }
    if (!no_file_rules(json_string_value(text), res)) {
        json_decref(body);
        return;
    }
    GameRecord rec;
    ErrBuf err;
    const Status st = record_parse(json_string_value(text), registry_find, &rec, &err);
    if (st != STATUS_OK) {
        json_decref(body);
        response_error(res, st == STATUS_NOMEM ? 503 : 400, "the record: %s", err.msg);
        return;
    }
    const Game *g = rec.game;
    NewGame ng;
    memset(&ng, 0, sizeof ng);
    ng.ops = g->ops;
    ng.players = g->players;
    for (int i = 0; i < g->ops->option_count; i++)
        ng.rules[ng.n_rules++] = (RuleSetting){.name = g->ops->options[i].name,
                                               .value = g->values[i]};
    for (int i = 0; i < g->players; i++)
        snprintf(ng.player[i], sizeof ng.player[i], "human");
    ng.hints = json_is_true(hints);
    ng.record = &rec;
    StrBuf start;
    sb_init(&start);
    g->ops->format_position(g, rec.start, &start);
    ng.position = sb_str(&start);
    Session *s = NULL;
    if (sb_failed(&start))
        response_error(res, 503, "out of memory");
    else
        s = api_create_session(srv, req, &ng, g->players, res);
    sb_free(&start);
    record_free(&rec);
    json_decref(body);
    if (s != NULL)
        api_created_response(res, s);
}
