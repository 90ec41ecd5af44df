/*
 * nnue_layers.h - the network's arithmetic, included twice by nnue.c: once as plain C
 * (the portable kernel) and once compiled for AVX2 (NNUE_AVX2 defined), the same loops
 * that the compiler vectorises for the accumulators, and for AVX2 dense layers written
 * with byte dot products, four outputs folded at once, where the vectoriser does
 * poorly (the portable kernel keeps the plain loops). Both give the same integers: the
 * products of 0..127 by -127..127 summed in pairs never saturate (2 * 127 * 127 <
 * 32767), and int16 sums wrap alike in both.
 *
 * Before including: NNUE_SUFFIX (the functions' name ending) and NNUE_ATTR (their
 * target attribute, or nothing).
 */
#define NNUE_CAT2(a, b) a##b
#define NNUE_CAT(a, b) NNUE_CAT2(a, b)
#define NNUE_FN(name) NNUE_CAT(name, NNUE_SUFFIX)

NNUE_ATTR static void NNUE_FN(acc_add_)(int16_t *restrict acc, const int16_t *restrict w)
{
    for (int i = 0; i < NNUE_HIDDEN; i++)
        acc[i] = (int16_t)(acc[i] + w[i]);
}

NNUE_ATTR static void NNUE_FN(acc_sub_)(int16_t *restrict acc, const int16_t *restrict w)
{
    for (int i = 0; i < NNUE_HIDDEN; i++)
        acc[i] = (int16_t)(acc[i] - w[i]);
}

NNUE_ATTR static void NNUE_FN(refresh_)(const Nnue *net, const uint16_t *active, int count,
                                        NnueAccumulator *acc)
{
    memcpy(acc->v, net->ft_bias, sizeof acc->v);
    for (int k = 0; k < count; k++)
        NNUE_FN(acc_add_)(acc->v, net->ft_weight + (size_t)active[k] * NNUE_HIDDEN);
}

NNUE_ATTR static void NNUE_FN(update_)(const Nnue *net, const uint16_t *add, int n_add,
                                       const uint16_t *sub, int n_sub, NnueAccumulator *acc)
{
    for (int k = 0; k < n_add; k++)
        NNUE_FN(acc_add_)(acc->v, net->ft_weight + (size_t)add[k] * NNUE_HIDDEN);
    for (int k = 0; k < n_sub; k++)
        NNUE_FN(acc_sub_)(acc->v, net->ft_weight + (size_t)sub[k] * NNUE_HIDDEN);
}

#ifndef NNUE_AVX2
/* One dense layer's output before its activation: bias plus in . w over n inputs. */
NNUE_ATTR static int32_t NNUE_FN(dot_)(const uint8_t *restrict in, const int8_t *restrict w, int n)
{
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += (int32_t)in[i] * w[i];
    return s;
}
#endif

#ifdef NNUE_AVX2
/* Four outputs' sums, each eight int32 lanes, folded into one lane each by two rounds
 * of horizontal adds: one fold for four outputs instead of one for each. */
NNUE_ATTR static __m128i NNUE_FN(fold4_)(__m256i s0, __m256i s1, __m256i s2, __m256i s3)
{
    const __m256i c = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
    return _mm_add_epi32(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1));
}

/* activate() on four sums at once: below zero is 0, else s / 64 (a shift, s being
 * positive) up to 127. */
NNUE_ATTR static __m128i NNUE_FN(activate4_)(__m128i s)
{
    const __m128i q = _mm_srai_epi32(_mm_max_epi32(s, _mm_setzero_si128()), 6);
    return _mm_min_epi32(q, _mm_set1_epi32(127));
}

/* A 16-byte input times four 16-byte weight rows: four sums. */
NNUE_ATTR static __m128i NNUE_FN(dot16x4_)(__m128i in, const int8_t (*w)[16])
{
    const __m128i ones = _mm_set1_epi16(1);
    __m128i s[4];
    for (int k = 0; k < 4; k++)
        s[k] = _mm_madd_epi16(_mm_maddubs_epi16(in, _mm_loadu_si128((const __m128i *)(const void *)w[k])), ones);
    return _mm_hadd_epi32(_mm_hadd_epi32(s[0], s[1]), _mm_hadd_epi32(s[2], s[3]));
}
#endif

