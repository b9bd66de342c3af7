// Self-attention of one head of one sequence, AVX2 + FMA (see MnemoKernels.h). Compiled through
// function attributes, like AVX2Kernels.c, and called only when the CPU has AVX2 and FMA.
#include "MnemoKernels.h"

#if defined(__x86_64__)
#include <math.h>
#include "AVX2Support.h"

// e^x for x ≤ 0 (scores minus their maximum), eight at a time: x = n·ln 2 + r with |r| ≤ ln 2 / 2,
// e^r by its Taylor polynomial to degree 7 and 2^n put into the exponent bits (relative error
// below 8e-8 over [-87, 0], checked against double-precision exp at every Float there). Below
// -87, where e^x leaves Float's normal range, the result is 0, as a weight that small is to a
// softmax's sum.
MNEMO_AVX2_INLINE __m256 exp_nonpositive(__m256 x) {
    const __m256 log2e = _mm256_set1_ps(1.44269504088896341f);
    const __m256 ln2_high = _mm256_set1_ps(0.693359375f), ln2_low = _mm256_set1_ps(-2.12194440e-4f);
    __m256 underflow = _mm256_cmp_ps(x, _mm256_set1_ps(-87.0f), _CMP_LT_OQ);
    x = _mm256_max_ps(x, _mm256_set1_ps(-87.0f));
    __m256 n = _mm256_round_ps(_mm256_mul_ps(x, log2e), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    // r = x − n·ln 2 in two steps (ln 2 split in a short high part and the rest), so r keeps its low bits.
    __m256 r = _mm256_fnmadd_ps(n, ln2_high, x);
    r = _mm256_fnmadd_ps(n, ln2_low, r);
    __m256 p = _mm256_set1_ps(1.0f / 5040);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 720));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
    __m256i exponent = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    __m256 result = _mm256_mul_ps(p, _mm256_castsi256_ps(exponent));
    return _mm256_andnot_ps(underflow, result);
}

MNEMO_AVX2_INLINE float horizontal_max(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}

// The scores of one query against every key, 8 keys per step from the transposed keys `keys_t`
// (`head_size` rows of `padded` floats), scaled; written to `scores` (`padded` floats).
MNEMO_AVX2_INLINE void attention_scores(const float *query, const float *keys_t, ptrdiff_t head_size, ptrdiff_t padded,
                                        float scale, float *scores) {
    const __m256 scaling = _mm256_set1_ps(scale);
    ptrdiff_t j = 0;
    // Four blocks of 8 keys share each broadcast of a query component.
    for (; j + 32 <= padded; j += 32) {
        __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
        for (ptrdiff_t c = 0; c < head_size; c++) {
            const __m256 q = _mm256_broadcast_ss(query + c);
            const float *k = keys_t + c * padded + j;
            s0 = _mm256_fmadd_ps(q, _mm256_loadu_ps(k), s0);
            s1 = _mm256_fmadd_ps(q, _mm256_loadu_ps(k + 8), s1);
            s2 = _mm256_fmadd_ps(q, _mm256_loadu_ps(k + 16), s2);
            s3 = _mm256_fmadd_ps(q, _mm256_loadu_ps(k + 24), s3);
        }
        _mm256_storeu_ps(scores + j, _mm256_mul_ps(s0, scaling));
        _mm256_storeu_ps(scores + j + 8, _mm256_mul_ps(s1, scaling));
        _mm256_storeu_ps(scores + j + 16, _mm256_mul_ps(s2, scaling));
        _mm256_storeu_ps(scores + j + 24, _mm256_mul_ps(s3, scaling));
    }
    for (; j < padded; j += 8) {
        __m256 s = _mm256_setzero_ps();
        for (ptrdiff_t c = 0; c < head_size; c++) {
            s = _mm256_fmadd_ps(_mm256_broadcast_ss(query + c), _mm256_loadu_ps(keys_t + c * padded + j), s);
        }
        _mm256_storeu_ps(scores + j, _mm256_mul_ps(s, scaling));
    }
}

