// src/ops/reduction/quantile.cpp: quantiles (include/gpukit/quantiles.hpp). The reduced axes are
// moved last and sorted as one row per result (NaNs sort last); then one kernel computes each
// result from its sorted row: NumPy's virtual index for the method (numpy/lib/_function_base_impl.py,
// _QuantileMethods), its two neighbouring elements and their interpolation (NumPy's _lerp, exact at
// both ends). The nan forms count a row's elements before its first nan by binary search.
#include <cmath>

#include "array/device_copy.hpp"
#include "core/warnings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise_kernel.hpp"
#include "gpukit/error.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/quantiles.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/sorting.hpp"
#include "ops/reduction/plan.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

constexpr std::pair<std::string_view, QuantileMethod> method_names[] = {
    {"inverted_cdf", QuantileMethod::inverted_cdf},
    {"averaged_inverted_cdf", QuantileMethod::averaged_inverted_cdf},
    {"closest_observation", QuantileMethod::closest_observation},
    {"interpolated_inverted_cdf", QuantileMethod::interpolated_inverted_cdf},
    {"hazen", QuantileMethod::hazen},
    {"weibull", QuantileMethod::weibull},
    {"linear", QuantileMethod::linear},
    {"median_unbiased", QuantileMethod::median_unbiased},
    {"normal_unbiased", QuantileMethod::normal_unbiased},
    {"lower", QuantileMethod::lower},
    {"higher", QuantileMethod::higher},
    {"nearest", QuantileMethod::nearest},
    {"midpoint", QuantileMethod::midpoint},
};

// The methods that pick an element (the input's dtype) rather than interpolate.
bool picks_an_element(QuantileMethod method) {
    return method == QuantileMethod::inverted_cdf || method == QuantileMethod::closest_observation ||
           method == QuantileMethod::lower || method == QuantileMethod::higher || method == QuantileMethod::nearest;
}

// method: QuantileMethod's number, or 13 for the median (the mean of the two middle elements).
constexpr int median_method = 13;

// Result i is quantile k = i / rows of sorted row r = i % rows (m elements each).
constexpr const char* quantile_operation = R"(
const long long k = i / rows, r = i - k * rows;
const long long base = r * m;
long long n = m;
bool has_nan = false;
if (skip_nans) {  // the elements before the first nan
    long long low = 0, high = m;
    while (low < high) {
        const long long middle = (low + high) / 2;
        const S v = sorted[base + middle];
        if (v != v) high = middle; else low = middle + 1;
    }
    n = low;
} else if (m > 0) {
    const S last = sorted[base + m - 1];
    has_nan = last != last;
}
if (n == 0 || has_nan) {
    y = (R)quantile_nan();
} else {
    const double q = qs[k];
    const double nd = (double)n;
    long long pick = -1;         // an element's index, for the methods that pick one
    double v = 0, gamma = 0;     // else the virtual index and the weight of the next element
    bool fixed_gamma = false;
    switch (method) {
        case 0: {  // inverted_cdf
            const double index = mul(nd, q) - 1, previous = floor(index);
            pick = (long long)(index - previous == 0 ? previous : previous + 1);
            break;
        }
        case 1: {  // averaged_inverted_cdf
            v = mul(nd, q) - 1;
            gamma = v - floor(v) == 0 ? 0.5 : 1.0;
            fixed_gamma = true;
            break;
        }
        case 2: {  // closest_observation
            const double index = mul(nd, q) - 1 - 0.5, previous = floor(index);
            const bool odd = ((long long)previous & 1) != 0;  // -1 is odd, as Python's -1 % 2
            pick = (long long)(index - previous == 0 && odd ? previous : previous + 1);
            break;
        }
        // n q + (alpha + q (1 - alpha - beta)) - 1, in NumPy's order (_compute_virtual_index)
        case 3: v = mul(nd, q) + (0 + mul(q, 0.0)) - 1; break;                      // interpolated_inverted_cdf
        case 4: v = mul(nd, q) + (0.5 + mul(q, 0.0)) - 1; break;                    // hazen
        case 5: v = mul(nd, q) + (0 + mul(q, 1.0)) - 1; break;                      // weibull
        case 6: v = mul(nd - 1, q); break;                                          // linear
        case 7: v = mul(nd, q) + (1 / 3.0 + mul(q, 1 - 1 / 3.0 - 1 / 3.0)) - 1; break;  // median_unbiased
        case 8: v = mul(nd, q) + (3 / 8.0 + mul(q, 1 - 3 / 8.0 - 3 / 8.0)) - 1; break;  // normal_unbiased
        case 9: pick = (long long)floor(mul(nd - 1, q)); break;                     // lower
        case 10: pick = (long long)ceil(mul(nd - 1, q)); break;                     // higher
        case 11: pick = (long long)rint(mul(nd - 1, q)); break;                     // nearest (ties to even)
        case 12: {                                                                  // midpoint
            v = 0.5 * (floor(mul(nd - 1, q)) + ceil(mul(nd - 1, q)));
            gamma = v - floor(v) == 0 ? 0.0 : 0.5;
            fixed_gamma = true;
            break;
        }
        default: v = mul(nd - 1, 0.5); break;                                       // the median
    }
    if (pick >= 0 || method == 0 || method == 2 || (method >= 9 && method <= 11)) {
        if (pick < 0) pick = 0;
        if (pick > n - 1) pick = n - 1;
        y = (R)sorted[base + pick];
    } else {
        long long previous = (long long)floor(v), next = previous + 1;
        if (v >= nd - 1) previous = next = n - 1;
        if (v < 0) previous = next = 0;
        const double a = (double)sorted[base + previous], b = (double)sorted[base + next];
        if (method == 13) {
            y = (R)(v == floor(v) ? a : (a + b) / 2);
        } else {
            const double t = fixed_gamma ? gamma : v - floor(v);
            const double difference = b - a;
            y = (R)(t >= 0.5 ? b - mul(difference, 1 - t) : a + mul(difference, t));
        }
    }
}
)";

