// src/ops/linalg/solvers.cpp: numpy.linalg's solve, inv, det, slogdet and cholesky
// (include/gpukit/linalg.hpp) from the solver library's LU (getrf, getrs) and Cholesky (potrf).
//
// A C-ordered matrix is the column-major storage of its transpose, which LU and Cholesky take as
// well as the matrix itself: getrs solves with the transpose (solve), (A^T)^-1 read in C order is
// A^-1 (inv), det(A^T) = det(A), and the Cholesky factor of A^T from one triangle is the transpose
// of A's from the other. So these copy the operand once, in C order, and transpose nothing.
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

using detail::SolverCall;
using gpukit::detail::concat;

Shape with_matrix(Shape batch, std::int64_t rows, std::int64_t cols) {
    batch.push_back(rows);
    batch.push_back(cols);
    return batch;
}

Shape batch_of(const Array& a, std::size_t core) {
    return Shape(a.shape().begin(), a.shape().end() - static_cast<std::ptrdiff_t>(core));
}

// NumPy's broadcast of two batch shapes, or InvalidArgumentError naming both.
Shape broadcast_batches(const Shape& a, const Shape& b) {
    Shape out(std::max(a.size(), b.size()), 1);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::int64_t x = i < out.size() - a.size() ? 1 : a[i - (out.size() - a.size())];
        const std::int64_t y = i < out.size() - b.size() ? 1 : b[i - (out.size() - b.size())];
        if (x != y && x != 1 && y != 1)
            throw InvalidArgumentError(
                concat("solve: the batch shapes ", format_shape(a), " and ", format_shape(b), " do not broadcast"));
        out[i] = x == 1 ? y : x;
    }
    return out;
}

// The LU factors of the C-ordered copy of each matrix (the column-major storage of its
// transpose), with their pivots; `call` holds the info words.
struct Factors {
    Array lu;
    Array pivots;
};
Factors factor(const Array& a, DType dtype, const SolverCall* call) {
    const std::int64_t n = a.shape().back();
    Factors f{a.astype(dtype, Order::C), Array::empty(batch_of(a, 1), DType::int32, a.device())};
    if (call) call->library().getrf(call->batch(), call->matrices(f.lu, n, n), call->address(f.pivots));
    return f;
}

}  // namespace

Array solve(const Array& a, const Array& b) {
    detail::require_stacked_square(a);
    if (b.ndim() == 0) throw LinAlgError("0-dimensional array given. Array must be at least one-dimensional");
    const DType dtype = detail::solver_dtype({&a, &b});
    const std::int64_t n = a.shape().back();
    // NumPy 2: b is a stack of vectors only when it has one axis.
    const bool vector = b.ndim() == 1;
    const std::int64_t rows = vector ? b.shape().back() : b.shape()[b.ndim() - 2];
    if (rows != n)
        throw InvalidArgumentError(concat("solve: a's matrices are ", n, " x ", n, " but b has ", rows,
                                          vector ? " elements" : " rows", " (shapes ", format_shape(a.shape()), " and ",
                                          format_shape(b.shape()), ")"));
    const std::int64_t k = vector ? 1 : b.shape().back();
    const Shape batch = broadcast_batches(batch_of(a, 2), batch_of(b, vector ? 1 : 2));
    const Array stacked = broadcast_to(a, with_matrix(batch, n, n));
    Shape x_shape = vector ? batch : with_matrix(batch, n, k);
    if (vector) x_shape.push_back(n);
    const std::int64_t count = detail::batch_count(with_matrix(batch, n, n));
    if (count == 0 || n == 0 || k == 0) return zeros(x_shape, dtype, Order::C, a.device());
    // b's columns in column-major order: a stack of vectors is that already.
    const Array rhs = vector ? broadcast_to(b, x_shape).astype(dtype, Order::C)
                             : detail::column_major(broadcast_to(b, x_shape), dtype);
    const SolverCall lu_call(a.device(), dtype, count);
    const Factors f = factor(stacked, dtype, &lu_call);
    const SolverCall solve_call(a.device(), dtype, count);
    solve_call.library().getrs(solve_call.batch(), /*transpose=*/true, solve_call.matrices(f.lu, n, n),
                               solve_call.address(f.pivots), solve_call.matrices(rhs, n, k));
    if (lu_call.first_failure("getrf") >= 0) throw LinAlgError("Singular matrix");
    return vector ? rhs : detail::from_column_major(rhs);
}

