/*
 * message.h - a request as the handlers see it and the answer they give, as plain
 * values: the transport (http.c) fills the one and sends the other, so that handlers
 * and everything below them know nothing of sockets or of libmicrohttpd.
 */
#ifndef CROWN_WEB_MESSAGE_H
#define CROWN_WEB_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/status.h"

struct MHD_Connection;

/* The content type of every JSON answer. */
#define HTTP_JSON_TYPE "application/json; charset=utf-8"

/* The cookie that holds a signed-in player's session id (credential.h). */
#define HTTP_SESSION_COOKIE "crown_session"
/* The cookie that binds a passkey sign-in's challenge to the browser that asked for it
 * (api_passkey.c): a random id, sent only to /api/passkeys. */
#define HTTP_PASSKEY_COOKIE "crown_passkey"

/* A header line every answer carries. */
typedef struct HttpHeader {
    const char *name, *value;
} HttpHeader;

/* The security headers of a page (page) or of an API answer, ending with {NULL, NULL}. */
const HttpHeader *http_security_headers(bool page);

/* A request as the handlers see it. */
typedef struct Request {
    const char *method; /* "GET", "POST", ... ("HEAD" is passed on as "GET") */
    const char *path;   /* decoded URL path, no query */
    const char *body;   /* NUL-terminated; "" when there is none */
    size_t body_len;
    const char *token;  /* the seat token offered, or NULL */
    const char *addr;   /* the client's address as text ("" when unknown) */
    const char *session; /* the session cookie's value, or NULL */
    const char *passkey; /* the passkey sign-in cookie's value, or NULL */
    const char *origin; /* the Origin header (checked: this server's or a configured
                         * site's), or NULL; a passkey's client data must name it */
    const char *lang;   /* the crown_lang cookie (language.h), or NULL */
    const char *accept_language; /* the Accept-Language header, or NULL */
    bool https;         /* the browser reached the server over https (--public-url, or a
                         * trusted proxy saying so): cookies are then Secure */
    struct MHD_Connection *conn; /* for request_arg; NULL: no query */
} Request;

/* The value of the query argument `name` of req, or NULL. */
const char *request_arg(const Request *req, const char *name);

/* What a handler answers: a status and a malloc'd body of one content type. */
typedef struct Response {
    int status;
    char *body;
    size_t len;
    const char *content_type; /* static text */
    const char *allow;        /* for 405: the methods allowed */
    char location[128];       /* for 201: where the new thing is, or "" */
    int retry_after;          /* for 429 and 503: seconds to wait, or 0 for no header */
    const char *csp;          /* static text: a Content-Security-Policy of its own, or NULL */
    char set_cookie[192];     /* a Set-Cookie header's value, or "" */
} Response;

/* Sets r to {"error": message} with that status (a 4xx or 5xx). Always succeeds: when
 * memory is short the body is a fixed text. */
void response_error(Response *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Takes ownership of a malloc'd JSON body. */
void response_json(Response *r, int status, char *body, size_t len);
/* The HTTP status a refusal from the session or the AI deserves (STATUS_OK: 200): the
 * one place where crown Status codes become HTTP statuses. */
int http_status_of(Status st);

#endif
