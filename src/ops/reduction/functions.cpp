// src/ops/reduction/functions.cpp: NumPy's reduction functions (include/gpukit/reductions.hpp),
// each one or two runs of the engine (reduce.hpp): var and std reduce twice (the mean, then the
// squares of the deviations from it), initial= combines the reduction with its value, where= masks
// the elements (a mean then divides by the elements counted).
#include <cmath>
#include <span>

#include "core/warnings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/reduction/plan.hpp"
#include "ops/reduction/reduce.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace detail {
namespace {

bool inexact(DType dtype) { return kind(dtype) == DTypeKind::floating || kind(dtype) == DTypeKind::complex; }

// The value of a 0-d bool array, on the host (waits for it).
bool host_truth(const Array& flag) { return flag.astype(DType::uint8).to_vector<std::uint8_t>()[0] != 0; }

ReductionRun run_of(std::span<const Array> inputs, const ReduceOptions& options) {
    ReductionRun run;
    run.inputs = inputs;
    run.axis = options.axis;
    run.keepdims = options.keepdims;
    run.out = options.out;
    run.where = options.where;
    return run;
}

void refuse(bool given, std::string_view function, std::string_view argument) {
    if (given) throw InvalidArgumentError(concat(function, "() takes no ", argument, "="));
}

// A reduction combined with initial= by `combine` (add, multiply, maximum, ...), into out= if given.
using Combine = void (*)(const Array&, const Array&, const Array&, Casting);
Array with_initial(ReductionId id, const Array& a, const ReduceOptions& options, Combine combine) {
    const Array inputs[] = {a};
    const DType input = a.dtype();
    const ReductionDTypes dtypes = reduction_dtypes(id, std::span(&input, 1), options.dtype);
    ReductionRun run = run_of(inputs, options);
    if (!options.initial) return run_reduction(id, dtypes, run);
    run.out.reset();
    run.initial_given = true;
    const Array reduced = run_reduction(id, dtypes, run);
    const Array initial = full({}, *options.initial, reduced.dtype(), Order::C, a.device());
    Array result = options.out ? *options.out : reduced;
    combine(reduced, initial, result, Casting::same_kind);
    return result;
}

// max and min: where= needs initial= (they have no identity to give the masked elements).
Array extreme(ReductionId id, const Array& a, const ReduceOptions& options, Combine combine, std::string_view ufunc) {
    if (options.where && !options.initial)
        throw InvalidArgumentError(concat("reduction operation '", ufunc,
                                          "' does not have an identity, so to use a where mask one has to specify "
                                          "'initial'"));
    return with_initial(id, a, options, combine);
}

void add_into(const Array& a, const Array& b, const Array& out, Casting casting) { add(a, b, out, casting); }
void multiply_into(const Array& a, const Array& b, const Array& out, Casting casting) { multiply(a, b, out, casting); }
void maximum_into(const Array& a, const Array& b, const Array& out, Casting casting) { maximum(a, b, out, casting); }
void minimum_into(const Array& a, const Array& b, const Array& out, Casting casting) { minimum(a, b, out, casting); }
void fmax_into(const Array& a, const Array& b, const Array& out, Casting casting) { fmax(a, b, out, casting); }
void fmin_into(const Array& a, const Array& b, const Array& out, Casting casting) { fmin(a, b, out, casting); }

// The elements each result of reducing `a` over options.axis takes (an error for a bad axis).
std::int64_t elements_per_result(const Array& a, const ReduceOptions& options) {
    const std::vector<bool> reduced = reduced_axes(
        options.axis ? std::optional<std::span<const std::int64_t>>(*options.axis) : std::nullopt, a.ndim());
    std::int64_t count = 1;
    for (std::size_t d = 0; d < reduced.size(); ++d)
        if (reduced[d]) count *= a.shape()[d];
    return count;
}

// NumPy's RuntimeWarnings that the shapes decide (under where=, or for a slice all nan, they
// depend on the values: not given, so that nothing waits for the device). A slice of no elements
// needs an empty array, and ddof >= n a ddof of 1 or more: most calls look no further.
void warn_if_empty_mean(const Array& a, const ReduceOptions& options) {
    if (!options.where && a.size() == 0 && elements_per_result(a, options) == 0)
        warn(WarningCategory::runtime, "Mean of empty slice");
}
void warn_if_no_degrees_of_freedom(const Array& a, const ReduceOptions& options, double ddof, bool nan) {
    if (options.where || (a.size() > 0 && ddof < 1)) return;
    if (ddof >= static_cast<double>(elements_per_result(a, options)))
        warn(WarningCategory::runtime,
             nan ? "Degrees of freedom <= 0 for slice." : "Degrees of freedom <= 0 for slice");
}

Array plain(ReductionId id, const Array& a, const ReduceOptions& options) {
    const Array inputs[] = {a};
    const DType input = a.dtype();
    return run_reduction(id, reduction_dtypes(id, std::span(&input, 1), options.dtype), run_of(inputs, options));
}

// var, std, nanvar, nanstd: the mean (keepdims, so that it broadcasts), then the deviations.
Array variance(ReductionId id, const Array& a, const ReduceOptions& options, double ddof, bool nan) {
    refuse(options.initial.has_value(), "var", "initial");
    warn_if_no_degrees_of_freedom(a, options, ddof, nan);
    const bool masked = options.where.has_value();
    ReduceOptions mean_options;
    mean_options.axis = options.axis;
    mean_options.keepdims = true;
    mean_options.dtype = mean_dtype(a.dtype(), options.dtype);
    mean_options.where = options.where;
    const ReductionId mean_id = nan ? ReductionId::nanmean : masked ? ReductionId::mean_counted : ReductionId::mean;
    const Array mean = plain(mean_id, a, mean_options);
    if (masked && !nan) id = id == ReductionId::var ? ReductionId::var_counted : ReductionId::std_counted;
    const Array inputs[] = {a, mean};
    const DType dtypes_in[] = {a.dtype(), mean.dtype()};
    ReductionRun run = run_of(inputs, options);
    run.argument = ddof;
    return run_reduction(id, reduction_dtypes(id, dtypes_in, options.dtype), run);
}

// argmax, argmin and the nan forms: one axis or all.
Array arg_reduction(ReductionId id, const Array& a, const ArgOptions& options) {
    const Array inputs[] = {a};
    ReductionRun run;
    run.inputs = inputs;
    if (options.axis) run.axis = std::vector<std::int64_t>{*options.axis};
    run.keepdims = options.keepdims;
    if (options.out) {
        if (options.out->dtype() != DType::int64)
            throw DTypeError(concat("Cannot cast the result of ", id == ReductionId::argmax ? "argmax" : "argmin",
                                    " from dtype('int64') to dtype('", to_string(options.out->dtype()),
                                    "'): out= of argmax and argmin must be int64"));
        run.out = options.out;
    }
    const DType input = a.dtype();
    return run_reduction(id, reduction_dtypes(id, std::span(&input, 1), std::nullopt), run);
}

// nanargmax and nanargmin raise for an all-nan slice, as NumPy's: that needs the result on the host.
Array nan_arg_reduction(ReductionId id, const Array& a, const ArgOptions& options) {
    Array result = arg_reduction(id, a, options);
    if (inexact(a.dtype()) && result.size() > 0 &&
        host_truth(any(less(result, full({}, Scalar::of(std::int64_t{0}), DType::int64, Order::C, a.device())))))
        throw InvalidArgumentError("All-NaN slice encountered");
    return result;
}

}  // namespace
}  // namespace detail

