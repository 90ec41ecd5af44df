/*
 * test_webauthn.c - the passkey checks (src/web/webauthn.c) on fixed vectors: an ES256,
 * an EdDSA and an RS256 credential made and used as a browser's authenticator would
 * (attestation "none"), made once with Python's cryptography package and kept here as
 * hex. A registration and a sign-in pass; each thing that must match (type, challenge,
 * origin, relying party, flags, signature, key) is changed in turn and refused with a
 * message; every cut and every flipped byte of the inputs is refused without a crash,
 * and so are CBOR heads that claim more entries than the input holds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "web/webauthn.h"

/* Origin http://localhost:8080, relying party localhost; the challenges are CH_CREATE
 * and CH_GET below. */
static const char ES_CD_CREATE[] =
    "7b2274797065223a22776562617574686e2e637265617465222c226368616c6c656e6765"
    "223a2241414543417751464267634943516f4c4441304f4478415245684d554652595847"
    "426b6147787764486838222c226f726967696e223a22687474703a2f2f6c6f63616c686f"
    "73743a38303830222c2263726f73734f726967696e223a66616c73657d";
static const char ES_ATT[] =
    "a363666d74646e6f6e656761747453746d74a0686175746844617461589449960de5880e"
    "8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d976345000000000000000000"
    "000000000000000000000000106465666768696a6b6c6d6e6f70717273a5010203262001"
    "215820bd7c73b88b2e9b4ceda62022b2da8be13193a5b56edc26e7df7842e24cd0b5eb22"
    "58200605ada7bda83ac6a2b80d7e314040fa47ff16b83bac85cedb014451bb7ce71a";
static const char ES_CD_GET[] =
    "7b2274797065223a22776562617574686e2e676574222c226368616c6c656e6765223a22"
    "494345694979516c4a69636f4b536f724c4330754c7a41784d6a4d304e5459334f446b36"
    "4f7a7739506a38222c226f726967696e223a22687474703a2f2f6c6f63616c686f73743a"
    "38303830222c2263726f73734f726967696e223a66616c73657d";
static const char ES_AD[] =
    "49960de5880e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d976305000000"
    "07";
static const char ES_SIG[] =
    "3046022100f7bdc35991dbdacdf31156662445530580c74a9f1e5b4bce1e0ab722b2acd0"
    "d4022100e92f034acee940b467d47534e3e5447fca559b54a83752d77a5aaa21d95e6db9";
static const char ES_AD_NO_UP[] =
    "49960de5880e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d976304000000"
    "08";
static const char ES_SIG_NO_UP[] =
    "304602210095d91951d171d8a26b0cf5107e08d2c7e35db4ccdeb6b3d3a517e1790c1613"
    "1c022100b3204307d94482de9831db2b309dade818e2905acf6038ba402f4076e67dbf0f";
static const char ES_AD_NO_UV[] =
    "49960de5880e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d976301000000"
    "09";
static const char ES_SIG_NO_UV[] =
    "3045022100ab610a270f49d590138bd8fc5520ad99c7b49cea1975e7e8e8fc3b8d78888c"
    "f50220289872280b23721e7c98a13f4d09fa6cc12cb3660ab6d338814f259ce33ff62d";
static const char ED_ATT[] =
    "a363666d74646e6f6e656761747453746d74a0686175746844617461588149960de5880e"
    "8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d976341000000000000000000"
    "000000000000000000000000204242424242424242424242424242424242424242424242"
    "424242424242424242a401010327200621582032b53e882e3daac180d7a5f6224d61b640"
    "1b43f901db09f0e4d84ce4e4a2718b";
static const char ED_AD[] =
    "49960de5880e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d976301000000"
    "00";
static const char ED_SIG[] =
    "7f61c230ccb3e00af0eeec5d8f976a5e07d2732e306120e9195ac54ca2f555218d9575db"
    "4accfd8248a91218eb2cbe36a4fc69fa1d079a39bb1d7586b67fc70b";
