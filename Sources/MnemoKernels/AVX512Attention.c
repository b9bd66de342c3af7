// Self-attention of one head of one sequence, AVX-512 (see MnemoKernels.h). Compiled through
// function attributes, like AVX512Kernels.c, and called only when the CPU has AVX-512.
#include "MnemoKernels.h"

#if defined(__x86_64__)
#include <math.h>
#include "AVX512Support.h"

// e^x for x ≤ 0, sixteen at a time: the polynomial of AVX2Attention.c's exp_nonpositive (relative
// error below 8e-8 over [-87, 0]); below -87 the result is 0.
MNEMO_AVX512_INLINE __m512 exp16_nonpositive(__m512 x) {
    const __mmask16 underflow = _mm512_cmp_ps_mask(x, _mm512_set1_ps(-87.0f), _CMP_LT_OQ);
    x = _mm512_max_ps(x, _mm512_set1_ps(-87.0f));
    __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
    r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.0f / 5040);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
    __m512i exponent = _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
    return _mm512_maskz_mul_ps((__mmask16)~underflow, p, _mm512_castsi512_ps(exponent));
}

// The scores of four queries (rows `query`, `query + stride`, …) against every key, 16 keys per
// step from the transposed keys, scaled, into four rows of `padded` floats at `scores`. Four
// queries make four independent chains of multiply-adds per block of keys, where one query alone
// waits on the latency of its single chain. Each score still adds its products in the order
// c = 0, 1, 2…, so it does not depend on the other queries of the group.
MNEMO_AVX512_INLINE void scores4(const float *query, ptrdiff_t stride, const float *keys_t, ptrdiff_t head_size,
                                 ptrdiff_t padded, float scale, float *scores) {
    const __m512 scaling = _mm512_set1_ps(scale);
    const float *q0 = query, *q1 = query + stride, *q2 = query + 2 * stride, *q3 = query + 3 * stride;
    for (ptrdiff_t j = 0; j < padded; j += 16) {
        __m512 s0 = _mm512_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
        for (ptrdiff_t c = 0; c < head_size; c++) {
            const __m512 k = _mm512_loadu_ps(keys_t + c * padded + j);
            s0 = _mm512_fmadd_ps(_mm512_set1_ps(q0[c]), k, s0);
            s1 = _mm512_fmadd_ps(_mm512_set1_ps(q1[c]), k, s1);
            s2 = _mm512_fmadd_ps(_mm512_set1_ps(q2[c]), k, s2);
            s3 = _mm512_fmadd_ps(_mm512_set1_ps(q3[c]), k, s3);
        }
        _mm512_storeu_ps(scores + j, _mm512_mul_ps(s0, scaling));
        _mm512_storeu_ps(scores + padded + j, _mm512_mul_ps(s1, scaling));
        _mm512_storeu_ps(scores + 2 * padded + j, _mm512_mul_ps(s2, scaling));
        _mm512_storeu_ps(scores + 3 * padded + j, _mm512_mul_ps(s3, scaling));
    }
}

// The same for one query.
MNEMO_AVX512_INLINE void scores1(const float *query, const float *keys_t, ptrdiff_t head_size, ptrdiff_t padded,
                                 float scale, float *scores) {
    for (ptrdiff_t j = 0; j < padded; j += 16) {
        __m512 s = _mm512_setzero_ps();
        for (ptrdiff_t c = 0; c < head_size; c++) {
            s = _mm512_fmadd_ps(_mm512_set1_ps(query[c]), _mm512_loadu_ps(keys_t + c * padded + j), s);
        }
        _mm512_storeu_ps(scores + j, _mm512_mul_ps(s, _mm512_set1_ps(scale)));
    }
}

