// tests/device/linalg_compositions_test.cpp: gpukit::linalg's eig and eigvals (geev on the backend's
// solver library) and cond, multi_dot, tensorinv, tensorsolve (compositions) against results known
// on the host: eigenpairs multiplied back, a rotation's conjugate pair, condition numbers of a
// diagonal matrix, a chain product's value, and the errors. The comparison with numpy.linalg over
// every dtype and shape is tests/python/array/test_linalg_compositions.py.
#include <cmath>
#include <complex>
#include <limits>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

constexpr DType solver_dtypes[] = {DType::float32, DType::float64, DType::complex64, DType::complex128};

double tolerance(DType dtype) { return dtype == DType::float32 || dtype == DType::complex64 ? 1e-4 : 1e-10; }

Array matrix(const std::vector<double>& values, Shape shape) {
    return Array::from_host(std::span<const double>(values), std::move(shape));
}

double largest_difference(const Array& a, const Array& b) {
    const auto x = a.astype(DType::complex128).to_vector<std::complex<double>>();
    const auto y = b.astype(DType::complex128).to_vector<std::complex<double>>();
    EXPECT_EQ(x.size(), y.size());
    double worst = 0;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
    return worst;
}

class LinalgCompositions : public DeviceTest {};

TEST_F(LinalgCompositions, EigenpairsMultiplyBack) {
    // Non-symmetric, with a conjugate pair in the second matrix and real eigenvalues in the first.
    const Array a = matrix({2, 1, 0, 0, 3, 1, 0, 0, 5, 1, 2, 0, -3, 1, 1, 0, 0, 2}, {2, 3, 3});
    for (const DType dtype : solver_dtypes) {
        SCOPED_TRACE(std::string(to_string(dtype)));
        const linalg::EigResult e = linalg::eig(a.astype(dtype));
        const DType complex =
            dtype == DType::float32 || dtype == DType::complex64 ? DType::complex64 : DType::complex128;
        EXPECT_EQ(e.eigenvalues.dtype(), complex);
        EXPECT_EQ(e.eigenvectors.dtype(), complex);
        EXPECT_EQ(e.eigenvectors.shape(), (Shape{2, 3, 3}));
        const Array av = matmul(a.astype(complex), e.eigenvectors);
        const Array vw = multiply(e.eigenvectors, expand_dims(e.eigenvalues, std::vector<std::int64_t>{-2}));
        EXPECT_LT(largest_difference(av, vw), 10 * tolerance(dtype));
        EXPECT_LT(largest_difference(linalg::eigvals(a.astype(dtype)), e.eigenvalues), tolerance(dtype));
    }
}

TEST_F(LinalgCompositions, RealEigenvaluesOfARealInputAreReal) {
    const linalg::EigResult triangular = linalg::eig(matrix({1, 5, 0, 3}, {2, 2}).astype(DType::float32));
    EXPECT_EQ(triangular.eigenvalues.dtype(), DType::float32);
    EXPECT_EQ(triangular.eigenvalues.to_vector<float>(), (std::vector<float>{1, 3}));
    // A rotation by 90 degrees: i then -i (LAPACK's order), vectors (1, -i) / sqrt(2) and conjugate.
    const linalg::EigResult rotation = linalg::eig(matrix({0, -1, 1, 0}, {2, 2}));
    using C = std::complex<double>;
    const auto w = rotation.eigenvalues.to_vector<C>();
    EXPECT_NEAR(std::abs(w[0] - C(0, 1)), 0, 1e-12);
    EXPECT_NEAR(std::abs(w[1] - C(0, -1)), 0, 1e-12);
    const double h = std::sqrt(0.5);
    EXPECT_LT(largest_difference(
                  rotation.eigenvectors,
                  Array::from_host(std::span<const C>(std::vector<C>{C(h, 0), C(h, 0), C(0, -h), C(0, h)}), {2, 2})),
              1e-12);
    const Array empty = linalg::eigvals(Array::empty({0, 0}, DType::float64));
    EXPECT_EQ(empty.dtype(), DType::float64);
    EXPECT_EQ(empty.shape(), (Shape{0}));
}

