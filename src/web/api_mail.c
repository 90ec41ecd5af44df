/*
 * api_mail.c - e-mail in the JSON API (api_mail.h). Tokens come in request bodies, never
 * in a URL the server logs: the pages a mail's link opens read the token from their own
 * address and POST it. A token that is unknown, used or expired gets one answer.
 */
#include "web/api_mail.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <jansson.h>

#include "web/api.h"
#include "web/api_account.h"
#include "web/context.h"
#include "web/credential.h"
#include "web/mail.h"
#include "web/store_mail.h"

static const char NO_MAIL[] = "this server sends no mail (it was started without --smtp)";

static const char *text(const json_t *body, const char *name)
{
    return json_string_value(json_object_get(body, name));
}

/* The hash of a token from a mail's link; false (res set) for one of no token's shape,
 * answered as an unknown one is. */
static bool token_hash(const json_t *body, char hash[CREDENTIAL_ID_LEN + 1], const char *why,
                       Response *res)
{
    if (credential_session_hash(text(body, "token"), hash))
        return true;
    response_error(res, 404, "%s", why);
    return false;
}

static void answer_email(Server *srv, Response *res, int status, int64_t user)
{
    json_t *o = mail_settings_json(srv, user);
    if (o == NULL)
        response_error(res, 503, "cannot read the address now: try again");
    else
        api_answer_json(res, status, o);
}

void api_mail_get(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    StoreUser u;
    if (api_account_need_user(srv, req, &u, res))
        answer_email(srv, res, 200, u.id);
}

void api_mail_set(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"address", NULL};
    (void)s;
    StoreUser u;
    json_t *body = string_body(req, FIELDS, res);
    if (body == NULL || !api_account_need_user(srv, req, &u, res)) {
        json_decref(body);
        return;
    }
    const char *why = mail_address_refusal(text(body, "address"));
    ErrBuf err;
    StoreEmail now;
    if (!mail_on(srv))
        response_error(res, 503, "%s", NO_MAIL);
    else if (why != NULL)
        response_error(res, 400, "%s", why);
    else if (store_email_get(srv->store, u.id, &now, &err) != STATUS_OK)
        response_error(res, 503, "cannot keep the address now: try again");
    else if (now.verified && strcasecmp(now.address, text(body, "address")) == 0)
        answer_email(srv, res, 200, u.id); // saved again as it is: kept, choices and all
    else if (mail_verification(srv, u.id, u.name, text(body, "address"), &err) != STATUS_OK)
        response_error(res, 503, "cannot keep the address now: try again");
    else
        answer_email(srv, res, 202, u.id);
    json_decref(body);
}

void api_mail_remove(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const NONE[] = {NULL};
    (void)s;
    StoreUser u;
    json_t *body = req->body_len ? string_body(req, NONE, res) : json_object();
    ErrBuf err;
    if (body != NULL && api_account_need_user(srv, req, &u, res)) {
        if (store_email_remove(srv->store, u.id, &err) != STATUS_OK)
            response_error(res, 503, "cannot remove the address now: try again");
        else
            answer_email(srv, res, 200, u.id);
    }
    json_decref(body);
}

void api_mail_notify(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    StoreUser u;
    json_t *body = parse_body(req, res);
    if (body == NULL || !api_account_need_user(srv, req, &u, res)) {
        json_decref(body);
        return;
    }
    const char *key;
    json_t *v;
    json_object_foreach(body, key, v) {
        if (mail_kind_of(key) < 0 || !json_is_boolean(v)) {
            response_error(res, 400, "give \"moves\", \"challenges\" or \"timeouts\", each true "
                                     "or false");
            json_decref(body);
            return;
        }
    }
    StoreEmail e;
    ErrBuf err;
    if (store_email_get(srv->store, u.id, &e, &err) != STATUS_OK) {
        response_error(res, 503, "cannot change what is mailed now: try again");
    } else if (!e.verified) {
        response_error(res, 409, "confirm an e-mail address first: its mail has the link");
    } else {
        json_object_foreach(body, key, v) {
            if (store_email_want(srv->store, u.id, (MailKind)mail_kind_of(key), json_is_true(v),
                                 &err) != STATUS_OK) {
                response_error(res, 503, "cannot change what is mailed now: try again");
                json_decref(body);
                return;
            }
        }
        answer_email(srv, res, 200, u.id);
    }
    json_decref(body);
}

