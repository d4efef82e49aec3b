// tests/backends/sim/prelude_functions_test.cpp: the simulator prelude's device functions (vector
// types, math, intrinsics, 16-bit floats, atomics) against references computed another way.
//
// Accuracy is measured in ulps of the result type against a reference of higher precision (long
// double, or an exact method); each check states its tolerance. Random inputs use fixed seeds, so
// a failure always reproduces. The double-precision accuracy checks need a long double wider than
// double (x86-64 and aarch64 Linux have one) and skip elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "backends/sim/prelude/gpukit_sim_device_functions.h"

namespace {

using ld = long double;

constexpr bool kWideLongDouble = std::numeric_limits<long double>::digits >= 64;
constexpr float kFloatNan = std::numeric_limits<float>::quiet_NaN();
constexpr float kFloatInf = std::numeric_limits<float>::infinity();
constexpr double kDoubleNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kDoubleInf = std::numeric_limits<double>::infinity();

template <class To, class From>
To bits_of(From from) {
    static_assert(sizeof(To) == sizeof(From), "size mismatch");
    To to;
    std::memcpy(&to, &from, sizeof to);
    return to;
}

std::string hex(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%a", x);
    return buf;
}

// Spacing of the result format at |x|.
ld float_ulp(ld x) {
    x = std::fabs(x);
    if (x < 0x1p-126L) return 0x1p-149L;
    int e;
    std::frexp(x, &e);
    return std::ldexp(1.0L, e - 24);
}

ld double_ulp(ld x) {
    x = std::fabs(x);
    if (x < 0x1p-1022L) return 0x1p-1074L;
    int e;
    std::frexp(x, &e);
    return std::ldexp(1.0L, e - 53);
}

// Error of `got` against the reference in ulps; NaN must match NaN and an infinity must match
// the reference's rounding to the result type.
ld ulp_error(float got, ld ref) {
    if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : 1e30L;
    if (std::isinf(got) || std::fabs(ref) > std::numeric_limits<float>::max()) {
        return static_cast<float>(ref) == got ? 0 : 1e30L;
    }
    return std::fabs(static_cast<ld>(got) - ref) / float_ulp(ref);
}

ld ulp_error(double got, ld ref) {
    if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : 1e30L;
    if (std::isinf(got) || std::fabs(ref) > std::numeric_limits<double>::max()) {
        return static_cast<double>(ref) == got ? 0 : 1e30L;
    }
    return std::fabs(static_cast<ld>(got) - ref) / double_ulp(ref);
}

// The worst error of f over the inputs, checked against the tolerance; reports where it was.
template <class T, class F, class R>
void expect_ulps(const char* name, const std::vector<T>& inputs, F f, R ref, double tolerance) {
    ld worst = 0;
    T worst_x{};
    for (T x : inputs) {
        const ld e = ulp_error(f(x), ref(x));
        if (e > worst) {
            worst = e;
            worst_x = x;
        }
    }
    EXPECT_LE(static_cast<double>(worst), tolerance)
        << name << ": worst error " << static_cast<double>(worst) << " ulp at x = " << hex(worst_x);
}

// ---- Random inputs (fixed seeds) ------------------------------------------------------------

template <class T>
std::vector<T> uniform(T lo, T hi, int n, unsigned seed) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> dist(static_cast<double>(lo), static_cast<double>(hi));
    std::vector<T> v;
    for (int i = 0; i < n; ++i) v.push_back(static_cast<T>(dist(gen)));
    return v;
}

// |x| = m * 2^e with e uniform in [emin, emax], random sign unless positive_only.
template <class T>
std::vector<T> log_uniform(int emin, int emax, int n, unsigned seed, bool positive_only = false) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> mant(1.0, 2.0);
    std::uniform_int_distribution<int> ex(emin, emax);
    std::vector<T> v;
    for (int i = 0; i < n; ++i) {
        T x = static_cast<T>(std::ldexp(mant(gen), ex(gen)));
        if (!positive_only && (gen() & 1)) x = -x;
        v.push_back(x);
    }
    return v;
}

