// src/backends/sim/prelude/gpukit_sim_half.h: __half, __half2, __nv_bfloat16 and
// __nv_bfloat162 as 16-bit storage with CUDA's conversions, arithmetic, comparisons and operators.
//
// Conversions to the 16-bit formats are done on the bits, exactly, in any of the four IEEE
// rounding directions (NaN, infinities, subnormals, overflow included). Arithmetic is correctly
// rounded: +, - and * are exact in double and rounded once; / and sqrt are rounded to double
// first, which is innocuous because 53 >= 2p + 2 for both 11-bit half and 8-bit bfloat16; fused
// multiply-add rounds its exact double-double result to odd first, after which rounding to any
// format of at most 51 bits is exact.
// The transcendental h* functions round the float function's result, so they are within 1 ulp.
//
// NaNs come out as the GPU gives them (observed on sm_90, CUDA 13): float and arithmetic results
// to either format give 0x7fff (a double to half gives 0x7e00), either format to float gives
// 0x7fffffff, and __hneg and __habs of a NaN give 0x7fff. Conversions with float are implicit both
// ways, as in cuda_fp16.hpp, so mixing __half and float in one expression (h * 2.0f) is
// ambiguous here as it is under nvcc.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "gpukit_sim_math.h"
#include "gpukit_sim_vector_types.h"

namespace gpukit_sim::detail {

// Rounds d to a binary format with E exponent and M fraction bits (half: 5, 10; bfloat16: 8, 7).
template <int E, int M>
inline std::uint16_t narrow(double d, rounding dir) {
    const std::uint64_t b = bit_cast<std::uint64_t>(d);
    const bool negative = (b >> 63) != 0;
    const std::uint32_t sign = negative ? (1u << (E + M)) : 0u;
    const int exp = static_cast<int>((b >> 52) & 0x7ff);
    const std::uint64_t frac = b & ((std::uint64_t{1} << 52) - 1);
    const std::uint32_t inf = ((1u << E) - 1) << M;
    const bool outward = (dir == rounding::up && !negative) || (dir == rounding::down && negative);
    // Overflow gives infinity when rounding to nearest or away from zero, else the largest finite.
    const std::uint32_t overflow = (dir == rounding::nearest || outward) ? inf : inf - 1;
    if (exp == 0x7ff) return frac != 0 ? std::uint16_t{0x7fff} : static_cast<std::uint16_t>(sign | inf);
    if (exp == 0 && frac == 0) return static_cast<std::uint16_t>(sign);
    const int bias = (1 << (E - 1)) - 1;
    const std::uint64_t sig = exp != 0 ? (frac | (std::uint64_t{1} << 52)) : frac;  // d = sig 2^(e-52)
    const int te = (exp != 0 ? exp - 1023 : -1022) + bias;                          // the biased exponent, if normal
    if (te >= (1 << E) - 1) return static_cast<std::uint16_t>(sign | overflow);
    // Bits of sig below the result's last place: the fraction width for a normal result, more
    // for a subnormal one (its last place is fixed at 2^(1 - bias - M)).
    const int shift = te >= 1 ? 52 - M : 52 - M + 1 - te;
    if (shift > 60) return static_cast<std::uint16_t>(sign | (outward ? 1u : 0u));  // < 1/256 ulp
    std::uint64_t q = sig >> shift;
    const std::uint64_t rem = sig & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t half = std::uint64_t{1} << (shift - 1);
    bool up;
    switch (dir) {
        case rounding::nearest: up = rem > half || (rem == half && (q & 1) != 0); break;
        case rounding::zero: up = false; break;
        default: up = outward && rem != 0; break;
    }
    q += up ? 1 : 0;
    // A normal q carries its implicit bit, which adds one to the exponent field below; a carry
    // out of the fraction moves into the exponent (and from the largest finite into infinity).
    const std::uint64_t bits = te >= 1 ? (static_cast<std::uint64_t>(te - 1) << M) + q : q;
    if (bits >= inf) return static_cast<std::uint16_t>(sign | overflow);
    return static_cast<std::uint16_t>(sign | bits);
}

constexpr std::uint32_t kCanonicalFloatNan = 0x7fffffffu;  // the GPU's, as 16-bit NaNs convert

inline float half_bits_to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu, frac = h & 0x3ffu;
    if (exp == 0x1f) return bit_cast<float>(frac != 0 ? kCanonicalFloatNan : sign | 0x7f800000u);
    if (exp == 0) {
        const float v = static_cast<float>(frac) * 0x1p-24f;  // subnormal (or zero): exact
        return sign != 0 ? -v : v;
    }
    return bit_cast<float>(sign | ((exp + 112) << 23) | (frac << 13));  // rebias 15 -> 127
}

