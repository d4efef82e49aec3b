// kernels/gpukit_histogram.cuh: histograms (src/ops/histogram/ compiles this text, embedded in the
// library, with NVRTC or on the simulator: the same source runs on both).
//
// What it computes.
// - gk_histogram: each element's bin, then a count (or a sum of weights) per bin. A bin is
//   GK_HIST_INTEGER: integer values in integer-width bins: (value - low) / width (bincount: the
//     value itself; histogramdd's linear bins; histogram of integers whose edges are whole numbers
//     a whole number apart, where this is exactly what comparing with the edges gives; float
//     values there by floor(value)), outside [low, low + bins * width) skipped, except value ==
//     low + bins * width with closed_last;
//   GK_HIST_EQUAL: equal-width bins over [edges[0], edges[bins]]: the bin by arithmetic; where the
//     arithmetic lands within `margin` of an edge (the host bounds how far the rounded edges and the
//     arithmetic may stray), moved by one where the value lies across an edge, so the edges alone
//     decide (numpy.histogram's rule);
//   GK_HIST_EDGES: explicit, non-decreasing edges: a binary search.
//   In both, bin k holds edges[k] <= x < edges[k + 1] and the last bin also x == edges[bins];
//   NaN and values outside the edges are skipped. Values are compared in `compare`'s type (double
//   for any float, int64 or uint64 where NumPy's common type is one), exactly as NumPy compares.
// - gk_histogram_bin_index: one dimension's bin of each element added to its linear bin
//   (histogramdd), -1 where any dimension is outside.
// With `extremes` (bincount, which must know the largest value to size its result): the largest
// value (as uint64) and whether any was negative, reduced per warp and per block, then one atomic
// per block; the host counts into a guessed number of bins and learns from these whether the guess
// held (one pass over the data where a separate minimum and maximum would take two more).
// Accumulators: counts and sums of integer weights in 64-bit integers (sums wrap as NumPy's int64
// arithmetic does), sums of float weights in double, complex weights as two doubles. With `shared`,
// each block counts in its own copy in shared memory (32-bit counts) and adds it to the result once
// at its end: contention stays inside the block, however skewed the data.
//
// Reference: numpy.bincount, numpy.histogram, numpy.histogramdd; the tests compare with NumPy.
//
// On a GPU the dtypes, mode and accumulator are compile-time constants (GK_HIST_SPECIALISED: one
// small module each, cached); on the simulator one module serves every call, reading them from the
// parameters (its compiles cost half a second each).
#pragma once

#include "gpukit_elementwise.cuh"

#define GK_HIST_INTEGER 0
#define GK_HIST_EQUAL 1
#define GK_HIST_EDGES 2

#define GK_HIST_COMPARE_DOUBLE 0
#define GK_HIST_COMPARE_INT64 1
#define GK_HIST_COMPARE_UINT64 2

#define GK_HIST_COUNT 0
#define GK_HIST_SUM_INT 1
#define GK_HIST_SUM_FLOAT 2
#define GK_HIST_SUM_COMPLEX 3

// Mirrors HistogramParams in src/ops/histogram/kernels.hpp.
struct gk_histogram_params {
    unsigned long long values;   // the elements binned
    unsigned long long weights;  // one per element, or 0: counts
    unsigned long long edges;    // bins + 1 edges in compare's type (GK_HIST_EQUAL: double)
    unsigned long long out;      // gk_histogram: the accumulators; gk_histogram_bin_index: int64 linear bins
    long long size;              // elements
    long long stride;            // between values, in elements
    long long weight_stride;     // between weights, in elements
    long long bins;
    long long bin_stride;         // gk_histogram_bin_index: this dimension's step in the linear bin
    long long low;                // GK_HIST_INTEGER: the first bin's lowest value
    long long width;              // GK_HIST_INTEGER: values per bin (>= 1)
    double first;                 // GK_HIST_EQUAL: edges[0]
    double last;                  // GK_HIST_EQUAL: edges[bins]
    double scale;                 // GK_HIST_EQUAL: bins / (edges[bins] - edges[0])
    double margin;                // GK_HIST_EQUAL: arithmetic within this of a whole bin is checked against the edges
    unsigned long long extremes;  // 0, or two uint64: the largest value, and nonzero where any was negative
    int value_dtype;              // DType numbers (GK_DTYPE_*)
    int weight_dtype;
    int mode;             // GK_HIST_INTEGER, _EQUAL, _EDGES
    int compare;          // GK_HIST_COMPARE_*
    int accumulate;       // GK_HIST_COUNT, _SUM_INT, _SUM_FLOAT, _SUM_COMPLEX
    int shared;           // count in shared memory (bins fit), then add once per block
    int vector;           // values contiguous and 16-byte aligned: loaded 16 bytes at a time (GPU shapes)
    int first_dimension;  // gk_histogram_bin_index: starts the linear bins
    int closed_last;      // GK_HIST_INTEGER: low + bins * width falls in the last bin (histogram's closed end)
};