template <class T>
std::vector<T> concat(std::vector<T> a, const std::vector<T>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

template <class T>
std::vector<T> edges() {
    using L = std::numeric_limits<T>;
    return {T(0),
            T(-0.0),
            T(1),
            T(-1),
            T(0.5),
            T(-0.5),
            T(2),
            L::infinity(),
            -L::infinity(),
            L::quiet_NaN(),
            L::min(),
            -L::min(),
            L::denorm_min(),
            -L::denorm_min(),
            L::max(),
            -L::max(),
            L::min() / 3,
            L::epsilon(),
            T(1) - L::epsilon() / 2};
}

// ---- References ----------------------------------------------------------------------------

// Inverse error functions by bisection on the long double erf/erfc: a different method from
// the prelude's Newton iterations, and 11 bits more precise.
ld bisect_increasing(const std::function<ld(ld)>& f, ld target, ld lo, ld hi) {
    for (int i = 0; i < 200; ++i) {
        const ld mid = (lo + hi) / 2;
        if (f(mid) < target)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

ld erfinv_ref(ld x) {
    const ld ax = std::fabs(x);
    if (std::isnan(x) || ax > 1) return kDoubleNan;
    if (ax == 1) return std::copysign(static_cast<ld>(kDoubleInf), x);
    ld y;
    if (ax < 1e-5L) {
        const ld pi = 0xc90fdaa22168c235p-62L;
        y = std::sqrt(pi) / 2 * ax * (1 + pi * ax * ax / 12 + 7 * pi * pi * ax * ax * ax * ax / 480);
    } else if (ax <= 0.5L) {
        y = bisect_increasing([](ld t) { return std::erf(t); }, ax, 0, 1);
    } else {
        // erfc(y) = 1 - |x|, exact in long double; erfc is decreasing, so bisect on -erfc.
        y = bisect_increasing([](ld t) { return -std::erfc(t); }, -(1 - ax), 0, 30);
    }
    return x < 0 ? -y : y;
}

ld erfcinv_ref(ld z) {
    if (!(z >= 0 && z <= 2)) return kDoubleNan;
    if (z == 0) return kDoubleInf;
    if (z == 2) return -static_cast<ld>(kDoubleInf);
    if (z > 1) return -erfcinv_ref(2 - z);
    if (z >= 0.5L) return erfinv_ref(1 - z);
    return bisect_increasing([](ld t) { return -std::erfc(t); }, -z, 0, 30);
}

// exp(x^2) erfc(x), with x^2 split exactly so the exponent carries no rounding error.
ld erfcx_ref(ld x) {
    if (x < -27) return kDoubleInf;
    if (x < 100) {
        const ld hi = x * x;
        const ld lo = std::fma(x, x, -hi);
        return std::exp(hi) * std::erfc(x) * (1 + lo);
    }
    const ld t = 1 / (2 * x * x);
    ld term = 1, sum = 1;
    for (int k = 1; k < 12; ++k) {
        term *= -(2 * k - 1) * t;
        sum += term;
    }
    return sum / (x * std::sqrt(0xc90fdaa22168c235p-62L));
}

// Phi(x) = erfc(-x/sqrt(2))/2 with -x/sqrt(2) carried as y + dy (long double hi and lo parts of
// 1/sqrt(2)), so the deep tail is not spoilt by the argument's rounding.
ld normcdf_ref(ld x) {
    if (std::isinf(x)) return x > 0 ? 1 : 0;
    const ld c_hi = 0xb504f333f9de6484p-64L, c_lo = 0xb2fb1366ea957d3ep-129L;
    const ld y = -x * c_hi;
    const ld dy = std::fma(-x, c_hi, -y) - x * c_lo;
    const ld two_over_sqrt_pi = 0x906eba8214db688dp-63L;
    return (std::erfc(y) - dy * two_over_sqrt_pi * std::exp(-y * y)) / 2;
}

ld sinpi_ref(ld x) {
    ld r = std::fmod(x, 2.0L);  // exact
    if (r > 1) r -= 2;
    if (r < -1) r += 2;
    if (r > 0.5L) r = 1 - r;  // sin(pi r) = sin(pi (1 - r)), keeping the argument small
    if (r < -0.5L) r = -1 - r;
    return std::sin(0xc90fdaa22168c235p-62L * r);
}

ld cospi_ref(ld x) {
    ld r = std::fmod(std::fabs(x), 2.0L);  // exact, in [0, 2)
    if (r > 1) r = 2 - r;                  // cos(pi r) = cos(pi (2 - r)), now in [0, 1]
    return sinpi_ref(0.5L - r);            // cos(pi r) = sin(pi (1/2 - r))
}

ld norm_ref(int dim, const ld* p) {
    ld acc = 0;
    bool inf = false;
    for (int i = 0; i < dim; ++i) {
        if (std::isinf(p[i])) inf = true;
        acc += p[i] * p[i];
    }
    return inf ? kDoubleInf : std::sqrt(acc);
}

// A float operation evaluated by the hardware in the given rounding mode (volatile keeps the
// compiler from folding or moving it across fesetround).
template <class F>
auto in_mode(int mode, F f) -> decltype(f()) {
    std::fesetround(mode);
    const auto r = f();
    std::fesetround(FE_TONEAREST);
    return r;
}

const int kModes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

bool same_value(float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || bits_of<std::uint32_t>(a) == bits_of<std::uint32_t>(b);
}

bool same_value(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || bits_of<std::uint64_t>(a) == bits_of<std::uint64_t>(b);
}

// Floats with every exponent, subnormals, and exact operands for zero sums.
std::vector<float> wide_floats(int n, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<float> v = edges<float>();
    for (int i = 0; i < n; ++i) {
        std::uint32_t b = gen();
        if ((b & 0x7f800000u) == 0x7f800000u) b &= 0xbfffffffu;  // no random NaN/inf: edges have them
        v.push_back(bits_of<float>(b));
    }
    return v;
}

// ---------------------------------------------------------------------------------------------
// Vector types and dim3.

TEST(PreludeVectorTypes, SizesAndAlignmentsMatchCuda) {
#define EXPECT_LAYOUT(T, size, align)         \
    EXPECT_EQ(sizeof(T), size_t(size)) << #T; \
    EXPECT_EQ(alignof(T), size_t(align)) << #T
    EXPECT_LAYOUT(char1, 1, 1);
    EXPECT_LAYOUT(uchar2, 2, 2);
    EXPECT_LAYOUT(char3, 3, 1);
    EXPECT_LAYOUT(uchar4, 4, 4);
    EXPECT_LAYOUT(short1, 2, 2);
    EXPECT_LAYOUT(ushort2, 4, 4);
    EXPECT_LAYOUT(short3, 6, 2);
    EXPECT_LAYOUT(ushort4, 8, 8);
    EXPECT_LAYOUT(int1, 4, 4);
    EXPECT_LAYOUT(uint2, 8, 8);
    EXPECT_LAYOUT(int3, 12, 4);
    EXPECT_LAYOUT(uint4, 16, 16);
    EXPECT_LAYOUT(long1, sizeof(long), sizeof(long));
    EXPECT_LAYOUT(ulong2, 2 * sizeof(long), 2 * sizeof(long));
    EXPECT_LAYOUT(long3, 3 * sizeof(long), sizeof(long));
    EXPECT_LAYOUT(ulong4, 4 * sizeof(long), 16);
    EXPECT_LAYOUT(longlong1, 8, 8);
    EXPECT_LAYOUT(ulonglong2, 16, 16);
    EXPECT_LAYOUT(longlong3, 24, 8);
    EXPECT_LAYOUT(ulonglong4, 32, 16);
    EXPECT_LAYOUT(float1, 4, 4);
    EXPECT_LAYOUT(float2, 8, 8);
    EXPECT_LAYOUT(float3, 12, 4);
    EXPECT_LAYOUT(float4, 16, 16);
    EXPECT_LAYOUT(double1, 8, 8);
    EXPECT_LAYOUT(double2, 16, 16);
    EXPECT_LAYOUT(double3, 24, 8);
    EXPECT_LAYOUT(double4, 32, 16);
    EXPECT_LAYOUT(double4_16a, 32, 16);
    EXPECT_LAYOUT(double4_32a, 32, 32);
    EXPECT_LAYOUT(longlong4_32a, 32, 32);
    EXPECT_LAYOUT(uint3, 12, 4);
    EXPECT_LAYOUT(dim3, 12, 4);
    EXPECT_LAYOUT(__half, 2, 2);
    EXPECT_LAYOUT(__half2, 4, 4);
    EXPECT_LAYOUT(__nv_bfloat16, 2, 2);
    EXPECT_LAYOUT(__nv_bfloat162, 4, 4);
#undef EXPECT_LAYOUT
    static_assert(std::is_same<decltype(char2{}.x), signed char>::value, "char vectors are signed");
    static_assert(std::is_aggregate<float4>::value, "vector types are aggregates");
    static_assert(std::is_trivially_copyable<double2>::value, "vector types are trivially copyable");
}

TEST(PreludeVectorTypes, MakeFunctionsFillEveryComponent) {
    const float4 f = make_float4(1.5f, -2.0f, 3.25f, 4.0f);
    EXPECT_EQ(f.x, 1.5f);
    EXPECT_EQ(f.y, -2.0f);
    EXPECT_EQ(f.z, 3.25f);
    EXPECT_EQ(f.w, 4.0f);
    const int3 i = make_int3(-7, 8, 9);
    EXPECT_EQ(i.x, -7);
    EXPECT_EQ(i.y, 8);
    EXPECT_EQ(i.z, 9);
    const uchar2 u = make_uchar2(200, 255);
    EXPECT_EQ(u.x, 200);
    EXPECT_EQ(u.y, 255);
    const char4 c = make_char4(-128, 127, -1, 0);
    EXPECT_EQ(c.x, -128);
    EXPECT_EQ(c.w, 0);
    const double2 d = make_double2(0.1, -0.2);
    EXPECT_EQ(d.x, 0.1);
    EXPECT_EQ(d.y, -0.2);
    const ulonglong4 q = make_ulonglong4(1, 2, 3, ~0ull);
    EXPECT_EQ(q.w, ~0ull);
    const longlong1 l = make_longlong1(-5);
    EXPECT_EQ(l.x, -5);
    const double4_32a w = make_double4_32a(1, 2, 3, 4);
    EXPECT_EQ(w.z, 3.0);
    constexpr short2 s = make_short2(-3, 4);
    static_assert(s.x == -3 && s.y == 4, "make_* is constexpr");
    const float3 agg = {1, 2, 3};
    EXPECT_EQ(agg.z, 3.0f);
}

TEST(PreludeVectorTypes, Dim3DefaultsAndConversions) {
    const dim3 all;
    EXPECT_EQ(all.x, 1u);
    EXPECT_EQ(all.y, 1u);
    EXPECT_EQ(all.z, 1u);
    const dim3 one(64);
    EXPECT_EQ(one.x, 64u);
    EXPECT_EQ(one.y, 1u);
    EXPECT_EQ(one.z, 1u);
    const dim3 two(16, 8);
    EXPECT_EQ(two.y, 8u);
    EXPECT_EQ(two.z, 1u);
    const dim3 braced = {4, 5, 6};
    EXPECT_EQ(braced.z, 6u);
    const uint3 u = braced;  // dim3 -> uint3
    EXPECT_EQ(u.x, 4u);
    EXPECT_EQ(u.y, 5u);
    EXPECT_EQ(u.z, 6u);
    const dim3 back = make_uint3(7, 8, 9);  // uint3 -> dim3
    EXPECT_EQ(back.x, 7u);
    EXPECT_EQ(back.z, 9u);
    auto takes_dim3 = [](dim3 d) { return d.x * d.y * d.z; };
    EXPECT_EQ(takes_dim3(256), 256u);  // an integer where a dim3 is expected, as in <<<n, 256>>>
}

// ---------------------------------------------------------------------------------------------
// min and max.

TEST(PreludeMath, MinMaxOverloadsResolveLikeCuda) {
    static_assert(std::is_same<decltype(min(1, 2)), int>::value, "");
    static_assert(std::is_same<decltype(min(1u, 2u)), unsigned int>::value, "");
    static_assert(std::is_same<decltype(min(1.0f, 2.0f)), float>::value, "");
    static_assert(std::is_same<decltype(min(1.0, 2.0)), double>::value, "");
    static_assert(std::is_same<decltype(min(1LL, 2LL)), long long>::value, "");
    static_assert(std::is_same<decltype(min(1ULL, 2ULL)), unsigned long long>::value, "");
    static_assert(std::is_same<decltype(min(1L, 2L)), long>::value, "");
    static_assert(std::is_same<decltype(min(1, 2u)), unsigned int>::value, "");
    static_assert(std::is_same<decltype(min(1u, 2)), unsigned int>::value, "");
    static_assert(std::is_same<decltype(max(1LL, 2ULL)), unsigned long long>::value, "");
    static_assert(std::is_same<decltype(max(1.0f, 2.0)), double>::value, "");
    static_assert(std::is_same<decltype(max(1.0, 2.0f)), double>::value, "");
    static_assert(std::is_same<decltype(max(1, 2)), int>::value, "");
    static_assert(std::is_same<decltype(max(1.0f, 2.0f)), float>::value, "");
    static_assert(std::is_same<decltype(max(std::size_t{1}, std::size_t{2})), unsigned long>::value, "");
    EXPECT_EQ(min(3, -4), -4);
    EXPECT_EQ(max(3, -4), 3);
    EXPECT_EQ(min(-1, 1u), 1u);  // -1 converts to 0xffffffff, as in CUDA
    EXPECT_EQ(max(-1, 1u), 0xffffffffu);
    EXPECT_EQ(min(-2LL, 3ULL), 3ULL);
    EXPECT_EQ(llmin(-2, 3), -2);
    EXPECT_EQ(ullmax(2, 3), 3u);
    EXPECT_EQ(umin(7u, 5u), 5u);
    EXPECT_EQ(min(2.5f, -1.0f), -1.0f);
    EXPECT_EQ(max(kFloatNan, 1.0f), 1.0f);  // fmaxf: NaN is missing data
    EXPECT_EQ(min(1.0, kDoubleNan), 1.0);
    EXPECT_TRUE(std::isnan(min(kFloatNan, kFloatNan)));
    // Signed zeros are ordered, -0 < +0, in either operand order (as on sm_90).
    EXPECT_FALSE(std::signbit(max(-0.0f, 0.0f)));
    EXPECT_FALSE(std::signbit(max(0.0f, -0.0f)));
    EXPECT_TRUE(std::signbit(min(-0.0f, 0.0f)));
    EXPECT_TRUE(std::signbit(min(0.0f, -0.0f)));
    EXPECT_FALSE(std::signbit(max(-0.0, 0.0f)));
    EXPECT_TRUE(std::signbit(min(0.0, -0.0)));
}

// ---------------------------------------------------------------------------------------------
// Math functions against higher-precision references.

TEST(PreludeMath, ReciprocalRoots) {
    const auto pos = concat(log_uniform<float>(-149, 127, 3000, 1, true), edges<float>());
    // Correctly rounded (an exhaustive run over all positive floats found no miss).
    expect_ulps(
        "rsqrtf", pos, [](float x) { return rsqrtf(x); }, [](float x) { return 1 / std::sqrt(static_cast<ld>(x)); },
        0.5001);
    expect_ulps(
        "__frsqrt_rn", pos, [](float x) { return __frsqrt_rn(x); },
        [](float x) { return 1 / std::sqrt(static_cast<ld>(x)); }, 0.5001);
    expect_ulps(
        "rsqrt(float)", pos, [](float x) { return rsqrt(x); },
        [](float x) { return 1 / std::sqrt(static_cast<ld>(x)); }, 0.5001);
    const auto all = concat(log_uniform<float>(-149, 127, 3000, 2), edges<float>());
    expect_ulps(
        "rcbrtf", all, [](float x) { return rcbrtf(x); }, [](float x) { return 1 / std::cbrt(static_cast<ld>(x)); },
        0.501);
    EXPECT_EQ(rsqrtf(-0.0f), -kFloatInf);
    EXPECT_EQ(rsqrtf(kFloatInf), 0.0f);
    EXPECT_TRUE(std::isnan(rsqrtf(-1.0f)));
    EXPECT_EQ(rcbrtf(-0.0f), -kFloatInf);
    EXPECT_EQ(rcbrtf(-8.0f), -0.5f);
    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    const auto dpos = concat(log_uniform<double>(-1074, 1023, 3000, 3, true), edges<double>());
    expect_ulps(
        "rsqrt", dpos, [](double x) { return rsqrt(x); }, [](double x) { return 1 / std::sqrt(static_cast<ld>(x)); },
        0.501);
    const auto dall = concat(log_uniform<double>(-1074, 1023, 3000, 4), edges<double>());
    expect_ulps(
        "rcbrt", dall, [](double x) { return rcbrt(x); }, [](double x) { return 1 / std::cbrt(static_cast<ld>(x)); },
        0.501);
}

TEST(PreludeMath, ExpTen) {
    const auto xs = concat(uniform<float>(-46.0f, 39.0f, 3000, 5), edges<float>());
    auto ref = [](float x) { return std::pow(10.0L, static_cast<ld>(x)); };
    expect_ulps(
        "exp10f (prelude)", xs, [](float x) { return exp10f<>(x); }, ref, 0.501);
    // "As called" is the C library's where it has one (glibc's exp10 is within 2 ulp).
    expect_ulps(
        "exp10f (as called)", xs, [](float x) { return exp10f(x); }, ref, 1.0);
    expect_ulps(
        "exp10(float)", xs, [](float x) { return exp10(x); }, ref, 1.0);
    expect_ulps(
        "__exp10f", xs, [](float x) { return __exp10f(x); }, ref, 0.501);
    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    const auto ds = concat(uniform<double>(-325.0, 309.0, 3000, 6), edges<double>());
    auto dref = [](double x) { return std::pow(10.0L, static_cast<ld>(x)); };
    expect_ulps(
        "exp10 (prelude)", ds, [](double x) { return exp10<>(x); }, dref, 1.0);
    expect_ulps(
        "exp10 (as called)", ds, [](double x) { return exp10(x); }, dref, 2.0);
}

TEST(PreludeMath, SinPiCosPi) {
    const auto xs =
        concat(concat(uniform<float>(-4.0f, 4.0f, 3000, 7), log_uniform<float>(-149, 40, 2000, 8)), edges<float>());
    expect_ulps(
        "sinpif", xs, [](float x) { return sinpif(x); }, [](float x) { return sinpi_ref(x); }, 0.501);
    expect_ulps(
        "cospif", xs, [](float x) { return cospif(x); }, [](float x) { return cospi_ref(x); }, 0.501);
    for (float x : xs) {
        float s, c;
        sincospif(x, &s, &c);
        EXPECT_TRUE(same_value(s, sinpif(x)) && same_value(c, cospif(x))) << hex(x);
    }
    // IEEE 754's signs for exact zeros: sinpi(+n) = +0, sinpi(-n) = -0, cospi(n + 1/2) = +0.
    for (float n : {0.0f, 1.0f, 2.0f, 3.0f, 1e6f + 1, 0x1p22f - 1, 0x1p30f}) {
        EXPECT_FALSE(std::signbit(sinpif(n))) << n;
        EXPECT_TRUE(std::signbit(sinpif(-n))) << n;
        if (n < 0x1p22f) {  // n + 1/2 is still a float
            EXPECT_EQ(bits_of<std::uint32_t>(cospif(n + 0.5f)), 0u) << n;
            EXPECT_EQ(bits_of<std::uint32_t>(cospif(-n - 0.5f)), 0u) << n;
        }
    }
    EXPECT_EQ(cospif(1.0f), -1.0f);
    EXPECT_EQ(sinpif(0.5f), 1.0f);
    EXPECT_EQ(sinpif(-1.5f), 1.0f);
    EXPECT_TRUE(std::isnan(sinpif(kFloatInf)) && std::isnan(cospif(-kFloatInf)));
    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    const auto ds =
        concat(concat(uniform<double>(-4, 4, 3000, 9), log_uniform<double>(-1074, 60, 2000, 10)), edges<double>());
    expect_ulps(
        "sinpi", ds, [](double x) { return sinpi(x); }, [](double x) { return sinpi_ref(x); }, 1.5);
    expect_ulps(
        "cospi", ds, [](double x) { return cospi(x); }, [](double x) { return cospi_ref(x); }, 1.5);
    double s, c;
    sincospi(-2.0, &s, &c);
    EXPECT_TRUE(std::signbit(s));
    EXPECT_EQ(c, 1.0);
    EXPECT_EQ(cospi(0x1p52 + 1), -1.0);  // odd integer beyond 2^52
}

TEST(PreludeMath, Norms) {
    std::mt19937_64 gen(11);
    std::uniform_int_distribution<int> dims(1, 20), ex(-80, 80);
    std::uniform_real_distribution<double> mant(-2, 2);
    ld worst_f = 0, worst_r = 0;
    for (int i = 0; i < 3000; ++i) {
        const int dim = dims(gen);
        float p[20];
        ld q[20];
        const int base = ex(gen);
        for (int k = 0; k < dim; ++k) {
            p[k] = static_cast<float>(std::ldexp(mant(gen), base + static_cast<int>(gen() % 8)));
            q[k] = p[k];
        }
        const ld n = norm_ref(dim, q);
        worst_f = std::max(worst_f, ulp_error(normf(dim, p), n));
        worst_r = std::max(worst_r, ulp_error(rnormf(dim, p), 1 / n));
        worst_f =
            std::max(worst_f, ulp_error(norm3df(p[0], p[1 % dim], p[2 % dim]),
                                        std::sqrt(q[0] * q[0] + q[1 % dim] * q[1 % dim] + q[2 % dim] * q[2 % dim])));
        const ld n4 =
            std::sqrt(q[0] * q[0] + q[1 % dim] * q[1 % dim] + q[2 % dim] * q[2 % dim] + q[3 % dim] * q[3 % dim]);
        worst_f = std::max(worst_f, ulp_error(norm4df(p[0], p[1 % dim], p[2 % dim], p[3 % dim]), n4));
        worst_r = std::max(worst_r, ulp_error(rnorm4df(p[0], p[1 % dim], p[2 % dim], p[3 % dim]), 1 / n4));
        worst_r = std::max(worst_r,
                           ulp_error(rhypotf(p[0], p[1 % dim]), 1 / std::sqrt(q[0] * q[0] + q[1 % dim] * q[1 % dim])));
    }
    EXPECT_LE(static_cast<double>(worst_f), 0.501);
    EXPECT_LE(static_cast<double>(worst_r), 0.501);
    EXPECT_EQ(norm3df(2e38f, 3e38f, 0.0f), kFloatInf);
    EXPECT_EQ(norm3df(0x3p100f, 0x4p100f, 0.0f), 0x5p100f);
    EXPECT_EQ(norm3df(kFloatNan, -kFloatInf, 1.0f), kFloatInf);  // infinity wins over NaN
    EXPECT_EQ(rnorm3df(kFloatNan, kFloatInf, 1.0f), 0.0f);
    EXPECT_TRUE(std::isnan(norm4df(kFloatNan, 1, 2, 3)));
    EXPECT_EQ(norm3df(0x1p-149f, 0, 0), 0x1p-149f);

    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    std::uniform_int_distribution<int> dex(-1070, 1020);
    ld worst3 = 0, worst4 = 0, worstn = 0, worsth = 0;
    for (int i = 0; i < 3000; ++i) {
        const int dim = dims(gen);
        double p[20];
        ld q[20];
        const int base = dex(gen);
        for (int k = 0; k < dim; ++k) {
            p[k] = std::ldexp(mant(gen), base + static_cast<int>(gen() % 8));
            q[k] = p[k];
        }
        const ld n = norm_ref(dim, q);
        worstn = std::max(worstn, ulp_error(norm(dim, p), n));
        worstn = std::max(worstn, ulp_error(rnorm(dim, p), 1 / n));
        const ld r[4] = {q[0], q[1 % dim], q[2 % dim], q[3 % dim]};
        worst3 = std::max(worst3, ulp_error(norm3d(p[0], p[1 % dim], p[2 % dim]), norm_ref(3, r)));
        worst3 = std::max(worst3, ulp_error(rnorm3d(p[0], p[1 % dim], p[2 % dim]), 1 / norm_ref(3, r)));
        worst4 = std::max(worst4, ulp_error(norm4d(p[0], p[1 % dim], p[2 % dim], p[3 % dim]), norm_ref(4, r)));
        worst4 = std::max(worst4, ulp_error(rnorm4d(p[0], p[1 % dim], p[2 % dim], p[3 % dim]), 1 / norm_ref(4, r)));
        worsth = std::max(worsth, ulp_error(rhypot(p[0], p[1 % dim]), 1 / norm_ref(2, r)));
    }
    EXPECT_LE(static_cast<double>(worst3), 0.501) << "norm3d / rnorm3d";
    EXPECT_LE(static_cast<double>(worst4), 0.501) << "norm4d / rnorm4d";
    EXPECT_LE(static_cast<double>(worstn), 0.501) << "norm / rnorm";
    EXPECT_LE(static_cast<double>(worsth), 0.501) << "rhypot";
    EXPECT_LE(static_cast<double>(ulp_error(norm3d(1e308, 1e308, 1e308), std::sqrt(3.0L) * static_cast<ld>(1e308))),
              0.501);
    EXPECT_EQ(norm4d(0x1p-1074, 0, 0, 0), 0x1p-1074);
    EXPECT_EQ(norm3d(kDoubleNan, kDoubleInf, 0), kDoubleInf);
    EXPECT_EQ(rhypot(kDoubleNan, -kDoubleInf), 0.0);
    EXPECT_GT(rhypot(1e308, 1e308), 0.0);  // a subnormal, not 1 / inf
    EXPECT_EQ(rnorm3d(0, 0, -0.0), kDoubleInf);
}

TEST(PreludeMath, InverseErrorFunctions) {
    // Inputs: uniform over the domain, plus values crowding the ends (1 - 2^-k, tiny, subnormal).
    auto near_one = [](int n, unsigned seed) {
        std::vector<double> v;
        std::mt19937_64 gen(seed);
        std::uniform_real_distribution<double> k(1, 52);
        for (int i = 0; i < n; ++i) v.push_back(1 - std::exp2(-k(gen)));
        return v;
    };
    std::vector<float> fx = uniform<float>(-1, 1, 2000, 12);
    for (double v : near_one(500, 13)) fx.push_back(static_cast<float>(v));
    fx = concat(concat(fx, log_uniform<float>(-149, -2, 500, 14)), edges<float>());
    expect_ulps(
        "erfinvf", fx, [](float x) { return erfinvf(x); }, [](float x) { return erfinv_ref(x); }, 0.501);
    std::vector<float> fz = concat(uniform<float>(0, 2, 2000, 15), log_uniform<float>(-149, 0, 1000, 16, true));
    fz = concat(fz, edges<float>());
    expect_ulps(
        "erfcinvf", fz, [](float z) { return erfcinvf(z); }, [](float z) { return erfcinv_ref(z); }, 0.501);
    std::vector<float> fp = concat(uniform<float>(0, 1, 2000, 17), log_uniform<float>(-149, -1, 1000, 18, true));
    fp = concat(fp, edges<float>());
    auto fp_ref = [](float p) { return -0xb504f333f9de6484p-63L * erfcinv_ref(2.0L * p); };
    expect_ulps(
        "normcdfinvf", fp, [](float p) { return normcdfinvf(p); }, fp_ref, 0.501);
    EXPECT_EQ(erfinvf(1.0f), kFloatInf);
    EXPECT_EQ(erfinvf(-1.0f), -kFloatInf);
    EXPECT_TRUE(std::signbit(erfinvf(-0.0f)));
    EXPECT_EQ(erfcinvf(0.0f), kFloatInf);
    EXPECT_EQ(erfcinvf(2.0f), -kFloatInf);
    EXPECT_EQ(erfcinvf(1.0f), 0.0f);
    EXPECT_EQ(normcdfinvf(0.0f), -kFloatInf);
    EXPECT_EQ(normcdfinvf(0.5f), 0.0f);

    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    std::vector<double> dx = uniform<double>(-1, 1, 1500, 19);
    for (double v : near_one(500, 20)) dx.push_back(-v);
    dx = concat(concat(dx, log_uniform<double>(-1074, -2, 500, 21)), edges<double>());
    expect_ulps(
        "erfinv", dx, [](double x) { return erfinv(x); }, [](double x) { return erfinv_ref(x); }, 3.0);
    std::vector<double> dz = concat(uniform<double>(0, 2, 1500, 22), log_uniform<double>(-1074, 0, 1000, 23, true));
    auto dz_ref = [](double z) { return erfcinv_ref(z); };
    expect_ulps(
        "erfcinv", concat(dz, edges<double>()), [](double z) { return erfcinv(z); }, dz_ref, 3.0);
    std::vector<double> dp = concat(uniform<double>(0, 1, 1500, 24), log_uniform<double>(-1074, -1, 1000, 25, true));
    auto dp_ref = [](double p) { return -0xb504f333f9de6484p-63L * erfcinv_ref(2.0L * p); };
    expect_ulps(
        "normcdfinv", concat(dp, edges<double>()), [](double p) { return normcdfinv(p); }, dp_ref, 3.0);
}

TEST(PreludeMath, ScaledComplementaryErrorFunction) {
    const auto xs =
        concat(concat(uniform<float>(-10, 12, 2000, 26), log_uniform<float>(-149, 127, 1000, 27)), edges<float>());
    expect_ulps(
        "erfcxf", xs, [](float x) { return erfcxf(x); }, [](float x) { return erfcx_ref(x); }, 0.501);
    EXPECT_EQ(erfcxf(kFloatInf), 0.0f);
    EXPECT_EQ(erfcxf(-kFloatInf), kFloatInf);
    EXPECT_EQ(erfcxf(0.0f), 1.0f);
    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    const auto ds = concat(concat(uniform<double>(-26.6, 40, 2000, 28), log_uniform<double>(-1074, 1023, 1000, 29)),
                           edges<double>());
    // CUDA documents 4 ulp for erfcx.
    expect_ulps(
        "erfcx", ds, [](double x) { return erfcx(x); }, [](double x) { return erfcx_ref(x); }, 4.0);
}

TEST(PreludeMath, NormalCdf) {
    const auto xs = concat(uniform<float>(-15, 7, 3000, 30), edges<float>());
    expect_ulps(
        "normcdff", xs, [](float x) { return normcdff(x); }, [](float x) { return normcdf_ref(x); }, 0.501);
    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    const auto ds = concat(uniform<double>(-38.4, 9, 3000, 31), edges<double>());
    // CUDA documents 5 ulp for normcdf.
    expect_ulps(
        "normcdf", ds, [](double x) { return normcdf(x); }, [](double x) { return normcdf_ref(x); }, 4.0);
}

TEST(PreludeMath, BesselI0I1) {
    const auto xs = concat(uniform<float>(-95, 95, 3000, 32), edges<float>());
    auto i0 = [](ld x) { return std::cyl_bessel_i(0.0L, std::fabs(x)); };
    auto i1 = [](ld x) { return std::copysign(std::cyl_bessel_i(1.0L, std::fabs(x)), x); };
    auto finite = [](std::vector<float> v) {
        v.erase(std::remove_if(v.begin(), v.end(), [](float x) { return !(std::fabs(x) < 1000); }), v.end());
        return v;
    };
    // The reference (libstdc++'s long double cyl_bessel_i) is kept to |x| < 1000.
    expect_ulps(
        "cyl_bessel_i0f", finite(xs), [](float x) { return cyl_bessel_i0f(x); }, i0, 0.501);
    expect_ulps(
        "cyl_bessel_i1f", finite(xs), [](float x) { return cyl_bessel_i1f(x); }, i1, 0.501);
    EXPECT_EQ(cyl_bessel_i0f(kFloatInf), kFloatInf);
    EXPECT_EQ(cyl_bessel_i1f(-kFloatInf), -kFloatInf);
    EXPECT_TRUE(std::isnan(cyl_bessel_i0f(kFloatNan)));
    EXPECT_EQ(cyl_bessel_i0f(0.0f), 1.0f);
    EXPECT_TRUE(std::signbit(cyl_bessel_i1f(-0.0f)));
    if (!kWideLongDouble) GTEST_SKIP() << "no long double wider than double";
    auto finite_d = [](std::vector<double> v) {
        v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !(std::fabs(x) < 1000); }), v.end());
        return v;
    };
    const auto ds = finite_d(
        concat(concat(uniform<double>(-714, 714, 2000, 33), uniform<double>(-30, 30, 1000, 34)), edges<double>()));
    // CUDA documents 6 ulp for both.
    expect_ulps(
        "cyl_bessel_i0", ds, [](double x) { return cyl_bessel_i0(x); }, i0, 2.0);
    expect_ulps(
        "cyl_bessel_i1", ds, [](double x) { return cyl_bessel_i1(x); }, i1, 2.0);
}

