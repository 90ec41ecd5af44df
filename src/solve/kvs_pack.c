/*
 * kvs_pack.c - writing and reading the packed King's Valley table (kvs_pack.h): blocks
 * split into outcomes and distances, zstd with trained dictionaries, compressed on
 * threads; read through a lock-guarded cache of decompressed blocks that lives in the
 * table's own context.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zdict.h>
#include <zstd.h>

#include "solve/kvs_file.h"
#include "solve/kvs_pack.h"

enum {
    DEFAULT_BLOCK = 1024, /* a cold probe decompresses about 1.3 KB: a few microseconds */
    DEFAULT_LEVEL = 3, /* 19 packs about 4 % smaller, ten times slower (docs/SOLVED.md) */
    DICT_CAP = 110 * 1024,  /* zstd's usual dictionary size */
    DICT_SAMPLES = 4000,    /* blocks the dictionaries learn from */
    CACHE_SLOTS = 64,
    MAX_THREADS = 64,
};

static void put64(uint8_t *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (uint8_t)(v >> (8 * k));
}

static uint64_t get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

/* Entries of block b: the last one may be short. */
static int block_len(uint64_t entries, int block, uint64_t b)
{
    const uint64_t lo = b * (uint64_t)block;
    return (int)(entries - lo < (uint64_t)block ? entries - lo : (uint64_t)block);
}

/* Splits n value bytes into outcome codes (n / 4 bytes, rounded up) and the distances
 * of the decided ones, the wins' first, then the losses' (two runs of their own
 * distributions pack 6 % smaller than one mixed); returns how many distances. */
static int encode(const uint8_t *v, int n, uint8_t *codes, uint8_t *dist)
{
    memset(codes, 0, (size_t)(n + 3) / 4);
    int nd = 0;
    for (int pass = 1; pass <= 2; pass++) {
        for (int k = 0; k < n; k++) {
            if (v[k] == 0 || ((v[k] - 1) & 1) != (pass == 1))
                continue;
            codes[k >> 2] |= (uint8_t)(pass << ((k & 3) * 2));
            dist[nd++] = (uint8_t)((v[k] - 1) >> 1);
        }
    }
    return nd;
}

/* Entries with code `code` (1 or 2) among the first k of a block's codes. */
static int count_before(const uint8_t *codes, int k, int code)
{
    int count = 0, at = 0;
    for (; at + 32 <= k; at += 32) {
        uint64_t w;
        memcpy(&w, codes + at / 4, 8);
        const uint64_t hit = code == 1 ? w & ~(w >> 1) : (w >> 1) & ~w;
        count += __builtin_popcountll(hit & 0x5555555555555555ULL);
    }
    for (; at < k; at++)
        count += ((codes[at >> 2] >> ((at & 3) * 2)) & 3) == code;
    return count;
}

/* Where entry k's distance is in its block's distances: after the earlier wins, or
 * after all the wins and the earlier losses. */
static int distance_at(const uint8_t *codes, int block, int k, int code)
{
    return code == 1 ? count_before(codes, k, 1)
                     : count_before(codes, block, 1) + count_before(codes, k, 2);
}

static uint8_t value_of(int code, uint8_t d)
{
    return code == 1 ? (uint8_t)(2 * d + 2) : (uint8_t)(2 * d + 1);
}

/* ---- writing ---- */

typedef struct Buf {
    uint8_t *p;
    uint64_t len, cap;
} Buf;

static bool buf_reserve(Buf *b, uint64_t more)
{
    if (b->len + more <= b->cap)
        return true;
    uint64_t cap = b->cap ? b->cap : 1 << 20;
    while (cap < b->len + more)
        cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (p == NULL)
        return false;
    b->p = p;
    b->cap = cap;
    return true;
}

typedef struct PackJob {
    const uint8_t *values;
    uint64_t entries;
    int block;
    int level;
    const ZSTD_CDict *dict[2]; /* outcome, distance; NULL: none */
    uint64_t *frame_len;       /* 2 per block */
    uint64_t first, last;      /* this thread's blocks */
    Buf out;
    bool failed;
} PackJob;

