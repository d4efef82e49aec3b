// tests/device/polynomial_test.cpp: gpukit::polyval and gpukit::polyfit (src/ops/polynomial.cpp)
// against values known on the host: Horner's rule and its dtypes, an exact fit recovered, residuals,
// covariance and the errors. The comparison with NumPy over every dtype is
// tests/python/array/test_polynomial.py.
#include <cmath>

#include "device_test_fixture.hpp"
#include "gpukit/polynomial.hpp"

namespace gpukit::testing {
namespace {

Array vector(const std::vector<double>& values) {
    return Array::from_host(std::span<const double>(values), {static_cast<std::int64_t>(values.size())});
}

class Polynomial : public DeviceTest {};

TEST_F(Polynomial, HornersRuleAndItsDtypes) {
    const Array p = vector({2, -3, 1});  // 2x^2 - 3x + 1
    const Array y = polyval(p, vector({0, 1, 2, -1.5}));
    EXPECT_EQ(y.to_vector<double>(), (std::vector<double>{1, 0, 3, 10}));
    EXPECT_EQ(polyval(p.astype(DType::int32), vector({2}).astype(DType::int8)).dtype(), DType::int32);
    EXPECT_EQ(polyval(p.astype(DType::float32), vector({2}).astype(DType::int64)).dtype(), DType::float64);
    // No coefficients: zeros of x's dtype.
    const Array none = polyval(Array::empty({0}, DType::float64), vector({3, 4}).astype(DType::float32));
    EXPECT_EQ(none.dtype(), DType::float32);
    EXPECT_EQ(none.to_vector<float>(), (std::vector<float>{0, 0}));
    EXPECT_THROW(polyval(vector({1}).reshape({}), p), DTypeError);
}

TEST_F(Polynomial, FitRecoversAnExactPolynomial) {
    const Array x = vector({-2, -1, 0, 0.5, 1, 2, 3});
    const Array y = polyval(vector({0.5, -1, 2}), x);
    const PolyfitResult fit = polyfit(x, y, 2);
    const auto c = fit.coefficients.to_vector<double>();
    ASSERT_EQ(c.size(), 3U);
    EXPECT_NEAR(c[0], 0.5, 1e-12);
    EXPECT_NEAR(c[1], -1, 1e-12);
    EXPECT_NEAR(c[2], 2, 1e-12);
    EXPECT_EQ(fit.rank, 3);
    EXPECT_NEAR(fit.residuals.to_vector<double>()[0], 0, 1e-20);
    EXPECT_NEAR(fit.rcond, 7 * std::numeric_limits<double>::epsilon(), 1e-30);
    // Two columns of y at once; integer x computes in float64.
    const Array both = stack(std::vector<Array>{y, multiply(y, vector({2}))}, 1);
    const PolyfitResult pair = polyfit(x.astype(DType::int64), both, 2, {.cov = PolyfitCovariance::unscaled});
    EXPECT_EQ(pair.coefficients.shape(), (Shape{3, 2}));
    ASSERT_TRUE(pair.covariance.has_value());
    EXPECT_EQ(pair.covariance->shape(), (Shape{3, 3, 1}));
}

TEST_F(Polynomial, FitErrors) {
    const Array x = vector({1, 2, 3});
    EXPECT_THROW(polyfit(x, x, -1), InvalidArgumentError);
    EXPECT_THROW(polyfit(x.reshape({3, 1}), x, 1), DTypeError);
    EXPECT_THROW(polyfit(x, vector({1, 2}), 1), DTypeError);
    EXPECT_THROW(polyfit(x, x, 2, {.cov = PolyfitCovariance::scaled}), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