TEST(PreludeMath, SinCosAndFastMathIntrinsics) {
    // The fast-math intrinsics are correctly rounded here (the GPU's are approximations); the C
    // library's float functions (sincosf as called) are within 1 ulp.
    const auto trig = concat(uniform<float>(-100, 100, 3000, 35), edges<float>());
    expect_ulps(
        "__sinf", trig, [](float x) { return __sinf(x); }, [](float x) { return std::sin(static_cast<ld>(x)); }, 0.501);
    expect_ulps(
        "__cosf", trig, [](float x) { return __cosf(x); }, [](float x) { return std::cos(static_cast<ld>(x)); }, 0.501);
    expect_ulps(
        "__tanf", trig, [](float x) { return __tanf(x); }, [](float x) { return std::tan(static_cast<ld>(x)); }, 0.501);
    for (float x : trig) {
        float s, c, s2, c2;
        __sincosf(x, &s, &c);
        sincosf(x, &s2, &c2);
        EXPECT_TRUE(same_value(s, __sinf(x)) && same_value(c, __cosf(x))) << hex(x);
        EXPECT_LE(static_cast<double>(ulp_error(s2, std::sin(static_cast<ld>(x)))), 1.0) << hex(x);
        EXPECT_LE(static_cast<double>(ulp_error(c2, std::cos(static_cast<ld>(x)))), 1.0) << hex(x);
        sincosf<>(x, &s2, &c2);  // the prelude's own, where the C library also has one
        EXPECT_TRUE(same_value(s2, __sinf(x)) && same_value(c2, __cosf(x))) << hex(x);
    }
    double ds, dc;
    sincos<>(0.5, &ds, &dc);
    EXPECT_EQ(ds, std::sin(0.5));
    EXPECT_EQ(dc, std::cos(0.5));
    const auto ex = concat(uniform<float>(-104, 89, 3000, 36), edges<float>());
    expect_ulps(
        "__expf", ex, [](float x) { return __expf(x); }, [](float x) { return std::exp(static_cast<ld>(x)); }, 0.501);
    const auto pos = concat(log_uniform<float>(-149, 127, 3000, 37, true), edges<float>());
    expect_ulps(
        "__logf", pos, [](float x) { return __logf(x); }, [](float x) { return std::log(static_cast<ld>(x)); }, 0.501);
    expect_ulps(
        "__log2f", pos, [](float x) { return __log2f(x); }, [](float x) { return std::log2(static_cast<ld>(x)); },
        0.501);
    expect_ulps(
        "__log10f", pos, [](float x) { return __log10f(x); }, [](float x) { return std::log10(static_cast<ld>(x)); },
        0.501);
    std::mt19937_64 gen(38);
    std::uniform_real_distribution<float> base(0.01f, 10.0f), expo(-20.0f, 20.0f);
    ld worst = 0;
    for (int i = 0; i < 3000; ++i) {
        const float x = base(gen), y = expo(gen);
        worst = std::max(worst, ulp_error(__powf(x, y), std::pow(static_cast<ld>(x), static_cast<ld>(y))));
    }
    EXPECT_LE(static_cast<double>(worst), 0.501) << "__powf";
}