static const char RS_ATT[] =
    "a363666d74646e6f6e656761747453746d74a068617574684461746159015b49960de588"
    "0e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d9763450000000000000000"
    "00000000000000000000000000140707070707070707070707070707070707070707a401"
    "030339010020590100a07bc8fb49ac8e32679bf1f49cb4996248bede323cdd9fdbcd733a"
    "35098f384a858c46f9b71d2ef0f0842a56553df1dfc40c96b0cef309e0434ba7f50a66a9"
    "f665dcfdbf95a03c091e876b46b4c15f3101e8674fdadcd656c5f7378964a018e54913da"
    "290fdea440436c59a16841b9a19aacb17ea58510ca0ca3687e0c10bac654e58b923b9bf2"
    "3dd692f2f78f117332ea5460d55cff0f4ea4194f55299937e9a2a3f838d6df1ccdbb4328"
    "2d87e85b50fa31def4550e73969fd9693790fcbbf33a13c7d2a89eec66ad64881378bde4"
    "f61b8a57a4bc9e94ae90f44182f9ecfc1c244855abc6611d1da247a27627158bc7868a1b"
    "7c701dc878e9fd0c5269c31e552143010001";
static const char RS_AD[] =
    "49960de5880e8c687434170f6476605b8fe4aeb9a28632c7995cf3ba831d976305000000"
    "03";
static const char RS_SIG[] =
    "5ff0eb32f57b44013f5886a4eb0fa4f7754cb015b423b61871a8879e4a678000034f8ce2"
    "391836ddb32e364e69c1b28b20ae6c12839134ed449d589f0b7e9c94655a01f3c0e035d9"
    "16c2c8d3b4e5bd1eb9350105ecf6c3c347aec280022b4bd6b5220ef68055c8b36cf13e29"
    "0de46a45b5e851eb295883996c55637ea4737ec84a1ab0c0d1086e81662f82e438a41289"
    "381743bcb9d42f360e32cdc2b959a324745651104ffe96259338deaa6fa955a66fe5b8b0"
    "71f7cc71d805522f56dbb9f658d2642b29eddc1c597a6c2b9175acb1e252d8f32397b7e6"
    "8073411a6a819b6c05ebc8c60f3f38b26db2024d4736a590d97a3e7ac8f41a2d2851db62"
    "e1b02252";
static const char COSE_ES384[] =
    "a50102033822200221583000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000000000022583000000000000000000000"
    "000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000";
static const char COSE_OFF_CURVE[] =
    "a50102032620012158200000000000000000000000000000000000000000000000000000"
    "000000000000225820010101010101010101010101010101010101010101010101010101"
    "0101010101";

static const char ORIGIN[] = "http://localhost:8080";
static const char CH_CREATE[] = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8";
static const char CH_GET[] = "ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8";

/* Bytes of a hex vector. */
typedef struct Bytes {
    unsigned char b[2048];
    size_t n;
} Bytes;

static Bytes hex(const char *h)
{
    Bytes o = {.n = strlen(h) / 2};
    assert_true(o.n <= sizeof o.b);
    for (size_t i = 0; i < o.n; i++) {
        unsigned v;
        assert_int_equal(sscanf(h + 2 * i, "%2x", &v), 1);
        o.b[i] = (unsigned char)v;
    }
    return o;
}

static WebauthnExpect expect(const char *challenge)
{
    return (WebauthnExpect){.origin = ORIGIN, .rp_id = "localhost", .challenge = challenge};
}

/* Registers att (with the ES256 client data) and returns the credential. */
static WebauthnCredential registered(const char *att)
{
    const WebauthnExpect ex = expect(CH_CREATE);
    const Bytes cd = hex(ES_CD_CREATE), ao = hex(att);
    WebauthnCredential c;
    ErrBuf err = {{0}};
    assert_int_equal(webauthn_register(&ex, cd.b, cd.n, ao.b, ao.n, &c, &err), STATUS_OK);
    return c;
}

/* A sign-in's status with the stored key cose; *count its counter. */
static Status sign_in(const WebauthnExpect *ex, const char *cose, const char *cd_hex,
                      const char *ad_hex, const char *sig_hex, uint32_t *count, ErrBuf *err)
{
    const Bytes cd = hex(cd_hex), ad = hex(ad_hex), sig = hex(sig_hex);
    return webauthn_verify(ex, cose, cd.b, cd.n, ad.b, ad.n, sig.b, sig.n, count, err);
}