using detail::ReductionId;

Array sum(const Array& a, const ReduceOptions& options) {
    return detail::with_initial(ReductionId::sum, a, options, &detail::add_into);
}
Array prod(const Array& a, const ReduceOptions& options) {
    return detail::with_initial(ReductionId::prod, a, options, &detail::multiply_into);
}
Array max(const Array& a, const ReduceOptions& options) {
    return detail::extreme(ReductionId::max, a, options, &detail::maximum_into, "maximum");
}
Array min(const Array& a, const ReduceOptions& options) {
    return detail::extreme(ReductionId::min, a, options, &detail::minimum_into, "minimum");
}
Array amax(const Array& a, const ReduceOptions& options) { return max(a, options); }
Array amin(const Array& a, const ReduceOptions& options) { return min(a, options); }
Array any(const Array& a, const ReduceOptions& options) {
    detail::refuse(options.initial.has_value(), "any", "initial");
    return detail::plain(ReductionId::any, a, options);
}
Array all(const Array& a, const ReduceOptions& options) {
    detail::refuse(options.initial.has_value(), "all", "initial");
    return detail::plain(ReductionId::all, a, options);
}
Array mean(const Array& a, const ReduceOptions& options) {
    detail::refuse(options.initial.has_value(), "mean", "initial");
    detail::warn_if_empty_mean(a, options);
    return detail::plain(options.where ? ReductionId::mean_counted : ReductionId::mean, a, options);
}
Array ptp(const Array& a, const ReduceOptions& options) {
    detail::refuse(options.where.has_value(), "ptp", "where");
    detail::refuse(options.initial.has_value(), "ptp", "initial");
    if (a.dtype() == DType::bool_)
        throw DTypeError("numpy boolean subtract, the `-` operator, is not supported: ptp of a bool array");
    return detail::plain(ReductionId::ptp, a, options);
}
Array count_nonzero(const Array& a, const ReduceOptions& options) {
    detail::refuse(options.where.has_value(), "count_nonzero", "where");
    detail::refuse(options.initial.has_value(), "count_nonzero", "initial");
    detail::refuse(options.out.has_value(), "count_nonzero", "out");
    return detail::plain(ReductionId::count_nonzero, a, options);
}