inline float bfloat16_bits_to_float(std::uint16_t b) {
    if ((b & 0x7fffu) > 0x7f80u) return bit_cast<float>(kCanonicalFloatNan);
    return bit_cast<float>(static_cast<std::uint32_t>(b) << 16);
}

// max/min of two 16-bit values given as floats: NaN is missing data unless propagate_nan, two
// NaNs give the canonical NaN, and +0 counts as greater than -0.
inline float select_max(float a, float b, bool propagate_nan) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) {
        if (propagate_nan || (na && nb)) return std::numeric_limits<float>::quiet_NaN();
        return na ? b : a;
    }
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

inline float select_min(float a, float b, bool propagate_nan) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) {
        if (propagate_nan || (na && nb)) return std::numeric_limits<float>::quiet_NaN();
        return na ? b : a;
    }
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}

inline float saturate(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

// a * b + c for 16-bit operands given as doubles (a * b is then exact), rounded to odd: the
// double nearest the exact result, moved to its neighbour with an odd last bit when inexact. A
// later rounding to any format at least two bits shorter is then the correctly rounded result.
inline double fma_round_to_odd(double a, double b, double c) {
    double s, e;
    two_sum(a * b, c, s, e);
    if (e == 0 || !std::isfinite(s) || (bit_cast<std::uint64_t>(s) & 1) != 0) return s;
    return std::nextafter(s,
                          e > 0 ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
}

}  // namespace gpukit_sim::detail

// ---------------------------------------------------------------------------------------------
// The types.

struct __half_raw {
    unsigned short x;
};

struct __nv_bfloat16_raw {
    unsigned short x;
};

// The constructors and conversions of both 16-bit types, which differ only in the format.
// Integer constructors exist so that `__half h = 0;` is not ambiguous between float and double.
#define GPUKIT_SIM_SMALL_FLOAT_TYPE(T, RAW, E, M, TO_FLOAT)                                              \
    struct T {                                                                                           \
        unsigned short __x;                                                                              \
        T() = default;                                                                                   \
        constexpr T(const RAW& r) : __x(r.x) {}                                                          \
        T(float f) : __x(gpukit_sim::detail::narrow<E, M>(f, gpukit_sim::detail::rounding::nearest)) {}  \
        T(double d) : __x(gpukit_sim::detail::narrow<E, M>(d, gpukit_sim::detail::rounding::nearest)) {} \
        T(short v) : T(static_cast<double>(v)) {}                                                        \
        T(unsigned short v) : T(static_cast<double>(v)) {}                                               \
        T(int v) : T(static_cast<double>(v)) {}                                                          \
        T(unsigned int v) : T(static_cast<double>(v)) {}                                                 \
        T(long v) : T(static_cast<double>(v)) {}                                                         \
        T(unsigned long v) : T(static_cast<double>(v)) {}                                                \
        T(long long v) : T(static_cast<double>(v)) {}                                                    \
        T(unsigned long long v) : T(static_cast<double>(v)) {}                                           \
        operator float() const { return gpukit_sim::detail::TO_FLOAT(__x); }                             \
        constexpr operator RAW() const { return RAW{__x}; }                                              \
    };

GPUKIT_SIM_SMALL_FLOAT_TYPE(__half, __half_raw, 5, 10, half_bits_to_float)
GPUKIT_SIM_SMALL_FLOAT_TYPE(__nv_bfloat16, __nv_bfloat16_raw, 8, 7, bfloat16_bits_to_float)
#undef GPUKIT_SIM_SMALL_FLOAT_TYPE

struct __half2_raw {
    unsigned short x, y;
};

struct __nv_bfloat162_raw {
    unsigned short x, y;
};

#define GPUKIT_SIM_SMALL_FLOAT_PAIR(T2, T, RAW2, RAW)                  \
    struct alignas(4) T2 {                                             \
        T x, y;                                                        \
        T2() = default;                                                \
        constexpr T2(const T& a, const T& b) : x(a), y(b) {}           \
        constexpr T2(const RAW2& r) : x(RAW{r.x}), y(RAW{r.y}) {}      \
        constexpr operator RAW2() const { return RAW2{x.__x, y.__x}; } \
    };

GPUKIT_SIM_SMALL_FLOAT_PAIR(__half2, __half, __half2_raw, __half_raw)
GPUKIT_SIM_SMALL_FLOAT_PAIR(__nv_bfloat162, __nv_bfloat16, __nv_bfloat162_raw, __nv_bfloat16_raw)
#undef GPUKIT_SIM_SMALL_FLOAT_PAIR

using half = __half;
using half2 = __half2;
using nv_bfloat16 = __nv_bfloat16;
using nv_bfloat162 = __nv_bfloat162;

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half layout");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2 layout");
static_assert(sizeof(__nv_bfloat16) == 2 && alignof(__nv_bfloat16) == 2, "__nv_bfloat16 layout");
static_assert(sizeof(__nv_bfloat162) == 4 && alignof(__nv_bfloat162) == 4, "__nv_bfloat162 layout");

