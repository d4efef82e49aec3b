// src/ops/linalg/compositions.cpp: numpy.linalg's functions made of gpukit's other ones: cond
// (svdvals, or norms and an inverse), multi_dot (dot in the cheapest order), tensorinv and
// tensorsolve (inv and solve of the tensor read as a matrix) (include/gpukit/linalg.hpp). Each
// follows NumPy's steps, so that results round and dtypes come out as NumPy's.
#include <algorithm>
#include <limits>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/linalg/solver_call.hpp"
#include "util/text.hpp"

namespace gpukit::linalg {
namespace {

using gpukit::detail::concat;

std::int64_t product(std::span<const std::int64_t> extents) {
    std::int64_t n = 1;
    for (const std::int64_t e : extents) n *= e;
    return n;
}

Array last_element(const Array& a, std::int64_t index) { return a.index({ellipsis, index}); }

// The ratio of the largest singular value to the smallest (p = -2: the other way round).
Array singular_value_ratio(const Array& a, bool smallest_over_largest) {
    const Array s = svdvals(a);
    const Array largest = last_element(s, 0), smallest = last_element(s, -1);
    return smallest_over_largest ? true_divide(smallest, largest) : true_divide(largest, smallest);
}

bool is_two_norm(const std::optional<NormOrder>& p) {
    if (!p) return true;
    const auto* number = std::get_if<double>(&*p);
    return number && (*number == 2 || *number == -2);
}

}  // namespace

Array cond(const Array& a, const std::optional<NormOrder>& p) {
    const Shape& shape = a.shape();
    const std::int64_t matrix_size = product(std::span(shape).last(std::min<std::size_t>(2, shape.size())));
    if (a.size() == 0 && matrix_size == 0) throw LinAlgError("cond is not defined on empty arrays");
    const DType dtype = detail::solver_dtype({&a});
    const DType real = detail::real_dtype(dtype);
    const Array r = [&] {
        if (is_two_norm(p)) return singular_value_ratio(a, p && std::get<double>(*p) < 0);
        detail::require_stacked_square(a);
        // NumPy inverts in double precision whatever a's precision (its 'd->d' or 'D->D' loop).
        const bool complex = dtype == DType::complex64 || dtype == DType::complex128;
        const Array inverse = detail::inverse_or_nan(a, complex ? DType::complex128 : DType::float64);
        const NormOptions options{.ord = p, .axis = std::vector<std::int64_t>{-2, -1}};
        return multiply(norm(a, options), norm(inverse, options)).astype(real);
    }();
    // A nan that a's own nans did not cause is a singular matrix: infinitely ill-conditioned.
    ReduceOptions matrices;
    matrices.axis = std::vector<std::int64_t>{-2, -1};
    const Array caused_here = logical_and(isnan(r), logical_not(any(isnan(a), matrices)));
    return where(caused_here, full({}, Scalar::of(std::numeric_limits<double>::infinity()), real, Order::C, a.device()),
                 r);
}

namespace {

// NumPy's _multi_dot_matrix_chain_order: split[i][j] is where the cheapest product of arrays i..j
// splits, by the classic O(n^3) dynamic programme over the matrices' extents; ties keep the first
// split, as NumPy's strict comparison does.
std::vector<std::vector<std::size_t>> chain_order(std::span<const Array> arrays) {
    const std::size_t n = arrays.size();
    std::vector<double> extents;
    for (const Array& a : arrays) extents.push_back(static_cast<double>(a.shape()[0]));
    extents.push_back(static_cast<double>(arrays.back().shape()[1]));
    std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0.0));
    std::vector<std::vector<std::size_t>> split(n, std::vector<std::size_t>(n, 0));
    for (std::size_t length = 1; length < n; ++length) {
        for (std::size_t i = 0; i + length < n; ++i) {
            const std::size_t j = i + length;
            cost[i][j] = std::numeric_limits<double>::infinity();
            for (std::size_t k = i; k < j; ++k) {
                const double q = cost[i][k] + cost[k + 1][j] + extents[i] * extents[k + 1] * extents[j + 1];
                if (q < cost[i][j]) {
                    cost[i][j] = q;
                    split[i][j] = k;
                }
            }
        }
    }
    return split;
}

