/*
 * message.c - requests and answers as values (message.h): the JSON error body, the
 * security headers and the one mapping from crown Status codes to HTTP statuses.
 */
#include "web/message.h"

#include <jansson.h>
#include <microhttpd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int http_status_of(Status st)
{
    switch (st) {
    case STATUS_OK:
        return 200;
    case STATUS_PARSE:
        return 400;
    case STATUS_NOT_FOUND:
        return 404;
    case STATUS_NOT_YOUR_TURN:
    case STATUS_CONFLICT:
        return 409;
    case STATUS_ILLEGAL:
    case STATUS_UNSUPPORTED:
        return 422;
    case STATUS_CORRUPT:
        return 500;
    case STATUS_IO:
    case STATUS_NOMEM:
        return 503;
    }
    return 500;
}

void response_json(Response *r, int status, char *body, size_t len)
{
    r->status = status;
    r->body = body;
    r->len = len;
    r->content_type = HTTP_JSON_TYPE;
}

void response_error(Response *r, int status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    free(r->body);
    json_t *m = json_string(msg);
    if (m == NULL) {
        // A message quoting a client's text cut in the middle of a UTF-8 sequence is not
        // valid UTF-8, which JSON strings must be: keep the ASCII part.
        for (char *p = msg; *p; p++)
            if ((unsigned char)*p >= 0x80)
                *p = '?';
        m = json_string(msg);
    }
    json_t *o = json_object();
    json_object_set_new(o, "error", m);
    json_object_set_new(o, "status", json_integer(status));
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (text == NULL || m == NULL) {
        free(text);
        text = malloc(96);
        if (text)
            snprintf(text, 96, "{\"error\":\"the request is malformed\",\"status\":%d}", status);
    }
    response_json(r, status, text, text ? strlen(text) : 0);
}

/* The headers every answer carries, pages and API alike: nothing of it may be framed,
 * sniffed into another type, leak its address in a Referer, or be read by another site.
 * Pages get a policy that allows only the server's own scripts, styles and images (the
 * front end has no inline script or style); API answers allow nothing at all. */
#define COMMON_SECURITY_HEADERS                                                              \
    {"X-Content-Type-Options", "nosniff"}, {"Referrer-Policy", "no-referrer"},               \
        {"X-Frame-Options", "DENY"}, {"Cross-Origin-Opener-Policy", "same-origin"},          \
        {"Cross-Origin-Resource-Policy", "same-origin"}
static const HttpHeader PAGE_HEADERS[] = {
    COMMON_SECURITY_HEADERS,
    {"Content-Security-Policy", "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"},
    {NULL, NULL}};
static const HttpHeader API_HEADERS[] = {
    COMMON_SECURITY_HEADERS,
    {"Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"},
    {NULL, NULL}};

const HttpHeader *http_security_headers(bool page)
{
    return page ? PAGE_HEADERS : API_HEADERS;
}

const char *request_arg(const Request *req, const char *name)
{
    return req->conn ? MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name)
                     : NULL;
}