// ---------------------------------------------------------------------------------------------
// Conversions.

#define GPUKIT_SIM_NARROW(E, M, x, dir) gpukit_sim::detail::narrow<E, M>(x, gpukit_sim::detail::rounding::dir)

inline __half __float2half(float f) { return __half_raw{GPUKIT_SIM_NARROW(5, 10, f, nearest)}; }
inline __half __float2half_rn(float f) { return __half_raw{GPUKIT_SIM_NARROW(5, 10, f, nearest)}; }
inline __half __float2half_rz(float f) { return __half_raw{GPUKIT_SIM_NARROW(5, 10, f, zero)}; }
inline __half __float2half_ru(float f) { return __half_raw{GPUKIT_SIM_NARROW(5, 10, f, up)}; }
inline __half __float2half_rd(float f) { return __half_raw{GPUKIT_SIM_NARROW(5, 10, f, down)}; }
inline __half __double2half(double d) {
    if (std::isnan(d)) return __half_raw{0x7e00};  // unlike __float2half's 0x7fff, as on the GPU
    return __half_raw{GPUKIT_SIM_NARROW(5, 10, d, nearest)};
}
inline float __half2float(__half h) { return gpukit_sim::detail::half_bits_to_float(h.__x); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __ushort_as_half(unsigned short u) { return __half_raw{u}; }
inline __half __short_as_half(short s) { return __half_raw{static_cast<unsigned short>(s)}; }

inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16_raw{GPUKIT_SIM_NARROW(8, 7, f, nearest)}; }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return __nv_bfloat16_raw{GPUKIT_SIM_NARROW(8, 7, f, nearest)}; }
inline __nv_bfloat16 __float2bfloat16_rz(float f) { return __nv_bfloat16_raw{GPUKIT_SIM_NARROW(8, 7, f, zero)}; }
inline __nv_bfloat16 __float2bfloat16_ru(float f) { return __nv_bfloat16_raw{GPUKIT_SIM_NARROW(8, 7, f, up)}; }
inline __nv_bfloat16 __float2bfloat16_rd(float f) { return __nv_bfloat16_raw{GPUKIT_SIM_NARROW(8, 7, f, down)}; }
inline __nv_bfloat16 __double2bfloat16(double d) { return __nv_bfloat16_raw{GPUKIT_SIM_NARROW(8, 7, d, nearest)}; }
inline float __bfloat162float(__nv_bfloat16 b) { return gpukit_sim::detail::bfloat16_bits_to_float(b.__x); }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }
inline short __bfloat16_as_short(__nv_bfloat16 b) { return static_cast<short>(b.__x); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short u) { return __nv_bfloat16_raw{u}; }
inline __nv_bfloat16 __short_as_bfloat16(short s) { return __nv_bfloat16_raw{static_cast<unsigned short>(s)}; }