TEST(PreludeMath, SaturateAndFastDivide) {
    EXPECT_EQ(__saturatef(0.25f), 0.25f);
    EXPECT_EQ(__saturatef(-3.0f), 0.0f);
    EXPECT_EQ(__saturatef(7.0f), 1.0f);
    EXPECT_EQ(__saturatef(kFloatInf), 1.0f);
    EXPECT_EQ(bits_of<std::uint32_t>(__saturatef(kFloatNan)), 0u);
    EXPECT_EQ(bits_of<std::uint32_t>(__saturatef(-0.0f)), 0u);
    const auto xs = wide_floats(3000, 39);
    const auto ys = wide_floats(3000, 40);
    for (std::size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
        const float x = xs[i], y = ys[i];
        const bool huge = std::fabs(y) > 0x1p126f && std::isfinite(y);
        if (!huge) {
            EXPECT_TRUE(same_value(__fdividef(x, y), x / y)) << hex(x) << " / " << hex(y);
        }
        EXPECT_TRUE(same_value(fdividef(x, y), x / y)) << hex(x) << " / " << hex(y);
    }
    // The GPU's quirk for 2^126 < |y| < 2^128: zero for finite x, NaN for infinite x.
    EXPECT_EQ(bits_of<std::uint32_t>(__fdividef(1.0f, 0x1p127f)), 0u);
    EXPECT_EQ(bits_of<std::uint32_t>(__fdividef(-3.0f, 0x1p127f)), 0x80000000u);
    EXPECT_TRUE(std::isnan(__fdividef(kFloatInf, -0x1.8p126f)));
    EXPECT_EQ(__fdividef(1.0f, 0x1p126f), 0x1p-126f);
}

// ---------------------------------------------------------------------------------------------
// IEEE-rounded arithmetic and conversions against the hardware in each rounding mode.

TEST(PreludeRounding, SinglePrecisionOperationsInEveryDirection) {
    const auto a = wide_floats(4000, 41);
    const auto b = wide_floats(4000, 42);
    const auto c = wide_floats(4000, 43);
    std::vector<float> near;  // operands of similar size, so that sums cancel and round
    for (std::size_t i = 0; i < a.size(); ++i) near.push_back(std::nextafter(-a[i], b[i]));
    for (int m = 0; m < 4; ++m) {
        const int mode = kModes[m];
        float (*add)(float, float) = m == 0 ? __fadd_rn : m == 1 ? __fadd_rz : m == 2 ? __fadd_ru : __fadd_rd;
        float (*sub)(float, float) = m == 0 ? __fsub_rn : m == 1 ? __fsub_rz : m == 2 ? __fsub_ru : __fsub_rd;
        float (*mul)(float, float) = m == 0 ? __fmul_rn : m == 1 ? __fmul_rz : m == 2 ? __fmul_ru : __fmul_rd;
        float (*div)(float, float) = m == 0 ? __fdiv_rn : m == 1 ? __fdiv_rz : m == 2 ? __fdiv_ru : __fdiv_rd;
        float (*fma)(float, float, float) = m == 0 ? __fmaf_rn : m == 1 ? __fmaf_rz : m == 2 ? __fmaf_ru : __fmaf_rd;
        float (*rcp)(float) = m == 0 ? __frcp_rn : m == 1 ? __frcp_rz : m == 2 ? __frcp_ru : __frcp_rd;
        float (*sqr)(float) = m == 0 ? __fsqrt_rn : m == 1 ? __fsqrt_rz : m == 2 ? __fsqrt_ru : __fsqrt_rd;
        int failures = 0;
        auto check = [&](float got, float want, const char* op, float x, float y) {
            if (!same_value(got, want) && failures++ < 5) {
                ADD_FAILURE() << op << " mode " << m << ": " << hex(x) << ", " << hex(y) << " gave " << hex(got)
                              << ", hardware " << hex(want);
            }
        };
        for (std::size_t i = 0; i < a.size(); ++i) {
            const float x = a[i], y = b[i], z = c[i], w = near[i], nxy = -x * y;
            check(add(x, y),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = y;
                              volatile float r = p + q;
                              return float(r);
                          }),
                  "add", x, y);
            check(add(x, w),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = w;
                              volatile float r = p + q;
                              return float(r);
                          }),
                  "add", x, w);
            check(sub(x, y),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = y;
                              volatile float r = p - q;
                              return float(r);
                          }),
                  "sub", x, y);
            check(sub(x, x),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = x;
                              volatile float r = p - q;
                              return float(r);
                          }),
                  "sub", x, x);
            check(mul(x, y),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = y;
                              volatile float r = p * q;
                              return float(r);
                          }),
                  "mul", x, y);
            check(div(x, y),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = y;
                              volatile float r = p / q;
                              return float(r);
                          }),
                  "div", x, y);
            check(fma(x, y, z),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = y, s = z;
                              volatile float r = std::fma(float(p), float(q), float(s));
                              return float(r);
                          }),
                  "fma", x, y);
            check(fma(x, y, nxy),
                  in_mode(mode,
                          [&] {
                              volatile float p = x, q = y, s = nxy;
                              volatile float r = std::fma(float(p), float(q), float(s));
                              return float(r);
                          }),
                  "fma(x, y, -xy)", x, y);
            check(rcp(x),
                  in_mode(mode,
                          [&] {
                              volatile float p = x;
                              volatile float r = 1.0f / p;
                              return float(r);
                          }),
                  "rcp", x, 1);
            check(sqr(std::fabs(x)),
                  in_mode(mode,
                          [&] {
                              volatile float p = std::fabs(x);
                              volatile float r = std::sqrt(float(p));
                              return float(r);
                          }),
                  "sqrt", x, 0);
        }
    }
    // Zero signs: an exact zero sum is -0 only when rounding down.
    EXPECT_TRUE(std::signbit(__fadd_rd(1.0f, -1.0f)));
    EXPECT_FALSE(std::signbit(__fadd_ru(1.0f, -1.0f)));
    EXPECT_TRUE(std::signbit(__fadd_rz(-0.0f, -0.0f)));
    EXPECT_TRUE(std::signbit(__fmaf_rd(1.0f, 1.0f, -1.0f)));
    // Overflow: to infinity or to the largest finite value, by direction.
    EXPECT_EQ(__fmul_rz(0x1p100f, 0x1p100f), std::numeric_limits<float>::max());
    EXPECT_EQ(__fmul_ru(0x1p100f, 0x1p100f), kFloatInf);
    EXPECT_EQ(__fmul_rd(-0x1p100f, 0x1p100f), -kFloatInf);
    EXPECT_EQ(__fmul_ru(-0x1p100f, 0x1p100f), -std::numeric_limits<float>::max());
}

// CUDA never fuses __fmul_rn / __dmul_rn with a following add, even where nvcc would contract
// a plain a * b + c. Meaningful when this file is built with contraction on (-ffp-contract=fast,
// the GNU modes' default, with an FMA-capable -march).
TEST(PreludeRounding, RoundedMultipliesAreNeverContracted) {
    const auto a = wide_floats(3000, 64);
    const auto b = wide_floats(3000, 65);
    const auto c = wide_floats(3000, 66);
    for (std::size_t i = 0; i < a.size(); ++i) {
        volatile float p = a[i], q = b[i];
        volatile float product = p * q;
        const float want = float(product) + c[i];
        EXPECT_TRUE(same_value(__fmul_rn(a[i], b[i]) + c[i], want)) << i;
        EXPECT_TRUE(same_value(__fadd_rn(a[i] * b[i], c[i]), want)) << i;
        volatile double dp = a[i], dq = c[i];
        volatile double dproduct = dp * dq;
        const double dwant = double(dproduct) + b[i];
        EXPECT_TRUE(same_value(__dmul_rn(a[i], c[i]) + b[i], dwant)) << i;
    }
}

TEST(PreludeRounding, DoublePrecisionOperationsInEveryDirection) {
    std::mt19937_64 gen(44);
    auto rnd = [&](int emin, int emax) {
        std::uniform_int_distribution<int> e(emin, emax);
        std::uniform_real_distribution<double> m(1, 2);
        return ((gen() & 1) ? -1 : 1) * std::ldexp(m(gen), e(gen));
    };
    int failures = 0;
    auto fail = [&](const std::string& what) {
        if (failures++ < 5) ADD_FAILURE() << what;
    };
    for (int m = 1; m < 4; ++m) {
        const int mode = kModes[m];
        double (*add)(double, double) = m == 1 ? __dadd_rz : m == 2 ? __dadd_ru : __dadd_rd;
        double (*sub)(double, double) = m == 1 ? __dsub_rz : m == 2 ? __dsub_ru : __dsub_rd;
        double (*mul)(double, double) = m == 1 ? __dmul_rz : m == 2 ? __dmul_ru : __dmul_rd;
        double (*div)(double, double) = m == 1 ? __ddiv_rz : m == 2 ? __ddiv_ru : __ddiv_rd;
        double (*fma)(double, double, double) = m == 1 ? __fma_rz : m == 2 ? __fma_ru : __fma_rd;
        double (*rcp)(double) = m == 1 ? __drcp_rz : m == 2 ? __drcp_ru : __drcp_rd;
        double (*sqr)(double) = m == 1 ? __dsqrt_rz : m == 2 ? __dsqrt_ru : __dsqrt_rd;
        for (int i = 0; i < 3000; ++i) {
            const double x = rnd(-1074, 1023), y = rnd(-1074, 1023), z = rnd(-1074, 1023);
            // Addition is computed exactly (TwoSum), checked against the hardware in that mode.
            const double hw_add = in_mode(mode, [&] {
                volatile double p = x, q = y;
                volatile double r = p + q;
                return double(r);
            });
            if (!same_value(add(x, y), hw_add)) fail("add " + hex(x) + " " + hex(y));
            const double xn = std::nextafter(-x, y);
            const double hw_sub = in_mode(mode, [&] {
                volatile double p = x, q = xn;
                volatile double r = p - q;
                return double(r);
            });
            if (!same_value(sub(x, xn), hw_sub)) fail("sub " + hex(x) + " " + hex(xn));
            const double hw_fma = in_mode(mode, [&] {
                volatile double p = x, q = y, s = z;
                volatile double r = std::fma(double(p), double(q), double(s));
                return double(r);
            });
            if (!same_value(fma(x, y, z), hw_fma)) fail("fma " + hex(x) + " " + hex(y) + " " + hex(z));
            // Multiply, divide and square root by the defining inequalities, with exact residual signs
            // (moderate exponents, so the residuals neither overflow nor underflow).
            const double a = rnd(-400, 400), b = rnd(-400, 400);
            const double lo_dir = -kDoubleInf, hi_dir = kDoubleInf;
            auto bracket = [&](double r, bool up) {
                return up ? std::nextafter(r, lo_dir) : std::nextafter(r, hi_dir);
            };
            const double p = mul(a, b);
            // The exact product lies between p and its neighbour on the side the rounding did not go.
            const bool p_up = m == 2 || (m == 1 && p < 0);
            const double pn = bracket(p, p_up);
            const double e1 = std::fma(a, b, -p), e2 = std::fma(a, b, -pn);
            if (p_up ? !(e1 <= 0 && e2 > 0) : !(e1 >= 0 && e2 < 0)) fail("mul " + hex(a) + " " + hex(b));
            const double q = div(a, b);
            const bool q_up = m == 2 || (m == 1 && q < 0);
            const double qn = bracket(q, q_up);
            // a/b vs q: sign of (a - q b) / b.
            const double r1 = std::fma(-q, b, a) / b, r2 = std::fma(-qn, b, a) / b;
            if (q_up ? !(r1 <= 0 && r2 > 0) : !(r1 >= 0 && r2 < 0)) fail("div " + hex(a) + " " + hex(b));
            const double sa = std::fabs(a);
            const double s = sqr(sa);
            const bool s_up = m == 2;
            const double sn = bracket(s, s_up);
            const double t1 = std::fma(-s, s, sa), t2 = std::fma(-sn, sn, sa);
            if (s_up ? !(t1 <= 0 && t2 > 0) : !(t1 >= 0 && t2 < 0)) fail("sqrt " + hex(sa));
            const double hw_rcp = in_mode(mode, [&] {
                volatile double v = a;
                volatile double r = 1.0 / v;
                return double(r);
            });
            if (!same_value(rcp(a), hw_rcp)) fail("rcp " + hex(a));
        }
    }
    EXPECT_EQ(__dadd_rn(0.1, 0.2), 0.1 + 0.2);
    EXPECT_EQ(__dmul_rn(0.1, 3.0), 0.1 * 3.0);
    EXPECT_EQ(__fma_rn(0.1, 3.0, -0.3), std::fma(0.1, 3.0, -0.3));
    EXPECT_TRUE(std::signbit(__dadd_rd(1.0, -1.0)));
    EXPECT_EQ(__dadd_rz(std::numeric_limits<double>::max(), std::numeric_limits<double>::max()),
              std::numeric_limits<double>::max());
    EXPECT_EQ(__dadd_ru(std::numeric_limits<double>::max(), 1e300), kDoubleInf);
    EXPECT_EQ(std::fegetround(), FE_TONEAREST);  // restored after every directed operation
}