static bool compress_frame(ZSTD_CCtx *cc, const ZSTD_CDict *dict, int level, const uint8_t *src,
                           size_t n, Buf *out, uint64_t *len)
{
    *len = 0;
    if (n == 0)
        return true; // an empty frame is no bytes at all
    const size_t cap = ZSTD_compressBound(n);
    if (!buf_reserve(out, cap))
        return false;
    ZSTD_CCtx_reset(cc, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
    // The block index knows the sizes: no checksum or dictionary number in the frame.
    ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 0);
    ZSTD_CCtx_setParameter(cc, ZSTD_c_dictIDFlag, 0);
    if (dict != NULL)
        ZSTD_CCtx_refCDict(cc, dict);
    const size_t r = ZSTD_compress2(cc, out->p + out->len, cap, src, n);
    if (ZSTD_isError(r))
        return false;
    out->len += r;
    *len = r;
    return true;
}

static void *pack_worker(void *arg)
{
    PackJob *j = arg;
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    uint8_t *codes = malloc((size_t)j->block / 4 + 1);
    uint8_t *dist = malloc((size_t)j->block);
    j->failed = cc == NULL || codes == NULL || dist == NULL;
    for (uint64_t b = j->first; b < j->last && !j->failed; b++) {
        const int n = block_len(j->entries, j->block, b);
        const int nd = encode(j->values + b * (uint64_t)j->block, n, codes, dist);
        j->failed = !compress_frame(cc, j->dict[0], j->level, codes, (size_t)(n + 3) / 4, &j->out,
                                    &j->frame_len[2 * b]) ||
                    !compress_frame(cc, j->dict[1], j->level, dist, (size_t)nd, &j->out,
                                    &j->frame_len[2 * b + 1]);
    }
    ZSTD_freeCCtx(cc);
    free(codes);
    free(dist);
    return NULL;
}

/* Trains the two dictionaries on blocks spread over the table; a table too small to
 * learn from gets none (size 0), and its blocks are compressed plainly. */
static void train(const uint8_t *values, uint64_t entries, int block, uint64_t blocks,
                  Buf dict[2])
{
    const uint64_t samples = blocks < DICT_SAMPLES ? blocks : DICT_SAMPLES;
    Buf sample[2] = {{0}, {0}};
    size_t *sizes[2] = {malloc(sizeof(size_t) * samples), malloc(sizeof(size_t) * samples)};
    uint8_t *codes = malloc((size_t)block / 4 + 1), *dist = malloc((size_t)block);
    bool ok = sizes[0] && sizes[1] && codes && dist;
    for (uint64_t s = 0; ok && s < samples; s++) {
        const uint64_t b = s * blocks / samples;
        const int n = block_len(entries, block, b);
        const int nd = encode(values + b * (uint64_t)block, n, codes, dist);
        const size_t len[2] = {(size_t)(n + 3) / 4, (size_t)nd};
        const uint8_t *src[2] = {codes, dist};
        for (int k = 0; k < 2 && ok; k++) {
            ok = buf_reserve(&sample[k], len[k]);
            if (ok) {
                memcpy(sample[k].p + sample[k].len, src[k], len[k]);
                sample[k].len += len[k];
                sizes[k][s] = len[k];
            }
        }
    }
    for (int k = 0; k < 2; k++) {
        dict[k] = (Buf){0};
        // A dictionary of an eighth of the samples at most, as zstd advises.
        const size_t cap = sample[k].len / 8 < DICT_CAP ? sample[k].len / 8 : DICT_CAP;
        if (!ok || cap < 1024 || !buf_reserve(&dict[k], cap))
            continue;
        const size_t r = ZDICT_trainFromBuffer(dict[k].p, cap, sample[k].p, sizes[k],
                                               (unsigned)samples);
        dict[k].len = ZDICT_isError(r) ? 0 : r;
    }
    for (int k = 0; k < 2; k++) {
        free(sample[k].p);
        free(sizes[k]);
    }
    free(codes);
    free(dist);
}

