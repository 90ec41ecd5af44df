/*
 * api_mail.h - e-mail in the JSON API (docs/API.md, "E-mail"): an account's address
 * (added, verified by the link mailed to it, removed) and the mails it asks for; a
 * password reset by a mailed link, whose request gets the same answer whether or not
 * the name or address is known; and the one-click unsubscribe of a mail's link, which
 * needs no sign-in. Without --smtp the routes that would mail say the server sends none.
 */
#ifndef CROWN_WEB_API_MAIL_H
#define CROWN_WEB_API_MAIL_H

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

/* The routes' handlers (routes.c); s is always NULL. */
void api_mail_get(Server *srv, const Request *req, Session *s, Response *res);
void api_mail_set(Server *srv, const Request *req, Session *s, Response *res);
void api_mail_remove(Server *srv, const Request *req, Session *s, Response *res);
void api_mail_notify(Server *srv, const Request *req, Session *s, Response *res);
void api_mail_verify(Server *srv, const Request *req, Session *s, Response *res);
void api_mail_unsubscribe(Server *srv, const Request *req, Session *s, Response *res);
void api_mail_forgot(Server *srv, const Request *req, Session *s, Response *res);
void api_mail_reset(Server *srv, const Request *req, Session *s, Response *res);

#endif
