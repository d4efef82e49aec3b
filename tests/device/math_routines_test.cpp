// tests/device/math_routines_test.cpp: fix, isposinf, isneginf, sinc, i0, real_if_close,
// sort_complex, unwrap, trim_zeros (src/ops/math_routines.cpp), packbits and unpackbits
// (src/ops/bit_packing.cpp) and the window functions (src/ops/windows.cpp) on small arrays whose
// results are written out here; tests/python/array/test_math_routines.py compares each with NumPy
// over dtypes, sizes and options.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "device/device_test_fixture.hpp"
#include "gpukit/numeric.hpp"

namespace gpukit::testing {
namespace {

class MathRoutines : public DeviceTest {};

using Values = std::vector<double>;
using Bytes = std::vector<std::uint8_t>;
constexpr double inf = std::numeric_limits<double>::infinity();

Array of(const Values& values) {
    return Array::from_host(std::span<const double>(values), {static_cast<std::int64_t>(values.size())});
}
Array bytes(const Bytes& values) {
    return Array::from_host(std::span<const std::uint8_t>(values), {static_cast<std::int64_t>(values.size())});
}

TEST_F(MathRoutines, FixAndSignedInfinities) {
    const Array x = of({-2.5, -0.5, 0.5, 3.7, inf, -inf});
    EXPECT_EQ(fix(x).to_vector<double>(), (Values{-2, -0.0, 0, 3, inf, -inf}));
    EXPECT_EQ(fix(x.astype(DType::int8)).dtype(), DType::int8);
    EXPECT_EQ(isposinf(x).astype(DType::uint8).to_vector<std::uint8_t>(), (Bytes{0, 0, 0, 0, 1, 0}));
    EXPECT_EQ(isneginf(x).astype(DType::uint8).to_vector<std::uint8_t>(), (Bytes{0, 0, 0, 0, 0, 1}));
    EXPECT_EQ(isposinf(x.astype(DType::float16)).astype(DType::uint8).to_vector<std::uint8_t>(),
              (Bytes{0, 0, 0, 0, 1, 0}));
    EXPECT_EQ(isposinf(x.astype(DType::int32)).astype(DType::uint8).to_vector<std::uint8_t>(), (Bytes(6, 0)));
    const Array out = Array::empty({6}, DType::bool_);
    isneginf(x, out);
    EXPECT_EQ(out.astype(DType::uint8).to_vector<std::uint8_t>(), (Bytes{0, 0, 0, 0, 0, 1}));
    EXPECT_THROW(isposinf(x.astype(DType::complex64)), DTypeError);
    EXPECT_THROW(fix(x.astype(DType::complex128)), DTypeError);
}

TEST_F(MathRoutines, SincAndI0) {
    const auto s = sinc(of({0, 0.5, 1, -2})).to_vector<double>();
    EXPECT_EQ(s[0], 1.0);
    EXPECT_NEAR(s[1], 2 / M_PI, 1e-15);
    EXPECT_NEAR(s[2], 0, 1e-15);
    EXPECT_EQ(sinc(of({0}).astype(DType::int16)).dtype(), DType::float64);
    EXPECT_EQ(sinc(of({0}).astype(DType::float16)).astype(DType::float64).to_vector<double>(), (Values{1}));
    // I0 against its values (the power series below 30, the asymptotic one above).
    const auto b = i0(of({0, 1, -2.5, 31, 100})).to_vector<double>();
    EXPECT_EQ(b[0], 1.0);
    EXPECT_NEAR(b[1], 1.2660658777520082, 1e-15);
    EXPECT_NEAR(b[2], 3.2898391440501231, 1e-14);
    EXPECT_NEAR(b[3] / 2089962966491.9038, 1, 1e-14);
    EXPECT_NEAR(b[4] / 1.0737517071310738e42, 1, 1e-14);
    EXPECT_EQ(i0(of({1}).astype(DType::int8)).dtype(), DType::float64);
    EXPECT_EQ(i0(of({1}).astype(DType::float32)).dtype(), DType::float32);
    EXPECT_TRUE(std::isinf(i0(of({720})).to_vector<double>()[0]));
    EXPECT_THROW(i0(of({1}).astype(DType::complex128)), DTypeError);
}

TEST_F(MathRoutines, RealIfCloseAndSortComplex) {
    const std::vector<std::complex<double>> nearly{{1, 1e-15}, {2, -1e-16}};
    const Array z = Array::from_host(std::span<const std::complex<double>>(nearly), {2});
    EXPECT_EQ(real_if_close(z).dtype(), DType::float64);
    EXPECT_EQ(real_if_close(z, 1e-20).dtype(), DType::complex128);
    EXPECT_EQ(real_if_close(of({1})).dtype(), DType::float64);
    const Array sorted = sort_complex(of({3, 1, 2}).astype(DType::int16));
    EXPECT_EQ(sorted.dtype(), DType::complex64);
    EXPECT_EQ(real(sorted).astype(DType::float64).to_vector<double>(), (Values{1, 2, 3}));
    EXPECT_EQ(sort_complex(of({2, 1})).dtype(), DType::complex128);
    EXPECT_THROW(sort_complex(of({1}).reshape({})), AxisError);
}

TEST_F(MathRoutines, Unwrap) {
    // A jump of 2 pi - 0.5 is one of -0.5 after unwrapping.
    const double tau = 2 * M_PI;
    const auto u = unwrap(of({0, tau - 0.5, tau - 1})).to_vector<double>();
    EXPECT_NEAR(u[1], -0.5, 1e-15);
    EXPECT_NEAR(u[2], -1, 1e-15);
    // An integer period keeps integers: [0, 5, 10, 3] by 6 gives [0, -1, -2, -3].
    const Array whole = unwrap(of({0, 5, 10, 3}).astype(DType::int8), std::nullopt, -1, Scalar(6));
    EXPECT_EQ(whole.dtype(), DType::int8);
    EXPECT_EQ(whole.astype(DType::float64).to_vector<double>(), (Values{0, -1, -2, -3}));
    EXPECT_EQ(unwrap(of({0, 5}).astype(DType::int32)).dtype(), DType::float64);
    EXPECT_THROW(unwrap(of({1}).reshape({})), InvalidArgumentError);
}

TEST_F(MathRoutines, TrimZeros) {
    const Array x = of({0, 0, 1, 0, 2, 0});
    EXPECT_EQ(trim_zeros(x).to_vector<double>(), (Values{1, 0, 2}));
    EXPECT_EQ(trim_zeros(x, TrimSides::front).to_vector<double>(), (Values{1, 0, 2, 0}));
    EXPECT_EQ(trim_zeros(x, TrimSides::back).to_vector<double>(), (Values{0, 0, 1, 0, 2}));
    EXPECT_EQ(trim_zeros(of({0, 0})).size(), 0);
    const Array grid = of({0, 0, 0, 0, 5, 0, 0, 0, 0}).reshape({3, 3});
    EXPECT_EQ(trim_zeros(grid).shape(), (Shape{1, 1}));
    const std::int64_t rows[] = {0};
    EXPECT_EQ(trim_zeros(grid, TrimSides::front_and_back, rows).shape(), (Shape{1, 3}));
    EXPECT_EQ(parse_trim_sides("BF"), TrimSides::front_and_back);
    EXPECT_THROW(parse_trim_sides("x"), InvalidArgumentError);
}

TEST_F(MathRoutines, PackAndUnpackBits) {
    const Array bits = bytes({1, 0, 1, 1, 0, 0, 0, 1, 1, 1});
    EXPECT_EQ(packbits(bits).to_vector<std::uint8_t>(), (Bytes{0b10110001, 0b11000000}));
    EXPECT_EQ(packbits(bits, std::nullopt, BitOrder::little).to_vector<std::uint8_t>(), (Bytes{0b10001101, 0b11}));
    // Along the first axis of a (2, 5) array: each column packs its two bits.
    EXPECT_EQ(packbits(bits.reshape({2, 5}), 0).to_vector<std::uint8_t>(),
              (Bytes{0b10 << 6, 0, 0b11 << 6, 0b11 << 6, 0b01 << 6}));
    EXPECT_EQ(packbits(bits.reshape({2, 5}), 0).shape(), (Shape{1, 5}));
    const Array packed = bytes({0b10110001, 0b11000000});
    EXPECT_EQ(unpackbits(packed, std::nullopt, 10).to_vector<std::uint8_t>(), bits.to_vector<std::uint8_t>());
    EXPECT_EQ(unpackbits(packed, std::nullopt, 18).size(), 18);
    EXPECT_EQ(unpackbits(packed, std::nullopt, -6).to_vector<std::uint8_t>(), (Bytes{1, 0, 1, 1, 0, 0, 0, 1, 1, 1}));
    EXPECT_EQ(unpackbits(bytes({1}), std::nullopt, std::nullopt, BitOrder::little).to_vector<std::uint8_t>(),
              (Bytes{1, 0, 0, 0, 0, 0, 0, 0}));
    EXPECT_THROW(unpackbits(packed, std::nullopt, -17), InvalidArgumentError);
    EXPECT_THROW(unpackbits(packed.astype(DType::int8)), DTypeError);
    EXPECT_THROW(packbits(of({1})), DTypeError);
    EXPECT_THROW(packbits(bits, 1), AxisError);
    EXPECT_EQ(parse_bit_order("little"), BitOrder::little);
    EXPECT_THROW(parse_bit_order("x"), InvalidArgumentError);
}

TEST_F(MathRoutines, Windows) {
    EXPECT_EQ(bartlett(5).to_vector<double>(), (Values{0, 0.5, 1, 0.5, 0}));
    const auto hann = hanning(5).to_vector<double>();
    EXPECT_NEAR(hann[1], 0.5, 1e-15);
    EXPECT_NEAR(hann[2], 1, 1e-15);
    EXPECT_NEAR(hamming(3).to_vector<double>()[0], 0.08, 1e-15);
    EXPECT_NEAR(blackman(3).to_vector<double>()[0], 0, 1e-15);
    EXPECT_EQ(kaiser(1, 5).to_vector<double>(), (Values{1}));
    EXPECT_NEAR(kaiser(3, 0).to_vector<double>()[0], 1, 1e-15);
    EXPECT_EQ(hanning(0).size(), 0);
    EXPECT_EQ(blackman(-4).dtype(), DType::float64);
}

}  // namespace
}  // namespace gpukit::testing
