/*
 * api_passkey.c - passkeys in the JSON API (api_passkey.h; docs/API.md, "Passkeys"): a
 * signed-in account registers, lists, names and removes its passkeys; anyone signs in
 * with one. Each ceremony takes a challenge the server gave (random, used once, expiring
 * in two minutes, kept in the store so that any process may take it, and bound to what
 * asked for it: a registration's to the account's session, a sign-in's to the browser by
 * a cookie of its own, so that a challenge asked for elsewhere is of no use) and is checked by
 * webauthn.c against the page's Origin, which the transport has already checked is this
 * server's (origin.h): the relying party is that origin's host. A failed sign-in counts
 * against the address as a wrong password does; a counter that does not go up (a cloned
 * authenticator) is refused.
 */
#include "web/api_passkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "web/api.h"
#include "web/api_account.h"
#include "web/context.h"
#include "web/credential.h"
#include "web/store_passkey.h"
#include "web/webauthn.h"

enum {
    CHALLENGE_S = 120,    /* how long a challenge may be used */
    PASSKEYS_CAP = 20,    /* passkeys an account may have */
    BLOB_CAP = 8192,      /* bytes of a decoded client data, attestation or signature */
    RP_CAP = 256,
};

/* What a ceremony of req must match, or false with res set to a 400. */
static bool expect_of(const Request *req, char rp[RP_CAP], WebauthnExpect *ex, Response *res)
{
    memset(ex, 0, sizeof *ex);
    if (req->origin == NULL || strlen(req->origin) >= WEBAUTHN_ORIGIN_MAX) {
        response_error(res, 400, "a passkey is used from this server's pages: the request "
                       "needs their Origin header");
        return false;
    }
    if (!webauthn_rp_id(req->origin, rp, RP_CAP)) {
        response_error(res, 400, "passkeys need the server reached by a name (localhost or "
                       "a domain), not by an address");
        return false;
    }
    ex->origin = req->origin;
    ex->rp_id = rp;
    ex->need_uv = true;
    return true;
}

/* A new challenge for `use` (user: the registering account, else 0) bound to `bound`,
 * kept in the store; false with res set. */
static bool new_challenge(Server *srv, StoreChallengeUse use, int64_t user, const char *bound,
                          char out[WEBAUTHN_B64_CAP], Response *res)
{
    ErrBuf err;
    const int64_t now = (int64_t)time(NULL);
    if (!webauthn_challenge(out) ||
        store_challenge_put(srv->store, out, use, user, bound, now, now + CHALLENGE_S, &err) !=
            STATUS_OK) {
        response_error(res, 503, "cannot start a passkey now: try again");
        return false;
    }
    return true;
}

/* The challenge a client data names (read, not trusted: the checks follow). */
static bool client_challenge(const unsigned char *cd, size_t n, char out[WEBAUTHN_B64_CAP])
{
    json_t *o = json_loadb((const char *)cd, n, 0, NULL);
    const char *c = json_string_value(json_object_get(o, "challenge"));
    const bool ok = c != NULL && strlen(c) < WEBAUTHN_B64_CAP;
    if (ok)
        snprintf(out, WEBAUTHN_B64_CAP, "%s", c);
    json_decref(o);
    return ok;
}

/* The hash a challenge is bound to: of the session (a registration) or of the sign-in
 * cookie (id); "" when the cookie is missing or not an id, which no challenge is bound
 * to. */
static void binding(const char *id, char out[CREDENTIAL_ID_LEN + 1])
{
    if (!credential_session_hash(id, out))
        out[0] = '\0';
}

/* Why a passkey's name is refused, or NULL: 1 to 40 characters (jansson has checked
 * the UTF-8: a character is a byte that does not continue another), no control
 * characters. */
static const char *name_refusal(const char *name)
{
    size_t chars = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            return "a passkey's name has no control characters";
        chars += (*p & 0xc0) != 0x80;
    }
    if (chars == 0 || chars > STORE_PASSKEY_NAME_CHARS || strlen(name) > STORE_PASSKEY_NAME_MAX)
        return "a passkey's name has 1 to 40 characters";
    return NULL;
}

/* Decodes base64url field `f` of body into a malloc'd buffer; NULL with res set. */
static unsigned char *blob(const json_t *body, const char *f, size_t *n, Response *res)
{
    unsigned char *b = malloc(BLOB_CAP);
    const char *text = json_string_value(json_object_get(body, f));
    if (b == NULL || text == NULL || !webauthn_unb64(text, b, BLOB_CAP, n) || *n == 0) {
        free(b);
        response_error(res, 400, "'%s' must be base64url (no padding) of 1 to %d bytes", f,
                       BLOB_CAP);
        return NULL;
    }
    return b;
}

