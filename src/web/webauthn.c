/*
 * webauthn.c - the checks of passkey registrations and sign-ins (webauthn.h). CBOR is
 * libcbor's to read and the signature libfido2's to check, so that what is written here
 * is only WebAuthn's layout: which field is where, and what must match.
 */
#include "web/webauthn.h"

#include <cbor.h>
#include <fido.h>
#include <fido/eddsa.h>
#include <fido/es256.h>
#include <fido/rs256.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* The fixed head of authenticator data: rpIdHash, flags, signCount; then, with AT, the
 * AAGUID and the credential id's length. */
enum { AD_HEAD = 37, AD_AAGUID = 16 };

/* What the scan of cbor_load_bounded saw: the input's length, and whether a container
 * claimed more entries than it could hold. */
typedef struct CborScan {
    size_t len;
    bool too_many;
} CborScan;

static void scan_array(void *ctx, size_t n)
{
    CborScan *s = ctx;
    s->too_many = s->too_many || n > s->len;
}

static void scan_map(void *ctx, size_t n)
{
    CborScan *s = ctx;
    s->too_many = s->too_many || n > s->len / 2;
}

/* cbor_load, after a scan of the item's heads: libcbor allocates a definite array or map
 * for the entries its head claims before reading them, so a few bytes claiming 2^60
 * entries would ask for that much memory. Each entry takes a byte at least, so a claim
 * beyond the input's length is refused here first. */
static cbor_item_t *cbor_load_bounded(const unsigned char *data, size_t len,
                                      struct cbor_load_result *r)
{
    struct cbor_callbacks cb = cbor_empty_callbacks;
    cb.array_start = scan_array;
    cb.map_start = scan_map;
    CborScan scan = {.len = len, .too_many = false};
    for (size_t at = 0; at < len && !scan.too_many;) {
        const struct cbor_decoder_result d = cbor_stream_decode(data + at, len - at, &cb, &scan);
        if (d.status != CBOR_DECODER_FINISHED || d.read == 0)
            break; // cut short or not CBOR: cbor_load says so itself
        at += d.read;
    }
    if (scan.too_many) {
        memset(r, 0, sizeof *r);
        r->error.code = CBOR_ERR_MALFORMATED;
        return NULL;
    }
    return cbor_load(data, len, r);
}

bool webauthn_b64(const unsigned char *in, size_t n, char *out, size_t cap)
{
    if (cap < sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_URLSAFE_NO_PADDING))
        return false;
    sodium_bin2base64(out, cap, in, n, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return true;
}

bool webauthn_unb64(const char *in, unsigned char *out, size_t cap, size_t *n)
{
    const char *end = NULL;
    *n = 0;
    return sodium_base642bin(out, cap, in, strlen(in), NULL, n, &end,
                             sodium_base64_VARIANT_URLSAFE_NO_PADDING) == 0 &&
           *end == '\0';
}

bool webauthn_challenge(char out[WEBAUTHN_B64_CAP])
{
    unsigned char c[WEBAUTHN_CHALLENGE_BYTES];
    if (sodium_init() < 0)
        return false;
    randombytes_buf(c, sizeof c);
    return webauthn_b64(c, sizeof c, out, WEBAUTHN_B64_CAP);
}

bool webauthn_rp_id(const char *origin, char *out, size_t cap)
{
    const char *p = strstr(origin, "://");
    if (p == NULL)
        return false;
    p += 3;
    if (*p == '[')
        return false; // an IPv6 literal: no relying party id
    const size_t n = strcspn(p, ":/?#");
    if (n == 0 || n >= cap)
        return false;
    snprintf(out, cap, "%.*s", (int)n, p);
    bool digits_dots = true;
    for (size_t i = 0; i < n; i++)
        digits_dots = digits_dots && (out[i] == '.' || (out[i] >= '0' && out[i] <= '9'));
    return !digits_dots;
}

