// kernels/gpukit_ufunc_methods.cuh: NumPy's ufunc methods that apply a ufunc in order
// (src/ops/ufunc_methods.cpp compiles this text with one loop's expression, with NVRTC or on the
// simulator: the same source runs on both).
//
// What it computes, for a ufunc f with the loop the host chose (its expression over in0, in1 and
// out0, computed in the loop's compute types):
// - gk_ufunc_fold: for each line of `n` contiguous elements, acc = *initial (or the line's first
//   element), then acc = f(acc, x[k]) for each next k in order, skipping elements whose mask is
//   false: ufunc.reduce (the last acc, one per line) or, with `accumulate`, ufunc.accumulate
//   (every acc). The accumulator is stored in the loop's dtype after each step, as NumPy's is.
// - gk_ufunc_reduceat: for each line and segment s, the fold of x[starts[s]:starts[s + 1]] (to the
//   line's end for the last segment); x[starts[s]] alone where that is empty or backwards.
// - gk_ufunc_at: a[offsets[j]] = f(a[offsets[j]], b[j]) (f(a[offsets[j]]) for a one-input ufunc;
//   b[0] for every j where b_step is 0),
//   for each j in order, on one thread: a repeated offset applies once per occurrence, as
//   NumPy's unbuffered ufunc.at does. gk_ufunc_atomic_at (below) updates every index at once
//   instead, where the order of the updates cannot change the result, and gk_ufunc_shared_add_at
//   adds into a block's own copy of a small a first.
// Lines run one per thread: these are the paths for ufuncs that no parallel reduction or scan of
// the array layer computes (subtract, power, arctan2, ...), whose order NumPy defines.
//
// Reference: numpy.ufunc.reduce, accumulate, reduceat and at; the tests compare with NumPy.
//
// The host defines before it: GK_UFM_A (the storage type of the array folded or updated, also the
// accumulator's), GK_UFM_B (the second operand's storage type), GK_UFM_C0, GK_UFM_C1 and
// GK_UFM_COUT (the loop's compute types), GK_UFM_NIN (1 or 2) and GK_UFM_EXPRESSION.
#pragma once

#include "gpukit_elementwise.cuh"

typedef GK_UFM_A gk_ufm_a;  // one token each: "signed char" is two
typedef GK_UFM_B gk_ufm_b;

struct gk_ufm_params {
    unsigned long long x;        // fold, reduceat: the lines (lines * n elements); at: a's first byte
    unsigned long long out;      // fold, reduceat: the results; at: b's values (count), or 0
    unsigned long long mask;     // fold: bool per element of x, or 0 (every element counts)
    unsigned long long starts;   // reduceat: int64 segment starts; at: int64 byte offsets into a
    unsigned long long initial;  // fold: one gk_ufm_a, or 0 (the line's first element)
    long long lines;             // fold, reduceat: lines; at: count of offsets
    long long n;                 // the elements of a line
    long long segments;          // reduceat: segments per line
    long long extent;            // atomic at with keys: a's extent (a is 1-d)
    long long step;              // atomic at with keys: a's stride in bytes
    long long b_step;            // at: 1 (a value of b per update) or 0 (one value for all)
    unsigned long long error;    // atomic at with keys: the first out-of-range update's position
    long long window;            // shared add.at: the elements of a each block adds into its own copy of
    int accumulate;              // fold: write every step
};

__device__ inline gk_ufm_a gk_ufm_apply(gk_ufm_a a, gk_ufm_b b) {
    const gk_index i = 0;  // expressions may read the element's index; these have none of their own
    (void)i;
    const GK_UFM_C0 in0 = gk_convert<GK_UFM_C0>(a);
#if GK_UFM_NIN == 2
    const GK_UFM_C1 in1 = gk_convert<GK_UFM_C1>(b);
#else
    (void)b;
#endif
    GK_UFM_COUT out0;
    GK_UFM_EXPRESSION;
    return gk_convert<gk_ufm_a>(out0);
}

