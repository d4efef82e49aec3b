// kernels/gpukit_gather.cu: gather and scatter through index arrays, the kernels behind a[idx],
// a[idx] = v, take, put, take_along_axis, put_along_axis and boolean masks (whose positions
// kernels/gpukit_select.cu writes first). The same text compiles with NVRTC and on the simulator.
//
// What it computes. The result has `shape` (the shape a[key] has). Its element i, at coordinates c,
// stands for one element of the indexed array:
//
//     source(i) = base + sum_d c[d] * base_strides[d] + sum_k offset_k(index_k[c])
//
// where index_k[c] is the k-th index array's value there (its strides are broadcast to the result's
// shape), made a position in [0, n_k) (negative values count from the end; out of range, the mode
// decides), and offset_k unravels that position over the axes index k selects among (one axis for
// a[idx]; all of an array's axes for take without an axis, or a mask's axes). Then
//     gk_gather:  data(i) = source(i)
//     gk_scatter: source(i) = data(i), or the immediate value when there is no data array
// with data(i) = data + sum_d c[d] * data_strides[d], or the (i mod data_period)-th element of a
// C-contiguous data array when data_period is set (put repeats its values that way).
//
// Reference: NumPy's advanced indexing and its take/put modes; tests/device/indexing_test.cpp and
// tests/python/array/test_indexing.py compare with them. The launcher is src/ops/indexing/gather.cpp.
//
// Out of range in mode raise, nothing is read or written for the element; the smallest
// (index array, element) pair that was out of range is recorded in *error (index << 56 | element),
// and the launcher raises IndexError from it. Elements move as words of their size (itemsize is a
// parameter), so one kernel serves every dtype; index arrays are read as their dtype says.
#include "gpukit_elementwise.cuh"
#include "gpukit_indexing.cuh"

#define GK_MAX_INDEX_ARRAYS 8

// How an out-of-range index is treated (IndexMode in gpukit/advanced_indexing.hpp).
enum { gk_mode_raise = 0, gk_mode_wrap = 1, gk_mode_clip = 2 };
// The dtype of an index array; gk_index_zero reads nothing and is 0 (a 0-d True or False).
enum {
    gk_index_int8,
    gk_index_int16,
    gk_index_int32,
    gk_index_int64,
    gk_index_uint8,
    gk_index_uint16,
    gk_index_uint32,
    gk_index_uint64,
    gk_index_zero
};

// Mirrors GatherParams in src/ops/indexing/gather.cpp.
struct gk_gather_params {
    unsigned long long base;
    unsigned long long data;   // gather: where results go; scatter: the values (0: the immediate)
    unsigned long long error;  // mode raise: the word that records the first bad index
    long long size;            // elements of the result
    long long data_period;     // 0, or: data is element (i mod data_period) of a C-contiguous array
    long long shape[GK_MAX_DIMS];
    long long base_strides[GK_MAX_DIMS];
    long long data_strides[GK_MAX_DIMS];
    unsigned long long index[GK_MAX_INDEX_ARRAYS];
    long long index_strides[GK_MAX_INDEX_ARRAYS][GK_MAX_DIMS];
    long long index_positions[GK_MAX_INDEX_ARRAYS];  // n_k: the product of its axes' extents
    long long axis_extent[GK_MAX_DIMS];              // the axes positions unravel over, index after index
    long long axis_stride[GK_MAX_DIMS];
    int index_axes[GK_MAX_INDEX_ARRAYS];  // how many of those axes each index array takes
    int index_dtype[GK_MAX_INDEX_ARRAYS];
    int index_mode[GK_MAX_INDEX_ARRAYS];
    int ndim;
    int nindex;
    int itemsize;
    int write;  // 0: only look for bad indices (scatter checks every index before it writes any)
    unsigned long long immediate[2];
};