TEST(PreludeConversions, FloatToIntegerRoundsAndSaturates) {
    std::vector<double> xs = {0.5,    1.5,     2.5,    -0.5,         -1.5,         -2.5,         0.49999997,
                              -0.0,   1e10,    -1e10,  4294967295.0, 4294967296.0, 2147483647.5, -2147483648.5,
                              9.3e18, -9.3e18, 1.8e19, 2e19,         kDoubleInf,   -kDoubleInf};
    std::mt19937_64 gen(45);
    std::uniform_real_distribution<double> small(-1e3, 1e3);
    for (int i = 0; i < 3000; ++i) xs.push_back(small(gen));
    for (double x : log_uniform<double>(-10, 70, 3000, 46)) xs.push_back(x);
    // Reference: round with the C library (nearbyint in the default mode is half-even), then
    // clamp, comparing in long double, where every int64 is exact.
    auto ref = [](ld r, ld lo, ld hi) { return r < lo ? lo : r > hi ? hi : r; };
    auto rounded = [](double x, int m) {
        return m == 0 ? std::nearbyint(x) : m == 1 ? std::trunc(x) : m == 2 ? std::ceil(x) : std::floor(x);
    };
    const ld i32lo = -2147483648.0L, i32hi = 2147483647.0L, u32hi = 4294967295.0L;
    const ld i64lo = -9223372036854775808.0L, i64hi = 9223372036854775807.0L, u64hi = 18446744073709551615.0L;
    int failures = 0;
    auto expect = [&](ld got, ld want, const char* what, double x) {
        if (got != want && failures++ < 10)
            ADD_FAILURE() << what << "(" << hex(x) << ") = " << static_cast<double>(got);
    };
    for (double x : xs) {
        const float f = static_cast<float>(x);
        for (int m = 0; m < 4; ++m) {
            const double rd = rounded(x, m);
            const double rf = rounded(f, m);
            int (*f2i)(float) = m == 0   ? __float2int_rn
                                : m == 1 ? __float2int_rz
                                : m == 2 ? __float2int_ru
                                         : __float2int_rd;
            unsigned (*f2u)(float) = m == 0   ? __float2uint_rn
                                     : m == 1 ? __float2uint_rz
                                     : m == 2 ? __float2uint_ru
                                              : __float2uint_rd;
            long long (*f2ll)(float) = m == 0   ? __float2ll_rn
                                       : m == 1 ? __float2ll_rz
                                       : m == 2 ? __float2ll_ru
                                                : __float2ll_rd;
            unsigned long long (*f2ull)(float) = m == 0   ? __float2ull_rn
                                                 : m == 1 ? __float2ull_rz
                                                 : m == 2 ? __float2ull_ru
                                                          : __float2ull_rd;
            int (*d2i)(double) = m == 0   ? __double2int_rn
                                 : m == 1 ? __double2int_rz
                                 : m == 2 ? __double2int_ru
                                          : __double2int_rd;
            unsigned (*d2u)(double) = m == 0   ? __double2uint_rn
                                      : m == 1 ? __double2uint_rz
                                      : m == 2 ? __double2uint_ru
                                               : __double2uint_rd;
            long long (*d2ll)(double) = m == 0   ? __double2ll_rn
                                        : m == 1 ? __double2ll_rz
                                        : m == 2 ? __double2ll_ru
                                                 : __double2ll_rd;
            unsigned long long (*d2ull)(double) = m == 0   ? __double2ull_rn
                                                  : m == 1 ? __double2ull_rz
                                                  : m == 2 ? __double2ull_ru
                                                           : __double2ull_rd;
            expect(f2i(f), ref(rf, i32lo, i32hi), "__float2int", f);
            expect(f2u(f), ref(rf, 0, u32hi), "__float2uint", f);
            expect(f2ll(f), ref(rf, i64lo, i64hi), "__float2ll", f);
            expect(f2ull(f), ref(rf, 0, u64hi), "__float2ull", f);
            expect(d2i(x), ref(rd, i32lo, i32hi), "__double2int", x);
            expect(d2u(x), ref(rd, 0, u32hi), "__double2uint", x);
            expect(d2ll(x), ref(rd, i64lo, i64hi), "__double2ll", x);
            expect(d2ull(x), ref(rd, 0, u64hi), "__double2ull", x);
        }
    }
    // NaN gives what the GPU gives (sm_90, CUDA 13).
    EXPECT_EQ(__float2int_rn(kFloatNan), 0);
    EXPECT_EQ(__float2uint_rz(kFloatNan), 0u);
    EXPECT_EQ(__float2ll_rn(kFloatNan), std::numeric_limits<long long>::min());
    EXPECT_EQ(__float2ull_rz(kFloatNan), 1ull << 63);
    EXPECT_EQ(__double2int_rz(kDoubleNan), std::numeric_limits<int>::min());
    EXPECT_EQ(__double2uint_rn(kDoubleNan), 1u << 31);
    EXPECT_EQ(__double2ll_rd(kDoubleNan), std::numeric_limits<long long>::min());
}

TEST(PreludeConversions, IntegerAndDoubleToFloatInEveryDirection) {
    std::mt19937_64 gen(47);
    int failures = 0;
    auto check = [&](double got, double want, const char* what, ld v, int m) {
        if (!same_value(got, want) && failures++ < 10) {
            ADD_FAILURE() << what << "(" << static_cast<double>(v) << ") mode " << m << " gave " << hex(got)
                          << ", hardware " << hex(want);
        }
    };
    for (int i = 0; i < 4000; ++i) {
        const std::uint64_t r = gen() >> (gen() % 64);
        const int i32 = static_cast<int>(static_cast<std::uint32_t>(r));
        const unsigned u32 = static_cast<unsigned>(r);
        const std::uint64_t q = gen() >> (gen() % 64);
        const auto i64 = static_cast<long long>((gen() & 1) ? 0 - q : q);
        const unsigned long long u64 = r;
        const double d = bits_of<double>(gen());
        for (int m = 0; m < 4; ++m) {
            const int mode = kModes[m];
            // The hardware converts from long double (exact for every 64-bit integer) in the mode.
            auto hw_f = [&](ld v) {
                return in_mode(mode, [&] {
                    volatile ld p = v;
                    volatile float q = static_cast<float>(p);
                    return float(q);
                });
            };
            auto hw_d = [&](ld v) {
                return in_mode(mode, [&] {
                    volatile ld p = v;
                    volatile double q = static_cast<double>(p);
                    return double(q);
                });
            };
            float (*i2f)(int) = m == 0   ? __int2float_rn
                                : m == 1 ? __int2float_rz
                                : m == 2 ? __int2float_ru
                                         : __int2float_rd;
            float (*u2f)(unsigned) = m == 0   ? __uint2float_rn
                                     : m == 1 ? __uint2float_rz
                                     : m == 2 ? __uint2float_ru
                                              : __uint2float_rd;
            float (*ll2f)(long long) = m == 0   ? __ll2float_rn
                                       : m == 1 ? __ll2float_rz
                                       : m == 2 ? __ll2float_ru
                                                : __ll2float_rd;
            float (*ull2f)(unsigned long long) = m == 0   ? __ull2float_rn
                                                 : m == 1 ? __ull2float_rz
                                                 : m == 2 ? __ull2float_ru
                                                          : __ull2float_rd;
            double (*ll2d)(long long) = m == 0   ? __ll2double_rn
                                        : m == 1 ? __ll2double_rz
                                        : m == 2 ? __ll2double_ru
                                                 : __ll2double_rd;
            double (*ull2d)(unsigned long long) = m == 0   ? __ull2double_rn
                                                  : m == 1 ? __ull2double_rz
                                                  : m == 2 ? __ull2double_ru
                                                           : __ull2double_rd;
            float (*d2f)(double) = m == 0   ? __double2float_rn
                                   : m == 1 ? __double2float_rz
                                   : m == 2 ? __double2float_ru
                                            : __double2float_rd;
            check(i2f(i32), hw_f(i32), "__int2float", i32, m);
            check(u2f(u32), hw_f(u32), "__uint2float", u32, m);
            check(ll2f(i64), hw_f(i64), "__ll2float", i64, m);
            check(ull2f(u64), hw_f(u64), "__ull2float", u64, m);
            check(ll2d(i64), hw_d(i64), "__ll2double", i64, m);
            check(ull2d(u64), hw_d(u64), "__ull2double", u64, m);
            const float got = d2f(d);
            const float want = in_mode(mode, [&] {
                volatile double p = d;
                volatile float q = static_cast<float>(p);
                return float(q);
            });
            check(got, want, "__double2float", d, m);
        }
    }
    EXPECT_EQ(__int2double_rn(-7), -7.0);
    EXPECT_EQ(__uint2double_rn(4000000000u), 4e9);
}

TEST(PreludeConversions, BitReinterpretation) {
    std::mt19937_64 gen(48);
    for (int i = 0; i < 2000; ++i) {
        const std::uint64_t b = gen();
        const auto u = static_cast<std::uint32_t>(b);
        EXPECT_EQ(__float_as_uint(__uint_as_float(u)), u);
        EXPECT_EQ(__float_as_int(__int_as_float(static_cast<int>(u))), static_cast<int>(u));
        EXPECT_EQ(bits_of<std::uint32_t>(__uint_as_float(u)), u);
        const double d = __longlong_as_double(static_cast<long long>(b));
        EXPECT_EQ(bits_of<std::uint64_t>(d), b);
        EXPECT_EQ(static_cast<std::uint64_t>(__double_as_longlong(d)), b);
        EXPECT_EQ(static_cast<std::uint32_t>(__double2hiint(d)), static_cast<std::uint32_t>(b >> 32));
        EXPECT_EQ(static_cast<std::uint32_t>(__double2loint(d)), static_cast<std::uint32_t>(b));
        EXPECT_EQ(bits_of<std::uint64_t>(__hiloint2double(__double2hiint(d), __double2loint(d))), b);
    }
    EXPECT_EQ(__float_as_uint(1.0f), 0x3f800000u);
    EXPECT_EQ(__double2hiint(1.0), 0x3ff00000);
}

// ---------------------------------------------------------------------------------------------
// Integer intrinsics against bit-by-bit references.

TEST(PreludeIntrinsics, BitCountsAndReversal) {
    std::mt19937_64 gen(49);
    std::vector<std::uint64_t> values = {0, 1, ~0ull, 1ull << 63, 1ull << 31, 0x80000000ull, 0xffffffffull};
    for (int i = 0; i < 10000; ++i) values.push_back(gen() >> (gen() % 64));
    for (std::uint64_t v : values) {
        const auto v32 = static_cast<std::uint32_t>(v);
        int pop32 = 0, pop64 = 0, clz32 = 32, clz64 = 64, ffs32 = 0, ffs64 = 0;
        std::uint32_t rev32 = 0;
        std::uint64_t rev64 = 0;
        for (int k = 0; k < 64; ++k) {
            const bool bit = (v >> k) & 1;
            pop64 += bit;
            if (bit) clz64 = 63 - k;
            if (bit && ffs64 == 0) ffs64 = k + 1;
            if (bit) rev64 |= 1ull << (63 - k);
            if (k < 32) {
                pop32 += bit;
                if (bit) clz32 = 31 - k;
                if (bit && ffs32 == 0) ffs32 = k + 1;
                if (bit) rev32 |= 1u << (31 - k);
            }
        }
        EXPECT_EQ(__popc(v32), pop32);
        EXPECT_EQ(__popcll(v), pop64);
        EXPECT_EQ(__clz(static_cast<int>(v32)), clz32);
        EXPECT_EQ(__clzll(static_cast<long long>(v)), clz64);
        EXPECT_EQ(__ffs(static_cast<int>(v32)), ffs32);
        EXPECT_EQ(__ffsll(static_cast<long long>(v)), ffs64);
        EXPECT_EQ(__brev(v32), rev32);
        EXPECT_EQ(__brevll(v), rev64);
    }
}