Status webauthn_client_data(const unsigned char *json, size_t len, const char *type,
                            const WebauthnExpect *ex, ErrBuf *err)
{
    json_error_t jerr;
    json_t *cd = json_loadb((const char *)json, len, 0, &jerr);
    if (!json_is_object(cd)) {
        json_decref(cd);
        return err_set(err, STATUS_PARSE, "the client data is not a JSON object");
    }
    const char *t = json_string_value(json_object_get(cd, "type"));
    const char *challenge = json_string_value(json_object_get(cd, "challenge"));
    const char *origin = json_string_value(json_object_get(cd, "origin"));
    Status s = STATUS_OK;
    if (t == NULL || strcmp(t, type) != 0)
        s = err_set(err, STATUS_ILLEGAL, "the client data's type is not %s", type);
    else if (challenge == NULL || ex->challenge == NULL || strcmp(challenge, ex->challenge) != 0)
        s = err_set(err, STATUS_ILLEGAL, "the client data's challenge is not the one given");
    else if (origin == NULL || ex->origin == NULL || strcmp(origin, ex->origin) != 0)
        s = err_set(err, STATUS_ILLEGAL, "the client data's origin is not this page's");
    else if (json_is_true(json_object_get(cd, "crossOrigin")))
        s = err_set(err, STATUS_ILLEGAL, "a passkey is not used from another site's frame");
    json_decref(cd);
    return s;
}

/* With the ED flag, the rest of the authenticator data from `at` is one CBOR map of
 * extensions. libfido2 reads it with cbor_load, which trusts a container's claimed size:
 * it is read here first, bounded, and refused when it is not CBOR. */
static Status check_extensions(const unsigned char *data, size_t len, size_t at, int flags,
                               ErrBuf *err)
{
    if (!(flags & WEBAUTHN_FLAG_ED))
        return STATUS_OK;
    struct cbor_load_result r;
    cbor_item_t *ext = at < len ? cbor_load_bounded(data + at, len - at, &r) : NULL;
    if (ext == NULL)
        return err_set(err, STATUS_PARSE, "the authenticator data's extensions are not CBOR");
    cbor_decref(&ext);
    return STATUS_OK;
}

Status webauthn_auth_data(const unsigned char *data, size_t len, WebauthnAuthData *out,
                          ErrBuf *err)
{
    memset(out, 0, sizeof *out);
    if (len < AD_HEAD)
        return err_set(err, STATUS_PARSE, "the authenticator data is too short");
    memcpy(out->rp_hash, data, 32);
    out->flags = data[32];
    out->sign_count = (uint32_t)data[33] << 24 | (uint32_t)data[34] << 16 |
                      (uint32_t)data[35] << 8 | data[36];
    if (!(out->flags & WEBAUTHN_FLAG_AT))
        return check_extensions(data, len, AD_HEAD, out->flags, err);
    size_t at = AD_HEAD + AD_AAGUID;
    if (len < at + 2)
        return err_set(err, STATUS_PARSE, "the authenticator data's credential is cut short");
    const size_t id_len = (size_t)data[at] << 8 | data[at + 1];
    at += 2;
    if (id_len == 0 || id_len > WEBAUTHN_ID_MAX || len - at <= id_len)
        return err_set(err, STATUS_PARSE, "the authenticator data's credential id is not "
                       "1 to %d bytes followed by a key", WEBAUTHN_ID_MAX);
    out->cred_id = data + at;
    out->cred_id_len = id_len;
    at += id_len;
    // The key is one CBOR item; extensions may follow it, so its length is what libcbor
    // read of the rest.
    struct cbor_load_result r;
    cbor_item_t *key = cbor_load_bounded(data + at, len - at, &r);
    if (key == NULL)
        return err_set(err, STATUS_PARSE, "the authenticator data's public key is not CBOR");
    cbor_decref(&key);
    out->cose = data + at;
    out->cose_len = r.read;
    return check_extensions(data, len, at + r.read, out->flags, err);
}

/* The integer a CBOR item holds, false when it holds none (or one out of int's range). */
static bool cbor_int(const cbor_item_t *item, long *out)
{
    if (!cbor_is_int(item) || cbor_get_int(item) > 0x7fffffff)
        return false;
    const long v = (long)cbor_get_int(item);
    *out = cbor_isa_negint(item) ? -1 - v : v;
    return true;
}

