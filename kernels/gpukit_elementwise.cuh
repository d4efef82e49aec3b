// kernels/gpukit_elementwise.cuh: what every generated elementwise kernel includes
// (src/ops/elementwise/generator.cpp writes the kernels; this file is embedded in the library and
// handed to the compiler as a header, so the same text reaches NVRTC and the simulator).
//
// - GK_ELEMENTS(i, n): the loop over a kernel's elements. On a GPU, grid-stride order, so that
//   neighbouring threads touch neighbouring elements (coalesced); on the simulator (GK_SIMULATED),
//   each simulated thread takes one contiguous chunk, which a CPU core streams through (measured
//   0.3 ns per element against 10-14 for grid-stride order).
// - Storage types for float16, bfloat16 and complex, with gk_convert<To>(from): half types are
//   computed in float, as NumPy and PyTorch compute them, and rounded to nearest even when stored.
#pragma once

#ifdef GK_INDEX32
typedef int gk_index;
#else
typedef long long gk_index;
#endif

__device__ inline gk_index gk_thread_rank() { return (gk_index)blockIdx.x * blockDim.x + threadIdx.x; }
__device__ inline gk_index gk_thread_count() { return (gk_index)gridDim.x * blockDim.x; }

#ifdef GK_SIMULATED
__device__ inline gk_index gk_chunk(gk_index n) { return (n + gk_thread_count() - 1) / gk_thread_count(); }
__device__ inline gk_index gk_chunk_begin(gk_index n) {
    const gk_index begin = gk_thread_rank() * gk_chunk(n);
    return begin < n ? begin : n;
}
__device__ inline gk_index gk_chunk_end(gk_index n) {
    const gk_index end = (gk_thread_rank() + 1) * gk_chunk(n);
    return end < n ? end : n;
}
#define GK_ELEMENTS(i, n) for (gk_index i = gk_chunk_begin(n), gk_end_##i = gk_chunk_end(n); i < gk_end_##i; ++i)
#else
#define GK_ELEMENTS(i, n) for (gk_index i = gk_thread_rank(); i < (n); i += gk_thread_count())
#endif

// The sum of `value` over the block's threads before this one; *total gets the sum over all of
// them. Every thread of the block calls it; blockDim.x is a multiple of 32, at most 1024; warp_sums
// is shared memory of 32 words (the selections and the radix sort's tiles scan with it).
__device__ inline long long gk_block_exclusive_scan(long long value, long long* total, long long* warp_sums) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    long long inclusive = value;
    for (int d = 1; d < 32; d <<= 1) {
        const long long other = __shfl_up_sync(0xffffffffu, inclusive, d);
        if (lane >= d) inclusive += other;
    }
    if (lane == 31) warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        long long sum = lane < warps ? warp_sums[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            const long long other = __shfl_up_sync(0xffffffffu, sum, d);
            if (lane >= d) sum += other;
        }
        if (lane < warps) warp_sums[lane] = sum;  // inclusive over the warps
    }
    __syncthreads();
    *total = warp_sums[warps - 1];
    const long long before = (warp > 0 ? warp_sums[warp - 1] : 0) + inclusive - value;
    __syncthreads();  // warp_sums is free for the next call
    return before;
}

#ifdef GK_DTYPE_bool_
// Bytes of one element of a dtype given by its number (GK_DTYPE_*, defined by kernels that read
// dtypes from their parameters: the simulator's generic kernels, the histograms, the convolutions).
__device__ inline int gk_dtype_itemsize(int dtype) {
    switch (dtype) {
        case GK_DTYPE_bool_:
        case GK_DTYPE_int8:
        case GK_DTYPE_uint8: return 1;
        case GK_DTYPE_int16:
        case GK_DTYPE_uint16:
        case GK_DTYPE_float16:
        case GK_DTYPE_bfloat16: return 2;
        case GK_DTYPE_int32:
        case GK_DTYPE_uint32:
        case GK_DTYPE_float32: return 4;
        case GK_DTYPE_complex128: return 16;
        default: return 8;
    }
}
#endif