#ifdef GK_HIST_SPECIALISED
#define gk_hist_value_dtype(p) GK_HIST_VALUE_DTYPE
#define gk_hist_weight_dtype(p) GK_HIST_WEIGHT_DTYPE
#define gk_hist_mode(p) GK_HIST_MODE
#define gk_hist_compare(p) GK_HIST_COMPARE
#define gk_hist_accumulate(p) GK_HIST_ACCUMULATE
#define gk_hist_shared(p) GK_HIST_SHARED
#define gk_hist_tracks(p) GK_HIST_TRACKS
#else
#define gk_hist_value_dtype(p) ((p).value_dtype)
#define gk_hist_weight_dtype(p) ((p).weight_dtype)
#define gk_hist_mode(p) ((p).mode)
#define gk_hist_compare(p) ((p).compare)
#define gk_hist_accumulate(p) ((p).accumulate)
#define gk_hist_shared(p) ((p).shared)
#define gk_hist_tracks(p) ((p).extremes != 0)
#endif

// ---- one element of any real dtype, as the type it is compared or summed in
__device__ inline double gk_hist_as_double(int dtype, const void* p) {
    switch (dtype) {
        case GK_DTYPE_bool_: return *(const bool*)p ? 1.0 : 0.0;
        case GK_DTYPE_int8: return *(const signed char*)p;
        case GK_DTYPE_int16: return *(const short*)p;
        case GK_DTYPE_int32: return *(const int*)p;
        case GK_DTYPE_int64: return (double)*(const long long*)p;
        case GK_DTYPE_uint8: return *(const unsigned char*)p;
        case GK_DTYPE_uint16: return *(const unsigned short*)p;
        case GK_DTYPE_uint32: return *(const unsigned int*)p;
        case GK_DTYPE_uint64: return (double)*(const unsigned long long*)p;
        case GK_DTYPE_float16: return gk_half_to_float(((const gk_float16*)p)->bits);
        case GK_DTYPE_bfloat16: return gk_bfloat16_to_float(((const gk_bfloat16*)p)->bits);
        case GK_DTYPE_float32: return *(const float*)p;
        default: return *(const double*)p;  // complex weights: their real part
    }
}
// Integers as int64 (uint64 wraps: bincount refuses values past int64 before it launches).
__device__ inline long long gk_hist_as_int64(int dtype, const void* p) {
    switch (dtype) {
        case GK_DTYPE_bool_: return *(const bool*)p ? 1 : 0;
        case GK_DTYPE_int8: return *(const signed char*)p;
        case GK_DTYPE_int16: return *(const short*)p;
        case GK_DTYPE_int32: return *(const int*)p;
        case GK_DTYPE_uint8: return *(const unsigned char*)p;
        case GK_DTYPE_uint16: return *(const unsigned short*)p;
        case GK_DTYPE_uint32: return *(const unsigned int*)p;
        default: return *(const long long*)p;  // int64, uint64
    }
}
__device__ inline bool gk_hist_is_unsigned(int dtype) {
    return dtype == GK_DTYPE_bool_ || dtype == GK_DTYPE_uint8 || dtype == GK_DTYPE_uint16 || dtype == GK_DTYPE_uint32 ||
           dtype == GK_DTYPE_uint64;
}
__device__ inline bool gk_hist_is_float(int dtype) {
    return dtype == GK_DTYPE_float16 || dtype == GK_DTYPE_bfloat16 || dtype == GK_DTYPE_float32 ||
           dtype == GK_DTYPE_float64;
}
// A float value's offset from whole-number edges a whole number apart (GK_HIST_INTEGER): floor(x) -
// low, which lies in x's bin exactly as x does; past every bin where x is outside [first, last] or
// NaN. float64 in double; the others in float, exact as the host allows this only where first and
// last are whole numbers of at most 2^24.
__device__ inline unsigned long long gk_hist_float_offset(const gk_histogram_params& p, int dtype, const void* value) {
    const unsigned long long outside = ~0ull;
    if (dtype == GK_DTYPE_float64) {
        const double x = *(const double*)value;
        if (!(x >= p.first && x <= p.last)) return outside;
        return (unsigned long long)((long long)floor(x) - p.low);
    }
    const float x = dtype == GK_DTYPE_float32   ? *(const float*)value
                    : dtype == GK_DTYPE_float16 ? gk_half_to_float(((const gk_float16*)value)->bits)
                                                : gk_bfloat16_to_float(((const gk_bfloat16*)value)->bits);
    if (!(x >= (float)p.first && x <= (float)p.last)) return outside;
    return (unsigned long long)(unsigned)((int)floorf(x) - (int)p.low);
}

