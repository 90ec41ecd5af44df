/*
 * api.c - what every handler of the JSON API (docs/API.md is the reference) checks a
 * request with and answers in: reading a body, refusing unknown fields, the seat of a
 * token, a JSON answer. The routes are routes.c's; the handlers are the api_*.c files,
 * one per resource.
 *
 * Request bodies are parsed with jansson and checked field by field; unknown fields are
 * refused so that a typo is an error, not a silently ignored setting.
 */
#include "web/api.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/session.h"

char *api_dump(const json_t *j, size_t *len)
{
    char *s = json_dumps(j, JSON_COMPACT);
    *len = s ? strlen(s) : 0;
    return s;
}

void api_answer_json(Response *res, int status, json_t *o)
{
    size_t len = 0;
    char *text = o ? api_dump(o, &len) : NULL;
    json_decref(o);
    if (text == NULL)
        response_error(res, 503, "out of memory");
    else
        response_json(res, status, text, len);
}

/* --- helpers for handlers ------------------------------------------------------------ */

/* Parses the body as a JSON object; on failure answers 400 and returns NULL. */
json_t *parse_body(const Request *req, Response *res)
{
    if (req->body_len == 0) {
        response_error(res, 400, "this request needs a JSON object as its body");
        return NULL;
    }
    json_error_t e;
    json_t *j = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &e);
    if (j == NULL) {
        response_error(res, 400, "the body is not valid JSON: %s (line %d, column %d)", e.text,
                       e.line, e.column);
        return NULL;
    }
    if (!json_is_object(j)) {
        json_decref(j);
        response_error(res, 400, "the body must be a JSON object");
        return NULL;
    }
    return j;
}

json_t *string_body(const Request *req, const char *const *fields, Response *res)
{
    json_t *body = parse_body(req, res);
    if (body == NULL || !only_fields(body, fields, res)) {
        json_decref(body);
        return NULL;
    }
    for (const char *const *f = fields; *f; f++)
        if (!json_is_string(json_object_get(body, *f))) {
            response_error(res, 400, "'%s' must be a string", *f);
            json_decref(body);
            return NULL;
        }
    return body;
}

/* Refuses fields other than those listed (NULL-terminated). */
bool only_fields(json_t *o, const char *const *allowed, Response *res)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v) {
        bool ok = false;
        for (int i = 0; allowed[i] && !ok; i++)
            ok = strcmp(key, allowed[i]) == 0;
        if (!ok) {
            StrBuf list;
            sb_init(&list);
            for (int i = 0; allowed[i]; i++)
                sb_printf(&list, "%s'%s'", i ? ", " : "", allowed[i]);
            response_error(res, 400, "unknown field '%.40s': the fields are %s", key,
                           sb_str(&list));
            sb_free(&list);
            return false;
        }
    }
    return true;
}

/* The seat of the request's token; answers 403 and returns -2 when a token is needed
 * (or offered) and it is not one of this game's. -1: no token and none needed. */
int seat_of_request(const Request *req, Session *s, bool needed, Response *res)
{
    if (req->token == NULL || req->token[0] == '\0') {
        if (!needed)
            return -1;
        response_error(res, 403, "this needs the seat's secret token: send it as "
                       "'Authorization: Bearer TOKEN' (it is in the seat's link)");
        return -2;
    }
    const int seat = session_seat_of(s, req->token);
    if (seat < 0) {
        response_error(res, 403, "the token is not the token of any seat of this game");
        return -2;
    }
    return seat;
}

json_t *words_json(const char *text)
{
    json_t *a = json_array();
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        if (q > p)
            json_array_append_new(a, json_stringn(p, (size_t)(q - p)));
        p = q;
    }
    return a;
}