// ---- storage types that C has no arithmetic for
struct gk_float16 {
    unsigned short bits;
};
struct gk_bfloat16 {
    unsigned short bits;
};
template <class T>
struct gk_complex {
    T re, im;
};
template <class T>
__device__ inline gk_complex<T> operator+(gk_complex<T> a, gk_complex<T> b) {
    return {a.re + b.re, a.im + b.im};
}
template <class T>
__device__ inline gk_complex<T> operator-(gk_complex<T> a, gk_complex<T> b) {
    return {a.re - b.re, a.im - b.im};
}
template <class T>
__device__ inline gk_complex<T> operator-(gk_complex<T> a) {
    return {-a.re, -a.im};
}
template <class T>
__device__ inline gk_complex<T> operator*(gk_complex<T> a, gk_complex<T> b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
__device__ inline bool operator==(gk_complex<T> a, gk_complex<T> b) {
    return a.re == b.re && a.im == b.im;
}
template <class T>
__device__ inline bool operator!=(gk_complex<T> a, gk_complex<T> b) {
    return !(a == b);
}
typedef gk_complex<float> gk_complex64;
typedef gk_complex<double> gk_complex128;

__device__ inline unsigned gk_float_bits(float f) {
    union {
        float f;
        unsigned u;
    } v;
    v.f = f;
    return v.u;
}
__device__ inline float gk_bits_float(unsigned u) {
    union {
        float f;
        unsigned u;
    } v;
    v.u = u;
    return v.f;
}

__device__ inline float gk_half_to_float(unsigned short h) {
// On a GPU, the hardware's conversions (the bit code costs float16 kernels half their bandwidth); the
// simulator, whose prelude defines __CUDA_ARCH__ too, keeps the bit code.
#if defined(__CUDA_ARCH__) && !defined(__GPUKIT_SIM__)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    const unsigned sign = (unsigned)(h & 0x8000u) << 16;
    const unsigned exponent = (h >> 10) & 0x1fu;
    const unsigned mantissa = h & 0x3ffu;
    if (exponent == 0x1f) return gk_bits_float(sign | 0x7f800000u | (mantissa << 13));  // inf, nan
    if (exponent == 0) {                                                                // zero, subnormal
        const float magnitude = (float)mantissa * 5.9604644775390625e-8f;               // 2^-24
        return sign ? -magnitude : magnitude;
    }
    return gk_bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
#endif
}

// Round to nearest even, as the hardware's cvt.rn.f16.f32 does.
__device__ inline unsigned short gk_float_to_half(float f) {
#if defined(__CUDA_ARCH__) && !defined(__GPUKIT_SIM__)
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    const unsigned u = gk_float_bits(f);
    const unsigned short sign = (unsigned short)((u >> 16) & 0x8000u);
    const unsigned magnitude = u & 0x7fffffffu;
    if (magnitude >= 0x7f800000u)  // inf stays inf, nan stays a (quiet) nan
        return sign | (magnitude > 0x7f800000u ? 0x7e00u : 0x7c00u);
    if (magnitude >= 0x477ff000u) return sign | 0x7c00u;  // rounds past 65504: inf
    if (magnitude < 0x38800000u) {                        // below 2^-14: subnormal or zero
        if (magnitude < 0x33000000u) return sign;         // below half the smallest subnormal
        const unsigned shift = 126 - (magnitude >> 23);   // 14 to 24
        const unsigned mantissa = (magnitude & 0x7fffffu) | 0x800000u;
        const unsigned kept = mantissa >> shift;
        const unsigned rest = mantissa & ((1u << shift) - 1);
        const unsigned half = 1u << (shift - 1);
        return sign | (unsigned short)(kept + (rest > half || (rest == half && (kept & 1u))));
    }
    const unsigned rebased = magnitude - 0x38000000u;  // exponent 127 -> 15
    const unsigned rounded = rebased + 0xfffu + ((rebased >> 13) & 1u);
    return sign | (unsigned short)(rounded >> 13);
#endif
}

__device__ inline float gk_bfloat16_to_float(unsigned short b) { return gk_bits_float((unsigned)b << 16); }
__device__ inline unsigned short gk_float_to_bfloat16(float f) {
    const unsigned u = gk_float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);  // quiet nan
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// ---- conversions between storage and compute types, as NumPy's astype converts
// (src/array/convert.cpp is the host's twin; tests compare the two on every pair of dtypes).

// A float truncated to an integer as NumPy's casts do on x86-64, its reference platform: through
// the int32 conversion for the narrow types and the int64 one for int64 and uint32, where NaN and
// values out of range give the most negative value; uint64 takes [2^63, 2^64) directly and gives 0
// from 2^64 on (x86's unsigned conversion: 2^63 subtracted, converted, added back). (C leaves
// these undefined and CUDA's conversions saturate, so neither cast may be left to the compiler.)
__device__ inline long long gk_truncate_int64(double x) {
    const double whole = trunc(x);
    if (whole >= -9223372036854775808.0 && whole < 9223372036854775808.0) return (long long)whole;
    return -9223372036854775807LL - 1;
}
__device__ inline int gk_truncate_int32(double x) {
    const double whole = trunc(x);
    if (whole >= -2147483648.0 && whole < 2147483648.0) return (int)whole;
    return -2147483647 - 1;
}
template <class To>
struct gk_from_float {  // to float and double: C's conversion, to nearest
    __device__ static To from(float x) { return (To)x; }
    __device__ static To from(double x) { return (To)x; }
};
#define GK_FROM_FLOAT_THROUGH(type, truncate)                               \
    template <>                                                             \
    struct gk_from_float<type> {                                            \
        __device__ static type from(float x) { return (type)truncate(x); }  \
        __device__ static type from(double x) { return (type)truncate(x); } \
    };
GK_FROM_FLOAT_THROUGH(signed char, gk_truncate_int32)
GK_FROM_FLOAT_THROUGH(short, gk_truncate_int32)
GK_FROM_FLOAT_THROUGH(int, gk_truncate_int32)
GK_FROM_FLOAT_THROUGH(unsigned char, gk_truncate_int32)
GK_FROM_FLOAT_THROUGH(unsigned short, gk_truncate_int32)
GK_FROM_FLOAT_THROUGH(unsigned int, gk_truncate_int64)
GK_FROM_FLOAT_THROUGH(long long, gk_truncate_int64)
#undef GK_FROM_FLOAT_THROUGH
template <>
struct gk_from_float<unsigned long long> {
    __device__ static unsigned long long from(double x) {
        if (x >= 9223372036854775808.0) return x < 18446744073709551616.0 ? (unsigned long long)x : 0ull;
        return (unsigned long long)gk_truncate_int64(x);
    }
    __device__ static unsigned long long from(float x) { return from((double)x); }
};

// A double rounded to float toward zero with the lowest bit set when inexact ("round to odd"):
// rounding that to float16 or bfloat16 (to nearest even) then gives the double's nearest value,
// which rounding to float first would miss at some ties (double rounding). NumPy rounds directly.
__device__ inline float gk_double_to_float_odd(double x) {
    const float nearest = (float)x;
    if ((double)nearest == x || x != x) return nearest;
    unsigned bits = gk_float_bits(nearest);
    if (fabs((double)nearest) > fabs(x)) bits -= 1;  // one step toward zero (bits order magnitudes)
    return gk_bits_float(bits | 1u);
}

template <class To>
struct gk_converter {
    template <class From>
    __device__ static To from(From x) {  // integers and bool
        return (To)x;
    }
    __device__ static To from(float x) { return gk_from_float<To>::from(x); }
    __device__ static To from(double x) { return gk_from_float<To>::from(x); }
    __device__ static To from(gk_float16 x) { return gk_from_float<To>::from(gk_half_to_float(x.bits)); }
    __device__ static To from(gk_bfloat16 x) { return gk_from_float<To>::from(gk_bfloat16_to_float(x.bits)); }
    template <class T>
    __device__ static To from(gk_complex<T> x) {  // the real part, as NumPy's unsafe cast
        return from(x.re);
    }
};
template <>
struct gk_converter<bool> {
    template <class From>
    __device__ static bool from(From x) {
        return x != 0;
    }
    __device__ static bool from(gk_float16 x) { return gk_half_to_float(x.bits) != 0.0f; }
    __device__ static bool from(gk_bfloat16 x) { return gk_bfloat16_to_float(x.bits) != 0.0f; }
    template <class T>
    __device__ static bool from(gk_complex<T> x) {
        return x.re != 0 || x.im != 0;
    }
};
// float16 and bfloat16 from float round once; from double, and from integers (through double,
// exact up to 2^53 as NumPy's), round to odd first so that the result is the nearest one.
template <>
struct gk_converter<gk_float16> {
    template <class From>
    __device__ static gk_float16 from(From x) {
        return from((double)x);
    }
    __device__ static gk_float16 from(float x) { return {gk_float_to_half(x)}; }
    __device__ static gk_float16 from(double x) { return {gk_float_to_half(gk_double_to_float_odd(x))}; }
    __device__ static gk_float16 from(gk_float16 x) { return x; }
    __device__ static gk_float16 from(gk_bfloat16 x) { return from(gk_bfloat16_to_float(x.bits)); }
    template <class T>
    __device__ static gk_float16 from(gk_complex<T> x) {
        return from(x.re);
    }
};
template <>
struct gk_converter<gk_bfloat16> {
    template <class From>
    __device__ static gk_bfloat16 from(From x) {
        return from((double)x);
    }
    __device__ static gk_bfloat16 from(float x) { return {gk_float_to_bfloat16(x)}; }
    __device__ static gk_bfloat16 from(double x) { return {gk_float_to_bfloat16(gk_double_to_float_odd(x))}; }
    __device__ static gk_bfloat16 from(gk_bfloat16 x) { return x; }
    __device__ static gk_bfloat16 from(gk_float16 x) { return from(gk_half_to_float(x.bits)); }
    template <class T>
    __device__ static gk_bfloat16 from(gk_complex<T> x) {
        return from(x.re);
    }
};
template <class T>
struct gk_converter<gk_complex<T> > {
    template <class From>
    __device__ static gk_complex<T> from(From x) {
        return {gk_converter<T>::from(x), (T)0};
    }
    template <class U>
    __device__ static gk_complex<T> from(gk_complex<U> x) {
        return {(T)x.re, (T)x.im};
    }
};
template <class To, class From>
__device__ inline To gk_convert(From x) {
    return gk_converter<To>::from(x);
}

// A fixed group of elements, loaded and stored as one access (16 bytes for the widest operand of a
// kernel, 8 or 4 for narrower ones beside it: float32 -> float16 moves 16 bytes in, 8 out).
template <class T, int W>
struct __align__(sizeof(T) * W) gk_vector {
    T v[W];
};

// Kernel parameters: every operand's address, the collapsed shape and each operand's byte strides.
// The launcher (src/ops/elementwise/launch.cpp) fills the same struct.
#define GK_MAX_OPERANDS 8
#define GK_MAX_DIMS 8
struct gk_params {
    unsigned long long address[GK_MAX_OPERANDS];
    long long shape[GK_MAX_DIMS];
    long long strides[GK_MAX_OPERANDS][GK_MAX_DIMS];
    long long size;
    // Scalar operands travel here, not in memory: one element of the loop's dtype each.
    unsigned long long immediate[GK_MAX_OPERANDS][2];
    // What the simulator's generic kernels decide at run time (generated GPU kernels have it in
    // their text): each operand's dtype in memory (DType's number), whether it is a scalar here,
    // the number of dimensions, whether every operand is contiguous in its loop dtype (the fast
    // path), and whether the operand after the outputs is a bool mask (where=).
    unsigned char storage[GK_MAX_OPERANDS];
    unsigned char is_immediate[GK_MAX_OPERANDS];
    int ndim;
    int flat;
    int masked;
    int tiled;  // two dimensions, input tiled - 1 transposed: rows in tiles (the simulator's generic kernels)
};

#ifdef GK_SIMULATED
// Loads and stores through a dtype known at run time (the simulator's generic kernels, one per
// loop for any layout and storage dtype: one compile serves every layout). GK_DTYPE_<name> are
// DType's numbers, defined by the generated source.
template <class C>
__device__ inline C gk_load(int storage, const void* p) {
    switch (storage) {
        case GK_DTYPE_bool_: return gk_convert<C>(*(const bool*)p);
        case GK_DTYPE_int8: return gk_convert<C>(*(const signed char*)p);
        case GK_DTYPE_int16: return gk_convert<C>(*(const short*)p);
        case GK_DTYPE_int32: return gk_convert<C>(*(const int*)p);
        case GK_DTYPE_int64: return gk_convert<C>(*(const long long*)p);
        case GK_DTYPE_uint8: return gk_convert<C>(*(const unsigned char*)p);
        case GK_DTYPE_uint16: return gk_convert<C>(*(const unsigned short*)p);
        case GK_DTYPE_uint32: return gk_convert<C>(*(const unsigned int*)p);
        case GK_DTYPE_uint64: return gk_convert<C>(*(const unsigned long long*)p);
        case GK_DTYPE_float16: return gk_convert<C>(*(const gk_float16*)p);
        case GK_DTYPE_bfloat16: return gk_convert<C>(*(const gk_bfloat16*)p);
        case GK_DTYPE_float32: return gk_convert<C>(*(const float*)p);
        case GK_DTYPE_float64: return gk_convert<C>(*(const double*)p);
        case GK_DTYPE_complex64: return gk_convert<C>(*(const gk_complex64*)p);
        default: return gk_convert<C>(*(const gk_complex128*)p);
    }
}
template <class C>
__device__ inline void gk_store(int storage, void* p, C v) {
    switch (storage) {
        case GK_DTYPE_bool_: *(bool*)p = gk_convert<bool>(v); break;
        case GK_DTYPE_int8: *(signed char*)p = gk_convert<signed char>(v); break;
        case GK_DTYPE_int16: *(short*)p = gk_convert<short>(v); break;
        case GK_DTYPE_int32: *(int*)p = gk_convert<int>(v); break;
        case GK_DTYPE_int64: *(long long*)p = gk_convert<long long>(v); break;
        case GK_DTYPE_uint8: *(unsigned char*)p = gk_convert<unsigned char>(v); break;
        case GK_DTYPE_uint16: *(unsigned short*)p = gk_convert<unsigned short>(v); break;
        case GK_DTYPE_uint32: *(unsigned int*)p = gk_convert<unsigned int>(v); break;
        case GK_DTYPE_uint64: *(unsigned long long*)p = gk_convert<unsigned long long>(v); break;
        case GK_DTYPE_float16: *(gk_float16*)p = gk_convert<gk_float16>(v); break;
        case GK_DTYPE_bfloat16: *(gk_bfloat16*)p = gk_convert<gk_bfloat16>(v); break;
        case GK_DTYPE_float32: *(float*)p = gk_convert<float>(v); break;
        case GK_DTYPE_float64: *(double*)p = gk_convert<double>(v); break;
        case GK_DTYPE_complex64: *(gk_complex64*)p = gk_convert<gk_complex64>(v); break;
        default: *(gk_complex128*)p = gk_convert<gk_complex128>(v); break;
    }
}
#endif

// ---- real functions, one name for float and double (float16 and bfloat16 compute in float)
#define GK_REAL_FUNCTION_1(name, float_function, double_function)       \
    __device__ inline float name(float x) { return float_function(x); } \
    __device__ inline double name(double x) { return double_function(x); }
#define GK_REAL_FUNCTION_2(name, float_function, double_function)                   \
    __device__ inline float name(float x, float y) { return float_function(x, y); } \
    __device__ inline double name(double x, double y) { return double_function(x, y); }
GK_REAL_FUNCTION_1(gk_fabs, fabsf, fabs)
GK_REAL_FUNCTION_1(gk_sqrt, sqrtf, sqrt)
GK_REAL_FUNCTION_1(gk_cbrt, cbrtf, cbrt)
GK_REAL_FUNCTION_1(gk_exp, expf, exp)
GK_REAL_FUNCTION_1(gk_exp2, exp2f, exp2)
GK_REAL_FUNCTION_1(gk_expm1, expm1f, expm1)
GK_REAL_FUNCTION_1(gk_log, logf, log)
GK_REAL_FUNCTION_1(gk_log2, log2f, log2)
GK_REAL_FUNCTION_1(gk_log10, log10f, log10)
GK_REAL_FUNCTION_1(gk_log1p, log1pf, log1p)
GK_REAL_FUNCTION_1(gk_sin, sinf, sin)
GK_REAL_FUNCTION_1(gk_cos, cosf, cos)
GK_REAL_FUNCTION_1(gk_tan, tanf, tan)
GK_REAL_FUNCTION_1(gk_asin, asinf, asin)
GK_REAL_FUNCTION_1(gk_acos, acosf, acos)
GK_REAL_FUNCTION_1(gk_atan, atanf, atan)
GK_REAL_FUNCTION_1(gk_sinh, sinhf, sinh)
GK_REAL_FUNCTION_1(gk_cosh, coshf, cosh)
GK_REAL_FUNCTION_1(gk_tanh, tanhf, tanh)
GK_REAL_FUNCTION_1(gk_asinh, asinhf, asinh)
GK_REAL_FUNCTION_1(gk_acosh, acoshf, acosh)
GK_REAL_FUNCTION_1(gk_atanh, atanhf, atanh)
GK_REAL_FUNCTION_1(gk_floor, floorf, floor)
GK_REAL_FUNCTION_1(gk_ceil, ceilf, ceil)
GK_REAL_FUNCTION_1(gk_trunc, truncf, trunc)
GK_REAL_FUNCTION_1(gk_rint, rintf, rint)  // to nearest, ties to even: the default rounding mode
GK_REAL_FUNCTION_2(gk_fmod, fmodf, fmod)
GK_REAL_FUNCTION_2(gk_pow, powf, pow)
GK_REAL_FUNCTION_2(gk_atan2, atan2f, atan2)
GK_REAL_FUNCTION_2(gk_hypot, hypotf, hypot)
GK_REAL_FUNCTION_2(gk_copysign, copysignf, copysign)
GK_REAL_FUNCTION_2(gk_fmax, fmaxf, fmax)  // a nan on one side gives the other side
GK_REAL_FUNCTION_2(gk_fmin, fminf, fmin)
#undef GK_REAL_FUNCTION_1
#undef GK_REAL_FUNCTION_2
__device__ inline float gk_ldexp(float x, int e) { return ldexpf(x, e); }
__device__ inline double gk_ldexp(double x, int e) { return ldexp(x, e); }
__device__ inline float gk_frexp_(float x, int* e) { return frexpf(x, e); }
__device__ inline double gk_frexp_(double x, int* e) { return frexp(x, e); }
__device__ inline float gk_modf_(float x, float* i) { return modff(x, i); }
__device__ inline double gk_modf_(double x, double* i) { return modf(x, i); }

// Constants of a floating type, from their bits (no <float.h> or HUGE_VAL under NVRTC).
__device__ inline unsigned long long gk_double_bits(double d) {
    union {
        double d;
        unsigned long long u;
    } v;
    v.d = d;
    return v.u;
}
__device__ inline double gk_bits_double(unsigned long long u) {
    union {
        double d;
        unsigned long long u;
    } v;
    v.u = u;
    return v.d;
}
template <class T>
struct gk_limits;
template <>
struct gk_limits<float> {
    __device__ static float infinity() { return gk_bits_float(0x7f800000u); }
    __device__ static float nan() { return gk_bits_float(0x7fc00000u); }
    __device__ static float max() { return gk_bits_float(0x7f7fffffu); }
    __device__ static float min_normal() { return gk_bits_float(0x00800000u); }
    __device__ static float epsilon() { return gk_bits_float(0x34000000u); }  // 2^-23
    __device__ static float max_log() { return 88.72283f; }                   // exp overflows above
    static const int digits = 24;
};
template <>
struct gk_limits<double> {
    __device__ static double infinity() { return gk_bits_double(0x7ff0000000000000ull); }
    __device__ static double nan() { return gk_bits_double(0x7ff8000000000000ull); }
    __device__ static double max() { return gk_bits_double(0x7fefffffffffffffull); }
    __device__ static double min_normal() { return gk_bits_double(0x0010000000000000ull); }
    __device__ static double epsilon() { return gk_bits_double(0x3cb0000000000000ull); }  // 2^-52
    __device__ static double max_log() { return 709.782712893384; }
    static const int digits = 53;
};

template <class T>
__device__ inline bool gk_isnan(T x) {
    return x != x;
}
template <class T>
__device__ inline bool gk_isinf(T x) {
    return gk_fabs(x) == gk_limits<T>::infinity();
}
template <class T>
__device__ inline bool gk_isfinite(T x) {
    return gk_fabs(x) <= gk_limits<T>::max();
}
template <class T>
__device__ inline bool gk_signbit(T x) {  // true for -0.0 and for a nan with its sign bit set
    return gk_copysign((T)1, x) < 0;
}
// A truth value, as NumPy's logical functions and casts to bool take it: nonzero (nan included).
template <class T>
__device__ inline bool gk_truth(T x) {
    return x != 0;
}

// ---- integer arithmetic as NumPy defines it, for the ufunc table (src/ops/ufuncs.def)

// Integer +, -, * and unary - wrap modulo 2^bits as NumPy's do. Signed overflow is undefined in C,
// and unsigned short * unsigned short overflows the int it promotes to, so every integer type
// computes in the unsigned type at least as wide as int, and the result converts back (modular).
template <class T>
struct gk_unsigned {
    typedef unsigned type;
};
template <>
struct gk_unsigned<long long> {
    typedef unsigned long long type;
};
template <>
struct gk_unsigned<unsigned long long> {
    typedef unsigned long long type;
};
template <class T>
__device__ inline T gk_wrap_add(T a, T b) {
    typedef typename gk_unsigned<T>::type U;
    return (T)((U)a + (U)b);
}
template <class T>
__device__ inline T gk_wrap_subtract(T a, T b) {
    typedef typename gk_unsigned<T>::type U;
    return (T)((U)a - (U)b);
}
template <class T>
__device__ inline T gk_wrap_multiply(T a, T b) {
    typedef typename gk_unsigned<T>::type U;
    return (T)((U)a * (U)b);
}
template <class T>
__device__ inline T gk_wrap_negative(T a) {
    typedef typename gk_unsigned<T>::type U;
    return (T)((U)0 - (U)a);
}
template <class T>
__device__ inline T gk_wrap_absolute(T a) {  // abs(min) is min, as NumPy's
    return a < 0 ? gk_wrap_negative(a) : a;
}
template <class T>
__device__ inline bool gk_is_negative(T a) {  // without "comparison is always false" for unsigned T
    return a < (T)0 && (T)-1 < (T)0;
}

// Integer // and %: rounded toward minus infinity, the remainder takes the divisor's sign; a zero
// divisor gives 0 (NumPy 2 warns on the host; a kernel has no warning to give), min // -1 wraps.
template <class T>
__device__ inline T gk_int_floor_divide(T a, T b) {
    if (b == 0) return 0;
    if (b == (T)-1 && (T)-1 < 0) return gk_wrap_negative(a);
    const T q = (T)(a / b);
    return (a % b != 0 && ((a < 0) != (b < 0))) ? (T)(q - 1) : q;
}
template <class T>
__device__ inline T gk_int_remainder(T a, T b) {
    if (b == 0 || (b == (T)-1 && (T)-1 < 0)) return 0;
    const T r = (T)(a % b);
    return (r != 0 && ((r < 0) != (b < 0))) ? (T)(r + b) : r;
}
// C's %: the sign of the dividend; by 0 gives 0, min % -1 gives 0 (C leaves both undefined).
template <class T>
__device__ inline T gk_int_fmod(T a, T b) {
    if (b == 0 || (b == (T)-1 && (T)-1 < 0)) return 0;
    return (T)(a % b);
}

// Exponentiation by squaring, wrapping as NumPy's. NumPy raises ValueError for a negative
// exponent; a kernel cannot, so it gives what CuPy gives: 1 ** n = 1, (-1) ** n = +-1, else 0.
template <class T>
__device__ inline T gk_int_power(T base, T exponent) {
    typedef typename gk_unsigned<T>::type U;
    if (gk_is_negative(exponent)) return base == 1 ? (T)1 : base == (T)-1 ? (T)((exponent & 1) ? -1 : 1) : (T)0;
    U result = 1, square = (U)base, e = (U)exponent;
    while (e != 0) {
        if (e & 1u) result *= square;
        square *= square;
        e >>= 1;
    }
    return (T)result;
}

// Shifts as NumPy's: a count at or past the width (or negative) shifts every bit out, giving 0,
// or -1 for a negative number shifted right.
template <class T>
__device__ inline T gk_left_shift(T a, T count) {
    typedef typename gk_unsigned<T>::type U;
    if ((unsigned long long)count >= 8 * sizeof(T)) return 0;
    return (T)((U)a << count);
}
template <class T>
__device__ inline T gk_right_shift(T a, T count) {
    if ((unsigned long long)count >= 8 * sizeof(T)) return gk_is_negative(a) ? (T)-1 : (T)0;
    return (T)(a >> count);
}

// gcd of the magnitudes (as unsigned: gcd(min, 0) wraps to min, as NumPy's); lcm = |a / gcd * b|.
template <class T>
__device__ inline typename gk_unsigned<T>::type gk_magnitude(T a) {
    typedef typename gk_unsigned<T>::type U;
    return gk_is_negative(a) ? (U)0 - (U)a : (U)a;
}
template <class T>
__device__ inline T gk_gcd(T a, T b) {
    typename gk_unsigned<T>::type x = gk_magnitude(a), y = gk_magnitude(b);
    while (y != 0) {
        const typename gk_unsigned<T>::type r = x % y;
        x = y;
        y = r;
    }
    return (T)x;
}
template <class T>
__device__ inline T gk_lcm(T a, T b) {
    const typename gk_unsigned<T>::type g = gk_magnitude(gk_gcd(a, b));
    return g == 0 ? (T)0 : (T)(gk_magnitude(a) / g * gk_magnitude(b));
}

// 1 / x in the integer type (0 for |x| > 1). NumPy computes 1.0 / x and converts, which leaves
// 1 / 0 to the platform; it gives 0 here, as CuPy's.
template <class T>
__device__ inline T gk_int_reciprocal(T x) {
    return x == 0 ? (T)0 : (T)(1 / x);
}

// ---- floating arithmetic as NumPy defines it

// Floating // and %, as Python's float divmod: fmod, then moved to the divisor's sign.
template <class T>
__device__ inline T gk_float_remainder(T a, T b) {
    if (b == 0) return gk_fmod(a, b);  // nan
    T mod = gk_fmod(a, b);
    if (mod != 0) {
        if ((b < 0) != (mod < 0)) mod += b;
    } else {
        mod = gk_copysign((T)0, b);
    }
    return mod;
}
template <class T>
__device__ inline T gk_float_floor_divide(T a, T b) {
    if (b == 0) return a / b;  // inf or nan
    T mod = gk_fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= (T)1;
    if (div == 0) return gk_copysign((T)0, a / b);
    T floordiv = gk_floor(div);
    if (div - floordiv > (T)0.5) floordiv += (T)1;
    return floordiv;
}

// sign: -1, 0 or 1; nan stays nan. heaviside: 0 below zero, h0 at zero, 1 above, nan stays nan.
template <class T>
__device__ inline T gk_sign(T x) {
    return x > 0 ? (T)1 : x < 0 ? (T)-1 : x == 0 ? (T)0 : x;
}
template <class T>
__device__ inline T gk_heaviside(T x, T h0) {
    return x < 0 ? (T)0 : x > 0 ? (T)1 : x == 0 ? h0 : x;
}

// log(exp(a) + exp(b)) and log2(2^a + 2^b) as NumPy computes them: the larger term factored out,
// so neither exponential overflows; equal arguments (infinities of one sign too) add log(2) or 1.
template <class T>
__device__ inline T gk_logaddexp(T a, T b) {
    if (a == b) return a + (T)0.693147180559945309417232121458176568;  // log(2)
    const T difference = a - b;
    if (difference > 0) return a + gk_log1p(gk_exp(-difference));
    if (difference <= 0) return b + gk_log1p(gk_exp(difference));
    return difference;  // nan
}
template <class T>
__device__ inline T gk_logaddexp2(T a, T b) {
    if (a == b) return a + (T)1;
    const T difference = a - b;
    const T log2e = (T)1.442695040888963407359924681001892137;
    if (difference > 0) return a + log2e * gk_log1p(gk_exp2(-difference));
    if (difference <= 0) return b + log2e * gk_log1p(gk_exp2(difference));
    return difference;  // nan
}

// Degrees and radians by NumPy's constants: pi/180 and 180/pi computed in the type (in float from
// pi rounded to float, 180/pi is 57.2957764f, not 57.2957802f, the nearest float to 180/pi).
__device__ inline float gk_deg2rad(float x) { return x * (3.14159265358979323846f / 180.0f); }
__device__ inline double gk_deg2rad(double x) { return x * (3.14159265358979323846 / 180.0); }
__device__ inline float gk_rad2deg(float x) { return x * (180.0f / 3.14159265358979323846f); }
__device__ inline double gk_rad2deg(double x) { return x * (180.0 / 3.14159265358979323846); }

// ldexp with an int64 exponent clamps it to int's range, as NumPy's 'fl' loops do.
template <class T>
__device__ inline T gk_ldexp(T x, long long e) {
    return gk_ldexp(x, (int)(e > 2147483647ll ? 2147483647ll : e < -2147483647ll - 1 ? -2147483647ll - 1 : e));
}
// frexp of inf or nan gives exponent 0, as NumPy's (C leaves it unspecified).
template <class T>
__device__ inline T gk_frexp(T x, int* exponent) {
    *exponent = 0;
    if (!gk_isfinite(x)) return x;
    return gk_frexp_(x, exponent);
}
template <class T>
__device__ inline T gk_modf(T x, T* integral) {
    return gk_modf_(x, integral);
}

// nextafter in the precision of the loop's type: float16 and bfloat16 are computed in float, so
// the step is taken on their own bits (`tag` names the loop's storage type).
__device__ inline float gk_nextafter(float x, float y, const float*) { return nextafterf(x, y); }
__device__ inline double gk_nextafter(double x, double y, const double*) { return nextafter(x, y); }
template <class Narrow>
__device__ inline float gk_narrow_nextafter(float x, float y) {
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    Narrow n = gk_convert<Narrow>(x);
    if (x == 0) {
        n.bits = 1;  // the smallest subnormal, toward y
        return y > 0 ? gk_convert<float>(n) : -gk_convert<float>(n);
    }
    if ((x < y) == (x > 0))
        ++n.bits;  // away from zero
    else
        --n.bits;
    return gk_convert<float>(n);
}
__device__ inline float gk_nextafter(float x, float y, const gk_float16*) {
    return gk_narrow_nextafter<gk_float16>(x, y);
}
__device__ inline float gk_nextafter(float x, float y, const gk_bfloat16*) {
    return gk_narrow_nextafter<gk_bfloat16>(x, y);
}
// x rounded to the loop's type and back (round() rounds each step as NumPy's float16 does).
__device__ inline float gk_round_to(float x, const float*) { return x; }
__device__ inline double gk_round_to(double x, const double*) { return x; }
__device__ inline float gk_round_to(float x, const gk_float16*) { return gk_convert<float>(gk_convert<gk_float16>(x)); }
__device__ inline float gk_round_to(float x, const gk_bfloat16*) {
    return gk_convert<float>(gk_convert<gk_bfloat16>(x));
}

// spacing: the distance from x to its neighbour, found on x's own bits so that it is exact on every
// backend (the difference of two neighbours is a power of two, so the subtraction does not round).
// Each type follows its reference's definition: float32 and float64 step away from zero, a zero of
// either sign to the smallest positive subnormal; NumPy's float16 steps toward +inf; bfloat16 (ml_dtypes)
// steps away from zero and keeps the sign of a zero. Infinities and nan give nan.
__device__ inline float gk_spacing(float x, const float*) {
    if (!gk_isfinite(x)) return gk_limits<float>::nan();
    const unsigned bits = gk_float_bits(x);
    if ((bits & 0x7fffffffu) == 0) return gk_bits_float(1u);
    return gk_bits_float(bits + 1u) - x;
}
__device__ inline double gk_spacing(double x, const double*) {
    if (!gk_isfinite(x)) return gk_limits<double>::nan();
    const unsigned long long bits = gk_double_bits(x);
    if ((bits & 0x7fffffffffffffffull) == 0) return gk_bits_double(1ull);
    return gk_bits_double(bits + 1ull) - x;
}
__device__ inline float gk_spacing(float x, const gk_float16*) {
    if (!gk_isfinite(x)) return gk_limits<float>::nan();
    gk_float16 up = gk_convert<gk_float16>(x);
    if ((up.bits & 0x7fffu) == 0)
        up.bits = 1;  // the smallest subnormal
    else if (up.bits & 0x8000u)
        --up.bits;  // a negative number's neighbour toward +inf is nearer zero
    else
        ++up.bits;  // 65504 steps to inf, as NumPy's
    return gk_convert<float>(up) - x;
}
__device__ inline float gk_spacing(float x, const gk_bfloat16*) {
    if (!gk_isfinite(x)) return gk_limits<float>::nan();
    gk_bfloat16 away = gk_convert<gk_bfloat16>(x);
    ++away.bits;  // -0 steps to the negative smallest subnormal
    return gk_convert<float>(away) - x;
}

// bitwise_count: the one bits of |x| (NumPy 2 counts a negative number's magnitude), by halving
// sums of neighbouring bit fields (no popcount intrinsic on the simulator's C++).
__device__ inline unsigned char gk_popcount64(unsigned long long v) {
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned char)((v * 0x0101010101010101ull) >> 56);
}
template <class T>
__device__ inline unsigned char gk_bitwise_count(T x) {
    // The magnitude in 64 bits: |min| is 2^(width-1), one bit.
    const unsigned long long wide = (unsigned long long)(long long)x;
    const bool negative = (T)-1 < (T)0 && (wide >> 63) != 0;
    return gk_popcount64(negative ? 0ull - wide : wide);
}

