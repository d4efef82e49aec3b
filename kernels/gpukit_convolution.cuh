// kernels/gpukit_convolution.cuh: convolution and correlation (src/ops/convolution/ compiles this
// text, embedded in the library, with NVRTC or on the simulator: the same source runs on both).
//
// What it computes. Every operation of gpukit/convolution.hpp and gpukit/filters.hpp is one
// correlation: for each output coordinate j (out_shape, C order)
//     out[j] = divisor^-1 * sum over k of weights[k] * input~[j + offset + k]
// with weights of weight_shape (C-contiguous, already flipped for a convolution and conjugated
// where NumPy and SciPy conjugate) and input~ the input extended past its edges by `mode`:
//   GK_CONV_CONSTANT  cval                        (numpy and scipy.signal's zero padding, 'fill')
//   GK_CONV_REFLECT   d c b a | a b c d | d c b a (ndimage 'reflect', convolve2d 'symm')
//   GK_CONV_MIRROR    d c b | a b c d | c b a     (ndimage 'mirror')
//   GK_CONV_NEAREST   a a a | a b c d | d d d     (ndimage 'nearest')
//   GK_CONV_WRAP      b c d | a b c d | a b c     (ndimage 'wrap', convolve2d 'wrap')
// The extensions repeat however far they reach (a kernel longer than the input).
// Sums are taken in `compute`: double (real data), two doubles (complex) or 64-bit integers that
// wrap (NumPy's and scipy.signal's integer convolutions); the result is converted to the output's
// dtype once (a float to an integer truncates, as SciPy's C code casts).
//
// Reference: numpy.convolve/correlate, scipy.signal.convolve/correlate/convolve2d/correlate2d,
// scipy.ndimage.correlate and its 1-D and separable filters; the tests compare with them.
//
// Kernels.
// - gk_convolve: any dimensions, one output per index (GK_ELEMENTS: a contiguous chunk per
//   simulated thread). The simulator's one generic module runs every call with it, reading
//   dtypes, mode and compute kind from the parameters.
// - gk_convolve_line (GPU shape): 1-D along one axis of any stride (convolve1d, the separable
//   filters' passes, numpy.convolve): a block stages GK_CONV_LINE_TILE outputs' inputs and halo in
//   shared memory, once per input element, each thread then sums GK_CONV_LINE_PER consecutive
//   outputs from a window of registers.
// - gk_convolve_tile2d (GPU shape): 2-D: a 32x64 output tile whose inputs and halo a 32x8 block
//   stages in shared memory, 8 outputs per thread down a column from a window of registers
//   (arrays.md §2: 3.3x CuPy on Hopper).
// On a GPU the weights sit in __constant__ memory (gk_conv_weights, written on the stream before the
// launch) where they fit: every thread of a warp reads the same weight, which constant memory
// broadcasts; dtypes, mode, compute kind and the taps of the tiled shapes are compile-time
// constants there (GK_CONV_SPECIALISED), one small module each.
#pragma once

#include "gpukit_elementwise.cuh"

#define GK_CONV_MAX_DIMS 8

#define GK_CONV_CONSTANT 0
#define GK_CONV_REFLECT 1
#define GK_CONV_MIRROR 2
#define GK_CONV_NEAREST 3
#define GK_CONV_WRAP 4

#define GK_CONV_REAL 0
#define GK_CONV_COMPLEX 1
#define GK_CONV_INTEGER 2

// gk_convolve_line: threads per block and outputs per thread.
#define GK_CONV_LINE_THREADS 256
#define GK_CONV_LINE_PER 8
#define GK_CONV_LINE_TILE (GK_CONV_LINE_THREADS * GK_CONV_LINE_PER)
// gk_convolve_tile2d: a 32-wide, 64-tall output tile, 8 rows of threads.
#define GK_CONV_TILE_X 32
#define GK_CONV_TILE_Y 64
#define GK_CONV_TILE_THREADS_Y 8
// Staging: the global loads each thread issues before it stores them into shared memory. With the
// taps known, a thread's whole share of the stage (up to 12 values) in one batch: a share of 9 or
// 10 in batches of 8 waited for memory twice, the second time for one or two values.
#define GK_CONV_STAGE_BATCH_MAX 12
#define GK_CONV_STAGE_BATCH(values, threads)                                                               \
    (((values) + (threads)-1) / (threads) < GK_CONV_STAGE_BATCH_MAX ? ((values) + (threads)-1) / (threads) \
                                                                    : GK_CONV_STAGE_BATCH_MAX)
