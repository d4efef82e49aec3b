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
// Kernel shapes, one module each (the launcher picks):
// - gk_matmul_fast (GPU): float32, float64, float16 and bfloat16 operands that are each row- or
//   column-major (one of their two strides 1). 128x128 tiles of C per block of 256 threads, each
//   thread 8x8 outputs in registers (float64: 64x64 tiles, 4x4), slices of k staged in shared
//   memory twice over so that one slice loads while the other is summed. Its module is specialised
//   by #defines: GK_MATMUL_FAST_TYPE (the storage type), GK_MATMUL_A_ALONG_K and
//   GK_MATMUL_B_ALONG_K (1 where that operand's elements are contiguous along k).
// - gk_matmul_<dtype> on a GPU, every other dtype and layout: 64x64 tiles of C per block of 256
//   threads, each thread 4x4 outputs, 16-deep slices of A and B staged in shared memory.
// - gk_matmul_<dtype> on the simulator: each simulated thread a contiguous run of C's rows, each
//   row a native loop over k whose inner loop walks a row of B (what a CPU core streams through
//   fastest).
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
    // gk_matmul_fast: whether each operand's groups of 4 contiguous elements are aligned for one
    // access (the launcher checks the address and every other stride).
    int a_vector, b_vector, c_vector;
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
    const long long col0 = (long long)blockIdx.x * GK_MATMUL_TILE;
    // Batches past gridDim.z's limit and rows past gridDim.y's loop here.
    for (long long matrix = blockIdx.z; matrix < p.batch; matrix += gridDim.z) {
        for (long long row0 = (long long)blockIdx.y * GK_MATMUL_TILE; row0 < p.m;
             row0 += (long long)gridDim.y * GK_MATMUL_TILE) {
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
                    if (row < p.m && col < p.n)
                        c[c_at + row * p.c_row + col * p.c_col] = gk_convert<S>(sums[i][j].value);
                }
        }
    }
}

// ---- GPU fast shape: register tiles, both operands read in 16-byte accesses
//
// A block computes a W x W tile of C (W = 16 * per_thread): thread (tx, ty) of its 16 x 16 holds
// per_thread x per_thread sums in registers, the rows ty*4 .. ty*4+3 of each 64-row band of the
// tile times the columns tx*4 .. tx*4+3 of each 64-column band (4x4 sub-tiles: a warp's reads of
// four consecutive values of shared memory then fall in distinct banks or are broadcasts). The k
// axis goes by slices DEPTH = 64 / per_thread deep, so that each slice of either operand is 256
// groups of 4 elements, one per thread. Shared memory holds each slice k-major for both operands
// (A transposed), so every sum of a slice reads 4 consecutive values of each; two stages, so the
// next slice comes from global memory into registers while this one is summed, with one barrier
// per slice.
#define GK_MATMUL_FAST_THREADS 256
#define GK_MATMUL_FAST_PAD 4  // floats after each shared row: the transposed stores of a warp miss each other's banks

// Sums per thread along each side: 8x8 in float (64 registers); 4x4 in double, whose 8x8 would
// fill the 128 registers that two blocks per multiprocessor leave a thread.
template <class C>
struct gk_matmul_fast_shape {
    enum { per_thread = 8 };
};
template <>
struct gk_matmul_fast_shape<double> {
    enum { per_thread = 4 };
};

// Four consecutive elements in accesses of at most 16 bytes (a float4, two double2, one 8-byte
// access of halves); `at` is aligned to min(16, 4 * sizeof(T)) bytes.
template <class T>
struct gk_matmul_quad {
    enum { width = sizeof(T) >= 4 ? 16 / sizeof(T) : 4 };
    typedef gk_vector<T, width> vector;
    __device__ static void load(const T* at, T (&v)[4]) {
        for (int h = 0; h < 4 / width; ++h) {
            const vector part = ((const vector*)at)[h];
            for (int e = 0; e < width; ++e) v[h * width + e] = part.v[e];
        }
    }
    __device__ static void store(T* at, const T (&v)[4]) {
        for (int h = 0; h < 4 / width; ++h) {
            vector part;
            for (int e = 0; e < width; ++e) part.v[e] = v[h * width + e];
            ((vector*)at)[h] = part;
        }
    }
};

