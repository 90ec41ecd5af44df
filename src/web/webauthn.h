/*
 * webauthn.h - the server's side of a passkey (WebAuthn): reading what a browser's
 * navigator.credentials.create answers (the client data, the attestation object, its
 * authenticator data and COSE public key) and checking what navigator.credentials.get
 * answers against a stored key. CBOR is read with libcbor; the signature, the relying
 * party's hash and the user-presence flags are checked by libfido2 (fido_assert_verify).
 * Pure functions of their inputs: the challenges and the stored keys are the caller's
 * (api_passkey.c, store_passkey.h). Every malformed or mismatching input is refused
 * with a Status and a message (STATUS_PARSE: not the shape; STATUS_ILLEGAL: a check
 * failed; STATUS_UNSUPPORTED: another algorithm), never a crash.
 *
 * Attestation is "none": a statement, if the authenticator sends one, is not relied on,
 * so any format is accepted and only the authenticator data is read.
 */
#ifndef CROWN_WEB_WEBAUTHN_H
#define CROWN_WEB_WEBAUTHN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

enum {
    WEBAUTHN_CHALLENGE_BYTES = 32,
    WEBAUTHN_B64_CAP = 1400,     /* base64url of an id or a key, and its NUL */
    WEBAUTHN_ID_MAX = 1023,      /* a credential id's bytes (WebAuthn's own limit) */
    WEBAUTHN_COSE_MAX = 600,     /* a COSE key's bytes: an RSA-2048 key is about 270 */
    WEBAUTHN_ORIGIN_MAX = 256,
    WEBAUTHN_ES256 = -7,         /* COSE algorithms: ECDSA P-256 with SHA-256, */
    WEBAUTHN_EDDSA = -8,         /* Ed25519, */
    WEBAUTHN_RS256 = -257,       /* RSASSA-PKCS1-v1_5 with SHA-256 (2048-bit keys) */
    WEBAUTHN_FLAG_UP = 0x01,     /* the user was present */
    WEBAUTHN_FLAG_UV = 0x04,     /* the user was verified (PIN, biometrics) */
    WEBAUTHN_FLAG_AT = 0x40,     /* attested credential data follows */
    WEBAUTHN_FLAG_ED = 0x80,     /* extensions follow */
};

/* What a ceremony must match: the page's origin (the request's checked Origin), the
 * relying party's id (the origin's host), the challenge the server gave (base64url)
 * and whether the user must have been verified. */
typedef struct WebauthnExpect {
    const char *origin;
    const char *rp_id;
    const char *challenge;
    bool need_uv;
} WebauthnExpect;

/* A public key read from its COSE form: its algorithm and libfido2's raw form of it
 * (ES256: x||y; EdDSA: the point; RS256: n||e, 256 + 3 bytes). */
typedef struct WebauthnKey {
    int alg;
    unsigned char raw[259];
    size_t raw_len;
} WebauthnKey;

/* The authenticator data's fields. The COSE key points into the data read. */
typedef struct WebauthnAuthData {
    unsigned char rp_hash[32];
    uint8_t flags;
    uint32_t sign_count;
    const unsigned char *cred_id, *cose; /* NULL unless the AT flag is set */
    size_t cred_id_len, cose_len;
} WebauthnAuthData;

/* A credential that navigator.credentials.create made, ready to store. */
typedef struct WebauthnCredential {
    char id[WEBAUTHN_B64_CAP];  /* base64url */
    char cose[WEBAUTHN_B64_CAP]; /* the COSE key, base64url */
    int alg;
    uint32_t sign_count;
    uint8_t flags;
} WebauthnCredential;

/* Base64url without padding (WebAuthn's JSON form) of n bytes into out (cap bytes with
 * its NUL); false when it does not fit. */
bool webauthn_b64(const unsigned char *in, size_t n, char *out, size_t cap);
/* The bytes of base64url text (padding refused) into out; false when it is not
 * base64url or does not fit in cap. */
bool webauthn_unb64(const char *in, unsigned char *out, size_t cap, size_t *n);
/* A new random challenge as base64url; false when no randomness was to be had. */
bool webauthn_challenge(char out[WEBAUTHN_B64_CAP]);
/* The relying party's id of an origin ("https://play.example:8443" -> "play.example");
 * false when the origin has no host name (WebAuthn refuses address literals). */
bool webauthn_rp_id(const char *origin, char *out, size_t cap);

/* Checks clientDataJSON: its type ("webauthn.create" or "webauthn.get"), challenge and
 * origin, and that it was not made in a frame of another site. */
Status webauthn_client_data(const unsigned char *json, size_t len, const char *type,
                            const WebauthnExpect *ex, ErrBuf *err);
/* Reads authenticator data; with the AT flag, its credential id and COSE key too. */
Status webauthn_auth_data(const unsigned char *data, size_t len, WebauthnAuthData *out,
                          ErrBuf *err);
/* Reads a COSE public key of one of the three algorithms above. */
Status webauthn_cose_key(const unsigned char *data, size_t len, WebauthnKey *out, ErrBuf *err);

/* The whole check of a registration: the client data (type webauthn.create), the
 * attestation object's authenticator data (the relying party's hash, user presence,
 * verification when asked, a credential and a key this server can check). */
Status webauthn_register(const WebauthnExpect *ex, const unsigned char *client_data,
                         size_t cd_len, const unsigned char *att_obj, size_t ao_len,
                         WebauthnCredential *out, ErrBuf *err);
/* The whole check of a sign-in with the stored COSE key (cose, base64url): the client
 * data (type webauthn.get) and, by libfido2, the relying party's hash, the flags and the
 * signature over authenticatorData || SHA-256(clientDataJSON). *sign_count is the
 * authenticator's counter; whether it went up is the caller's check
 * (webauthn_count_ok). */
Status webauthn_verify(const WebauthnExpect *ex, const char *cose, const unsigned char *client_data,
                       size_t cd_len, const unsigned char *auth_data, size_t ad_len,
                       const unsigned char *sig, size_t sig_len, uint32_t *sign_count,
                       ErrBuf *err);
/* Whether a sign-in's counter may follow the stored one: it goes up, or both are 0 (an
 * authenticator without a counter, as synced passkeys are). Anything else is a cloned
 * authenticator's mark. */
bool webauthn_count_ok(uint32_t stored, uint32_t now);

#endif