// mul: a product rounded before it is added to (a GPU would otherwise fuse n * q - 1 into one
// multiply-add, and 5 * 0.3 - 1.5 would come out below 0, picking another element than NumPy).
constexpr const char* quantile_preamble = R"(
__device__ inline double quantile_nan() { return __longlong_as_double(0x7ff8000000000000ll); }
__device__ inline double mul(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}
)";

const ElementwiseKernel& quantile_kernel() {
    static const ElementwiseKernel kernel = [] {
        ElementwiseKernelOptions options;  // (designated initialisers here make GCC warn of the others)
        options.preamble = quantile_preamble;
        return ElementwiseKernel("raw S sorted, raw float64 qs, int64 m, int64 rows, int32 method, int32 skip_nans",
                                 "R y", quantile_operation, "gpukit_quantile", options);
    }();
    return kernel;
}

Array quantiles_of(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options,
                   int method, bool skip_nans, std::string_view function) {
    using detail::concat;
    if (kind(a.dtype()) == DTypeKind::complex)
        throw DTypeError(concat(function, ": a must be an array of real numbers, not ", to_string(a.dtype())));
    if (static_cast<std::int64_t>(q.size()) != element_count(q_shape))
        throw InvalidArgumentError(
            concat(function, ": ", q.size(), " quantiles for the shape ", format_shape(q_shape)));
    for (const double value : q)
        if (!(value >= 0 && value <= 1)) throw InvalidArgumentError("Quantiles must be in the range [0, 1]");

    // The reduced axes moved last and merged: one sorted row per result.
    const std::vector<bool> reduced = options.axis
                                          ? detail::reduced_axes(std::span<const std::int64_t>(*options.axis), a.ndim())
                                          : detail::reduced_axes(std::nullopt, a.ndim());
    std::vector<std::int64_t> source, destination;
    Shape kept;
    std::int64_t m = 1;
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        if (reduced[d]) {
            source.push_back(static_cast<std::int64_t>(d));
            m *= a.shape()[d];
        } else {
            kept.push_back(a.shape()[d]);
        }
    }
    for (std::size_t k = 0; k < source.size(); ++k)
        destination.push_back(static_cast<std::int64_t>(a.ndim() - source.size() + k));
    const std::int64_t rows = element_count(kept);
    const bool picks = method != median_method && picks_an_element(static_cast<QuantileMethod>(method));
    if (m == 0 && picks && rows > 0)
        throw InvalidArgumentError(concat(function, ": cannot pick an element of an empty slice"));
    // NumPy's median and nanmedian of nothing come from a mean of nothing, and warn as it does.
    if (m == 0 && method == median_method) detail::warn(WarningCategory::runtime, "Mean of empty slice");

    // Interpolations promote the input with the quantiles' float64, unless q is one number (NumPy's
    // weak scalar): float32 stays float32 then.
    const bool floating = kind(a.dtype()) == DTypeKind::floating;
    const DType result_dtype = picks             ? a.dtype()
                               : !floating       ? DType::float64
                               : q_shape.empty() ? a.dtype()
                                                 : result_type({a.dtype(), DType::float64});
    Shape shape = q_shape;
    for (std::size_t d = 0; d < a.ndim(); ++d) {
        if (!reduced[d])
            shape.push_back(a.shape()[d]);
        else if (options.keepdims)
            shape.push_back(1);
    }
    if (options.out) {
        if (options.out->shape() != shape)
            throw InvalidArgumentError(concat(function, ": out= has shape ", format_shape(options.out->shape()),
                                              ", not the result's ", format_shape(shape)));
        if (!can_cast(result_dtype, options.out->dtype(), Casting::same_kind))
            throw DTypeError(concat("Cannot cast the result of ", function, " from dtype('", to_string(result_dtype),
                                    "') to dtype('", to_string(options.out->dtype()),
                                    "') with casting rule 'same_kind'"));
    }
    Array result = Array::empty(shape, result_dtype, a.device());
    if (result.size() > 0) {
        const Shape rows_shape{rows, m};
        const Array moved = moveaxis(a, source, destination).reshape(rows_shape);
        const Array sorted = m > 0 ? sort(moved, -1) : moved;
        const Array qs = Array::from_host(q, {static_cast<std::int64_t>(q.size())}, a.device());
        const Array flat = result.reshape({result.size()});
        quantile_kernel()({sorted, qs, ElementwiseArgument(std::int64_t{m}), ElementwiseArgument(std::int64_t{rows}),
                           ElementwiseArgument(std::int32_t{method}),
                           ElementwiseArgument(std::int32_t{skip_nans ? 1 : 0}), flat});
    }
    if (options.out) {
        detail::copy_elements(result, *options.out);
        return *options.out;
    }
    return result;
}