Status kvs_pack_write(const char *path, const KvsIndex *ix, const uint8_t *values,
                      const char *head, const KvsPackOptions *opt, KvsPackStats *stats,
                      ErrBuf *err)
{
    memset(stats, 0, sizeof *stats);
    const int block = opt->block > 0 ? opt->block : DEFAULT_BLOCK;
    const int level = opt->level != 0 ? opt->level : DEFAULT_LEVEL;
    if (block % 64 != 0 || block > (1 << 20))
        return err_set(err, STATUS_UNSUPPORTED, "a block is a multiple of 64 entries up to 2^20, not %d",
                       block);
    const uint64_t entries = ix->size;
    const uint64_t blocks = (entries + (uint64_t)block - 1) / (uint64_t)block;
    Buf dict[2];
    train(values, entries, block, blocks, dict);
    ZSTD_CDict *cd[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++)
        if (dict[k].len > 0)
            cd[k] = ZSTD_createCDict(dict[k].p, dict[k].len, level);
    int threads = opt->threads < 1 ? 1 : opt->threads > MAX_THREADS ? MAX_THREADS : opt->threads;
    PackJob job[MAX_THREADS];
    uint64_t *frame_len = calloc(2 * blocks, sizeof(uint64_t));
    pthread_t th[MAX_THREADS];
    bool failed = frame_len == NULL;
    int started = 0;
    for (int t = 0; t < threads && !failed; t++) {
        job[t] = (PackJob){.values = values, .entries = entries, .block = block, .level = level,
                           .dict = {cd[0], cd[1]}, .frame_len = frame_len,
                           .first = blocks * (uint64_t)t / (uint64_t)threads,
                           .last = blocks * (uint64_t)(t + 1) / (uint64_t)threads};
        if (pthread_create(&th[t], NULL, pack_worker, &job[t]) != 0) {
            failed = true;
            break;
        }
        started++;
    }
    for (int t = 0; t < started; t++) {
        pthread_join(th[t], NULL);
        failed |= job[t].failed;
    }
    const uint64_t index_len = 8 * (2 * blocks + 1);
    uint8_t *index = failed ? NULL : malloc(index_len);
    Status st = STATUS_OK;
    if (index == NULL) {
        st = err_set(err, STATUS_NOMEM, "cannot compress the table (out of memory)");
    } else {
        uint64_t at = 0;
        for (uint64_t f = 0; f < 2 * blocks; f++) {
            put64(index + 8 * f, at);
            at += frame_len[f];
            (f & 1 ? &stats->distance_bytes : &stats->outcome_bytes)[0] += frame_len[f];
        }
        put64(index + 8 * 2 * blocks, at);
        char text[KVS_HEADER];
        memset(text, 0, sizeof text);
        snprintf(text, sizeof text,
                 KVS_PACK_MAGIC "%sblock %d\nblocks %llu\noutcome-dictionary %llu\n"
                 "distance-dictionary %llu\ndata %llu\n",
                 head, block, (unsigned long long)blocks, (unsigned long long)dict[0].len,
                 (unsigned long long)dict[1].len, (unsigned long long)at);
        KvsFilePart parts[4 + MAX_THREADS] = {{text, KVS_HEADER}, {index, index_len},
                                              {dict[0].p, dict[0].len}, {dict[1].p, dict[1].len}};
        for (int t = 0; t < started; t++)
            parts[4 + t] = (KvsFilePart){job[t].out.p, job[t].out.len};
        st = kvs_file_write_parts(path, parts, 4 + started, err);
        stats->blocks = blocks;
        stats->dictionary_bytes = dict[0].len + dict[1].len;
        stats->bytes = KVS_HEADER + index_len + stats->dictionary_bytes + at;
    }
    for (int t = 0; t < started; t++)
        free(job[t].out.p);
    for (int k = 0; k < 2; k++) {
        ZSTD_freeCDict(cd[k]);
        free(dict[k].p);
    }
    free(frame_len);
    free(index);
    return st;
}

