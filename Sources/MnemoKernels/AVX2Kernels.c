// AVX2 + FMA kernels, compiled through function attributes (no compiler flags) and called only
// on CPUs where mnemo_cpu_supports_avx2_fma() is true.
#include "MnemoKernels.h"

#if defined(__x86_64__)
#include "AVX2Support.h"

// One tile of ROWS rows × 16 columns: 2·ROWS accumulators, two panel loads and ROWS broadcasts per
// k. Six rows (12 accumulators, 15 of the 16 YMM registers in all) keep both FMA units busy
// despite their latency; the smaller tiles finish the rows that are left.
#define MNEMO_TILE(ROWS)                                                                              \
    MNEMO_AVX2_INLINE void tile##ROWS(const float *a, ptrdiff_t lda, const float *b, ptrdiff_t depth, \
                                      float *c, ptrdiff_t ldc, int accumulate, const float *prefetch) { \
        __m256 lo[ROWS], hi[ROWS];                                                                   \
        for (int r = 0; r < ROWS; r++) {                                                             \
            if (accumulate) {                                                                        \
                lo[r] = _mm256_loadu_ps(c + r * ldc);                                                \
                hi[r] = _mm256_loadu_ps(c + r * ldc + 8);                                            \
            } else {                                                                                 \
                lo[r] = _mm256_setzero_ps();                                                         \
                hi[r] = _mm256_setzero_ps();                                                         \
            }                                                                                        \
        }                                                                                            \
        for (ptrdiff_t k = 0; k < depth; k++) {                                                      \
            if (prefetch) _mm_prefetch((const char *)(prefetch + 16 * k), _MM_HINT_T1);              \
            __m256 b0 = _mm256_loadu_ps(b + 16 * k);                                                  \
            __m256 b1 = _mm256_loadu_ps(b + 16 * k + 8);                                              \
            for (int r = 0; r < ROWS; r++) {                                                         \
                __m256 x = _mm256_broadcast_ss(a + r * lda + k);                                     \
                lo[r] = _mm256_fmadd_ps(x, b0, lo[r]);                                               \
                hi[r] = _mm256_fmadd_ps(x, b1, hi[r]);                                               \
            }                                                                                        \
        }                                                                                            \
        for (int r = 0; r < ROWS; r++) {                                                             \
            _mm256_storeu_ps(c + r * ldc, lo[r]);                                                    \
            _mm256_storeu_ps(c + r * ldc + 8, hi[r]);                                                \
        }                                                                                            \
    }

MNEMO_TILE(6)
MNEMO_TILE(4)
MNEMO_TILE(2)
MNEMO_TILE(1)

MNEMO_AVX2
void mnemo_avx2_sgemm_panels(const float *a, ptrdiff_t lda, ptrdiff_t rows,
                             const float *panels, ptrdiff_t panel_stride, ptrdiff_t panel_count,
                             ptrdiff_t depth, float *c, ptrdiff_t ldc, int accumulate) {
    // Panel by panel, so that one panel block stays in L1 while it meets every row of `a`.
    for (ptrdiff_t p = 0; p < panel_count; p++) {
        const float *b = panels + p * panel_stride;
        // The first tile of a panel block brings it from memory; it also asks for the next
        // panel block, line by line (a block is 16 floats, one line, per step of k), so that the
        // jump of a whole panel stride does not stall the next tile. Into L2, not L1: there the
        // next block (24 kB) would push out the rows of `a` that every panel reads again. A C
        // harness timing this function alone found L2 the faster on both paths, for one text's
        // products and for a batch's blocks (Benchmarks/results, the Emerald Rapids Xeon).
        const float *next = p + 1 < panel_count ? b + panel_stride : NULL;
        float *out = c + 16 * p;
        ptrdiff_t r = 0;
        for (; r + 6 <= rows; r += 6, next = NULL) tile6(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
        if (rows - r >= 4) {
            tile4(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
            r += 4;
            next = NULL;
        }
        if (rows - r >= 2) {
            tile2(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
            r += 2;
            next = NULL;
        }
        if (rows - r == 1) tile1(a + r * lda, lda, b, depth, out + r * ldc, ldc, accumulate, next);
    }
}

MNEMO_AVX2
float mnemo_avx2_dot_f32(const float *a, const float *b, ptrdiff_t count) {
    // Four independent accumulators hide the latency of the fused multiply-adds.
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
    ptrdiff_t i = 0;
    for (; i + 32 <= count; i += 32) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 8), _mm256_loadu_ps(b + i + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 16), _mm256_loadu_ps(b + i + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i + 24), _mm256_loadu_ps(b + i + 24), s3);
    }
    for (; i + 8 <= count; i += 8) s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i), s0);
    float sum = horizontal_sum(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
    for (; i < count; i++) sum += a[i] * b[i];
    return sum;
}

