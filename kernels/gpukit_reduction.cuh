// kernels/gpukit_reduction.cuh: what every generated reduction kernel includes
// (src/ops/reduction/generator.cpp writes the kernels; embedded in the library like
// gpukit_elementwise.cuh, so NVRTC and the simulator compile the same text).
//
// A reduction is an operation struct (generated per loop) with CuPy's four parts:
//   acc_t identity();                         the value of no elements
//   acc_t map_at(base, offset, j);            an element: input k's at base[k] + offset(k); j its
//                                             index among the reduced ones, in C order
//   acc_t reduce(acc_t a, acc_t b);           two partial results, a's elements before b's
//   out_t post(acc_t a, long long n, double argument)   the result of n elements
// and `inputs`, its number of input arrays (broadcast together; a reduction of one input also has
// map_value(x, j), for 16-byte loads).
// and four kernel shapes (ReductionClass in src/ops/reduction/plan.hpp), each finishing without a
// second launch: the last block to arrive (a __threadfence, then an atomic count) combines the
// other blocks' partials in block order, so that a result is the same on every run.
#pragma once

#include "gpukit_elementwise.cuh"

// The simulator's shapes (each simulated thread a contiguous chunk of elements or whole results),
// unless the GPU's are asked for (GK_GPU_SHAPES: tests run the GPU's kernels on the simulator).
#if defined(GK_SIMULATED) && !defined(GK_GPU_SHAPES)
#define GK_CHUNKED_SHAPES
#endif

// The launcher's description (src/ops/reduction/reduce.cpp fills the same struct): the input and
// result addresses, scratch for partials and counters, and the merged kept and reduced dimensions.
// N: the operation's inputs, rounded up to a power of two (1, 2, 4 or 8).
template <int N>
struct gk_reduce_params {
    unsigned long long output, scratch;
    unsigned long long input[N];
    long long kept_shape[GK_MAX_DIMS], kept_output[GK_MAX_DIMS], reduced_shape[GK_MAX_DIMS];
    long long kept_input[N][GK_MAX_DIMS], reduced_input[N][GK_MAX_DIMS];
    long long kept_size, reduced_size;
    double argument;  // post's parameter: var's ddof, a p-norm's p
    int kept_ndim, reduced_ndim;
    int splits;       // blocks that share one group of results, each a range of the reduced elements
    int row_threads;  // rows: threads per row (32: a warp; blockDim.x: the block)
};

// ---- helpers of the reductions' expressions (src/ops/reductions.def)

// Sums and products: integers wrap modulo 2^bits as NumPy's (C's signed overflow is undefined).
template <class T>
__device__ inline T gk_sum(T a, T b) {
    return a + b;
}
template <class T>
__device__ inline T gk_product(T a, T b) {
    return a * b;
}
#define GK_WRAPPING_REDUCTIONS(T)                 \
    template <>                                   \
    __device__ inline T gk_sum<T>(T a, T b) {     \
        return gk_wrap_add(a, b);                 \
    }                                             \
    template <>                                   \
    __device__ inline T gk_product<T>(T a, T b) { \
        return gk_wrap_multiply(a, b);            \
    }
GK_WRAPPING_REDUCTIONS(long long)
GK_WRAPPING_REDUCTIONS(unsigned long long)
GK_WRAPPING_REDUCTIONS(int)
GK_WRAPPING_REDUCTIONS(unsigned int)
GK_WRAPPING_REDUCTIONS(short)
GK_WRAPPING_REDUCTIONS(unsigned short)
GK_WRAPPING_REDUCTIONS(signed char)
GK_WRAPPING_REDUCTIONS(unsigned char)
#undef GK_WRAPPING_REDUCTIONS

// The identities of max and min: the lowest and highest value of a type (-inf and inf for
// floating point; complex values order by real, then imaginary part).
template <class T>
struct gk_bounds {
    __device__ static T lowest() {
        return (T)0 < (T)-1 ? (T)0 : (T)((typename gk_unsigned<T>::type)1 << (sizeof(T) * 8 - 1));
    }
    __device__ static T highest() { return (T)~lowest(); }
};
template <>
struct gk_bounds<bool> {
    __device__ static bool lowest() { return false; }
    __device__ static bool highest() { return true; }
};
template <>
struct gk_bounds<float> {
    __device__ static float lowest() { return -gk_limits<float>::infinity(); }
    __device__ static float highest() { return gk_limits<float>::infinity(); }
};
template <>
struct gk_bounds<double> {
    __device__ static double lowest() { return -gk_limits<double>::infinity(); }
    __device__ static double highest() { return gk_limits<double>::infinity(); }
};
template <class T>
struct gk_bounds<gk_complex<T> > {
    __device__ static gk_complex<T> lowest() { return {gk_bounds<T>::lowest(), gk_bounds<T>::lowest()}; }
    __device__ static gk_complex<T> highest() { return {gk_bounds<T>::highest(), gk_bounds<T>::highest()}; }
};
template <class T>
__device__ inline T gk_lowest() {
    return gk_bounds<T>::lowest();
}
template <class T>
__device__ inline T gk_highest() {
    return gk_bounds<T>::highest();
}