#ifdef GK_CONV_TAPS_X
#define GK_CONV_LINE_BATCH GK_CONV_STAGE_BATCH(GK_CONV_LINE_TILE + GK_CONV_TAPS_X - 1, GK_CONV_LINE_THREADS)
#else
#define GK_CONV_LINE_BATCH 8
#endif
#if defined(GK_CONV_TAPS_X) && defined(GK_CONV_TAPS_Y)
#define GK_CONV_TILE_BATCH                                                                             \
    GK_CONV_STAGE_BATCH((GK_CONV_TILE_Y + GK_CONV_TAPS_Y - 1) * (GK_CONV_TILE_X + GK_CONV_TAPS_X - 1), \
                        GK_CONV_TILE_X * GK_CONV_TILE_THREADS_Y)
#else
#define GK_CONV_TILE_BATCH 8
#endif

// The weights in constant memory: 8 KiB (1024 real weights, 512 complex).
#define GK_CONV_CONSTANT_WORDS 1024
__constant__ double gk_conv_weights[GK_CONV_CONSTANT_WORDS];

// Mirrors ConvolutionParams in src/ops/convolution/kernels.hpp.
struct gk_convolution_params {
    unsigned long long input;    // the first element
    unsigned long long weights;  // weight_size values in compute's type, C order (global memory)
    unsigned long long out;      // the first element
    long long in_shape[GK_CONV_MAX_DIMS];
    long long in_strides[GK_CONV_MAX_DIMS];  // in elements, any sign
    long long out_shape[GK_CONV_MAX_DIMS];
    long long out_strides[GK_CONV_MAX_DIMS];  // in elements, any sign
    long long weight_shape[GK_CONV_MAX_DIMS];
    long long offset[GK_CONV_MAX_DIMS];  // input coordinate of weights[0] for output 0
    long long size;                      // outputs
    long long weight_size;
    double cval_real, cval_imag;  // GK_CONV_CONSTANT's value outside
    double divisor;               // the sum is divided by it (uniform_filter: exact means of integers)
    int ndim;
    int input_dtype;  // DType numbers (GK_DTYPE_*)
    int out_dtype;
    int compute;        // GK_CONV_REAL, _COMPLEX, _INTEGER
    int mode;           // GK_CONV_CONSTANT, ...
    int constant;       // GPU shapes: the weights are in gk_conv_weights
    int axis;           // gk_convolve_line: the dimension convolved (the others have one weight)
    long long lines;    // gk_convolve_line: outputs / out_shape[axis]; gk_convolve_tile2d: unused
    long long tiles;    // tiles per line (gk_convolve_line) or per image (gk_convolve_tile2d)
    long long tiles_x;  // gk_convolve_tile2d: tiles across
};

#ifdef GK_CONV_SPECIALISED
#define gk_conv_input_dtype(p) GK_CONV_INPUT_DTYPE
#define gk_conv_out_dtype(p) GK_CONV_OUT_DTYPE
#define gk_conv_compute(p) GK_CONV_COMPUTE
#define gk_conv_mode(p) GK_CONV_MODE
#define gk_conv_constant(p) GK_CONV_IN_CONSTANT
#else
#define gk_conv_input_dtype(p) ((p).input_dtype)
#define gk_conv_out_dtype(p) ((p).out_dtype)
#define gk_conv_compute(p) ((p).compute)
#define gk_conv_mode(p) ((p).mode)
#define gk_conv_constant(p) ((p).constant)
#endif
// The tiled shapes' taps: constants where the module was built for them (the loops unroll).
#ifdef GK_CONV_TAPS_X
#define gk_conv_taps_x(p) GK_CONV_TAPS_X
#else
#define gk_conv_taps_x(p) ((p).weight_shape[(p).ndim - 1])
#endif
#ifdef GK_CONV_TAPS_Y
#define gk_conv_taps_y(p) GK_CONV_TAPS_Y
#else
#define gk_conv_taps_y(p) ((p).weight_shape[0])
#endif

// ---- a value in the compute type: real and imaginary parts, or an integer
struct gk_conv_value {
    double re, im;
    long long n;
};