/* A POST {"token": T} from a mail's link, spent by `use` (a store call): {answer: true},
 * or 404 with `why` for a token unknown, used or expired. No sign-in: the link may be
 * opened in another browser. */
static void use_token(Server *srv, const Request *req, Response *res,
                      Status (*use)(Store *, const char *, int64_t, ErrBuf *),
                      const char *answer, const char *why)
{
    static const char *const FIELDS[] = {"token", NULL};
    json_t *body = string_body(req, FIELDS, res);
    char hash[CREDENTIAL_ID_LEN + 1];
    ErrBuf err;
    Status st;
    if (body == NULL || !token_hash(body, hash, why, res)) {
    } else if ((st = use(srv->store, hash, (int64_t)time(NULL), &err)) == STATUS_OK) {
        json_t *o = json_object();
        json_object_set_new(o, answer, json_true());
        api_answer_json(res, 200, o);
    } else {
        response_error(res, st == STATUS_NOT_FOUND ? 404 : 503, "%s",
                       st == STATUS_NOT_FOUND ? why : "the store is busy: try again");
    }
    json_decref(body);
}

void api_mail_verify(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    use_token(srv, req, res, store_email_verify, "verified",
              "the link is used, expired or for another address: add the address again "
              "for a new one");
}

void api_mail_unsubscribe(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    use_token(srv, req, res, store_unsubscribe, "unsubscribed",
              "the link is unknown or expired: choose the mails on your account's page");
}

void api_mail_forgot(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"name", NULL};
    (void)s;
    json_t *body = string_body(req, FIELDS, res);
    if (body == NULL)
        return;
    const char *who = text(body, "name");
    ErrBuf err;
    if (!mail_on(srv)) {
        response_error(res, 503, "%s", NO_MAIL);
    } else if (strlen(who) > STORE_MAIL_ADDRESS_MAX ||
               mail_reset(srv, who, &err) == STATUS_OK) {
        // The same words whether a mail went or not: they tell nobody who has an account.
        json_t *o = json_object();
        json_object_set_new(o, "sent", json_string("if an account has this name or verified "
                                                   "address, a link to reset its password "
                                                   "was mailed to it"));
        api_answer_json(res, 202, o);
    } else {
        response_error(res, 503, "cannot mail now: try again");
    }
    json_decref(body);
}

void api_mail_reset(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"token", "password", NULL};
    static const char WHY[] = "the link is used or expired: ask for another";
    (void)s;
    json_t *body = string_body(req, FIELDS, res);
    char hash[CREDENTIAL_ID_LEN + 1], pw[CREDENTIAL_HASH_CAP];
    ErrBuf err;
    Status st;
    const char *why = body ? credential_password_refusal(text(body, "password")) : NULL;
    if (body == NULL || !token_hash(body, hash, WHY, res)) {
    } else if (why != NULL) {
        response_error(res, 400, "the new password: %s", why);
    } else if (credential_hash(srv->cred, text(body, "password"), pw, &err) != STATUS_OK) {
        response_error(res, 503, "cannot change the password now: try again");
    } else if ((st = store_reset_use(srv->store, hash, pw, (int64_t)time(NULL), &err)) ==
               STATUS_OK) {
        json_t *o = json_object();
        json_object_set_new(o, "ok", json_true());
        api_answer_json(res, 200, o);
    } else {
        response_error(res, st == STATUS_NOT_FOUND ? 404 : 503, "%s",
                       st == STATUS_NOT_FOUND ? WHY : "cannot change the password now: try again");
    }
    json_decref(body);
}