static json_t *passkey_json(const StorePasskey *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", json_string(p->id));
    json_object_set_new(o, "name", json_string(p->name));
    json_object_set_new(o, "created", json_integer(p->created));
    json_object_set_new(o, "last_used", p->last_used ? json_integer(p->last_used) : json_null());
    return o;
}

/* The account's passkeys (up to PASSKEYS_CAP), malloc'd; NULL with res set. */
static StorePasskey *passkeys_of(Server *srv, int64_t user, int *n, Response *res)
{
    StorePasskey *all = malloc(sizeof *all * PASSKEYS_CAP);
    ErrBuf err;
    if (all == NULL || store_passkeys_of(srv->store, user, all, PASSKEYS_CAP, n, &err) !=
                           STATUS_OK) {
        free(all);
        response_error(res, 503, "cannot read your passkeys now: try again");
        return NULL;
    }
    return all;
}

void api_passkey_list(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    StoreUser u;
    int n = 0;
    StorePasskey *all = NULL;
    if (!api_account_need_user(srv, req, &u, res) ||
        (all = passkeys_of(srv, u.id, &n, res)) == NULL)
        return;
    json_t *list = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(list, passkey_json(&all[i]));
    free(all);
    json_t *o = json_object();
    json_object_set_new(o, "passkeys", list);
    api_answer_json(res, 200, o);
}

static json_t *credential_ref(const char *id)
{
    json_t *c = json_object();
    json_object_set_new(c, "type", json_string("public-key"));
    json_object_set_new(c, "id", json_string(id));
    return c;
}

void api_passkey_register_options(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    StoreUser u;
    char rp[RP_CAP], challenge[WEBAUTHN_B64_CAP], handle[WEBAUTHN_B64_CAP], uid[24];
    WebauthnExpect ex;
    int n = 0;
    StorePasskey *all = NULL;
    if (!api_account_empty_body(req, res) || !api_account_need_user(srv, req, &u, res) ||
        !expect_of(req, rp, &ex, res) || (all = passkeys_of(srv, u.id, &n, res)) == NULL)
        return;
    if (n >= PASSKEYS_CAP) {
        free(all);
        response_error(res, 409, "an account has at most %d passkeys: remove one first",
                       PASSKEYS_CAP);
        return;
    }
    json_t *exclude = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(exclude, credential_ref(all[i].id));
    free(all);
    char bound[CREDENTIAL_ID_LEN + 1];
    binding(req->session, bound);
    if (!new_challenge(srv, STORE_CHALLENGE_REGISTER, u.id, bound, challenge, res)) {
        json_decref(exclude);
        return;
    }
    // The user handle is the account's number: no name or address in it, and the same
    // for every passkey of the account, so that an authenticator keeps one per account.
    snprintf(uid, sizeof uid, "%lld", (long long)u.id);
    webauthn_b64((const unsigned char *)uid, strlen(uid), handle, sizeof handle);
    json_t *o = json_object(), *user = json_object(), *params = json_array();
    json_object_set_new(o, "challenge", json_string(challenge));
    json_object_set_new(o, "rp", json_pack("{s:s, s:s}", "id", rp, "name", "crown"));
    json_object_set_new(user, "id", json_string(handle));
    json_object_set_new(user, "name", json_string(u.name));
    json_object_set_new(user, "displayName", json_string(u.name));
    json_object_set_new(o, "user", user);
    const int algs[] = {WEBAUTHN_ES256, WEBAUTHN_EDDSA, WEBAUTHN_RS256};
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++)
        json_array_append_new(params,
                              json_pack("{s:s, s:i}", "type", "public-key", "alg", algs[i]));
    json_object_set_new(o, "pubKeyCredParams", params);
    json_object_set_new(o, "timeout", json_integer(CHALLENGE_S * 1000));
    json_object_set_new(o, "attestation", json_string("none"));
    json_object_set_new(o, "authenticatorSelection",
                        json_pack("{s:s, s:b, s:s}", "residentKey", "required",
                                  "requireResidentKey", 1, "userVerification", "required"));
    json_object_set_new(o, "excludeCredentials", exclude);
    api_answer_json(res, 200, o);
}

