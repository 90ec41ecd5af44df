/*
 * nnue.c - evaluation networks (nnue.h): the file read and checked, and the integer
 * forward pass, with the kernel chosen once per net by what the processor has.
 */
#include "search/nnue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define NNUE_HAVE_AVX2_KERNEL 1
#endif

#include "search/nnue_nets.h"

struct Nnue {
    _Alignas(32) int16_t ft_bias[NNUE_HIDDEN];
    _Alignas(32) int8_t w1[NNUE_L1][2 * NNUE_HIDDEN];
    _Alignas(32) int8_t w2[NNUE_L2][NNUE_L1];
    _Alignas(32) int8_t w3[NNUE_L2];
    int32_t b1[NNUE_L1];
    int32_t b2[NNUE_L2];
    int32_t b3;
    int inputs;
    NnueKernel kernel; /* never AUTO once loaded */
    int16_t *ft_weight; /* [inputs][NNUE_HIDDEN] */
    const Mem *mem;
};

static inline uint8_t clamp_byte(int16_t v)
{
    return (uint8_t)(v < 0 ? 0 : v > 127 ? 127 : v);
}

/* The dense layers' activation: the sum is in units of 1/(127 * 64), the weights'
 * scale; back to 0..127. */
static inline uint8_t activate(int32_t s)
{
    if (s < 0)
        return 0;
    s /= 64;
    return (uint8_t)(s > 127 ? 127 : s);
}

/* The output is in 1/16 centi-units; truncated toward zero, as C divides. */
static inline int out_to_centi(int32_t out)
{
    return (int)(out / 16);
}

#define NNUE_SUFFIX portable
#define NNUE_ATTR
#include "search/nnue_layers.h"
#undef NNUE_SUFFIX
#undef NNUE_ATTR

#ifdef NNUE_HAVE_AVX2_KERNEL
#define NNUE_SUFFIX avx2
#define NNUE_ATTR __attribute__((target("avx2")))
#define NNUE_AVX2 1
#include "search/nnue_layers.h"
#undef NNUE_AVX2
#undef NNUE_SUFFIX
#undef NNUE_ATTR
#endif

