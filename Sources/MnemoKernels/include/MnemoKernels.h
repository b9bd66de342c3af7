// MnemoKernels: the few hot loops of Mnemo written in C so that they can be compiled for an
// instruction set the build does not target, and chosen at run time.
//
// A Swift package cannot choose its users' `-target-cpu`: on x86-64 the default build targets
// the SSE2 baseline, and the plain-Swift SIMD kernels (the reference, and the path on every other
// CPU) then run on 128-bit vectors without fused multiply-add. The functions here are compiled
// with `__attribute__((target("avx2,fma")))` instead of a compiler flag, so the package needs no
// unsafe flags, and Swift calls them only after `mnemo_cpu_supports_avx2_fma()` said yes.
//
// The encoder's matrix product also exists compiled for AVX-512 (`target("avx512f,…")`), chosen
// when `mnemo_cpu_supports_avx512()` says yes; the scan keeps its AVX2 kernels there (an int8
// scan with AVX-512 VNNI measured no faster: memory bounds it, not arithmetic).
//
// Apart from the worker team (mnemo_team_*, every platform), nothing here allocates, locks or
// keeps state; every function is a pure loop over the caller's memory. On other architectures
// only the CPU queries and the team are declared, and the queries answer 0.
#ifndef MNEMO_KERNELS_H
#define MNEMO_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Asks memory for the `size` bytes at `address` (every 64-byte line), into every cache level,
/// ahead of their use: the graph index's walk asks for the codes of the nodes it is about to
/// score while it still looks for more. No effect on the result; a hint compiled on every
/// architecture.
static inline void mnemo_prefetch(const void *address, ptrdiff_t size) {
    for (ptrdiff_t line = 0; line < size; line += 64) __builtin_prefetch((const char *)address + line, 0, 3);
}

/// 1 when this CPU (and operating system) can run the AVX2 + FMA kernels, else 0.
int mnemo_cpu_supports_avx2_fma(void);

/// 1 when this CPU (and operating system) can run the AVX-512 kernels (AVX-512 F, BW, DQ and VL,
/// as well as AVX2 and FMA), else 0.
int mnemo_cpu_supports_avx512(void);

/// Whether the CPU runs AVX-512 VNNI (vpdpbusd) besides the AVX-512 of mnemo_cpu_supports_avx512.
int mnemo_cpu_supports_avx512_vnni(void);

/// A team of helper threads for one caller's parallel loops: the encoder's forward pass runs
/// about thirty of them per text, each tens of microseconds long, and waking a sleeping thread
/// for each (as `DispatchQueue.concurrentPerform` does) costs about as much as the loop in a
/// virtual machine. After a loop the helpers poll for the next one for 0.1 ms, then sleep.
typedef struct mnemo_team mnemo_team;

/// A team of `helpers` threads (at least 1); NULL when they cannot be started.
mnemo_team *mnemo_team_create(ptrdiff_t helpers);

/// Stops and joins the helpers and frees the team; no loop may be running.
void mnemo_team_destroy(mnemo_team *team);

/// 1 when the caller now holds the team (no one else did), else 0. Only a holder may call
/// mnemo_team_run, and the holder lets go with mnemo_team_release.
int mnemo_team_claim(mnemo_team *team);

/// Lets go of a team held through mnemo_team_claim.
void mnemo_team_release(mnemo_team *team);

/// Calls `body(context, i)` once for every `i` in `[0, iterations)`, on the calling thread and
/// the helpers (each iteration on whichever thread claims it first, so a helper that is late costs
/// nothing), and returns when all have returned; whatever they wrote is then visible to the caller.
void mnemo_team_run(mnemo_team *team, ptrdiff_t iterations, void (*body)(void *context, ptrdiff_t iteration),
                    void *context);