/* The value of integer key `k` in a CBOR map, or NULL. */
static cbor_item_t *map_get(const cbor_item_t *map, long k)
{
    const struct cbor_pair *p = cbor_map_handle(map);
    for (size_t i = 0; i < cbor_map_size(map); i++) {
        long key;
        if (cbor_int(p[i].key, &key) && key == k)
            return p[i].value;
    }
    return NULL;
}

/* The bytes of byte string `k` of a map into raw, exactly n of them; false otherwise. */
static bool map_bytes(const cbor_item_t *map, long k, unsigned char *raw, size_t n)
{
    const cbor_item_t *v = map_get(map, k);
    if (v == NULL || !cbor_isa_bytestring(v) || !cbor_bytestring_is_definite(v) ||
        cbor_bytestring_length(v) != n)
        return false;
    memcpy(raw, cbor_bytestring_handle(v), n);
    return true;
}

/* Whether libfido2 takes the raw key (a point on the curve, a usable RSA key). */
static bool key_usable(const WebauthnKey *k)
{
    int r = FIDO_ERR_INVALID_ARGUMENT;
    if (k->alg == WEBAUTHN_ES256) {
        es256_pk_t *pk = es256_pk_new();
        r = pk ? es256_pk_from_ptr(pk, k->raw, k->raw_len) : FIDO_ERR_INTERNAL;
        es256_pk_free(&pk);
    } else if (k->alg == WEBAUTHN_EDDSA) {
        eddsa_pk_t *pk = eddsa_pk_new();
        r = pk ? eddsa_pk_from_ptr(pk, k->raw, k->raw_len) : FIDO_ERR_INTERNAL;
        eddsa_pk_free(&pk);
    } else if (k->alg == WEBAUTHN_RS256) {
        rs256_pk_t *pk = rs256_pk_new();
        r = pk ? rs256_pk_from_ptr(pk, k->raw, k->raw_len) : FIDO_ERR_INTERNAL;
        rs256_pk_free(&pk);
    }
    return r == FIDO_OK;
}

/* Fills k from an already loaded COSE map (RFC 9053: kty 1, alg 3, then by key type
 * crv -1 and x -2 / y -3, or n -1 and e -2). */
static Status cose_fill(const cbor_item_t *map, WebauthnKey *k, ErrBuf *err)
{
    long kty = 0, alg = 0, crv = 0;
    const cbor_item_t *c = map_get(map, -1), *kt = map_get(map, 1), *al = map_get(map, 3);
    if (kt == NULL || al == NULL || !cbor_int(kt, &kty) || !cbor_int(al, &alg))
        return err_set(err, STATUS_PARSE, "the public key has no key type or algorithm");
    k->alg = (int)alg;
    bool ok = false;
    if (kty == 2 && alg == WEBAUTHN_ES256) {
        ok = c && cbor_int(c, &crv) && crv == 1 && map_bytes(map, -2, k->raw, 32) &&
             map_bytes(map, -3, k->raw + 32, 32);
        k->raw_len = 64;
    } else if (kty == 1 && alg == WEBAUTHN_EDDSA) {
        ok = c && cbor_int(c, &crv) && crv == 6 && map_bytes(map, -2, k->raw, 32);
        k->raw_len = 32;
    } else if (kty == 3 && alg == WEBAUTHN_RS256) {
        ok = map_bytes(map, -1, k->raw, 256) && map_bytes(map, -2, k->raw + 256, 3);
        k->raw_len = 259;
    } else {
        return err_set(err, STATUS_UNSUPPORTED, "the public key's algorithm %ld is not ES256 "
                       "(-7), EdDSA (-8) or RS256 (-257)", alg);
    }
    if (!ok || !key_usable(k))
        return err_set(err, STATUS_PARSE, "the public key's parameters are not a usable "
                       "%s key", alg == WEBAUTHN_ES256 ? "P-256" : alg == WEBAUTHN_EDDSA
                                                                    ? "Ed25519" : "RSA-2048");
    return STATUS_OK;
}

