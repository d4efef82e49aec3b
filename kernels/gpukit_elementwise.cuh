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
    const unsigned sign = (unsigned)(h & 0x8000u) << 16;
    const unsigned exponent = (h >> 10) & 0x1fu;
    const unsigned mantissa = h & 0x3ffu;
    if (exponent == 0x1f) return gk_bits_float(sign | 0x7f800000u | (mantissa << 13));  // inf, nan
    if (exponent == 0) {                                                                // zero, subnormal
        const float magnitude = (float)mantissa * 5.9604644775390625e-8f;               // 2^-24
        return sign ? -magnitude : magnitude;
    }
    return gk_bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// Round to nearest even, as the hardware's cvt.rn.f16.f32 does.
__device__ inline unsigned short gk_float_to_half(float f) {
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

// A fixed group of elements, loaded and stored as one 16-byte access where the operand is aligned.
template <class T, int W>
struct __align__(16) gk_vector {
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
};

// ---- arithmetic as NumPy defines it, for the ufunc table (src/ops/ufuncs.def)

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

// Floating // and %, as Python's float divmod: fmod, then moved to the divisor's sign.
__device__ inline float gk_fmod(float a, float b) { return fmodf(a, b); }
__device__ inline double gk_fmod(double a, double b) { return fmod(a, b); }
__device__ inline float gk_floor(float a) { return floorf(a); }
__device__ inline double gk_floor(double a) { return floor(a); }
__device__ inline float gk_copysign(float a, float b) { return copysignf(a, b); }
__device__ inline double gk_copysign(double a, double b) { return copysign(a, b); }
__device__ inline float gk_fabs(float a) { return fabsf(a); }
__device__ inline double gk_fabs(double a) { return fabs(a); }
__device__ inline float gk_fabs(gk_complex<float> a) { return hypotf(a.re, a.im); }
__device__ inline double gk_fabs(gk_complex<double> a) { return hypot(a.re, a.im); }
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

// maximum and minimum propagate a nan from either side (NumPy's; fmax/fmin would drop it).
template <class T>
__device__ inline T gk_maximum(T a, T b) {
    return (a >= b || a != a) ? a : b;
}
template <class T>
__device__ inline T gk_minimum(T a, T b) {
    return (a <= b || a != a) ? a : b;
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
