// What the AVX-512 kernel files share: the function attributes that compile a function for
// AVX-512 (F, BW, DQ, VL, the level of Intel's servers since Skylake and of AMD's Zen 4) without
// a compiler flag. Private to this target; include only inside `#if defined(__x86_64__)`.
#ifndef MNEMO_AVX512_SUPPORT_H
#define MNEMO_AVX512_SUPPORT_H

#include <immintrin.h>

#define MNEMO_AVX512_TARGET "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"
#define MNEMO_AVX512 __attribute__((target(MNEMO_AVX512_TARGET)))
#define MNEMO_AVX512_INLINE __attribute__((target(MNEMO_AVX512_TARGET), always_inline)) static inline

#endif