// One operand's walk through its slices: the group of 4 elements this thread brings to shared
// memory each slice, 4 consecutive along k where the operand is contiguous along k (A row-major,
// B column-major), else 4 consecutive across the tile (along A's rows or B's columns). It keeps
// only what changes (strides stay in the parameters, which the GPU reads from constant memory):
// registers are what limit this kernel.
template <class S, int W, int DEPTH, bool along_k>
struct gk_matmul_fast_operand {
    long long next;   // the group's first element in the next slice
    unsigned inside;  // bit e: the group's element e lies within the operand's tile dimension (m or n)
    int w, q;         // the group's place in a shared slice: across the tile, along k

    // At matrix offset `at`, the tile starting at `tile` of `extent` rows (A) or columns (B).
    __device__ void start(long long at, long long tile, long long extent, long long stride_across, long long stride_k) {
        const int t = threadIdx.x;
        w = along_k ? t / (DEPTH / 4) : t % (W / 4) * 4;
        q = along_k ? t % (DEPTH / 4) * 4 : t / (W / 4);
        next = at + (tile + w) * stride_across + q * stride_k;
        inside = 0;
        for (int e = 0; e < 4; ++e)
            if (tile + w + (along_k ? 0 : e) < extent) inside |= 1u << e;
    }

    // The slice at depth k0 (zeros past the matrix's edges), then a step along k.
    __device__ void load(const S* x, long long k0, long long k, long long stride_across, long long stride_k, int vector,
                         S (&v)[4]) {
        const long long depth = k - k0 - q;  // of k, from the group's first element to the end
        const long long inner = along_k ? stride_k : stride_across;
        if (vector && inside == 15u && depth > (along_k ? 3 : 0)) {
            gk_matmul_quad<S>::load(x + next, v);
        } else {
            for (int e = 0; e < 4; ++e) {
                const bool within = (inside >> e & 1u) && depth > (along_k ? e : 0);
                v[e] = within ? x[next + e * inner] : S();
            }
        }
        next += DEPTH * stride_k;
    }

    // The group into a stage's slice of this operand (DEPTH rows of W + pad, k-major).
    template <class C>
    __device__ void stage(C* slice, const S (&v)[4]) const {
        enum { row = W + GK_MATMUL_FAST_PAD };
        if (along_k) {
            for (int e = 0; e < 4; ++e) slice[(q + e) * row + w] = gk_convert<C>(v[e]);
        } else {
            C c[4];
            for (int e = 0; e < 4; ++e) c[e] = gk_convert<C>(v[e]);
            gk_matmul_quad<C>::store(slice + q * row + w, c);
        }
    }
};