static void test_es256_register_and_sign_in(void **state)
{
    (void)state;
    const WebauthnCredential c = registered(ES_ATT);
    assert_int_equal(c.alg, WEBAUTHN_ES256);
    assert_int_equal(c.sign_count, 0);
    assert_string_equal(c.id, "ZGVmZ2hpamtsbW5vcHFycw"); // bytes 100..115
    assert_true(c.flags & WEBAUTHN_FLAG_UV);
    const WebauthnExpect ex = expect(CH_GET);
    uint32_t count = 0;
    ErrBuf err = {{0}};
    assert_int_equal(sign_in(&ex, c.cose, ES_CD_GET, ES_AD, ES_SIG, &count, &err), STATUS_OK);
    assert_int_equal(count, 7);
    WebauthnExpect uv = ex;
    uv.need_uv = true;
    assert_int_equal(sign_in(&uv, c.cose, ES_CD_GET, ES_AD, ES_SIG, &count, &err), STATUS_OK);
}

static void test_eddsa_and_rs256(void **state)
{
    (void)state;
    const WebauthnCredential ed = registered(ED_ATT), rs = registered(RS_ATT);
    assert_int_equal(ed.alg, WEBAUTHN_EDDSA);
    assert_int_equal(rs.alg, WEBAUTHN_RS256);
    const WebauthnExpect ex = expect(CH_GET);
    uint32_t count = 99;
    ErrBuf err = {{0}};
    assert_int_equal(sign_in(&ex, ed.cose, ES_CD_GET, ED_AD, ED_SIG, &count, &err), STATUS_OK);
    assert_int_equal(count, 0);
    assert_int_equal(sign_in(&ex, rs.cose, ES_CD_GET, RS_AD, RS_SIG, &count, &err), STATUS_OK);
    assert_int_equal(count, 3);
    // One credential's signature is not another's.
    assert_int_equal(sign_in(&ex, ed.cose, ES_CD_GET, ES_AD, ES_SIG, &count, &err), STATUS_ILLEGAL);
}

/* Each thing a sign-in must match, changed in turn: refused, with its reason. */
static void test_sign_in_refusals(void **state)
{
    (void)state;
    const WebauthnCredential c = registered(ES_ATT);
    const WebauthnExpect good = expect(CH_GET);
    uint32_t count = 0;
    ErrBuf err = {{0}};
    WebauthnExpect ex = good;
    ex.challenge = CH_CREATE;
    assert_int_equal(sign_in(&ex, c.cose, ES_CD_GET, ES_AD, ES_SIG, &count, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "challenge"));
    ex = good;
    ex.origin = "http://localhost:8081";
    assert_int_equal(sign_in(&ex, c.cose, ES_CD_GET, ES_AD, ES_SIG, &count, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "origin"));
    ex = good;
    ex.rp_id = "example.com";
    assert_int_equal(sign_in(&ex, c.cose, ES_CD_GET, ES_AD, ES_SIG, &count, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "another site"));
    // The creation's client data is not a sign-in's.
    ex = expect(CH_CREATE);
    assert_int_equal(sign_in(&ex, c.cose, ES_CD_CREATE, ES_AD, ES_SIG, &count, &err),
                     STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "type"));
    assert_int_equal(sign_in(&good, c.cose, ES_CD_GET, ES_AD_NO_UP, ES_SIG_NO_UP, &count, &err),
                     STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "present"));
    ex = good;
    ex.need_uv = true;
    assert_int_equal(sign_in(&ex, c.cose, ES_CD_GET, ES_AD_NO_UV, ES_SIG_NO_UV, &count, &err),
                     STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "verify the user"));
    // Without the need, the same assertion is good.
    assert_int_equal(sign_in(&good, c.cose, ES_CD_GET, ES_AD_NO_UV, ES_SIG_NO_UV, &count, &err),
                     STATUS_OK);
    assert_int_equal(count, 9);
    // Another signed data's signature, a changed counter: the signature fails.
    assert_int_equal(sign_in(&good, c.cose, ES_CD_GET, ES_AD, ES_SIG_NO_UV, &count, &err),
                     STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "signature"));
    Bytes ad = hex(ES_AD), cd = hex(ES_CD_GET), sig = hex(ES_SIG);
    ad.b[36] ^= 1;
    assert_int_equal(webauthn_verify(&good, c.cose, cd.b, cd.n, ad.b, ad.n, sig.b, sig.n, &count,
                                     &err), STATUS_ILLEGAL);
    assert_int_equal(count, 0);
    assert_int_equal(webauthn_verify(&good, "not base64!", cd.b, cd.n, ad.b, ad.n, sig.b, sig.n,
                                     &count, &err), STATUS_CORRUPT);
}