// The position index value `at` selects among n, or -1 when it is out of range in mode raise.
__device__ inline long long gk_position(const char* at, int dtype, long long n, int mode) {
    long long v = 0;
    switch (dtype) {
        case gk_index_int8: v = *(const signed char*)at; break;
        case gk_index_int16: v = *(const short*)at; break;
        case gk_index_int32: v = *(const int*)at; break;
        case gk_index_int64: v = *(const long long*)at; break;
        case gk_index_uint8: v = *(const unsigned char*)at; break;
        case gk_index_uint16: v = *(const unsigned short*)at; break;
        case gk_index_uint32: v = *(const unsigned*)at; break;
        case gk_index_uint64: {
            const unsigned long long u = *(const unsigned long long*)at;
            if (u < (unsigned long long)n) return (long long)u;
            if (mode == gk_mode_wrap) return (long long)(u % (unsigned long long)n);
            return mode == gk_mode_clip ? n - 1 : -1;
        }
        default: return 0;
    }
    if (v >= 0 && v < n) return v;
    if (mode == gk_mode_wrap) {
        v %= n;
        return v < 0 ? v + n : v;
    }
    if (mode == gk_mode_clip) return v < 0 ? 0 : n - 1;  // as NumPy's clip: negative values clip to 0
    return v < 0 && v >= -n ? v + n : -1;
}

// MaxDims and MaxIndex bound the loops at compile time. <1, 1> serves the common case, one index
// array over a result of one dimension (x[idx] of a vector, take without an axis, a whole array's
// mask), as straight-line code; the general form loops over up to GK_MAX_DIMS dimensions and
// GK_MAX_INDEX_ARRAYS index arrays.
template <int MaxDims, int MaxIndex>
__device__ inline void gk_gather_scatter(const gk_gather_params& p, bool gather) {
    // Loop invariants as locals: the stores through char* below could otherwise make the compiler reload them.
    const gk_index n = (gk_index)p.size;
    const int ndim = p.ndim, nindex = p.nindex, itemsize = p.itemsize;
    const bool write = p.write != 0;
    const long long period = p.data_period;
    char* const base = (char*)p.base;
    char* const data = (char*)p.data;
    GK_ELEMENTS(i, n) {
        // Coordinates of i, innermost first, dotted with every operand's strides.
        gk_index base_offset = 0, data_offset = 0;
        gk_index index_offset[MaxIndex];
#pragma unroll
        for (int k = 0; k < MaxIndex; ++k) index_offset[k] = 0;
        gk_index rest = i;
#pragma unroll
        for (int e = 0; e < MaxDims; ++e) {
            if (e >= ndim) break;
            const int d = ndim - 1 - e;
            const gk_index c = d > 0 ? rest % (gk_index)p.shape[d] : rest;
            rest = d > 0 ? rest / (gk_index)p.shape[d] : 0;
            base_offset += c * (gk_index)p.base_strides[d];
            data_offset += c * (gk_index)p.data_strides[d];
#pragma unroll
            for (int k = 0; k < MaxIndex; ++k) {
                if (k >= nindex) break;
                index_offset[k] += c * (gk_index)p.index_strides[k][d];
            }
        }
        // Each index array's value, as a position unravelled over its axes.
        bool in_range = true;
        int first_axis = 0;
#pragma unroll
        for (int k = 0; k < MaxIndex; ++k) {
            if (k >= nindex) break;
            long long position = gk_position((const char*)p.index[k] + index_offset[k], p.index_dtype[k],
                                             p.index_positions[k], p.index_mode[k]);
            const int axes = p.index_axes[k];
            if (position < 0) {
                if (p.error)
                    atomicMin((unsigned long long*)p.error, ((unsigned long long)k << 56) | (unsigned long long)i);
                in_range = false;
            } else {
                for (int a = first_axis + axes - 1; a > first_axis; --a) {
                    base_offset += (gk_index)(position % p.axis_extent[a]) * (gk_index)p.axis_stride[a];
                    position /= p.axis_extent[a];
                }
                if (axes > 0) base_offset += (gk_index)position * (gk_index)p.axis_stride[first_axis];
            }
            first_axis += axes;
        }
        if (!in_range || !write) continue;
        if (period) data_offset = (gk_index)(i % period) * itemsize;
        if (gather) {
            gk_copy_item(data + data_offset, base + base_offset, itemsize);
        } else {
            gk_copy_item(base + base_offset, data ? data + data_offset : (const char*)p.immediate, itemsize);
        }
    }
}

__device__ inline void gk_gather_or_scatter(const gk_gather_params& p, bool gather) {
    if (p.ndim <= 1 && p.nindex == 1) return gk_gather_scatter<1, 1>(p, gather);
    gk_gather_scatter<GK_MAX_DIMS, GK_MAX_INDEX_ARRAYS>(p, gather);
}

extern "C" __global__ void gk_gather(const gk_gather_params p) { gk_gather_or_scatter(p, true); }
extern "C" __global__ void gk_scatter(const gk_gather_params p) { gk_gather_or_scatter(p, false); }
