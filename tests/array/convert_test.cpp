// tests/array/convert_test.cpp: host conversions between dtypes against NumPy's astype, and the
// strided, converting and broadcasting host copies built on them.
#include "array/convert.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "array/host_copy.hpp"

namespace gpukit::detail {
namespace {

template <class To, class From>
std::vector<To> converted(const std::vector<From>& values) {
    std::vector<To> out(values.size());
    convert_elements(reinterpret_cast<const std::byte*>(values.data()), sizeof(From), dtype_of<From>(),
                     reinterpret_cast<std::byte*>(out.data()), sizeof(To), dtype_of<To>(),
                     static_cast<std::int64_t>(values.size()));
    return out;
}

// NumPy's bool, one byte each (std::vector<bool> has no bytes to write into).
template <class From>
std::vector<std::uint8_t> truth_of(const std::vector<From>& values) {
    std::vector<std::uint8_t> out(values.size());
    convert_elements(reinterpret_cast<const std::byte*>(values.data()), sizeof(From), dtype_of<From>(),
                     reinterpret_cast<std::byte*>(out.data()), 1, DType::bool_,
                     static_cast<std::int64_t>(values.size()));
    return out;
}

TEST(Float16, RoundsAsNumPyDoes) {
    struct Row {
        double value;
        std::uint16_t bits;  // numpy.array(value).astype(numpy.float16).view(numpy.uint16)
    };
    const Row rows[] = {
        {0.1, 0x2e66},
        {-0.1, 0xae66},
        {1.0 / 3, 0x3555},
        {65504.0, 0x7bff},
        {65519.99, 0x7bff},
        {65520.0, 0x7c00},
        {6e-8, 0x0001},
        {std::ldexp(1.0, -24), 0x0001},
        {std::ldexp(1.0, -25), 0x0000},
        {3 * std::ldexp(1.0, -26), 0x0001},
        {1e-10, 0x0000},
        {2049.0, 0x6800},
        {2051.0, 0x6802},
        {-0.0, 0x8000},
        {INFINITY, 0x7c00},
        {std::ldexp(1.0, -14), 0x0400},
        {std::ldexp(1.0, -14) - std::ldexp(1.0, -25), 0x0400},
    };
    for (const Row& row : rows) EXPECT_EQ(float16_bits(row.value), row.bits) << row.value;
    EXPECT_TRUE(std::isnan(float16_value(float16_bits(NAN))));
}

TEST(Float16, EveryFiniteValueRoundTrips) {
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const double value = float16_value(static_cast<std::uint16_t>(bits));
        if (std::isnan(value)) continue;
        EXPECT_EQ(float16_bits(value), bits);
    }
}

TEST(BFloat16, RoundsToNearestEven) {
    EXPECT_EQ(bfloat16_bits(1.0), 0x3f80);
    EXPECT_EQ(bfloat16_bits(-2.0), 0xc000);
    EXPECT_EQ(bfloat16_bits(1.0 + std::ldexp(1.0, -8)), 0x3f80);      // halfway: to the even neighbour
    EXPECT_EQ(bfloat16_bits(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82);  // halfway: up to the even one
    EXPECT_EQ(bfloat16_bits(3.0e38), 0x7f62);
    EXPECT_EQ(bfloat16_bits(3.4e38), 0x7f80);  // past the largest finite bfloat16
    EXPECT_EQ(bfloat16_bits(-INFINITY), 0xff80);
    for (std::uint32_t bits = 0; bits < 0x10000; ++bits) {
        const double value = bfloat16_value(static_cast<std::uint16_t>(bits));
        if (!std::isnan(value)) EXPECT_EQ(bfloat16_bits(value), bits);
    }
}

TEST(Convert, FloatsToIntegersAsNumPyOnX86) {
    const std::vector<double> values{-1.5, 2.7, 300.9, -300.9, NAN, 1e10, -1e20, 1e19};
    // numpy.array(values).astype(dtype).tolist()
    EXPECT_EQ(converted<std::int8_t>(values), (std::vector<std::int8_t>{-1, 2, 44, -44, 0, 0, 0, 0}));
    EXPECT_EQ(converted<std::uint8_t>(values), (std::vector<std::uint8_t>{255, 2, 44, 212, 0, 0, 0, 0}));
    const std::int32_t int32_min = std::numeric_limits<std::int32_t>::min();
    EXPECT_EQ(converted<std::int32_t>(values),
              (std::vector<std::int32_t>{-1, 2, 300, -300, int32_min, int32_min, int32_min, int32_min}));
    const std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();
    EXPECT_EQ(converted<std::int64_t>(values),
              (std::vector<std::int64_t>{-1, 2, 300, -300, int64_min, 10000000000, int64_min, int64_min}));
    EXPECT_EQ(converted<std::uint64_t>(values),
              (std::vector<std::uint64_t>{18446744073709551615u, 2, 300, 18446744073709551316u, 9223372036854775808u,
                                          10000000000, 9223372036854775808u, 10000000000000000000u}));
    EXPECT_EQ(truth_of(values), std::vector<std::uint8_t>(8, 1));  // NaN is nonzero too
    // uint64 from 2^64 and beyond, infinity included: 0 (numpy.array([1e20, inf]).astype(uint64)).
    EXPECT_EQ(converted<std::uint64_t>(std::vector<double>{1e20, INFINITY, -INFINITY}),
              (std::vector<std::uint64_t>{0, 0, 9223372036854775808u}));
}

TEST(Convert, IntegersWrapAndComplexLosesItsImaginaryPart) {
    EXPECT_EQ(converted<std::int8_t>(std::vector<std::int64_t>{-1, 255, 256, -129}),
              (std::vector<std::int8_t>{-1, -1, 0, 127}));
    EXPECT_EQ(converted<std::uint64_t>(std::vector<std::int32_t>{-1}),
              (std::vector<std::uint64_t>{18446744073709551615u}));
    using c128 = std::complex<double>;
    EXPECT_EQ(converted<float>(std::vector<c128>{{1, 2}, {0, 0}, {-0.5, 0}}), (std::vector<float>{1.0f, 0.0f, -0.5f}));
    EXPECT_EQ(truth_of(std::vector<c128>{{1, 2}, {0, 0}, {0, 0.5}}), (std::vector<std::uint8_t>{1, 0, 1}));
    EXPECT_EQ(converted<std::complex<float>>(std::vector<std::int16_t>{-3}),
              (std::vector<std::complex<float>>{{-3, 0}}));
    EXPECT_EQ(converted<float>(std::vector<std::int64_t>{(std::int64_t{1} << 53) + 1}),
              (std::vector<float>{9007199254740992.0f}));  // one rounding, not two
}

TEST(Convert, HalfTypesGoThroughTheirBits) {
    const std::vector<double> values{0.1, -65504.0, 1e6};
    std::vector<std::uint16_t> halves(values.size());
    convert_elements(reinterpret_cast<const std::byte*>(values.data()), 8, DType::float64,
                     reinterpret_cast<std::byte*>(halves.data()), 2, DType::float16, 3);
    EXPECT_EQ(halves, (std::vector<std::uint16_t>{0x2e66, 0xfbff, 0x7c00}));
    std::vector<std::int32_t> back(3);
    convert_elements(reinterpret_cast<const std::byte*>(halves.data()), 2, DType::float16,
                     reinterpret_cast<std::byte*>(back.data()), 4, DType::int32, 3);
    EXPECT_EQ(back, (std::vector<std::int32_t>{0, -65504, std::numeric_limits<std::int32_t>::min()}));
    std::vector<std::uint16_t> brain(1);
    convert_elements(reinterpret_cast<const std::byte*>(halves.data()), 2, DType::float16,
                     reinterpret_cast<std::byte*>(brain.data()), 2, DType::bfloat16, 1);
    EXPECT_EQ(brain[0], bfloat16_bits(float16_value(0x2e66)));
}

TEST(Convert, AnyNonzeroByteIsTrue) {
    const std::vector<std::uint8_t> bytes{0, 1, 2, 255};
    std::vector<std::int32_t> out(4);
    convert_elements(reinterpret_cast<const std::byte*>(bytes.data()), 1, DType::bool_,
                     reinterpret_cast<std::byte*>(out.data()), 4, DType::int32, 4);
    EXPECT_EQ(out, (std::vector<std::int32_t>{0, 1, 1, 1}));
}

TEST(HostCopy, GathersStridedElementsAndConverts) {
    // A (4, 5) int32 host array viewed as [::-1, 1::2], copied into float64 C order.
    std::vector<std::int32_t> base(20);
    for (int i = 0; i < 20; ++i) base[i] = i * 7 - 30;
    const auto* first = reinterpret_cast<const std::byte*>(&base[3 * 5 + 1]);
    const ConstHostView view(first, DType::int32, Shape{4, 2}, Strides{-20, 8});
    std::vector<double> out(8);
    copy_host_elements(view, HostView(reinterpret_cast<std::byte*>(out.data()), DType::float64, Shape{4, 2}));
    std::vector<double> expected;
    for (int row = 3; row >= 0; --row)
        for (int column = 1; column < 5; column += 2) expected.push_back(base[row * 5 + column]);
    EXPECT_EQ(out, expected);
}

TEST(HostCopy, ScattersIntoAStridedTargetLeavingTheGaps) {
    std::vector<float> target(12, -1.0f);
    const std::vector<float> values{1, 2, 3, 4, 5, 6};
    copy_host_elements(
        ConstHostView(reinterpret_cast<const std::byte*>(values.data()), DType::float32, Shape{3, 2}),
        HostView(reinterpret_cast<std::byte*>(target.data()), DType::float32, Shape{3, 2}, Strides{16, 8}));
    EXPECT_EQ(target, (std::vector<float>{1, -1, 2, -1, 3, -1, 4, -1, 5, -1, 6, -1}));
}

TEST(HostCopy, ZeroDimensionalAndEmpty) {
    const double one = 2.5;
    float out = 0;
    copy_host_elements(ConstHostView(reinterpret_cast<const std::byte*>(&one), DType::float64, Shape{}),
                       HostView(reinterpret_cast<std::byte*>(&out), DType::float32, Shape{}));
    EXPECT_EQ(out, 2.5f);
    copy_host_elements(ConstHostView(nullptr, DType::float64, Shape{3, 0}),
                       HostView(nullptr, DType::float32, Shape{3, 0}));
}

TEST(Broadcast, FollowsNumPysRules) {
    const std::vector<std::int16_t> row{1, 2, 3};
    const ConstHostView source(reinterpret_cast<const std::byte*>(row.data()), DType::int16, Shape{3});
    const ConstHostView wide = broadcast_to(source, Shape{2, 3});
    EXPECT_EQ(wide.strides, (Strides{0, 2}));
    std::vector<std::int16_t> out(6);
    copy_host_elements(wide, HostView(reinterpret_cast<std::byte*>(out.data()), DType::int16, Shape{2, 3}));
    EXPECT_EQ(out, (std::vector<std::int16_t>{1, 2, 3, 1, 2, 3}));
    const ConstHostView column(reinterpret_cast<const std::byte*>(row.data()), DType::int16, Shape{3, 1});
    EXPECT_EQ(broadcast_to(column, Shape{3, 4}).strides, (Strides{2, 0}));
    try {
        broadcast_to(source, Shape{4});
        FAIL();
    } catch (const InvalidArgumentError& e) {
        EXPECT_STREQ(e.what(), "could not broadcast input array from shape (3,) into shape (4,)");
    }
    EXPECT_THROW(broadcast_to(column, Shape{3}), InvalidArgumentError);  // more dimensions than the target
}

}  // namespace
}  // namespace gpukit::detail