Status webauthn_cose_key(const unsigned char *data, size_t len, WebauthnKey *out, ErrBuf *err)
{
    memset(out, 0, sizeof *out);
    struct cbor_load_result r;
    cbor_item_t *map =
        len > 0 && len <= WEBAUTHN_COSE_MAX ? cbor_load_bounded(data, len, &r) : NULL;
    if (map == NULL || !cbor_isa_map(map) || !cbor_map_is_definite(map) || r.read != len) {
        if (map != NULL)
            cbor_decref(&map);
        return err_set(err, STATUS_PARSE, "the public key is not one COSE key of at most %d "
                       "bytes", WEBAUTHN_COSE_MAX);
    }
    const Status s = cose_fill(map, out, err);
    cbor_decref(&map);
    if (s != STATUS_OK)
        memset(out, 0, sizeof *out);
    return s;
}

/* The authData byte string of an attestation object {fmt, attStmt, authData}, copied
 * into buf; 0 when there is none. */
static size_t att_auth_data(const unsigned char *obj, size_t len, unsigned char *buf, size_t cap)
{
    struct cbor_load_result r;
    cbor_item_t *map = cbor_load_bounded(obj, len, &r);
    size_t n = 0;
    if (map != NULL && cbor_isa_map(map) && cbor_map_is_definite(map)) {
        const struct cbor_pair *p = cbor_map_handle(map);
        for (size_t i = 0; i < cbor_map_size(map); i++) {
            const cbor_item_t *k = p[i].key, *v = p[i].value;
            if (cbor_isa_string(k) && cbor_string_is_definite(k) &&
                cbor_string_length(k) == 8 && memcmp(cbor_string_handle(k), "authData", 8) == 0 &&
                cbor_isa_bytestring(v) && cbor_bytestring_is_definite(v) &&
                cbor_bytestring_length(v) <= cap) {
                n = cbor_bytestring_length(v);
                memcpy(buf, cbor_bytestring_handle(v), n);
            }
        }
    }
    if (map != NULL)
        cbor_decref(&map);
    return n;
}

