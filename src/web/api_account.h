/*
 * api_account.h - accounts in the JSON API (docs/API.md, "Accounts"): signing up, in and
 * out (everywhere too), the password, deleting the account, exporting its data,
 * claiming the games a browser holds, GET /api/me and a player's public page,
 * GET /api/users/NAME. Accounts are optional: every other route works without one, as
 * it always did. A signed-in browser holds a session cookie (credential.h), HttpOnly and
 * SameSite=Lax, Secure when served over https.
 */
#ifndef CROWN_WEB_API_ACCOUNT_H
#define CROWN_WEB_API_ACCOUNT_H

#include <stdbool.h>

#include <jansson.h>

#include "web/message.h"
#include "web/store_account.h"

typedef struct Server Server;
typedef struct Session Session;

/* The signed-in account of a request (its session cookie), or false with none. */
bool api_account_user(Server *srv, const Request *req, StoreUser *out);
/* The account of the request, or false with res set to a 401. */
bool api_account_need_user(Server *srv, const Request *req, StoreUser *u, Response *res);
/* Signs u in, in the browser of req: a new session and its cookie; the one the browser
 * brought, if any, is closed (no fixation). False with res set to a 503. */
bool api_account_open_session(Server *srv, const Request *req, const StoreUser *u,
                              Response *res);
/* Whether failed sign-ins from the request's address lock it out now: true with res
 * set to the 429. A sign-in that names no account (a passkey's) counts only there. */
bool api_account_address_limited(Server *srv, const Request *req, Response *res);
/* Whether the body is none or an empty JSON object, as a POST that needs nothing else
 * takes; false with res set to a 400. */
bool api_account_empty_body(const Request *req, Response *res);
/* Counts a failed sign-in of the request's address. */
void api_account_address_failed(Server *srv, const Request *req);

typedef struct NewGame NewGame;

/* A new game's account part (POST /api/games): "rated" (two-player games between
 * accounts only: the creator signed in, one seat "human" and one "open") and the
 * creator's account on his seat when he is signed in and has one seat. False with res
 * set when refused; *creator then names the seated account (id 0: none). */
bool api_account_new_game(Server *srv, const Request *req, const json_t *body, NewGame *ng,
                          StoreUser *creator, Response *res);

/* The routes' handlers (routes.c); s is always NULL. */
void api_account_signup(Server *srv, const Request *req, Session *s, Response *res);
void api_account_login(Server *srv, const Request *req, Session *s, Response *res);
void api_account_logout(Server *srv, const Request *req, Session *s, Response *res);
void api_account_logout_all(Server *srv, const Request *req, Session *s, Response *res);
void api_account_password(Server *srv, const Request *req, Session *s, Response *res);
void api_account_delete(Server *srv, const Request *req, Session *s, Response *res);
void api_account_export(Server *srv, const Request *req, Session *s, Response *res);
void api_account_claim(Server *srv, const Request *req, Session *s, Response *res);
void api_account_me(Server *srv, const Request *req, Session *s, Response *res);
/* GET /api/users/NAME: false when the path is not under /api/users/. */
bool api_account_users(Server *srv, const Request *req, Response *res);

#endif