TEST(PreludeIntrinsics, BytePermAndFunnelShifts) {
    std::mt19937 gen(50);
    for (int i = 0; i < 10000; ++i) {
        const std::uint32_t x = gen(), y = gen(), s = gen(), sh = gen() % 80;
        unsigned char bytes[8];
        for (int k = 0; k < 4; ++k) {
            bytes[k] = static_cast<unsigned char>(x >> (8 * k));
            bytes[k + 4] = static_cast<unsigned char>(y >> (8 * k));
        }
        std::uint32_t perm = 0;
        for (int n = 0; n < 4; ++n) perm |= static_cast<std::uint32_t>(bytes[(s >> (4 * n)) & 7]) << (8 * n);
        EXPECT_EQ(__byte_perm(x, y, s), perm);
        // Funnel shifts bit by bit: bit j of the left shift is bit (j + 32 - n) of hi:lo.
        auto bit = [&](int k) { return k < 0 || k >= 64 ? 0u : k < 32 ? (x >> k) & 1 : (y >> (k - 32)) & 1; };
        const int n_wrap = static_cast<int>(sh & 31), n_clamp = static_cast<int>(std::min(sh, 32u));
        std::uint32_t l = 0, lc = 0, r = 0, rc = 0;
        for (int j = 0; j < 32; ++j) {
            l |= bit(j + 32 - n_wrap) << j;
            lc |= bit(j + 32 - n_clamp) << j;
            r |= bit(j + n_wrap) << j;
            rc |= bit(j + n_clamp) << j;
        }
        EXPECT_EQ(__funnelshift_l(x, y, sh), l) << sh;
        EXPECT_EQ(__funnelshift_lc(x, y, sh), lc) << sh;
        EXPECT_EQ(__funnelshift_r(x, y, sh), r) << sh;
        EXPECT_EQ(__funnelshift_rc(x, y, sh), rc) << sh;
    }
    EXPECT_EQ(__byte_perm(0x80412283u, 0x9a7bc6d5u, 0x8888u), 0x83838383u);  // as on sm_90
}

TEST(PreludeIntrinsics, MultipliesAndAverages) {
    std::mt19937_64 gen(51);
    __extension__ typedef __int128 i128;
    __extension__ typedef unsigned __int128 u128;
    for (int i = 0; i < 10000; ++i) {
        const std::uint64_t a = gen() >> (gen() % 64), b = gen() >> (gen() % 64);
        const auto x = static_cast<std::int32_t>(a), y = static_cast<std::int32_t>(b);
        const auto ux = static_cast<std::uint32_t>(a), uy = static_cast<std::uint32_t>(b);
        const auto sx = static_cast<std::int64_t>(gen()), sy = static_cast<std::int64_t>(gen() >> (gen() % 64));
        // 24-bit operands: the low 24 bits as a signed (or unsigned) number.
        const std::int64_t x24 = static_cast<std::int64_t>(ux & 0xffffff) - ((ux & 0x800000) ? 0x1000000 : 0);
        const std::int64_t y24 = static_cast<std::int64_t>(uy & 0xffffff) - ((uy & 0x800000) ? 0x1000000 : 0);
        EXPECT_EQ(static_cast<std::uint32_t>(__mul24(x, y)), static_cast<std::uint32_t>(x24 * y24));
        EXPECT_EQ(__umul24(ux, uy),
                  static_cast<std::uint32_t>(static_cast<std::uint64_t>(ux & 0xffffff) * (uy & 0xffffff)));
        EXPECT_EQ(__mulhi(x, y), static_cast<int>((static_cast<i128>(x) * y) >> 32));
        EXPECT_EQ(__umulhi(ux, uy), static_cast<std::uint32_t>((static_cast<u128>(ux) * uy) >> 32));
        EXPECT_EQ(__mul64hi(sx, sy), static_cast<long long>((static_cast<i128>(sx) * sy) >> 64));
        EXPECT_EQ(__umul64hi(a, b), static_cast<unsigned long long>((static_cast<u128>(a) * b) >> 64));
        const std::uint32_t z = static_cast<std::uint32_t>(gen());
        EXPECT_EQ(__sad(x, y, z), static_cast<std::uint32_t>(std::llabs(static_cast<long long>(x) - y) + z));
        EXPECT_EQ(__usad(ux, uy, z), static_cast<std::uint32_t>(std::llabs(static_cast<long long>(ux) - uy) + z));
        const ld half_sum = (static_cast<ld>(x) + y) / 2;
        EXPECT_EQ(__hadd(x, y), static_cast<int>(std::floor(half_sum)));
        EXPECT_EQ(__rhadd(x, y), static_cast<int>(std::floor(half_sum + 0.5L)));
        EXPECT_EQ(__uhadd(ux, uy), static_cast<std::uint32_t>((static_cast<ld>(ux) + uy) / 2));
        EXPECT_EQ(__urhadd(ux, uy), static_cast<std::uint32_t>((static_cast<ld>(ux) + uy + 1) / 2));
        std::uint32_t absdiff = 0, udot = z;
        std::int32_t dot = y;
        for (int n = 0; n < 4; ++n) {
            const int bx = static_cast<int>((ux >> (8 * n)) & 0xff), by = static_cast<int>((uy >> (8 * n)) & 0xff);
            absdiff |= static_cast<std::uint32_t>(std::abs(bx - by)) << (8 * n);
            udot += static_cast<std::uint32_t>(bx * by);
            dot = static_cast<std::int32_t>(
                static_cast<std::uint32_t>(dot) +
                static_cast<std::uint32_t>((bx >= 128 ? bx - 256 : bx) * (by >= 128 ? by - 256 : by)));
        }
        EXPECT_EQ(__vabsdiffu4(ux, uy), absdiff);
        EXPECT_EQ(__dp4a(ux, uy, z), udot);
        EXPECT_EQ(__dp4a(x, y, y), dot);
    }
    EXPECT_EQ(__mul24(0x00800000, 2),
              static_cast<int>(0xff000000u));  // bit 23 is the sign, as on sm_90
}

TEST(PreludeIntrinsics, CacheHintedLoadsAndStoresArePlainAccesses) {
    const float4 v = make_float4(1, 2, 3, 4);
    const float4 l = __ldg(&v);
    EXPECT_EQ(l.w, 4.0f);
    const int i = 42;
    EXPECT_EQ(__ldca(&i), 42);
    EXPECT_EQ(__ldcg(&i), 42);
    EXPECT_EQ(__ldcs(&i), 42);
    EXPECT_EQ(__ldlu(&i), 42);
    EXPECT_EQ(__ldcv(&i), 42);
    static_assert(std::is_same<decltype(__ldg(&v)), float4>::value, "__ldg returns the pointee type");
    float f = 0;
    __stcs(&f, 2.5);  // converts, as CUDA's per-type overloads do
    EXPECT_EQ(f, 2.5f);
    __stwb(&f, 1.0f);
    __stcg(&f, 3.0f);
    __stwt(&f, 4.0f);
    EXPECT_EQ(f, 4.0f);
    __nanosleep(1000);
}

// ---------------------------------------------------------------------------------------------
// 16-bit floats.

// Every finite non-negative value of a 16-bit format, ascending by bits, decoded by formula.
std::vector<ld> format_values(bool bfloat) {
    std::vector<ld> v;
    const unsigned max_finite = bfloat ? 0x7f7f : 0x7bff;
    for (unsigned b = 0; b <= max_finite; ++b) {
        const int frac_bits = bfloat ? 7 : 10, bias = bfloat ? 127 : 15;
        const unsigned e = b >> frac_bits, m = b & ((1u << frac_bits) - 1);
        v.push_back(e == 0
                        ? std::ldexp(static_cast<ld>(m), 1 - bias - frac_bits)
                        : std::ldexp(static_cast<ld>(m + (1u << frac_bits)), static_cast<int>(e) - bias - frac_bits));
    }
    return v;
}

// Rounds the exact value x to the format by search in the table of its values: a different
// method from the prelude's bit manipulation. m: 0 nearest even, 1 toward zero, 2 up, 3 down.
// `beyond` is the sign of (exact value - x) when x is only the nearest long double to it: it
// decides a tie that x alone would make.
std::uint16_t table_round(ld x, int m, const std::vector<ld>& table, int beyond = 0) {
    const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    const ld a = std::fabs(x);
    const auto it = std::upper_bound(table.begin(), table.end(), a);
    const auto lo = static_cast<unsigned>(it - table.begin() - 1);  // table[lo] <= a
    if (table[lo] == a) return static_cast<std::uint16_t>(sign | lo);
    const unsigned hi = lo + 1;  // max finite + 1 is the infinity's encoding in both formats
    const ld hi_value = hi < table.size() ? table[hi] : 2 * table.back() - table[table.size() - 2];
    const ld mid = (table[lo] + hi_value) / 2;
    unsigned r;
    const bool negative = sign != 0;
    switch (m) {
        case 0: {
            const int above = negative ? -beyond : beyond;  // the sign of (exact |value| - a)
            r = a < mid ? lo : a > mid ? hi : above > 0 ? hi : above < 0 ? lo : ((lo & 1) ? hi : lo);
            break;
        }
        case 1: r = lo; break;
        case 2: r = negative ? lo : hi; break;
        default: r = negative ? hi : lo; break;
    }
    return static_cast<std::uint16_t>(sign | r);
}

// Random floats around a format's range, its exact midpoints and their float neighbours.
std::vector<float> rounding_inputs(const std::vector<ld>& table, unsigned seed, int emin, int emax) {
    std::vector<float> v = log_uniform<float>(emin, emax, 20000, seed);
    std::mt19937 gen(seed + 1);
    for (int i = 0; i < 5000; ++i) {
        const std::size_t k = gen() % (table.size() - 1);
        const float mid = static_cast<float>((table[k] + table[k + 1]) / 2);
        const float s = (gen() & 1) ? -1.0f : 1.0f;
        v.push_back(s * mid);
        v.push_back(s * std::nextafter(mid, 0.0f));
        v.push_back(s * std::nextafter(mid, kFloatInf));
    }
    return concat(v, edges<float>());
}

TEST(PreludeHalf, EveryHalfRoundTripsThroughFloat) {
    const auto table = format_values(false);
    for (unsigned b = 0; b < 65536; ++b) {
        const __half h = __ushort_as_half(static_cast<unsigned short>(b));
        const float f = __half2float(h);
        const bool nan = (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
        if (nan) {
            EXPECT_EQ(bits_of<std::uint32_t>(f), 0x7fffffffu) << b;  // the GPU's canonical NaN
            EXPECT_EQ(__half_as_ushort(__float2half(f)), 0x7fff) << b;
            EXPECT_TRUE(__hisnan(h));
            continue;
        }
        const unsigned mag = b & 0x7fff;
        const ld want = mag == 0x7c00 ? static_cast<ld>(kFloatInf) : table[mag];
        EXPECT_EQ(static_cast<ld>(f), (b & 0x8000) ? -want : want) << b;
        EXPECT_EQ(std::signbit(f), (b & 0x8000) != 0) << b;
        EXPECT_EQ(__half_as_ushort(__float2half(f)), b) << b;
        EXPECT_EQ(__half_as_ushort(__float2half_rz(f)), b) << b;
        EXPECT_EQ(__half_as_ushort(__double2half(f)), b) << b;
        EXPECT_EQ(static_cast<float>(h), f) << b;  // the implicit conversion
    }
}

TEST(PreludeHalf, FloatToHalfRoundsLikeTheTable) {
    const auto table = format_values(false);
    const auto xs = rounding_inputs(table, 52, -30, 17);
    __half (*conv[4])(float) = {__float2half_rn, __float2half_rz, __float2half_ru, __float2half_rd};
    int failures = 0;
    for (float x : xs) {
        if (std::isnan(x)) {
            EXPECT_EQ(__half_as_ushort(__float2half(x)), 0x7fff);
            continue;
        }
        for (int m = 0; m < 4; ++m) {
            const std::uint16_t want = std::isinf(x) ? (x > 0 ? 0x7c00 : 0xfc00) : table_round(x, m, table);
            const std::uint16_t got = __half_as_ushort(conv[m](x));
            if (got != want && failures++ < 10)
                ADD_FAILURE() << hex(x) << " mode " << m << ": " << got << " != " << want;
        }
        EXPECT_EQ(__half_as_ushort(__float2half(x)), __half_as_ushort(__float2half_rn(x)));
        EXPECT_EQ(__half_as_ushort(__half(x)), __half_as_ushort(__float2half_rn(x)));
    }
    for (double d : log_uniform<double>(-40, 17, 20000, 53)) {
        const std::uint16_t want = table_round(d, 0, table);
        if (__half_as_ushort(__double2half(d)) != want && failures++ < 10) ADD_FAILURE() << "double " << hex(d);
    }
    EXPECT_EQ(__half_as_ushort(__double2half(kDoubleNan)), 0x7e00);  // as on sm_90
    EXPECT_EQ(__half_as_ushort(__float2half(65520.0f)), 0x7c00);
    EXPECT_EQ(__half_as_ushort(__float2half(65519.99f)), 0x7bff);
    EXPECT_EQ(__half_as_ushort(__float2half_rz(1e6f)), 0x7bff);
    EXPECT_EQ(__half_as_ushort(__float2half_rd(-0x1p-26f)), 0x8001);
}

TEST(PreludeHalf, BFloat16ConversionsRoundLikeTheTable) {
    const auto table = format_values(true);
    for (unsigned b = 0; b < 65536; ++b) {
        const __nv_bfloat16 h = __ushort_as_bfloat16(static_cast<unsigned short>(b));
        const float f = __bfloat162float(h);
        if ((b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0) {
            EXPECT_EQ(bits_of<std::uint32_t>(f), 0x7fffffffu);
            EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16(f)), 0x7fff);
            continue;
        }
        EXPECT_EQ(bits_of<std::uint32_t>(f), b << 16) << b;
        EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16(f)), b) << b;
    }
    const auto xs = rounding_inputs(table, 54, -140, 127);
    __nv_bfloat16 (*conv[4])(float) = {__float2bfloat16_rn, __float2bfloat16_rz, __float2bfloat16_ru,
                                       __float2bfloat16_rd};
    int failures = 0;
    for (float x : xs) {
        if (std::isnan(x)) continue;
        for (int m = 0; m < 4; ++m) {
            const std::uint16_t want = std::isinf(x) ? (x > 0 ? 0x7f80 : 0xff80) : table_round(x, m, table);
            const std::uint16_t got = __bfloat16_as_ushort(conv[m](x));
            if (got != want && failures++ < 10)
                ADD_FAILURE() << hex(x) << " mode " << m << ": " << got << " != " << want;
        }
    }
    EXPECT_EQ(__bfloat16_as_ushort(__float2bfloat16(kFloatNan)), 0x7fff);
}

