/*
 * nnue_layers.h - the network's arithmetic, included twice by nnue.c: once as plain C
 * (the portable kernel) and once compiled for AVX2 (NNUE_AVX2 defined), the same loops
 * that the compiler vectorises for each, plus AVX2's byte dot product for the first
 * dense layer, where the vectoriser does poorly. Both give the same integers: the
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

/* One dense layer's output before its activation: bias plus in . w over n inputs. */
NNUE_ATTR static int32_t NNUE_FN(dot_)(const uint8_t *restrict in, const int8_t *restrict w, int n)
{
#ifdef NNUE_AVX2
    if (n % 32 == 0) {
        const __m256i ones = _mm256_set1_epi16(1);
        __m256i sum = _mm256_setzero_si256();
        for (int i = 0; i < n; i += 32) {
            const __m256i a = _mm256_load_si256((const __m256i *)(const void *)(in + i));
            const __m256i b = _mm256_load_si256((const __m256i *)(const void *)(w + i));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), ones));
        }
        const __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        const __m128i s2 = _mm_add_epi32(s4, _mm_unpackhi_epi64(s4, s4));
        const __m128i s1 = _mm_add_epi32(s2, _mm_shuffle_epi32(s2, 1));
        return _mm_cvtsi128_si32(s1);
    }
#endif
    int32_t s = 0;
    for (int i = 0; i < n; i++)
        s += (int32_t)in[i] * w[i];
    return s;
}

NNUE_ATTR static int NNUE_FN(forward_)(const Nnue *net, const NnueAccumulator *mover,
                                       const NnueAccumulator *other)
{
    _Alignas(32) uint8_t in[2 * NNUE_HIDDEN];
    for (int i = 0; i < NNUE_HIDDEN; i++) {
        in[i] = clamp_byte(mover->v[i]);
        in[NNUE_HIDDEN + i] = clamp_byte(other->v[i]);
    }
    _Alignas(32) uint8_t h1[NNUE_L1];
    for (int o = 0; o < NNUE_L1; o++)
        h1[o] = activate(net->b1[o] + NNUE_FN(dot_)(in, net->w1[o], 2 * NNUE_HIDDEN));
    _Alignas(32) uint8_t h2[NNUE_L2];
    for (int o = 0; o < NNUE_L2; o++)
        h2[o] = activate(net->b2[o] + NNUE_FN(dot_)(h1, net->w2[o], NNUE_L1));
    const int32_t out = net->b3 + NNUE_FN(dot_)(h2, net->w3, NNUE_L2);
    return out_to_centi(out);
}

#undef NNUE_FN
#undef NNUE_CAT
#undef NNUE_CAT2