// Integer conversions: to integers saturating (NaN -> 0) in the four directions, from integers
// rounded in the four directions.
#define GPUKIT_SIM_HALF_INT(suffix, dir, I, iname)                                                          \
    inline I __half2##iname##_##suffix(__half h) {                                                          \
        return gpukit_sim::detail::float_to_int<I, gpukit_sim::detail::rounding::dir>(__half2float(h));     \
    }                                                                                                       \
    inline __half __##iname##2half_##suffix(I v) {                                                          \
        return __half_raw{GPUKIT_SIM_NARROW(5, 10, static_cast<double>(v), dir)};                           \
    }                                                                                                       \
    inline I __bfloat162##iname##_##suffix(__nv_bfloat16 b) {                                               \
        return gpukit_sim::detail::float_to_int<I, gpukit_sim::detail::rounding::dir>(__bfloat162float(b)); \
    }                                                                                                       \
    inline __nv_bfloat16 __##iname##2bfloat16_##suffix(I v) {                                               \
        return __nv_bfloat16_raw{GPUKIT_SIM_NARROW(8, 7, static_cast<double>(v), dir)};                     \
    }
#define GPUKIT_SIM_HALF_INT_ALL(I, iname)      \
    GPUKIT_SIM_HALF_INT(rn, nearest, I, iname) \
    GPUKIT_SIM_HALF_INT(rz, zero, I, iname)    \
    GPUKIT_SIM_HALF_INT(ru, up, I, iname)      \
    GPUKIT_SIM_HALF_INT(rd, down, I, iname)
GPUKIT_SIM_HALF_INT_ALL(int, int)
GPUKIT_SIM_HALF_INT_ALL(unsigned int, uint)
GPUKIT_SIM_HALF_INT_ALL(short, short)
GPUKIT_SIM_HALF_INT_ALL(unsigned short, ushort)
GPUKIT_SIM_HALF_INT_ALL(long long, ll)
GPUKIT_SIM_HALF_INT_ALL(unsigned long long, ull)
#undef GPUKIT_SIM_HALF_INT_ALL
#undef GPUKIT_SIM_HALF_INT
#undef GPUKIT_SIM_NARROW

// ---------------------------------------------------------------------------------------------
// Arithmetic, comparisons, math functions and operators, identical for both types. The ordered
// comparisons (__heq, __hne, ...) are false when either operand is NaN; the u forms are true.
// The operators follow C++: != is the unordered one.