Array var(const Array& a, const ReduceOptions& options, double ddof) {
    return detail::variance(ReductionId::var, a, options, ddof, false);
}
Array std(const Array& a, const ReduceOptions& options, double ddof) {
    return detail::variance(ReductionId::std, a, options, ddof, false);
}
Array nanvar(const Array& a, const ReduceOptions& options, double ddof) {
    return detail::variance(ReductionId::nanvar, a, options, ddof, true);
}
Array nanstd(const Array& a, const ReduceOptions& options, double ddof) {
    return detail::variance(ReductionId::nanstd, a, options, ddof, true);
}

Array nansum(const Array& a, const ReduceOptions& options) {
    return detail::with_initial(ReductionId::nansum, a, options, &detail::add_into);
}
Array nanprod(const Array& a, const ReduceOptions& options) {
    return detail::with_initial(ReductionId::nanprod, a, options, &detail::multiply_into);
}
Array nanmax(const Array& a, const ReduceOptions& options) {
    return detail::extreme(ReductionId::nanmax, a, options, &detail::fmax_into, "fmax");
}
Array nanmin(const Array& a, const ReduceOptions& options) {
    return detail::extreme(ReductionId::nanmin, a, options, &detail::fmin_into, "fmin");
}
Array nanmean(const Array& a, const ReduceOptions& options) {
    detail::refuse(options.initial.has_value(), "nanmean", "initial");
    detail::warn_if_empty_mean(a, options);
    return detail::plain(ReductionId::nanmean, a, options);
}

Array argmax(const Array& a, const ArgOptions& options) {
    return detail::arg_reduction(ReductionId::argmax, a, options);
}
Array argmin(const Array& a, const ArgOptions& options) {
    return detail::arg_reduction(ReductionId::argmin, a, options);
}
Array nanargmax(const Array& a, const ArgOptions& options) {
    return detail::nan_arg_reduction(ReductionId::nanargmax, a, options);
}
Array nanargmin(const Array& a, const ArgOptions& options) {
    return detail::nan_arg_reduction(ReductionId::nanargmin, a, options);
}

Average average(const Array& a, const AverageOptions& options) {
    using detail::concat;
    ReduceOptions reduce;
    reduce.axis = options.axis;
    reduce.keepdims = options.keepdims;
    if (!options.weights) {
        Array result = mean(a, reduce);
        const auto counted = static_cast<double>(detail::elements_per_result(a, reduce));
        Array weights = full(result.shape(), Scalar::of(counted), result.dtype(), Order::C, a.device());
        return {std::move(result), std::move(weights)};
    }
    Array weights = *options.weights;
    if (weights.shape() != a.shape()) {
        if (!options.axis) throw DTypeError("Axis must be specified when shapes of a and weights differ.");
        if (weights.ndim() != 1) throw DTypeError("1D weights expected when shapes of a and weights differ.");
        if (options.axis->size() != 1)
            throw InvalidArgumentError("weights of one dimension go along one axis: give one axis");
        const std::int64_t ndim = static_cast<std::int64_t>(a.ndim());
        std::int64_t axis = (*options.axis)[0];
        if (axis < -ndim || axis >= ndim)
            throw AxisError(concat("axis ", axis, " is out of bounds for array of dimension ", ndim));
        if (axis < 0) axis += ndim;
        if (weights.shape()[0] != a.shape()[static_cast<std::size_t>(axis)])
            throw InvalidArgumentError("Shape of weights must be consistent with shape of a along specified axis.");
        Shape along(a.ndim(), 1);
        along[static_cast<std::size_t>(axis)] = weights.shape()[0];
        weights = broadcast_to(weights.reshape(along), a.shape());
    }
    const DType result_dtype = detail::integral(a.dtype()) ? result_type({a.dtype(), weights.dtype(), DType::float64})
                                                           : result_type({a.dtype(), weights.dtype()});
    ReduceOptions in_result = reduce;
    in_result.dtype = result_dtype;
    const Array sum_of_weights = sum(weights, in_result);
    if (detail::host_truth(any(equal(sum_of_weights, full({}, Scalar::of(0.0), result_dtype, Order::C, a.device())))))
        throw ZeroDivisionError("Weights sum to zero, can't be normalized");
    const Array inputs[] = {a, weights};
    detail::ReductionRun run = detail::run_of(inputs, in_result);
    run.where.reset();
    const DType dtypes_in[] = {a.dtype(), weights.dtype()};
    const Array weighted =
        detail::run_reduction(ReductionId::sum_of_products,
                              detail::reduction_dtypes(ReductionId::sum_of_products, dtypes_in, result_dtype), run);
    Array result = true_divide(weighted, sum_of_weights);
    if (result.dtype() != result_dtype) result = result.astype(result_dtype);
    return {std::move(result), sum_of_weights};
}

}  // namespace gpukit
