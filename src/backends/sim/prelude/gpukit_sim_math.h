// src/backends/sim/prelude/gpukit_sim_math.h: the CUDA math API that the C and C++ libraries
// lack (rsqrtf, sinpi, erfinv, normcdf, ...), CUDA's fast-math and rounding-mode intrinsics, the
// float/integer conversion and bit-reinterpretation intrinsics, and CUDA's global min/max.
//
// Everything <math.h> already declares in the global namespace (sinf, expf, sqrtf, fmaf, powf,
// floorf, erff, j0f, ...) is the C library's and is not redefined: the prelude includes <math.h>
// and <cmath>, so those names, their std:: forms and the C++ float overloads (sqrt(float), ...) are
// all available, as they are to CUDA code under nvcc.
//
// Accuracy (measured by the tests against long double references; CUDA's documented bounds in
// brackets). Single-precision functions are computed in double and rounded once: correctly
// rounded but for rare double-rounding cases, within 0.501 ulp. Double precision: rsqrt, rcbrt,
// norm3d/4d, rnorm*, rhypot, cyl_bessel_i0/i1 within 0.7 ulp (1 to 6); sinpi, cospi within 1.5
// (2); erfinv, erfcinv, normcdfinv within 3 (5 to 8); erfcx, normcdf within 4 (4, 5). The ones
// that lean on long double for that (rsqrt, rcbrt, the norms, Bessel) lose about 2 ulp where
// long double is double (macOS arm64). CUDA's fast-math intrinsics (__expf, __sinf, ...) are
// approximations on the GPU; here they are correctly rounded, and none flushes subnormals to zero.
//
// Names a C library may declare itself (exp10, sincos and their f forms as GNU extensions; sinpi,
// cospi and rsqrt as C23 functions) are defined here as function templates with a defaulted
// parameter. Where the C library declares the same function, overload resolution prefers its
// non-template declaration and this one is never used; where it does not, this one is found.
// Either way there is no redeclaration conflict, whatever the libc version.
#pragma once

#include <math.h>
#include <stdlib.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gpukit_sim::detail {

template <class To, class From>
inline To bit_cast(const From& from) {
    static_assert(sizeof(To) == sizeof(From), "bit_cast between types of different sizes");
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}

// Makes a floating-point value opaque to the optimiser, at no cost where it can stay in a register.
// CUDA promises that __fmul_rn, __fadd_rn and friends are never contracted into a fused
// multiply-add; with -ffp-contract=fast, GCC would otherwise fuse __fmul_rn(a, b) + c, or
// __fadd_rn(a * b, c), after inlining.
template <class T>
inline T opaque(T v) {
#if defined(__x86_64__)
    __asm__ __volatile__("" : "+x"(v));
#elif defined(__aarch64__)
    __asm__ __volatile__("" : "+w"(v));
#else
    __asm__ __volatile__("" : "+m"(v));
#endif
    return v;
}

// Like opaque, but also a compiler barrier: the arithmetic between two fenced values cannot be
// folded at compile time nor moved across the fesetround calls of a rounding_scope.
template <class T>
inline T fenced(T v) {
    __asm__ __volatile__("" : "+m"(v) : : "memory");
    return v;
}

// Sets the rounding direction for one operation and restores the caller's on the way out. Used
// only by the double-precision directed-rounding intrinsics, whose exact error is not cheap to
// recover; it never spans a point where the simulator could switch to another CUDA thread.
struct rounding_scope {
    int saved;
    explicit rounding_scope(int mode) : saved(std::fegetround()) { std::fesetround(mode); }
    ~rounding_scope() { std::fesetround(saved); }
    rounding_scope(const rounding_scope&) = delete;
    rounding_scope& operator=(const rounding_scope&) = delete;
};

enum class rounding { nearest, zero, up, down };

// True when `dir` rounds a value of this sign away from zero (up for positives, down for
// negatives).
template <rounding dir>
inline bool rounds_outward(bool negative) {
    return (dir == rounding::up && !negative) || (dir == rounding::down && negative);
}

// Rounds the exact value s + e to float in direction dir (not nearest). s is a double and e the
// error of rounding the exact value to s, as an error-free transformation gives it, or any double
// with that error's sign and |e| <= ulp(s)/2. Only signs are compared, so the result is exact.
template <rounding dir>
inline float round_to_float(double s, double e) {
    if (!std::isfinite(s)) return static_cast<float>(s);
    const bool negative = s < 0;
    const float f = static_cast<float>(s);  // nearest float; the directed result is f or a neighbour
    if (std::isinf(f)) {
        return rounds_outward<dir>(negative) ? f : std::copysign(std::numeric_limits<float>::max(), f);
    }
    // s - f is exact (f is within a factor of two of s) and, when nonzero, at least twice |e|, so
    // r has the sign of (exact value - f).
    const double r = (s - static_cast<double>(f)) + e;
    const float inf = std::numeric_limits<float>::infinity();
    if (r > 0) {
        const bool step = dir == rounding::up || (dir == rounding::zero && negative);
        return step ? std::nextafter(f, inf) : f;
    }
    if (r < 0) {
        const bool step = dir == rounding::down || (dir == rounding::zero && !negative);
        return step ? std::nextafter(f, -inf) : f;
    }
    return f;
}

// The same for a double result: s is already the nearest double, the exact value is s + e.
template <rounding dir>
inline double round_to_double(double s, double e) {
    const double inf = std::numeric_limits<double>::infinity();
    if (e > 0) {
        const bool step = dir == rounding::up || (dir == rounding::zero && s < 0);
        return step ? std::nextafter(s, inf) : s;
    }
    if (e < 0) {
        const bool step = dir == rounding::down || (dir == rounding::zero && s > 0);
        return step ? std::nextafter(s, -inf) : s;
    }
    return s;
}