// ---- the bin of one value, or -1
// The bin k with edges[k] <= x < edges[k + 1] (x == edges[bins]: the last), given
// edges[0] <= x <= edges[bins]; duplicated edges make empty bins, never a wrong one.
template <class T>
__device__ inline long long gk_hist_search(const T* edges, long long bins, T x) {
    if (x == edges[bins]) return bins - 1;
    long long low = 0, high = bins;  // edges[low] <= x < edges[high]
    while (high - low > 1) {
        const long long middle = low + (high - low) / 2;
        if (edges[middle] <= x)
            low = middle;
        else
            high = middle;
    }
    return low;
}
template <class T>
__device__ inline long long gk_hist_search_inside(const T* edges, long long bins, T x) {
    return x >= edges[0] && x <= edges[bins] ? gk_hist_search(edges, bins, x) : -1;  // NaN: outside
}

__device__ inline long long gk_hist_bin(const gk_histogram_params& p, const void* value) {
    const int dtype = gk_hist_value_dtype(p);
    switch (gk_hist_mode(p)) {
        case GK_HIST_INTEGER: {
            // Unsigned arithmetic: uint64 values past int64 (bincount refuses them afterwards) and
            // values below `low` both land past the bins.
            const unsigned long long offset = gk_hist_is_float(dtype)
                                                  ? gk_hist_float_offset(p, dtype, value)
                                                  : (unsigned long long)gk_hist_as_int64(dtype, value) - p.low;
            const unsigned long long bin = p.width == 1 ? offset : offset / p.width;
            if (bin < (unsigned long long)p.bins) return (long long)bin;
            return p.closed_last && offset == (unsigned long long)(p.bins * p.width) ? p.bins - 1 : -1;
        }
        case GK_HIST_EQUAL: {
            const double x = gk_hist_as_double(dtype, value);
            if (!(x >= p.first && x <= p.last)) return -1;
            const double position = (x - p.first) * p.scale;
            long long bin = (long long)position;
            const double fraction = position - (double)bin;
            bin = bin < 0 ? 0 : bin >= p.bins ? p.bins - 1 : bin;
            if (fraction > p.margin && fraction < 1.0 - p.margin) return bin;
            // The arithmetic may land one bin off near an edge; the edges decide.
            const double* edges = (const double*)p.edges;
            if (x < edges[bin])
                --bin;
            else if (bin != p.bins - 1 && x >= edges[bin + 1])
                ++bin;
            return bin;
        }
        default:
            switch (gk_hist_compare(p)) {
                case GK_HIST_COMPARE_INT64:
                    return gk_hist_search_inside((const long long*)p.edges, p.bins, gk_hist_as_int64(dtype, value));
                case GK_HIST_COMPARE_UINT64:
                    // Only unsigned values meet uint64 edges (NumPy's common type of a signed one is float64).
                    return gk_hist_search_inside((const unsigned long long*)p.edges, p.bins,
                                                 (unsigned long long)gk_hist_as_int64(dtype, value));
                default: return gk_hist_search_inside((const double*)p.edges, p.bins, gk_hist_as_double(dtype, value));
            }
    }
}