MNEMO_AVX2_INLINE int32_t horizontal_sum_i32(__m256i v) {
    __m128i h = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, _MM_SHUFFLE(1, 0, 3, 2)));
    h = _mm_add_epi32(h, _mm_shuffle_epi32(h, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(h);
}

// The int8 kernels read a row's codes c as the unsigned bytes c + 128 (one xor), so that maddubs
// (unsigned × signed bytes) multiplies them by the signed query codes directly, and take the
// query's part back once: Σ(c + 128)·q = Σc·q + 128·Σq. A pair of products is at most
// 2 × 255 × 31 = 15,810 for query codes in -31…31, so two pairs add up in 16 bits before the
// one widening step: 7 instructions per 64 codes, where taking |c| and moving its sign onto the
// query (the usual maddubs trick for two signed operands) needed 12.
//
// The 64 codes at `row` times the query's, as eight 32-bit partial sums (before the 128·Σq
// correction).
MNEMO_AVX2_INLINE __m256i products64_i8(const int8_t *row, const int8_t *query, __m256i flip, __m256i ones) {
    __m256i r0 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)row), flip);
    __m256i r1 = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(row + 32)), flip);
    __m256i pairs = _mm256_add_epi16(_mm256_maddubs_epi16(r0, _mm256_loadu_si256((const __m256i *)query)),
                                     _mm256_maddubs_epi16(r1, _mm256_loadu_si256((const __m256i *)(query + 32))));
    return _mm256_madd_epi16(pairs, ones);
}

// The same for 32 codes.
MNEMO_AVX2_INLINE __m256i products32_i8(const int8_t *row, const int8_t *query, __m256i flip, __m256i ones) {
    __m256i r = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)row), flip);
    return _mm256_madd_epi16(_mm256_maddubs_epi16(r, _mm256_loadu_si256((const __m256i *)query)), ones);
}

// The codes from `start` on (fewer than 32), as plain integers.
MNEMO_AVX2_INLINE int32_t tail_i8(const int8_t *row, const int8_t *query, ptrdiff_t start, ptrdiff_t count) {
    int32_t sum = 0;
    for (ptrdiff_t i = start; i < count; i++) sum += (int32_t)row[i] * (int32_t)query[i];
    return sum;
}

// 128 × the sum of the query codes the vector steps read (the first count rounded down to 32).
MNEMO_AVX2_INLINE int32_t query_correction(const int8_t *query, ptrdiff_t count) {
    int32_t sum = 0;
    for (ptrdiff_t i = 0; i < (count & ~(ptrdiff_t)31); i++) sum += query[i];
    return 128 * sum;
}

// A row's codes times the query's, as eight 32-bit partial sums, over the first `count` rounded
// down to 32 (before the 128·Σq correction).
MNEMO_AVX2_INLINE __m256i row_sum(const int8_t *row, const int8_t *query, ptrdiff_t count, __m256i flip, __m256i ones) {
    __m256i s = _mm256_setzero_si256();
    ptrdiff_t i = 0;
    for (; i + 64 <= count; i += 64) s = _mm256_add_epi32(s, products64_i8(row + i, query + i, flip, ones));
    if (i + 32 <= count) s = _mm256_add_epi32(s, products32_i8(row + i, query + i, flip, ones));
    return s;
}

// A row's exact dot product with the query, given the query's correction.
MNEMO_AVX2_INLINE int32_t dot_i8(const int8_t *row, const int8_t *query, ptrdiff_t count, int32_t correction,
                                 __m256i flip, __m256i ones) {
    return horizontal_sum_i32(row_sum(row, query, count, flip, ones)) - correction
        + tail_i8(row, query, count & ~(ptrdiff_t)31, count);
}

MNEMO_AVX2
int32_t mnemo_avx2_dot_i8(const int8_t *row, const int8_t *query, ptrdiff_t count) {
    return dot_i8(row, query, count, query_correction(query, count), _mm256_set1_epi8((char)0x80), _mm256_set1_epi16(1));
}