// Knuth's TwoSum: s + e == a + b exactly, s the rounded sum (barring overflow).
inline void two_sum(double a, double b, double& s, double& e) {
    s = a + b;
    const double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

// An exactly zero sum is +0 in every direction but down, where it is -0; a sum of two zeros of
// the same sign keeps that sign (IEEE 754, 6.3).
template <rounding dir, class T>
inline T zero_sum(T a, T b) {
    if (dir == rounding::down) return (std::signbit(a) || std::signbit(b)) ? T(-0.0) : T(0.0);
    return (std::signbit(a) && std::signbit(b)) ? T(-0.0) : T(0.0);
}

template <rounding dir>
inline float fadd(float a, float b) {
    if (dir == rounding::nearest) return opaque(opaque(a) + opaque(b));
    double s, e;
    two_sum(a, b, s, e);  // two floats never overflow a double
    if (s == 0) return zero_sum<dir>(a, b);
    return round_to_float<dir>(s, e);
}

template <rounding dir>
inline float fmul(float a, float b) {
    if (dir == rounding::nearest) return opaque(a * b);
    return round_to_float<dir>(static_cast<double>(a) * b, 0.0);  // 24 x 24 bits: exact in double
}

template <rounding dir>
inline float ffma(float a, float b, float c) {
    if (dir == rounding::nearest) return std::fma(a, b, c);
    const double p = static_cast<double>(a) * b;  // exact
    double s, e;
    two_sum(p, c, s, e);
    if (!std::isfinite(s)) return static_cast<float>(s);  // only from infinite or NaN operands
    if (s == 0) return std::signbit(zero_sum<dir>(p, static_cast<double>(c))) ? -0.0f : 0.0f;
    return round_to_float<dir>(s, e);
}

template <rounding dir>
inline float fdiv(float a, float b) {
    if (dir == rounding::nearest) return a / b;
    const double q = static_cast<double>(a) / b;
    if (!std::isfinite(q) || q == 0) return static_cast<float>(q);  // exact cases: 0, inf, NaN
    // a - q*b is exact (the residual of a correctly rounded quotient); a/b - q has the sign of
    // residual/b, and that quotient is within rounding of the true error.
    const double residual = std::fma(-q, static_cast<double>(b), static_cast<double>(a));
    return round_to_float<dir>(q, residual / b);
}

template <rounding dir>
inline float fsqrt(float a) {
    if (dir == rounding::nearest) return std::sqrt(a);
    const double s = std::sqrt(static_cast<double>(a));
    if (!std::isfinite(s) || s == 0) return static_cast<float>(s);
    const double residual = std::fma(-s, s, static_cast<double>(a));  // a - s^2, exact
    return round_to_float<dir>(s, residual / (2 * s));
}

// Round half to even, independent of the current rounding mode.
template <class F>
inline F round_half_even(F x) {
    F t = std::trunc(x);
    const F d = std::fabs(x - t);  // exact
    if (d > F(0.5) || (d == F(0.5) && std::fmod(t, F(2)) != 0)) t += std::copysign(F(1), x);
    return t;
}

// What the GPU's conversion of a NaN gives (observed on sm_90, CUDA 13): 0x8000000000000000 for
// any 64-bit destination, 0x80000000 for a 32-bit one from double, 0 otherwise.
template <class I, class F>
inline I nan_to_int() {
    if (sizeof(I) == 8) return static_cast<I>(std::uint64_t{1} << 63);
    if (sizeof(I) == 4 && sizeof(F) == 8) return static_cast<I>(std::uint32_t{1} << 31);
    return 0;
}

// CUDA's floating-point to integer conversions saturate at the destination's range.
template <class I, class F>
inline I saturate_to(F r) {
    if (r != r) return nan_to_int<I, F>();
    const F lo = static_cast<F>(std::numeric_limits<I>::min());                 // 0 or -2^(n-1): exact
    const F hi = F(2) * static_cast<F>(std::numeric_limits<I>::max() / 2 + 1);  // 2^n or 2^(n-1)
    if (r <= lo) return std::numeric_limits<I>::min();
    if (r >= hi) return std::numeric_limits<I>::max();
    return static_cast<I>(r);
}

template <class I, rounding dir, class F>
inline I float_to_int(F x) {
    F r;
    switch (dir) {
        case rounding::nearest: r = round_half_even(x); break;
        case rounding::zero: r = std::trunc(x); break;
        case rounding::up: r = std::ceil(x); break;
        default: r = std::floor(x); break;
    }
    return saturate_to<I>(r);
}

// A 64-bit integer as an exact unevaluated sum s + e of doubles (s the nearest double).
template <class I>
inline void int64_as_sum(I v, double& s, double& e) {
    const double hi = static_cast<double>(v >> 32) * 4294967296.0;  // exact
    const double lo = static_cast<double>(static_cast<std::uint32_t>(v));
    two_sum(hi, lo, s, e);
}

template <rounding dir, class I>
inline float int_to_float(I v) {
    if (dir == rounding::nearest) return static_cast<float>(v);
    double s, e;
    int64_as_sum(
        static_cast<typename std::conditional<std::is_signed<I>::value, long long, unsigned long long>::type>(v), s, e);
    return round_to_float<dir>(s, e);
}

template <rounding dir, class I>
inline double int_to_double(I v) {
    if (dir == rounding::nearest) return static_cast<double>(v);
    double s, e;
    int64_as_sum(v, s, e);
    return round_to_double<dir>(s, e);
}

template <rounding dir>
inline double dadd(double a, double b) {
    if (dir == rounding::nearest) return opaque(opaque(a) + opaque(b));
    double s, e;
    two_sum(a, b, s, e);
    if (!std::isfinite(s)) {
        if (!std::isfinite(a) || !std::isfinite(b)) return s;
        return rounds_outward<dir>(s < 0) ? s : std::copysign(std::numeric_limits<double>::max(), s);
    }
    if (s == 0) return zero_sum<dir>(a, b);
    return round_to_double<dir>(s, e);
}

constexpr int fe_mode(rounding dir) {
    return dir == rounding::zero ? FE_TOWARDZERO : dir == rounding::up ? FE_UPWARD : FE_DOWNWARD;
}

template <rounding dir>
inline double dmul(double a, double b) {
    if (dir == rounding::nearest) return opaque(a * b);
    rounding_scope scope(fe_mode(dir));
    return fenced(fenced(a) * fenced(b));
}

template <rounding dir>
inline double ddiv(double a, double b) {
    if (dir == rounding::nearest) return a / b;
    rounding_scope scope(fe_mode(dir));
    return fenced(fenced(a) / fenced(b));
}

template <rounding dir>
inline double dsqrt(double a) {
    if (dir == rounding::nearest) return std::sqrt(a);
    rounding_scope scope(fe_mode(dir));
    return fenced(std::sqrt(fenced(a)));
}

template <rounding dir>
inline double dfma(double a, double b, double c) {
    if (dir == rounding::nearest) return std::fma(a, b, c);
    rounding_scope scope(fe_mode(dir));
    return fenced(std::fma(fenced(a), fenced(b), fenced(c)));
}

constexpr double kPiHi = 3.141592653589793;
constexpr double kPiLo = 1.2246467991473532e-16;  // pi - kPiHi
constexpr double kTwoOverSqrtPi = 1.1283791670955126;
constexpr double kOneOverSqrtPi = 0.5641895835477563;
constexpr double kSqrtPi = 1.772453850905516;
constexpr double kSqrtPiOverTwo = 0.886226925452758;
constexpr double kSqrtTwo = 1.4142135623730951;
constexpr double kSqrtHalfHi = 0.7071067811865476;
constexpr double kSqrtHalfLo = -4.833646656726457e-17;  // 1/sqrt(2) - kSqrtHalfHi

// sin(pi x) and cos(pi x). The reduction x mod 2 is exact, so large arguments lose nothing;
// integers give exact zeros with IEEE 754's signs (sinpi(+n) = +0, sinpi(-n) = -0, cospi(n + 1/2) =
// +0).
inline void sincospi(double x, double* s, double* c) {
    if (!std::isfinite(x)) {
        *s = *c = x - x;  // NaN
        return;
    }
    const double r = std::remainder(x, 2.0);  // exact, in [-1, 1]
    const double n = std::round(2 * r);       // quarter turns, in [-2, 2]
    const double f = r - n / 2;               // exact, in [-1/4, 1/4]
    const double a = std::fma(f, kPiHi, f * kPiLo);
    const double sa = std::sin(a), ca = std::cos(a);
    double sv, cv;
    switch (static_cast<int>(n) & 3) {
        case 0:
            sv = sa;
            cv = ca;
            break;
        case 1:
            sv = ca;
            cv = -sa;
            break;
        case 2:
            sv = -sa;
            cv = -ca;
            break;
        default:
            sv = -ca;
            cv = sa;
            break;
    }
    *s = sv == 0 ? std::copysign(0.0, x) : sv;
    *c = cv == 0 ? 0.0 : cv;
}

// exp(x^2) erfc(x), without the overflow and cancellation of the naive product.
inline double erfcx(double x) {
    if (std::isnan(x)) return x;
    if (x < -27.0) return std::numeric_limits<double>::infinity();  // exp(x^2) * 2 overflows
    if (x < 26.0) {
        // exp(x^2) with x^2 = hi + lo exactly: exp(hi) * (1 + lo) keeps the error of x^2 out of the
        // exponent, where it would be amplified by x^2.
        const double hi = x * x;
        const double lo = std::fma(x, x, -hi);
        return std::exp(hi) * std::erfc(x) * (1.0 + lo);
    }
    // erfc underflows here; the asymptotic series 1/(x sqrt(pi)) * sum (-1)^k (2k-1)!! / (2x^2)^k
    // is accurate to far below an ulp after a dozen terms once x >= 26.
    const double inv = 1.0 / x;
    const double t = 0.5 * inv * inv;
    double term = 1.0, sum = 1.0;
    for (int k = 1; k <= 12; ++k) {
        term *= -(2 * k - 1) * t;
        sum += term;
    }
    return kOneOverSqrtPi / x * sum;
}

// erfinv for w in [0, 1/2]: Halley's iteration on erf(y) - w from the series' first two terms.
inline double erfinv_small(double w) {
    if (w < 0x1p-27) return kSqrtPiOverTwo * w;                           // the cubic term is below half an ulp
    double y = kSqrtPiOverTwo * w * (1.0 + 0.26179938779914946 * w * w);  // 1 + (pi/12) w^2
    for (int i = 0; i < 4; ++i) {
        const double u = (std::erf(y) - w) / (kTwoOverSqrtPi * std::exp(-y * y));
        y -= u / (1.0 + y * u);
    }
    return y;
}

// erfcinv for z in (0, 1].
inline double erfcinv_unit(double z) {
    if (z >= 0.5) return erfinv_small(1.0 - z);  // 1 - z is exact here
    // Newton's iteration on log(erfc(y)) - log(z) = log(erfcx(y)) - y^2 - log(z): well conditioned
    // down to the smallest subnormal z, where erfc(y) itself has no precision left.
    const double lz = std::log(z);
    const double t = std::sqrt(-lz);
    double y = std::sqrt(std::fmax(-lz - std::log(t * kSqrtPi), 0.2));  // erfc(y) ~ e^-y^2/(y sqrt(pi))
    for (int i = 0; i < 12; ++i) {
        const double ex = erfcx(y);
        const double hi = y * y;
        const double lo = std::fma(y, y, -hi);
        const double g = ((std::log(ex) - lz) - hi) - lo;
        const double step = g * ex / kTwoOverSqrtPi;  // g / g', g' = -2 / (sqrt(pi) erfcx(y))
        y += step;
        if (std::fabs(step) <= 0x1p-60 * y) break;
    }
    return y;
}

inline double erfcinv(double z) {
    if (!(z >= 0.0 && z <= 2.0)) return std::numeric_limits<double>::quiet_NaN();
    if (z == 0.0) return std::numeric_limits<double>::infinity();
    if (z == 2.0) return -std::numeric_limits<double>::infinity();
    if (z > 1.0) return -erfcinv_unit(2.0 - z);  // exact
    return erfcinv_unit(z);
}

inline double erfinv(double x) {
    if (std::isnan(x)) return x;
    const double ax = std::fabs(x);
    if (ax > 1.0) return std::numeric_limits<double>::quiet_NaN();
    if (ax == 1.0) return std::copysign(std::numeric_limits<double>::infinity(), x);
    const double r = ax <= 0.5 ? erfinv_small(ax) : erfcinv_unit(1.0 - ax);  // 1 - ax exact
    return std::copysign(r, x);
}

// Phi(x) = erfc(-x / sqrt(2)) / 2. The argument's rounding error would be amplified by 2y^2 in
// the far tail, so y = -x/sqrt(2) is carried as y + dy and erfc(y + dy) = erfc(y) (1 - dy *
// 2/(sqrt(pi) erfcx(y))).
inline double normcdf(double x) {
    if (std::isnan(x)) return x;
    if (std::isinf(x)) return x > 0 ? 1.0 : 0.0;
    const double y = -x * kSqrtHalfHi;
    const double e = std::erfc(y);
    if (e == 0) return 0.0;  // beyond the subnormals: no correction can bring it back
    const double dy = std::fma(-x, kSqrtHalfHi, -y) - x * kSqrtHalfLo;
    const double correction = 1.0 - dy * kTwoOverSqrtPi / erfcx(y);
    return 0.5 * e * correction;
}

inline double normcdfinv(double p) {
    if (!(p >= 0.0 && p <= 1.0)) return std::numeric_limits<double>::quiet_NaN();
    return -kSqrtTwo * erfcinv(2.0 * p);
}

// Modified Bessel functions of the first kind, orders 0 and 1: the power series (all terms
// positive, summed in long double) below 25, the asymptotic expansion above, where the series
// would need hundreds of terms. exp(|x|) is split in two so I0 and I1 stay finite up to 713.98.
inline double bessel_i_asymptotic(double ax, int order) {
    const double mu = 4.0 * order * order;
    long double term = 1.0L, sum = 1.0L;
    for (int k = 1; k < 60; ++k) {
        const double odd = 2.0 * k - 1;
        const long double next = term * (odd * odd - mu) / (8.0L * k * ax);
        // Stop at convergence, or where the (divergent) series' terms start to grow again.
        if (std::fabs(static_cast<double>(next)) < 1e-22 ||
            std::fabs(static_cast<double>(next)) > std::fabs(static_cast<double>(term))) {
            break;
        }
        term = next;
        sum += term;
    }
    const long double half = std::exp(0.5L * ax);
    return static_cast<double>(half * (half / std::sqrt(2.0L * kPiHi * ax)) * sum);
}

inline double bessel_i_series(double ax, int order) {
    const long double q = 0.25L * ax * ax;
    long double term = order == 0 ? 1.0L : 0.5L * ax;
    long double sum = term;
    for (int k = 1; k < 200; ++k) {
        term *= q / (static_cast<long double>(k) * (k + order));
        sum += term;
        if (term < sum * 1e-21L) break;
    }
    return static_cast<double>(sum);
}

inline double cyl_bessel_i(double x, int order) {
    if (std::isnan(x)) return x;
    const double ax = std::fabs(x);
    double r;
    if (std::isinf(ax))
        r = ax;
    else
        r = ax < 25.0 ? bessel_i_series(ax, order) : bessel_i_asymptotic(ax, order);
    return order == 1 ? std::copysign(r, x) : r;
}

// sqrt(sum p[i]^2), or its reciprocal, with every term scaled by the largest one's binary
// exponent, so nothing overflows or underflows on the way (rhypot(1e308, 1e308) is a subnormal,
// not 1/inf). An infinite element wins over a NaN, as in hypot. The sum is kept in long double,
// which makes the result correctly rounded but for rare cases (where long double is double, as on
// macOS arm64, within 2.5 ulp).
inline double scaled_norm(int dim, const double* p, bool reciprocal) {
    double m = 0;
    bool nan = false;
    for (int i = 0; i < dim; ++i) {
        const double a = std::fabs(p[i]);
        if (std::isinf(a)) return reciprocal ? 0.0 : a;
        if (std::isnan(a))
            nan = true;
        else if (a > m)
            m = a;
    }
    if (nan) return std::numeric_limits<double>::quiet_NaN();
    if (m == 0) return reciprocal ? std::numeric_limits<double>::infinity() : 0.0;
    int e;
    std::frexp(m, &e);
    long double acc = 0;
    for (int i = 0; i < dim; ++i) {
        const long double t = std::ldexp(static_cast<long double>(p[i]), -e);
        acc += t * t;
    }
    return static_cast<double>(reciprocal ? std::ldexp(1.0L / std::sqrt(acc), -e) : std::ldexp(std::sqrt(acc), e));
}

// The single-precision norms: the sum of squares of floats in double neither overflows nor
// loses anything that matters to a float result. An infinite element wins over a NaN.
inline double float_sum_of_squares(int dim, const float* p) {
    double acc = 0;
    bool inf = false;
    for (int i = 0; i < dim; ++i) {
        const double a = p[i];
        if (std::isinf(a)) inf = true;
        acc += a * a;
    }
    return inf ? std::numeric_limits<double>::infinity() : acc;
}

inline float float_norm(int dim, const float* p) { return static_cast<float>(std::sqrt(float_sum_of_squares(dim, p))); }

inline float float_rnorm(int dim, const float* p) {
    return static_cast<float>(1.0 / std::sqrt(float_sum_of_squares(dim, p)));
}

// 1/sqrt(x) correctly rounded to float: the double estimate is within one float ulp; the
// midpoints m beside it decide, by the sign of m^2 x - 1 (m^2 is exact, the fma rounds once).
inline float rsqrt_rn(float x) {
    if (!(x > 0) || std::isinf(x)) return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
    float f = static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
    const double inf = std::numeric_limits<double>::infinity();
    const double up = (static_cast<double>(f) + std::nextafter(f, static_cast<float>(inf))) / 2;
    const double down = (static_cast<double>(f) + std::nextafter(f, 0.0f)) / 2;
    if (std::fma(up * up, static_cast<double>(x), -1.0) < 0)
        f = std::nextafter(f, static_cast<float>(inf));
    else if (std::fma(down * down, static_cast<double>(x), -1.0) > 0)
        f = std::nextafter(f, 0.0f);
    return f;
}

// fmin/fmax with the GPU's order of signed zeros (observed on sm_90): -0 < +0, whatever the
// operand order; the C library leaves that unspecified.
template <class F>
inline F min_ordered(F a, F b) {
    if (a == b) return std::signbit(a) ? a : b;
    return std::fmin(a, b);
}

template <class F>
inline F max_ordered(F a, F b) {
    if (a == b) return std::signbit(a) ? b : a;
    return std::fmax(a, b);
}

}  // namespace gpukit_sim::detail