void api_passkey_register(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"name", "client_data", "attestation_object", NULL};
    (void)s;
    StoreUser u;
    char rp[RP_CAP], challenge[WEBAUTHN_B64_CAP];
    WebauthnExpect ex;
    json_t *body = string_body(req, FIELDS, res);
    unsigned char *cd = NULL, *ao = NULL;
    size_t cd_len = 0, ao_len = 0;
    const char *why = NULL;
    if (body == NULL || !api_account_need_user(srv, req, &u, res) ||
        !expect_of(req, rp, &ex, res))
        goto done;
    const char *name = json_string_value(json_object_get(body, "name"));
    if ((why = name_refusal(name)) != NULL) {
        response_error(res, 400, "%s", why);
        goto done;
    }
    if ((cd = blob(body, "client_data", &cd_len, res)) == NULL ||
        (ao = blob(body, "attestation_object", &ao_len, res)) == NULL)
        goto done;
    ErrBuf err;
    WebauthnCredential c;
    char bound[CREDENTIAL_ID_LEN + 1];
    binding(req->session, bound);
    if (!client_challenge(cd, cd_len, challenge) ||
        store_challenge_take(srv->store, challenge, STORE_CHALLENGE_REGISTER, u.id, bound,
                             (int64_t)time(NULL), &err) != STATUS_OK) {
        response_error(res, 400, "the passkey's challenge is used, expired or not this "
                       "session's: start again");
        goto done;
    }
    ex.challenge = challenge;
    if (webauthn_register(&ex, cd, cd_len, ao, ao_len, &c, &err) != STATUS_OK) {
        response_error(res, 400, "the passkey is refused: %s", err.msg);
        goto done;
    }
    StorePasskey p = {.user = u.id, .sign_count = c.sign_count, .created = (int64_t)time(NULL)};
    snprintf(p.id, sizeof p.id, "%s", c.id);
    snprintf(p.cose, sizeof p.cose, "%s", c.cose);
    snprintf(p.name, sizeof p.name, "%s", name);
    const Status st = store_passkey_add(srv->store, &p, &err);
    if (st == STATUS_CONFLICT)
        response_error(res, 409, "this passkey is registered already");
    else if (st != STATUS_OK)
        response_error(res, 503, "cannot keep the passkey now: try again");
    else
        api_answer_json(res, 201, passkey_json(&p));
done:
    free(cd);
    free(ao);
    json_decref(body);
}

/* The body {"id", "name"} of a rename, or {"id"} of a removal, for the signed-in
 * account; false with res set, else the store's answer mapped. */
static void change(Server *srv, const Request *req, bool rename, Response *res)
{
    static const char *const RENAME[] = {"id", "name", NULL}, *const REMOVE[] = {"id", NULL};
    StoreUser u;
    json_t *body = string_body(req, rename ? RENAME : REMOVE, res);
    if (body == NULL || !api_account_need_user(srv, req, &u, res)) {
        json_decref(body);
        return;
    }
    const char *id = json_string_value(json_object_get(body, "id"));
    const char *name = rename ? json_string_value(json_object_get(body, "name")) : NULL;
    const char *why = name ? name_refusal(name) : NULL;
    ErrBuf err;
    Status st = STATUS_OK;
    if (why != NULL)
        response_error(res, 400, "%s", why);
    else if (strlen(id) >= WEBAUTHN_B64_CAP ||
             (st = rename ? store_passkey_rename(srv->store, u.id, id, name, &err)
                          : store_passkey_delete(srv->store, u.id, id, &err)) == STATUS_NOT_FOUND)
        response_error(res, 404, "you have no passkey of that id");
    else if (st != STATUS_OK)
        response_error(res, 503, "cannot change your passkeys now: try again");
    else
        api_answer_json(res, 200, json_pack("{s:b}", "ok", 1));
    json_decref(body);
}

void api_passkey_rename(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    change(srv, req, true, res);
}

void api_passkey_delete(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    change(srv, req, false, res);
}