// ---- accumulating
// Adds element `i`'s weight (or 1) to bin `bin` of the accumulators at `to` (shared or global).
__device__ inline void gk_hist_add(const gk_histogram_params& p, void* to, bool in_shared, long long bin, long long i) {
    if (gk_hist_accumulate(p) == GK_HIST_COUNT) {
        if (in_shared)
            atomicAdd((unsigned*)to + bin, 1u);
        else
            atomicAdd((unsigned long long*)to + bin, 1ull);
        return;
    }
    const int dtype = gk_hist_weight_dtype(p);
    const char* weight = (const char*)p.weights + i * p.weight_stride * gk_dtype_itemsize(dtype);
    switch (gk_hist_accumulate(p)) {
        case GK_HIST_SUM_INT:
            atomicAdd((unsigned long long*)to + bin, (unsigned long long)gk_hist_as_int64(dtype, weight));
            break;
        case GK_HIST_SUM_FLOAT: atomicAdd((double*)to + bin, gk_hist_as_double(dtype, weight)); break;
        default: {
            const bool single = dtype == GK_DTYPE_complex64;
            atomicAdd((double*)to + 2 * bin, single ? ((const float*)weight)[0] : ((const double*)weight)[0]);
            atomicAdd((double*)to + 2 * bin + 1, single ? ((const float*)weight)[1] : ((const double*)weight)[1]);
        }
    }
}

// Bytes of one bin's accumulator in shared memory (counts: 32 bits, enough for a block's share).
__device__ inline int gk_hist_shared_bytes(const gk_histogram_params& p) {
    switch (gk_hist_accumulate(p)) {
        case GK_HIST_COUNT: return 4;
        case GK_HIST_SUM_COMPLEX: return 16;
        default: return 8;
    }
}

// What one thread saw of its values (with `extremes`).
struct gk_hist_seen {
    unsigned long long top;
    int negative;
};

__device__ inline void gk_hist_see(const gk_histogram_params& p, const void* value, gk_hist_seen& seen) {
    const int dtype = gk_hist_value_dtype(p);
    const long long v = gk_hist_as_int64(dtype, value);
    if (v < 0 && !gk_hist_is_unsigned(dtype))
        seen.negative = 1;
    else if ((unsigned long long)v > seen.top)
        seen.top = (unsigned long long)v;
}

// Counts in shared memory look only at the values outside the bins: the block's flush finds the
// largest inside as its last nonzero count (bincount's bins: low 0, width 1, a bin is its value),
// and the common case, every value inside, costs nothing per element. Weighted sums may add zero,
// and global accumulators have no flush: there every value is looked at.
__device__ inline bool gk_hist_sees_every_value(const gk_histogram_params& p) {
    return gk_hist_accumulate(p) != GK_HIST_COUNT || !gk_hist_shared(p);
}

__device__ inline void gk_hist_element(const gk_histogram_params& p, void* to, bool in_shared, const void* value,
                                       long long i, gk_hist_seen& seen) {
    const long long bin = gk_hist_bin(p, value);
    if (bin >= 0) gk_hist_add(p, to, in_shared, bin, i);
    if (gk_hist_tracks(p) && (bin < 0 || gk_hist_sees_every_value(p))) gk_hist_see(p, value, seen);
}