// ---------------------------------------------------------------------------------------------
// min and max, as CUDA declares them in the global namespace.
//
// Mixed signed/unsigned pairs convert the signed operand to unsigned first (C's usual arithmetic
// conversion), as CUDA's do. The floating-point ones are fmin/fmax (a NaN operand yields the
// other one) that also order -0 below +0, as the GPU does.
//
// With `using namespace std;`, std::min and std::max join the overload set. Every call whose
// arguments are exactly one of the types below still picks these (an exact non-template match
// beats the std:: template), and a mixed call (int with unsigned, float with double) rules the
// std:: template out because its two parameters must deduce to one type. The limitation: where
// no overload here matches exactly but std::min<T> does (short, char, long double), std::min is
// chosen and returns a const T& rather than a value; calls that CUDA itself rejects as ambiguous
// (min(int, float), min(int, long long)) stay ambiguous here too.

inline int min(int a, int b) { return a < b ? a : b; }
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int min(unsigned int a, unsigned int b) { return umin(a, b); }
inline unsigned int min(unsigned int a, int b) { return umin(a, static_cast<unsigned int>(b)); }
inline unsigned int min(int a, unsigned int b) { return umin(static_cast<unsigned int>(a), b); }
inline long min(long a, long b) { return a < b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long min(unsigned long a, long b) { return min(a, static_cast<unsigned long>(b)); }
inline unsigned long min(long a, unsigned long b) { return min(static_cast<unsigned long>(a), b); }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long min(long long a, long long b) { return llmin(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return ullmin(a, b); }
inline unsigned long long min(unsigned long long a, long long b) {
    return ullmin(a, static_cast<unsigned long long>(b));
}
inline unsigned long long min(long long a, unsigned long long b) {
    return ullmin(static_cast<unsigned long long>(a), b);
}
inline float min(float a, float b) { return gpukit_sim::detail::min_ordered(a, b); }
inline double min(double a, double b) { return gpukit_sim::detail::min_ordered(a, b); }
inline double min(float a, double b) { return gpukit_sim::detail::min_ordered(static_cast<double>(a), b); }
inline double min(double a, float b) { return gpukit_sim::detail::min_ordered(a, static_cast<double>(b)); }

inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline unsigned int max(unsigned int a, unsigned int b) { return umax(a, b); }
inline unsigned int max(unsigned int a, int b) { return umax(a, static_cast<unsigned int>(b)); }
inline unsigned int max(int a, unsigned int b) { return umax(static_cast<unsigned int>(a), b); }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline unsigned long max(unsigned long a, long b) { return max(a, static_cast<unsigned long>(b)); }
inline unsigned long max(long a, unsigned long b) { return max(static_cast<unsigned long>(a), b); }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline long long max(long long a, long long b) { return llmax(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return ullmax(a, b); }
inline unsigned long long max(unsigned long long a, long long b) {
    return ullmax(a, static_cast<unsigned long long>(b));
}
inline unsigned long long max(long long a, unsigned long long b) {
    return ullmax(static_cast<unsigned long long>(a), b);
}
inline float max(float a, float b) { return gpukit_sim::detail::max_ordered(a, b); }
inline double max(double a, double b) { return gpukit_sim::detail::max_ordered(a, b); }
inline double max(float a, double b) { return gpukit_sim::detail::max_ordered(static_cast<double>(a), b); }
inline double max(double a, float b) { return gpukit_sim::detail::max_ordered(a, static_cast<double>(b)); }

// ---------------------------------------------------------------------------------------------
// Functions a C library may also declare (see the top of the file for the template trick).

template <class = void>
inline double exp10(double x) {
    return std::pow(10.0, x);
}
template <class = void>
inline float exp10f(float x) {
    return static_cast<float>(std::pow(10.0, static_cast<double>(x)));
}
template <class = void>
inline void sincos(double x, double* s, double* c) {
    *s = std::sin(x);
    *c = std::cos(x);
}
template <class = void>
inline void sincosf(float x, float* s, float* c) {
    *s = static_cast<float>(std::sin(static_cast<double>(x)));
    *c = static_cast<float>(std::cos(static_cast<double>(x)));
}
template <class = void>
inline double sinpi(double x) {
    double s, c;
    gpukit_sim::detail::sincospi(x, &s, &c);
    return s;
}
template <class = void>
inline float sinpif(float x) {
    double s, c;
    gpukit_sim::detail::sincospi(x, &s, &c);
    return static_cast<float>(s);
}
template <class = void>
inline double cospi(double x) {
    double s, c;
    gpukit_sim::detail::sincospi(x, &s, &c);
    return c;
}
template <class = void>
inline float cospif(float x) {
    double s, c;
    gpukit_sim::detail::sincospi(x, &s, &c);
    return static_cast<float>(c);
}
// 1/sqrt(x), computed in long double so the result is within 0.5 ulp plus a tiny fraction (where
// long double is double, as on macOS arm64: within 1.5 ulp). rsqrt(+-0) = +-inf, rsqrt(x < 0) =
// NaN.
template <class = void>
inline double rsqrt(double x) {
    return static_cast<double>(1.0L / std::sqrt(static_cast<long double>(x)));
}
template <class = void>
inline float rsqrtf(float x) {
    return gpukit_sim::detail::rsqrt_rn(x);
}

// ---------------------------------------------------------------------------------------------
// The rest of CUDA's single- and double-precision functions that no C library has.

inline void sincospi(double x, double* s, double* c) { gpukit_sim::detail::sincospi(x, s, c); }
inline void sincospif(float x, float* s, float* c) {
    double sd, cd;
    gpukit_sim::detail::sincospi(x, &sd, &cd);
    *s = static_cast<float>(sd);
    *c = static_cast<float>(cd);
}
// In long double for the same reason as rsqrt (1/cbrt in double is up to 3 ulp off).
inline double rcbrt(double x) { return static_cast<double>(1.0L / std::cbrt(static_cast<long double>(x))); }
inline float rcbrtf(float x) { return static_cast<float>(1.0 / std::cbrt(static_cast<double>(x))); }
inline double erfinv(double x) { return gpukit_sim::detail::erfinv(x); }
inline float erfinvf(float x) { return static_cast<float>(gpukit_sim::detail::erfinv(x)); }
inline double erfcinv(double x) { return gpukit_sim::detail::erfcinv(x); }
inline float erfcinvf(float x) { return static_cast<float>(gpukit_sim::detail::erfcinv(x)); }
inline double erfcx(double x) { return gpukit_sim::detail::erfcx(x); }
inline float erfcxf(float x) { return static_cast<float>(gpukit_sim::detail::erfcx(x)); }
inline double normcdf(double x) { return gpukit_sim::detail::normcdf(x); }
inline float normcdff(float x) { return static_cast<float>(gpukit_sim::detail::normcdf(x)); }
inline double normcdfinv(double p) { return gpukit_sim::detail::normcdfinv(p); }
inline float normcdfinvf(float p) { return static_cast<float>(gpukit_sim::detail::normcdfinv(p)); }
inline double cyl_bessel_i0(double x) { return gpukit_sim::detail::cyl_bessel_i(x, 0); }
inline float cyl_bessel_i0f(float x) { return static_cast<float>(gpukit_sim::detail::cyl_bessel_i(x, 0)); }
inline double cyl_bessel_i1(double x) { return gpukit_sim::detail::cyl_bessel_i(x, 1); }
inline float cyl_bessel_i1f(float x) { return static_cast<float>(gpukit_sim::detail::cyl_bessel_i(x, 1)); }

// Euclidean norms. rhypot, rnorm* = 1/(the norm): +0 when an argument is infinite.
inline double rhypot(double x, double y) {
    const double p[2] = {x, y};
    return gpukit_sim::detail::scaled_norm(2, p, true);
}
inline float rhypotf(float x, float y) {
    const float p[2] = {x, y};
    return gpukit_sim::detail::float_rnorm(2, p);
}
inline double norm3d(double a, double b, double c) {
    const double p[3] = {a, b, c};
    return gpukit_sim::detail::scaled_norm(3, p, false);
}
inline double norm4d(double a, double b, double c, double d) {
    const double p[4] = {a, b, c, d};
    return gpukit_sim::detail::scaled_norm(4, p, false);
}
inline double rnorm3d(double a, double b, double c) {
    const double p[3] = {a, b, c};
    return gpukit_sim::detail::scaled_norm(3, p, true);
}
inline double rnorm4d(double a, double b, double c, double d) {
    const double p[4] = {a, b, c, d};
    return gpukit_sim::detail::scaled_norm(4, p, true);
}
inline double norm(int dim, const double* p) { return gpukit_sim::detail::scaled_norm(dim, p, false); }
inline double rnorm(int dim, const double* p) { return gpukit_sim::detail::scaled_norm(dim, p, true); }
inline float norm3df(float a, float b, float c) {
    const float p[3] = {a, b, c};
    return gpukit_sim::detail::float_norm(3, p);
}
inline float norm4df(float a, float b, float c, float d) {
    const float p[4] = {a, b, c, d};
    return gpukit_sim::detail::float_norm(4, p);
}
inline float rnorm3df(float a, float b, float c) {
    const float p[3] = {a, b, c};
    return gpukit_sim::detail::float_rnorm(3, p);
}
inline float rnorm4df(float a, float b, float c, float d) {
    const float p[4] = {a, b, c, d};
    return gpukit_sim::detail::float_rnorm(4, p);
}
inline float normf(int dim, const float* p) { return gpukit_sim::detail::float_norm(dim, p); }
inline float rnormf(int dim, const float* p) { return gpukit_sim::detail::float_rnorm(dim, p); }

// CUDA's C++ float overloads of the double-named functions (rsqrt(1.0f) is a float, as under
// nvcc), and integer overloads so that rsqrt(2) is not ambiguous between them.
#define GPUKIT_SIM_FLOAT_OVERLOAD(name, fname)                                             \
    inline float name(float x) { return fname(x); }                                        \
    template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0> \
    inline double name(T x) {                                                              \
        return name(static_cast<double>(x));                                               \
    }
GPUKIT_SIM_FLOAT_OVERLOAD(exp10, exp10f)
GPUKIT_SIM_FLOAT_OVERLOAD(sinpi, sinpif)
GPUKIT_SIM_FLOAT_OVERLOAD(cospi, cospif)
GPUKIT_SIM_FLOAT_OVERLOAD(rsqrt, rsqrtf)
GPUKIT_SIM_FLOAT_OVERLOAD(rcbrt, rcbrtf)
GPUKIT_SIM_FLOAT_OVERLOAD(erfinv, erfinvf)
GPUKIT_SIM_FLOAT_OVERLOAD(erfcinv, erfcinvf)
GPUKIT_SIM_FLOAT_OVERLOAD(erfcx, erfcxf)
GPUKIT_SIM_FLOAT_OVERLOAD(normcdf, normcdff)
GPUKIT_SIM_FLOAT_OVERLOAD(normcdfinv, normcdfinvf)
GPUKIT_SIM_FLOAT_OVERLOAD(cyl_bessel_i0, cyl_bessel_i0f)
GPUKIT_SIM_FLOAT_OVERLOAD(cyl_bessel_i1, cyl_bessel_i1f)
#undef GPUKIT_SIM_FLOAT_OVERLOAD
inline void sincos(float x, float* s, float* c) { sincosf(x, s, c); }
inline void sincospi(float x, float* s, float* c) { sincospif(x, s, c); }

// ---------------------------------------------------------------------------------------------
// Fast-math intrinsics. On the GPU these are hardware approximations (for example __expf has
// 2 + floor(|1.173 x|) ulp error, __sinf an absolute error of 2^-21.41 on [-pi, pi]) that flush
// subnormals to zero. Here each is computed in double and rounded once, so it is correctly
// rounded but for rare double-rounding cases (within 0.501 ulp in the tests): a kernel can only
// come out more accurate than on the GPU, never less.
//
// glibc declares __expf, __sinf, ..., __sincosf itself (internal aliases, with C linkage and
// noexcept, but not exported), so they are defined with the same linkage and exception
// specification: this definition completes glibc's declaration instead of conflicting with it.
extern "C" {
inline float __saturatef(float x) noexcept { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }  // NaN, -0 -> +0
inline float __expf(float x) noexcept { return static_cast<float>(std::exp(static_cast<double>(x))); }
inline float __exp10f(float x) noexcept { return exp10f<>(x); }
inline float __logf(float x) noexcept { return static_cast<float>(std::log(static_cast<double>(x))); }
inline float __log2f(float x) noexcept { return static_cast<float>(std::log2(static_cast<double>(x))); }
inline float __log10f(float x) noexcept { return static_cast<float>(std::log10(static_cast<double>(x))); }
inline float __powf(float x, float y) noexcept {
    return static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y)));
}
inline float __sinf(float x) noexcept { return static_cast<float>(std::sin(static_cast<double>(x))); }
inline float __cosf(float x) noexcept { return static_cast<float>(std::cos(static_cast<double>(x))); }
inline float __tanf(float x) noexcept { return static_cast<float>(std::tan(static_cast<double>(x))); }
inline void __sincosf(float x, float* s, float* c) noexcept {
    *s = __sinf(x);
    *c = __cosf(x);
}
// The exact quotient, except that, as on the GPU (whose reciprocal flushes to zero there), a
// divisor with 2^126 < |y| < 2^128 gives 0 for finite x and NaN for infinite x.
inline float __fdividef(float x, float y) noexcept {
    const float ay = std::fabs(y);
    if (ay > 0x1p126f && ay <= std::numeric_limits<float>::max()) return x * std::copysign(0.0f, y);
    return x / y;
}
}  // extern "C"
// CUDA documents fdividef like __fdividef, but without -use_fast_math the GPU computes the full-
// range quotient (fdividef(3, 2^127) is 3 * 2^-127 on sm_90), and so does this.
inline float fdividef(float x, float y) { return x / y; }

