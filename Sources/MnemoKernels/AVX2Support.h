// What the AVX2 kernel files share: the function attributes that compile a function for AVX2 + FMA
// without a compiler flag, and the horizontal sum of a float vector. Private to this target (the
// public header is include/MnemoKernels.h); include only inside `#if defined(__x86_64__)`.
#ifndef MNEMO_AVX2_SUPPORT_H
#define MNEMO_AVX2_SUPPORT_H

#include <immintrin.h>

#define MNEMO_AVX2 __attribute__((target("avx2,fma")))
#define MNEMO_AVX2_INLINE __attribute__((target("avx2,fma"), always_inline)) static inline

MNEMO_AVX2_INLINE float horizontal_sum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

#endif