extern "C" __global__ void gk_ufunc_fold(gk_ufm_params p) {
    const gk_ufm_a* x = reinterpret_cast<const gk_ufm_a*>(p.x);
    gk_ufm_a* out = reinterpret_cast<gk_ufm_a*>(p.out);
    const bool* mask = reinterpret_cast<const bool*>(p.mask);
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long line = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; line < p.lines;
         line += stride) {
        const gk_ufm_a* row = x + line * p.n;
        const bool* row_mask = mask ? mask + line * p.n : nullptr;
        gk_ufm_a acc;
        long long k = 0;
        if (p.initial) {
            acc = *reinterpret_cast<const gk_ufm_a*>(p.initial);
        } else if (p.n > 0) {
            acc = row[0];
            k = 1;
            if (p.accumulate) out[line * p.n] = acc;
        }
        for (; k < p.n; ++k) {
            if (!row_mask || row_mask[k]) acc = gk_ufm_apply(acc, row[k]);
            if (p.accumulate) out[line * p.n + k] = acc;
        }
        if (!p.accumulate) out[line] = acc;
    }
}

extern "C" __global__ void gk_ufunc_reduceat(gk_ufm_params p) {
    const gk_ufm_a* x = reinterpret_cast<const gk_ufm_a*>(p.x);
    gk_ufm_a* out = reinterpret_cast<gk_ufm_a*>(p.out);
    const long long* starts = reinterpret_cast<const long long*>(p.starts);
    const long long total = p.lines * p.segments;
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long item = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; item < total; item += stride) {
        const long long line = item / p.segments;
        const long long segment = item % p.segments;
        const long long start = starts[segment];
        const long long stop = segment + 1 < p.segments ? starts[segment + 1] : p.n;
        const gk_ufm_a* row = x + line * p.n;
        gk_ufm_a acc = row[start];
        for (long long k = start + 1; k < stop; ++k) acc = gk_ufm_apply(acc, row[k]);
        out[item] = acc;
    }
}

// The element update j applies to: a's byte offset starts[j] or, with GK_UFM_KEY (the keys' storage
// type), a's element starts[j] of a 1-d a, a negative key counting from the end. An update whose key
// is out of range names a null element and records its position (the lowest, for the host's error).
#if defined(GK_UFM_KEY)
typedef GK_UFM_KEY gk_ufm_key;
// Update j's element index in [0, extent), or -1 (its position recorded) where the key is out of range.
__device__ inline long long gk_ufm_key_index(const gk_ufm_params& p, long long j) {
    const gk_ufm_key raw = reinterpret_cast<const gk_ufm_key*>(p.starts)[j];
    const bool is_signed = static_cast<gk_ufm_key>(-1) < static_cast<gk_ufm_key>(0);
    long long key = static_cast<long long>(raw);
    if (!is_signed && static_cast<unsigned long long>(raw) > 0x7fffffffffffffffULL) key = -1 - p.extent;
    if (key < 0) key += p.extent;
    if (key < 0 || key >= p.extent) {
        atomicMin(reinterpret_cast<unsigned long long*>(p.error), static_cast<unsigned long long>(j));
        return -1;
    }
    return key;
}
__device__ inline gk_ufm_a* gk_ufm_element(const gk_ufm_params& p, long long j) {
    const long long key = gk_ufm_key_index(p, j);
    return key < 0 ? nullptr : reinterpret_cast<gk_ufm_a*>(reinterpret_cast<char*>(p.x) + key * p.step);
}
#else
__device__ inline gk_ufm_a* gk_ufm_element(const gk_ufm_params& p, long long j) {
    return reinterpret_cast<gk_ufm_a*>(reinterpret_cast<char*>(p.x) + reinterpret_cast<const long long*>(p.starts)[j]);
}
#endif

extern "C" __global__ void gk_ufunc_at(gk_ufm_params p) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    const gk_ufm_b* b = reinterpret_cast<const gk_ufm_b*>(p.out);
    for (long long j = 0; j < p.lines; ++j) {
        gk_ufm_a* element = gk_ufm_element(p, j);
        if (!element) return;  // a key out of range: the host raises IndexError
        *element = gk_ufm_apply(*element, b ? b[j * p.b_step] : gk_ufm_b());
    }
}