// ---------------------------------------------------------------------------------------------
// IEEE-rounded single-precision arithmetic: _rn, _rz, _ru, _rd round to nearest even, toward
// zero, up, down. All are exact (correctly rounded): directed results are derived from the
// double-precision result and its exact error, so they never touch the floating-point environment.
// None is ever contracted with a neighbouring multiply or add.

#define GPUKIT_SIM_FLOAT_ROUNDED(suffix, dir)                                        \
    inline float __fadd_##suffix(float a, float b) {                                 \
        return gpukit_sim::detail::fadd<gpukit_sim::detail::rounding::dir>(a, b);    \
    }                                                                                \
    inline float __fsub_##suffix(float a, float b) {                                 \
        return gpukit_sim::detail::fadd<gpukit_sim::detail::rounding::dir>(a, -b);   \
    }                                                                                \
    inline float __fmul_##suffix(float a, float b) {                                 \
        return gpukit_sim::detail::fmul<gpukit_sim::detail::rounding::dir>(a, b);    \
    }                                                                                \
    inline float __fmaf_##suffix(float a, float b, float c) {                        \
        return gpukit_sim::detail::ffma<gpukit_sim::detail::rounding::dir>(a, b, c); \
    }                                                                                \
    inline float __fdiv_##suffix(float a, float b) {                                 \
        return gpukit_sim::detail::fdiv<gpukit_sim::detail::rounding::dir>(a, b);    \
    }                                                                                \
    inline float __frcp_##suffix(float a) {                                          \
        return gpukit_sim::detail::fdiv<gpukit_sim::detail::rounding::dir>(1.0f, a); \
    }                                                                                \
    inline float __fsqrt_##suffix(float a) { return gpukit_sim::detail::fsqrt<gpukit_sim::detail::rounding::dir>(a); }
