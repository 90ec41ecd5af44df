/*
 * solve_pack.c - packing a solved table and proving the packed form equal to it: every
 * entry compared in bulk, then random probes timed through the table's own cache. A
 * table with a base (kvs_pack_base_rules) is coded against it when the base's packed
 * form is beside the output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli/solve_pack.h"
#include "core/clock.h"
#include "core/rng.h"
#include "solve/kvs_file.h"
#include "solve/kvs_table.h"

/* Every entry of a and b equal, read a slice at a time. */
static Status compare(const KvsTable *a, const KvsTable *b, uint64_t *differ, ErrBuf *err)
{
    enum { SLICE = 1 << 22 };
    const uint64_t size = kvs_table_index(a)->size;
    uint8_t *x = malloc(SLICE), *y = malloc(SLICE);
    Status st = x && y ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    *differ = 0;
    for (uint64_t at = 0; st == STATUS_OK && at < size; at += SLICE) {
        const uint64_t n = size - at < SLICE ? size - at : SLICE;
        if ((st = kvs_table_read(a, at, n, x, err)) == STATUS_OK &&
            (st = kvs_table_read(b, at, n, y, err)) == STATUS_OK && memcmp(x, y, n) != 0)
            for (uint64_t k = 0; k < n; k++)
                *differ += x[k] != y[k];
    }
    free(x);
    free(y);
    return st;
}

/* This thread's CPU time in microseconds: on a shared machine wall time says more about
 * the other work than about the probe. */
static int64_t cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* CPU microseconds a probe (wall ones in *wall) over `count` random entries, `spread`
 * entries wide from a random start (the whole table: cold-ish, nearly every probe a
 * block not in the cache; four blocks: warm), of the whole value or (`outcome`) of the
 * outcome and a loss's distance only. The sum keeps the reads from being optimised
 * away. */
