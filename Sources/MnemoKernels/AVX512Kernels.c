// AVX-512 kernels of the encoder's matrix product, compiled through function attributes (no
// compiler flags) and called only on CPUs where mnemo_cpu_supports_avx512() is true.
#include "MnemoKernels.h"

#if defined(__x86_64__)
#include "AVX512Support.h"

// The tiles' sums must stay in registers: clang unrolls a loop over 12 rows by itself but not
// one over 16 or 20, and then keeps the sums on the stack.
#if defined(__clang__)
#define MNEMO_UNROLL_FULLY _Pragma("clang loop unroll(full)")
#else
#define MNEMO_UNROLL_FULLY _Pragma("GCC unroll 32")
#endif

// One tile of ROWS rows × 16 columns, one panel wide: a 16-float panel row is exactly one ZMM
// register, so each k costs one panel load, ROWS broadcasts (folded into the multiply-adds as
// memory operands) and ROWS fused multiply-adds. It serves the last panel of an odd count, and
// 15 rows.
#define MNEMO_TILE512(ROWS)                                                                             \
    MNEMO_AVX512_INLINE void tile512_##ROWS(const float *a, ptrdiff_t lda, const float *b, ptrdiff_t depth, \
                                            float *c, ptrdiff_t ldc, int accumulate, const float *prefetch) { \
        __m512 sum[ROWS];                                                                               \
        MNEMO_UNROLL_FULLY                                                                              \
        for (int r = 0; r < ROWS; r++) sum[r] = accumulate ? _mm512_loadu_ps(c + r * ldc) : _mm512_setzero_ps(); \
        for (ptrdiff_t k = 0; k < depth; k++) {                                                         \
            if (prefetch) _mm_prefetch((const char *)(prefetch + 16 * k), _MM_HINT_T1);                 \
            __m512 w = _mm512_loadu_ps(b + 16 * k);                                                     \
            MNEMO_UNROLL_FULLY                                                                          \
            for (int r = 0; r < ROWS; r++) sum[r] = _mm512_fmadd_ps(_mm512_set1_ps(a[r * lda + k]), w, sum[r]); \
        }                                                                                               \
        MNEMO_UNROLL_FULLY                                                                              \
        for (int r = 0; r < ROWS; r++) _mm512_storeu_ps(c + r * ldc, sum[r]);                           \
    }

// One tile of ROWS rows × 32 columns, two panels wide: each k costs two panel loads and ROWS
// broadcasts for 2 × ROWS multiply-adds, where a one-panel tile needs one load per multiply-add.
// With the loads no longer the bottleneck, a batch's products ran faster on a Xeon (Emerald
// Rapids) than with one-panel tiles of 12 rows. At most 14 rows: 28 sums and the two panel rows
// fill the 32 registers. Each output is the same chain of multiply-adds in the same order as in
// a one-panel tile, so the floats do not change.
#define MNEMO_PAIR_TILE512(ROWS)                                                                        \
    MNEMO_AVX512_INLINE void pair_tile512_##ROWS(const float *a, ptrdiff_t lda, const float *b, ptrdiff_t panel_stride, \
                                                 ptrdiff_t depth, float *c, ptrdiff_t ldc, int accumulate, \
                                                 const float *prefetch) {                                \
        const float *b1 = b + panel_stride;                                                             \
        __m512 left[ROWS], right[ROWS];                                                                 \
        MNEMO_UNROLL_FULLY                                                                              \
        for (int r = 0; r < ROWS; r++) {                                                                \
            left[r] = accumulate ? _mm512_loadu_ps(c + r * ldc) : _mm512_setzero_ps();                  \
            right[r] = accumulate ? _mm512_loadu_ps(c + r * ldc + 16) : _mm512_setzero_ps();            \
        }                                                                                               \
        for (ptrdiff_t k = 0; k < depth; k++) {                                                         \
            if (prefetch) {                                                                             \
                _mm_prefetch((const char *)(prefetch + 16 * k), _MM_HINT_T1);                           \
                _mm_prefetch((const char *)(prefetch + panel_stride + 16 * k), _MM_HINT_T1);            \
            }                                                                                           \
            __m512 w0 = _mm512_loadu_ps(b + 16 * k), w1 = _mm512_loadu_ps(b1 + 16 * k);                 \
            MNEMO_UNROLL_FULLY                                                                          \
            for (int r = 0; r < ROWS; r++) {                                                            \
                __m512 x = _mm512_set1_ps(a[r * lda + k]);                                              \
                left[r] = _mm512_fmadd_ps(x, w0, left[r]);                                              \
                right[r] = _mm512_fmadd_ps(x, w1, right[r]);                                            \
            }                                                                                           \
        }                                                                                               \
        MNEMO_UNROLL_FULLY                                                                              \
        for (int r = 0; r < ROWS; r++) {                                                                \
            _mm512_storeu_ps(c + r * ldc, left[r]);                                                     \
            _mm512_storeu_ps(c + r * ldc + 16, right[r]);                                               \
        }                                                                                               \
    }