// Element `p` of `dtype` as the compute kind takes it.
__device__ inline gk_conv_value gk_conv_load(int dtype, int compute, const void* p) {
    gk_conv_value v = {0.0, 0.0, 0};
    if (compute == GK_CONV_INTEGER) {
        switch (dtype) {
            case GK_DTYPE_bool_: v.n = *(const bool*)p ? 1 : 0; break;
            case GK_DTYPE_int8: v.n = *(const signed char*)p; break;
            case GK_DTYPE_int16: v.n = *(const short*)p; break;
            case GK_DTYPE_int32: v.n = *(const int*)p; break;
            case GK_DTYPE_uint8: v.n = *(const unsigned char*)p; break;
            case GK_DTYPE_uint16: v.n = *(const unsigned short*)p; break;
            case GK_DTYPE_uint32: v.n = *(const unsigned int*)p; break;
            default: v.n = *(const long long*)p;  // int64, uint64 (the same bits: sums wrap alike)
        }
        return v;
    }
    switch (dtype) {
        case GK_DTYPE_bool_: v.re = *(const bool*)p ? 1.0 : 0.0; break;
        case GK_DTYPE_int8: v.re = *(const signed char*)p; break;
        case GK_DTYPE_int16: v.re = *(const short*)p; break;
        case GK_DTYPE_int32: v.re = *(const int*)p; break;
        case GK_DTYPE_int64: v.re = (double)*(const long long*)p; break;
        case GK_DTYPE_uint8: v.re = *(const unsigned char*)p; break;
        case GK_DTYPE_uint16: v.re = *(const unsigned short*)p; break;
        case GK_DTYPE_uint32: v.re = *(const unsigned int*)p; break;
        case GK_DTYPE_uint64: v.re = (double)*(const unsigned long long*)p; break;
        case GK_DTYPE_float16: v.re = gk_half_to_float(((const gk_float16*)p)->bits); break;
        case GK_DTYPE_bfloat16: v.re = gk_bfloat16_to_float(((const gk_bfloat16*)p)->bits); break;
        case GK_DTYPE_float32: v.re = *(const float*)p; break;
        case GK_DTYPE_complex64:
            v.re = ((const float*)p)[0];
            v.im = ((const float*)p)[1];
            break;
        case GK_DTYPE_complex128:
            v.re = ((const double*)p)[0];
            v.im = ((const double*)p)[1];
            break;
        default: v.re = *(const double*)p;
    }
    return v;
}

// The sum `v` written as an element of `dtype`.
__device__ inline void gk_conv_store(int dtype, int compute, void* p, gk_conv_value v) {
    if (compute == GK_CONV_INTEGER) {
        // Integer results (NumPy's integer convolutions): the low bits, as NumPy's arithmetic wraps.
        switch (dtype) {
            case GK_DTYPE_bool_: *(bool*)p = v.n != 0; return;
            case GK_DTYPE_int8:
            case GK_DTYPE_uint8: *(unsigned char*)p = (unsigned char)v.n; return;
            case GK_DTYPE_int16:
            case GK_DTYPE_uint16: *(unsigned short*)p = (unsigned short)v.n; return;
            case GK_DTYPE_int32:
            case GK_DTYPE_uint32: *(unsigned int*)p = (unsigned int)v.n; return;
            default: *(long long*)p = v.n; return;
        }
    }
    switch (dtype) {
        case GK_DTYPE_bool_: *(bool*)p = v.re != 0.0 || v.im != 0.0; break;
        case GK_DTYPE_int8: *(signed char*)p = (signed char)(long long)v.re; break;
        case GK_DTYPE_int16: *(short*)p = (short)(long long)v.re; break;
        case GK_DTYPE_int32: *(int*)p = (int)(long long)v.re; break;
        case GK_DTYPE_int64: *(long long*)p = (long long)v.re; break;
        case GK_DTYPE_uint8: *(unsigned char*)p = (unsigned char)(long long)v.re; break;
        case GK_DTYPE_uint16: *(unsigned short*)p = (unsigned short)(long long)v.re; break;
        case GK_DTYPE_uint32: *(unsigned int*)p = (unsigned int)(long long)v.re; break;
        case GK_DTYPE_uint64: *(unsigned long long*)p = (unsigned long long)v.re; break;
        case GK_DTYPE_float16: ((gk_float16*)p)->bits = gk_float_to_half(gk_double_to_float_odd(v.re)); break;
        case GK_DTYPE_bfloat16: ((gk_bfloat16*)p)->bits = gk_float_to_bfloat16(gk_double_to_float_odd(v.re)); break;
        case GK_DTYPE_float32: *(float*)p = (float)v.re; break;
        case GK_DTYPE_complex64:
            ((float*)p)[0] = (float)v.re;
            ((float*)p)[1] = (float)v.im;
            break;
        case GK_DTYPE_complex128:
            ((double*)p)[0] = v.re;
            ((double*)p)[1] = v.im;
            break;
        default: *(double*)p = v.re;
    }
}