template <class T>
T from_bits(unsigned short b);
template <>
__half from_bits<__half>(unsigned short b) {
    return __ushort_as_half(b);
}
template <>
__nv_bfloat16 from_bits<__nv_bfloat16>(unsigned short b) {
    return __ushort_as_bfloat16(b);
}

// Random finite halves (or bfloat16s) with every exponent.
template <class T>
std::vector<T> random_small_floats(int n, unsigned seed) {
    std::mt19937 gen(seed);
    std::vector<T> v;
    const unsigned exp_mask = std::is_same<T, __half>::value ? 0x7c00 : 0x7f80;
    while (static_cast<int>(v.size()) < n) {
        const auto b = static_cast<unsigned short>(gen());
        if ((b & exp_mask) == exp_mask) continue;
        v.push_back(from_bits<T>(b));
    }
    return v;
}

// x * y + z for 16-bit values: the nearest long double, and the sign of the rounding error (the
// product is exact; of the two addends, the larger minus the sum is exact).
ld fma_with_error_sign(ld x, ld y, ld z, int& beyond) {
    const ld p = x * y;
    const ld s = p + z;
    const ld d = std::fabs(p) >= std::fabs(z) ? (p - s) + z : (z - s) + p;
    beyond = d > 0 ? 1 : d < 0 ? -1 : 0;
    return s;
}

TEST(PreludeHalf, ArithmeticIsCorrectlyRounded) {
    const auto table = format_values(false);
    const auto a = random_small_floats<__half>(20000, 55);
    const auto b = random_small_floats<__half>(20000, 56);
    const auto c = random_small_floats<__half>(20000, 57);
    int failures = 0;
    auto expect = [&](__half got, ld exact, const char* op, std::size_t i) {
        const std::uint16_t want = std::isnan(exact) ? 0x7fff : table_round(exact, 0, table);
        if (__half_as_ushort(got) != want && failures++ < 10) {
            ADD_FAILURE() << op << " #" << i << ": " << __half_as_ushort(got) << " != " << want;
        }
    };
    for (std::size_t i = 0; i < a.size(); ++i) {
        const ld x = __half2float(a[i]), y = __half2float(b[i]), z = __half2float(c[i]);
        expect(__hadd(a[i], b[i]), x + y, "__hadd", i);  // exact in long double
        expect(__hsub(a[i], b[i]), x - y, "__hsub", i);
        expect(__hmul(a[i], b[i]), x * y, "__hmul", i);
        if (y != 0) expect(__hdiv(a[i], b[i]), x / y, "__hdiv", i);
        int beyond;
        const ld f = fma_with_error_sign(x, y, z, beyond);
        if (__half_as_ushort(__hfma(a[i], b[i], c[i])) != table_round(f, 0, table, beyond) && failures++ < 10) {
            ADD_FAILURE() << "__hfma #" << i;
        }
        if (x >= 0) expect(hsqrt(a[i]), std::sqrt(x), "hsqrt", i);
        expect(a[i] + b[i], x + y, "operator+", i);
        expect(a[i] * b[i], x * y, "operator*", i);
        expect(-a[i], -x, "unary -", i);
        expect(__habs(a[i]), std::fabs(x), "__habs", i);
        // Comparisons agree with float's (ordered); the u forms are true for NaN.
        EXPECT_EQ(__hlt(a[i], b[i]), x < y);
        EXPECT_EQ(a[i] < b[i], x < y);
        EXPECT_EQ(__hge(a[i], b[i]), x >= y);
        EXPECT_EQ(a[i] == b[i], x == y);
        EXPECT_EQ(a[i] != b[i], x != y);
        // The transcendental functions: within 1 ulp of the exact result.
        const auto within_one = [&](__half got, ld exact) {
            const std::uint16_t n = table_round(exact, 0, table);
            const int d = std::abs(static_cast<int>(__half_as_ushort(got) & 0x7fff) - static_cast<int>(n & 0x7fff));
            return d <= 1;
        };
        if (x > 0) {
            EXPECT_TRUE(within_one(hlog(a[i]), std::log(x))) << i;
            EXPECT_TRUE(within_one(hrsqrt(a[i]), 1 / std::sqrt(x))) << i;
        }
        if (x < 10) {
            EXPECT_TRUE(within_one(hexp(a[i]), std::exp(x))) << i;
        }
    }
    const __half nan = __ushort_as_half(0x7e01), one = __float2half(1.0f);
    EXPECT_FALSE(__heq(nan, nan));
    EXPECT_FALSE(__hne(nan, one));
    EXPECT_TRUE(__hneu(nan, one));
    EXPECT_TRUE(__hequ(nan, one));
    EXPECT_TRUE(nan != one);
    EXPECT_EQ(__half_as_ushort(__hadd(nan, one)), 0x7fff);
    EXPECT_EQ(__half_as_ushort(__hneg(nan)), 0x7fff);  // as on sm_90
    EXPECT_EQ(__half_as_ushort(__habs(__ushort_as_half(0xfe01))), 0x7fff);
    EXPECT_EQ(__half_as_ushort(__hneg(one)), 0xbc00);
    EXPECT_EQ(__hisinf(__float2half(-kFloatInf)), -1);
    EXPECT_EQ(__hisinf(__float2half(kFloatInf)), 1);
    EXPECT_EQ(__hisinf(one), 0);
}

TEST(PreludeHalf, MaxMinTreatNanAsMissingAndOrderSignedZeros) {
    const __half nan = __ushort_as_half(0x7e01), one = __float2half(1.0f), two = __float2half(2.0f);
    const __half pz = __ushort_as_half(0x0000), nz = __ushort_as_half(0x8000);
    EXPECT_EQ(__half_as_ushort(__hmax(nan, one)), __half_as_ushort(one));
    EXPECT_EQ(__half_as_ushort(__hmin(one, nan)), __half_as_ushort(one));
    EXPECT_EQ(__half_as_ushort(__hmax(nan, __ushort_as_half(0x7e02))), 0x7fff);
    EXPECT_EQ(__half_as_ushort(__hmax(nz, pz)), 0x0000);
    EXPECT_EQ(__half_as_ushort(__hmin(pz, nz)), 0x8000);
    EXPECT_EQ(__half_as_ushort(__hmax(one, two)), __half_as_ushort(two));
    EXPECT_EQ(__half_as_ushort(__hmin(one, two)), __half_as_ushort(one));
    EXPECT_EQ(__half_as_ushort(__hmax_nan(one, nan)), 0x7fff);
    EXPECT_EQ(__half_as_ushort(__hmin_nan(nan, one)), 0x7fff);
    EXPECT_EQ(__half_as_ushort(__hmax_nan(one, two)), __half_as_ushort(two));
}

TEST(PreludeHalf, PairsWorkElementWise) {
    const auto a = random_small_floats<__half>(2000, 58);
    const auto b = random_small_floats<__half>(2000, 59);
    for (std::size_t i = 0; i + 1 < a.size(); i += 2) {
        const __half2 p = __halves2half2(a[i], a[i + 1]), q = __halves2half2(b[i], b[i + 1]);
        const __half2 s = __hadd2(p, q), m = p * q, f = __hfma2(p, q, p), d = __h2div(p, q);
        EXPECT_EQ(__half_as_ushort(__low2half(s)), __half_as_ushort(__hadd(a[i], b[i])));
        EXPECT_EQ(__half_as_ushort(__high2half(s)), __half_as_ushort(__hadd(a[i + 1], b[i + 1])));
        EXPECT_EQ(__half_as_ushort(m.y), __half_as_ushort(__hmul(a[i + 1], b[i + 1])));
        EXPECT_EQ(__half_as_ushort(f.x), __half_as_ushort(__hfma(a[i], b[i], a[i])));
        EXPECT_EQ(__half_as_ushort(d.y), __half_as_ushort(__hdiv(a[i + 1], b[i + 1])));
        const float2 g = __half22float2(p);
        EXPECT_EQ(g.x, __half2float(a[i]));
        EXPECT_EQ(g.y, __high2float(p));
        EXPECT_EQ(__hbeq2(p, p), !__hisnan(a[i]) && !__hisnan(a[i + 1]));
    }
    const __half2 h = __floats2half2_rn(1.5f, -2.0f);
    EXPECT_EQ(__low2float(h), 1.5f);
    EXPECT_EQ(__high2float(h), -2.0f);
    EXPECT_EQ(__low2float(__lowhigh2highlow(h)), -2.0f);
    EXPECT_EQ(__high2float(__half2half2(__float2half(3.0f))), 3.0f);
    EXPECT_EQ(__low2float(__highs2half2(h, __float2half2_rn(7.0f))), -2.0f);
    EXPECT_EQ(__high2float(__lows2half2(h, __float2half2_rn(7.0f))), 7.0f);
    const __half2 eq = __heq2(h, __floats2half2_rn(1.5f, 5.0f));
    EXPECT_EQ(__low2float(eq), 1.0f);
    EXPECT_EQ(__high2float(eq), 0.0f);
    __half2 acc = __float2half2_rn(0.0f);
    acc += h;
    acc -= __float2half2_rn(0.5f);
    EXPECT_EQ(__low2float(acc), 1.0f);
    EXPECT_EQ(__high2float(-acc), 2.5f);
}

TEST(PreludeHalf, OperatorsConversionsAndIntegerRounding) {
    half h = 2.5f;  // `half` is __half
    __half g = 0;   // integer constructors: not ambiguous
    g += h;
    g *= __half(2);
    EXPECT_EQ(__half2float(g), 5.0f);
    EXPECT_EQ(float(++g), 6.0f);
    EXPECT_EQ(float(g--), 6.0f);
    EXPECT_EQ(float(g), 5.0f);
    EXPECT_TRUE(h < g && g > h && h <= h && g >= h);
    const __half_raw raw = h;
    EXPECT_EQ(raw.x, 0x4100);
    EXPECT_EQ(__half2float(__half(raw)), 2.5f);
    EXPECT_EQ(__half2int_rn(__float2half(2.5f)), 2);
    EXPECT_EQ(__half2int_rn(__float2half(3.5f)), 4);
    EXPECT_EQ(__half2int_rd(__float2half(-2.5f)), -3);
    EXPECT_EQ(__half2int_ru(__float2half(-2.5f)), -2);
    EXPECT_EQ(__half2int_rz(__ushort_as_half(0x7e01)), 0);
    EXPECT_EQ(__half2ll_rn(__ushort_as_half(0x7e01)), std::numeric_limits<long long>::min());
    EXPECT_EQ(__half2uint_rz(__float2half(-3.0f)), 0u);
    EXPECT_EQ(__half_as_ushort(__int2half_rn(2049)), __half_as_ushort(__float2half(2048.0f)));
    EXPECT_EQ(__half_as_ushort(__int2half_ru(2049)), __half_as_ushort(__float2half(2050.0f)));
    EXPECT_EQ(__half_as_ushort(__uint2half_rz(70000u)), 0x7bff);
    EXPECT_EQ(__half_as_ushort(__ll2half_rn(70000)), 0x7c00);
    EXPECT_EQ(__half_as_ushort(hceil(__float2half(1.25f))), __half_as_ushort(__float2half(2.0f)));
    EXPECT_EQ(__half_as_ushort(hrint(__float2half(2.5f))), __half_as_ushort(__float2half(2.0f)));
    EXPECT_EQ(__half_as_ushort(htrunc(__float2half(-1.75f))), __half_as_ushort(__float2half(-1.0f)));
    EXPECT_EQ(__half_as_ushort(__hadd_sat(__float2half(0.75f), __float2half(0.5f))), 0x3c00);
    EXPECT_EQ(__half_as_ushort(__short_as_half(__half_as_short(h))), 0x4100);
}