// Both operands in -127…127: each pair of codes is widened to 16 bits and multiplied by madd into
// 32-bit sums (2 × 127² fits), 16 codes per step.
MNEMO_AVX2
int32_t mnemo_avx2_dot_i8_pair(const int8_t *a, const int8_t *b, ptrdiff_t count) {
    __m256i sum = _mm256_setzero_si256();
    ptrdiff_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m256i x = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + i)));
        __m256i y = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(b + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(x, y));
    }
    int32_t total = horizontal_sum_i32(sum);
    for (; i < count; i++) total += (int32_t)a[i] * (int32_t)b[i];
    return total;
}

// How many rows ahead a block of listed rows asks memory for a row (consecutive rows are
// prefetched by the hardware).
#define MNEMO_PREFETCH_ROWS 8

// The row of a block's `i`-th score: `rows[i]` for listed rows, else `first + i`.
MNEMO_AVX2_INLINE ptrdiff_t block_row(const int32_t *rows, ptrdiff_t first, ptrdiff_t i) {
    return rows ? rows[i] : first + i;
}

MNEMO_AVX2_INLINE void prefetch_row(const void *row, size_t size) {
    for (size_t line = 0; line < size; line += 64) _mm_prefetch((const char *)row + line, _MM_HINT_T0);
}

MNEMO_AVX2
void mnemo_avx2_scores_i8(const int8_t *codes, ptrdiff_t dimension, const int32_t *rows, ptrdiff_t first,
                          ptrdiff_t count, const int8_t *query, const float *scales, float *scores) {
    const __m256i flip = _mm256_set1_epi8((char)0x80), ones = _mm256_set1_epi16(1);
    const int32_t correction = query_correction(query, dimension);
    const ptrdiff_t whole = dimension & ~(ptrdiff_t)31;  // the codes the vector steps read
    ptrdiff_t i = 0;
    // Four rows at a time, each read whole in turn (interleaving their blocks defeated the hardware
    // prefetcher and ran far slower from memory): one transposing reduction (three hadds) then sums
    // the four rows' lanes, where one row needs a reduction of its own.
    for (; i + 4 <= count; i += 4) {
        ptrdiff_t row[4];
        const int8_t *r[4];
        for (int j = 0; j < 4; j++) {
            row[j] = block_row(rows, first, i + j);
            r[j] = codes + row[j] * dimension;
            if (rows && i + j + MNEMO_PREFETCH_ROWS < count) {
                prefetch_row(codes + block_row(rows, first, i + j + MNEMO_PREFETCH_ROWS) * dimension, (size_t)dimension);
            }
        }
        __m256i s0 = row_sum(r[0], query, dimension, flip, ones), s1 = row_sum(r[1], query, dimension, flip, ones);
        __m256i s2 = row_sum(r[2], query, dimension, flip, ones), s3 = row_sum(r[3], query, dimension, flip, ones);
        // hadd(hadd(s0, s1), hadd(s2, s3)) holds each row's sum of one 128-bit half, in order.
        __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
        __m128i sums = _mm_sub_epi32(_mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)),
                                     _mm_set1_epi32(correction));
        if (whole < dimension) {
            sums = _mm_add_epi32(sums, _mm_setr_epi32(tail_i8(r[0], query, whole, dimension), tail_i8(r[1], query, whole, dimension),
                                                      tail_i8(r[2], query, whole, dimension), tail_i8(r[3], query, whole, dimension)));
        }
        __m128 scale = _mm_setr_ps(scales[row[0]], scales[row[1]], scales[row[2]], scales[row[3]]);
        _mm_storeu_ps(scores + i, _mm_mul_ps(_mm_cvtepi32_ps(sums), scale));
    }
    for (; i < count; i++) {
        ptrdiff_t row = block_row(rows, first, i);
        scores[i] = (float)dot_i8(codes + row * dimension, query, dimension, correction, flip, ones) * scales[row];
    }
}

MNEMO_AVX2
void mnemo_avx2_scores_f32(const float *vectors, ptrdiff_t dimension, const int32_t *rows, ptrdiff_t first,
                           ptrdiff_t count, const float *query, float *scores) {
    for (ptrdiff_t i = 0; i < count; i++) {
        if (rows && i + MNEMO_PREFETCH_ROWS < count) {
            prefetch_row(vectors + block_row(rows, first, i + MNEMO_PREFETCH_ROWS) * dimension, sizeof(float) * (size_t)dimension);
        }
        scores[i] = mnemo_avx2_dot_f32(vectors + block_row(rows, first, i) * dimension, query, dimension);
    }
}

#endif