Array chain_product(std::span<const Array> arrays, const std::vector<std::vector<std::size_t>>& split, std::size_t i,
                    std::size_t j, const std::optional<Array>& out) {
    if (i == j) return arrays[i];
    const Array left = chain_product(arrays, split, i, split[i][j], std::nullopt);
    const Array right = chain_product(arrays, split, split[i][j] + 1, j, std::nullopt);
    return out ? dot(left, right, *out) : dot(left, right);
}

}  // namespace

Array multi_dot(std::span<const Array> arrays, const std::optional<Array>& out) {
    if (arrays.size() < 2) throw InvalidArgumentError("Expecting at least two arrays.");
    if (arrays.size() == 2) return out ? dot(arrays[0], arrays[1], *out) : dot(arrays[0], arrays[1]);
    std::vector<Array> matrices(arrays.begin(), arrays.end());
    const bool row_first = matrices.front().ndim() == 1, column_last = matrices.back().ndim() == 1;
    if (row_first) matrices.front() = atleast_2d(matrices.front());
    if (column_last) matrices.back() = atleast_2d(matrices.back()).transpose();
    for (const Array& m : matrices)
        if (m.ndim() != 2)
            throw LinAlgError(concat(m.ndim(), "-dimensional array given. Array must be two-dimensional"));
    Array result = [&] {
        if (matrices.size() > 3) return chain_product(matrices, chain_order(matrices), 0, matrices.size() - 1, out);
        // NumPy's _multi_dot_three: the cheaper of (AB)C and A(BC), by its own cost formula.
        const Array& a = matrices[0];
        const Array& b = matrices[1];
        const Array& c = matrices[2];
        const std::int64_t a0 = a.shape()[0], a1b0 = a.shape()[1], b1c0 = c.shape()[0], c1 = c.shape()[1];
        const bool left_first = a0 * b1c0 * (a1b0 + c1) < a1b0 * c1 * (a0 + b1c0);
        const Array lhs = left_first ? dot(a, b) : a;
        const Array rhs = left_first ? c : dot(b, c);
        return out ? dot(lhs, rhs, *out) : dot(lhs, rhs);
    }();
    if (row_first && column_last) return result.index({std::int64_t{0}, std::int64_t{0}});
    if (row_first || column_last) return result.ravel();
    return result;
}

Array tensorinv(const Array& a, std::int64_t ind) {
    if (ind <= 0) throw InvalidArgumentError("Invalid ind argument.");
    const Shape& shape = a.shape();
    const auto split = static_cast<std::ptrdiff_t>(std::min<std::size_t>(static_cast<std::size_t>(ind), shape.size()));
    Shape inverse_shape(shape.begin() + split, shape.end());
    inverse_shape.insert(inverse_shape.end(), shape.begin(), shape.begin() + split);
    const std::int64_t rows = product(std::span(shape).subspan(static_cast<std::size_t>(split)));
    // NumPy's reshape(0, -1) has no extent to infer.
    if (rows == 0) throw InvalidArgumentError("cannot reshape array of size 0 into shape (0,newaxis)");
    return inv(a.reshape({rows, -1})).reshape(inverse_shape);
}

Array tensorsolve(const Array& a, const Array& b, const std::optional<std::vector<std::int64_t>>& axes) {
    const auto ndim = static_cast<std::int64_t>(a.ndim());
    Array moved = a;
    if (axes) {
        // NumPy's order: each axis named in turn moves to the end.
        std::vector<std::int64_t> order(a.ndim());
        for (std::int64_t d = 0; d < ndim; ++d) order[static_cast<std::size_t>(d)] = d;
        for (const std::int64_t axis : *axes) {
            const auto found = std::find(order.begin(), order.end(), axis);
            if (found == order.end())
                throw AxisError(
                    concat("tensorsolve: axis ", axis, " is not one of a's ", ndim, " (non-negative, each once)"));
            order.erase(found);
            order.push_back(axis);
        }
        moved = a.transpose(order);
    }
    // x's shape: a's trailing axes past b's (all of them when a has no more axes than b, as NumPy's
    // shape[-0:] reads).
    const std::int64_t trailing = ndim - static_cast<std::int64_t>(b.ndim());
    const Shape& shape = moved.shape();
    const Shape x_shape(trailing > 0 ? shape.end() - trailing : shape.begin(), shape.end());
    const std::int64_t n = product(x_shape);
    if (moved.size() != n * n)
        throw LinAlgError("Input arrays must satisfy the requirement prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])");
    return solve(moved.reshape({n, n}), b.ravel()).reshape(x_shape);
}

}  // namespace gpukit::linalg