static void test_register_refusals(void **state)
{
    (void)state;
    const WebauthnExpect good = expect(CH_CREATE);
    const Bytes cd = hex(ES_CD_CREATE), ao = hex(ES_ATT);
    WebauthnCredential c;
    ErrBuf err = {{0}};
    WebauthnExpect ex = good;
    ex.rp_id = "crown.example";
    assert_int_equal(webauthn_register(&ex, cd.b, cd.n, ao.b, ao.n, &c, &err), STATUS_ILLEGAL);
    ex = expect(CH_GET);
    assert_int_equal(webauthn_register(&ex, cd.b, cd.n, ao.b, ao.n, &c, &err), STATUS_ILLEGAL);
    // EdDSA's vector was made without user verification.
    const Bytes ed = hex(ED_ATT);
    ex = good;
    ex.need_uv = true;
    assert_int_equal(webauthn_register(&ex, cd.b, cd.n, ed.b, ed.n, &c, &err), STATUS_ILLEGAL);
    // A sign-in's authenticator data has no credential to register.
    const Bytes get = hex(ES_AD);
    assert_int_equal(webauthn_register(&good, cd.b, cd.n, get.b, get.n, &c, &err), STATUS_PARSE);
    assert_int_equal(webauthn_register(&good, cd.b, cd.n, (const unsigned char *)"", 0, &c, &err),
                     STATUS_PARSE);
    const unsigned char not_json[] = "{\"type\":";
    assert_int_equal(webauthn_register(&good, not_json, sizeof not_json - 1, ao.b, ao.n, &c, &err),
                     STATUS_PARSE);
}

static void test_cose_keys(void **state)
{
    (void)state;
    WebauthnKey k;
    ErrBuf err = {{0}};
    const Bytes es384 = hex(COSE_ES384), off = hex(COSE_OFF_CURVE);
    assert_int_equal(webauthn_cose_key(es384.b, es384.n, &k, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "-35"));
    assert_int_equal(webauthn_cose_key(off.b, off.n, &k, &err), STATUS_PARSE);
    assert_int_equal(k.alg, 0);
    const unsigned char not_map[] = {0x83, 1, 2, 3}, empty_map[] = {0xa0};
    assert_int_equal(webauthn_cose_key(not_map, sizeof not_map, &k, &err), STATUS_PARSE);
    assert_int_equal(webauthn_cose_key(empty_map, sizeof empty_map, &k, &err), STATUS_PARSE);
    assert_int_equal(webauthn_cose_key(empty_map, 0, &k, &err), STATUS_PARSE);
    // Heads claiming 2^59 entries (libcbor would allocate for them all before reading
    // one): refused before any is allocated; the sanitizers would stop on the allocation.
    const unsigned char huge_array[] = {0x9b, 0x08, 0x10, 0x1b, 0xe3, 0x9d, 0xc4, 0x59, 0x70};
    const unsigned char huge_map[] = {0xbb, 0x08, 0x10, 0x1b, 0xe3, 0x9d, 0xc4, 0x59, 0x70, 1};
    assert_int_equal(webauthn_cose_key(huge_array, sizeof huge_array, &k, &err), STATUS_PARSE);
    assert_int_equal(webauthn_cose_key(huge_map, sizeof huge_map, &k, &err), STATUS_PARSE);
    const WebauthnExpect ex = expect(CH_CREATE);
    const Bytes cd = hex(ES_CD_CREATE);
    WebauthnCredential c;
    assert_int_equal(webauthn_register(&ex, cd.b, cd.n, huge_map, sizeof huge_map, &c, &err),
                     STATUS_PARSE);
    // The same head as a sign-in's extensions (flag ED), which libfido2 would read with an
    // unbounded cbor_load (found by fuzz_webauthn): refused before libfido2 sees them.
    unsigned char ad[37 + sizeof huge_map] = {0};
    ad[32] = WEBAUTHN_FLAG_UP | WEBAUTHN_FLAG_ED;
    memcpy(ad + 37, huge_map, sizeof huge_map);
    WebauthnAuthData parsed;
    assert_int_equal(webauthn_auth_data(ad, sizeof ad, &parsed, &err), STATUS_PARSE);
    assert_non_null(strstr(err.msg, "extensions"));
    ad[37] = 0xa0; // an empty map of extensions is well formed
    assert_int_equal(webauthn_auth_data(ad, 38, &parsed, &err), STATUS_OK);
}

/* Every prefix and every single flipped bit of an attestation object and of a
 * sign-in's parts: no crash (the sanitizers watch), and nothing but the original
 * passes a sign-in. */