/* ---- reading ---- */

typedef struct Slot {
    uint64_t block; /* UINT64_MAX: empty */
    uint8_t *codes;
    uint8_t *dist;
} Slot;

struct KvsPacked {
    const uint8_t *index; /* 2 * blocks + 1 offsets into data */
    const uint8_t *data;
    uint64_t entries, blocks;
    int block;
    ZSTD_DDict *dict[2];
    pthread_mutex_t lock; /* guards dctx and the slots */
    ZSTD_DCtx *dctx;
    Slot slot[CACHE_SLOTS];
};

static uint64_t field(const char *header, const char *name, bool *ok)
{
    const char *v = kvs_file_header_field(header, name);
    if (v == NULL)
        *ok = false;
    return v ? strtoull(v, NULL, 10) : 0;
}

Status kvs_packed_open(const char *header, const uint8_t *body, uint64_t len, uint64_t entries,
                       KvsPacked **out, ErrBuf *err)
{
    *out = NULL;
    bool ok = true;
    const uint64_t block = field(header, "block", &ok), blocks = field(header, "blocks", &ok);
    const uint64_t d0 = field(header, "outcome-dictionary", &ok);
    const uint64_t d1 = field(header, "distance-dictionary", &ok);
    const uint64_t data = field(header, "data", &ok);
    ok = ok && block >= 64 && block % 64 == 0 && block <= (1 << 20) &&
         blocks == (entries + block - 1) / block && blocks < (1ULL << 40) && d0 < len && d1 < len &&
         data < len && 8 * (2 * blocks + 1) + d0 + d1 + data == len;
    const uint8_t *index = body;
    for (uint64_t f = 0; ok && f < 2 * blocks; f++)
        ok = get64(index + 8 * f) <= get64(index + 8 * (f + 1));
    ok = ok && get64(index) == 0 && get64(index + 8 * 2 * blocks) == data;
    if (!ok)
        return err_set(err, STATUS_CORRUPT, "the packed table's index of blocks is damaged");
    KvsPacked *pk = calloc(1, sizeof *pk);
    if (pk == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    pk->index = index;
    pk->entries = entries;
    pk->blocks = blocks;
    pk->block = (int)block;
    const uint8_t *dict = index + 8 * (2 * blocks + 1);
    pk->data = dict + d0 + d1;
    pthread_mutex_init(&pk->lock, NULL);
    bool mem = (pk->dctx = ZSTD_createDCtx()) != NULL;
    if (d0 > 0)
        mem = mem && (pk->dict[0] = ZSTD_createDDict(dict, d0)) != NULL;
    if (d1 > 0)
        mem = mem && (pk->dict[1] = ZSTD_createDDict(dict + d0, d1)) != NULL;
    for (int s = 0; s < CACHE_SLOTS && mem; s++) {
        pk->slot[s].block = UINT64_MAX;
        mem = (pk->slot[s].codes = malloc(block / 4)) != NULL &&
              (pk->slot[s].dist = malloc(block)) != NULL;
    }
    if (!mem) {
        kvs_packed_close(pk);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    *out = pk;
    return STATUS_OK;
}

void kvs_packed_close(KvsPacked *pk)
{
    if (pk == NULL)
        return;
    for (int s = 0; s < CACHE_SLOTS; s++) {
        free(pk->slot[s].codes);
        free(pk->slot[s].dist);
    }
    ZSTD_freeDDict(pk->dict[0]);
    ZSTD_freeDDict(pk->dict[1]);
    ZSTD_freeDCtx(pk->dctx);
    pthread_mutex_destroy(&pk->lock);
    free(pk);
}

static bool decompress(ZSTD_DCtx *dc, const ZSTD_DDict *dict, const uint8_t *src, uint64_t len,
                       uint8_t *dst, size_t want)
{
    if (len == 0)
        return want == 0;
    const size_t r = dict ? ZSTD_decompress_usingDDict(dc, dst, want, src, len, dict)
                          : ZSTD_decompressDCtx(dc, dst, want, src, len);
    return !ZSTD_isError(r) && r == want;
}

/* Block b's codes and distances, checked: as many distances as decided codes, and no
 * code 3. */
static Status decode_block(const KvsPacked *pk, ZSTD_DCtx *dc, uint64_t b, uint8_t *codes,
                           uint8_t *dist, ErrBuf *err)
{
    const int n = block_len(pk->entries, pk->block, b);
    const uint8_t *ix = pk->index + 16 * b;
    const uint64_t o0 = get64(ix), o1 = get64(ix + 8), o2 = get64(ix + 16);
    const size_t ncodes = (size_t)(n + 3) / 4;
    bool ok = decompress(dc, pk->dict[0], pk->data + o0, o1 - o0, codes, ncodes);
    if (ok) {
        // Codes past the end of a short block are 0; the whole bytes are counted.
        memset(codes + ncodes, 0, (size_t)pk->block / 4 - ncodes);
        int three = 0;
        for (size_t k = 0; k < ncodes; k++)
            three |= codes[k] & (codes[k] >> 1) & 0x55;
        const int nd = count_before(codes, pk->block, 1) + count_before(codes, pk->block, 2);
        ok = three == 0 && decompress(dc, pk->dict[1], pk->data + o1, o2 - o1, dist, (size_t)nd);
    }
    return ok ? STATUS_OK
              : err_set(err, STATUS_CORRUPT, "block %llu of the packed table is damaged",
                        (unsigned long long)b);
}

Status kvs_packed_entry(const KvsPacked *pk, uint64_t i, uint8_t *out, ErrBuf *err)
{
    if (i >= pk->entries)
        return err_set(err, STATUS_UNSUPPORTED, "entry %llu is past the table",
                       (unsigned long long)i);
    // The cache belongs to this table; the lock makes a shared table safe to probe from
    // the server's threads.
    KvsPacked *m = (KvsPacked *)pk;
    const uint64_t b = i / (uint64_t)pk->block;
    const int k = (int)(i % (uint64_t)pk->block);
    Slot *s = &m->slot[b % CACHE_SLOTS];
    Status st = STATUS_OK;
    pthread_mutex_lock(&m->lock);
    if (s->block != b) {
        s->block = UINT64_MAX;
        st = decode_block(pk, m->dctx, b, s->codes, s->dist, err);
        if (st == STATUS_OK)
            s->block = b;
    }
    if (st == STATUS_OK) {
        const int code = (s->codes[k >> 2] >> ((k & 3) * 2)) & 3;
        *out = code == 0 ? 0 : value_of(code, s->dist[distance_at(s->codes, pk->block, k, code)]);
    }
    pthread_mutex_unlock(&m->lock);
    return st;
}

Status kvs_packed_range(const KvsPacked *pk, uint64_t start, uint64_t n, uint8_t *out,
                        ErrBuf *err)
{
    if (start > pk->entries || n > pk->entries - start)
        return err_set(err, STATUS_UNSUPPORTED, "the range is past the table");
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    uint8_t *codes = malloc((size_t)pk->block / 4), *dist = malloc((size_t)pk->block);
    Status st = dc && codes && dist ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    for (uint64_t i = start; st == STATUS_OK && i < start + n;) {
        const uint64_t b = i / (uint64_t)pk->block;
        const uint64_t lo = b * (uint64_t)pk->block;
        st = decode_block(pk, dc, b, codes, dist, err);
        const uint64_t end = lo + (uint64_t)block_len(pk->entries, pk->block, b);
        int next[3] = {0, distance_at(codes, pk->block, (int)(i - lo), 1),
                       distance_at(codes, pk->block, (int)(i - lo), 2)};
        for (; st == STATUS_OK && i < end && i < start + n; i++) {
            const int k = (int)(i - lo);
            const int code = (codes[k >> 2] >> ((k & 3) * 2)) & 3;
            out[i - start] = code == 0 ? 0 : value_of(code, dist[next[code]++]);
        }
    }
    ZSTD_freeDCtx(dc);
    free(codes);
    free(dist);
    return st;
}