template <class S, bool a_along_k, bool b_along_k>
__device__ inline void gk_matmul_fast_tile(const gk_matmul_params& p) {
    typedef typename gk_matmul_compute<S>::type C;
    enum {
        TM = gk_matmul_fast_shape<C>::per_thread,
        W = 16 * TM,
        DEPTH = 64 / TM,
        ROW = W + GK_MATMUL_FAST_PAD,
        SLICE = DEPTH * ROW,  // one operand's slice
    };
    // Two stages of an A slice and a B slice (2 * 2 * SLICE elements of C, as the launch asks).
    extern __shared__ double gk_matmul_shared[];
    C* const shared = (C*)gk_matmul_shared;
    const S* a = (const S*)p.a;
    const S* b = (const S*)p.b;
    S* c = (S*)p.c;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    const long long col0 = (long long)blockIdx.x * W;
    const int slices = (int)((p.k + DEPTH - 1) / DEPTH);  // the launcher keeps k below 2^31 slices
    gk_matmul_fast_operand<S, W, DEPTH, a_along_k> a_load;
    gk_matmul_fast_operand<S, W, DEPTH, b_along_k> b_load;
    // Batches past gridDim.z's limit and row tiles past gridDim.y's loop here.
    for (long long matrix = blockIdx.z; matrix < p.batch; matrix += gridDim.z) {
        for (long long row0 = (long long)blockIdx.y * W; row0 < p.m; row0 += (long long)gridDim.y * W) {
            long long a_at, b_at, c_at;
            gk_matmul_matrix(p, matrix, &a_at, &b_at, &c_at);
            a_load.start(a_at, row0, p.m, p.a_row, p.a_col);
            b_load.start(b_at, col0, p.n, p.b_col, p.b_row);
            C sums[TM][TM];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TM; ++j) sums[i][j] = C();
            S a_next[4], b_next[4];
            a_load.load(a, 0, p.k, p.a_row, p.a_col, p.a_vector, a_next);
            b_load.load(b, 0, p.k, p.b_col, p.b_row, p.b_vector, b_next);
            a_load.stage(shared, a_next);
            b_load.stage(shared + SLICE, b_next);
            __syncthreads();
            for (int s = 0; s < slices; ++s) {
                const C* const a_slice = shared + (s & 1) * 2 * SLICE;
                const C* const b_slice = a_slice + SLICE;
                const bool more = s + 1 < slices;
                if (more) {  // issued now, waited for only at the stores below
                    const long long k0 = (long long)(s + 1) * DEPTH;
                    a_load.load(a, k0, p.k, p.a_row, p.a_col, p.a_vector, a_next);
                    b_load.load(b, k0, p.k, p.b_col, p.b_row, p.b_vector, b_next);
                }
                // This thread's 4 consecutive rows and columns at each depth, a step of ROW apart:
                // pointers that step, not indices (the index form cost registers and, fully unrolled,
                // spilled; as pointers the whole slice unrolls within 128).
                const C* a_at = a_slice + ty * 4;
                const C* b_at = b_slice + tx * 4;
#pragma unroll
                for (int q = 0; q < DEPTH; ++q, a_at += ROW, b_at += ROW) {
                    C a_values[TM], b_values[TM];
#pragma unroll
                    for (int h = 0; h < TM / 4; ++h) {
                        C part[4];
                        gk_matmul_quad<C>::load(a_at + h * 64, part);
                        for (int e = 0; e < 4; ++e) a_values[h * 4 + e] = part[e];
                        gk_matmul_quad<C>::load(b_at + h * 64, part);
                        for (int e = 0; e < 4; ++e) b_values[h * 4 + e] = part[e];
                    }
#pragma unroll
                    for (int i = 0; i < TM; ++i)
#pragma unroll
                        for (int j = 0; j < TM; ++j) sums[i][j] += a_values[i] * b_values[j];
                }
                if (more) {
                    // The other stage: its last readers passed the previous slice's barrier.
                    C* const other = shared + ((s + 1) & 1) * 2 * SLICE;
                    a_load.stage(other, a_next);
                    b_load.stage(other + SLICE, b_next);
                }
                __syncthreads();
            }
            // C's rows and columns of this thread, each 4 consecutive columns stored as one. (Its
            // offset found again: held through the sums, it took registers they needed.)
            gk_matmul_matrix(p, matrix, &a_at, &b_at, &c_at);
            for (int i = 0; i < TM; ++i) {
                const long long row = row0 + i / 4 * 64 + ty * 4 + i % 4;
                if (row >= p.m) continue;
                for (int h = 0; h < TM / 4; ++h) {
                    const long long col = col0 + h * 64 + tx * 4;
                    S out[4];
                    for (int e = 0; e < 4; ++e) out[e] = gk_convert<S>(sums[i][h * 4 + e]);
                    const long long at = c_at + row * p.c_row + col * p.c_col;
                    if (p.c_vector && col + 3 < p.n) {
                        gk_matmul_quad<S>::store(c + at, out);
                    } else {
                        for (int e = 0; e < 4; ++e)
                            if (col + e < p.n) c[at + e * p.c_col] = out[e];
                    }
                }
            }
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
// simulator), and the fast kernel. Written out, not made by a macro: gpukit reads kernel
// declarations from the source without expanding macros or deciding #if, and the simulator
// registers every kernel it reads, so every module defines them all; a fast module's dtype
// kernels and the general module's fast kernel are empty (the launcher never runs them).
template <class S>
__device__ inline void gk_matmul_absent(const gk_matmul_params&) {}
#if defined(GK_MATMUL_FAST_TYPE)
#define gk_matmul gk_matmul_absent
#elif defined(GK_SIMULATED) && !defined(GK_GPU_SHAPES)
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

// Two blocks per multiprocessor: at most 128 registers a thread.
extern "C" __global__ void __launch_bounds__(GK_MATMUL_FAST_THREADS, 2) gk_matmul_fast(const gk_matmul_params p) {
#ifdef GK_MATMUL_FAST_TYPE
    gk_matmul_fast_tile<GK_MATMUL_FAST_TYPE, GK_MATMUL_A_ALONG_K != 0, GK_MATMUL_B_ALONG_K != 0>(p);
#endif
}