// A mean: the sum over the count (NaN for none, as NumPy's 0/0).
template <class T>
__device__ inline T gk_divide_by_count(T sum, long long n) {
    return sum / (T)n;
}
template <class T>
__device__ inline gk_complex<T> gk_divide_by_count(gk_complex<T> sum, long long n) {
    return {sum.re / (T)n, sum.im / (T)n};
}

// Differences (ptp): integers wrap as NumPy's.
template <class T>
__device__ inline T gk_difference(T a, T b) {
    return a - b;
}
#define GK_WRAPPING_DIFFERENCE(T)                    \
    template <>                                      \
    __device__ inline T gk_difference<T>(T a, T b) { \
        return gk_wrap_subtract(a, b);               \
    }
GK_WRAPPING_DIFFERENCE(long long)
GK_WRAPPING_DIFFERENCE(unsigned long long)
GK_WRAPPING_DIFFERENCE(int)
GK_WRAPPING_DIFFERENCE(unsigned int)
GK_WRAPPING_DIFFERENCE(short)
GK_WRAPPING_DIFFERENCE(unsigned short)
GK_WRAPPING_DIFFERENCE(signed char)
GK_WRAPPING_DIFFERENCE(unsigned char)
#undef GK_WRAPPING_DIFFERENCE

// The identity of nanmax and nanmin: a nan where the type has one (an all-nan slice stays nan,
// as NumPy's), else the type's lowest or highest value.
template <class T>
struct gk_nan_bounds {
    __device__ static T lowest() { return gk_bounds<T>::lowest(); }
    __device__ static T highest() { return gk_bounds<T>::highest(); }
};
template <>
struct gk_nan_bounds<float> {
    __device__ static float lowest() { return gk_limits<float>::nan(); }
    __device__ static float highest() { return gk_limits<float>::nan(); }
};
template <>
struct gk_nan_bounds<double> {
    __device__ static double lowest() { return gk_limits<double>::nan(); }
    __device__ static double highest() { return gk_limits<double>::nan(); }
};
template <class T>
struct gk_nan_bounds<gk_complex<T> > {
    __device__ static gk_complex<T> lowest() { return {gk_limits<T>::nan(), gk_limits<T>::nan()}; }
    __device__ static gk_complex<T> highest() { return lowest(); }
};

// The square of |x| in the real type R: var's and the 2-norm's terms.
template <class R, class T>
__device__ inline R gk_abs_squared(T x) {
    const R r = gk_convert<R>(x);
    return r * r;
}
template <class R, class T>
__device__ inline R gk_abs_squared(gk_complex<T> z) {
    return gk_convert<R>(z.re) * gk_convert<R>(z.re) + gk_convert<R>(z.im) * gk_convert<R>(z.im);
}
// |x| in the real type R (norms).
template <class R, class T>
__device__ inline R gk_abs_in(T x) {
    const R r = gk_convert<R>(x);
    return r < 0 ? -r : r;
}
template <class R, class T>
__device__ inline R gk_abs_in(gk_complex<T> z) {
    return gk_hypot(gk_convert<R>(z.re), gk_convert<R>(z.im));
}

// argmax and argmin: a value and its index. Ties keep the smaller index; a nan wins (its first),
// as NumPy's. The identity's index is past every element's, so an element always replaces it.
template <class T>
struct gk_arg {
    T value;
    long long index;
};
template <class T>
__device__ inline gk_arg<T> gk_arg_of(T value, long long index) {
    gk_arg<T> a;
    a.value = value;
    a.index = index;
    return a;
}
#define GK_NO_INDEX 0x7fffffffffffffffll
template <class T>
__device__ inline gk_arg<T> gk_arg_pick(gk_arg<T> a, gk_arg<T> b, bool b_better) {
    const bool a_nan = gk_isnan(a.value), b_nan = gk_isnan(b.value);
    if (a_nan != b_nan) return a_nan ? a : b;
    if (!a_nan && b_better) return b;
    if (!a_nan && (gk_less(a.value, b.value) || gk_less(b.value, a.value))) return a;
    return b.index < a.index ? b : a;
}
template <class T>
__device__ inline gk_arg<T> gk_argmax(gk_arg<T> a, gk_arg<T> b) {
    return gk_arg_pick(a, b, gk_less(a.value, b.value));
}
template <class T>
__device__ inline gk_arg<T> gk_argmin(gk_arg<T> a, gk_arg<T> b) {
    return gk_arg_pick(a, b, gk_less(b.value, a.value));
}
// The result index: -1 where no element counted (nanargmax of an all-nan slice; the launcher raises).
template <class T>
__device__ inline long long gk_arg_index(gk_arg<T> a) {
    return a.index == GK_NO_INDEX ? -1 : a.index;
}