// ---- the extension past the edges
// The input index that index `i` of an axis of `n` elements reads under `mode`, or -1 for cval.
__device__ inline long long gk_conv_extend(long long i, long long n, int mode) {
    if (i >= 0 && i < n) return i;
    switch (mode) {
        case GK_CONV_NEAREST: return i < 0 ? 0 : n - 1;
        case GK_CONV_WRAP: {
            const long long m = i % n;
            return m < 0 ? m + n : m;
        }
        case GK_CONV_REFLECT: {
            const long long period = 2 * n;
            long long m = i % period;
            if (m < 0) m += period;
            return m < n ? m : period - 1 - m;
        }
        case GK_CONV_MIRROR: {
            if (n == 1) return 0;
            const long long period = 2 * n - 2;
            long long m = i % period;
            if (m < 0) m += period;
            return m < n ? m : period - m;
        }
        default: return -1;
    }
}

// ---- the weights and the sums
__device__ inline gk_conv_value gk_conv_weight(const gk_convolution_params& p, long long k) {
    gk_conv_value w = {0.0, 0.0, 0};
    const int compute = gk_conv_compute(p);
    if (gk_conv_constant(p)) {
        if (compute == GK_CONV_COMPLEX) {
            w.re = gk_conv_weights[2 * k];
            w.im = gk_conv_weights[2 * k + 1];
        } else if (compute == GK_CONV_INTEGER) {
            w.n = ((const long long*)gk_conv_weights)[k];
        } else {
            w.re = gk_conv_weights[k];
        }
        return w;
    }
    if (compute == GK_CONV_COMPLEX) {
        w.re = ((const double*)p.weights)[2 * k];
        w.im = ((const double*)p.weights)[2 * k + 1];
    } else if (compute == GK_CONV_INTEGER) {
        w.n = ((const long long*)p.weights)[k];
    } else {
        w.re = ((const double*)p.weights)[k];
    }
    return w;
}

// sum += w * x in the compute kind (integers wrap: unsigned arithmetic).
__device__ inline void gk_conv_add(int compute, gk_conv_value& sum, gk_conv_value w, gk_conv_value x) {
    if (compute == GK_CONV_INTEGER) {
        sum.n = (long long)((unsigned long long)sum.n + (unsigned long long)w.n * (unsigned long long)x.n);
    } else if (compute == GK_CONV_COMPLEX) {
        sum.re += w.re * x.re - w.im * x.im;
        sum.im += w.re * x.im + w.im * x.re;
    } else {
        sum.re += w.re * x.re;
    }
}

__device__ inline gk_conv_value gk_conv_cval(const gk_convolution_params& p) {
    gk_conv_value v = {p.cval_real, p.cval_imag, (long long)p.cval_real};
    return v;
}

__device__ inline gk_conv_value gk_conv_finish(const gk_convolution_params& p, gk_conv_value sum) {
    if (p.divisor != 1.0) {
        sum.re /= p.divisor;
        sum.im /= p.divisor;
    }
    return sum;
}

// ---- staged inputs in shared memory: one double per value (an integer's bits), two for complex
__device__ inline int gk_conv_stage_words(int compute) { return compute == GK_CONV_COMPLEX ? 2 : 1; }
__device__ inline void gk_conv_stage_put(int compute, double* stage, long long s, gk_conv_value v) {
    if (compute == GK_CONV_COMPLEX) {
        stage[2 * s] = v.re;
        stage[2 * s + 1] = v.im;
    } else if (compute == GK_CONV_INTEGER) {
        ((long long*)stage)[s] = v.n;
    } else {
        stage[s] = v.re;
    }
}
__device__ inline gk_conv_value gk_conv_stage_get(int compute, const double* stage, long long s) {
    gk_conv_value v = {0.0, 0.0, 0};
    if (compute == GK_CONV_COMPLEX) {
        v.re = stage[2 * s];
        v.im = stage[2 * s + 1];
    } else if (compute == GK_CONV_INTEGER) {
        v.n = ((const long long*)stage)[s];
    } else {
        v.re = stage[s];
    }
    return v;
}