// Turns the first `length` scores (of `padded`, the rest being padding) into softmax weights that
// sum to 1; the padding's weights become 0.
MNEMO_AVX2_INLINE void softmax(float *scores, ptrdiff_t length, ptrdiff_t padded) {
    for (ptrdiff_t j = length; j < padded; j++) scores[j] = -INFINITY;
    __m256 maximum = _mm256_set1_ps(-INFINITY);
    for (ptrdiff_t j = 0; j < padded; j += 8) maximum = _mm256_max_ps(maximum, _mm256_loadu_ps(scores + j));
    const __m256 top = _mm256_set1_ps(horizontal_max(maximum));
    __m256 total = _mm256_setzero_ps();
    for (ptrdiff_t j = 0; j < padded; j += 8) {
        __m256 e = exp_nonpositive(_mm256_sub_ps(_mm256_loadu_ps(scores + j), top));
        _mm256_storeu_ps(scores + j, e);
        total = _mm256_add_ps(total, e);
    }
    const __m256 inverse = _mm256_set1_ps(1.0f / horizontal_sum(total));
    for (ptrdiff_t j = 0; j < padded; j += 8) _mm256_storeu_ps(scores + j, _mm256_mul_ps(_mm256_loadu_ps(scores + j), inverse));
}

// output[0 ..< head_size] = Σ_j weights[j] · values[j·stride ...], 32 columns at a time in registers.
MNEMO_AVX2_INLINE void weighted_values(const float *weights, const float *values, ptrdiff_t stride, ptrdiff_t length,
                                       ptrdiff_t head_size, float *output) {
    ptrdiff_t c = 0;
    for (; c + 32 <= head_size; c += 32) {
        __m256 o0 = _mm256_setzero_ps(), o1 = o0, o2 = o0, o3 = o0;
        for (ptrdiff_t j = 0; j < length; j++) {
            const __m256 w = _mm256_broadcast_ss(weights + j);
            const float *v = values + j * stride + c;
            o0 = _mm256_fmadd_ps(w, _mm256_loadu_ps(v), o0);
            o1 = _mm256_fmadd_ps(w, _mm256_loadu_ps(v + 8), o1);
            o2 = _mm256_fmadd_ps(w, _mm256_loadu_ps(v + 16), o2);
            o3 = _mm256_fmadd_ps(w, _mm256_loadu_ps(v + 24), o3);
        }
        _mm256_storeu_ps(output + c, o0);
        _mm256_storeu_ps(output + c + 8, o1);
        _mm256_storeu_ps(output + c + 16, o2);
        _mm256_storeu_ps(output + c + 24, o3);
    }
    for (; c + 8 <= head_size; c += 8) {
        __m256 o = _mm256_setzero_ps();
        for (ptrdiff_t j = 0; j < length; j++) o = _mm256_fmadd_ps(_mm256_broadcast_ss(weights + j), _mm256_loadu_ps(values + j * stride + c), o);
        _mm256_storeu_ps(output + c, o);
    }
    for (; c < head_size; c++) {
        float sum = 0;
        for (ptrdiff_t j = 0; j < length; j++) sum += weights[j] * values[j * stride + c];
        output[c] = sum;
    }
}

MNEMO_AVX2
void mnemo_avx2_attention_head(const float *queries, const float *keys, const float *values, ptrdiff_t stride,
                               ptrdiff_t length, ptrdiff_t head_size, float scale, float *context,
                               ptrdiff_t context_stride, float *scratch) {
    const ptrdiff_t padded = (length + 7) & ~(ptrdiff_t)7;
    float *keys_t = scratch, *scores = scratch + head_size * padded;
    // Keys transposed (one row per head component), so that one vector op scores 8 keys.
    for (ptrdiff_t j = 0; j < length; j++) {
        for (ptrdiff_t c = 0; c < head_size; c++) keys_t[c * padded + j] = keys[j * stride + c];
    }
    for (ptrdiff_t c = 0; c < head_size; c++) {
        for (ptrdiff_t j = length; j < padded; j++) keys_t[c * padded + j] = 0;
    }
    for (ptrdiff_t i = 0; i < length; i++) {
        attention_scores(queries + i * stride, keys_t, head_size, padded, scale, scores);
        softmax(scores, length, padded);
        weighted_values(scores, values, stride, length, head_size, context + i * context_stride);
    }
}

#endif