/// A filter of the vector index's rows (`VectorFilter` in Swift), for mnemo_list_passing.
typedef struct mnemo_row_filter {
    /// Tested only when the columns give namespace codes.
    int32_t namespace_code;
    /// Bit n set when the type with index n (the flag's low nibble) passes.
    uint16_t type_mask;
    /// Bit r set when the importance of rank r (the flag's bits 4-5) passes.
    uint8_t importance_mask;
    /// A row passes when `flag & activity_mask == activity_value` (0x80 and 0x80: active only;
    /// 0x80 and 0: inactive only; 0 and 0: both).
    uint8_t activity_mask;
    uint8_t activity_value;
    /// Nonzero when the statement time must be in [time_lower, time_upper).
    int32_t has_time_range;
    double time_lower;
    double time_upper;
    /// The topics that pass, in ascending order, or NULL for every topic.
    const int64_t *topics;
    ptrdiff_t topic_count;
} mnemo_row_filter;

/// The filter columns of the vector index's rows, indexed by row.
typedef struct mnemo_row_columns {
    /// NULL when the namespace is not tested (the rows given are all the namespace's).
    const int32_t *namespace_codes;
    const uint8_t *flags;
    /// Read only when the filter names topics.
    const int64_t *topic_ids;
    /// Read only when the filter has a time range.
    const double *created_times;
} mnemo_row_columns;

/// Lists the rows that pass `filter`: the rows `rows[start..<end]`, or the row numbers
/// `start..<end` when `rows` is NULL, each tested on the columns the filter uses; the passing
/// ones are written to `out` in order, at most `capacity` of them. Returns how many were
/// written and sets `*stopped` to the position it stopped at (`end` when every row was
/// tested), from which a second call with more room goes on. With `use_avx512` (only where
/// mnemo_cpu_supports_avx512() said yes) row numbers are tested 16 at a time; listed rows always
/// one at a time. The same rows either way.
ptrdiff_t mnemo_list_passing(const mnemo_row_columns *columns, const mnemo_row_filter *filter, const int32_t *rows,
                             ptrdiff_t start, ptrdiff_t end, int32_t *out, ptrdiff_t capacity, ptrdiff_t *stopped,
                             int use_avx512);

#if defined(__x86_64__)

/// The matrix product of the encoder's linear layers over packed weight panels (see
/// `PackedLinear` in MnemoEncoder): for every panel `p` in `[0, panel_count)` and every row `r` in
/// `[0, rows)`, the 16 floats `c[r·ldc + 16p …]` become (or, with `accumulate`, gain)
/// `Σ_k a[r·lda + k] · panels[p·panel_stride + 16k …]` for `k` in `[0, depth)`.
///
/// `rows` may be any number. Each output is one chain of fused multiply-adds in the order
/// k = 0, 1, 2…, whatever its row's place in the tile, so a row's result does not depend on the
/// other rows of the batch.
void mnemo_avx2_sgemm_panels(const float *a, ptrdiff_t lda, ptrdiff_t rows,
                             const float *panels, ptrdiff_t panel_stride, ptrdiff_t panel_count,
                             ptrdiff_t depth, float *c, ptrdiff_t ldc, int accumulate);

/// `mnemo_avx2_sgemm_panels` on AVX-512: the same contract and the same chains of fused
/// multiply-adds in the same order, so the same floats, 16 columns to a register.
void mnemo_avx512_sgemm_panels(const float *a, ptrdiff_t lda, ptrdiff_t rows,
                               const float *panels, ptrdiff_t panel_stride, ptrdiff_t panel_count,
                               ptrdiff_t depth, float *c, ptrdiff_t ldc, int accumulate);

/// What follows a block of the linear layer's outputs on the AVX-512 path: for `r` in `[0, rows)`
/// and `j` in `[0, columns)` (a multiple of 16), `x = c[r·ldc + j] + bias[j]`, plus
/// `residual[r·residual_stride + j]` when `residual` is not NULL, else through the exact GELU
/// `x·(1 + erf(x/√2))/2` when `gelu` is non-zero (erf as TransformerMath's, within 4e-7).
void mnemo_avx512_finish_rows(float *c, ptrdiff_t ldc, ptrdiff_t rows, ptrdiff_t columns, const float *bias,
                              int gelu, const float *residual, ptrdiff_t residual_stride);

