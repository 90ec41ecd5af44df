/*
 * kvs_pack.c - writing and reading the packed King's Valley table (kvs_pack.h): blocks
 * split into outcomes and the losses' distances, each coded against a base table when
 * there is one, zstd with trained dictionaries, compressed on threads; read through a
 * lock-guarded cache of decompressed blocks that lives in the table's own context.
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
    DEFAULT_BLOCK = 2048, /* a cold probe decompresses 0.5 to 1.5 KB a table: a few us */
    DEFAULT_LEVEL = 19, /* 11 % smaller than 3, ten times slower to pack, as fast to read */
    DICT_CAP = 110 * 1024,  /* zstd's usual dictionary size */
    DICT_SAMPLES = 4000,    /* blocks the dictionaries learn from */
    CACHE_SLOTS = 64,
    MAX_THREADS = 64,
    MAX_BLOCK = 16384, /* so that every frame is under 64 KB: its length fits 16 bits */
    GROUP = 256,       /* blocks between two full offsets in the index */
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

static unsigned get16(const uint8_t *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* The index of blocks: the offset of every GROUP-th block's first frame (and of the
 * end), 64 bits each, then the lengths of both frames of every block, 16 bits each:
 * about 4 bytes a block instead of 16 for two full offsets. */
static uint64_t groups_of(uint64_t blocks)
{
    return (blocks + GROUP - 1) / GROUP;
}

static uint64_t index_bytes(uint64_t blocks)
{
    return 8 * (groups_of(blocks) + 1) + 4 * blocks;
}

/* Entries of block b: the last one may be short. */
static int block_len(uint64_t entries, int block, uint64_t b)
{
    const uint64_t lo = b * (uint64_t)block;
    return (int)(entries - lo < (uint64_t)block ? entries - lo : (uint64_t)block);
}

/* The outcome code of a value byte: 0 draw or unused, 1 win, 2 loss. */
static int code_of(uint8_t v)
{
    return v == 0 ? 0 : ((v - 1) & 1) ? 1 : 2;
}

/* The code stored for an unused entry (a placement a symmetry folds onto another
 * entry), which no probe asks for: the stored code before it, so that it joins the run
 * around it, but a win after a loss, so that it never has a distance. */
static int unused_code(int before)
{
    return before == 2 ? 1 : before;
}

/* Splits the n value bytes of entries [lo, lo + n) into outcome codes (n / 4 bytes,
 * rounded up), each exclusive-ored with the base's stored code of the same entry, and
 * the distances of the losses, each less the base's where the base loses too (modulo
 * 256); returns how many distances. Where the rule sets agree, both come out 0. base
 * may be NULL. Both tables' unused entries are stored by the same rule from their own
 * values, so a table's decoded codes never depend on its base's. */
static int encode(const KvsIndex *ix, uint64_t lo, const uint8_t *v, const uint8_t *base, int n,
                  uint8_t *codes, uint8_t *dist)
{
    memset(codes, 0, (size_t)(n + 3) / 4);
    int nd = 0, before = 1, base_before = 1;
    for (int k = 0; k < n; k++) {
        const bool unused = v[k] == 0 && !kvs_index_canonical(ix, lo + (uint64_t)k);
        const int c = unused ? unused_code(before) : code_of(v[k]);
        const int bc = !base ? 0 : unused ? unused_code(base_before) : code_of(base[k]);
        before = c;
        base_before = bc;
        codes[k >> 2] |= (uint8_t)((c ^ bc) << ((k & 3) * 2));
        if (c == 2)
            dist[nd++] = (uint8_t)(((v[k] - 1) >> 1) - (bc == 2 ? (base[k] - 1) >> 1 : 0));
    }
    return nd;
}

/* The losses' mask of 32 codes: bit 2k set where entry k's code is 2. */
static uint64_t loss_mask(uint64_t w)
{
    return (w >> 1) & ~w & 0x5555555555555555ULL;
}