// A sum and the number of its terms (nanmean, nanvar: the count of the elements that are no nan).
template <class T>
struct gk_sum_count {
    T sum;
    long long count;
};
template <class T>
__device__ inline gk_sum_count<T> gk_sum_count_of(T sum, long long count) {
    gk_sum_count<T> a;
    a.sum = sum;
    a.count = count;
    return a;
}
template <class T>
__device__ inline gk_sum_count<T> gk_add_counted(gk_sum_count<T> a, gk_sum_count<T> b) {
    return gk_sum_count_of(gk_sum(a.sum, b.sum), a.count + b.count);
}
// A variance's divisor: the count less ddof, never below 0 (NumPy's; 0 gives inf or nan).
template <class T>
__device__ inline T gk_variance_of(T squares, long long n, double ddof) {
    const double divisor = (double)n - ddof;
    return squares / (T)(divisor > 0 ? divisor : 0);
}

// ptp: the smallest and largest elements.
template <class T>
struct gk_range {
    T low, high;
};
template <class T>
__device__ inline gk_range<T> gk_range_of(T low, T high) {
    gk_range<T> a;
    a.low = low;
    a.high = high;
    return a;
}
template <class T>
__device__ inline gk_range<T> gk_widen_range(gk_range<T> a, gk_range<T> b) {
    return gk_range_of(gk_minimum(a.low, b.low), gk_maximum(a.high, b.high));
}

// Byte offsets of a flat index in a merged group of dimensions (C order).
__device__ inline long long gk_offset_of(gk_index flat, const long long* shape, const long long* strides, int ndim) {
    if (ndim == 1) return flat * strides[0];  // the common case, without 64-bit divisions
    long long offset = 0;
    for (int d = ndim - 1; d >= 0; --d) {
        const long long extent = shape[d];
        offset += (flat % extent) * strides[d];
        flat /= extent;
    }
    return offset;
}

// Scratch (one buffer per stream, src/ops/reduction/reduce.cpp): counters first, zero between
// launches (the last block of each count resets its own), then the partials.
#define GK_REDUCE_COUNTERS 4096
#define GK_REDUCE_PARTIALS_OFFSET (GK_REDUCE_COUNTERS * 4)

// A value of any trivially copyable type as 32-bit words: shuffles take scalars only (argmax's
// pairs and complex sums move a word at a time).
template <class T>
union gk_words {
    T value;
    unsigned w[(sizeof(T) + 3) / 4];
};
template <class T>
__device__ inline T gk_shfl_down(T value, unsigned offset, int width) {
    gk_words<T> words;
    words.value = value;
    for (unsigned k = 0; k < sizeof(words.w) / sizeof(words.w[0]); ++k)
        words.w[k] = __shfl_down_sync(0xffffffffu, words.w[k], offset, width);
    return words.value;
}

// A partial another block wrote, read past this multiprocessor's L1 (it may hold none of it, but
// a stale line would be wrong).
template <class T>
__device__ inline T gk_load_fresh(const T* p) {
#ifdef GK_SIMULATED
    return *p;
#else
    gk_words<T> words;
    if (sizeof(T) % 4 == 0) {
        for (unsigned k = 0; k < sizeof(T) / 4; ++k) words.w[k] = __ldcg((const unsigned*)p + k);
    } else {  // bool, int8, int16 accumulators: no whole word to load
        for (unsigned k = 0; k < sizeof(T); ++k) ((unsigned char*)&words)[k] = ((const volatile unsigned char*)p)[k];
    }
    return words.value;
#endif
}

// A warp's values combined into lane 0's, in lane order (width: lanes per group, a power of 2 <= 32).
template <class Op>
__device__ inline typename Op::acc_t gk_warp_reduce(typename Op::acc_t a, int width) {
    for (int offset = width / 2; offset > 0; offset /= 2) a = Op::reduce(a, gk_shfl_down(a, offset, width));
    return a;
}

