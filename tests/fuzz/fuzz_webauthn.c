/*
 * fuzz_webauthn.c - libFuzzer target: the passkey checks (src/web/webauthn.c) on any
 * bytes. The first byte picks what the rest is: an attestation object to register, a
 * COSE key, authenticator data, a sign-in's authenticator data or signature against a
 * fixed key, or client data. Anything must be refused with a message or accepted with
 * its fields filled; the sanitizers watch the reading. The seeds (corpus/webauthn) are
 * the fixed vectors of tests/test_webauthn.c with their first byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_support.h"
#include "web/webauthn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A registration's and a sign-in's client data for the expectations below. */
static const char CD_CREATE[] = "{\"type\":\"webauthn.create\",\"challenge\":\"AAAA\","
                                "\"origin\":\"http://localhost:8080\"}";
static const char CD_GET[] = "{\"type\":\"webauthn.get\",\"challenge\":\"AAAA\","
                             "\"origin\":\"http://localhost:8080\"}";
/* test_webauthn.c's ES256 key, COSE as base64url. */
static const char COSE[] = "pQECAyYgASFYIL18c7iLLptM7aYgIrLai-Exk6W1btwm5994QuJM0LXrIlggBgWtp72o"
                           "OsaiuA1-MUBA-kf_Frg7rIXO2wFEUbt85xo";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const WebauthnExpect ex = {.origin = "http://localhost:8080", .rp_id = "localhost",
                               .challenge = "AAAA"};
    const unsigned char *in = data + 1;
    const size_t n = size - 1;
    ErrBuf err = {{0}};
    Status s = STATUS_OK;
    switch (data[0] % 6) {
    case 0: {
        WebauthnCredential c;
        s = webauthn_register(&ex, (const unsigned char *)CD_CREATE, strlen(CD_CREATE), in, n,
                              &c, &err);
        if (s == STATUS_OK && (c.id[0] == '\0' || c.cose[0] == '\0'))
            fuzz_fail("a registration passed without a credential", err.msg);
        break;
    }
    case 1: {
        WebauthnKey k;
        s = webauthn_cose_key(in, n, &k, &err);
        if (s == STATUS_OK && k.raw_len == 0)
            fuzz_fail("a key was read without its bytes", "");
        break;
    }
    case 2: {
        WebauthnAuthData ad;
        s = webauthn_auth_data(in, n, &ad, &err);
        if (s == STATUS_OK && ad.cose != NULL && ad.cose + ad.cose_len > in + n)
            fuzz_fail("the key runs past the authenticator data", "");
        break;
    }
    case 3: {
        uint32_t count;
        const unsigned char sig[] = {0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01};
        s = webauthn_verify(&ex, COSE, (const unsigned char *)CD_GET, strlen(CD_GET), in, n, sig,
                            sizeof sig, &count, &err);
        break;
    }
    case 4: {
        uint32_t count;
        const unsigned char ad[37] = {0};
        s = webauthn_verify(&ex, COSE, (const unsigned char *)CD_GET, strlen(CD_GET), ad,
                            sizeof ad, in, n, &count, &err);
        if (s == STATUS_OK)
            fuzz_fail("a signature verified for another relying party", "");
        break;
    }
    default:
        s = webauthn_client_data(in, n, "webauthn.get", &ex, &err);
        break;
    }
    if (s != STATUS_OK && err.msg[0] == '\0')
        fuzz_fail("a refusal without a message", "");
    return 0;
}