std::vector<double> fractions(std::span<const double> percents) {
    std::vector<double> q;
    for (const double p : percents) {
        if (!(p >= 0 && p <= 100)) throw InvalidArgumentError("Percentiles must be in the range [0, 100]");
        q.push_back(p / 100);
    }
    return q;
}

}  // namespace

QuantileMethod parse_quantile_method(std::string_view name) {
    for (const auto& [known, method] : method_names)
        if (known == name) return method;
    std::string names;
    for (const auto& [known, method] : method_names)
        names += detail::concat(names.empty() ? "" : ", ", "'", known, "'");
    throw InvalidArgumentError(detail::concat("'", name, "' is not a valid method. Use one of: ", names));
}

Array quantile(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options) {
    return quantiles_of(a, q, q_shape, options, static_cast<int>(options.method), false, "quantile");
}
Array nanquantile(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options) {
    return quantiles_of(a, q, q_shape, options, static_cast<int>(options.method), true, "nanquantile");
}
Array percentile(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options) {
    return quantiles_of(a, fractions(q), q_shape, options, static_cast<int>(options.method), false, "percentile");
}
Array nanpercentile(const Array& a, std::span<const double> q, const Shape& q_shape, const QuantileOptions& options) {
    return quantiles_of(a, fractions(q), q_shape, options, static_cast<int>(options.method), true, "nanpercentile");
}
Array median(const Array& a, const QuantileOptions& options) {
    const double half = 0.5;
    return quantiles_of(a, std::span(&half, 1), {}, options, median_method, false, "median");
}
Array nanmedian(const Array& a, const QuantileOptions& options) {
    const double half = 0.5;
    return quantiles_of(a, std::span(&half, 1), {}, options, median_method, true, "nanmedian");
}

}  // namespace gpukit
