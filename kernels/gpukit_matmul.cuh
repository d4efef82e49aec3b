// kernels/gpukit_matmul.cuh: gpukit's own matrix product (src/ops/linalg/matmul.cpp compiles this
// text, embedded in the library, with NVRTC or on the simulator: the same source runs on both).
//
// What it computes: C[b] = A[b] @ B[b] for every matrix b of a batch, each operand read through
// element strides (any layout, broadcast batch dimensions as stride 0), in the result's dtype:
// products summed in float for float16 and bfloat16 (rounded once, at the store), in the dtype for
// float32, float64 and complex, in 64-bit integers for integers (equal, modulo 2^bits, to NumPy's
// wrapping sums), and as "any product true" for bool.
//
// Reference: numpy.matmul; the tests compare with NumPy.
//
// Kernel shapes (gk_matmul_<dtype>). On a GPU: 64x64 tiles of C per block of 256 threads,
// each thread 4x4 outputs, 16-deep slices of A and B staged in shared memory. On the simulator:
// each simulated thread a contiguous run of C's rows, each row a native
// loop over k whose inner loop walks a row of B (what a CPU core streams through fastest).
#pragma once

#include "gpukit_elementwise.cuh"

#define GK_MATMUL_MAX_BATCH_DIMS 8
#define GK_MATMUL_TILE 64
#define GK_MATMUL_DEPTH 16
#define GK_MATMUL_THREADS 256

// Mirrors MatmulParams in src/ops/linalg/matmul.cpp.
struct gk_matmul_params {
    unsigned long long a, b, c;
    long long m, n, k;
    long long a_row, a_col;  // element strides of A's rows and columns
    long long b_row, b_col;
    long long c_row, c_col;
    long long batch;  // matrices
    long long batch_shape[GK_MATMUL_MAX_BATCH_DIMS];
    long long a_batch[GK_MATMUL_MAX_BATCH_DIMS];  // element strides of each batch dimension (0: broadcast)
    long long b_batch[GK_MATMUL_MAX_BATCH_DIMS];
    long long c_batch[GK_MATMUL_MAX_BATCH_DIMS];
    int batch_ndim;
};

// The first element of matrix `index` of each operand.
__device__ inline void gk_matmul_matrix(const gk_matmul_params& p, long long index, long long* a, long long* b,
                                        long long* c) {
    *a = 0;
    *b = 0;
    *c = 0;
    for (int d = p.batch_ndim - 1; d >= 0; --d) {
        const long long position = index % p.batch_shape[d];
        index /= p.batch_shape[d];
        *a += position * p.a_batch[d];
        *b += position * p.b_batch[d];
        *c += position * p.c_batch[d];
    }
}

// ---- the sum of products, per dtype
template <class T>
struct gk_matmul_sum {  // float, double, complex, 64-bit integers
    T value;
    __device__ void clear() { value = T(); }
    __device__ void add(T a, T b) { value = value + a * b; }
};
template <>
struct gk_matmul_sum<bool> {  // any product true
    bool value;
    __device__ void clear() { value = false; }
    __device__ void add(bool a, bool b) { value = value || (a && b); }
};

// Storage type S computed as C: half types in float, narrow integers in 64 bits.
template <class S>
struct gk_matmul_compute {
    typedef S type;
};
template <>
struct gk_matmul_compute<gk_float16> {
    typedef float type;
};
template <>
struct gk_matmul_compute<gk_bfloat16> {
    typedef float type;
};
#define GK_MATMUL_WIDE(narrow, wide)   \
    template <>                        \
    struct gk_matmul_compute<narrow> { \
        typedef wide type;             \
    };
GK_MATMUL_WIDE(signed char, long long)
GK_MATMUL_WIDE(short, long long)
GK_MATMUL_WIDE(int, long long)
GK_MATMUL_WIDE(unsigned char, unsigned long long)
GK_MATMUL_WIDE(unsigned short, unsigned long long)
GK_MATMUL_WIDE(unsigned int, unsigned long long)
#undef GK_MATMUL_WIDE

// ---- GPU shape: shared-memory tiles
template <class S>
__device__ inline void gk_matmul_tiled(const gk_matmul_params& p) {
    typedef typename gk_matmul_compute<S>::type C;
    // The two tiles in dynamic shared memory (2 * DEPTH * TILE elements of C, as the launch asks):
    // one buffer for every dtype's kernel of the module.
    extern __shared__ double gk_matmul_shared[];
    C(*a_tile)[GK_MATMUL_TILE] = (C(*)[GK_MATMUL_TILE])gk_matmul_shared;
    C(*b_tile)[GK_MATMUL_TILE] = a_tile + GK_MATMUL_DEPTH;
    const S* a = (const S*)p.a;
    const S* b = (const S*)p.b;
    S* c = (S*)p.c;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const long long row0 = (long long)blockIdx.y * GK_MATMUL_TILE, col0 = (long long)blockIdx.x * GK_MATMUL_TILE;
    for (long long matrix = blockIdx.z; matrix < p.batch; matrix += gridDim.z) {
        long long a_at, b_at, c_at;
        gk_matmul_matrix(p, matrix, &a_at, &b_at, &c_at);
        gk_matmul_sum<C> sums[4][4];
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) sums[i][j].clear();
        for (long long k0 = 0; k0 < p.k; k0 += GK_MATMUL_DEPTH) {
            for (int e = threadIdx.x; e < GK_MATMUL_TILE * GK_MATMUL_DEPTH; e += GK_MATMUL_THREADS) {
                const int i = e / GK_MATMUL_DEPTH, q = e % GK_MATMUL_DEPTH;  // A: consecutive threads along k
                const long long row = row0 + i, depth = k0 + q;
                a_tile[q][i] =
                    row < p.m && depth < p.k ? gk_convert<C>(a[a_at + row * p.a_row + depth * p.a_col]) : C();
                const int r = e / GK_MATMUL_TILE, j = e % GK_MATMUL_TILE;  // B: consecutive threads along n
                const long long depth_b = k0 + r, col = col0 + j;
                b_tile[r][j] =
                    depth_b < p.k && col < p.n ? gk_convert<C>(b[b_at + depth_b * p.b_row + col * p.b_col]) : C();
            }
            __syncthreads();
            for (int q = 0; q < GK_MATMUL_DEPTH; ++q) {
                C a_values[4], b_values[4];
                for (int i = 0; i < 4; ++i) a_values[i] = a_tile[q][ty + 16 * i];
                for (int j = 0; j < 4; ++j) b_values[j] = b_tile[q][tx + 16 * j];
                for (int i = 0; i < 4; ++i)
                    for (int j = 0; j < 4; ++j) sums[i][j].add(a_values[i], b_values[j]);
            }
            __syncthreads();
        }
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) {
                const long long row = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
                if (row < p.m && col < p.n) c[c_at + row * p.c_row + col * p.c_col] = gk_convert<S>(sums[i][j].value);
            }
    }
}

