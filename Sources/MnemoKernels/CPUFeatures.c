// Run-time detection of the instruction sets the kernels are compiled for.
#include "MnemoKernels.h"

int mnemo_cpu_supports_avx2_fma(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // __builtin_cpu_supports also checks that the operating system saves the YMM registers.
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return 0;
#endif
}

int mnemo_cpu_supports_avx512(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    // As above, this also checks that the operating system saves the ZMM registers.
    __builtin_cpu_init();
    return mnemo_cpu_supports_avx2_fma() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

int mnemo_cpu_supports_avx512_vnni(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return mnemo_cpu_supports_avx512() && __builtin_cpu_supports("avx512vnni");
#else
    return 0;
#endif
}