static double time_probes(const KvsTable *t, bool outcome, uint64_t count, uint64_t spread,
                          uint64_t seed, uint64_t *sum, double *wall)
{
    const uint64_t size = kvs_table_index(t)->size;
    if (spread > size)
        spread = size;
    Rng rng;
    rng_seed(&rng, seed);
    const uint64_t base = rng_next(&rng) % (size - spread + 1);
    const int64_t t0 = clock_us(), c0 = cpu_us();
    for (uint64_t k = 0; k < count; k++)
        *sum += (outcome ? kvs_table_outcome : kvs_table_entry)(t, base + rng_next(&rng) % spread);
    *wall = (double)(clock_us() - t0) / (double)count;
    return (double)(cpu_us() - c0) / (double)count;
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

static uint64_t header_checksum(const KvsTable *t)
{
    const char *v = kvs_file_header_field(kvs_table_header(t), "checksum");
    return v ? strtoull(v, NULL, 16) : 0;
}

/* The table to code src against: none if its rules have no base or the base's packed
 * form is not beside `packed` (where the packed table will look for it); else the
 * base's full table beside `full` if it is the same table (read as it is), else the
 * packed one (unpacked to read). */
static void open_base(const KvsTable *src, const char *full, const char *packed,
                      KvsTable **base)
{
    *base = NULL;
    KvsRules want;
    if (!kvs_pack_base_rules(kvs_table_rules(src), &want))
        return;
    char path[4300];
    ErrBuf err;
    KvsTable *pb = NULL, *fb = NULL;
    if (kvs_sibling_path(packed, &want, ".kvz", path, sizeof path, &err) != STATUS_OK ||
        kvs_table_load(path, &pb, &err) != STATUS_OK || !kvs_table_is_packed(pb)) {
        kvs_table_close(pb);
        printf("packing alone: the packed table to code it against, %s, is not there\n", path);
        return;
    }
    if (kvs_sibling_path(full, &want, ".kvt", path, sizeof path, &err) == STATUS_OK &&
        kvs_table_load(path, &fb, &err) == STATUS_OK && !kvs_table_is_packed(fb) &&
        header_checksum(fb) == header_checksum(pb)) {
        kvs_table_close(pb);
        *base = fb;
    } else {
        kvs_table_close(fb);
        *base = pb;
    }
    printf("coded against %s\n", kvs_table_path(*base));
}

int solve_pack(const CliOptions *o, const Game *g, const char *full, const char *packed)
{
    ErrBuf err;
    KvsTable *src, *dst = NULL;
    if (kvs_table_open(full, g, &src, &err) != STATUS_OK)
        return cli_error("%s", err.msg);
    if (kvs_table_is_packed(src)) {
        kvs_table_close(src);
        return cli_error("%s is packed already: --compress needs the full table", full);
    }
    if (kvs_table_open(packed, g, &dst, &err) == STATUS_OK && kvs_table_is_packed(dst)) {
        printf("%s is already packed\n", packed);
    } else {
        kvs_table_close(dst);
        dst = NULL;
        KvsPackOptions opt = {.threads = o->threads > 0 ? (int)o->threads : 2,
                              .level = (int)o->level};
        KvsPackStats ps;
        const int64_t t0 = clock_ms();
        KvsTable *base;
        open_base(src, full, packed, &base);
        const Status st = kvs_table_pack(src, base, packed, &opt, &ps, &err);
        kvs_table_close(base);
        if (st != STATUS_OK) {
            kvs_table_close(src);
            return cli_error("%s", err.msg);
        }
        printf("packed %s into %s in %.1f s: %llu blocks, outcomes %llu bytes, losses' "
               "distances %llu bytes, dictionaries %llu bytes\n",
               full, packed, (double)(clock_ms() - t0) / 1000.0, (unsigned long long)ps.blocks,
               (unsigned long long)ps.outcome_bytes, (unsigned long long)ps.distance_bytes,
               (unsigned long long)ps.dictionary_bytes);
        if (kvs_table_open(packed, g, &dst, &err) != STATUS_OK) {
            kvs_table_close(src);
            return cli_error("%s", err.msg);
        }
    }
    printf("size %lld bytes (the full table: %lld)\n", file_size(packed), file_size(full));
    int64_t t0 = clock_ms();
    uint64_t differ = 0;
    Status st = kvs_table_verify(dst, &err);
    if (st == STATUS_OK)
        printf("checksum ok (%.1f s)\n", (double)(clock_ms() - t0) / 1000.0);
    t0 = clock_ms();
    if (st == STATUS_OK && (st = compare(src, dst, &differ, &err)) == STATUS_OK)
        printf("compared %llu entries with the full table: %llu differ (%.1f s)\n",
               (unsigned long long)kvs_table_index(dst)->size, (unsigned long long)differ,
               (double)(clock_ms() - t0) / 1000.0);
    if (st == STATUS_OK) {
        const uint64_t n = o->check > 0 ? (uint64_t)o->check : 1000000;
        uint64_t sum = 0;
        double wall[4];
        const double cold = time_probes(dst, true, n, UINT64_MAX, o->seed, &sum, &wall[0]);
        const double warm = time_probes(dst, true, n, 4 * 1024, o->seed + 1, &sum, &wall[1]);
        const double plain = time_probes(src, true, n, UINT64_MAX, o->seed, &sum, &wall[2]);
        // A win's distance costs its successors' probes: fewer samples.
        const double whole = time_probes(dst, false, n / 10 + 1, UINT64_MAX, o->seed + 2, &sum,
                                         &wall[3]);
        printf("probes of %llu random entries, CPU (wall) microseconds each: over the whole "
               "table %.2f (%.2f), within 4 blocks %.3f (%.3f); the full table %.3f (%.3f); "
               "with the wins' distances (%llu entries) %.2f (%.2f) (sum %llu)\n",
               (unsigned long long)n, cold, wall[0], warm, wall[1], plain, wall[2],
               (unsigned long long)(n / 10 + 1), whole, wall[3], (unsigned long long)sum);
    }
    kvs_table_close(src);
    kvs_table_close(dst);
    if (st != STATUS_OK)
        return cli_error("%s", err.msg);
    return differ == 0 ? 0 : 1;
}