// Each group of `width` threads' values (a multiple of 32 that divides the block, rounded up) combined
// into the group's first thread, in thread order (`shared`: one slot per warp).
template <class Op>
__device__ inline typename Op::acc_t gk_group_reduce(typename Op::acc_t a, int width, typename Op::acc_t* shared) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = (width + 31) / 32;
    const int first_warp = warp - warp % warps, last_warp = min(first_warp + warps, (int)(blockDim.x + 31) / 32);
    a = gk_warp_reduce<Op>(a, 32);
    if (lane == 0) shared[warp] = a;
    __syncthreads();
    if (warp == first_warp) {
        a = first_warp + lane < last_warp ? shared[first_warp + lane] : Op::identity();
        a = gk_warp_reduce<Op>(a, 32);
    }
    __syncthreads();  // `shared` may be used again
    return a;
}

// A block's values combined into thread 0's, in thread order (`shared`: one slot per warp).
template <class Op>
__device__ inline typename Op::acc_t gk_block_reduce(typename Op::acc_t a, typename Op::acc_t* shared) {
    return gk_group_reduce<Op>(a, (int)blockDim.x, shared);
}

// Whether this block is the last of `blocks` to finish with `counter` (which it then resets for the
// next launch on the stream). Each block's partials, written before, are then visible to the
// threads of the last block that read them (`reads`): each acquires them with an atomic of its
// own on the counter, after the writers' __threadfence and atomic (racecheck follows that chain).
__device__ inline bool gk_arrive_last(unsigned* counter, unsigned blocks, bool* shared_flag, bool reads) {
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) *shared_flag = atomicAdd(counter, 1u) == blocks - 1;
    __syncthreads();
    if (!*shared_flag) return false;
    if (reads) (void)atomicAdd(counter, 0u);
    __syncthreads();
    if (threadIdx.x == 0) atomicExch(counter, 0u);
    return true;
}

// One thread's elements [begin, end) of a strided run, combined (`mapped(j)`: element j's
// accumulator). On a GPU a thread meets few elements (the grid strides over them); on the simulator
// one thread takes a long contiguous chunk, so it sums in blocks of 128 combined pairwise (NumPy's
// order): the rounding error then grows with log2 of the chunk, not with its length.
template <class Op, class Mapped>
__device__ inline typename Op::acc_t gk_accumulate_range(gk_index begin, gk_index end, const Mapped& mapped) {
    typedef typename Op::acc_t acc_t;
#ifdef GK_CHUNKED_SHAPES
    acc_t stack[48];
    int depth = 0;
    unsigned long long blocks = 0;
    for (gk_index block = begin; block < end; block += 128) {
        const gk_index stop = block + 128 < end ? block + 128 : end;
        acc_t a = mapped(block);
        for (gk_index j = block + 1; j < stop; ++j) a = Op::reduce(a, mapped(j));
        // A binary counter of completed blocks: equal-sized neighbours merge, earlier on the left.
        for (unsigned long long c = ++blocks; (c & 1) == 0; c >>= 1) a = Op::reduce(stack[--depth], a);
        stack[depth++] = a;
    }
    acc_t a = Op::identity();
    for (int d = 0; d < depth; ++d) a = Op::reduce(a, stack[d]);
    return a;
#else
    acc_t a = Op::identity();
    for (gk_index j = begin; j < end; ++j) a = Op::reduce(a, mapped(j));
    return a;
#endif
}

// Where each input's elements of one result start.
template <class Op>
struct gk_bases {
    const char* at[Op::inputs];
};
template <class Op>
__device__ inline gk_bases<Op> gk_result_bases(const gk_reduce_params<Op::width>& p, gk_index result) {
    gk_bases<Op> bases;
    for (int k = 0; k < Op::inputs; ++k)
        bases.at[k] = (const char*)p.input[k] + gk_offset_of(result, p.kept_shape, p.kept_input[k], p.kept_ndim);
    return bases;
}
// Element j of the reduced ones, mapped: through the merged reduced dimensions, or one stride.
template <class Op>
__device__ inline typename Op::acc_t gk_map_element(const gk_reduce_params<Op::width>& p, const gk_bases<Op>& bases,
                                                    gk_index j) {
    if (p.reduced_ndim == 1)
        return Op::map_at(
            bases.at, [&](int k) { return j * p.reduced_input[k][0]; }, j);
    return Op::map_at(
        bases.at, [&](int k) { return gk_offset_of(j, p.reduced_shape, p.reduced_input[k], p.reduced_ndim); }, j);
}
template <class Op>
__device__ inline void gk_store_result(const gk_reduce_params<Op::width>& p, gk_index result, typename Op::acc_t a,
                                       long long n) {
    char* const out = (char*)p.output + gk_offset_of(result, p.kept_shape, p.kept_output, p.kept_ndim);
    *(typename Op::out_storage*)out = gk_convert<typename Op::out_storage>(Op::post(a, n, p.argument));
}