static void test_cut_and_flipped_inputs(void **state)
{
    (void)state;
    const WebauthnExpect reg = expect(CH_CREATE), get = expect(CH_GET);
    const WebauthnCredential good = registered(ES_ATT);
    const Bytes cd = hex(ES_CD_CREATE), gcd = hex(ES_CD_GET);
    Bytes ao = hex(ES_ATT), ad = hex(ES_AD), sig = hex(ES_SIG);
    WebauthnCredential c;
    ErrBuf err;
    uint32_t count;
    for (size_t n = 0; n < ao.n; n++)
        assert_int_not_equal(webauthn_register(&reg, cd.b, cd.n, ao.b, n, &c, &err), STATUS_OK);
    for (size_t i = 0; i < ao.n; i++) {
        ao.b[i] ^= 0x10;
        (void)webauthn_register(&reg, cd.b, cd.n, ao.b, ao.n, &c, &err);
        ao.b[i] ^= 0x10;
    }
    for (size_t n = 0; n < ad.n; n++)
        assert_int_not_equal(webauthn_verify(&get, good.cose, gcd.b, gcd.n, ad.b, n, sig.b, sig.n,
                                             &count, &err), STATUS_OK);
    for (size_t i = 0; i < ad.n; i++) {
        ad.b[i] ^= 0x02;
        assert_int_not_equal(webauthn_verify(&get, good.cose, gcd.b, gcd.n, ad.b, ad.n, sig.b,
                                             sig.n, &count, &err), STATUS_OK);
        ad.b[i] ^= 0x02;
    }
    for (size_t i = 0; i < sig.n; i++) {
        sig.b[i] ^= 0x40;
        assert_int_not_equal(webauthn_verify(&get, good.cose, gcd.b, gcd.n, ad.b, ad.n, sig.b,
                                             sig.n, &count, &err), STATUS_OK);
        sig.b[i] ^= 0x40;
    }
}

static void test_counts_ids_and_base64(void **state)
{
    (void)state;
    assert_true(webauthn_count_ok(0, 0));
    assert_true(webauthn_count_ok(0, 1));
    assert_true(webauthn_count_ok(7, 8));
    assert_false(webauthn_count_ok(7, 7)); // a clone replays or lags the counter
    assert_false(webauthn_count_ok(7, 3));
    assert_false(webauthn_count_ok(7, 0));
    char rp[64];
    assert_true(webauthn_rp_id("https://crown.example:8443", rp, sizeof rp));
    assert_string_equal(rp, "crown.example");
    assert_true(webauthn_rp_id("http://localhost:8080", rp, sizeof rp));
    assert_string_equal(rp, "localhost");
    assert_false(webauthn_rp_id("http://127.0.0.1:8080", rp, sizeof rp));
    assert_false(webauthn_rp_id("http://[::1]:8080", rp, sizeof rp));
    assert_false(webauthn_rp_id("localhost", rp, sizeof rp));
    unsigned char b[8];
    size_t n;
    assert_true(webauthn_unb64("_-8", b, sizeof b, &n));
    assert_int_equal(n, 2);
    assert_int_equal(b[0], 0xff);
    assert_false(webauthn_unb64("_-8=", b, sizeof b, &n)); // padding: not WebAuthn's form
    assert_false(webauthn_unb64("a+b/", b, sizeof b, &n)); // plain base64's letters
    assert_false(webauthn_unb64("AAAAAAAAAAAAAAAA", b, sizeof b, &n)); // 12 bytes in 8
    char text[8];
    b[0] = 0xff, b[1] = 0xef; // what "_-8" was, before the refusals wrote over it
    assert_true(webauthn_b64(b, 2, text, sizeof text));
    assert_string_equal(text, "_-8");
    assert_false(webauthn_b64(b, 8, text, sizeof text));
    char c1[WEBAUTHN_B64_CAP], c2[WEBAUTHN_B64_CAP];
    assert_true(webauthn_challenge(c1) && webauthn_challenge(c2));
    assert_int_equal(strlen(c1), 43);
    assert_string_not_equal(c1, c2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_es256_register_and_sign_in),
        cmocka_unit_test(test_eddsa_and_rs256),
        cmocka_unit_test(test_sign_in_refusals),
        cmocka_unit_test(test_register_refusals),
        cmocka_unit_test(test_cose_keys),
        cmocka_unit_test(test_cut_and_flipped_inputs),
        cmocka_unit_test(test_counts_ids_and_base64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