// ---- gk_convolve: any dimensions, one output per index
extern "C" __global__ void gk_convolve(const gk_convolution_params p) {
    const int dtype = gk_conv_input_dtype(p), compute = gk_conv_compute(p), mode = gk_conv_mode(p);
    const int itemsize = gk_dtype_itemsize(dtype), out_itemsize = gk_dtype_itemsize(gk_conv_out_dtype(p));
    const int last = p.ndim - 1;
    const long long taps = p.weight_shape[last];  // along the last dimension: the inner loop
    const long long rows = p.weight_size / taps;
    const gk_conv_value cval = gk_conv_cval(p);
    GK_ELEMENTS(i, p.size) {
        long long at[GK_CONV_MAX_DIMS];  // the output's coordinates
        long long rest = i, out_offset = 0;
        for (int d = last; d >= 0; --d) {
            at[d] = rest % p.out_shape[d];
            rest /= p.out_shape[d];
            out_offset += at[d] * p.out_strides[d];
        }
        gk_conv_value sum = {0.0, 0.0, 0};
        for (long long row = 0; row < rows; ++row) {
            // The input row that weight row `row` meets, or none (cval) where an outer index is outside.
            long long base = 0, r = row;
            bool outside = false;
            for (int d = last - 1; d >= 0; --d) {
                const long long k = r % p.weight_shape[d];
                r /= p.weight_shape[d];
                const long long index = gk_conv_extend(at[d] + p.offset[d] + k, p.in_shape[d], mode);
                if (index < 0) outside = true;
                base += index * p.in_strides[d];
            }
            for (long long k = 0; k < taps; ++k) {
                const gk_conv_value w = gk_conv_weight(p, row * taps + k);
                if (outside) {
                    gk_conv_add(compute, sum, w, cval);
                    continue;
                }
                const long long index = gk_conv_extend(at[last] + p.offset[last] + k, p.in_shape[last], mode);
                if (index < 0) {
                    gk_conv_add(compute, sum, w, cval);
                    continue;
                }
                const char* x = (const char*)p.input + (base + index * p.in_strides[last]) * itemsize;
                gk_conv_add(compute, sum, w, gk_conv_load(dtype, compute, x));
            }
        }
        gk_conv_store(gk_conv_out_dtype(p), compute, (char*)p.out + out_offset * out_itemsize, gk_conv_finish(p, sum));
    }
}

// The input value at (line base, index `i` along the axis), extended past the edges.
__device__ inline gk_conv_value gk_conv_line_input(const gk_convolution_params& p, long long base, long long i) {
    const int axis = p.axis;
    const long long index = gk_conv_extend(i, p.in_shape[axis], gk_conv_mode(p));
    if (index < 0) return gk_conv_cval(p);
    const int dtype = gk_conv_input_dtype(p);
    return gk_conv_load(dtype, gk_conv_compute(p),
                        (const char*)p.input + (base + index * p.in_strides[axis]) * gk_dtype_itemsize(dtype));
}

// ---- gk_convolve_line: 1-D along `axis`, staged in shared memory
// Block work item w: line w / tiles, its tile w % tiles of GK_CONV_LINE_TILE outputs. The line's
// other coordinates are the same in input and output (the weights have one element across them).
// With the taps known at compile time, thread t sums the GK_CONV_LINE_PER consecutive outputs from
// t * PER in registers from one window of PER + taps - 1 staged inputs (each staged value read
// (PER + taps - 1) / PER times, not taps times), puts them back into the stage and the block
// writes them out coalesced. Otherwise thread t sums outputs t + r * THREADS. The stage holds value
// s at s + s / PER: a pad every PER values makes the window reads, at a stride of PER + 1 across a
// warp, free of bank conflicts.
__device__ inline long long gk_conv_padded(long long s) { return s + s / GK_CONV_LINE_PER; }

// Stages `count` inputs of a line from index `start` along the axis: value s at gk_conv_padded(s).
// Each thread first loads GK_CONV_LINE_BATCH values into registers, then stores them: that many
// independent global loads in flight per thread (one at a time, the staging was latency bound:
// ncu saw 14 % of DRAM bandwidth and L1TEX waits). A run that lies inside the line (all but a
// line's first and last tiles) reads without the extension's index arithmetic; the caller passes
// `interior` as a constant, so each loop is compiled for its case.
__device__ __forceinline__ void gk_conv_stage_line_run(const gk_convolution_params& p, double* stage, long long base,
                                                       long long start, int count, bool interior) {
    const int compute = gk_conv_compute(p), dtype = gk_conv_input_dtype(p), itemsize = gk_dtype_itemsize(dtype);
    const long long stride = p.in_strides[p.axis];
    const char* input = (const char*)p.input + base * itemsize;
    for (int first = threadIdx.x; first < count; first += blockDim.x * GK_CONV_LINE_BATCH) {
        gk_conv_value v[GK_CONV_LINE_BATCH];
#pragma unroll
        for (int b = 0; b < GK_CONV_LINE_BATCH; ++b) {
            const int s = first + b * (int)blockDim.x;
            if (interior) {  // no branch around the load: past the end, the last value again, not stored
                v[b] = gk_conv_load(dtype, compute, input + (start + (s < count ? s : count - 1)) * stride * itemsize);
                continue;
            }
            v[b] = s < count ? gk_conv_line_input(p, base, start + s) : gk_conv_value{0.0, 0.0, 0};
        }
#pragma unroll
        for (int b = 0; b < GK_CONV_LINE_BATCH; ++b) {
            const int s = first + b * (int)blockDim.x;
            if (s < count) gk_conv_stage_put(compute, stage, gk_conv_padded(s), v[b]);
        }
    }
}
__device__ inline void gk_conv_stage_line(const gk_convolution_params& p, double* stage, long long base,
                                          long long start, int count) {
    if (start >= 0 && start + count <= p.in_shape[p.axis])
        gk_conv_stage_line_run(p, stage, base, start, count, true);
    else
        gk_conv_stage_line_run(p, stage, base, start, count, false);
}

