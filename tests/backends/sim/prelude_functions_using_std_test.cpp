// tests/backends/sim/prelude_functions_using_std_test.cpp: the prelude's device functions in a
// translation unit that also includes the standard headers and says `using namespace std;`, as
// much CUDA course code does: min, max, abs and the math functions must still resolve, to the
// right values, without ambiguity.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "backends/sim/prelude/gpukit_sim_device_functions.h"

using namespace std;

namespace {

// Written the way kernels call these functions (unqualified, mixed types, literals).
template <class T>
T clamp_like_cuda(T x, T lo, T hi) {
    return max(lo, min(x, hi));
}

TEST(PreludeUsingStd, MinMaxResolveWithoutAmbiguity) {
    static_assert(is_same<decltype(min(1, 2)), int>::value, "");
    static_assert(is_same<decltype(max(1.0f, 2.0f)), float>::value, "");
    static_assert(is_same<decltype(min(1u, 2u)), unsigned int>::value, "");
    static_assert(is_same<decltype(min(1.0, 2.0)), double>::value, "");
    static_assert(is_same<decltype(max(1LL, 2LL)), long long>::value, "");
    static_assert(is_same<decltype(min(1, 2u)), unsigned int>::value, "");
    static_assert(is_same<decltype(max(1.0f, 2.0)), double>::value, "");
    EXPECT_EQ(min(1, 2), 1);
    EXPECT_EQ(max(1.0f, 2.0f), 2.0f);
    const int i = 7;
    const unsigned int n = 5;
    EXPECT_EQ(min(i, n), 5u);  // int with unsigned: CUDA's mixed overload
    const size_t a = 10, b = 3;
    EXPECT_EQ(max(a, b), size_t{10});
    const int64_t x = -4, y = 9;
    EXPECT_EQ(min(x, y), -4);
    const short s1 = 3, s2 = -2;
    EXPECT_EQ(min(s1, s2), -2);    // no exact overload here: std::min<short> is chosen, same value
    EXPECT_EQ(min({4, 2, 8}), 2);  // std::min's initializer_list form still works
    EXPECT_EQ(std::max(3, 4), 4);
    EXPECT_EQ(clamp_like_cuda(12, 0, 10), 10);
    EXPECT_EQ(clamp_like_cuda(-1.5f, 0.0f, 1.0f), 0.0f);
    EXPECT_EQ(max(0.0f, -3.0f), 0.0f);
    EXPECT_EQ(min(2.0f, 0.5), 0.5);
}

TEST(PreludeUsingStd, AbsAndMathFunctionsResolve) {
    EXPECT_EQ(abs(-3), 3);
    EXPECT_EQ(abs(-3LL), 3LL);
    EXPECT_EQ(abs(-2.5f), 2.5f);
    static_assert(is_same<decltype(abs(-2.5f)), float>::value, "abs(float) is a float");
    EXPECT_EQ(labs(-4L), 4L);
    EXPECT_EQ(llabs(-5LL), 5LL);
    EXPECT_EQ(fabsf(-1.25f), 1.25f);
    EXPECT_FLOAT_EQ(sqrtf(2.0f), 1.41421356f);
    EXPECT_FLOAT_EQ(sqrt(2.0f), 1.41421356f);
    static_assert(is_same<decltype(sqrt(2.0f)), float>::value, "sqrt(float) is a float");
    EXPECT_FLOAT_EQ(rsqrtf(4.0f), 0.5f);
    static_assert(is_same<decltype(rsqrt(4.0f)), float>::value, "rsqrt(float) is a float");
    EXPECT_DOUBLE_EQ(rsqrt(4.0), 0.5);
    EXPECT_DOUBLE_EQ(rsqrt(4), 0.5);  // an integer argument is not ambiguous
    EXPECT_DOUBLE_EQ(exp10(2.0), 100.0);
    EXPECT_FLOAT_EQ(exp10f(2.0f), 100.0f);
    EXPECT_FLOAT_EQ(sinpif(0.5f), 1.0f);
    EXPECT_DOUBLE_EQ(cospi(1.0), -1.0);
    float s, c;
    sincosf(0.0f, &s, &c);
    EXPECT_EQ(c, 1.0f);
    sincospif(0.5f, &s, &c);
    EXPECT_EQ(s, 1.0f);
    EXPECT_FLOAT_EQ(fmaxf(1.0f, 2.0f), 2.0f);
    EXPECT_FLOAT_EQ(__expf(0.0f), 1.0f);
    EXPECT_TRUE(isnan(erfinvf(2.0f)));
    const double p[3] = {3, 4, 12};
    EXPECT_DOUBLE_EQ(norm(3, p), 13.0);  // CUDA's norm, next to std::norm for complex
    EXPECT_DOUBLE_EQ(norm(complex<double>(3, 4)), 25.0);
    EXPECT_EQ(__popc(0xffu), 8);
    int counter = 0;
    EXPECT_EQ(atomicAdd(&counter, 2), 0);
    EXPECT_EQ(counter, 2);
    __half h = __float2half(1.5f);
    EXPECT_EQ(__half2float(h + h), 3.0f);
    const dim3 grid(4);
    EXPECT_EQ(grid.y, 1u);
    char buf[16];
    snprintf(buf, sizeof buf, "%d", min(3, 4));
    EXPECT_STREQ(buf, "3");
}

}  // namespace