// A full reduction's per-thread part: every W elements one 16-byte load (one input, contiguous
// and aligned), or element by element (W = 1).
template <class Op, int W>
struct gk_full_elements {
    __device__ static typename Op::acc_t run(const gk_reduce_params<Op::width>& p) {
        typedef typename Op::in_storage0 in_storage;
        const gk_index n = (gk_index)p.reduced_size;
        const char* const input = (const char*)p.input[0];
        typename Op::acc_t a = Op::identity();
        const gk_index groups = n / W;
        for (gk_index g = gk_thread_rank(); g < groups; g += gk_thread_count()) {
            const gk_vector<in_storage, W> v = ((const gk_vector<in_storage, W>*)input)[g];
#pragma unroll
            for (int l = 0; l < W; ++l) a = Op::reduce(a, Op::map_value(v.v[l], g * W + l));
        }
        for (gk_index j = groups * W + gk_thread_rank(); j < n; j += gk_thread_count())
            a = Op::reduce(a, Op::map_value(((const in_storage*)input)[j], j));
        return a;
    }
};
template <class Op>
struct gk_full_elements<Op, 1> {
    __device__ static typename Op::acc_t run(const gk_reduce_params<Op::width>& p) {
        const gk_index n = (gk_index)p.reduced_size;
        gk_bases<Op> bases;
        for (int k = 0; k < Op::inputs; ++k) bases.at[k] = (const char*)p.input[k];
        const auto mapped = [&](gk_index j) { return gk_map_element<Op>(p, bases, j); };
#ifdef GK_CHUNKED_SHAPES
        return gk_accumulate_range<Op>(gk_chunk_begin(n), gk_chunk_end(n), mapped);
#else
        typename Op::acc_t a = Op::identity();
        for (gk_index j = gk_thread_rank(); j < n; j += gk_thread_count()) a = Op::reduce(a, mapped(j));
        return a;
#endif
    }
};

// ---- full: every element into one result. Each thread combines its elements, then the block,
// then the last block the partials.
template <class Op, int W>
__device__ inline void gk_reduce_full(const gk_reduce_params<Op::width>& p, typename Op::acc_t* shared, bool* last) {
    typedef typename Op::acc_t acc_t;
    acc_t a = gk_full_elements<Op, W>::run(p);
    a = gk_block_reduce<Op>(a, shared);
    acc_t* const partials = (acc_t*)(p.scratch + GK_REDUCE_PARTIALS_OFFSET);
    if (threadIdx.x == 0) partials[blockIdx.x] = a;
    if (!gk_arrive_last((unsigned*)p.scratch, gridDim.x, last, threadIdx.x < gridDim.x)) return;
    a = Op::identity();
    for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x) a = Op::reduce(a, gk_load_fresh(partials + k));
    a = gk_block_reduce<Op>(a, shared);
    if (threadIdx.x == 0)
        *(typename Op::out_storage*)p.output =
            gk_convert<typename Op::out_storage>(Op::post(a, p.reduced_size, p.argument));
}

// `combine(load(j), j)` for j = first, first + step, ... below end, GK_LOADS_IN_FLIGHT loads issued
// before any is combined: enough bytes in flight per multiprocessor to cover the memory's latency
// whatever the occupancy (a loop's unroll pragma may still wait for each load in turn).
#define GK_LOADS_IN_FLIGHT 4
template <class Load, class Combine>
__device__ inline void gk_in_flight(gk_index first, gk_index end, gk_index step, const Load& load,
                                    const Combine& combine) {
    typedef decltype(load(first)) loaded_t;
    for (gk_index j = first; j < end; j += GK_LOADS_IN_FLIGHT * step) {
        loaded_t loaded[GK_LOADS_IN_FLIGHT];
#pragma unroll
        for (int u = 0; u < GK_LOADS_IN_FLIGHT; ++u)
            if (j + u * step < end) loaded[u] = load(j + u * step);
#pragma unroll
        for (int u = 0; u < GK_LOADS_IN_FLIGHT; ++u)
            if (j + u * step < end) combine(loaded[u], j + u * step);
    }
}