MNEMO_TILE512(15)
MNEMO_TILE512(14)
MNEMO_TILE512(13)
MNEMO_TILE512(12)
MNEMO_TILE512(11)
MNEMO_TILE512(10)
MNEMO_TILE512(9)
MNEMO_TILE512(8)
MNEMO_TILE512(7)
MNEMO_TILE512(6)
MNEMO_TILE512(5)
MNEMO_TILE512(4)
MNEMO_TILE512(3)
MNEMO_TILE512(2)
MNEMO_TILE512(1)

MNEMO_PAIR_TILE512(14)
MNEMO_PAIR_TILE512(13)
MNEMO_PAIR_TILE512(12)
MNEMO_PAIR_TILE512(11)
MNEMO_PAIR_TILE512(10)
MNEMO_PAIR_TILE512(9)
MNEMO_PAIR_TILE512(8)
MNEMO_PAIR_TILE512(7)
MNEMO_PAIR_TILE512(6)
MNEMO_PAIR_TILE512(5)
MNEMO_PAIR_TILE512(4)
MNEMO_PAIR_TILE512(3)
MNEMO_PAIR_TILE512(2)
MNEMO_PAIR_TILE512(1)

// A one-panel tile of exactly `rows` rows, 1 to 14.
MNEMO_AVX512_INLINE void tile512(ptrdiff_t rows, const float *a, ptrdiff_t lda, const float *b, ptrdiff_t depth,
                                 float *c, ptrdiff_t ldc, int accumulate, const float *prefetch) {
    switch (rows) {
    case 14: tile512_14(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 13: tile512_13(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 12: tile512_12(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 11: tile512_11(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 10: tile512_10(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 9: tile512_9(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 8: tile512_8(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 7: tile512_7(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 6: tile512_6(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 5: tile512_5(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 4: tile512_4(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 3: tile512_3(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 2: tile512_2(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    case 1: tile512_1(a, lda, b, depth, c, ldc, accumulate, prefetch); break;
    default: break;
    }
}

// A two-panel tile of exactly `rows` rows, 1 to 14.
MNEMO_AVX512_INLINE void pair_tile512(ptrdiff_t rows, const float *a, ptrdiff_t lda, const float *b,
                                      ptrdiff_t panel_stride, ptrdiff_t depth, float *c, ptrdiff_t ldc,
                                      int accumulate, const float *prefetch) {
    switch (rows) {
    case 14: pair_tile512_14(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 13: pair_tile512_13(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 12: pair_tile512_12(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 11: pair_tile512_11(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 10: pair_tile512_10(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 9: pair_tile512_9(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 8: pair_tile512_8(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 7: pair_tile512_7(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 6: pair_tile512_6(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 5: pair_tile512_5(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 4: pair_tile512_4(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 3: pair_tile512_3(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 2: pair_tile512_2(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    case 1: pair_tile512_1(a, lda, b, panel_stride, depth, c, ldc, accumulate, prefetch); break;
    default: break;
    }
}

MNEMO_AVX512
void mnemo_avx512_sgemm_panels(const float *a, ptrdiff_t lda, ptrdiff_t rows,
                               const float *panels, ptrdiff_t panel_stride, ptrdiff_t panel_count,
                               ptrdiff_t depth, float *c, ptrdiff_t ldc, int accumulate) {
    // Fifteen rows would end in a two-panel tile of one row, two chains of multiply-adds where
    // the FMA units need eight: one one-panel tile of all fifteen measured faster.
    if (rows == 15) {
        for (ptrdiff_t p = 0; p < panel_count; p++) {
            const float *b = panels + p * panel_stride;
            tile512_15(a, lda, b, depth, c + 16 * p, ldc, accumulate, p + 1 < panel_count ? b + panel_stride : NULL);
        }
        return;
    }
    // Pairs of panels, the rows in tiles of 14 and one of the rows left (a text of 18 tokens is
    // 14 + 4, a batch's 64-row block 4 × 14 + 8); on the Xeon, 14 + 4 beat one one-panel tile of
    // 18 rows, and 9 + 9 (the same loads, half the rows per panel pass) did not. The first tile of
    // a pair asks for the next pair's block to be brought into L2 (into L1 it would push out the
    // input rows every pair reads again).
    ptrdiff_t p = 0;
    for (; p + 1 < panel_count; p += 2) {
        const float *b = panels + p * panel_stride;
        const float *next = p + 3 < panel_count ? b + 2 * panel_stride : NULL;
        for (ptrdiff_t r = 0; r < rows; r += 14, next = NULL) {
            pair_tile512(rows - r < 14 ? rows - r : 14, a + r * lda, lda, b, panel_stride, depth, c + r * ldc + 16 * p,
                         ldc, accumulate, next);
        }
    }
    // The last panel of an odd count, in one-panel tiles of the same rows.
    if (p < panel_count) {
        const float *b = panels + p * panel_stride;
        for (ptrdiff_t r = 0; r < rows; r += 14) {
            tile512(rows - r < 14 ? rows - r : 14, a + r * lda, lda, b, depth, c + r * ldc + 16 * p, ldc, accumulate,
                    NULL);
        }
    }
}

// erf(t) ≈ t·P(t²)/Q(t²) on |t| ≤ 4 with the coefficients of TransformerMath.erf (Swift), 16 at
// a time and with fused multiply-adds; beyond 4, erf is ±1 in Float.
MNEMO_AVX512_INLINE __m512 erf16(__m512 x) {
    const __m512 t = _mm512_max_ps(_mm512_min_ps(x, _mm512_set1_ps(4.0f)), _mm512_set1_ps(-4.0f));
    const __m512 t2 = _mm512_mul_ps(t, t);
    __m512 p = _mm512_set1_ps(1.9112585986080788e-08f);
    p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(-1.9423256229431085e-06f));
    p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(0.000147270981976335f));
    p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(0.003989800853009292f));
    p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(0.051522344807149914f));
    p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(0.2071063421952453f));
    p = _mm512_fmadd_ps(p, t2, _mm512_set1_ps(1.1283790940190794f));
    __m512 q = _mm512_set1_ps(0.0010209360210806178f);
    q = _mm512_fmadd_ps(q, t2, _mm512_set1_ps(0.014956459381423119f));
    q = _mm512_fmadd_ps(q, t2, _mm512_set1_ps(0.11796290673394641f));
    q = _mm512_fmadd_ps(q, t2, _mm512_set1_ps(0.5168744659774377f));
    q = _mm512_fmadd_ps(q, t2, _mm512_set1_ps(1.0f));
    return _mm512_div_ps(_mm512_mul_ps(t, p), q);
}

MNEMO_AVX512
void mnemo_avx512_finish_rows(float *c, ptrdiff_t ldc, ptrdiff_t rows, ptrdiff_t columns, const float *bias,
                              int gelu, const float *residual, ptrdiff_t residual_stride) {
    const __m512 half = _mm512_set1_ps(0.5f), one = _mm512_set1_ps(1.0f);
    const __m512 inverse_sqrt2 = _mm512_set1_ps(0.7071067811865476f);
    for (ptrdiff_t r = 0; r < rows; r++) {
        float *line = c + r * ldc;
        for (ptrdiff_t j = 0; j < columns; j += 16) {
            __m512 x = _mm512_add_ps(_mm512_loadu_ps(line + j), _mm512_loadu_ps(bias + j));
            if (residual) {
                x = _mm512_add_ps(x, _mm512_loadu_ps(residual + r * residual_stride + j));
            } else if (gelu) {
                x = _mm512_mul_ps(_mm512_mul_ps(half, x), _mm512_add_ps(one, erf16(_mm512_mul_ps(x, inverse_sqrt2))));
            }
            _mm512_storeu_ps(line + j, x);
        }
    }
}

#endif
