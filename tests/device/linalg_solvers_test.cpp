// tests/device/linalg_solvers_test.cpp: gpukit::linalg's solvers on the backend's solver library
// (cuSOLVER on CUDA, LAPACK on the simulator) against results known on the host: a solve checked by
// its residual, inverse times matrix, determinants with row exchanges, Cholesky, QR, SVD and eigh
// factors multiplied back, and the LinAlgErrors. The comparison with numpy.linalg over every
// dtype and shape is tests/python/array/test_linalg_solvers.py.
#include <cmath>
#include <complex>

#include "device_test_fixture.hpp"

namespace gpukit::testing {
namespace {

constexpr DType solver_dtypes[] = {DType::float32, DType::float64, DType::complex64, DType::complex128};

double tolerance(DType dtype) { return dtype == DType::float32 || dtype == DType::complex64 ? 1e-4 : 1e-10; }

// A batch of two diagonally dominant 3 x 3 matrices (the second the first plus I).
Array stack_of_matrices(DType dtype) {
    const std::vector<double> values{4, 1, 0, 1, 3, 1, 0, 1, 2, 5, 1, 0, 1, 4, 1, 0, 1, 3};
    return Array::from_host(std::span<const double>(values), {2, 3, 3}).astype(dtype);
}

// max |a - b| over every element, in complex128.
double largest_difference(const Array& a, const Array& b) {
    const auto x = a.astype(DType::complex128).to_vector<std::complex<double>>();
    const auto y = b.astype(DType::complex128).to_vector<std::complex<double>>();
    EXPECT_EQ(x.size(), y.size());
    double worst = 0;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
    return worst;
}

Array conjugate_transpose(const Array& a) { return conjugate(swapaxes(a, -1, -2)); }

class LinalgSolvers : public DeviceTest {};

TEST_F(LinalgSolvers, SolveAndInverseOfAStack) {
    for (const DType dtype : solver_dtypes) {
        SCOPED_TRACE(std::string(to_string(dtype)));
        const Array a = stack_of_matrices(dtype);
        const std::vector<double> rhs{1, 2, 3, 4, 5, 6};
        const Array b = Array::from_host(std::span<const double>(rhs), {2, 3}).astype(dtype);
        const Array x = linalg::solve(a, expand_dims(b, std::vector<std::int64_t>{-1}));
        EXPECT_EQ(x.dtype(), dtype);
        EXPECT_LT(largest_difference(matmul(a, x), expand_dims(b, std::vector<std::int64_t>{-1})), tolerance(dtype));
        const Array inverse = linalg::inv(a);
        EXPECT_LT(largest_difference(matmul(inverse, a), broadcast_to(identity(3, dtype), Shape{2, 3, 3})),
                  tolerance(dtype));
    }
}

TEST_F(LinalgSolvers, DeterminantsCountRowExchanges) {
    const std::vector<double> values{0, 1, 1, 0, 2, 0, 0, 3};
    const Array a = Array::from_host(std::span<const double>(values), {2, 2, 2});
    EXPECT_EQ(linalg::det(a).to_vector<double>(), (std::vector<double>{-1, 6}));
    const linalg::SlogdetResult s = linalg::slogdet(a);
    EXPECT_EQ(s.sign.to_vector<double>(), (std::vector<double>{-1, 1}));
    EXPECT_NEAR(s.logabsdet.to_vector<double>()[1], std::log(6.0), 1e-12);
}

TEST_F(LinalgSolvers, FactorsMultiplyBack) {
    for (const DType dtype : solver_dtypes) {
        SCOPED_TRACE(std::string(to_string(dtype)));
        const Array a = stack_of_matrices(dtype);  // symmetric positive definite
        const Array l = linalg::cholesky(a);
        EXPECT_LT(largest_difference(matmul(l, conjugate_transpose(l)), a), tolerance(dtype));
        const Array u = linalg::cholesky(a, /*upper=*/true);
        EXPECT_LT(largest_difference(matmul(conjugate_transpose(u), u), a), tolerance(dtype));
        const Array tall = a.index({ellipsis, Slice{}, Slice{std::nullopt, 2, std::nullopt}});  // 3 x 2
        const linalg::QRResult qr = linalg::qr(tall);
        EXPECT_EQ(qr.Q.shape(), (Shape{2, 3, 2}));
        EXPECT_LT(largest_difference(matmul(qr.Q, qr.R), tall), tolerance(dtype));
        for (const Array& m : {tall, swapaxes(tall, -1, -2)}) {
            const linalg::SVDResult usv = linalg::svd(m, /*full_matrices=*/false);
            EXPECT_LT(largest_difference(
                          matmul(multiply(usv.U, expand_dims(usv.S, std::vector<std::int64_t>{-2})), usv.Vh), m),
                      tolerance(dtype));
        }
        const linalg::EighResult e = linalg::eigh(a);
        EXPECT_LT(
            largest_difference(matmul(a, e.eigenvectors),
                               multiply(e.eigenvectors, expand_dims(e.eigenvalues, std::vector<std::int64_t>{-2}))),
            tolerance(dtype) * 10);
    }
}

TEST_F(LinalgSolvers, KnownSpectra) {
    const std::vector<double> symmetric{2, 1, 1, 2};
    const Array a = Array::from_host(std::span<const double>(symmetric), {2, 2});
    const std::vector<double> w = linalg::eigvalsh(a).to_vector<double>();
    EXPECT_NEAR(w[0], 1.0, 1e-12);
    EXPECT_NEAR(w[1], 3.0, 1e-12);
    const std::vector<double> scaled{3, 0, 0, 4, 0, 0};
    const std::vector<double> s =
        linalg::svdvals(Array::from_host(std::span<const double>(scaled), {3, 2})).to_vector<double>();
    EXPECT_NEAR(s[0], 4.0, 1e-12);
    EXPECT_NEAR(s[1], 3.0, 1e-12);
}

TEST_F(LinalgSolvers, SingularAndIndefiniteMatricesAreLinAlgErrors) {
    const std::vector<double> singular{1, 2, 2, 4};
    const Array a = Array::from_host(std::span<const double>(singular), {2, 2});
    EXPECT_EQ(GPUKIT_MESSAGE_OF(LinAlgError, (void)linalg::inv(a)), "Singular matrix");
    EXPECT_EQ(GPUKIT_MESSAGE_OF(LinAlgError, (void)linalg::solve(a, ones({2}))), "Singular matrix");
    EXPECT_EQ(linalg::det(a).to_vector<double>()[0], 0.0);
    const std::vector<double> indefinite{1, 2, 2, 1};
    EXPECT_EQ(GPUKIT_MESSAGE_OF(LinAlgError,
                                (void)linalg::cholesky(Array::from_host(std::span<const double>(indefinite), {2, 2}))),
              "Matrix is not positive definite");
    EXPECT_EQ(GPUKIT_MESSAGE_OF(LinAlgError, (void)linalg::inv(zeros({2, 3}))),
              "Last 2 dimensions of the array must be square");
    EXPECT_EQ(GPUKIT_MESSAGE_OF(DTypeError, (void)linalg::inv(zeros({2, 2}, DType::float16))),
              "array type float16 is unsupported in linalg");
}

}  // namespace
}  // namespace gpukit::testing