GPUKIT_SIM_FLOAT_ROUNDED(rn, nearest)
GPUKIT_SIM_FLOAT_ROUNDED(rz, zero)
GPUKIT_SIM_FLOAT_ROUNDED(ru, up)
GPUKIT_SIM_FLOAT_ROUNDED(rd, down)
#undef GPUKIT_SIM_FLOAT_ROUNDED
inline float __frsqrt_rn(float x) { return gpukit_sim::detail::rsqrt_rn(x); }

// The same in double precision. _rn and the additions are exact without the floating-point
// environment; the directed multiply, divide, square root and fma set the rounding direction
// around the single operation (fesetround) and restore it.
#define GPUKIT_SIM_DOUBLE_ROUNDED(suffix, dir)                                       \
    inline double __dadd_##suffix(double a, double b) {                              \
        return gpukit_sim::detail::dadd<gpukit_sim::detail::rounding::dir>(a, b);    \
    }                                                                                \
    inline double __dsub_##suffix(double a, double b) {                              \
        return gpukit_sim::detail::dadd<gpukit_sim::detail::rounding::dir>(a, -b);   \
    }                                                                                \
    inline double __dmul_##suffix(double a, double b) {                              \
        return gpukit_sim::detail::dmul<gpukit_sim::detail::rounding::dir>(a, b);    \
    }                                                                                \
    inline double __fma_##suffix(double a, double b, double c) {                     \
        return gpukit_sim::detail::dfma<gpukit_sim::detail::rounding::dir>(a, b, c); \
    }                                                                                \
    inline double __ddiv_##suffix(double a, double b) {                              \
        return gpukit_sim::detail::ddiv<gpukit_sim::detail::rounding::dir>(a, b);    \
    }                                                                                \
    inline double __drcp_##suffix(double a) {                                        \
        return gpukit_sim::detail::ddiv<gpukit_sim::detail::rounding::dir>(1.0, a);  \
    }                                                                                \
    inline double __dsqrt_##suffix(double a) { return gpukit_sim::detail::dsqrt<gpukit_sim::detail::rounding::dir>(a); }
