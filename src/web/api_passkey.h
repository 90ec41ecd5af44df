/*
 * api_passkey.h - passkeys (WebAuthn) in the JSON API (docs/API.md, "Passkeys"): the
 * options for navigator.credentials.create and .get, registering a signed-in account's
 * passkey, listing, renaming and removing them, and signing in with one, which opens a
 * session as a password's sign-in does (api_account.h).
 */
#ifndef CROWN_WEB_API_PASSKEY_H
#define CROWN_WEB_API_PASSKEY_H

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

/* The routes' handlers (routes.c); s is always NULL. */
void api_passkey_list(Server *srv, const Request *req, Session *s, Response *res);
void api_passkey_register_options(Server *srv, const Request *req, Session *s, Response *res);
void api_passkey_register(Server *srv, const Request *req, Session *s, Response *res);
void api_passkey_rename(Server *srv, const Request *req, Session *s, Response *res);
void api_passkey_delete(Server *srv, const Request *req, Session *s, Response *res);
void api_passkey_login_options(Server *srv, const Request *req, Session *s, Response *res);
void api_passkey_login(Server *srv, const Request *req, Session *s, Response *res);

#endif
