// kernels/gpukit_select.cu: the positions of an array's nonzero elements, in C order: the kernels
// behind nonzero, argwhere, flatnonzero, compress and boolean masks (a[mask] gathers at the positions,
// a[mask] = v scatters to them; kernels/gpukit_gather.cu), and a[mask] = scalar, which needs none.
// The same text compiles with NVRTC and on the simulator.
//
// What it computes. For a source of `size` elements in C order (any shape and strides), the
// ascending list of the i whose element is nonzero, written to out as flat positions i or as the
// coordinates of i in `coordinate_shape`. Three launches (issue 14 brings a general scan):
//   gk_select_count  block b counts the nonzero elements of its chunk [b * chunk, (b + 1) * chunk)
//                    into counts[b];
//   gk_select_scan   one block turns counts[0, blocks) into exclusive offsets in place, and
//                    counts[blocks] into the total (the launcher reads it: the result's size);
//   gk_select_write  block b writes the positions of its chunk's nonzero elements from offset b on.
// In a chunk, threads take tiles of blockDim * per_thread elements, each thread per_thread
// consecutive ones, and a block-wide scan of the threads' counts orders their writes. On a GPU,
// tiles are small (coalesced loads, many per block); on the simulator one tile is the whole chunk,
// so each simulated thread streams a contiguous run.
//   gk_select_fill   target's element i = the value, wherever source's element i is nonzero.
//
// Reference: a sequential loop over i (numpy.flatnonzero, numpy.argwhere); the tests compare with
// NumPy. The launcher is src/ops/indexing/select.cpp.
#include "gpukit_elementwise.cuh"
#include "gpukit_indexing.cuh"

#define GK_MAX_COORDINATE_DIMS 32

// Mirrors SelectParams in src/ops/indexing/select.cpp.
struct gk_select_params {
    unsigned long long source;     // the array whose nonzero elements are selected
    unsigned long long target;     // gk_select_fill: the array written
    unsigned long long value;      // gk_select_fill: the value's address; 0: the immediate
    unsigned long long counts;     // blocks + 1 int64
    unsigned long long out;        // gk_select_write: the positions
    long long size;                // elements of source
    long long chunk;               // elements per block, a multiple of blockDim * per_thread
    long long per_thread;          // consecutive elements a thread takes in a tile
    long long blocks;              // of gk_select_count and gk_select_write
    long long shape[GK_MAX_DIMS];  // source's collapsed shape, its strides and (fill) target's
    long long source_strides[GK_MAX_DIMS];
    long long target_strides[GK_MAX_DIMS];
    unsigned long long significant[2];  // the bits that make a source element nonzero
    long long position_stride;          // bytes from one position to the next in out
    long long coordinate_stride;        // bytes from one coordinate of a position to the next
    long long coordinate_shape[GK_MAX_COORDINATE_DIMS];
    unsigned long long immediate[2];
    int ndim;
    int source_itemsize;
    int target_itemsize;
    int out_itemsize;     // 4 or 8 (int32 or int64 positions)
    int coordinate_ndim;  // 0: flat positions
    int unused;
};

// The byte offset of element i along `strides` of the collapsed shape.
__device__ inline gk_index gk_select_offset(const gk_select_params& p, const long long* strides, gk_index i) {
    gk_index offset = 0;
#pragma unroll
    for (int e = 0; e < GK_MAX_DIMS; ++e) {
        if (e >= p.ndim) break;
        const int d = p.ndim - 1 - e;
        const gk_index c = d > 0 ? i % (gk_index)p.shape[d] : i;
        i = d > 0 ? i / (gk_index)p.shape[d] : 0;
        offset += c * (gk_index)strides[d];
    }
    return offset;
}

__device__ inline bool gk_selected(const gk_select_params& p, gk_index i) {
    return gk_nonzero((const char*)p.source + gk_select_offset(p, p.source_strides, i), p.source_itemsize,
                      p.significant);
}

// This block's chunk of elements, [*begin, *end).
__device__ inline void gk_block_chunk(const gk_select_params& p, long long* begin, long long* end) {
    *begin = (long long)blockIdx.x * p.chunk;
    *end = *begin + p.chunk < p.size ? *begin + p.chunk : p.size;
}

extern "C" __global__ void gk_select_count(const gk_select_params p) {
    __shared__ long long warp_sums[32];
    long long begin, end;
    gk_block_chunk(p, &begin, &end);
    const long long tile = (long long)blockDim.x * p.per_thread;
    long long count = 0;
    for (long long start = begin; start < end; start += tile) {
        const long long first = start + (long long)threadIdx.x * p.per_thread;
        const long long last = first + p.per_thread < end ? first + p.per_thread : end;
        for (gk_index i = (gk_index)first; i < (gk_index)last; ++i) count += gk_selected(p, i);
    }
    long long total;
    gk_block_exclusive_scan(count, &total, warp_sums);
    if (threadIdx.x == 0) ((long long*)p.counts)[blockIdx.x] = total;
}

extern "C" __global__ void gk_select_scan(const gk_select_params p) {
    __shared__ long long warp_sums[32];
    long long* counts = (long long*)p.counts;
    long long running = 0;
    for (long long start = 0; start < p.blocks; start += blockDim.x) {
        const long long b = start + threadIdx.x;
        const long long count = b < p.blocks ? counts[b] : 0;
        long long total;
        const long long before = gk_block_exclusive_scan(count, &total, warp_sums);
        if (b < p.blocks) counts[b] = running + before;
        running += total;
    }
    if (threadIdx.x == 0) counts[p.blocks] = running;
}

__device__ inline void gk_store_position(char* at, long long value, int itemsize) {
    if (itemsize == 4) {
        *(int*)at = (int)value;
    } else {
        *(long long*)at = value;
    }
}

__device__ inline void gk_write_position(const gk_select_params& p, long long position, long long i) {
    char* at = (char*)p.out + position * p.position_stride;
    if (p.coordinate_ndim == 0) return gk_store_position(at, i, p.out_itemsize);
    for (int d = p.coordinate_ndim - 1; d >= 0; --d) {
        const long long extent = p.coordinate_shape[d];
        gk_store_position(at + d * p.coordinate_stride, i % extent, p.out_itemsize);
        i /= extent;
    }
}

extern "C" __global__ void gk_select_write(const gk_select_params p) {
    __shared__ long long warp_sums[32];
    long long begin, end;
    gk_block_chunk(p, &begin, &end);
    const long long tile = (long long)blockDim.x * p.per_thread;
    long long next = ((const long long*)p.counts)[blockIdx.x];  // this block's first position
    for (long long start = begin; start < end; start += tile) {
        const long long first = start + (long long)threadIdx.x * p.per_thread;
        const long long last = first + p.per_thread < end ? first + p.per_thread : end;
        long long mine = 0;
        for (gk_index i = (gk_index)first; i < (gk_index)last; ++i) mine += gk_selected(p, i);
        long long total;
        long long position = next + gk_block_exclusive_scan(mine, &total, warp_sums);
        for (gk_index i = (gk_index)first; i < (gk_index)last; ++i)
            if (gk_selected(p, i)) gk_write_position(p, position++, i);
        next += total;
    }
}

extern "C" __global__ void gk_select_fill(const gk_select_params p) {
    const gk_index n = (gk_index)p.size;
    const char* value = p.value ? (const char*)p.value : (const char*)p.immediate;
    GK_ELEMENTS(i, n) {
        if (!gk_selected(p, i)) continue;
        gk_copy_item((char*)p.target + gk_select_offset(p, p.target_strides, i), value, p.target_itemsize);
    }
}
