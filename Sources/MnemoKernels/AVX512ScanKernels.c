// AVX-512 VNNI kernels of the int8 scan and of the graph index's walk, compiled through function
// attributes (no compiler flags) and called only on CPUs where mnemo_cpu_supports_avx512_vnni()
// is true (Intel since Cascade Lake and Ice Lake, AMD since Zen 4).
#include "MnemoKernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define MNEMO_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2,fma")))
#define MNEMO_VNNI_INLINE __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2,fma"), always_inline)) static inline

// As the AVX2 kernels (AVX2Kernels.c), a row's codes c are read as the unsigned bytes c + 128
// (one xor), so that vpdpbusd (unsigned × signed bytes, four products summed into each 32-bit
// lane, without saturation) multiplies them by the signed query codes directly, and the
// query's part is taken back once: Σ(c + 128)·q = Σc·q + 128·Σq. 64 codes per instruction. The
// codes after the last whole 64 are read with a masked load: the bytes masked off are zero in
// both the row and the query, so they add (0 ^ 0x80)·0 = 0, and no row needs a scalar tail.

// A row's codes times the query's, as sixteen 32-bit partial sums (before the correction).
MNEMO_VNNI_INLINE __m512i row_sum_vnni(const int8_t *row, const int8_t *query, ptrdiff_t count, __m512i flip) {
    __m512i s = _mm512_setzero_si512();
    ptrdiff_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512i r = _mm512_xor_si512(_mm512_loadu_si512((const void *)(row + i)), flip);
        s = _mm512_dpbusd_epi32(s, r, _mm512_loadu_si512((const void *)(query + i)));
    }
    if (i < count) {
        __mmask64 mask = ((__mmask64)1 << (count - i)) - 1;
        __m512i r = _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, row + i), flip);
        s = _mm512_dpbusd_epi32(s, r, _mm512_maskz_loadu_epi8(mask, query + i));
    }
    return s;
}

// The sum of the sixteen lanes of s as eight lanes (its two halves added).
MNEMO_VNNI_INLINE __m256i halves(__m512i s) {
    return _mm256_add_epi32(_mm512_castsi512_si256(s), _mm512_extracti64x4_epi64(s, 1));
}

MNEMO_VNNI_INLINE void prefetch_row_vnni(const int8_t *row, ptrdiff_t size) {
    for (ptrdiff_t line = 0; line < size; line += 64) _mm_prefetch((const char *)row + line, _MM_HINT_T0);
}

// How many rows ahead a block of listed rows asks memory for a row, as in the AVX2 kernel.
#define MNEMO_VNNI_PREFETCH_ROWS 8

MNEMO_VNNI
int32_t mnemo_avx512_vnni_dot_i8_pair(const int8_t *a, const int8_t *b, ptrdiff_t count) {
    // As row_sum_vnni, with the correction 128·Σb summed alongside (128 as an unsigned byte times
    // b), so that one reduction gives the dot product.
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    __m512i sum = _mm512_setzero_si512(), correction = _mm512_setzero_si512();
    ptrdiff_t i = 0;
    for (; i + 64 <= count; i += 64) {
        __m512i y = _mm512_loadu_si512((const void *)(b + i));
        sum = _mm512_dpbusd_epi32(sum, _mm512_xor_si512(_mm512_loadu_si512((const void *)(a + i)), flip), y);
        correction = _mm512_dpbusd_epi32(correction, flip, y);
    }
    if (i < count) {
        __mmask64 mask = ((__mmask64)1 << (count - i)) - 1;
        __m512i y = _mm512_maskz_loadu_epi8(mask, b + i);
        sum = _mm512_dpbusd_epi32(sum, _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, a + i), flip), y);
        correction = _mm512_dpbusd_epi32(correction, flip, y);
    }
    return _mm512_reduce_add_epi32(_mm512_sub_epi32(sum, correction));
}

MNEMO_VNNI
void mnemo_avx512_vnni_scores_i8(const int8_t *codes, ptrdiff_t dimension, const int32_t *rows, ptrdiff_t first,
                                 ptrdiff_t count, const int8_t *query, const float *scales, float *scores) {
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    int32_t query_sum = 0;
    for (ptrdiff_t i = 0; i < dimension; i++) query_sum += query[i];
    const __m128i correction = _mm_set1_epi32(128 * query_sum);
    ptrdiff_t i = 0;
    // Four rows at a time, each read whole in turn; one transposing reduction (three hadds after
    // folding each row's halves) sums the four rows' lanes.
    for (; i + 4 <= count; i += 4) {
        ptrdiff_t row[4];
        for (int j = 0; j < 4; j++) {
            row[j] = rows ? rows[i + j] : first + i + j;
            if (rows && i + j + MNEMO_VNNI_PREFETCH_ROWS < count) {
                prefetch_row_vnni(codes + rows[i + j + MNEMO_VNNI_PREFETCH_ROWS] * dimension, dimension);
            }
        }
        __m256i s0 = halves(row_sum_vnni(codes + row[0] * dimension, query, dimension, flip));
        __m256i s1 = halves(row_sum_vnni(codes + row[1] * dimension, query, dimension, flip));
        __m256i s2 = halves(row_sum_vnni(codes + row[2] * dimension, query, dimension, flip));
        __m256i s3 = halves(row_sum_vnni(codes + row[3] * dimension, query, dimension, flip));
        __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
        __m128i sums = _mm_sub_epi32(_mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)),
                                     correction);
        __m128 scale = _mm_setr_ps(scales[row[0]], scales[row[1]], scales[row[2]], scales[row[3]]);
        _mm_storeu_ps(scores + i, _mm_mul_ps(_mm_cvtepi32_ps(sums), scale));
    }
    for (; i < count; i++) {
        ptrdiff_t row = rows ? rows[i] : first + i;
        int32_t dot = _mm512_reduce_add_epi32(row_sum_vnni(codes + row * dimension, query, dimension, flip))
            - 128 * query_sum;
        scores[i] = (float)dot * scales[row];
    }
}

#endif