// Real sums fit 64 registers for any unrolled tap count (ptxas, sm_90: no spills), so four
// 256-thread blocks share a multiprocessor (68 registers gave three); at 48 (five) they spill.
// The reflecting and wrapping modes, whose 64-bit remainders spill a little at 64, keep three
// (left alone, ptxas took 88 registers for them: two blocks).
#if defined(GK_CONV_TAPS_X) && defined(GK_CONV_COMPUTE) && GK_CONV_COMPUTE == GK_CONV_REAL
#if GK_CONV_MODE == GK_CONV_CONSTANT || GK_CONV_MODE == GK_CONV_NEAREST
#define GK_CONV_LINE_BLOCKS_PER_SM 4
#else
#define GK_CONV_LINE_BLOCKS_PER_SM 3
#endif
#else
#define GK_CONV_LINE_BLOCKS_PER_SM 1
#endif
extern "C" __global__ void __launch_bounds__(GK_CONV_LINE_THREADS, GK_CONV_LINE_BLOCKS_PER_SM)
    gk_convolve_line(const gk_convolution_params p) {
    extern __shared__ double gk_conv_line_stage[];  // gk_conv_padded(GK_CONV_LINE_TILE + taps - 1) values
    const int axis = p.axis, compute = gk_conv_compute(p);
#ifdef GK_CONV_TAPS_X
    const long long taps = GK_CONV_TAPS_X;
#else
    const long long taps = p.weight_shape[axis];
#endif
    const long long n_out = p.out_shape[axis];
    const int out_dtype = gk_conv_out_dtype(p), out_itemsize = gk_dtype_itemsize(out_dtype);
    for (long long work = blockIdx.x; work < p.lines * p.tiles; work += gridDim.x) {
        const long long line = work / p.tiles, first = (work % p.tiles) * GK_CONV_LINE_TILE;
        long long rest = line, in_base = 0, out_base = 0;
        for (int d = p.ndim - 1; d >= 0; --d) {
            if (d == axis) continue;
            const long long c = rest % p.out_shape[d];
            rest /= p.out_shape[d];
            in_base += c * p.in_strides[d];
            out_base += c * p.out_strides[d];
        }
        const long long count = n_out - first < GK_CONV_LINE_TILE ? n_out - first : GK_CONV_LINE_TILE;
        const long long staged = count + taps - 1;
        char* out = (char*)p.out + (out_base + first * p.out_strides[axis]) * out_itemsize;
        __syncthreads();  // the previous work item's reads of the stage are done
        gk_conv_stage_line(p, gk_conv_line_stage, in_base, first + p.offset[axis], (int)staged);
        __syncthreads();
#ifdef GK_CONV_TAPS_X
        const long long j0 = (long long)threadIdx.x * GK_CONV_LINE_PER;
        gk_conv_value sums[GK_CONV_LINE_PER];
        if (j0 < count) {
            gk_conv_value window[GK_CONV_LINE_PER + GK_CONV_TAPS_X - 1];
#pragma unroll
            for (int i = 0; i < GK_CONV_LINE_PER + GK_CONV_TAPS_X - 1; ++i)
                window[i] = j0 + i < staged ? gk_conv_stage_get(compute, gk_conv_line_stage, gk_conv_padded(j0 + i))
                                            : gk_conv_value{0.0, 0.0, 0};
#pragma unroll
            for (int r = 0; r < GK_CONV_LINE_PER; ++r) sums[r] = gk_conv_value{0.0, 0.0, 0};
#pragma unroll
            for (int k = 0; k < GK_CONV_TAPS_X; ++k) {
                const gk_conv_value w = gk_conv_weight(p, k);
#pragma unroll
                for (int r = 0; r < GK_CONV_LINE_PER; ++r) gk_conv_add(compute, sums[r], w, window[r + k]);
            }
        }
        __syncthreads();  // every window is read: the stage takes the sums
        if (j0 < count) {
#pragma unroll
            for (int r = 0; r < GK_CONV_LINE_PER; ++r)
                gk_conv_stage_put(compute, gk_conv_line_stage, gk_conv_padded(j0 + r), gk_conv_finish(p, sums[r]));
        }
        __syncthreads();
        for (long long j = threadIdx.x; j < count; j += blockDim.x)
            gk_conv_store(out_dtype, compute, out + j * p.out_strides[axis] * out_itemsize,
                          gk_conv_stage_get(compute, gk_conv_line_stage, gk_conv_padded(j)));
#else
        for (int r = 0; r < GK_CONV_LINE_PER; ++r) {
            const long long j = threadIdx.x + (long long)r * GK_CONV_LINE_THREADS;
            if (j >= count) break;
            gk_conv_value sum = {0.0, 0.0, 0};
            for (long long k = 0; k < taps; ++k)
                gk_conv_add(compute, sum, gk_conv_weight(p, k),
                            gk_conv_stage_get(compute, gk_conv_line_stage, gk_conv_padded(j + k)));
            gk_conv_store(out_dtype, compute, out + j * p.out_strides[axis] * out_itemsize, gk_conv_finish(p, sum));
        }
#endif
    }
}