// ---- comparisons; int64 against uint64 exactly (NumPy 2's 'qQ' and 'Qq' loops), and complex
// numbers in lexicographic order (real parts, then imaginary), as NumPy orders them
template <class A, class B>
__device__ inline bool gk_equal(A a, B b) {
    return a == b;
}
__device__ inline bool gk_equal(long long a, unsigned long long b) { return a >= 0 && (unsigned long long)a == b; }
__device__ inline bool gk_equal(unsigned long long a, long long b) { return gk_equal(b, a); }
template <class A, class B>
__device__ inline bool gk_less(A a, B b) {
    return a < b;
}
__device__ inline bool gk_less(long long a, unsigned long long b) { return a < 0 || (unsigned long long)a < b; }
__device__ inline bool gk_less(unsigned long long a, long long b) { return b >= 0 && a < (unsigned long long)b; }
template <class A, class B>
__device__ inline bool gk_less_equal(A a, B b) {
    return a <= b;
}
__device__ inline bool gk_less_equal(long long a, unsigned long long b) { return a < 0 || (unsigned long long)a <= b; }
__device__ inline bool gk_less_equal(unsigned long long a, long long b) { return b >= 0 && a <= (unsigned long long)b; }
template <class T>
__device__ inline bool gk_equal(gk_complex<T> a, gk_complex<T> b) {
    return a.re == b.re && a.im == b.im;
}
template <class T>
__device__ inline bool gk_less(gk_complex<T> a, gk_complex<T> b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
template <class T>
__device__ inline bool gk_less_equal(gk_complex<T> a, gk_complex<T> b) {
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}
template <class A, class B>
__device__ inline bool gk_not_equal(A a, B b) {
    return !gk_equal(a, b);
}
template <class A, class B>
__device__ inline bool gk_greater(A a, B b) {
    return gk_less(b, a);
}
template <class A, class B>
__device__ inline bool gk_greater_equal(A a, B b) {
    return gk_less_equal(b, a);
}

// maximum and minimum propagate a nan from either side (NumPy's; fmax/fmin drop it). Complex
// numbers compare in lexicographic order; one with a nan part is a nan.
template <class T>
__device__ inline T gk_maximum(T a, T b) {
    return (a >= b || a != a) ? a : b;
}
template <class T>
__device__ inline T gk_minimum(T a, T b) {
    return (a <= b || a != a) ? a : b;
}
template <class T>
__device__ inline bool gk_has_nan(gk_complex<T> a) {
    return a.re != a.re || a.im != a.im;
}
template <class T>
__device__ inline gk_complex<T> gk_maximum(gk_complex<T> a, gk_complex<T> b) {
    return (gk_has_nan(a) || gk_less_equal(b, a)) ? a : b;
}
template <class T>
__device__ inline gk_complex<T> gk_minimum(gk_complex<T> a, gk_complex<T> b) {
    return (gk_has_nan(a) || gk_less_equal(a, b)) ? a : b;
}
template <class T>
__device__ inline gk_complex<T> gk_fmax(gk_complex<T> a, gk_complex<T> b) {
    return (gk_has_nan(b) || gk_less_equal(b, a)) ? a : b;
}
template <class T>
__device__ inline gk_complex<T> gk_fmin(gk_complex<T> a, gk_complex<T> b) {
    return (gk_has_nan(b) || gk_less_equal(a, b)) ? a : b;
}
template <class T>
__device__ inline T gk_fmax(T a, T b) {  // integers
    return a >= b ? a : b;
}
template <class T>
__device__ inline T gk_fmin(T a, T b) {
    return a <= b ? a : b;
}

// Complex division, Smith's method (no overflow for large parts).
template <class T>
__device__ inline gk_complex<T> operator/(gk_complex<T> a, gk_complex<T> b) {
    const T abs_re = b.re < 0 ? -b.re : b.re;
    const T abs_im = b.im < 0 ? -b.im : b.im;
    if (abs_re >= abs_im) {
        if (abs_re == 0 && abs_im == 0) return {a.re / abs_re, a.im / abs_im};
        const T ratio = b.im / b.re;
        const T denominator = b.re + b.im * ratio;
        return {(a.re + a.im * ratio) / denominator, (a.im - a.re * ratio) / denominator};
    }
    const T ratio = b.re / b.im;
    const T denominator = b.re * ratio + b.im;
    return {(a.re * ratio + a.im) / denominator, (a.im * ratio - a.re) / denominator};
}

// ---- complex functions, with C99's (Annex G) branch cuts and special values, as NumPy's (which
// calls the C library's csqrt, clog, cexp, ...). Real helpers work on T = float or double.
template <class T>
__device__ inline gk_complex<T> gk_complex_of(T re, T im) {
    gk_complex<T> z;
    z.re = re;
    z.im = im;
    return z;
}
template <class T>
__device__ inline gk_complex<T> gk_times_i(gk_complex<T> z) {  // i z
    return gk_complex_of(-z.im, z.re);
}
template <class T>
__device__ inline gk_complex<T> gk_times_minus_i(gk_complex<T> z) {  // -i z
    return gk_complex_of(z.im, -z.re);
}
template <class T>
__device__ inline gk_complex<T> gk_conj(gk_complex<T> z) {
    return gk_complex_of(z.re, -z.im);
}
template <class T>
__device__ inline T gk_conj(T x) {
    return x;
}
template <class T>
__device__ inline bool gk_truth(gk_complex<T> z) {
    return z.re != 0 || z.im != 0;
}
template <class T>
__device__ inline bool gk_isnan(gk_complex<T> z) {
    return gk_isnan(z.re) || gk_isnan(z.im);
}
template <class T>
__device__ inline bool gk_isinf(gk_complex<T> z) {
    return gk_isinf(z.re) || gk_isinf(z.im);
}
template <class T>
__device__ inline bool gk_isfinite(gk_complex<T> z) {
    return gk_isfinite(z.re) && gk_isfinite(z.im);
}
template <class T>
__device__ inline T gk_fabs(gk_complex<T> z) {
    return gk_hypot(z.re, z.im);
}
template <class T>
__device__ inline T gk_angle(gk_complex<T> z) {
    return gk_atan2(z.im, z.re);
}
template <class T>
__device__ inline T gk_angle(T x) {
    return gk_atan2((T)0, x);
}
template <class T>
__device__ inline gk_complex<T> gk_rint(gk_complex<T> z) {
    return gk_complex_of(gk_rint(z.re), gk_rint(z.im));
}
template <class T>
__device__ inline T gk_ln2() {
    return (T)0.693147180559945309417232121458176568;
}

// NumPy 2's sign of a complex number: z / |z|; 0 at 0; an infinite part gives +-1 on its axis.
template <class T>
__device__ inline gk_complex<T> gk_sign(gk_complex<T> z) {
    const T magnitude = gk_hypot(z.re, z.im);
    if (gk_isnan(magnitude)) return gk_complex_of(gk_limits<T>::nan(), gk_limits<T>::nan());
    if (gk_isinf(magnitude)) {
        if (gk_isinf(z.re)) {
            if (gk_isinf(z.im)) return gk_complex_of(gk_limits<T>::nan(), gk_limits<T>::nan());
            return gk_complex_of(z.re > 0 ? (T)1 : (T)-1, (T)0);
        }
        return gk_complex_of((T)0, z.im > 0 ? (T)1 : (T)-1);
    }
    if (magnitude == 0) return gk_complex_of((T)0, (T)0);
    return gk_complex_of(z.re / magnitude, z.im / magnitude);
}

// 1 / z by Smith's method, as NumPy's reciprocal (1 / 0 is nan + nan i there, and here).
template <class T>
__device__ inline gk_complex<T> gk_reciprocal(gk_complex<T> z) {
    if (gk_fabs(z.im) <= gk_fabs(z.re)) {
        const T r = z.im / z.re;
        const T d = z.re + z.im * r;
        return gk_complex_of((T)1 / d, -r / d);
    }
    const T r = z.re / z.im;
    const T d = z.re * r + z.im;
    return gk_complex_of(r / d, (T)-1 / d);
}

// exp(x) cos(y) and exp(x) sin(y) where exp(x) alone would overflow: exp(x/2) twice.
template <class T>
__device__ inline gk_complex<T> gk_scaled_exp(T x, T c, T s) {
    const T half = gk_exp(x * (T)0.5);
    return gk_complex_of(half * c * half, half * s * half);
}
template <class T>
__device__ inline gk_complex<T> gk_exp(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (y == 0) return gk_complex_of(gk_exp(x), y);  // exp(x + 0i) = exp(x) + 0i, x nan too
    if (!gk_isfinite(y)) {
        if (gk_isinf(x)) return x > 0 ? gk_complex_of(x, y - y) : gk_complex_of((T)0, (T)0);
        return gk_complex_of(gk_limits<T>::nan(), gk_limits<T>::nan());
    }
    if (gk_isnan(x)) return gk_complex_of(x, gk_limits<T>::nan());
    const T c = gk_cos(y), s = gk_sin(y);
    if (x > gk_limits<T>::max_log() && gk_isfinite(x)) return gk_scaled_exp(x, c, s);
    const T e = gk_exp(x);
    return gk_complex_of(e * c, e * s);
}

// log|z| without overflow or underflow on the way, and with log1p where |z| is near 1 (the
// algorithm of CPython's cmath.log).
template <class T>
__device__ inline T gk_log_abs(T x, T y) {
    const T ax = gk_fabs(x), ay = gk_fabs(y);
    if (ax > gk_limits<T>::max() / 4 || ay > gk_limits<T>::max() / 4)
        return gk_log(gk_hypot(ax / 2, ay / 2)) + gk_ln2<T>();
    if (ax < gk_limits<T>::min_normal() && ay < gk_limits<T>::min_normal()) {
        if (ax == 0 && ay == 0) return -gk_limits<T>::infinity();
        const int digits = gk_limits<T>::digits;
        return gk_log(gk_hypot(gk_ldexp(ax, digits), gk_ldexp(ay, digits))) - (T)digits * gk_ln2<T>();
    }
    const T h = gk_hypot(ax, ay);
    if ((T)0.71 <= h && h <= (T)1.73) {
        const T larger = ax > ay ? ax : ay, smaller = ax > ay ? ay : ax;
        return gk_log1p((larger - 1) * (larger + 1) + smaller * smaller) / 2;
    }
    return gk_log(h);
}
template <class T>
__device__ inline gk_complex<T> gk_log(gk_complex<T> z) {
    return gk_complex_of(gk_log_abs(z.re, z.im), gk_atan2(z.im, z.re));
}
template <class T>
__device__ inline gk_complex<T> gk_log2(gk_complex<T> z) {  // log(z) / log(2), as NumPy's
    const gk_complex<T> l = gk_log(z);
    const T log2e = (T)1.442695040888963407359924681001892137;
    return gk_complex_of(l.re * log2e, l.im * log2e);
}
template <class T>
__device__ inline gk_complex<T> gk_log10(gk_complex<T> z) {
    const gk_complex<T> l = gk_log(z);
    const T log10e = (T)0.434294481903251827651128918916605082;
    return gk_complex_of(l.re * log10e, l.im * log10e);
}
template <class T>
__device__ inline gk_complex<T> gk_exp2(gk_complex<T> z) {  // exp(z log 2), as NumPy's
    return gk_exp(gk_complex_of(z.re * gk_ln2<T>(), z.im * gk_ln2<T>()));
}
// log(1 + z), accurate for small z: the real part is log1p(2x + x^2 + y^2) / 2 there.
template <class T>
__device__ inline gk_complex<T> gk_log1p(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (gk_fabs(x) < (T)0.5 && gk_fabs(y) < (T)0.5)
        return gk_complex_of(gk_log1p(x * (2 + x) + y * y) / 2, gk_atan2(y, 1 + x));
    return gk_log(gk_complex_of(1 + x, y));
}
// exp(z) - 1, accurate for small z, as NumPy computes it (infinities and nan included):
// expm1(x) cos(y) - 2 sin^2(y/2) + i exp(x) sin(y).
template <class T>
__device__ inline gk_complex<T> gk_expm1(gk_complex<T> z) {
    const T half_sine = gk_sin(z.im / 2);
    return gk_complex_of(gk_expm1(z.re) * gk_cos(z.im) - 2 * half_sine * half_sine, gk_exp(z.re) * gk_sin(z.im));
}

// The principal square root (Algorithm 312, CACM 1967), scaled so that nothing overflows or
// loses bits to underflow; the cut along the negative real axis takes the sign of the zero.
template <class T>
__device__ inline gk_complex<T> gk_sqrt(gk_complex<T> z) {
    T a = z.re, b = z.im;
    if (a == 0 && b == 0) return gk_complex_of((T)0, b);
    if (gk_isinf(b)) return gk_complex_of(gk_limits<T>::infinity(), b);
    if (gk_isnan(a)) return gk_complex_of(a, gk_limits<T>::nan());
    if (gk_isinf(a)) {
        if (a < 0) return gk_complex_of(gk_fabs(b - b), gk_copysign(a, b));
        return gk_complex_of(a, gk_copysign(b - b, b));
    }
    int scale = 0;  // the result is multiplied by 2^scale
    if (gk_fabs(a) >= gk_limits<T>::max() / 4 || gk_fabs(b) >= gk_limits<T>::max() / 4) {
        a *= (T)0.25;
        b *= (T)0.25;
        scale = 1;
    } else if (gk_fabs(a) < 4 * gk_limits<T>::min_normal() && gk_fabs(b) < 4 * gk_limits<T>::min_normal()) {
        a = gk_ldexp(a, 2 * gk_limits<T>::digits);  // an even power of 2, so that sqrt halves it exactly
        b = gk_ldexp(b, 2 * gk_limits<T>::digits);
        scale = -gk_limits<T>::digits;
    }
    gk_complex<T> r;
    if (a >= 0) {
        const T t = gk_sqrt((a + gk_hypot(a, b)) * (T)0.5);
        r = gk_complex_of(t, b / (2 * t));
    } else {
        const T t = gk_sqrt((-a + gk_hypot(a, b)) * (T)0.5);
        r = gk_complex_of(gk_fabs(b) / (2 * t), gk_copysign(t, b));
    }
    if (scale == 0) return r;
    if (scale == 1) return gk_complex_of(r.re * 2, r.im * 2);
    return gk_complex_of(gk_ldexp(r.re, scale), gk_ldexp(r.im, scale));
}

template <class T>
__device__ inline gk_complex<T> gk_square(gk_complex<T> z) {
    return z * z;
}

// z ** w as NumPy's: w = 0 gives 1; 0 ** w is 0 for Re w > 0, else nan; small integer powers
// (|n| < 100) by repeated multiplication; otherwise exp(w log z).
template <class T>
__device__ inline gk_complex<T> gk_pow(gk_complex<T> a, gk_complex<T> b) {
    if (b.re == 0 && b.im == 0) return gk_complex_of((T)1, (T)0);
    if (a.re == 0 && a.im == 0) {
        if (b.re > 0) return gk_complex_of((T)0, (T)0);
        return gk_complex_of(gk_limits<T>::nan(), gk_limits<T>::nan());
    }
    if (b.im == 0 && b.re > -100 && b.re < 100 && (T)(int)b.re == b.re) {
        const int n = (int)b.re;
        if (n == 1) return a;
        if (n == 2) return a * a;
        if (n == 3) return a * (a * a);
        int m = n < 0 ? -n : n;
        gk_complex<T> result = gk_complex_of((T)1, (T)0), power = a;
        while (true) {
            if (m & 1) result = result * power;
            m >>= 1;
            if (m == 0) break;
            power = power * power;
        }
        return n < 0 ? gk_complex_of((T)1, (T)0) / result : result;
    }
    const gk_complex<T> l = gk_log(a);
    return gk_exp(gk_complex_of(l.re * b.re - l.im * b.im, l.re * b.im + l.im * b.re));
}

// sinh and cosh of x + iy: sinh(x) cos(y) + i cosh(x) sin(y), cosh(x) cos(y) + i sinh(x) sin(y),
// with exp(|x|/2) twice where sinh or cosh alone would overflow.
template <class T>
__device__ inline gk_complex<T> gk_sinh(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (y == 0) return gk_complex_of(gk_sinh(x), y);
    if (x == 0 && !gk_isfinite(y)) return gk_complex_of(x, y - y);
    if (gk_isinf(x) && !gk_isfinite(y)) return gk_complex_of(x, y - y);
    const T c = gk_cos(y), s = gk_sin(y);
    if (gk_fabs(x) > gk_limits<T>::max_log() && gk_isfinite(x)) {
        const gk_complex<T> e = gk_scaled_exp(gk_fabs(x), c, s);
        return gk_complex_of(gk_copysign(e.re / 2, x), e.im / 2);
    }
    return gk_complex_of(gk_sinh(x) * c, gk_cosh(x) * s);
}
template <class T>
__device__ inline gk_complex<T> gk_cosh(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (y == 0) return gk_complex_of(gk_cosh(x), gk_isnan(x) ? y : gk_copysign((T)1, x) * y);
    if (x == 0 && !gk_isfinite(y)) return gk_complex_of(y - y, x);
    if (gk_isinf(x) && !gk_isfinite(y)) return gk_complex_of(x * x, y - y);
    const T c = gk_cos(y), s = gk_sin(y);
    if (gk_fabs(x) > gk_limits<T>::max_log() && gk_isfinite(x)) {
        const gk_complex<T> e = gk_scaled_exp(gk_fabs(x), c, s);
        return gk_complex_of(e.re / 2, gk_copysign((T)1, x) * e.im / 2);
    }
    return gk_complex_of(gk_cosh(x) * c, gk_sinh(x) * s);
}
// tanh by Kahan's formula (t = tan y, s = sinh x): (s sqrt(1+s^2)(1+t^2) + i t) / (1 + (1+t^2) s^2).
template <class T>
__device__ inline gk_complex<T> gk_tanh(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (gk_isnan(x)) return gk_complex_of(x, y == 0 ? y : gk_limits<T>::nan());
    if (gk_isinf(x)) {
        const T im = gk_isfinite(y) ? gk_copysign((T)0, gk_sin(2 * y)) : gk_copysign((T)0, y);
        return gk_complex_of(gk_copysign((T)1, x), im);
    }
    if (!gk_isfinite(y)) return gk_complex_of(x == 0 ? x : y - y, y - y);
    if (gk_fabs(x) > (T)22) {  // tanh x is +-1 to the last bit; the imaginary part is tiny
        const T e = gk_exp(-2 * gk_fabs(x));
        return gk_complex_of(gk_copysign((T)1, x), 4 * gk_sin(y) * gk_cos(y) * e);
    }
    const T t = gk_tan(y);
    const T beta = 1 + t * t;
    const T s = gk_sinh(x);
    const T rho = gk_sqrt(1 + s * s);
    const T denominator = 1 + beta * s * s;
    return gk_complex_of(beta * rho * s / denominator, t / denominator);
}
template <class T>
__device__ inline gk_complex<T> gk_sin(gk_complex<T> z) {  // sin z = -i sinh(iz)
    return gk_times_minus_i(gk_sinh(gk_times_i(z)));
}
template <class T>
__device__ inline gk_complex<T> gk_cos(gk_complex<T> z) {  // cos z = cosh(iz)
    return gk_cosh(gk_times_i(z));
}
template <class T>
__device__ inline gk_complex<T> gk_tan(gk_complex<T> z) {  // tan z = -i tanh(iz)
    return gk_times_minus_i(gk_tanh(gk_times_i(z)));
}

// Inverse functions by Kahan's formulas ("Branch cuts for complex elementary functions", 1987):
// square roots of 1 +- z, so that nothing squares z (no overflow) and the cuts follow the
// signs of zeros. Infinite and nan arguments take C99's values.
template <class T>
__device__ inline T gk_pi() {
    return (T)3.14159265358979323846264338327950288;
}
// asinh: on the cut (the imaginary axis beyond +-i) the sign of the real zero picks the side.
template <class T>
__device__ inline gk_complex<T> gk_asinh(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (!gk_isfinite(x) || !gk_isfinite(y)) {
        if (gk_isinf(x)) {
            if (gk_isnan(y)) return gk_complex_of(x, y);
            if (gk_isinf(y)) return gk_complex_of(x, gk_copysign(gk_pi<T>() / 4, y));
            return gk_complex_of(x, gk_copysign((T)0, y));
        }
        if (gk_isinf(y)) {
            if (gk_isnan(x)) return gk_complex_of(y, x);
            return gk_complex_of(gk_copysign(y, x), gk_copysign(gk_pi<T>() / 2, y));
        }
        if (gk_isnan(x) && y == 0) return z;
        return gk_complex_of(gk_limits<T>::nan(), gk_limits<T>::nan());
    }
    // asinh z = -i asin(iz); asin w = atan(Re w / Re(sqrt(1-w) sqrt(1+w))) + i asinh(Im(conj(sqrt(1-w)) sqrt(1+w)))
    const gk_complex<T> w = gk_times_i(z);
    const gk_complex<T> s1 = gk_sqrt(gk_complex_of(1 - w.re, -w.im));
    const gk_complex<T> s2 = gk_sqrt(gk_complex_of(1 + w.re, w.im));
    const T re = gk_atan2(w.re, s1.re * s2.re - s1.im * s2.im);
    const T im = gk_asinh(s1.re * s2.im - s1.im * s2.re);
    return gk_times_minus_i(gk_complex_of(re, im));
}
template <class T>
__device__ inline gk_complex<T> gk_asin(gk_complex<T> z) {  // asin z = -i asinh(iz)
    return gk_times_minus_i(gk_asinh(gk_times_i(z)));
}
template <class T>
__device__ inline gk_complex<T> gk_acos(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (!gk_isfinite(x) || !gk_isfinite(y)) {
        const T inf = gk_limits<T>::infinity(), nan = gk_limits<T>::nan();
        if (gk_isinf(x)) {
            if (gk_isnan(y)) return gk_complex_of(nan, inf);  // the sign of the imaginary part is unspecified
            if (gk_isinf(y)) return gk_complex_of(x > 0 ? gk_pi<T>() / 4 : 3 * gk_pi<T>() / 4, -y);
            return gk_complex_of(x > 0 ? (T)0 : gk_pi<T>(), y < 0 || (y == 0 && gk_signbit(y)) ? inf : -inf);
        }
        if (gk_isinf(y)) return gk_complex_of(gk_isnan(x) ? x : gk_pi<T>() / 2, -y);
        if (x == 0) return gk_complex_of(gk_pi<T>() / 2, y);  // acos(0 + i nan) = pi/2 + i nan
        return gk_complex_of(nan, nan);
    }
    // acos z = 2 atan(Re sqrt(1-z) / Re sqrt(1+z)) + i asinh(Im(conj(sqrt(1+z)) sqrt(1-z)))
    const gk_complex<T> s1 = gk_sqrt(gk_complex_of(1 - x, -y));
    const gk_complex<T> s2 = gk_sqrt(gk_complex_of(1 + x, y));
    return gk_complex_of(2 * gk_atan2(s1.re, s2.re), gk_asinh(s2.re * s1.im - s2.im * s1.re));
}
template <class T>
__device__ inline gk_complex<T> gk_acosh(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    if (!gk_isfinite(x) || !gk_isfinite(y)) {
        // acosh z = +-i acos z, the sign making the real part positive; C99's table agrees.
        const gk_complex<T> a = gk_acos(z);
        if (gk_isnan(a.im)) return gk_complex_of(a.im, a.re);
        return a.im <= 0 ? gk_complex_of(-a.im, a.re) : gk_complex_of(a.im, -a.re);
    }
    // acosh z = asinh(Re(conj(sqrt(z-1)) sqrt(z+1))) + 2i atan(Im sqrt(z-1) / Re sqrt(z+1))
    const gk_complex<T> s1 = gk_sqrt(gk_complex_of(x - 1, y));
    const gk_complex<T> s2 = gk_sqrt(gk_complex_of(x + 1, y));
    return gk_complex_of(gk_asinh(s1.re * s2.re + s1.im * s2.im), 2 * gk_atan2(s1.im, s2.re));
}
// atanh z = (log1p(z) - log1p(-z)) / 2, written so that neither part cancels: the real part is
// log1p(4x / ((1-x)^2 + y^2)) / 4, the imaginary part atan2(2y, (1-x)(1+x) - y^2) / 2; far from
// the origin atanh z is 1/z + i pi/2 to the last bit.
template <class T>
__device__ inline gk_complex<T> gk_atanh(gk_complex<T> z) {
    const T x = z.re, y = z.im;
    const T big = 1 / gk_sqrt(gk_limits<T>::epsilon()) * 4;
    if (gk_isnan(x) || gk_isnan(y)) {
        if (gk_isinf(x)) return gk_complex_of(gk_copysign((T)0, x), y);
        if (gk_isinf(y)) return gk_complex_of(gk_copysign((T)0, x), gk_copysign(gk_pi<T>() / 2, y));
        if (x == 0) return gk_complex_of(x, y);
        return gk_complex_of(gk_limits<T>::nan(), gk_limits<T>::nan());
    }
    if (gk_fabs(x) > big || gk_fabs(y) > big) {  // atanh z = atanh(1/z) +- i pi/2, atanh(1/z) = 1/z here
        if (gk_isinf(x) || gk_isinf(y)) return gk_complex_of(gk_copysign((T)0, x), gk_copysign(gk_pi<T>() / 2, y));
        const gk_complex<T> r = gk_reciprocal(z);
        return gk_complex_of(r.re, gk_copysign(gk_pi<T>() / 2, y) + r.im);
    }
    const T ax = gk_fabs(x);
    const T one_minus = 1 - ax;
    const T re = gk_log1p(4 * ax / (one_minus * one_minus + y * y)) / 4;
    const T im = gk_atan2(2 * y, one_minus * (1 + ax) - y * y) / 2;
    return gk_complex_of(gk_copysign(re, x), im);
}
template <class T>
__device__ inline gk_complex<T> gk_atan(gk_complex<T> z) {  // atan z = -i atanh(iz)
    return gk_times_minus_i(gk_atanh(gk_times_i(z)));
}

// ---- functions that are not ufuncs (src/ops/elementwise_functions.cpp)

// numpy.nan_to_num: nan, +inf and -inf replaced, in each part of a complex number.
template <class T>
__device__ inline T gk_nan_to_num(T x, T nan, T posinf, T neginf) {
    return gk_isnan(x) ? nan : gk_isinf(x) ? (x > 0 ? posinf : neginf) : x;
}
template <class T>
__device__ inline gk_complex<T> gk_nan_to_num(gk_complex<T> z, T nan, T posinf, T neginf) {
    return gk_complex_of(gk_nan_to_num(z.re, nan, posinf, neginf), gk_nan_to_num(z.im, nan, posinf, neginf));
}

// numpy.around: rint(x * f) / f for f = 10 ** decimals, or rint(x / f) * f for negative decimals,
// each step rounded to the loop's type as NumPy's three ufunc calls round it.
template <class T, class Loop>
__device__ inline T gk_round_positive(T x, T f, const Loop* loop) {
    return gk_rint(gk_round_to(x * f, loop)) / f;
}
template <class T, class Loop>
__device__ inline T gk_round_negative(T x, T f, const Loop* loop) {
    return gk_rint(gk_round_to(x / f, loop)) * f;
}
template <class T>
__device__ inline gk_complex<T> gk_round_positive(gk_complex<T> z, T f, const gk_complex<T>*) {
    return gk_complex_of(gk_round_positive(z.re, f, (const T*)0), gk_round_positive(z.im, f, (const T*)0));
}
template <class T>
__device__ inline gk_complex<T> gk_round_negative(gk_complex<T> z, T f, const gk_complex<T>*) {
    return gk_complex_of(gk_round_negative(z.re, f, (const T*)0), gk_round_negative(z.im, f, (const T*)0));
}

// numpy.angle(z, deg=True): the angle rounded to the loop's type, times 180/pi in that type.
template <class T, class Loop>
__device__ inline T gk_angle_degrees(T x, const Loop* loop) {
    return gk_round_to(gk_angle(x), loop) * gk_round_to((T)(180.0 / 3.14159265358979323846), loop);
}
template <class T, class Loop>
__device__ inline T gk_angle_degrees(gk_complex<T> z, const Loop*) {
    return gk_angle(z) * (T)(180.0 / 3.14159265358979323846);
}
