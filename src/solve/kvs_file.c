/*
 * kvs_file.c - the aside-and-rename write of the solver's tables and checkpoints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "solve/kvs_file.h"

Status kvs_file_write(const char *path, const void *head, size_t head_len, const uint8_t *data,
                      uint64_t len, ErrBuf *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return err_set(err, STATUS_IO, "the path %.60s... is too long", path);
    FILE *f = fopen(tmp, "wb");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot write %s: %s", tmp, strerror(errno));
    bool ok = fwrite(head, 1, head_len, f) == head_len;
    // In slices: one fwrite of more than 2 GB is not portable.
    enum { SLICE = 1 << 26 };
    for (uint64_t at = 0; ok && at < len; at += SLICE) {
        const size_t n = (size_t)(len - at < SLICE ? len - at : SLICE);
        ok = fwrite(data + at, 1, n, f) == n;
    }
    ok = fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        const int e = errno;
        remove(tmp);
        return err_set(err, STATUS_IO, "cannot write %s: %s", path, strerror(e));
    }
    return STATUS_OK;
}