// ---- simulator shape: rows of C, native loops
#define GK_MATMUL_ROW_BLOCK 256  // columns of C summed at once (a thread's stack holds them)

template <class S>
__device__ inline void gk_matmul_rows(const gk_matmul_params& p) {
    typedef typename gk_matmul_compute<S>::type C;
    const S* a = (const S*)p.a;
    const S* b = (const S*)p.b;
    S* c = (S*)p.c;
    gk_matmul_sum<C> sums[GK_MATMUL_ROW_BLOCK];
    GK_ELEMENTS(r, p.batch * p.m) {
        const long long matrix = r / p.m, row = r % p.m;
        long long a_at, b_at, c_at;
        gk_matmul_matrix(p, matrix, &a_at, &b_at, &c_at);
        for (long long col0 = 0; col0 < p.n; col0 += GK_MATMUL_ROW_BLOCK) {
            const int width = (int)(p.n - col0 < GK_MATMUL_ROW_BLOCK ? p.n - col0 : GK_MATMUL_ROW_BLOCK);
            for (int j = 0; j < width; ++j) sums[j].clear();
            for (long long q = 0; q < p.k; ++q) {
                const C a_value = gk_convert<C>(a[a_at + row * p.a_row + q * p.a_col]);
                const S* b_row = b + b_at + q * p.b_row + col0 * p.b_col;
                if (p.b_col == 1)
                    for (int j = 0; j < width; ++j) sums[j].add(a_value, gk_convert<C>(b_row[j]));
                else
                    for (int j = 0; j < width; ++j) sums[j].add(a_value, gk_convert<C>(b_row[j * p.b_col]));
            }
            for (int j = 0; j < width; ++j)
                c[c_at + row * p.c_row + (col0 + j) * p.c_col] = gk_convert<S>(sums[j].value);
        }
    }
}

// One kernel per dtype, in the shape this backend runs (tests may ask for the GPU's on the
// simulator). Written out, not made by a macro: gpukit reads kernel declarations from the source.
#if defined(GK_SIMULATED) && !defined(GK_GPU_SHAPES)
#define gk_matmul gk_matmul_rows
#else
#define gk_matmul gk_matmul_tiled
#endif
extern "C" __global__ void gk_matmul_bool(const gk_matmul_params p) { gk_matmul<bool>(p); }
extern "C" __global__ void gk_matmul_int8(const gk_matmul_params p) { gk_matmul<signed char>(p); }
extern "C" __global__ void gk_matmul_int16(const gk_matmul_params p) { gk_matmul<short>(p); }
extern "C" __global__ void gk_matmul_int32(const gk_matmul_params p) { gk_matmul<int>(p); }
extern "C" __global__ void gk_matmul_int64(const gk_matmul_params p) { gk_matmul<long long>(p); }
extern "C" __global__ void gk_matmul_uint8(const gk_matmul_params p) { gk_matmul<unsigned char>(p); }
extern "C" __global__ void gk_matmul_uint16(const gk_matmul_params p) { gk_matmul<unsigned short>(p); }
extern "C" __global__ void gk_matmul_uint32(const gk_matmul_params p) { gk_matmul<unsigned int>(p); }
extern "C" __global__ void gk_matmul_uint64(const gk_matmul_params p) { gk_matmul<unsigned long long>(p); }
extern "C" __global__ void gk_matmul_float16(const gk_matmul_params p) { gk_matmul<gk_float16>(p); }
extern "C" __global__ void gk_matmul_bfloat16(const gk_matmul_params p) { gk_matmul<gk_bfloat16>(p); }
extern "C" __global__ void gk_matmul_float32(const gk_matmul_params p) { gk_matmul<float>(p); }
extern "C" __global__ void gk_matmul_float64(const gk_matmul_params p) { gk_matmul<double>(p); }
extern "C" __global__ void gk_matmul_complex64(const gk_matmul_params p) { gk_matmul<gk_complex64>(p); }
extern "C" __global__ void gk_matmul_complex128(const gk_matmul_params p) { gk_matmul<gk_complex128>(p); }
#undef gk_matmul
