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
// memory operands) and ROWS fused multiply-adds. Twelve rows keep both FMA units busy despite
// their latency and measured faster than 14 or 16 (and than two panels × 12 rows, whose two
// panel streams no longer fit in L1 with the rows of `a`); the smaller tiles finish the rows
// that are left, except that the last 16 or 20 rows of a block take one tile (see
// mnemo_avx512_sgemm_panels).
#define MNEMO_TILE512(ROWS)                                                                             \
    MNEMO_AVX512_INLINE void tile512_##ROWS(const float *a, ptrdiff_t lda, const float *b, ptrdiff_t depth, \
                                            float *c, ptrdiff_t ldc, int accumulate, const float *prefetch) { \
        __m512 sum[ROWS];                                                                               \
        for (int r = 0; r < ROWS; r++) sum[r] = accumulate ? _mm512_loadu_ps(c + r * ldc) : _mm512_setzero_ps(); \
        for (ptrdiff_t k = 0; k < depth; k++) {                                                         \
            if (prefetch) _mm_prefetch((const char *)(prefetch + 16 * k), _MM_HINT_T0);                 \
            __m512 w = _mm512_loadu_ps(b + 16 * k);                                                     \
            MNEMO_UNROLL_FULLY                                                                          \
            for (int r = 0; r < ROWS; r++) sum[r] = _mm512_fmadd_ps(_mm512_set1_ps(a[r * lda + k]), w, sum[r]); \
        }                                                                                               \
        for (int r = 0; r < ROWS; r++) _mm512_storeu_ps(c + r * ldc, sum[r]);                           \
    }

MNEMO_TILE512(20)
MNEMO_TILE512(16)
MNEMO_TILE512(12)
MNEMO_TILE512(8)
MNEMO_TILE512(4)
MNEMO_TILE512(2)

MNEMO_AVX512
void mnemo_avx512_sgemm_panels(const float *a, ptrdiff_t lda, ptrdiff_t rows,
                               const float *panels, ptrdiff_t panel_stride, ptrdiff_t panel_count,
                               ptrdiff_t depth, float *c, ptrdiff_t ldc, int accumulate) {
    // As mnemo_avx2_sgemm_panels: panel by panel, the first tile asking for the next panel block.
    for (ptrdiff_t p = 0; p < panel_count; p++) {
        const float *b = panels + p * panel_stride;
        const float *next = p + 1 < panel_count ? b + panel_stride : NULL;
        float *out = c + 16 * p;
        ptrdiff_t r = 0;
        // The last 16 rows are one tile, not 12 + 4: a 4-row tile keeps only four chains of
        // multiply-adds in flight where two FMA units of 4 cycles' latency need eight, so it runs at
        // half speed. Likewise the last 20 are one tile, not 12 + 8 (eight chains, no slack).
        // Sixteen rows end every 64-row block of a batch, and 16 or 20 are a whole text of 13 to
        // 20 tokens.
        for (; rows - r >= 12; next = NULL) {
            if (rows - r == 16) {
                tile512_16(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
                r += 16;
            } else if (rows - r == 20) {
                tile512_20(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
                r += 20;
            } else {
                tile512_12(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
                r += 12;
            }
        }
        if (rows - r >= 8) {
            tile512_8(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
            r += 8;
            next = NULL;
        }
        if (rows - r >= 4) {
            tile512_4(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
            r += 4;
            next = NULL;
        }
        if (rows - r >= 2) tile512_2(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
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