// ---- rows: each result's elements contiguous (one row of the reduced dimension). row_threads
// threads per row: part of a warp (8 or 16) for short rows, a warp for many rows, the whole block
// for few long ones, and with splits > 1 several blocks per row (blockIdx.y one share of it), the
// last of which combines their partials; on the simulator each thread takes whole rows. W > 1: one
// input whose rows start 16-byte aligned and hold whole groups of W, read 16 bytes at a time.
template <class Op, int W>
struct gk_row_elements {
    // The elements of groups [first, end) of `row`, every `step`-th group.
    __device__ static typename Op::acc_t run(const gk_reduce_params<Op::width>& p, gk_index row, gk_index first,
                                             gk_index end, int step) {
        typedef gk_vector<typename Op::in_storage0, W> vector;
        const vector* const vectors =
            (const vector*)((const char*)p.input[0] + gk_offset_of(row, p.kept_shape, p.kept_input[0], p.kept_ndim));
        typename Op::acc_t a = Op::identity();
        gk_in_flight(
            first, end, step, [&](gk_index g) { return vectors[g]; },
            [&](const vector& v, gk_index g) {
#pragma unroll
                for (int l = 0; l < W; ++l) a = Op::reduce(a, Op::map_value(v.v[l], g * W + l));
            });
        return a;
    }
};
template <class Op>
struct gk_row_elements<Op, 1> {
    __device__ static typename Op::acc_t run(const gk_reduce_params<Op::width>& p, gk_index row, gk_index first,
                                             gk_index end, int step) {
        const gk_bases<Op> bases = gk_result_bases<Op>(p, row);
        typename Op::acc_t a = Op::identity();
#pragma unroll 4
        for (gk_index j = first; j < end; j += step)
            a = Op::reduce(a,
                           Op::map_at(
                               bases.at, [&](int k) { return j * (p.reduced_ndim ? p.reduced_input[k][0] : 0ll); }, j));
        return a;
    }
};

template <class Op, int W>
__device__ inline void gk_reduce_rows(const gk_reduce_params<Op::width>& p, typename Op::acc_t* shared, bool* last) {
    typedef typename Op::acc_t acc_t;
    const gk_index length = (gk_index)p.reduced_size;
#ifdef GK_CHUNKED_SHAPES
    const auto step = [&](int k) { return p.reduced_ndim ? p.reduced_input[k][0] : 0ll; };
    GK_ELEMENTS(row, (gk_index)p.kept_size) {
        const gk_bases<Op> bases = gk_result_bases<Op>(p, row);
        gk_store_result<Op>(p, row,
                            gk_accumulate_range<Op>(0, length,
                                                    [&](gk_index j) {
                                                        return Op::map_at(
                                                            bases.at, [&](int k) { return j * step(k); }, j);
                                                    }),
                            length);
    }
    (void)shared;
    (void)last;
#else
    const int per_row = p.row_threads;
    const gk_index rows_per_block = blockDim.x / per_row;
    const gk_index row = (gk_index)blockIdx.x * rows_per_block + threadIdx.x / per_row;
    const int lane = threadIdx.x % per_row;
    // The row's groups of W, every per_row-th; with splits, the row's blocks interleave (block s takes
    // every splits-th stretch of per_row groups), so that together they sweep the row front to back.
    acc_t a = Op::identity();
    if (row < (gk_index)p.kept_size)
        a = gk_row_elements<Op, W>::run(p, row, (gk_index)blockIdx.y * per_row + lane, length / W, p.splits * per_row);
    a = per_row <= 32 ? gk_warp_reduce<Op>(a, per_row) : gk_group_reduce<Op>(a, per_row, shared);
    if (p.splits == 1) {
        if (lane == 0 && row < (gk_index)p.kept_size) gk_store_result<Op>(p, row, a, length);
        return;
    }
    // Partials [split][row] (a block per row here); one counter per row.
    acc_t* const partials = (acc_t*)(p.scratch + GK_REDUCE_PARTIALS_OFFSET);
    if (threadIdx.x == 0) partials[(gk_index)blockIdx.y * p.kept_size + row] = a;
    if (!gk_arrive_last((unsigned*)p.scratch + row, gridDim.y, last, threadIdx.x < gridDim.y)) return;
    a = Op::identity();
    for (int s = threadIdx.x; s < p.splits; s += blockDim.x)
        a = Op::reduce(a, gk_load_fresh(partials + (gk_index)s * p.kept_size + row));
    a = gk_block_reduce<Op>(a, shared);
    if (threadIdx.x == 0) gk_store_result<Op>(p, row, a, length);
#endif
}