// ---- gk_convolve_tile2d: 2-D, a 32x64 output tile staged with its halo in shared memory
// Block work item w: tile w of the image (tiles_x across); a 32x8 block, thread (x, y) the 8
// outputs of column x at rows 8 y to 8 y + 7. With the taps known at compile time, each staged
// column is read once per tap across into a window of 8 + taps_y - 1 registers that serves all 8
// outputs and every tap down; a warp reads 32 consecutive values (no bank conflicts) and writes 32
// consecutive outputs.

// Stages the tile whose first output is (y0, x0): value s of the stage is the input at row s /
// width, column s % width of the tile's window. As gk_conv_stage_line_run: GK_CONV_TILE_BATCH
// loads in flight per thread, and an `interior` tile, whose window lies inside the image (all but
// the edge tiles), reads without the extension's index arithmetic.
__device__ __forceinline__ void gk_conv_stage_tile(const gk_convolution_params& p, double* stage, long long y0,
                                                   long long x0, int width, int height, bool interior) {
    const int compute = gk_conv_compute(p), mode = gk_conv_mode(p), dtype = gk_conv_input_dtype(p);
    const int itemsize = gk_dtype_itemsize(dtype);
    const int thread = threadIdx.y * GK_CONV_TILE_X + threadIdx.x;
    const int threads = GK_CONV_TILE_X * GK_CONV_TILE_THREADS_Y, count = width * height;
    const long long top = y0 + p.offset[0], left = x0 + p.offset[1];
    const char* input = (const char*)p.input;
    for (int first = thread; first < count; first += threads * GK_CONV_TILE_BATCH) {
        gk_conv_value v[GK_CONV_TILE_BATCH];
#pragma unroll
        for (int b = 0; b < GK_CONV_TILE_BATCH; ++b) {
            if (interior) {
                // No branch around the load (a branch would keep the loads from issuing together):
                // past the end, a thread reads the last value again and does not store it.
                const int s = first + b * threads < count ? first + b * threads : count - 1;
                const long long iy = top + s / width, ix = left + s % width;
                v[b] = gk_conv_load(dtype, compute, input + (iy * p.in_strides[0] + ix * p.in_strides[1]) * itemsize);
                continue;
            }
            const int s = first + b * threads;
            v[b] = gk_conv_value{0.0, 0.0, 0};
            if (s >= count) continue;
            const long long iy = gk_conv_extend(top + s / width, p.in_shape[0], mode);
            const long long ix = gk_conv_extend(left + s % width, p.in_shape[1], mode);
            v[b] = iy < 0 || ix < 0
                       ? gk_conv_cval(p)
                       : gk_conv_load(dtype, compute, input + (iy * p.in_strides[0] + ix * p.in_strides[1]) * itemsize);
        }
#pragma unroll
        for (int b = 0; b < GK_CONV_TILE_BATCH; ++b)
            if (first + b * threads < count) gk_conv_stage_put(compute, stage, first + b * threads, v[b]);
    }
}

