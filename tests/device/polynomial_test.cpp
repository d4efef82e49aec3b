// tests/device/polynomial_test.cpp: gpukit::polyval and gpukit::polyfit (src/ops/polynomial.cpp)
// and the polynomial arithmetic (src/ops/polynomial_arithmetic.cpp) against values known on the host:
// Horner's rule and its dtypes, an exact fit recovered, residuals, covariance, products, quotients,
// derivatives, integrals, roots and the errors. The comparison with NumPy over every dtype is
// tests/python/array/test_polynomial.py.
#include <algorithm>
#include <cmath>
#include <complex>

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

TEST_F(Polynomial, PolyOfRootsAndOfAMatrix) {
    EXPECT_EQ(poly(vector({1, 2, 3})).to_vector<double>(), (std::vector<double>{1, -6, 11, -6}));
    // Integer roots compute in float64; no roots give 1.0.
    EXPECT_EQ(poly(vector({2}).astype(DType::int8)).dtype(), DType::float64);
    const Array none = poly(Array::empty({0}, DType::float64));
    EXPECT_EQ(none.ndim(), 0U);
    EXPECT_EQ(none.to_vector<double>(), (std::vector<double>{1}));
    // Conjugate pairs give real coefficients: (x - i)(x + i) = x^2 + 1.
    const std::vector<std::complex<double>> pair{{0, 1}, {0, -1}};
    const Array real_poly = poly(Array::from_host(std::span<const std::complex<double>>(pair), {2}));
    EXPECT_EQ(real_poly.dtype(), DType::float64);
    EXPECT_EQ(real_poly.to_vector<double>(), (std::vector<double>{1, 0, 1}));
    // The characteristic polynomial of [[2, 0], [0, 3]].
    const auto c = poly(vector({2, 0, 0, 3}).reshape({2, 2})).to_vector<double>();
    ASSERT_EQ(c.size(), 3U);
    EXPECT_NEAR(c[1], -5, 1e-12);
    EXPECT_NEAR(c[2], 6, 1e-12);
    EXPECT_THROW(poly(vector({1, 2, 3, 4, 5, 6}).reshape({2, 3})), InvalidArgumentError);
}

TEST_F(Polynomial, SumsDifferencesAndProducts) {
    EXPECT_EQ(polyadd(vector({1, 2}), vector({1, 1, 1})).to_vector<double>(), (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(polysub(vector({5, 1, 1}), vector({1, 1})).to_vector<double>(), (std::vector<double>{5, 0, 0}));
    // Leading zeros are dropped before the product: (x + 1)(x - 1).
    EXPECT_EQ(polymul(vector({0, 1, 1}), vector({1, -1})).to_vector<double>(), (std::vector<double>{1, 0, -1}));
    EXPECT_EQ(polyadd(vector({1}).astype(DType::int8), vector({1}).astype(DType::int8)).dtype(), DType::int8);
    EXPECT_THROW(polymul(vector({1, 2, 3, 4}).reshape({2, 2}), vector({1})), InvalidArgumentError);
}

TEST_F(Polynomial, LongDivision) {
    // x^3 + 2x^2 + 3x + 4 = (2x + 1)(0.5x^2 + 0.75x + 1.125) + 2.875
    const auto [q, r] = polydiv(vector({1, 2, 3, 4}), vector({2, 1}));
    EXPECT_EQ(q.to_vector<double>(), (std::vector<double>{0.5, 0.75, 1.125}));
    EXPECT_EQ(r.to_vector<double>(), (std::vector<double>{2.875}));
    // An exact division leaves one zero.
    const auto [q2, r2] = polydiv(vector({1, -3, 2}).astype(DType::int32), vector({1, -1}));
    EXPECT_EQ(q2.to_vector<double>(), (std::vector<double>{1, -2}));
    EXPECT_EQ(r2.to_vector<double>(), (std::vector<double>{0}));
}

TEST_F(Polynomial, DerivativesAndIntegrals) {
    const Array p = vector({1, 2, 3, 4}).astype(DType::int16);
    const Array once = polyder(p);
    EXPECT_EQ(once.dtype(), DType::int64);
    EXPECT_EQ(once.to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 4, 3}));
    EXPECT_EQ(polyder(p, 3).to_vector<std::int64_t>(), (std::vector<std::int64_t>{6}));
    EXPECT_EQ(polyder(p, 0).dtype(), DType::int16);
    EXPECT_EQ(polyint(vector({3, 2})).to_vector<double>(), (std::vector<double>{1.5, 2, 0}));
    EXPECT_EQ(polyint(vector({6}), 2, vector({1, 2})).to_vector<double>(), (std::vector<double>{3, 1, 2}));
    EXPECT_EQ(polyint(vector({6}), 2, vector({5})).to_vector<double>(), (std::vector<double>{3, 5, 5}));
    EXPECT_THROW(polyder(p, -1), InvalidArgumentError);
    EXPECT_THROW(polyint(p, -1), InvalidArgumentError);
    EXPECT_THROW(polyint(p, 3, vector({1, 2})), InvalidArgumentError);
    EXPECT_THROW(polyder(vector({1}).reshape({})), DTypeError);
}

TEST_F(Polynomial, RootsOfTheCompanionMatrix) {
    // x^2 - 3x + 2 with a leading zero and two trailing ones: roots 2, 1, 0, 0.
    auto found = roots(vector({0, 1, -3, 2, 0, 0})).to_vector<double>();
    ASSERT_EQ(found.size(), 4U);
    std::sort(found.begin(), found.end());
    EXPECT_NEAR(found[0], 0, 1e-12);
    EXPECT_NEAR(found[1], 0, 1e-12);
    EXPECT_NEAR(found[2], 1, 1e-12);
    EXPECT_NEAR(found[3], 2, 1e-12);
    EXPECT_EQ(roots(vector({0, 0})).size(), 0);
    EXPECT_EQ(roots(vector({0, 0})).dtype(), DType::float64);
    EXPECT_EQ(roots(vector({1, 0, 1})).dtype(), DType::complex128);  // x^2 + 1: +-i
    EXPECT_THROW(roots(vector({1, 2, 3, 4}).reshape({2, 2})), InvalidArgumentError);
}

}  // namespace
}  // namespace gpukit::testing
