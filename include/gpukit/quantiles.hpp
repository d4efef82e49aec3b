// include/gpukit/quantiles.hpp: quantiles of an array over some or all of its axes, as NumPy's
// (numpy.quantile, percentile, median and their nan forms), with every method of NumPy's: the
// reduced axes sorted (gpukit/sorting.hpp's radix sort), then one kernel picking and interpolating
// each result from its sorted row, on the device, without waiting.
//
//   gpukit::median(a, {.axis = {{0}}})
//   gpukit::quantile(a, {0.25, 0.75}, {2}, {.method = gpukit::QuantileMethod::hazen})
//
// Result dtypes are NumPy's: the input's for floating point; float64 for integers and bool, except
// for the methods that pick an element (inverted_cdf, closest_observation, lower, higher, nearest),
// which keep the input's dtype. A slice holding a nan gives nan (the nan forms skip nans; an all-nan
// slice gives nan). Results are computed in float64 and rounded once to the result dtype.
//
// Errors: AxisError, InvalidArgumentError for quantiles outside [0, 1] (percentiles outside
// [0, 100]), an unknown method, out= of another shape, and an empty slice for the methods that
// pick an element; DTypeError for complex input and an out= dtype the result cannot be cast to.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit {

enum class QuantileMethod : std::uint8_t {
    inverted_cdf,
    averaged_inverted_cdf,
    closest_observation,
    interpolated_inverted_cdf,
    hazen,
    weibull,
    linear,
    median_unbiased,
    normal_unbiased,
    lower,
    higher,
    nearest,
    midpoint,
};
// NumPy's method names; InvalidArgumentError for another.
QuantileMethod parse_quantile_method(std::string_view name);

struct QuantileOptions {
    std::optional<std::vector<std::int64_t>> axis;  // the axes reduced; none: all of them
    bool keepdims = false;
    std::optional<Array> out;
    QuantileMethod method = QuantileMethod::linear;
};

// The q-th quantiles (values in [0, 1], of shape q_shape: the result's leading axes).
Array quantile(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options = {});
Array nanquantile(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options = {});
// The same with q in percent ([0, 100]).
Array percentile(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options = {});
Array nanpercentile(const Array& a, std::span<const double> q, const Shape& q_shape,
                    const QuantileOptions& options = {});
// The middle value (the mean of the two middle ones for an even count).
Array median(const Array& a, const QuantileOptions& options = {});
Array nanmedian(const Array& a, const QuantileOptions& options = {});

}  // namespace gpukit
