/*
 * kvs_file.c - the aside-and-rename write of the solver's tables and checkpoints, and the
 * tables' checksum.
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
    const KvsFilePart parts[2] = {{head, head_len}, {data, len}};
    return kvs_file_write_parts(path, parts, 2, err);
}

Status kvs_file_write_parts(const char *path, const KvsFilePart *parts, int n, ErrBuf *err)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp)
        return err_set(err, STATUS_IO, "the path %.60s... is too long", path);
    FILE *f = fopen(tmp, "wb");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot write %s: %s", tmp, strerror(errno));
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        const uint8_t *data = parts[k].data;
        // In slices: one fwrite of more than 2 GB is not portable.
        enum { SLICE = 1 << 26 };
        for (uint64_t at = 0; ok && at < parts[k].len; at += SLICE) {
            const size_t len = (size_t)(parts[k].len - at < SLICE ? parts[k].len - at : SLICE);
            ok = fwrite(data + at, 1, len, f) == len;
        }
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

const char *kvs_file_header_field(const char *head, const char *name)
{
    const size_t n = strlen(name);
    for (const char *line = head; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (strncmp(line, name, n) == 0 && line[n] == ' ')
            return line + n + 1;
    return NULL;
}

bool kvs_file_header_is(const char *value, const char *want)
{
    const size_t n = strlen(want);
    return value != NULL && strncmp(value, want, n) == 0 &&
           (value[n] == '\n' || value[n] == '\0');
}

uint64_t kvs_checksum_start(uint64_t n)
{
    return 0x6372776E6B767374ULL ^ n;
}

uint64_t kvs_checksum_add(uint64_t h, const uint8_t *p, uint64_t n)
{
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3ULL;
    return h;
}