GPUKIT_SIM_DOUBLE_ROUNDED(rn, nearest)
GPUKIT_SIM_DOUBLE_ROUNDED(rz, zero)
GPUKIT_SIM_DOUBLE_ROUNDED(ru, up)
GPUKIT_SIM_DOUBLE_ROUNDED(rd, down)
#undef GPUKIT_SIM_DOUBLE_ROUNDED

// ---------------------------------------------------------------------------------------------
// Conversions. Floating point to integer saturates at the destination's range, and NaN gives
// what the GPU gives (see nan_to_int); integer and double to float round exactly in every
// direction.

#define GPUKIT_SIM_TO_INT(suffix, dir)                                                                     \
    inline int __float2int_##suffix(float x) {                                                             \
        return gpukit_sim::detail::float_to_int<int, gpukit_sim::detail::rounding::dir>(x);                \
    }                                                                                                      \
    inline unsigned int __float2uint_##suffix(float x) {                                                   \
        return gpukit_sim::detail::float_to_int<unsigned int, gpukit_sim::detail::rounding::dir>(x);       \
    }                                                                                                      \
    inline long long __float2ll_##suffix(float x) {                                                        \
        return gpukit_sim::detail::float_to_int<long long, gpukit_sim::detail::rounding::dir>(x);          \
    }                                                                                                      \
    inline unsigned long long __float2ull_##suffix(float x) {                                              \
        return gpukit_sim::detail::float_to_int<unsigned long long, gpukit_sim::detail::rounding::dir>(x); \
    }                                                                                                      \
    inline int __double2int_##suffix(double x) {                                                           \
        return gpukit_sim::detail::float_to_int<int, gpukit_sim::detail::rounding::dir>(x);                \
    }                                                                                                      \
    inline unsigned int __double2uint_##suffix(double x) {                                                 \
        return gpukit_sim::detail::float_to_int<unsigned int, gpukit_sim::detail::rounding::dir>(x);       \
    }                                                                                                      \
    inline long long __double2ll_##suffix(double x) {                                                      \
        return gpukit_sim::detail::float_to_int<long long, gpukit_sim::detail::rounding::dir>(x);          \
    }                                                                                                      \
    inline unsigned long long __double2ull_##suffix(double x) {                                            \
        return gpukit_sim::detail::float_to_int<unsigned long long, gpukit_sim::detail::rounding::dir>(x); \
    }                                                                                                      \
    inline float __int2float_##suffix(int x) {                                                             \
        return gpukit_sim::detail::int_to_float<gpukit_sim::detail::rounding::dir>(x);                     \
    }                                                                                                      \
    inline float __uint2float_##suffix(unsigned int x) {                                                   \
        return gpukit_sim::detail::int_to_float<gpukit_sim::detail::rounding::dir>(x);                     \
    }                                                                                                      \
    inline float __ll2float_##suffix(long long x) {                                                        \
        return gpukit_sim::detail::int_to_float<gpukit_sim::detail::rounding::dir>(x);                     \
    }                                                                                                      \
    inline float __ull2float_##suffix(unsigned long long x) {                                              \
        return gpukit_sim::detail::int_to_float<gpukit_sim::detail::rounding::dir>(x);                     \
    }                                                                                                      \
    inline double __ll2double_##suffix(long long x) {                                                      \
        return gpukit_sim::detail::int_to_double<gpukit_sim::detail::rounding::dir>(x);                    \
    }                                                                                                      \
    inline double __ull2double_##suffix(unsigned long long x) {                                            \
        return gpukit_sim::detail::int_to_double<gpukit_sim::detail::rounding::dir>(x);                    \
    }