static bool cpu_has_avx2(void)
{
#ifdef NNUE_HAVE_AVX2_KERNEL
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

Status nnue_set_kernel(Nnue *net, NnueKernel k, ErrBuf *err)
{
    if (k == NNUE_KERNEL_AUTO)
        k = cpu_has_avx2() ? NNUE_KERNEL_AVX2 : NNUE_KERNEL_PORTABLE;
    if (k == NNUE_KERNEL_AVX2 && !cpu_has_avx2())
        return err_set(err, STATUS_UNSUPPORTED, "this processor has no AVX2");
    net->kernel = k;
    return STATUS_OK;
}

const char *nnue_kernel_name(const Nnue *net)
{
    return net->kernel == NNUE_KERNEL_AVX2 ? "avx2" : "portable";
}

void nnue_refresh(const Nnue *net, const uint16_t *active, int count, NnueAccumulator *acc)
{
#ifdef NNUE_HAVE_AVX2_KERNEL
    if (net->kernel == NNUE_KERNEL_AVX2) {
        refresh_avx2(net, active, count, acc);
        return;
    }
#endif
    refresh_portable(net, active, count, acc);
}

void nnue_update(const Nnue *net, const uint16_t *add, int n_add, const uint16_t *sub, int n_sub,
                 NnueAccumulator *acc)
{
#ifdef NNUE_HAVE_AVX2_KERNEL
    if (net->kernel == NNUE_KERNEL_AVX2) {
        update_avx2(net, add, n_add, sub, n_sub, acc);
        return;
    }
#endif
    update_portable(net, add, n_add, sub, n_sub, acc);
}

int nnue_forward(const Nnue *net, const NnueAccumulator *mover, const NnueAccumulator *other)
{
#ifdef NNUE_HAVE_AVX2_KERNEL
    if (net->kernel == NNUE_KERNEL_AVX2)
        return forward_avx2(net, mover, other);
#endif
    return forward_portable(net, mover, other);
}

bool nnue_game_has_features(const Game *g)
{
    const GameOps *ops = g->ops;
    return ops->nnue_features != NULL && ops->nnue_feature_set != NULL &&
           ops->nnue_feature_count > 0 && ops->nnue_feature_count <= NNUE_MAX_INPUTS;
}

int nnue_evaluate(const Nnue *net, const Game *g, const GameState *s)
{
    uint16_t active[NNUE_MAX_ACTIVE];
    NnueAccumulator acc[2];
    for (int p = 0; p < 2; p++) {
        const int n = g->ops->nnue_features(g, s, p, active, NNUE_MAX_ACTIVE);
        nnue_refresh(net, active, n, &acc[p]);
    }
    const int mover = g->ops->to_move(g, s) == 1 ? 1 : 0;
    return nnue_forward(net, &acc[mover], &acc[1 - mover]);
}

/* The file, read in order; every read checks that the bytes are there. */
typedef struct Reader {
    const unsigned char *p, *end;
} Reader;

static bool take(Reader *r, void *out, size_t n)
{
    if ((size_t)(r->end - r->p) < n)
        return false;
    memcpy(out, r->p, n);
    r->p += n;
    return true;
}

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static bool take_u32(Reader *r, uint32_t *out)
{
    unsigned char b[4];
    if (!take(r, b, 4))
        return false;
    *out = le32(b);
    return true;
}

static bool take_i16s(Reader *r, int16_t *out, size_t n)
{
    if ((size_t)(r->end - r->p) < 2 * n)
        return false;
    for (size_t i = 0; i < n; i++)
        out[i] = (int16_t)(uint16_t)(r->p[2 * i] | r->p[2 * i + 1] << 8);
    r->p += 2 * n;
    return true;
}

static bool take_i32s(Reader *r, int32_t *out, size_t n)
{
    if ((size_t)(r->end - r->p) < 4 * n)
        return false;
    for (size_t i = 0; i < n; i++)
        out[i] = (int32_t)le32(r->p + 4 * i);
    r->p += 4 * n;
    return true;
}

/* FNV-1a, 64 bits: the weights' checksum in the header. */
static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static bool name_is(const char field[NNUE_NAME_LEN], const char *want)
{
    return strnlen(field, NNUE_NAME_LEN) < NNUE_NAME_LEN && strcmp(field, want) == 0;
}

void nnue_free(Nnue *net)
{
    if (net == NULL)
        return;
    const Mem *mem = net->mem;
    mem_aligned_free(mem, net->ft_weight);
    mem_aligned_free(mem, net);
}

Status nnue_load(const Game *g, const unsigned char *bytes, size_t size, const Mem *mem,
                 Nnue **out, ErrBuf *err)
{
    *out = NULL;
    const char *game = g->ops->name;
    if (!nnue_game_has_features(g))
        return err_set(err, STATUS_UNSUPPORTED, "%s has no input features for a network", game);
    Reader r = {bytes, bytes + size};
    char magic[4], net_game[NNUE_NAME_LEN], set[NNUE_NAME_LEN];
    uint32_t version, inputs, hidden, l1, l2;
    unsigned char hash_bytes[8];
    if (!take(&r, magic, 4) || memcmp(magic, "CRNN", 4) != 0)
        return err_set(err, STATUS_CORRUPT, "not a crown network: no CRNN at its start");
    if (!take_u32(&r, &version) || !take(&r, net_game, sizeof net_game) ||
        !take(&r, set, sizeof set) || !take_u32(&r, &inputs) || !take_u32(&r, &hidden) ||
        !take_u32(&r, &l1) || !take_u32(&r, &l2) || !take(&r, hash_bytes, 8))
        return err_set(err, STATUS_CORRUPT, "the network's header is cut short");
    if (version != NNUE_VERSION)
        return err_set(err, STATUS_CORRUPT, "network version %u; this crown reads version %d",
                       version, NNUE_VERSION);
    if (!name_is(net_game, game))
        return err_set(err, STATUS_UNSUPPORTED, "the network is for %.*s, not %s",
                       (int)strnlen(net_game, NNUE_NAME_LEN), net_game, game);
    if (!name_is(set, g->ops->nnue_feature_set) || inputs != (uint32_t)g->ops->nnue_feature_count)
        return err_set(err, STATUS_UNSUPPORTED,
                       "the network reads features %.*s (%u), but %s gives %s (%d)",
                       (int)strnlen(set, NNUE_NAME_LEN), set, inputs, game,
                       g->ops->nnue_feature_set, g->ops->nnue_feature_count);
    if (hidden != NNUE_HIDDEN || l1 != NNUE_L1 || l2 != NNUE_L2)
        return err_set(err, STATUS_UNSUPPORTED,
                       "the network's layers are %ux%ux%u; this crown runs %dx%dx%d", hidden, l1,
                       l2, NNUE_HIDDEN, NNUE_L1, NNUE_L2);
    const size_t weights = 2 * (size_t)NNUE_HIDDEN * (1 + inputs) + 4 * NNUE_L1 +
                           (size_t)NNUE_L1 * 2 * NNUE_HIDDEN + 4 * NNUE_L2 +
                           (size_t)NNUE_L2 * NNUE_L1 + 4 + NNUE_L2;
    if ((size_t)(r.end - r.p) != weights)
        return err_set(err, STATUS_CORRUPT, "the network has %zu bytes of weights; its header "
                       "says %zu", (size_t)(r.end - r.p), weights);
    uint64_t want = 0;
    for (int i = 7; i >= 0; i--)
        want = want << 8 | hash_bytes[i];
    if (fnv1a(r.p, weights) != want)
        return err_set(err, STATUS_CORRUPT, "the network's weights do not match its hash");

    const size_t net_bytes = (sizeof(Nnue) + 31) / 32 * 32;
    const size_t ft_bytes = ((size_t)inputs * NNUE_HIDDEN * sizeof(int16_t) + 31) / 32 * 32;
    Nnue *net = mem_aligned_alloc(mem, 32, net_bytes);
    int16_t *ft = mem_aligned_alloc(mem, 32, ft_bytes);
    if (net == NULL || ft == NULL) {
        mem_aligned_free(mem, net);
        mem_aligned_free(mem, ft);
        return err_set(err, STATUS_NOMEM, "out of memory for the network");
    }
    memset(net, 0, net_bytes);
    net->mem = mem;
    net->inputs = (int)inputs;
    net->ft_weight = ft;
    // The sizes were checked above, so these reads cannot fall short.
    take_i16s(&r, net->ft_bias, NNUE_HIDDEN);
    take_i16s(&r, net->ft_weight, (size_t)inputs * NNUE_HIDDEN);
    take_i32s(&r, net->b1, NNUE_L1);
    take(&r, net->w1, sizeof net->w1);
    take_i32s(&r, net->b2, NNUE_L2);
    take(&r, net->w2, sizeof net->w2);
    take_i32s(&r, &net->b3, 1);
    take(&r, net->w3, sizeof net->w3);
    nnue_set_kernel(net, NNUE_KERNEL_AUTO, NULL);
    *out = net;
    return STATUS_OK;
}

Status nnue_load_file(const Game *g, const char *path, const Mem *mem, Nnue **out, ErrBuf *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot open the network %s", path);
    enum { NNUE_FILE_CAP = 8 << 20 };
    unsigned char *buf = malloc(NNUE_FILE_CAP);
    if (buf == NULL) {
        fclose(f);
        return err_set(err, STATUS_NOMEM, "out of memory reading %s", path);
    }
    const size_t n = fread(buf, 1, NNUE_FILE_CAP, f);
    const bool too_big = n == NNUE_FILE_CAP;
    const bool failed = ferror(f) != 0;
    fclose(f);
    Status st;
    if (failed)
        st = err_set(err, STATUS_IO, "cannot read the network %s", path);
    else if (too_big)
        st = err_set(err, STATUS_CORRUPT, "%s is larger than a network may be (8 MiB)", path);
    else
        st = nnue_load(g, buf, n, mem, out, err);
    free(buf);
    return st;
}

/* The net built in for g, or NULL. */
static const NnueBlob *builtin_blob(const Game *g)
{
    for (int i = 0; i < nnue_blob_count; i++)
        if (strcmp(nnue_blobs[i].game, g->ops->name) == 0)
            return &nnue_blobs[i];
    return NULL;
}

bool nnue_has_builtin(const Game *g)
{
    return builtin_blob(g) != NULL;
}

bool nnue_is_default(const Game *g)
{
    const NnueBlob *blob = builtin_blob(g);
    return blob != NULL && blob->is_default && nnue_game_has_features(g);
}

Status nnue_load_builtin(const Game *g, const Mem *mem, Nnue **out, ErrBuf *err)
{
    *out = NULL;
    const NnueBlob *blob = builtin_blob(g);
    if (blob != NULL)
        return nnue_load(g, blob->bytes, blob->size, mem, out, err);
    char names[256] = "";
    for (int i = 0; i < nnue_blob_count; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                 nnue_blobs[i].game);
    return err_set(err, STATUS_NOT_FOUND, "%s has no evaluation network; the games with one: %s",
                   g->ops->name, nnue_blob_count > 0 ? names : "none");
}