// Turns the first `length` scores (of `padded`) into softmax weights that sum to 1; the padding's
// weights become 0.
MNEMO_AVX512_INLINE void softmax16(float *scores, ptrdiff_t length, ptrdiff_t padded) {
    for (ptrdiff_t j = length; j < padded; j++) scores[j] = -INFINITY;
    __m512 maximum = _mm512_set1_ps(-INFINITY);
    for (ptrdiff_t j = 0; j < padded; j += 16) maximum = _mm512_max_ps(maximum, _mm512_loadu_ps(scores + j));
    const __m512 top = _mm512_set1_ps(_mm512_reduce_max_ps(maximum));
    __m512 total = _mm512_setzero_ps();
    for (ptrdiff_t j = 0; j < padded; j += 16) {
        __m512 e = exp16_nonpositive(_mm512_sub_ps(_mm512_loadu_ps(scores + j), top));
        _mm512_storeu_ps(scores + j, e);
        total = _mm512_add_ps(total, e);
    }
    const __m512 inverse = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(total));
    for (ptrdiff_t j = 0; j < padded; j += 16) _mm512_storeu_ps(scores + j, _mm512_mul_ps(_mm512_loadu_ps(scores + j), inverse));
}

// output[0 ..< head_size] = Σ_j weights[j] · values[j·stride ...], 16 columns to a register (the
// last block masked), even and odd tokens in separate chains so that two multiply-adds are in
// flight per register.
MNEMO_AVX512_INLINE void weighted_values16(const float *weights, const float *values, ptrdiff_t stride,
                                           ptrdiff_t length, ptrdiff_t head_size, float *output) {
    for (ptrdiff_t c = 0; c < head_size; c += 32) {
        const ptrdiff_t left = head_size - c;
        const __mmask16 m0 = left >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << left) - 1);
        const __mmask16 m1 = left >= 32 ? (__mmask16)0xFFFF : left > 16 ? (__mmask16)((1u << (left - 16)) - 1) : 0;
        __m512 e0 = _mm512_setzero_ps(), e1 = e0, o0 = e0, o1 = e0;
        ptrdiff_t j = 0;
        for (; j + 2 <= length; j += 2) {
            const float *v = values + j * stride + c;
            const __m512 we = _mm512_set1_ps(weights[j]), wo = _mm512_set1_ps(weights[j + 1]);
            e0 = _mm512_fmadd_ps(we, _mm512_maskz_loadu_ps(m0, v), e0);
            e1 = _mm512_fmadd_ps(we, _mm512_maskz_loadu_ps(m1, v + 16), e1);
            o0 = _mm512_fmadd_ps(wo, _mm512_maskz_loadu_ps(m0, v + stride), o0);
            o1 = _mm512_fmadd_ps(wo, _mm512_maskz_loadu_ps(m1, v + stride + 16), o1);
        }
        if (j < length) {
            const float *v = values + j * stride + c;
            const __m512 we = _mm512_set1_ps(weights[j]);
            e0 = _mm512_fmadd_ps(we, _mm512_maskz_loadu_ps(m0, v), e0);
            e1 = _mm512_fmadd_ps(we, _mm512_maskz_loadu_ps(m1, v + 16), e1);
        }
        _mm512_mask_storeu_ps(output + c, m0, _mm512_add_ps(e0, o0));
        _mm512_mask_storeu_ps(output + c + 16, m1, _mm512_add_ps(e1, o1));
    }
}

MNEMO_AVX512
void mnemo_avx512_attention_head(const float *queries, const float *keys, const float *values, ptrdiff_t stride,
                                 ptrdiff_t length, ptrdiff_t head_size, float scale, float *context,
                                 ptrdiff_t context_stride, float *scratch) {
    const ptrdiff_t padded = (length + 15) & ~(ptrdiff_t)15;
    float *keys_t = scratch, *scores = scratch + head_size * padded;
    for (ptrdiff_t j = 0; j < length; j++) {
        for (ptrdiff_t c = 0; c < head_size; c++) keys_t[c * padded + j] = keys[j * stride + c];
    }
    for (ptrdiff_t c = 0; c < head_size; c++) {
        for (ptrdiff_t j = length; j < padded; j++) keys_t[c * padded + j] = 0;
    }
    ptrdiff_t i = 0;
    for (; i + 4 <= length; i += 4) {
        scores4(queries + i * stride, stride, keys_t, head_size, padded, scale, scores);
        for (ptrdiff_t g = 0; g < 4; g++) {
            softmax16(scores + g * padded, length, padded);
            weighted_values16(scores + g * padded, values, stride, length, head_size, context + (i + g) * context_stride);
        }
    }
    for (; i < length; i++) {
        scores1(queries + i * stride, keys_t, head_size, padded, scale, scores);
        softmax16(scores, length, padded);
        weighted_values16(scores, values, stride, length, head_size, context + i * context_stride);
    }
}

#endif