/* Whether the authenticator data names this relying party and has the flags asked. */
static Status check_rp_flags(const WebauthnExpect *ex, const WebauthnAuthData *ad, ErrBuf *err)
{
    unsigned char want[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(want, (const unsigned char *)ex->rp_id, strlen(ex->rp_id));
    if (sodium_memcmp(want, ad->rp_hash, sizeof want) != 0)
        return err_set(err, STATUS_ILLEGAL, "the passkey was made for another site than %s",
                       ex->rp_id);
    if (!(ad->flags & WEBAUTHN_FLAG_UP))
        return err_set(err, STATUS_ILLEGAL, "the authenticator did not see the user present");
    if (ex->need_uv && !(ad->flags & WEBAUTHN_FLAG_UV))
        return err_set(err, STATUS_ILLEGAL, "the authenticator did not verify the user");
    return STATUS_OK;
}

Status webauthn_register(const WebauthnExpect *ex, const unsigned char *client_data,
                         size_t cd_len, const unsigned char *att_obj, size_t ao_len,
                         WebauthnCredential *out, ErrBuf *err)
{
    memset(out, 0, sizeof *out);
    Status s = webauthn_client_data(client_data, cd_len, "webauthn.create", ex, err);
    if (s != STATUS_OK)
        return s;
    unsigned char buf[AD_HEAD + AD_AAGUID + 2 + WEBAUTHN_ID_MAX + WEBAUTHN_COSE_MAX + 512];
    const size_t n = att_auth_data(att_obj, ao_len, buf, sizeof buf);
    if (n == 0)
        return err_set(err, STATUS_PARSE, "the attestation object is not a CBOR map with "
                       "authenticator data");
    WebauthnAuthData ad;
    WebauthnKey key;
    if ((s = webauthn_auth_data(buf, n, &ad, err)) != STATUS_OK ||
        (s = check_rp_flags(ex, &ad, err)) != STATUS_OK)
        return s;
    if (ad.cred_id == NULL)
        return err_set(err, STATUS_PARSE, "the authenticator data holds no new credential");
    if ((s = webauthn_cose_key(ad.cose, ad.cose_len, &key, err)) != STATUS_OK)
        return s;
    if (!webauthn_b64(ad.cred_id, ad.cred_id_len, out->id, sizeof out->id) ||
        !webauthn_b64(ad.cose, ad.cose_len, out->cose, sizeof out->cose))
        return err_set(err, STATUS_PARSE, "the credential is too long");
    out->alg = key.alg;
    out->sign_count = ad.sign_count;
    out->flags = ad.flags;
    return STATUS_OK;
}

/* libfido2's check of one assertion against key k. */
static int fido_check(const WebauthnExpect *ex, const WebauthnKey *k,
                      const unsigned char *client_data, size_t cd_len,
                      const unsigned char *auth_data, size_t ad_len, const unsigned char *sig,
                      size_t sig_len)
{
    fido_assert_t *a = fido_assert_new();
    es256_pk_t *es = NULL;
    eddsa_pk_t *ed = NULL;
    rs256_pk_t *rs = NULL;
    const void *pk = NULL;
    int r = a == NULL ? FIDO_ERR_INTERNAL : FIDO_OK;
    if (r == FIDO_OK && k->alg == WEBAUTHN_ES256 && (es = es256_pk_new()) != NULL &&
        (r = es256_pk_from_ptr(es, k->raw, k->raw_len)) == FIDO_OK)
        pk = es;
    else if (r == FIDO_OK && k->alg == WEBAUTHN_EDDSA && (ed = eddsa_pk_new()) != NULL &&
             (r = eddsa_pk_from_ptr(ed, k->raw, k->raw_len)) == FIDO_OK)
        pk = ed;
    else if (r == FIDO_OK && k->alg == WEBAUTHN_RS256 && (rs = rs256_pk_new()) != NULL &&
             (r = rs256_pk_from_ptr(rs, k->raw, k->raw_len)) == FIDO_OK)
        pk = rs;
    if (pk == NULL && r == FIDO_OK)
        r = FIDO_ERR_INTERNAL;
    if (r == FIDO_OK && (r = fido_assert_set_count(a, 1)) == FIDO_OK &&
        (r = fido_assert_set_rp(a, ex->rp_id)) == FIDO_OK &&
        (r = fido_assert_set_clientdata(a, client_data, cd_len)) == FIDO_OK &&
        (r = fido_assert_set_authdata_raw(a, 0, auth_data, ad_len)) == FIDO_OK &&
        (r = fido_assert_set_sig(a, 0, sig, sig_len)) == FIDO_OK &&
        (r = fido_assert_set_up(a, FIDO_OPT_TRUE)) == FIDO_OK &&
        (r = fido_assert_set_uv(a, ex->need_uv ? FIDO_OPT_TRUE : FIDO_OPT_OMIT)) == FIDO_OK)
        r = fido_assert_verify(a, 0, k->alg, pk);
    es256_pk_free(&es);
    eddsa_pk_free(&ed);
    rs256_pk_free(&rs);
    fido_assert_free(&a);
    return r;
}

Status webauthn_verify(const WebauthnExpect *ex, const char *cose, const unsigned char *client_data,
                       size_t cd_len, const unsigned char *auth_data, size_t ad_len,
                       const unsigned char *sig, size_t sig_len, uint32_t *sign_count,
                       ErrBuf *err)
{
    *sign_count = 0;
    unsigned char raw[WEBAUTHN_COSE_MAX];
    size_t n;
    WebauthnKey key;
    WebauthnAuthData ad;
    Status s;
    if (!webauthn_unb64(cose, raw, sizeof raw, &n))
        return err_set(err, STATUS_CORRUPT, "the stored key is not base64url");
    if ((s = webauthn_cose_key(raw, n, &key, err)) != STATUS_OK ||
        (s = webauthn_client_data(client_data, cd_len, "webauthn.get", ex, err)) != STATUS_OK ||
        (s = webauthn_auth_data(auth_data, ad_len, &ad, err)) != STATUS_OK ||
        (s = check_rp_flags(ex, &ad, err)) != STATUS_OK)
        return s;
    if (sig_len == 0)
        return err_set(err, STATUS_PARSE, "the signature is empty");
    const int r = fido_check(ex, &key, client_data, cd_len, auth_data, ad_len, sig, sig_len);
    if (r != FIDO_OK)
        return err_set(err, STATUS_ILLEGAL, "the passkey's signature does not verify (%s)",
                       fido_strerr(r));
    *sign_count = ad.sign_count;
    return STATUS_OK;
}

bool webauthn_count_ok(uint32_t stored, uint32_t now)
{
    return now > stored || (now == 0 && stored == 0);
}