namespace {

// The inverses of a's n x n matrices from the LU factors `lu_call` computes (its info words say
// which were singular).
Array invert(const Array& a, DType dtype, const SolverCall& lu_call) {
    const std::int64_t n = a.shape().back();
    const Factors f = factor(a, dtype, &lu_call);
    // (A^T)^-1 in column-major order is A^-1 in C order.
    Array x = broadcast_to(identity(n, dtype, a.device()), a.shape()).copy(Order::C);
    const SolverCall solve_call(a.device(), dtype, lu_call.batch().count);
    solve_call.library().getrs(solve_call.batch(), /*transpose=*/false, solve_call.matrices(f.lu, n, n),
                               solve_call.address(f.pivots), solve_call.matrices(x, n, n));
    return x;
}

}  // namespace

Array inv(const Array& a) {
    detail::require_stacked_square(a);
    const DType dtype = detail::solver_dtype({&a});
    const std::int64_t n = a.shape().back();
    const std::int64_t count = detail::batch_count(a.shape());
    if (count == 0 || n == 0) return zeros(a.shape(), dtype, Order::C, a.device());
    const SolverCall lu_call(a.device(), dtype, count);
    Array x = invert(a, dtype, lu_call);
    if (lu_call.first_failure("getrf") >= 0) throw LinAlgError("Singular matrix");
    return x;
}

Array detail::inverse_or_nan(const Array& a, DType dtype) {
    require_stacked_square(a);
    const std::int64_t n = a.shape().back();
    const std::int64_t count = batch_count(a.shape());
    if (count == 0 || n == 0) return zeros(a.shape(), dtype, Order::C, a.device());
    const SolverCall lu_call(a.device(), dtype, count);
    const Array x = invert(a, dtype, lu_call);
    // A positive info is a zero pivot: that matrix's inverse is NaN throughout, as NumPy's.
    Shape batch = batch_of(a, 2);
    batch.push_back(1);
    batch.push_back(1);
    const Array singular = greater(lu_call.info().reshape(batch), zeros({}, DType::int32, Order::C, a.device()));
    return where(singular, full({}, Scalar::of(std::numeric_limits<double>::quiet_NaN()), dtype, Order::C, a.device()),
                 x);
}

SlogdetResult slogdet(const Array& a) {
    detail::require_stacked_square(a);
    const DType dtype = detail::solver_dtype({&a});
    const std::int64_t n = a.shape().back();
    const std::int64_t count = detail::batch_count(a.shape());
    std::optional<SolverCall> call;
    if (count > 0 && n > 0) call.emplace(a.device(), dtype, count);
    const Factors f = factor(a, dtype, call ? &*call : nullptr);
    // A singular matrix is no error here: its zero pivot gives sign 0 and log 0 = -inf.
    const Array diagonal_of_u = diagonal(f.lu, 0, -2, -1);
    ReduceOptions last;
    last.axis = std::vector<std::int64_t>{-1};
    // Each row exchange (a pivot other than its own row) flips the sign.
    const Array rows = arange(Scalar::of(std::int32_t{1}), Scalar::of(static_cast<std::int32_t>(n + 1)),
                              Scalar::of(std::int32_t{1}), DType::int32, a.device());
    const Array exchanges = count_nonzero(not_equal(f.pivots, rows), last);
    const Array flips = subtract(
        full({}, Scalar::of(std::int64_t{1}), DType::int64, Order::C, a.device()),
        multiply(remainder(exchanges, full({}, Scalar::of(std::int64_t{2}), DType::int64, Order::C, a.device())),
                 full({}, Scalar::of(std::int64_t{2}), DType::int64, Order::C, a.device())));
    const Array sign_of_u = prod(sign(diagonal_of_u), last);
    return {multiply(sign_of_u, flips.astype(dtype)), sum(log(absolute(diagonal_of_u)), last)};
}

Array det(const Array& a) {
    const SlogdetResult s = slogdet(a);
    return multiply(s.sign, exp(s.logabsdet));
}

Array cholesky(const Array& a, bool upper) {
    detail::require_stacked_square(a);
    const DType dtype = detail::solver_dtype({&a});
    const std::int64_t n = a.shape().back();
    const std::int64_t count = detail::batch_count(a.shape());
    Array factor = a.astype(dtype, Order::C);
    if (count == 0 || n == 0) return factor;
    // In C order the buffer holds A^T column-major: its upper triangle is A's lower one, and the
    // upper factor of A^T read in C order is A's lower factor (and the other way round).
    const SolverCall call(a.device(), dtype, count);
    call.library().potrf(call.batch(), upper ? gpukit::detail::Triangle::lower : gpukit::detail::Triangle::upper,
                         call.matrices(factor, n, n));
    if (call.first_failure("potrf") >= 0) throw LinAlgError("Matrix is not positive definite");
    return upper ? triu(factor) : tril(factor);
}

}  // namespace gpukit::linalg