NNUE_ATTR static int NNUE_FN(forward_)(const Nnue *net, const NnueAccumulator *mover,
                                       const NnueAccumulator *other)
{
    _Alignas(32) uint8_t in[2 * NNUE_HIDDEN];
    for (int i = 0; i < NNUE_HIDDEN; i++) {
        in[i] = clamp_byte(mover->v[i]);
        in[NNUE_HIDDEN + i] = clamp_byte(other->v[i]);
    }
#ifdef NNUE_AVX2
    _Static_assert(NNUE_L1 == 16 && NNUE_L2 == 16 && 2 * NNUE_HIDDEN % 32 == 0,
                   "the AVX2 layers take 16 outputs a layer and 32-byte input blocks");
    // The same integers as the loops below: sums of the same products, in another order.
    const __m256i ones = _mm256_set1_epi16(1);
    __m128i act[4];
    for (int o = 0; o < NNUE_L1; o += 4) {
        __m256i s[4];
        for (int k = 0; k < 4; k++) {
            s[k] = _mm256_setzero_si256();
            for (int i = 0; i < 2 * NNUE_HIDDEN; i += 32) {
                const __m256i a = _mm256_load_si256((const __m256i *)(const void *)(in + i));
                const __m256i b = _mm256_load_si256((const __m256i *)(const void *)(net->w1[o + k] + i));
                s[k] = _mm256_add_epi32(s[k], _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), ones));
            }
        }
        const __m128i bias = _mm_loadu_si128((const __m128i *)(const void *)(net->b1 + o));
        act[o / 4] = NNUE_FN(activate4_)(_mm_add_epi32(NNUE_FN(fold4_)(s[0], s[1], s[2], s[3]), bias));
    }
    const __m128i h1 = _mm_packus_epi16(_mm_packs_epi32(act[0], act[1]), _mm_packs_epi32(act[2], act[3]));
    for (int o = 0; o < NNUE_L2; o += 4) {
        const __m128i bias = _mm_loadu_si128((const __m128i *)(const void *)(net->b2 + o));
        act[o / 4] = NNUE_FN(activate4_)(_mm_add_epi32(NNUE_FN(dot16x4_)(h1, net->w2 + o), bias));
    }
    const __m128i h2 = _mm_packus_epi16(_mm_packs_epi32(act[0], act[1]), _mm_packs_epi32(act[2], act[3]));
    const __m128i w3 = _mm_loadu_si128((const __m128i *)(const void *)net->w3);
    const __m128i s4 = _mm_madd_epi16(_mm_maddubs_epi16(h2, w3), _mm_set1_epi16(1));
    const __m128i s2 = _mm_add_epi32(s4, _mm_unpackhi_epi64(s4, s4));
    const __m128i s1 = _mm_add_epi32(s2, _mm_shuffle_epi32(s2, 1));
    return out_to_centi(net->b3 + _mm_cvtsi128_si32(s1));
#else
    _Alignas(32) uint8_t h1[NNUE_L1];
    for (int o = 0; o < NNUE_L1; o++)
        h1[o] = activate(net->b1[o] + NNUE_FN(dot_)(in, net->w1[o], 2 * NNUE_HIDDEN));
    _Alignas(32) uint8_t h2[NNUE_L2];
    for (int o = 0; o < NNUE_L2; o++)
        h2[o] = activate(net->b2[o] + NNUE_FN(dot_)(h1, net->w2[o], NNUE_L1));
    const int32_t out = net->b3 + NNUE_FN(dot_)(h2, net->w3, NNUE_L2);
    return out_to_centi(out);
#endif
}

#undef NNUE_FN
#undef NNUE_CAT
#undef NNUE_CAT2