TEST_F(LinalgCompositions, EigErrors) {
    EXPECT_THROW(linalg::eig(matrix({1, 2, 3, 4, 5, 6}, {2, 3})), LinAlgError);
    EXPECT_THROW(linalg::eigvals(matrix({1, std::numeric_limits<double>::quiet_NaN(), 0, 1}, {2, 2})), LinAlgError);
}

TEST_F(LinalgCompositions, ConditionNumbersOfADiagonalMatrix) {
    const Array a = matrix({4, 0, 0, 0, -2, 0, 0, 0, 0.5}, {3, 3});
    const double inf = std::numeric_limits<double>::infinity();
    const std::pair<std::optional<linalg::NormOrder>, double> expected[] = {
        {std::nullopt, 8},
        {linalg::NormOrder(2.0), 8},
        {linalg::NormOrder(-2.0), 0.125},
        {linalg::NormOrder(1.0), 8},
        {linalg::NormOrder(-1.0), 0.125},
        {linalg::NormOrder(inf), 8},
        {linalg::NormOrder(-inf), 0.125},
        {linalg::NormOrder(std::string("fro")), std::sqrt(16 + 4 + 0.25) * std::sqrt(1.0 / 16 + 0.25 + 4)},
        {linalg::NormOrder(std::string("nuc")), 6.5 * (0.25 + 0.5 + 2)},
    };
    for (const auto& [p, value] : expected) {
        const Array c = linalg::cond(a, p);
        EXPECT_EQ(c.dtype(), DType::float64);
        EXPECT_NEAR(c.to_vector<double>()[0], value, 1e-12);
    }
    // Singular: inf; float32 stays float32.
    const Array singular = linalg::cond(matrix({1, 2, 2, 4}, {2, 2}).astype(DType::float32), linalg::NormOrder(1.0));
    EXPECT_EQ(singular.dtype(), DType::float32);
    EXPECT_TRUE(std::isinf(singular.to_vector<float>()[0]));
    EXPECT_THROW(linalg::cond(Array::empty({0, 0}, DType::float64)), LinAlgError);
}

TEST_F(LinalgCompositions, MultiDotOfAChain) {
    const Array row = matrix({1, 2}, {2});
    const Array a = matrix({1, 0, 2, 1, 1, 1}, {2, 3});
    const Array b = matrix({1, 2, 3, 4, 5, 6}, {3, 2});
    const Array column = matrix({1, -1}, {2});
    // row @ a = (3, 2, 4); @ b = (29, 38); @ column = -9.
    const Array chain[] = {row, a, b, column};
    const Array value = linalg::multi_dot(chain);
    EXPECT_EQ(value.ndim(), 0U);
    EXPECT_EQ(value.to_vector<double>(), (std::vector<double>{-9}));
    const Array three[] = {a, b, a};
    EXPECT_LT(largest_difference(linalg::multi_dot(three), matmul(matmul(a, b), a)), 1e-12);
    const Array one[] = {a};
    EXPECT_THROW(linalg::multi_dot(one), InvalidArgumentError);
}

TEST_F(LinalgCompositions, TensorInverseAndSolve) {
    const Array m = matrix({4, 1, 0, 0, 1, 3, 1, 0, 0, 1, 2, 1, 0, 0, 1, 5}, {4, 4});
    const Array tensor = m.reshape({2, 2, 4});
    const Array inverse = linalg::tensorinv(tensor, 2);
    EXPECT_EQ(inverse.shape(), (Shape{4, 2, 2}));
    EXPECT_LT(largest_difference(inverse.reshape({4, 4}), linalg::inv(m)), 1e-12);
    const Array b = matrix({1, 2, 3, 4}, {2, 2});
    const Array x = linalg::tensorsolve(tensor, b);
    EXPECT_EQ(x.shape(), (Shape{4}));
    EXPECT_LT(largest_difference(tensordot(tensor, x, 1), b), 1e-12);
    EXPECT_THROW(linalg::tensorinv(tensor, 0), InvalidArgumentError);
    EXPECT_THROW(linalg::tensorsolve(matrix({1, 2, 3, 4, 5, 6}, {2, 3}), matrix({1, 2}, {2})), LinAlgError);
}

}  // namespace
}  // namespace gpukit::testing