// Real sums with a short window fit 48 registers (ptxas, sm_90: no spills in the interior path),
// so five 256-thread blocks share a multiprocessor, not four: more tiles' loads in flight.
#if defined(GK_CONV_TAPS_Y) && GK_CONV_TAPS_Y <= 7 && defined(GK_CONV_COMPUTE) && GK_CONV_COMPUTE == GK_CONV_REAL
#define GK_CONV_TILE_BLOCKS_PER_SM 5
#else
#define GK_CONV_TILE_BLOCKS_PER_SM 1
#endif
extern "C" __global__ void __launch_bounds__(GK_CONV_TILE_X* GK_CONV_TILE_THREADS_Y, GK_CONV_TILE_BLOCKS_PER_SM)
    gk_convolve_tile2d(const gk_convolution_params p) {
    extern __shared__ double gk_conv_tile_stage[];  // (64 + taps_y - 1) x (32 + taps_x - 1)
    const int compute = gk_conv_compute(p);
    const int out_itemsize = gk_dtype_itemsize(gk_conv_out_dtype(p));
    const int taps_y = (int)gk_conv_taps_y(p), taps_x = (int)gk_conv_taps_x(p);
    const int width = GK_CONV_TILE_X + taps_x - 1, height = GK_CONV_TILE_Y + taps_y - 1;
    const int per = GK_CONV_TILE_Y / GK_CONV_TILE_THREADS_Y;  // outputs per thread, down its column
    for (long long work = blockIdx.x; work < p.tiles; work += gridDim.x) {
        const long long y0 = (work / p.tiles_x) * GK_CONV_TILE_Y, x0 = (work % p.tiles_x) * GK_CONV_TILE_X;
        const long long top = y0 + p.offset[0], left = x0 + p.offset[1];
        const bool interior = top >= 0 && left >= 0 && top + height <= p.in_shape[0] && left + width <= p.in_shape[1];
        __syncthreads();  // the previous tile's reads of the stage are done
        if (interior)
            gk_conv_stage_tile(p, gk_conv_tile_stage, y0, x0, width, height, true);
        else
            gk_conv_stage_tile(p, gk_conv_tile_stage, y0, x0, width, height, false);
        __syncthreads();
        const long long x = x0 + threadIdx.x, row0 = (long long)threadIdx.y * per;
        if (x >= p.out_shape[1]) continue;
        gk_conv_value sums[GK_CONV_TILE_Y / GK_CONV_TILE_THREADS_Y];
#pragma unroll
        for (int r = 0; r < per; ++r) sums[r] = gk_conv_value{0.0, 0.0, 0};
#if defined(GK_CONV_TAPS_X) && defined(GK_CONV_TAPS_Y)
#pragma unroll
        for (int kx = 0; kx < GK_CONV_TAPS_X; ++kx) {
            gk_conv_value column[GK_CONV_TILE_Y / GK_CONV_TILE_THREADS_Y + GK_CONV_TAPS_Y - 1];
#pragma unroll
            for (int i = 0; i < per + GK_CONV_TAPS_Y - 1; ++i)
                column[i] = gk_conv_stage_get(compute, gk_conv_tile_stage, (row0 + i) * width + threadIdx.x + kx);
#pragma unroll
            for (int ky = 0; ky < GK_CONV_TAPS_Y; ++ky) {
                const gk_conv_value w = gk_conv_weight(p, ky * GK_CONV_TAPS_X + kx);
#pragma unroll
                for (int r = 0; r < per; ++r) gk_conv_add(compute, sums[r], w, column[r + ky]);
            }
        }
#else
        for (long long ky = 0; ky < taps_y; ++ky)
            for (long long kx = 0; kx < taps_x; ++kx) {
                const gk_conv_value w = gk_conv_weight(p, ky * taps_x + kx);
                for (int r = 0; r < per; ++r)
                    gk_conv_add(
                        compute, sums[r], w,
                        gk_conv_stage_get(compute, gk_conv_tile_stage, (row0 + r + ky) * width + threadIdx.x + kx));
            }
#endif
        for (int r = 0; r < per; ++r) {
            const long long y = y0 + row0 + r;
            if (y >= p.out_shape[0]) break;
            gk_conv_store(gk_conv_out_dtype(p), compute,
                          (char*)p.out + (y * p.out_strides[0] + x * p.out_strides[1]) * out_itemsize,
                          gk_conv_finish(p, sums[r]));
        }
    }
}