/// The dot product of two float vectors of `count` components.
float mnemo_avx2_dot_f32(const float *a, const float *b, ptrdiff_t count);

/// The exact dot product of an int8 row of `count` codes in -127…127 with int8 query codes in
/// -31…31 (the query is quantized more coarsely than the rows: the kernels add two pairs of
/// products in 16 bits, each pair at most 2 × 255 × 31).
int32_t mnemo_avx2_dot_i8(const int8_t *row, const int8_t *query, ptrdiff_t count);

/// The exact dot product of two int8 vectors of `count` codes each in -127…127 (the graph index
/// compares its nodes' codes with each other; `mnemo_avx2_dot_i8` needs a coarser query).
int32_t mnemo_avx2_dot_i8_pair(const int8_t *a, const int8_t *b, ptrdiff_t count);

/// `mnemo_avx2_dot_i8_pair` on AVX-512 VNNI: the same integer, 64 codes per instruction.
int32_t mnemo_avx512_vnni_dot_i8_pair(const int8_t *a, const int8_t *b, ptrdiff_t count);

/// The scores of a block of rows of an int8 matrix with `dimension` codes per row: for `i` in
/// `[0, count)`, `scores[i] = dot(codes + row·dimension, query) · scales[row]`, where `row` is
/// `rows[i]` when `rows` is not NULL, else `first + i`. Codes are as for `mnemo_avx2_dot_i8`;
/// the integer dot products are exact.
///
/// One call scores a whole block, so the scan pays one call (not one per row) and the rows
/// stream through the cache in order; rows are scored four at a time, and listed rows are
/// prefetched a few ahead.
void mnemo_avx2_scores_i8(const int8_t *codes, ptrdiff_t dimension, const int32_t *rows, ptrdiff_t first,
                          ptrdiff_t count, const int8_t *query, const float *scales, float *scores);

/// `mnemo_avx2_scores_i8` on AVX-512 VNNI: the same integers (exact), 64 codes per instruction
/// and no scalar tail (the codes after the last whole 64 are read with a masked load).
void mnemo_avx512_vnni_scores_i8(const int8_t *codes, ptrdiff_t dimension, const int32_t *rows, ptrdiff_t first,
                                 ptrdiff_t count, const int8_t *query, const float *scales, float *scores);

/// The scores of a block of rows of a float matrix: `scores[i] = dot(vectors + row·dimension,
/// query)`, rows chosen as in `mnemo_avx2_scores_i8`.
void mnemo_avx2_scores_f32(const float *vectors, ptrdiff_t dimension, const int32_t *rows, ptrdiff_t first,
                           ptrdiff_t count, const float *query, float *scores);

/// Self-attention of one head over one sequence of `length` tokens: for each token `i`,
/// `context[i·context_stride + c]` for `c` in `[0, head_size)` becomes `Σ_j w_ij · values[j·stride + c]`,
/// where `w_i` is the softmax over `j` of `scale · Σ_c queries[i·stride + c] · keys[j·stride + c]`.
///
/// `scratch` holds `(head_size + 1) · padded` floats, `padded` being `length` rounded up to 8: the
/// keys transposed, then one row of scores. The exponential is a polynomial with a relative error
/// below 8e-8, not libm's; weights below e^-87 of the largest are 0.
void mnemo_avx2_attention_head(const float *queries, const float *keys, const float *values, ptrdiff_t stride,
                               ptrdiff_t length, ptrdiff_t head_size, float scale, float *context,
                               ptrdiff_t context_stride, float *scratch);

/// `mnemo_avx2_attention_head` on AVX-512, 16 keys to a register and four queries at a time:
/// `scratch` holds `(head_size + 4) · padded` floats, `padded` being `length` rounded up to 16 (the
/// keys transposed, then four rows of scores).
void mnemo_avx512_attention_head(const float *queries, const float *keys, const float *values, ptrdiff_t stride,
                                 ptrdiff_t length, ptrdiff_t head_size, float scale, float *context,
                                 ptrdiff_t context_stride, float *scratch);

#endif

#ifdef __cplusplus
}
#endif

#endif