// ---- columns (GPU): the kept dimension contiguous, the reduced ones strided (x.sum(axis=0) of a C
// array). A warp reads 32 neighbouring groups of W results at each reduced element (W > 1: one
// input, 16 bytes a lane); the block's warps take neighbouring elements (rows), the splits
// (blockIdx.y) interleaved stretches of them, as the rows' splits do; then the warps combine in
// shared memory, in warp order. With splits > 1 the last block of a tile combines the tile's
// partials, its warps each taking a share of them.
#define GK_COLUMN_WARPS 8
// A thread's W accumulators (of neighbouring results) as one value.
template <class T, int W>
struct gk_accumulators {
    T at[W];
};
template <class Op, int W>
struct gk_column_elements {
    // Adds the elements [first, end), every `step`-th, of results first_result .. + W - 1 into a.
    __device__ static void run(const gk_reduce_params<Op::width>& p, gk_index first_result, gk_index first,
                               gk_index end, int step, typename Op::acc_t* a) {
        typedef gk_vector<typename Op::in_storage0, W> vector;
        const char* const base = (const char*)p.input[0] + first_result * (long long)sizeof(typename Op::in_storage0);
        if (p.reduced_ndim == 1) {
            const long long stride = p.reduced_input[0][0];
            gk_in_flight(
                first, end, step, [&](gk_index j) { return *(const vector*)(base + j * stride); },
                [&](const vector& v, gk_index j) {
#pragma unroll
                    for (int l = 0; l < W; ++l) a[l] = Op::reduce(a[l], Op::map_value(v.v[l], j));
                });
        } else {
            for (gk_index j = first; j < end; j += step) {
                const vector v =
                    *(const vector*)(base + gk_offset_of(j, p.reduced_shape, p.reduced_input[0], p.reduced_ndim));
#pragma unroll
                for (int l = 0; l < W; ++l) a[l] = Op::reduce(a[l], Op::map_value(v.v[l], j));
            }
        }
    }
};
template <class Op>
struct gk_column_elements<Op, 1> {
    __device__ static void run(const gk_reduce_params<Op::width>& p, gk_index first_result, gk_index first,
                               gk_index end, int step, typename Op::acc_t* a) {
        const gk_bases<Op> bases = gk_result_bases<Op>(p, first_result);
#pragma unroll 4
        for (gk_index j = first; j < end; j += step) a[0] = Op::reduce(a[0], gk_map_element<Op>(p, bases, j));
    }
};

// The block's warps' W accumulators per lane, combined in warp order into warp 0's (`shared`: W per thread).
template <class Op, int W>
__device__ inline void gk_combine_warps(typename Op::acc_t* a, typename Op::acc_t* shared) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int l = 0; l < W; ++l) shared[(warp * 32 + lane) * W + l] = a[l];
    __syncthreads();
    if (warp == 0) {
        for (int w = 1; w < GK_COLUMN_WARPS; ++w) {
#pragma unroll
            for (int l = 0; l < W; ++l) a[l] = Op::reduce(a[l], shared[(w * 32 + lane) * W + l]);
        }
    }
    __syncthreads();  // `shared` may be used again
}

template <class Op, int W>
__device__ inline void gk_reduce_columns(const gk_reduce_params<Op::width>& p, typename Op::acc_t* shared, bool* last) {
    typedef typename Op::acc_t acc_t;
    const gk_index length = (gk_index)p.reduced_size, results = (gk_index)p.kept_size;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const gk_index first_result = ((gk_index)blockIdx.x * 32 + lane) * W;  // whole groups: results % W == 0
    const bool mine = first_result < results;
    acc_t a[W];
#pragma unroll
    for (int l = 0; l < W; ++l) a[l] = Op::identity();
    // Every reduced element whose stretch of GK_COLUMN_WARPS is this split's.
    if (mine)
        gk_column_elements<Op, W>::run(p, first_result, (gk_index)blockIdx.y * GK_COLUMN_WARPS + warp, length,
                                       p.splits * GK_COLUMN_WARPS, a);
    gk_combine_warps<Op, W>(a, shared);
    if (p.splits == 1) {
        if (warp == 0 && mine)
            for (int l = 0; l < W; ++l) gk_store_result<Op>(p, first_result + l, a[l], length);
        return;
    }
    // Partials [split][result]; one counter per tile of 32 * W results.
    acc_t* const partials = (acc_t*)(p.scratch + GK_REDUCE_PARTIALS_OFFSET);
    if (warp == 0 && mine)
        for (int l = 0; l < W; ++l) partials[(gk_index)blockIdx.y * results + first_result + l] = a[l];
    if (!gk_arrive_last((unsigned*)p.scratch + blockIdx.x, gridDim.y, last, mine)) return;
#pragma unroll
    for (int l = 0; l < W; ++l) a[l] = Op::identity();
    if (mine)  // the finish is on every result's path: several splits' partials in flight at once
        gk_in_flight(
            warp, p.splits, GK_COLUMN_WARPS,
            [&](gk_index s) {
                gk_accumulators<acc_t, W> loaded;
#pragma unroll
                for (int l = 0; l < W; ++l) loaded.at[l] = gk_load_fresh(partials + s * results + first_result + l);
                return loaded;
            },
            [&](const gk_accumulators<acc_t, W>& loaded, gk_index) {
#pragma unroll
                for (int l = 0; l < W; ++l) a[l] = Op::reduce(a[l], loaded.at[l]);
            });
    gk_combine_warps<Op, W>(a, shared);
    if (warp == 0 && mine)
        for (int l = 0; l < W; ++l) gk_store_result<Op>(p, first_result + l, a[l], length);
}