// The block's threads' `seen` into p.extremes: reduced across each warp (on a GPU's shapes), then
// in shared memory, then one atomic per block. Every thread of the block calls it.
__device__ inline void gk_hist_publish(const gk_histogram_params& p, gk_hist_seen seen) {
    __shared__ unsigned long long gk_hist_block_top;
    __shared__ int gk_hist_block_negative;
    if (threadIdx.x == 0) {
        gk_hist_block_top = 0;
        gk_hist_block_negative = 0;
    }
    __syncthreads();
#if !defined(GK_SIMULATED) || defined(GK_GPU_SHAPES)
    for (int lanes = 16; lanes > 0; lanes /= 2) {
        const unsigned long long other = __shfl_xor_sync(0xffffffffu, seen.top, lanes);
        seen.top = other > seen.top ? other : seen.top;
        seen.negative |= __shfl_xor_sync(0xffffffffu, seen.negative, lanes);
    }
    if (threadIdx.x % 32 == 0)
#endif
    {
        if (seen.top) atomicMax(&gk_hist_block_top, seen.top);
        if (seen.negative) atomicOr(&gk_hist_block_negative, 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned long long* extremes = (unsigned long long*)p.extremes;
        if (gk_hist_block_top) atomicMax(extremes, gk_hist_block_top);
        if (gk_hist_block_negative) atomicOr(extremes + 1, 1ull);
    }
}

#if defined(GK_HIST_NARROW) && GK_HIST_NARROW != 0
// GK_HIST_NARROW's bin of a value: (value - low) / width in 32 bits, past the bins where outside
// [low, low + bins * width) (the last edge too: the general way counts it where it belongs).
__device__ inline unsigned gk_hist_narrow_bin(const gk_histogram_params& p, const void* value) {
    const int dtype = gk_hist_value_dtype(p);
    unsigned offset;
    if (gk_hist_is_float(dtype)) {
        const float x = dtype == GK_DTYPE_float32   ? *(const float*)value
                        : dtype == GK_DTYPE_float16 ? gk_half_to_float(((const gk_float16*)value)->bits)
                                                    : gk_bfloat16_to_float(((const gk_bfloat16*)value)->bits);
        offset = x >= (float)p.first && x <= (float)p.last ? (unsigned)((int)floorf(x) - (int)p.low) : ~0u;
    } else {
        offset = (unsigned)gk_hist_as_int64(dtype, value) - (unsigned)p.low;
    }
    return GK_HIST_NARROW == 1 ? offset : offset / (unsigned)p.width;
}
#endif

// The elements of one 16-byte vector of contiguous values, the first of them element `first`.
__device__ inline void gk_hist_vector(const gk_histogram_params& p, void* to, bool in_shared, const uint4& word,
                                      long long first, gk_hist_seen& seen) {
    const int itemsize = gk_dtype_itemsize(gk_hist_value_dtype(p));
    const char* bytes = (const char*)&word;
#if defined(GK_HIST_NARROW) && GK_HIST_NARROW != 0
    // Counts in shared memory of integers of at most 32 bits whose bins lie inside their 32-bit
    // range, or of narrow floats against whole-number edges of at most 2^24: 32-bit arithmetic (an
    // integer's offset wraps only past the bins), a compare and the atomic per value; values
    // outside the bins (the last edge, bincount's values past its guess) go the general way,
    // looked at again once any of the vector's is.
    const unsigned bins = (unsigned)p.bins;
    bool outside = false;
#pragma unroll
    for (int k = 0; k < 16; k += 1) {
        if (k % itemsize == 0) {
            const unsigned bin = gk_hist_narrow_bin(p, bytes + k);
            if (bin < bins)
                atomicAdd((unsigned*)to + bin, 1u);
            else
                outside = true;
        }
    }
    if (outside) {
        for (int k = 0; k < 16; k += itemsize)
            if (gk_hist_narrow_bin(p, bytes + k) >= bins)
                gk_hist_element(p, to, in_shared, bytes + k, first + k / itemsize, seen);
    }
#else
#pragma unroll
    for (int k = 0; k < 16; k += 1) {
        if (k % itemsize == 0) gk_hist_element(p, to, in_shared, bytes + k, first + k / itemsize, seen);
    }
#endif
}

// Every element of the block's share: on a GPU 16-byte vectors of contiguous values, grid-stride
// (coalesced; two vectors in flight per thread), then the elements past the last whole vector; on
// the simulator a contiguous chunk per thread (GK_ELEMENTS), unless tests ask for the GPU's shapes
// there (GK_GPU_SHAPES). Returns what the thread saw (with `extremes`).
__device__ inline gk_hist_seen gk_hist_elements(const gk_histogram_params& p, void* to, bool in_shared) {
    const int itemsize = gk_dtype_itemsize(gk_hist_value_dtype(p));
    const char* values = (const char*)p.values;
    gk_hist_seen seen = {0, 0};
    long long done = 0;
#if !defined(GK_SIMULATED) || defined(GK_GPU_SHAPES)
    if (p.vector) {
        const uint4* vectors = (const uint4*)values;
        const int per = 16 / itemsize;
        const long long count = p.size / per, step = gk_thread_count();
        long long v = gk_thread_rank();
        for (; v + step < count; v += 2 * step) {
            const uint4 word0 = vectors[v], word1 = vectors[v + step];
            gk_hist_vector(p, to, in_shared, word0, v * per, seen);
            gk_hist_vector(p, to, in_shared, word1, (v + step) * per, seen);
        }
        if (v < count) gk_hist_vector(p, to, in_shared, vectors[v], v * per, seen);
        done = count * per;
    }
#endif
    const long long rest = p.size - done;
    GK_ELEMENTS(j, rest) {
        const long long i = done + j;
        gk_hist_element(p, to, in_shared, values + i * p.stride * itemsize, i, seen);
    }
    return seen;
}

extern "C" __global__ void gk_histogram(const gk_histogram_params p) {
    if (!gk_hist_shared(p)) {
        const gk_hist_seen seen = gk_hist_elements(p, (void*)p.out, false);
        if (gk_hist_tracks(p)) gk_hist_publish(p, seen);
        return;
    }
    extern __shared__ unsigned long long gk_hist_private[];  // the block's accumulators
    const int bytes = gk_hist_shared_bytes(p);
    const long long words = (p.bins * bytes + 7) / 8;
    for (long long w = threadIdx.x; w < words; w += blockDim.x) gk_hist_private[w] = 0;
    __syncthreads();
    gk_hist_seen seen = gk_hist_elements(p, gk_hist_private, true);
    __syncthreads();
    for (long long bin = threadIdx.x; bin < p.bins; bin += blockDim.x) {
        switch (gk_hist_accumulate(p)) {
            case GK_HIST_COUNT: {
                const unsigned count = ((const unsigned*)gk_hist_private)[bin];
                if (count) {
                    atomicAdd((unsigned long long*)p.out + bin, (unsigned long long)count);
                    if ((unsigned long long)bin > seen.top) seen.top = (unsigned long long)bin;
                }
                break;
            }
            case GK_HIST_SUM_INT: {
                const unsigned long long sum = gk_hist_private[bin];
                if (sum) atomicAdd((unsigned long long*)p.out + bin, sum);
                break;
            }
            case GK_HIST_SUM_FLOAT: {
                const double sum = ((const double*)gk_hist_private)[bin];
                if (sum != 0.0) atomicAdd((double*)p.out + bin, sum);
                break;
            }
            default:
                for (int part = 0; part < 2; ++part) {
                    const double sum = ((const double*)gk_hist_private)[2 * bin + part];
                    if (sum != 0.0) atomicAdd((double*)p.out + 2 * bin + part, sum);
                }
        }
    }
    if (gk_hist_tracks(p)) gk_hist_publish(p, seen);
}

extern "C" __global__ void gk_histogram_bin_index(const gk_histogram_params p) {
    const int itemsize = gk_dtype_itemsize(gk_hist_value_dtype(p));
    long long* index = (long long*)p.out;
    GK_ELEMENTS(i, p.size) {
        const long long bin = gk_hist_bin(p, (const char*)p.values + i * p.stride * itemsize);
        if (p.first_dimension)
            index[i] = bin < 0 ? -1 : bin * p.bin_stride;
        else if (index[i] >= 0)
            index[i] = bin < 0 ? -1 : index[i] + bin * p.bin_stride;
    }
}
