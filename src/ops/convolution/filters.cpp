// src/ops/convolution/filters.cpp: scipy.ndimage's correlate, convolve, their 1-D forms and the
// uniform and Gaussian filters (gpukit/filters.hpp) as correlations. SciPy's decisions are made
// here the same way: the output's dtype, the weights' centre and origin, the Gaussian kernel, the
// order of the separable passes and the conversion after each.
#include "gpukit/filters.hpp"

#include <algorithm>
#include <cmath>

#include "gpukit/error.hpp"
#include "gpukit/promotion.hpp"
#include "ops/convolution/correlation.hpp"
#include "util/text.hpp"

namespace gpukit::ndimage {
namespace {

using detail::concat;
using detail::ConvolutionCompute;
using detail::Correlation;
using detail::Extension;

bool is_complex(DType dtype) { return kind(dtype) == DTypeKind::complex; }

Extension extension_of(BoundaryMode mode) {
    switch (mode) {
        case BoundaryMode::constant: return Extension::constant;
        case BoundaryMode::nearest: return Extension::nearest;
        case BoundaryMode::mirror: return Extension::mirror;
        case BoundaryMode::wrap: return Extension::wrap;
        default: return Extension::reflect;
    }
}

// One value per axis from one for all or one per axis (SciPy's _normalize_sequence).
template <class T>
std::vector<T> per_axis(const std::vector<T>& values, std::size_t axes, const T& otherwise, std::string_view what) {
    if (values.empty()) return std::vector<T>(axes, otherwise);
    if (values.size() == 1) return std::vector<T>(axes, values.front());
    if (values.size() != axes)
        throw InvalidArgumentError(concat("sequence argument must have length equal to input rank (", what, ")"));
    return values;
}

// The result's dtype: `output`, else the input's (its complex counterpart where the weights are
// complex); complex sums need a complex output (SciPy's _get_output).
DType output_dtype(const Array& input, bool complex_sums, const FilterOptions& options) {
    if (options.output) {
        if (complex_sums && !is_complex(*options.output)) throw InvalidArgumentError("output must have complex dtype");
        return *options.output;
    }
    return complex_sums ? promote_types(input.dtype(), DType::complex64) : input.dtype();
}

void check_cval(const Array& input, bool complex_sums, const FilterOptions& options) {
    if (!complex_sums && options.cval.imag() != 0)
        throw InvalidArgumentError("Cannot provide a complex-valued cval when the input is real.");
    (void)input;
}

// The correlation of `input` with `weights` (prepared: float64 or complex128, one dimension per
// input dimension) whose centre is weights.shape // 2 + origin, into a new array of `out`.
Array correlate_centred(const Array& input, const Array& weights, const std::vector<std::int64_t>& origin,
                        BoundaryMode mode, std::complex<double> cval, DType out, double divisor = 1) {
    Correlation c;
    c.out_shape = input.shape();
    for (std::size_t d = 0; d < input.ndim(); ++d) c.offset.push_back(-(weights.shape()[d] / 2) - origin[d]);
    c.mode = extension_of(mode);
    c.cval = cval;
    c.divisor = divisor;
    const ConvolutionCompute compute =
        weights.dtype() == DType::complex128 ? ConvolutionCompute::complex : ConvolutionCompute::real;
    return detail::correlate_into_new(input, weights, c, out, compute);
}

bool invalid_origin(std::int64_t origin, std::int64_t size) { return origin < -(size / 2) || origin > (size - 1) / 2; }

Array correlate_or_convolve(const Array& input, const Array& weights, const FilterOptions& options, bool convolution) {
    if (options.mode.size() != 1) throw InvalidArgumentError("A sequence of modes is not supported");
    if (weights.ndim() != input.ndim())
        throw InvalidArgumentError(
            concat("weights.ndim (", weights.ndim(), ") must match len(axes) (", input.ndim(), ")"));
    for (const std::int64_t extent : weights.shape())
        if (extent == 0) throw InvalidArgumentError("no filter weights given");
    const bool complex_sums = is_complex(input.dtype()) || is_complex(weights.dtype());
    check_cval(input, complex_sums, options);
    const DType out = output_dtype(input, complex_sums, options);
    std::vector<std::int64_t> origin = per_axis(options.origin, input.ndim(), std::int64_t{0}, "origin");
    if (convolution)  // the flipped weights' centre moves by one along even axes
        for (std::size_t d = 0; d < origin.size(); ++d) origin[d] = -origin[d] - (weights.shape()[d] % 2 == 0 ? 1 : 0);
    for (std::size_t d = 0; d < origin.size(); ++d)
        if (invalid_origin(origin[d], weights.shape()[d]))
            throw InvalidArgumentError(
                "Invalid origin; origin must satisfy -(weights.shape[k] // 2) <= origin[k] <= (weights.shape[k]-1) // "
                "2");
    const ConvolutionCompute compute = complex_sums ? ConvolutionCompute::complex : ConvolutionCompute::real;
    const Array w = detail::kernel_weights(weights, compute, convolution, !convolution);
    return correlate_centred(input, w, origin, options.mode.front(), options.cval, out);
}

std::int64_t normalized_axis(std::int64_t axis, std::size_t ndim) {
    const auto n = static_cast<std::int64_t>(ndim);
    if (axis < -n || axis >= n) throw AxisError(concat("axis ", axis, " is out of bounds for array of dimension ", n));
    return axis < 0 ? axis + n : axis;
}

// `weights` (1-D) as weights of the input's dimensions: their length along `axis`, 1 elsewhere.
Array along_axis(const Array& weights, std::size_t ndim, std::int64_t axis) {
    std::vector<std::int64_t> shape(ndim, 1);
    shape[static_cast<std::size_t>(axis)] = weights.size();
    return weights.reshape(shape);
}

// One pass along `axis` with the prepared 1-D weights (correlate1d's origin rule).
Array pass_along(const Array& input, const Array& weights, std::int64_t axis, std::int64_t origin, BoundaryMode mode,
                 std::complex<double> cval, DType out, double divisor = 1) {
    if (invalid_origin(origin, weights.size()))
        throw InvalidArgumentError(
            "Invalid origin; origin must satisfy -(len(weights) // 2) <= origin <= (len(weights)-1) // 2");
    std::vector<std::int64_t> origins(input.ndim(), 0);
    origins[static_cast<std::size_t>(axis)] = origin;
    return correlate_centred(input, along_axis(weights, input.ndim(), axis), origins, mode, cval, out, divisor);
}

Array correlate_or_convolve1d(const Array& input, const Array& weights, std::int64_t axis_in,
                              const FilterOptions& options, bool convolution) {
    if (weights.ndim() != 1 || weights.size() < 1) throw InvalidArgumentError("no filter weights given");
    if (options.mode.size() != 1) throw InvalidArgumentError("A sequence of modes is not supported");
    const std::int64_t axis = normalized_axis(axis_in, input.ndim());
    const bool complex_sums = is_complex(input.dtype()) || is_complex(weights.dtype());
    check_cval(input, complex_sums, options);
    const DType out = output_dtype(input, complex_sums, options);
    std::int64_t origin = options.origin.empty() ? 0 : options.origin.front();
    if (options.origin.size() > 1) throw InvalidArgumentError("origin must be a single integer along one axis");
    if (convolution) origin = -origin - (weights.size() % 2 == 0 ? 1 : 0);
    const ConvolutionCompute compute = complex_sums ? ConvolutionCompute::complex : ConvolutionCompute::real;
    const Array w = detail::kernel_weights(weights, compute, convolution, !convolution);
    return pass_along(input, w, axis, origin, options.mode.front(), options.cval, out);
}

// SciPy's Gaussian kernel of `sigma` and derivative `order` over -radius..radius: exp(-x^2 / 2
// sigma^2) normalised to sum 1, times the polynomial q_order with q_0 = 1 and
// q_{n+1}(x) = q_n'(x) - x q_n(x) / sigma^2 (each derivative of q_n(x) phi(x) is q_{n+1}(x) phi(x)).
std::vector<double> gaussian_kernel(double sigma, std::int64_t order, std::int64_t radius) {
    const double sigma2 = sigma * sigma;
    const auto taps = static_cast<std::size_t>(2 * radius + 1);
    std::vector<double> phi(taps);
    double total = 0;
    for (std::size_t i = 0; i < taps; ++i) {
        const auto x = static_cast<double>(static_cast<std::int64_t>(i) - radius);
        phi[i] = std::exp(-0.5 / sigma2 * x * x);
        total += phi[i];
    }
    for (double& value : phi) value /= total;
    if (order == 0) return phi;
    std::vector<double> q(static_cast<std::size_t>(order) + 1, 0.0);  // coefficients of x^0, x^1, ...
    q[0] = 1;
    for (std::int64_t step = 0; step < order; ++step) {
        std::vector<double> next(q.size(), 0.0);
        for (std::size_t i = 0; i < q.size(); ++i) {
            if (i + 1 < q.size()) next[i] += static_cast<double>(i + 1) * q[i + 1];
            if (i > 0) next[i] += q[i - 1] / -sigma2;
        }
        q = std::move(next);
    }
    for (std::size_t i = 0; i < taps; ++i) {
        const auto x = static_cast<double>(static_cast<std::int64_t>(i) - radius);
        double polynomial = 0, power = 1;
        for (const double coefficient : q) {
            polynomial += coefficient * power;
            power *= x;
        }
        phi[i] *= polynomial;
    }
    return phi;
}

// The kernel's radius SciPy derives from truncate: int(truncate * sigma + 0.5), a truncation.
std::int64_t radius_for(double truncate, double sigma) {
    return static_cast<std::int64_t>(truncate * sigma + 0.5);  // NOLINT(bugprone-incorrect-roundings): SciPy's rule
}

// A separable filter: one pass per axis that has weights, each converting to the output's dtype
// as SciPy's passes write into the output; none: the input converted.
struct Pass {
    std::int64_t axis;
    std::vector<double> weights;  // already reversed for correlation
    std::int64_t origin;
    BoundaryMode mode;
    double divisor;
};

Array run_passes(const Array& input, const std::vector<Pass>& passes, const FilterOptions& options) {
    const bool complex_sums = is_complex(input.dtype());
    check_cval(input, complex_sums, options);
    const DType out = output_dtype(input, false, options);
    if (passes.empty()) return input.astype(out, Order::C);
    const ConvolutionCompute compute = complex_sums ? ConvolutionCompute::complex : ConvolutionCompute::real;
    Array current = input;
    for (const Pass& pass : passes) {
        const Array host_weights = Array::from_host(std::span<const double>(pass.weights),
                                                    {static_cast<std::int64_t>(pass.weights.size())}, input.device());
        const Array w = detail::kernel_weights(host_weights, compute, false, false);
        current = pass_along(current, w, pass.axis, pass.origin, pass.mode, options.cval, out, pass.divisor);
    }
    return current;
}

}  // namespace

BoundaryMode boundary_mode_from_name(std::string_view name) {
    if (name == "reflect" || name == "grid-mirror") return BoundaryMode::reflect;
    if (name == "constant" || name == "grid-constant") return BoundaryMode::constant;
    if (name == "nearest") return BoundaryMode::nearest;
    if (name == "mirror") return BoundaryMode::mirror;
    if (name == "wrap" || name == "grid-wrap") return BoundaryMode::wrap;
    throw InvalidArgumentError(concat("boundary mode not supported: '", name,
                                      "' (the modes are 'reflect', 'constant', 'nearest', 'mirror', 'wrap', "
                                      "'grid-mirror', 'grid-constant' and 'grid-wrap')"));
}

Array correlate(const Array& input, const Array& weights, const FilterOptions& options) {
    return correlate_or_convolve(input, weights, options, false);
}
Array convolve(const Array& input, const Array& weights, const FilterOptions& options) {
    return correlate_or_convolve(input, weights, options, true);
}
Array correlate1d(const Array& input, const Array& weights, std::int64_t axis, const FilterOptions& options) {
    return correlate_or_convolve1d(input, weights, axis, options, false);
}
Array convolve1d(const Array& input, const Array& weights, std::int64_t axis, const FilterOptions& options) {
    return correlate_or_convolve1d(input, weights, axis, options, true);
}

Array uniform_filter(const Array& input, const std::vector<std::int64_t>& size, const FilterOptions& options) {
    const std::size_t ndim = input.ndim();
    const std::vector<std::int64_t> sizes = per_axis(size, ndim, std::int64_t{3}, "size");
    const std::vector<std::int64_t> origins = per_axis(options.origin, ndim, std::int64_t{0}, "origin");
    const std::vector<BoundaryMode> modes = per_axis(options.mode, ndim, BoundaryMode::reflect, "mode");
    std::vector<Pass> passes;
    for (std::size_t d = 0; d < ndim; ++d)
        if (sizes[d] > 1)  // the sum of ones divided once: exact means of integers, as SciPy's
            passes.push_back({static_cast<std::int64_t>(d),
                              std::vector<double>(static_cast<std::size_t>(sizes[d]), 1.0), origins[d], modes[d],
                              static_cast<double>(sizes[d])});
    return run_passes(input, passes, options);
}

Array gaussian_filter(const Array& input, const std::vector<double>& sigma, const GaussianOptions& gaussian,
                      const FilterOptions& options) {
    const std::size_t ndim = input.ndim();
    const std::vector<double> sigmas = per_axis(sigma, ndim, 0.0, "sigma");
    const std::vector<std::int64_t> orders = per_axis(gaussian.order, ndim, std::int64_t{0}, "order");
    const std::vector<BoundaryMode> modes = per_axis(options.mode, ndim, BoundaryMode::reflect, "mode");
    const std::vector<std::optional<std::int64_t>> radii =
        per_axis(gaussian.radius, ndim, std::optional<std::int64_t>{}, "radius");
    std::vector<Pass> passes;
    for (std::size_t d = 0; d < ndim; ++d) {
        if (!(sigmas[d] > 1e-15)) continue;
        const std::int64_t radius = radii[d] ? *radii[d] : radius_for(gaussian.truncate, sigmas[d]);
        if (radius < 0) throw InvalidArgumentError("Radius must be a nonnegative integer.");
        if (orders[d] < 0) throw InvalidArgumentError("order must be non-negative");
        std::vector<double> kernel = gaussian_kernel(sigmas[d], orders[d], radius);
        std::reverse(kernel.begin(), kernel.end());  // a convolution, written as a correlation
        passes.push_back({static_cast<std::int64_t>(d), std::move(kernel), 0, modes[d], 1.0});
    }
    return run_passes(input, passes, options);
}

Array gaussian_filter1d(const Array& input, double sigma, std::int64_t axis, const GaussianOptions& gaussian,
                        const FilterOptions& options) {
    const std::int64_t a = normalized_axis(axis, input.ndim());
    const std::int64_t order = gaussian.order.empty() ? 0 : gaussian.order.front();
    const std::optional<std::int64_t> radius = gaussian.radius.empty() ? std::nullopt : gaussian.radius.front();
    const std::int64_t lw = radius ? *radius : radius_for(gaussian.truncate, sigma);
    if (lw < 0) throw InvalidArgumentError("Radius must be a nonnegative integer.");
    if (order < 0) throw InvalidArgumentError("order must be non-negative");
    std::vector<double> kernel = gaussian_kernel(sigma, order, lw);
    std::reverse(kernel.begin(), kernel.end());
    if (options.mode.size() != 1) throw InvalidArgumentError("A sequence of modes is not supported");
    return run_passes(input, {{a, std::move(kernel), 0, options.mode.front(), 1.0}}, options);
}

}  // namespace gpukit::ndimage