// gk_ufunc_atomic_at: ufunc.at with every index at once, where the order of the updates cannot
// change the result (b is of a's dtype). The host picks the update by a define; the body is compiled
// only then, and the declaration stays, as the simulator reads kernels from the text without its
// preprocessor.
// - GK_UFM_ATOMIC_ADD: add.at by the hardware's atomic addition (32- and 64-bit integers, float32,
//   float64): integers give NumPy's result exactly (wrapping addition commutes), floats the same sum
//   added in another order.
// - GK_UFM_CAS: the loop's own expression in a compare-and-swap loop (maximum, minimum, fmax, fmin,
//   the bitwise ones, integer add and multiply, on 4- and 8-byte dtypes): NumPy's result exactly.
#if defined(GK_UFM_ATOMIC_ADD)
__device__ inline void gk_ufm_update(float* p, float v) { atomicAdd(p, v); }
__device__ inline void gk_ufm_update(double* p, double v) { atomicAdd(p, v); }
template <class T>
__device__ inline void gk_ufm_update(T* p, T v) {
    if (sizeof(T) == 4)
        atomicAdd(reinterpret_cast<unsigned int*>(p), static_cast<unsigned int>(v));
    else
        atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
#elif defined(GK_UFM_CAS)
template <class Word>
__device__ inline void gk_ufm_cas_apply(gk_ufm_a* element, gk_ufm_b value) {
    Word* word = reinterpret_cast<Word*>(element);
    Word seen = *reinterpret_cast<volatile Word*>(word);
    for (;;) {
        const gk_ufm_a next = gk_ufm_apply(*reinterpret_cast<const gk_ufm_a*>(&seen), value);
        const Word wanted = *reinterpret_cast<const Word*>(&next);
        if (wanted == seen) return;  // the same bits (a nan kept too): nothing to write
        const Word before = atomicCAS(word, seen, wanted);
        if (before == seen) return;
        seen = before;
    }
}
__device__ inline void gk_ufm_update(gk_ufm_a* element, gk_ufm_b value) {
    if (sizeof(gk_ufm_a) == 4)
        gk_ufm_cas_apply<unsigned int>(element, value);
    else
        gk_ufm_cas_apply<unsigned long long>(element, value);
}
#endif

extern "C" __global__ void gk_ufunc_atomic_at(gk_ufm_params p) {
#if defined(GK_UFM_ATOMIC_ADD) || defined(GK_UFM_CAS)
    const gk_ufm_b* b = reinterpret_cast<const gk_ufm_b*>(p.out);
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; j < p.lines; j += stride) {
        gk_ufm_a* element = gk_ufm_element(p, j);
        if (element) gk_ufm_update(element, b[j * p.b_step]);
    }
#else
    (void)p;
#endif
}

// gk_ufunc_shared_add_at: add.at with keys into a small 1-d a (its `window` elements fit in a block's
// shared memory, window == extent): each block adds its share of the updates into its own copy, by
// shared-memory atomics, then adds that copy into a once. Many updates into few elements no longer
// queue on the same L2 lines; the host picks it where the updates far outnumber the blocks' copies.
// The copy starts at the additive identity (-0.0 for floats: -0.0 + x is x, for x = -0.0 too) and
// only elements that changed are added to a, so an element no update names keeps its bits.
extern "C" __global__ void gk_ufunc_shared_add_at(gk_ufm_params p) {
#if defined(GK_UFM_ATOMIC_ADD) && defined(GK_UFM_KEY)
    extern __shared__ unsigned long long gk_ufm_window_words[];
    gk_ufm_a* window = reinterpret_cast<gk_ufm_a*>(gk_ufm_window_words);
    const gk_ufm_a identity = static_cast<gk_ufm_a>(-0.0);  // integers: 0
    for (long long w = threadIdx.x; w < p.window; w += blockDim.x) window[w] = identity;
    __syncthreads();
    const gk_ufm_b* b = reinterpret_cast<const gk_ufm_b*>(p.out);
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long j = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; j < p.lines; j += stride) {
        const long long key = gk_ufm_key_index(p, j);
        if (key >= 0) gk_ufm_update(window + key, b[j * p.b_step]);
    }
    __syncthreads();
    for (long long w = threadIdx.x; w < p.window; w += blockDim.x) {
        const gk_ufm_a sum = window[w];
        bool same = true;  // bit for bit the identity: this block added nothing there
        for (unsigned k = 0; k < sizeof(gk_ufm_a); ++k)
            same = same && reinterpret_cast<const unsigned char*>(&sum)[k] ==
                               reinterpret_cast<const unsigned char*>(&identity)[k];
        if (!same) gk_ufm_update(reinterpret_cast<gk_ufm_a*>(reinterpret_cast<char*>(p.x) + w * p.step), sum);
    }
#else
    (void)p;
#endif
}