void api_passkey_login_options(Server *srv, const Request *req, Session *s, Response *res)
{
    (void)s;
    char rp[RP_CAP], challenge[WEBAUTHN_B64_CAP], attempt[CREDENTIAL_ID_LEN + 1];
    char bound[CREDENTIAL_ID_LEN + 1];
    WebauthnExpect ex;
    if (!api_account_empty_body(req, res) || !expect_of(req, rp, &ex, res))
        return;
    // The attempt's id goes to this browser alone (HttpOnly, to the passkey calls only);
    // the store keeps its hash with the challenge.
    if (!credential_session_id(attempt) || !credential_session_hash(attempt, bound)) {
        response_error(res, 503, "cannot start a passkey now: try again");
        return;
    }
    if (!new_challenge(srv, STORE_CHALLENGE_SIGN_IN, 0, bound, challenge, res))
        return;
    snprintf(res->set_cookie, sizeof res->set_cookie,
             HTTP_PASSKEY_COOKIE "=%s; Path=/api/passkeys; Max-Age=%d; HttpOnly; "
             "SameSite=Strict%s", attempt, (int)CHALLENGE_S, req->https ? "; Secure" : "");
    // No list of credentials: the authenticator offers the passkeys it holds for this
    // site (discoverable credentials), so no name is asked and none is told.
    json_t *o = json_object();
    json_object_set_new(o, "challenge", json_string(challenge));
    json_object_set_new(o, "rpId", json_string(rp));
    json_object_set_new(o, "timeout", json_integer(CHALLENGE_S * 1000));
    json_object_set_new(o, "userVerification", json_string("required"));
    api_answer_json(res, 200, o);
}

/* The checks of a sign-in's parts against the passkey it names: NULL, or why not
 * (res untouched); *p and *u its passkey and account. */
static const char *check_sign_in(Server *srv, const Request *req, const WebauthnExpect *given,
                                 const json_t *body,
                                 const unsigned char *cd, size_t cd_len,
                                 const unsigned char *ad, size_t ad_len,
                                 const unsigned char *sig, size_t sig_len, StorePasskey *p,
                                 StoreUser *u, char *msg, size_t cap)
{
    char challenge[WEBAUTHN_B64_CAP];
    ErrBuf err;
    uint32_t count = 0;
    WebauthnExpect ex = *given;
    char bound[CREDENTIAL_ID_LEN + 1];
    const char *id = json_string_value(json_object_get(body, "id"));
    binding(req->passkey, bound);
    if (!client_challenge(cd, cd_len, challenge) ||
        store_challenge_take(srv->store, challenge, STORE_CHALLENGE_SIGN_IN, 0, bound,
                             (int64_t)time(NULL), &err) != STATUS_OK)
        return "the passkey's challenge is used, expired or was asked for by another "
               "browser: start again";
    ex.challenge = challenge;
    if (strlen(id) >= WEBAUTHN_B64_CAP ||
        store_passkey_get(srv->store, id, p, u, &err) != STATUS_OK)
        return "this passkey belongs to no account here";
    if (webauthn_verify(&ex, p->cose, cd, cd_len, ad, ad_len, sig, sig_len, &count, &err) !=
        STATUS_OK) {
        snprintf(msg, cap, "the passkey is refused: %s", err.msg);
        return msg;
    }
    if (!webauthn_count_ok(p->sign_count, count))
        return "the passkey's counter went back: it may have been copied, so it is refused "
               "(sign in with your password and remove it)";
    if (store_passkey_used(srv->store, p->id, p->sign_count, count, (int64_t)time(NULL), &err) !=
        STATUS_OK)
        return "the passkey was used at the same time elsewhere: try again";
    return NULL;
}

void api_passkey_login(Server *srv, const Request *req, Session *s, Response *res)
{
    static const char *const FIELDS[] = {"id", "client_data", "authenticator_data", "signature",
                                         NULL};
    (void)s;
    char rp[RP_CAP], msg[ERRBUF_LEN + 40];
    WebauthnExpect ex;
    json_t *body = string_body(req, FIELDS, res);
    unsigned char *cd = NULL, *ad = NULL, *sig = NULL;
    size_t cd_len = 0, ad_len = 0, sig_len = 0;
    if (body == NULL || !expect_of(req, rp, &ex, res) ||
        api_account_address_limited(srv, req, res) ||
        (cd = blob(body, "client_data", &cd_len, res)) == NULL ||
        (ad = blob(body, "authenticator_data", &ad_len, res)) == NULL ||
        (sig = blob(body, "signature", &sig_len, res)) == NULL)
        goto done;
    StorePasskey p;
    StoreUser u;
    const char *why = check_sign_in(srv, req, &ex, body, cd, cd_len, ad, ad_len, sig, sig_len,
                                    &p, &u, msg, sizeof msg);
    if (why != NULL) {
        api_account_address_failed(srv, req);
        response_error(res, 401, "%s", why);
    } else if (api_account_open_session(srv, req, &u, res)) {
        api_answer_json(res, 200, json_pack("{s:s}", "name", u.name));
    }
done:
    free(cd);
    free(ad);
    free(sig);
    json_decref(body);
}
