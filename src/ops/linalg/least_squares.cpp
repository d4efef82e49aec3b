// src/ops/linalg/least_squares.cpp: what numpy.linalg builds from the SVD and from matmul: lstsq,
// pinv, matrix_rank (include/gpukit/linalg.hpp), in NumPy's steps so that results and dtypes
// agree with NumPy's; and matrix_power by NumPy's order of squarings.
#include <limits>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/linalg/solver_call.hpp"
#include "util/text.hpp"

namespace gpukit::linalg {
namespace {

using gpukit::detail::concat;

double epsilon(DType real) {
    return real == DType::float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                                  : std::numeric_limits<double>::epsilon();
}

Array scalar(double value, DType dtype, const Device& device) {
    return full({}, Scalar::of(value), dtype, Order::C, device);
}

Array last_axis_max(const Array& s) {
    ReduceOptions options;
    options.axis = std::vector<std::int64_t>{-1};
    options.keepdims = true;
    return amax(s, options);
}

Array conjugate_transpose(const Array& a) { return conjugate(swapaxes(a, -1, -2)); }

}  // namespace

LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond) {
    for (const Array* x : {&a, &b})
        if (x->ndim() != 2 && !(x == &b && x->ndim() == 1))
            throw LinAlgError(concat(x->ndim(), "-dimensional array given. Array must be two-dimensional"));
    const DType dtype = detail::solver_dtype({&a, &b});
    const DType real = detail::real_dtype(dtype);
    const std::int64_t m = a.shape()[0], n = a.shape()[1];
    const bool vector = b.ndim() == 1;
    const Array rhs = (vector ? expand_dims(b, std::vector<std::int64_t>{-1}) : b).astype(dtype, Order::C);
    if (rhs.shape()[0] != m) throw LinAlgError("Incompatible dimensions");
    const std::int64_t k = rhs.shape()[1];
    const Array matrix = a.astype(dtype, Order::C);
    const double cutoff_ratio = rcond ? *rcond : epsilon(real) * static_cast<double>(std::max(m, n));
    const SVDResult usv = svd(matrix, /*full_matrices=*/false);
    std::int64_t rank = 0;
    Array x = zeros({n, k}, dtype, Order::C, a.device());
    if (std::min(m, n) > 0) {
        // Singular values at most rcond * max(s) count as zero, as LAPACK's gelsd decides.
        const Array kept = greater(usv.S, multiply(last_axis_max(usv.S), scalar(cutoff_ratio, real, a.device())));
        rank = count_nonzero(kept, ReduceOptions{}).to_vector<std::int64_t>()[0];
        const Array inverse = where(kept, reciprocal(usv.S), scalar(0.0, real, a.device()));
        const Array projected =
            multiply(expand_dims(inverse, std::vector<std::int64_t>{-1}), matmul(conjugate_transpose(usv.U), rhs));
        x = matmul(conjugate_transpose(usv.Vh), projected);
    }
    Array residuals = zeros({0}, real, Order::C, a.device());
    if (rank == n && m > n) {
        const Array r = n == 0 ? rhs : subtract(rhs, matmul(matrix, x));
        ReduceOptions rows;
        rows.axis = std::vector<std::int64_t>{0};
        residuals = sum(square(absolute(r)), rows);
    }
    LstsqResult result{x, residuals, rank, usv.S};
    if (vector) result.x = result.x.reshape({n});
    return result;
}

Array pinv(const Array& a, const std::optional<Array>& rcond, bool hermitian) {
    detail::require_stacked_matrices(a);
    const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
    if (m * n == 0) {
        Shape shape(a.shape().begin(), a.shape().end() - 2);
        shape.push_back(n);
        shape.push_back(m);
        return zeros(shape, a.dtype(), Order::C, a.device());
    }
    // NumPy's steps: the SVD of conj(a), small singular values dropped, V S^+ U^T.
    const SVDResult usv = svd(conjugate(a), /*full_matrices=*/false, hermitian);
    const Array ratio = rcond ? *rcond : scalar(1e-15, DType::float64, a.device());
    const Array cutoff = multiply(expand_dims(ratio, std::vector<std::int64_t>{-1}), last_axis_max(usv.S));
    const Array large = greater(usv.S, cutoff);
    const Array inverse =
        where(large, reciprocal(usv.S), full({}, Scalar::of(0.0), usv.S.dtype(), Order::C, a.device()));
    return matmul(swapaxes(usv.Vh, -1, -2),
                  multiply(expand_dims(inverse, std::vector<std::int64_t>{-1}), swapaxes(usv.U, -1, -2)));
}

Array matrix_rank(const Array& a, const std::optional<Array>& tol, bool hermitian, const std::optional<Array>& rtol) {
    if (a.ndim() < 2) {
        return any(not_equal(a, zeros({}, a.dtype(), Order::C, a.device())), ReduceOptions{}).astype(DType::int64);
    }
    const Array s = svdvals(a, hermitian);
    const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back();
    ReduceOptions last;
    last.axis = std::vector<std::int64_t>{-1};
    if (std::min(m, n) == 0)
        return zeros(Shape(a.shape().begin(), a.shape().end() - 2), DType::int64, Order::C, a.device());
    const auto bound = [&] {
        if (tol) return expand_dims(*tol, std::vector<std::int64_t>{-1});
        const Array ratio =
            rtol ? expand_dims(*rtol, std::vector<std::int64_t>{-1})
                 : scalar(epsilon(s.dtype()) * static_cast<double>(std::max(m, n)), s.dtype(), a.device());
        return multiply(last_axis_max(s), ratio);
    }();
    return count_nonzero(greater(s, bound), last);
}

Array matrix_power(const Array& a, std::int64_t n) {
    detail::require_stacked_square(a);
    if (n == 0)
        return broadcast_to(eye(a.shape().back(), std::nullopt, 0, a.dtype(), Order::C, a.device()), a.shape())
            .copy(Order::C);
    Array base = n < 0 ? inv(a) : a;
    // |n| without overflow for the most negative n.
    std::uint64_t remaining = n < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
    if (remaining == 1) return base.copy(Order::C);
    if (remaining == 2) return matmul(base, base);
    if (remaining == 3) return matmul(matmul(base, base), base);
    // NumPy's order: z = a, a^2, a^4, ...; the result multiplied by each z whose bit is set.
    std::optional<Array> z, result;
    while (remaining > 0) {
        z = z ? matmul(*z, *z) : base;
        const bool bit = (remaining & 1) != 0;
        remaining >>= 1;
        if (bit) result = result ? matmul(*result, *z) : *z;
    }
    return *result;
}

}  // namespace gpukit::linalg