#define GPUKIT_SIM_SMALL_FLOAT_MATH(T)                                                                               \
    inline T __hadd(T a, T b) { return T(static_cast<double>(float(a)) + float(b)); }                                \
    inline T __hsub(T a, T b) { return T(static_cast<double>(float(a)) - float(b)); }                                \
    inline T __hmul(T a, T b) { return T(static_cast<double>(float(a)) * float(b)); }                                \
    inline T __hdiv(T a, T b) { return T(static_cast<double>(float(a)) / float(b)); }                                \
    inline T __hfma(T a, T b, T c) { return T(gpukit_sim::detail::fma_round_to_odd(float(a), float(b), float(c))); } \
    inline T __hadd_sat(T a, T b) { return T(gpukit_sim::detail::saturate(float(__hadd(a, b)))); }                   \
    inline T __hsub_sat(T a, T b) { return T(gpukit_sim::detail::saturate(float(__hsub(a, b)))); }                   \
    inline T __hmul_sat(T a, T b) { return T(gpukit_sim::detail::saturate(float(__hmul(a, b)))); }                   \
    inline T __hfma_sat(T a, T b, T c) { return T(gpukit_sim::detail::saturate(float(__hfma(a, b, c)))); }           \
    inline T __hneg(T a) {                                                                                           \
        a.__x = std::isnan(float(a)) ? 0x7fff : static_cast<unsigned short>(a.__x ^ 0x8000u);                        \
        return a;                                                                                                    \
    }                                                                                                                \
    inline T __habs(T a) {                                                                                           \
        a.__x = std::isnan(float(a)) ? 0x7fff : static_cast<unsigned short>(a.__x & 0x7fffu);                        \
        return a;                                                                                                    \
    }                                                                                                                \
    inline bool __heq(T a, T b) { return float(a) == float(b); }                                                     \
    inline bool __hne(T a, T b) { return float(a) < float(b) || float(a) > float(b); }                               \
    inline bool __hlt(T a, T b) { return float(a) < float(b); }                                                      \
    inline bool __hle(T a, T b) { return float(a) <= float(b); }                                                     \
    inline bool __hgt(T a, T b) { return float(a) > float(b); }                                                      \
    inline bool __hge(T a, T b) { return float(a) >= float(b); }                                                     \
    inline bool __hequ(T a, T b) { return !(float(a) < float(b) || float(a) > float(b)); }                           \
    inline bool __hneu(T a, T b) { return !(float(a) == float(b)); }                                                 \
    inline bool __hltu(T a, T b) { return !(float(a) >= float(b)); }                                                 \
    inline bool __hleu(T a, T b) { return !(float(a) > float(b)); }                                                  \
    inline bool __hgtu(T a, T b) { return !(float(a) <= float(b)); }                                                 \
    inline bool __hgeu(T a, T b) { return !(float(a) < float(b)); }                                                  \
    inline bool __hisnan(T a) { return std::isnan(float(a)); }                                                       \
    inline int __hisinf(T a) { return std::isinf(float(a)) ? (float(a) < 0 ? -1 : 1) : 0; }                          \
    inline T __hmax(T a, T b) { return T(gpukit_sim::detail::select_max(a, b, false)); }                             \
    inline T __hmin(T a, T b) { return T(gpukit_sim::detail::select_min(a, b, false)); }                             \
    inline T __hmax_nan(T a, T b) { return T(gpukit_sim::detail::select_max(a, b, true)); }                          \
    inline T __hmin_nan(T a, T b) { return T(gpukit_sim::detail::select_min(a, b, true)); }                          \
    inline T hsqrt(T a) { return T(std::sqrt(static_cast<double>(float(a)))); }                                      \
    inline T hrsqrt(T a) { return T(rsqrtf<>(float(a))); }                                                           \
    inline T hrcp(T a) { return T(1.0 / float(a)); }                                                                 \
    inline T hexp(T a) { return T(std::exp(float(a))); }                                                             \
    inline T hexp2(T a) { return T(std::exp2(float(a))); }                                                           \
    inline T hexp10(T a) { return T(exp10f<>(float(a))); }                                                           \
    inline T hlog(T a) { return T(std::log(float(a))); }                                                             \
    inline T hlog2(T a) { return T(std::log2(float(a))); }                                                           \
    inline T hlog10(T a) { return T(std::log10(float(a))); }                                                         \
    inline T hsin(T a) { return T(std::sin(float(a))); }                                                             \
    inline T hcos(T a) { return T(std::cos(float(a))); }                                                             \
    inline T htrunc(T a) { return T(std::trunc(float(a))); }                                                         \
    inline T hceil(T a) { return T(std::ceil(float(a))); }                                                           \
    inline T hfloor(T a) { return T(std::floor(float(a))); }                                                         \
    inline T hrint(T a) { return T(gpukit_sim::detail::round_half_even(float(a))); }                                 \
    inline T operator+(const T& a, const T& b) { return __hadd(a, b); }                                              \
    inline T operator-(const T& a, const T& b) { return __hsub(a, b); }                                              \
    inline T operator*(const T& a, const T& b) { return __hmul(a, b); }                                              \
    inline T operator/(const T& a, const T& b) { return __hdiv(a, b); }                                              \
    inline T& operator+=(T& a, const T& b) { return a = __hadd(a, b); }                                              \
    inline T& operator-=(T& a, const T& b) { return a = __hsub(a, b); }                                              \
    inline T& operator*=(T& a, const T& b) { return a = __hmul(a, b); }                                              \
    inline T& operator/=(T& a, const T& b) { return a = __hdiv(a, b); }                                              \
    inline T operator+(const T& a) { return a; }                                                                     \
    inline T operator-(const T& a) { return __hneg(a); }                                                             \
    inline T& operator++(T& a) { return a = __hadd(a, T(1.0f)); }                                                    \
    inline T& operator--(T& a) { return a = __hsub(a, T(1.0f)); }                                                    \
    inline T operator++(T& a, int) {                                                                                 \
        const T old = a;                                                                                             \
        ++a;                                                                                                         \
        return old;                                                                                                  \
    }                                                                                                                \
    inline T operator--(T& a, int) {                                                                                 \
        const T old = a;                                                                                             \
        --a;                                                                                                         \
        return old;                                                                                                  \
    }                                                                                                                \
    inline bool operator==(const T& a, const T& b) { return __heq(a, b); }                                           \
    inline bool operator!=(const T& a, const T& b) { return __hneu(a, b); }                                          \
    inline bool operator<(const T& a, const T& b) { return __hlt(a, b); }                                            \
    inline bool operator<=(const T& a, const T& b) { return __hle(a, b); }                                           \
    inline bool operator>(const T& a, const T& b) { return __hgt(a, b); }                                            \
    inline bool operator>=(const T& a, const T& b) { return __hge(a, b); }