// ---- each: a thread per result, walking its reduced elements (any layout; coalesced when the kept
// dimension is contiguous, as for x.sum(axis=0)). With splits > 1, blockIdx.y takes one range of
// the reduced elements, and the last of a column of blocks combines their partials.
template <class Op>
__device__ inline void gk_reduce_each(const gk_reduce_params<Op::width>& p, bool* last) {
    typedef typename Op::acc_t acc_t;
    const gk_index length = (gk_index)p.reduced_size;
#ifdef GK_CHUNKED_SHAPES
    GK_ELEMENTS(r, (gk_index)p.kept_size) {
        const gk_bases<Op> bases = gk_result_bases<Op>(p, r);
        gk_store_result<Op>(
            p, r, gk_accumulate_range<Op>(0, length, [&](gk_index j) { return gk_map_element<Op>(p, bases, j); }),
            length);
    }
    (void)last;
#else
    const gk_index r = (gk_index)blockIdx.x * blockDim.x + threadIdx.x;
    const gk_index per_split = (length + p.splits - 1) / p.splits;
    const gk_index begin = (gk_index)blockIdx.y * per_split;
    const gk_index end = begin + per_split < length ? begin + per_split : length;
    acc_t a = Op::identity();
    if (r < (gk_index)p.kept_size) {
        const gk_bases<Op> bases = gk_result_bases<Op>(p, r);
        if (p.reduced_ndim == 1) {
#pragma unroll 4
            for (gk_index j = begin; j < end; ++j)
                a = Op::reduce(a, Op::map_at(
                                      bases.at, [&](int k) { return j * p.reduced_input[k][0]; }, j));
        } else {
            for (gk_index j = begin; j < end; ++j) a = Op::reduce(a, gk_map_element<Op>(p, bases, j));
        }
    }
    if (p.splits == 1) {
        if (r < (gk_index)p.kept_size) gk_store_result<Op>(p, r, a, length);
        return;
    }
    // Partials [split][result]; one counter per column of blocks.
    unsigned* const counters = (unsigned*)p.scratch;
    acc_t* const partials = (acc_t*)(p.scratch + GK_REDUCE_PARTIALS_OFFSET);
    if (r < (gk_index)p.kept_size) partials[(gk_index)blockIdx.y * p.kept_size + r] = a;
    if (!gk_arrive_last(counters + blockIdx.x, gridDim.y, last, r < (gk_index)p.kept_size)) return;
    if (r >= (gk_index)p.kept_size) return;
    a = Op::identity();
    for (int s = 0; s < p.splits; ++s) a = Op::reduce(a, gk_load_fresh(partials + (gk_index)s * p.kept_size + r));
    gk_store_result<Op>(p, r, a, length);
#endif
}

// ---- ReductionKernels without identity: the accumulator holds whether it has a value yet.
template <class T>
struct gk_maybe {
    T value;
    bool set;
};
template <class T>
__device__ inline gk_maybe<T> gk_maybe_none() {
    gk_maybe<T> a;
    a.value = T();
    a.set = false;
    return a;
}
template <class T>
__device__ inline gk_maybe<T> gk_maybe_of(T value) {
    gk_maybe<T> a;
    a.value = value;
    a.set = true;
    return a;
}
template <class T, class Reduce>
__device__ inline gk_maybe<T> gk_maybe_combine(gk_maybe<T> a, gk_maybe<T> b, const Reduce& reduce) {
    if (!a.set) return b;
    if (!b.set) return a;
    return gk_maybe_of(reduce(a.value, b.value));
}