TEST(PreludeHalf, BFloat16ArithmeticAndOperators) {
    const auto table = format_values(true);
    const auto a = random_small_floats<__nv_bfloat16>(20000, 60);
    const auto b = random_small_floats<__nv_bfloat16>(20000, 61);
    int failures = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const ld x = __bfloat162float(a[i]), y = __bfloat162float(b[i]);
        auto check = [&](__nv_bfloat16 got, ld exact, const char* op) {
            const std::uint16_t want = table_round(exact, 0, table);
            if (__bfloat16_as_ushort(got) != want && failures++ < 10) ADD_FAILURE() << op << " #" << i;
        };
        check(__hadd(a[i], b[i]), x + y, "__hadd");
        check(a[i] - b[i], x - y, "operator-");
        check(__hmul(a[i], b[i]), x * y, "__hmul");
        if (y != 0) check(a[i] / b[i], x / y, "operator/");
        int beyond;
        const ld f = fma_with_error_sign(x, y, x, beyond);
        if (__bfloat16_as_ushort(__hfma(a[i], b[i], a[i])) != table_round(f, 0, table, beyond) && failures++ < 10) {
            ADD_FAILURE() << "__hfma #" << i;
        }
        EXPECT_EQ(a[i] < b[i], x < y);
    }
    nv_bfloat16 v = 1.0f;
    v += __float2bfloat16(0.5f);
    EXPECT_EQ(__bfloat162float(v), 1.5f);
    const __nv_bfloat162 p = __floats2bfloat162_rn(1.0f, 3.0f);
    const float2 f = __bfloat1622float2(__hmul2(p, p));
    EXPECT_EQ(f.x, 1.0f);
    EXPECT_EQ(f.y, 9.0f);
    EXPECT_EQ(__bfloat162float(__high2bfloat16(p)), 3.0f);
    EXPECT_EQ(__bfloat162float(__low2bfloat16(__halves2bfloat162(v, v))), 1.5f);
    EXPECT_EQ(__bfloat16_as_ushort(__hmax(__ushort_as_bfloat16(0x7fc1), v)), __bfloat16_as_ushort(v));
    EXPECT_EQ(__bfloat16_as_ushort(__hneg(__ushort_as_bfloat16(0x7fc1))), 0x7fff);
    EXPECT_EQ(__bfloat162int_rn(__float2bfloat16(-2.5f)), -2);
    EXPECT_EQ(__bfloat16_as_ushort(__int2bfloat16_rz(257)), __bfloat16_as_ushort(__float2bfloat16(256.0f)));
}

// ---------------------------------------------------------------------------------------------
// Atomics under contention.

constexpr int kThreads = 8;

// Runs body(t) on kThreads OS threads that all start together (a gate), so they contend.
template <class F>
void run_threads(F body) {
    std::atomic<int> waiting{kThreads};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            waiting.fetch_sub(1);
            while (waiting.load() > 0) std::this_thread::yield();
            body(t);
        });
    }
    for (auto& t : threads) t.join();
}

TEST(PreludeAtomics, AddsAreExactUnderContention) {
    constexpr int kIters = 100000;
    int i = 0;
    unsigned int u = 0;
    float f = 0;
    double d = 0;
    unsigned long long ull = 0;
    std::vector<std::vector<int>> olds(kThreads);
    run_threads([&](int t) {
        olds[t].reserve(kIters);
        for (int k = 0; k < kIters; ++k) {
            olds[t].push_back(atomicAdd(&i, 1));
            atomicAdd_block(&u, 2u);
            atomicAdd(&f, 1.0f);
            atomicAdd_system(&d, 0.5);
            atomicAdd(&ull, 3ull);
        }
    });
    EXPECT_EQ(i, kThreads * kIters);
    EXPECT_EQ(u, 2u * kThreads * kIters);
    EXPECT_EQ(f, static_cast<float>(kThreads * kIters));  // 800000 < 2^24: exact if no update is lost
    EXPECT_EQ(d, 0.5 * kThreads * kIters);
    EXPECT_EQ(ull, 3ull * kThreads * kIters);
    // Every old value atomicAdd returned is distinct: together they are 0 .. n-1.
    std::vector<int> all;
    for (const auto& v : olds) all.insert(all.end(), v.begin(), v.end());
    std::sort(all.begin(), all.end());
    bool permutation = true;
    for (std::size_t k = 0; k < all.size(); ++k) permutation = permutation && all[k] == static_cast<int>(k);
    EXPECT_TRUE(permutation);
}

TEST(PreludeAtomics, SixteenBitAndVectorAdds) {
    __half h = __float2half(0.0f);
    __half2 h2 = __floats2half2_rn(0.0f, 0.0f);
    __nv_bfloat16 b = __float2bfloat16(0.0f);
    float4 v4 = make_float4(0, 0, 0, 0);
    run_threads([&](int) {
        for (int k = 0; k < 32; ++k) {
            atomicAdd(&h, __float2half(1.0f));  // up to 256: exact in half and bfloat16
            atomicAdd(&h2, __floats2half2_rn(1.0f, 2.0f));
            atomicAdd(&b, __float2bfloat16(1.0f));
            atomicAdd(&v4, make_float4(1, 2, 3, 4));
        }
    });
    EXPECT_EQ(__half2float(h), 256.0f);
    EXPECT_EQ(__low2float(h2), 256.0f);
    EXPECT_EQ(__high2float(h2), 512.0f);
    EXPECT_EQ(__bfloat162float(b), 256.0f);
    EXPECT_EQ(v4.w, 1024.0f);
    float2 v2 = make_float2(1, 2);
    const float2 old = atomicAdd(&v2, make_float2(10, 20));
    EXPECT_EQ(old.y, 2.0f);
    EXPECT_EQ(v2.y, 22.0f);
    float nan = kFloatNan;
    EXPECT_TRUE(std::isnan(atomicAdd(&nan, 1.0f)));  // a NaN in memory does not make the CAS spin
}

TEST(PreludeAtomics, IncDecWrapAround) {
    unsigned int x = 5;
    EXPECT_EQ(atomicInc(&x, 5u), 5u);  // old >= val: wraps to 0
    EXPECT_EQ(x, 0u);
    EXPECT_EQ(atomicInc(&x, 5u), 0u);
    EXPECT_EQ(x, 1u);
    x = 9;
    atomicInc(&x, 5u);
    EXPECT_EQ(x, 0u);
    x = 0;
    EXPECT_EQ(atomicDec(&x, 5u), 0u);  // old == 0: wraps to val
    EXPECT_EQ(x, 5u);
    x = 9;
    atomicDec(&x, 5u);  // old > val: to val
    EXPECT_EQ(x, 5u);
    atomicDec(&x, 5u);
    EXPECT_EQ(x, 4u);
    // Under contention the counters cycle through 0 .. val: 80000 steps with val 996 (period 997).
    unsigned int inc = 0, dec = 0;
    run_threads([&](int) {
        for (int k = 0; k < 10000; ++k) {
            atomicInc(&inc, 996u);
            atomicDec_block(&dec, 996u);
        }
    });
    EXPECT_EQ(inc, 80000u % 997u);
    EXPECT_EQ(dec, (997u - 80000u % 997u) % 997u);
}

TEST(PreludeAtomics, CasSpinLockProtectsPlainData) {
    int lock = 0;
    long long counter = 0;  // not atomic: only the lock protects it
    constexpr int kIters = 20000;
    run_threads([&](int) {
        for (int k = 0; k < kIters; ++k) {
            while (atomicCAS(&lock, 0, 1) != 0) {}
            __threadfence();
            ++counter;
            __threadfence();
            atomicExch(&lock, 0);
        }
    });
    EXPECT_EQ(counter, static_cast<long long>(kThreads) * kIters);
    EXPECT_EQ(lock, 0);
    unsigned short s = 0;
    run_threads([&](int) {
        for (int k = 0; k < 1000; ++k) {
            unsigned short old = s, seen;
            while ((seen = atomicCAS(&s, old, static_cast<unsigned short>(old + 1))) != old) old = seen;
        }
    });
    EXPECT_EQ(s, kThreads * 1000);
    unsigned long long w = 7;
    EXPECT_EQ(atomicCAS(&w, 7ull, 9ull), 7ull);
    EXPECT_EQ(atomicCAS_system(&w, 7ull, 11ull), 9ull);  // failed: unchanged
    EXPECT_EQ(w, 9ull);
}

TEST(PreludeAtomics, MinMaxMatchTheSequentialResult) {
    std::mt19937_64 gen(62);
    std::vector<std::vector<std::uint64_t>> values(kThreads, std::vector<std::uint64_t>(20000));
    for (auto& v : values)
        for (auto& x : v) x = gen();
    int imin = std::numeric_limits<int>::max(), imax = std::numeric_limits<int>::min();
    unsigned int umin_ = ~0u, umax_ = 0;
    unsigned long long ullmin_ = ~0ull, ullmax_ = 0;
    long long llmin_ = std::numeric_limits<long long>::max(), llmax_ = std::numeric_limits<long long>::min();
    run_threads([&](int t) {
        for (std::uint64_t x : values[t]) {
            atomicMin(&imin, static_cast<int>(x));
            atomicMax(&imax, static_cast<int>(x >> 32));
            atomicMin_block(&umin_, static_cast<unsigned>(x));
            atomicMax(&umax_, static_cast<unsigned>(x));
            atomicMin(&ullmin_, x);
            atomicMax_system(&ullmax_, x);
            atomicMin(&llmin_, static_cast<long long>(x));
            atomicMax(&llmax_, static_cast<long long>(x));
        }
    });
    int ri = std::numeric_limits<int>::max(), rx = std::numeric_limits<int>::min();
    unsigned ru = ~0u, rux = 0;
    unsigned long long rull = ~0ull, rullx = 0;
    long long rll = std::numeric_limits<long long>::max(), rllx = std::numeric_limits<long long>::min();
    for (const auto& v : values) {
        for (std::uint64_t x : v) {
            ri = std::min(ri, static_cast<int>(x));
            rx = std::max(rx, static_cast<int>(x >> 32));
            ru = std::min(ru, static_cast<unsigned>(x));
            rux = std::max(rux, static_cast<unsigned>(x));
            rull = std::min(rull, static_cast<unsigned long long>(x));
            rullx = std::max(rullx, static_cast<unsigned long long>(x));
            rll = std::min(rll, static_cast<long long>(x));
            rllx = std::max(rllx, static_cast<long long>(x));
        }
    }
    EXPECT_EQ(imin, ri);
    EXPECT_EQ(imax, rx);
    EXPECT_EQ(umin_, ru);
    EXPECT_EQ(umax_, rux);
    EXPECT_EQ(ullmin_, rull);
    EXPECT_EQ(ullmax_, rullx);
    EXPECT_EQ(llmin_, rll);
    EXPECT_EQ(llmax_, rllx);
    int m = 5;
    EXPECT_EQ(atomicMin(&m, 9), 5);  // returns the old value, stores nothing larger
    EXPECT_EQ(m, 5);
    EXPECT_EQ(atomicMax(&m, 9), 5);
    EXPECT_EQ(m, 9);
}

TEST(PreludeAtomics, BitwiseSubAndExchange) {
    unsigned int bits = 0, cleared = ~0u;
    unsigned long long toggled = 0;
    int sub = 1000000;
    std::vector<unsigned long long> xors(kThreads);
    std::mt19937_64 gen(63);
    for (auto& x : xors) x = gen();
    int slot = -1;
    std::vector<std::vector<int>> returned(kThreads);
    run_threads([&](int t) {
        atomicOr(&bits, 1u << t);
        atomicAnd(&cleared, ~(1u << (2 * t)));
        for (int k = 0; k < 1001; ++k) atomicXor(&toggled, xors[t]);
        for (int k = 0; k < 1000; ++k) atomicSub(&sub, 3);
        for (int k = 0; k < 1000; ++k) returned[t].push_back(atomicExch(&slot, t * 1000 + k));
    });
    EXPECT_EQ(bits, 0xffu);
    EXPECT_EQ(cleared, 0xffff0000u | 0xaaaau);
    unsigned long long x = 0;
    for (auto v : xors) x ^= v;  // 1001 times each: odd
    EXPECT_EQ(toggled, x);
    EXPECT_EQ(sub, 1000000 - 3 * kThreads * 1000);
    // Exchange conserves values: what was returned plus what is left is what was written plus -1.
    std::vector<int> seen = {slot};
    for (const auto& v : returned) seen.insert(seen.end(), v.begin(), v.end());
    std::vector<int> written = {-1};
    for (int t = 0; t < kThreads; ++t)
        for (int k = 0; k < 1000; ++k) written.push_back(t * 1000 + k);
    std::sort(seen.begin(), seen.end());
    std::sort(written.begin(), written.end());
    EXPECT_EQ(seen, written);
    float f = 1.5f;
    EXPECT_EQ(atomicExch(&f, 2.5f), 1.5f);
    EXPECT_EQ(f, 2.5f);
    int a = 6;
    EXPECT_EQ(atomicAnd(&a, 3), 6);
    EXPECT_EQ(atomicOr(&a, 8), 2);
    EXPECT_EQ(atomicXor(&a, 10), 10);
    EXPECT_EQ(a, 0);
    unsigned long long e = 1;
    EXPECT_EQ(atomicExch(&e, 2ull), 1ull);
    __threadfence_block();
    __threadfence_system();
}

}  // namespace