GPUKIT_SIM_TO_INT(rn, nearest)
GPUKIT_SIM_TO_INT(rz, zero)
GPUKIT_SIM_TO_INT(ru, up)
GPUKIT_SIM_TO_INT(rd, down)
#undef GPUKIT_SIM_TO_INT

inline double __int2double_rn(int x) { return x; }
inline double __uint2double_rn(unsigned int x) { return x; }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __double2float_rz(double x) {
    return gpukit_sim::detail::round_to_float<gpukit_sim::detail::rounding::zero>(x, 0.0);
}
inline float __double2float_ru(double x) {
    return gpukit_sim::detail::round_to_float<gpukit_sim::detail::rounding::up>(x, 0.0);
}
inline float __double2float_rd(double x) {
    return gpukit_sim::detail::round_to_float<gpukit_sim::detail::rounding::down>(x, 0.0);
}

// Bit reinterpretation.
inline float __int_as_float(int x) { return gpukit_sim::detail::bit_cast<float>(x); }
inline int __float_as_int(float x) { return gpukit_sim::detail::bit_cast<int>(x); }
inline float __uint_as_float(unsigned int x) { return gpukit_sim::detail::bit_cast<float>(x); }
inline unsigned int __float_as_uint(float x) { return gpukit_sim::detail::bit_cast<unsigned int>(x); }
inline double __longlong_as_double(long long x) { return gpukit_sim::detail::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return gpukit_sim::detail::bit_cast<long long>(x); }
inline double __hiloint2double(int hi, int lo) {
    const std::uint64_t bits =
        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(hi)) << 32) | static_cast<std::uint32_t>(lo);
    return gpukit_sim::detail::bit_cast<double>(bits);
}
inline int __double2hiint(double x) { return static_cast<int>(gpukit_sim::detail::bit_cast<std::uint64_t>(x) >> 32); }
inline int __double2loint(double x) {
    return static_cast<int>(static_cast<std::uint32_t>(gpukit_sim::detail::bit_cast<std::uint64_t>(x)));
}
