// src/ops/linalg/norm.cpp: numpy.linalg.norm (include/gpukit/linalg.hpp): each order one built-in
// reduction (norm2, sum_abs, max_abs, min_abs, count_nonzero_real) or two (matrix 1 and inf norms:
// the absolute sums along one axis, then their extreme along the other); a general p-norm is
// (sum |x|**p)**(1/p) of elementwise powers; the matrix 2, -2 and nuclear norms are the largest,
// the smallest and the sum of the singular values (svdvals).
#include <cmath>
#include <limits>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/reduction/plan.hpp"
#include "ops/reduction/reduce.hpp"
#include "util/text.hpp"

namespace gpukit::linalg {
namespace {

using detail::ReductionId;

Array reduce_norm(ReductionId id, const Array& x, std::vector<std::int64_t> axes, bool keepdims) {
    const Array inputs[] = {x};
    const DType input = x.dtype();
    detail::ReductionRun run;
    run.inputs = inputs;
    run.axis = std::move(axes);
    run.keepdims = keepdims;
    return detail::run_reduction(id, detail::reduction_dtypes(id, std::span(&input, 1), std::nullopt), run);
}

Array norm_over(const Array& x, const std::optional<NormOrder>& ord, const std::vector<std::int64_t>& axes,
                bool keepdims) {
    if (!ord) return reduce_norm(ReductionId::norm2, x, axes, keepdims);
    if (const auto* name = std::get_if<std::string>(&*ord))
        throw InvalidArgumentError(detail::concat("Invalid norm order '", *name, "' for vectors"));
    const double p = std::get<double>(*ord);
    if (p == std::numeric_limits<double>::infinity()) return reduce_norm(ReductionId::max_abs, x, axes, keepdims);
    if (p == -std::numeric_limits<double>::infinity()) return reduce_norm(ReductionId::min_abs, x, axes, keepdims);
    if (p == 0) return reduce_norm(ReductionId::count_nonzero_real, x, axes, keepdims);
    if (p == 1) return reduce_norm(ReductionId::sum_abs, x, axes, keepdims);
    if (p == 2) return reduce_norm(ReductionId::norm2, x, axes, keepdims);
    const Array magnitudes = absolute(detail::integral(x.dtype()) ? x.astype(DType::float64) : x);
    const DType real = magnitudes.dtype();
    ReduceOptions sum_options;
    sum_options.axis = axes;
    sum_options.keepdims = keepdims;
    const Array sums = sum(power(magnitudes, full({}, Scalar::of(p), real)), sum_options);
    return power(sums, full({}, Scalar::of(1.0 / p), real));
}

// NumPy's _multi_svd_norm: the singular values of the matrices in (row_axis, col_axis), reduced
// over the last axis by max, min or sum; keepdims puts extents of 1 where the two axes were.
Array singular_value_norm(const Array& x, ReductionId id, std::int64_t row_axis, std::int64_t col_axis, bool keepdims) {
    const std::int64_t source[] = {row_axis, col_axis};
    const std::int64_t destination[] = {-2, -1};
    const Array values = svdvals(moveaxis(x, source, destination));
    ReduceOptions last;
    last.axis = std::vector<std::int64_t>{-1};
    Array result = id == ReductionId::sum   ? sum(values, last)
                   : id == ReductionId::max ? amax(values, last)
                                            : amin(values, last);
    if (!keepdims) return result;
    Shape shape = x.shape();
    shape[static_cast<std::size_t>(row_axis)] = 1;
    shape[static_cast<std::size_t>(col_axis)] = 1;
    return result.reshape(shape);
}

Array matrix_norm(const Array& x, const std::optional<NormOrder>& ord, std::int64_t row_axis, std::int64_t col_axis,
                  bool keepdims) {
    const std::vector<std::int64_t> both{row_axis, col_axis};
    if (!ord) return reduce_norm(ReductionId::norm2, x, both, keepdims);
    if (const auto* name = std::get_if<std::string>(&*ord)) {
        if (*name == "fro" || *name == "f") return reduce_norm(ReductionId::norm2, x, both, keepdims);
        if (*name == "nuc") return singular_value_norm(x, ReductionId::sum, row_axis, col_axis, keepdims);
        throw InvalidArgumentError(detail::concat("Invalid norm order '", *name, "' for matrices"));
    }
    const double p = std::get<double>(*ord);
    const double inf = std::numeric_limits<double>::infinity();
    if (p == 2 || p == -2)
        return singular_value_norm(x, p > 0 ? ReductionId::max : ReductionId::min, row_axis, col_axis, keepdims);
    if (p != 1 && p != -1 && p != inf && p != -inf) throw InvalidArgumentError("Invalid norm order for matrices.");
    // 1 and -1: column sums (over the rows), then their max or min; inf and -inf: row sums.
    const bool columns = p == 1 || p == -1;
    const std::int64_t summed = columns ? row_axis : col_axis;
    const std::int64_t kept = columns ? col_axis : row_axis;
    const Array sums = reduce_norm(ReductionId::sum_abs, x, {summed}, true);
    Array extreme = reduce_norm(p > 0 ? ReductionId::max_abs : ReductionId::min_abs, sums, {kept}, true);
    if (keepdims) return extreme;
    const std::vector<std::int64_t> squeezed{std::min(row_axis, col_axis), std::max(row_axis, col_axis)};
    Shape shape;
    for (std::size_t d = 0; d < extreme.ndim(); ++d)
        if (static_cast<std::int64_t>(d) != squeezed[0] && static_cast<std::int64_t>(d) != squeezed[1])
            shape.push_back(extreme.shape()[d]);
    return extreme.reshape(shape);
}

}  // namespace

Array vector_norm(const Array& x, const std::optional<std::vector<std::int64_t>>& axis, bool keepdims, double ord) {
    std::vector<std::int64_t> axes;
    if (axis) {
        for (std::size_t d : normalize_axes(*axis, x.ndim())) axes.push_back(static_cast<std::int64_t>(d));
    } else {
        for (std::size_t d = 0; d < x.ndim(); ++d) axes.push_back(static_cast<std::int64_t>(d));
    }
    return norm_over(x, NormOrder(ord), axes, keepdims);
}

Array matrix_norm(const Array& x, bool keepdims, const NormOrder& ord) {
    if (x.ndim() < 2)
        throw InvalidArgumentError(
            detail::concat("matrix_norm needs an array of at least 2 dimensions, not ", x.ndim()));
    const auto last = static_cast<std::int64_t>(x.ndim()) - 1;
    return matrix_norm(x, ord, last - 1, last, keepdims);
}

Array norm(const Array& x, const NormOptions& options) {
    const auto ndim = static_cast<std::int64_t>(x.ndim());
    if (!options.axis) {
        if (!options.ord) {
            // The 2-norm of every element (Frobenius for matrices), keepdims as extents of 1.
            std::vector<std::int64_t> all(x.ndim());
            for (std::int64_t d = 0; d < ndim; ++d) all[static_cast<std::size_t>(d)] = d;
            return reduce_norm(ReductionId::norm2, x, all, options.keepdims);
        }
        if (ndim == 1) return norm_over(x, options.ord, {0}, options.keepdims);
        if (ndim == 2) return matrix_norm(x, options.ord, 0, 1, options.keepdims);
        throw InvalidArgumentError("Improper number of dimensions to norm.");
    }
    std::vector<std::size_t> axes = normalize_axes(*options.axis, x.ndim());
    if (axes.size() == 1) return norm_over(x, options.ord, {static_cast<std::int64_t>(axes[0])}, options.keepdims);
    if (axes.size() == 2)
        return matrix_norm(x, options.ord, static_cast<std::int64_t>(axes[0]), static_cast<std::int64_t>(axes[1]),
                           options.keepdims);
    throw InvalidArgumentError("Improper number of dimensions to norm.");
}

}  // namespace gpukit::linalg
