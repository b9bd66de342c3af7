// The listing of the rows that pass a filter (mnemo_list_passing): the filter columns of a
// namespace's rows tested in one loop, the passing row numbers written out. It replaces a Swift
// closure per row, and reads only the columns the filter uses.
#include "MnemoKernels.h"

// Whether `topic` is among the sorted `topics`.
static inline int topic_passes(const mnemo_row_filter *filter, int64_t topic) {
    ptrdiff_t low = 0, high = filter->topic_count;
    while (low < high) {
        ptrdiff_t middle = low + (high - low) / 2;
        if (filter->topics[middle] < topic) low = middle + 1;
        else high = middle;
    }
    return low < filter->topic_count && filter->topics[low] == topic;
}

// Whether `row` passes, without its topic (tested apart, only for rows that pass the rest).
static inline int row_passes_columns(const mnemo_row_columns *columns, const mnemo_row_filter *filter,
                                     ptrdiff_t row) {
    uint8_t flag = columns->flags[row];
    int ok = (filter->type_mask >> (flag & 0x0F)) & 1;
    ok &= (filter->importance_mask >> ((flag >> 4) & 0x03)) & 1;
    ok &= (flag & filter->activity_mask) == filter->activity_value;
    if (columns->namespace_codes) ok &= columns->namespace_codes[row] == filter->namespace_code;
    if (filter->has_time_range) {
        double time = columns->created_times[row];
        ok &= (time >= filter->time_lower) & (time < filter->time_upper);
    }
    return ok;
}

static ptrdiff_t list_portable(const mnemo_row_columns *columns, const mnemo_row_filter *filter,
                               const int32_t *rows, ptrdiff_t position, ptrdiff_t end, int32_t *out,
                               ptrdiff_t capacity, ptrdiff_t *stopped) {
    ptrdiff_t listed = 0;
    for (; position < end && listed < capacity; position++) {
        ptrdiff_t row = rows ? rows[position] : position;
        int ok = row_passes_columns(columns, filter, row);
        if (ok && filter->topics) ok = topic_passes(filter, columns->topic_ids[row]);
        // Written whatever the outcome, counted only when it passes: no branch to mispredict.
        out[listed] = (int32_t)row;
        listed += ok;
    }
    *stopped = position;
    return listed;
}

#if defined(__x86_64__)
#include "AVX512Support.h"

// Sixteen rows at a time from `first`: the flags widened to 32-bit lanes, each test a mask, the
// passing row numbers compressed into `out`.
MNEMO_AVX512 static ptrdiff_t list_avx512(const mnemo_row_columns *columns, const mnemo_row_filter *filter,
                                          ptrdiff_t position, ptrdiff_t end, int32_t *out, ptrdiff_t capacity,
                                          ptrdiff_t *stopped) {
    ptrdiff_t listed = 0;
    const __m512i types = _mm512_set1_epi32(filter->type_mask);
    const __m512i importances = _mm512_set1_epi32(filter->importance_mask);
    const __m512i activity_mask = _mm512_set1_epi32(filter->activity_mask);
    const __m512i activity_value = _mm512_set1_epi32(filter->activity_value);
    const __m512i low_nibble = _mm512_set1_epi32(0x0F);
    const __m512i two_bits = _mm512_set1_epi32(0x03);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i code = _mm512_set1_epi32(filter->namespace_code);
    const __m512d lower = _mm512_set1_pd(filter->time_lower);
    const __m512d upper = _mm512_set1_pd(filter->time_upper);
    for (; position + 16 <= end && listed + 16 <= capacity; position += 16) {
        __m512i flags = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(columns->flags + position)));
        __m512i type_bits = _mm512_srlv_epi32(types, _mm512_and_si512(flags, low_nibble));
        __m512i importance_bits =
            _mm512_srlv_epi32(importances, _mm512_and_si512(_mm512_srli_epi32(flags, 4), two_bits));
        __mmask16 passing = _mm512_test_epi32_mask(_mm512_and_si512(type_bits, importance_bits), one);
        passing &= _mm512_cmpeq_epi32_mask(_mm512_and_si512(flags, activity_mask), activity_value);
        if (columns->namespace_codes) {
            passing &= _mm512_cmpeq_epi32_mask(
                _mm512_loadu_si512((const void *)(columns->namespace_codes + position)), code);
        }
        if (filter->has_time_range && passing) {
            __m512d early = _mm512_loadu_pd(columns->created_times + position);
            __m512d late = _mm512_loadu_pd(columns->created_times + position + 8);
            __mmask8 early_passing = _mm512_cmp_pd_mask(early, lower, _CMP_GE_OQ)
                                     & _mm512_cmp_pd_mask(early, upper, _CMP_LT_OQ);
            __mmask8 late_passing =
                _mm512_cmp_pd_mask(late, lower, _CMP_GE_OQ) & _mm512_cmp_pd_mask(late, upper, _CMP_LT_OQ);
            passing &= (__mmask16)(early_passing | ((unsigned)late_passing << 8));
        }
        if (filter->topics && passing) {
            for (int lane = 0; lane < 16; lane++) {
                if ((passing >> lane) & 1 && !topic_passes(filter, columns->topic_ids[position + lane]))
                    passing &= (__mmask16)~(1u << lane);
            }
        }
        _mm512_mask_compressstoreu_epi32(out + listed, passing,
                                         _mm512_add_epi32(_mm512_set1_epi32((int32_t)position), lanes));
        listed += __builtin_popcount(passing);
    }
    // The last rows (fewer than 16), or the ones the room left does not take 16 at a time.
    ptrdiff_t tail = list_portable(columns, filter, NULL, position, end, out + listed, capacity - listed, stopped);
    return listed + tail;
}
#endif

ptrdiff_t mnemo_list_passing(const mnemo_row_columns *columns, const mnemo_row_filter *filter, const int32_t *rows,
                             ptrdiff_t start, ptrdiff_t end, int32_t *out, ptrdiff_t capacity, ptrdiff_t *stopped,
                             int use_avx512) {
#if defined(__x86_64__)
    if (use_avx512 && !rows) return list_avx512(columns, filter, start, end, out, capacity, stopped);
#else
    (void)use_avx512;
#endif
    return list_portable(columns, filter, rows, start, end, out, capacity, stopped);
}