/* Losses among the first k entries of a block's codes: where a loss's distance is. */
static int losses_before(const uint8_t *codes, int k)
{
    int count = 0, at = 0;
    for (; at + 32 <= k; at += 32) {
        uint64_t w;
        memcpy(&w, codes + at / 4, 8);
        count += __builtin_popcountll(loss_mask(w));
    }
    for (; at < k; at++)
        count += ((codes[at >> 2] >> ((at & 3) * 2)) & 3) == 2;
    return count;
}

/* The value byte of an entry with this code and, for a loss, distance. */
static uint8_t value_of(int code, uint8_t d)
{
    return code == 0 ? 0 : code == 1 ? KVS_PACK_WON : (uint8_t)(2 * d + 1);
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
    const KvsIndex *ix;
    const uint8_t *values;
    const uint8_t *base; /* the base table's values, or NULL */
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
    size_t zero = 0;
    while (zero < n && src[zero] == 0)
        zero++;
    if (zero == n)
        return true; // no bytes at all for a frame of zeros (where the rule sets agree)
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
        const uint64_t lo = b * (uint64_t)j->block;
        const int nd = encode(j->ix, lo, j->values + lo, j->base ? j->base + lo : NULL, n, codes,
                              dist);
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
static void train(const KvsIndex *ix, const uint8_t *values, const uint8_t *base,
                  uint64_t entries, int block, uint64_t blocks, Buf dict[2])
{
    const uint64_t samples = blocks < DICT_SAMPLES ? blocks : DICT_SAMPLES;
    Buf sample[2] = {{0}, {0}};
    size_t *sizes[2] = {malloc(sizeof(size_t) * samples), malloc(sizeof(size_t) * samples)};
    uint8_t *codes = malloc((size_t)block / 4 + 1), *dist = malloc((size_t)block);
    bool ok = sizes[0] && sizes[1] && codes && dist;
    for (uint64_t s = 0; ok && s < samples; s++) {
        const uint64_t b = s * blocks / samples;
        const int n = block_len(entries, block, b);
        const uint64_t lo = b * (uint64_t)block;
        const int nd = encode(ix, lo, values + lo, base ? base + lo : NULL, n, codes, dist);
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
                      const uint8_t *base, const char *head, const KvsPackOptions *opt,
                      KvsPackStats *stats, ErrBuf *err)
{
    memset(stats, 0, sizeof *stats);
    const int block = opt->block > 0 ? opt->block : DEFAULT_BLOCK;
    const int level = opt->level != 0 ? opt->level : DEFAULT_LEVEL;
    if (block % 64 != 0 || block > MAX_BLOCK)
        return err_set(err, STATUS_UNSUPPORTED, "a block is a multiple of 64 entries up to %d, not %d",
                       MAX_BLOCK, block);
    const uint64_t entries = ix->size;
    const uint64_t blocks = (entries + (uint64_t)block - 1) / (uint64_t)block;
    Buf dict[2];
    train(ix, values, base, entries, block, blocks, dict);
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
        job[t] = (PackJob){.ix = ix, .values = values, .base = base, .entries = entries, .block = block, .level = level,
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
    const uint64_t index_len = index_bytes(blocks), groups = groups_of(blocks);
    uint8_t *index = failed ? NULL : malloc(index_len);
    Status st = STATUS_OK;
    if (index == NULL) {
        st = err_set(err, STATUS_NOMEM, "cannot compress the table (out of memory)");
    } else {
        uint64_t at = 0;
        uint8_t *lens = index + 8 * (groups + 1);
        for (uint64_t f = 0; f < 2 * blocks; f++) {
            if (f % (2 * GROUP) == 0)
                put64(index + 8 * (f / (2 * GROUP)), at);
            lens[2 * f] = (uint8_t)frame_len[f];
            lens[2 * f + 1] = (uint8_t)(frame_len[f] >> 8);
            at += frame_len[f];
            (f & 1 ? &stats->distance_bytes : &stats->outcome_bytes)[0] += frame_len[f];
        }
        put64(index + 8 * groups, at);
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
    bool losses;    /* dist is decoded too (a probe of a win or a draw needs only codes) */
    uint8_t *codes;
    uint8_t *bcodes; /* the base's codes of the block (its losses' distances need them) */
    uint8_t *dist;   /* the losses' distances as stored (less the base's, with a base) */
    uint8_t *bdist;  /* the base's losses' distances, whole */
} Slot;

struct KvsPacked {
    const KvsPacked *base; /* the table this one is coded against, or NULL */
    const uint8_t *index;  /* group offsets into data, then lens */
    const uint8_t *lens;   /* two 16-bit frame lengths a block */
    uint64_t *start;       /* where each block's frames start in data, and the end */
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
                       const KvsPacked *base, KvsPacked **out, ErrBuf *err)
{
    *out = NULL;
    bool ok = true;
    const uint64_t block = field(header, "block", &ok), blocks = field(header, "blocks", &ok);
    const uint64_t d0 = field(header, "outcome-dictionary", &ok);
    const uint64_t d1 = field(header, "distance-dictionary", &ok);
    const uint64_t data = field(header, "data", &ok);
    ok = ok && block >= 64 && block % 64 == 0 && block <= MAX_BLOCK &&
         blocks == (entries + block - 1) / block && blocks < (1ULL << 40) && d0 < len && d1 < len &&
         data < len && index_bytes(blocks) + d0 + d1 + data == len;
    // Every group's frames add up to the distance to the next group's offset.
    const uint8_t *index = body;
    const uint64_t groups = ok ? groups_of(blocks) : 0;
    const uint8_t *lens = index + 8 * (groups + 1);
    ok = ok && get64(index) == 0 && get64(index + 8 * groups) == data;
    for (uint64_t g = 0, f = 0; ok && g < groups; g++) {
        uint64_t sum = 0;
        for (; f < 2 * blocks && f < 2 * GROUP * (g + 1); f++)
            sum += get16(lens + 2 * f);
        ok = get64(index + 8 * g) + sum == get64(index + 8 * (g + 1));
    }
    if (!ok)
        return err_set(err, STATUS_CORRUPT, "the packed table's index of blocks is damaged");
    if ((kvs_file_header_field(header, "base") != NULL) != (base != NULL))
        return err_set(err, STATUS_CORRUPT, base ? "the packed table has no base" : "the packed table's base is missing");
    if (base && (base->entries != entries || base->block != (int)block))
        return err_set(err, STATUS_CORRUPT, "the packed table and its base differ in size or blocks");
    KvsPacked *pk = calloc(1, sizeof *pk);
    if (pk == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    pk->base = base;
    pk->index = index;
    pk->entries = entries;
    pk->blocks = blocks;
    pk->block = (int)block;
    pk->lens = lens;
    // The blocks' offsets summed once: a probe then reads its frames' places directly.
    pk->start = malloc(sizeof(uint64_t) * (blocks + 1));
    if (pk->start != NULL) {
        uint64_t at = 0;
        for (uint64_t c = 0; c < blocks; c++) {
            pk->start[c] = at;
            at += get16(lens + 4 * c) + get16(lens + 4 * c + 2);
        }
        pk->start[blocks] = at;
    }
    const uint8_t *dict = index + index_bytes(blocks);
    pk->data = dict + d0 + d1;
    pthread_mutex_init(&pk->lock, NULL);
    bool mem = pk->start != NULL && (pk->dctx = ZSTD_createDCtx()) != NULL;
    if (d0 > 0)
        mem = mem && (pk->dict[0] = ZSTD_createDDict(dict, d0)) != NULL;
    if (d1 > 0)
        mem = mem && (pk->dict[1] = ZSTD_createDDict(dict + d0, d1)) != NULL;
    for (int s = 0; s < CACHE_SLOTS && mem; s++) {
        pk->slot[s].block = UINT64_MAX;
        mem = (pk->slot[s].codes = malloc(block / 4)) != NULL &&
              (pk->slot[s].dist = malloc(block)) != NULL &&
              (!base || ((pk->slot[s].bcodes = malloc(block / 4)) != NULL &&
                         (pk->slot[s].bdist = malloc(block)) != NULL));
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
        free(pk->slot[s].bcodes);
        free(pk->slot[s].dist);
        free(pk->slot[s].bdist);
    }
    ZSTD_freeDDict(pk->dict[0]);
    ZSTD_freeDDict(pk->dict[1]);
    ZSTD_freeDCtx(pk->dctx);
    free(pk->start);
    pthread_mutex_destroy(&pk->lock);
    free(pk);
}

static bool decompress(ZSTD_DCtx *dc, const ZSTD_DDict *dict, const uint8_t *src, uint64_t len,
                       uint8_t *dst, size_t want)
{
    if (len == 0) {
        memset(dst, 0, want);
        return true;
    }
    const size_t r = dict ? ZSTD_decompress_usingDDict(dc, dst, want, src, len, dict)
                          : ZSTD_decompressDCtx(dc, dst, want, src, len);
    return !ZSTD_isError(r) && r == want;
}

/* Adds the base's distances to the losses that are losses in the base too, 32 entries
 * a word: a loss's place among the distances is the count of losses before it. */
static void add_base_distances(const uint8_t *codes, uint8_t *dist, const uint8_t *bcodes,
                               const uint8_t *bdist, int block)
{
    int own = 0, theirs = 0;
    for (int at = 0; at < block; at += 32) {
        uint64_t w, bw;
        memcpy(&w, codes + at / 4, 8);
        memcpy(&bw, bcodes + at / 4, 8);
        const uint64_t mine = loss_mask(w), base = loss_mask(bw);
        for (uint64_t both = mine & base; both; both &= both - 1) {
            const uint64_t below = (both & -both) - 1;
            dist[own + __builtin_popcountll(mine & below)] +=
                bdist[theirs + __builtin_popcountll(base & below)];
        }
        own += __builtin_popcountll(mine);
        theirs += __builtin_popcountll(base);
    }
}

/* Where block b's frames are in the data: outcomes [o[0], o[1]), losses [o[1], o[2]). */
static void frames_of(const KvsPacked *pk, uint64_t b, uint64_t o[3])
{
    o[0] = pk->start[b];
    o[1] = o[0] + get16(pk->lens + 4 * b);
    o[2] = pk->start[b + 1];
}

static Status damaged(uint64_t b, ErrBuf *err)
{
    return err_set(err, STATUS_CORRUPT, "block %llu of the packed table is damaged",
                   (unsigned long long)b);
}

/* Block b's outcome codes, whole (exclusive-ored back with the base's, which go to
 * bcodes if it is not NULL), checked: no code 3; codes past the end of a short block
 * are 0. */
static Status decode_codes(const KvsPacked *pk, ZSTD_DCtx *dc, uint64_t b, uint8_t *codes,
                           uint8_t *base_codes, ErrBuf *err)
{
    const int n = block_len(pk->entries, pk->block, b);
    uint64_t o[3];
    frames_of(pk, b, o);
    const size_t ncodes = (size_t)(n + 3) / 4, nbytes = (size_t)pk->block / 4;
    uint8_t *bcodes = NULL;
    Status st = STATUS_OK;
    if (pk->base != NULL) {
        bcodes = base_codes ? base_codes : malloc(nbytes);
        st = bcodes ? decode_codes(pk->base, dc, b, bcodes, NULL, err)
                    : err_set(err, STATUS_NOMEM, "out of memory");
    }
    if (st == STATUS_OK && !decompress(dc, pk->dict[0], pk->data + o[0], o[1] - o[0], codes, ncodes))
        st = damaged(b, err);
    if (st == STATUS_OK) {
        memset(codes + ncodes, 0, nbytes - ncodes);
        int three = 0;
        for (size_t k = 0; k < nbytes; k++) {
            if (bcodes)
                codes[k] ^= bcodes[k];
            three |= codes[k] & (codes[k] >> 1) & 0x55;
        }
        if (three != 0)
            st = damaged(b, err);
    }
    if (bcodes != base_codes)
        free(bcodes);
    return st;
}

/* The distances of block b's losses, whole (the base's added back), given the block's
 * codes (and the base's, if at hand: else NULL): as many as the codes have losses. */
static Status stored_losses(const KvsPacked *pk, ZSTD_DCtx *dc, uint64_t b, const uint8_t *codes,
                            uint8_t *dist, ErrBuf *err)
{
    uint64_t o[3];
    frames_of(pk, b, o);
    const int nd = losses_before(codes, pk->block);
    return decompress(dc, pk->dict[1], pk->data + o[1], o[2] - o[1], dist, (size_t)nd)
               ? STATUS_OK
               : damaged(b, err);
}

static Status decode_losses(const KvsPacked *pk, ZSTD_DCtx *dc, uint64_t b, const uint8_t *codes,
                            const uint8_t *base_codes, uint8_t *dist, ErrBuf *err)
{
    const Status got = stored_losses(pk, dc, b, codes, dist, err);
    if (got != STATUS_OK || pk->base == NULL)
        return got;
    uint8_t *own = base_codes ? NULL : malloc((size_t)pk->block / 4);
    const uint8_t *bcodes = base_codes ? base_codes : own;
    uint8_t *bdist = malloc((size_t)pk->block);
    Status st = bcodes && bdist ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && own != NULL)
        st = decode_codes(pk->base, dc, b, own, NULL, err);
    if (st == STATUS_OK)
        st = decode_losses(pk->base, dc, b, bcodes, NULL, bdist, err);
    if (st == STATUS_OK)
        add_base_distances(codes, dist, bcodes, bdist, pk->block);
    free(own);
    free(bdist);
    return st;
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
        st = decode_codes(pk, m->dctx, b, s->codes, s->bcodes, err);
        if (st == STATUS_OK) {
            s->block = b;
            s->losses = false;
        }
    }
    const int code = st == STATUS_OK ? (s->codes[k >> 2] >> ((k & 3) * 2)) & 3 : 0;
    if (code == 2 && !s->losses) {
        // The stored distances, and the base's whole: the base's is added for the one
        // entry asked, not for the block (a random probe rarely asks twice).
        st = stored_losses(pk, m->dctx, b, s->codes, s->dist, err);
        if (st == STATUS_OK && pk->base != NULL)
            st = decode_losses(pk->base, m->dctx, b, s->bcodes, NULL, s->bdist, err);
        s->losses = st == STATUS_OK;
        if (st != STATUS_OK)
            s->block = UINT64_MAX;
    }
    if (st == STATUS_OK) {
        uint8_t d = code == 2 ? s->dist[losses_before(s->codes, k)] : 0;
        if (code == 2 && pk->base != NULL && ((s->bcodes[k >> 2] >> ((k & 3) * 2)) & 3) == 2)
            d = (uint8_t)(d + s->bdist[losses_before(s->bcodes, k)]);
        *out = value_of(code, d);
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
        st = decode_codes(pk, dc, b, codes, NULL, err);
        if (st == STATUS_OK)
            st = decode_losses(pk, dc, b, codes, NULL, dist, err);
        const uint64_t end = lo + (uint64_t)block_len(pk->entries, pk->block, b);
        int next = st == STATUS_OK ? losses_before(codes, (int)(i - lo)) : 0;
        for (; st == STATUS_OK && i < end && i < start + n; i++) {
            const int k = (int)(i - lo);
            const int code = (codes[k >> 2] >> ((k & 3) * 2)) & 3;
            out[i - start] = value_of(code, code == 2 ? dist[next++] : 0);
        }
    }
    ZSTD_freeDCtx(dc);
    free(codes);
    free(dist);
    return st;
}