GPUKIT_SIM_SMALL_FLOAT_MATH(__half)
GPUKIT_SIM_SMALL_FLOAT_MATH(__nv_bfloat16)
#undef GPUKIT_SIM_SMALL_FLOAT_MATH

// Element-wise pair operations, identical for __half2 and __nv_bfloat162. __heq2 and friends
// give 1.0 or 0.0 per element; the __hb forms are true when both elements compare true.
#define GPUKIT_SIM_PAIR_MATH(T2, T)                                                                                 \
    inline T2 __hadd2(T2 a, T2 b) { return T2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }                                \
    inline T2 __hsub2(T2 a, T2 b) { return T2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }                                \
    inline T2 __hmul2(T2 a, T2 b) { return T2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }                                \
    inline T2 __h2div(T2 a, T2 b) { return T2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }                                \
    inline T2 __hfma2(T2 a, T2 b, T2 c) { return T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }                \
    inline T2 __hadd2_sat(T2 a, T2 b) { return T2(__hadd_sat(a.x, b.x), __hadd_sat(a.y, b.y)); }                    \
    inline T2 __hmul2_sat(T2 a, T2 b) { return T2(__hmul_sat(a.x, b.x), __hmul_sat(a.y, b.y)); }                    \
    inline T2 __hfma2_sat(T2 a, T2 b, T2 c) { return T2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)); }    \
    inline T2 __hneg2(T2 a) { return T2(__hneg(a.x), __hneg(a.y)); }                                                \
    inline T2 __habs2(T2 a) { return T2(__habs(a.x), __habs(a.y)); }                                                \
    inline T2 __hmax2(T2 a, T2 b) { return T2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }                                \
    inline T2 __hmin2(T2 a, T2 b) { return T2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }                                \
    inline T2 __heq2(T2 a, T2 b) { return T2(T(__heq(a.x, b.x) ? 1.0f : 0.0f), T(__heq(a.y, b.y) ? 1.0f : 0.0f)); } \
    inline T2 __hne2(T2 a, T2 b) { return T2(T(__hne(a.x, b.x) ? 1.0f : 0.0f), T(__hne(a.y, b.y) ? 1.0f : 0.0f)); } \
    inline T2 __hlt2(T2 a, T2 b) { return T2(T(__hlt(a.x, b.x) ? 1.0f : 0.0f), T(__hlt(a.y, b.y) ? 1.0f : 0.0f)); } \
    inline T2 __hle2(T2 a, T2 b) { return T2(T(__hle(a.x, b.x) ? 1.0f : 0.0f), T(__hle(a.y, b.y) ? 1.0f : 0.0f)); } \
    inline T2 __hgt2(T2 a, T2 b) { return T2(T(__hgt(a.x, b.x) ? 1.0f : 0.0f), T(__hgt(a.y, b.y) ? 1.0f : 0.0f)); } \
    inline T2 __hge2(T2 a, T2 b) { return T2(T(__hge(a.x, b.x) ? 1.0f : 0.0f), T(__hge(a.y, b.y) ? 1.0f : 0.0f)); } \
    inline bool __hbeq2(T2 a, T2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }                                  \
    inline bool __hbne2(T2 a, T2 b) { return __hne(a.x, b.x) && __hne(a.y, b.y); }                                  \
    inline bool __hblt2(T2 a, T2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }                                  \
    inline bool __hble2(T2 a, T2 b) { return __hle(a.x, b.x) && __hle(a.y, b.y); }                                  \
    inline bool __hbgt2(T2 a, T2 b) { return __hgt(a.x, b.x) && __hgt(a.y, b.y); }                                  \
    inline bool __hbge2(T2 a, T2 b) { return __hge(a.x, b.x) && __hge(a.y, b.y); }                                  \
    inline bool __hbneu2(T2 a, T2 b) { return __hneu(a.x, b.x) && __hneu(a.y, b.y); }                               \
    inline T2 __hisnan2(T2 a) { return T2(T(__hisnan(a.x) ? 1.0f : 0.0f), T(__hisnan(a.y) ? 1.0f : 0.0f)); }        \
    inline T2 h2sqrt(T2 a) { return T2(hsqrt(a.x), hsqrt(a.y)); }                                                   \
    inline T2 h2rsqrt(T2 a) { return T2(hrsqrt(a.x), hrsqrt(a.y)); }                                                \
    inline T2 h2rcp(T2 a) { return T2(hrcp(a.x), hrcp(a.y)); }                                                      \
    inline T2 h2exp(T2 a) { return T2(hexp(a.x), hexp(a.y)); }                                                      \
    inline T2 h2log(T2 a) { return T2(hlog(a.x), hlog(a.y)); }                                                      \
    inline T2 __lowhigh2highlow(T2 a) { return T2(a.y, a.x); }                                                      \
    inline float __low2float(T2 a) { return float(a.x); }                                                           \
    inline float __high2float(T2 a) { return float(a.y); }                                                          \
    inline T2 operator+(const T2& a, const T2& b) { return __hadd2(a, b); }                                         \
    inline T2 operator-(const T2& a, const T2& b) { return __hsub2(a, b); }                                         \
    inline T2 operator*(const T2& a, const T2& b) { return __hmul2(a, b); }                                         \
    inline T2 operator/(const T2& a, const T2& b) { return __h2div(a, b); }                                         \
    inline T2& operator+=(T2& a, const T2& b) { return a = __hadd2(a, b); }                                         \
    inline T2& operator-=(T2& a, const T2& b) { return a = __hsub2(a, b); }                                         \
    inline T2& operator*=(T2& a, const T2& b) { return a = __hmul2(a, b); }                                         \
    inline T2& operator/=(T2& a, const T2& b) { return a = __h2div(a, b); }                                         \
    inline T2 operator+(const T2& a) { return a; }                                                                  \
    inline T2 operator-(const T2& a) { return __hneg2(a); }                                                         \
    inline bool operator==(const T2& a, const T2& b) { return __hbeq2(a, b); }                                      \
    inline bool operator!=(const T2& a, const T2& b) { return __hbneu2(a, b); }                                     \
    inline bool operator<(const T2& a, const T2& b) { return __hblt2(a, b); }                                       \
    inline bool operator<=(const T2& a, const T2& b) { return __hble2(a, b); }                                      \
    inline bool operator>(const T2& a, const T2& b) { return __hbgt2(a, b); }                                       \
    inline bool operator>=(const T2& a, const T2& b) { return __hbge2(a, b); }

