/*
 * secret.c - ids and tokens from getrandom(2), and a constant-time token comparison.
 */
#include "web/secret.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static bool fill_random(unsigned char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        const ssize_t r = getrandom(buf + got, n - got, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        got += (size_t)r;
    }
    return true;
}

bool secret_hex(char *out, size_t bytes)
{
    static const char HEX[] = "0123456789abcdef";
    unsigned char buf[64];
    if (bytes > sizeof buf || !fill_random(buf, bytes))
        return false;
    for (size_t i = 0; i < bytes; i++) {
        out[2 * i] = HEX[buf[i] >> 4];
        out[2 * i + 1] = HEX[buf[i] & 15];
    }
    out[2 * bytes] = '\0';
    return true;
}

bool secret_u64(uint64_t *out)
{
    unsigned char buf[8];
    if (!fill_random(buf, sizeof buf))
        return false;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | buf[i];
    *out = v;
    return true;
}

bool secret_equal(const char *a, const char *b)
{
    const size_t n = strlen(a);
    if (n != strlen(b))
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

bool secret_is_hex(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return s[n] == '\0';
}