GPUKIT_SIM_PAIR_MATH(__half2, __half)
GPUKIT_SIM_PAIR_MATH(__nv_bfloat162, __nv_bfloat16)
#undef GPUKIT_SIM_PAIR_MATH

// Building and taking apart pairs; the names differ between the two types.
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline __half2 __float2half2_rn(float a) { return __half2(__half(a), __half(a)); }
inline __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
inline float2 __half22float2(__half2 h) { return float2{float(h.x), float(h.y)}; }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __halves2half2(__half lo, __half hi) { return __half2(lo, hi); }
inline __half2 __half2half2(__half h) { return __half2(h, h); }
inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }

inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) {
    return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
inline __nv_bfloat162 __float2bfloat162_rn(float a) { return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(a)); }
inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
inline float2 __bfloat1622float2(__nv_bfloat162 b) { return float2{float(b.x), float(b.y)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 b) { return b.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 b) { return b.y; }
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 lo, __nv_bfloat16 hi) { return __nv_bfloat162(lo, hi); }
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 b) { return __nv_bfloat162(b, b); }
inline __nv_bfloat162 __low2bfloat162(__nv_bfloat162 b) { return __nv_bfloat162(b.x, b.x); }
inline __nv_bfloat162 __high2bfloat162(__nv_bfloat162 b) { return __nv_bfloat162(b.y, b.y); }
inline __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
inline __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
