// src/ops/random/generator.cpp: gpukit::random::Generator, NumPy's Generator methods over the
// kernels of kernels/gpukit_random.cuh (the distributions) and the array operations (shapes,
// broadcasting, sampling by sorting random keys).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "core/warnings.hpp"
#include "gpukit/advanced_indexing.hpp"
#include "gpukit/comparisons.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/random.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/sorting.hpp"
#include "ops/random/kernels.hpp"
#include "util/text.hpp"

namespace gpukit::random {
namespace {

std::string numpy_dtype(DType dtype) { return "dtype('" + std::string(to_string(dtype)) + "')"; }

// NumPy's TypeError for a dtype a method has no numbers of.
void require_float(DType dtype, std::string_view method) {
    if (dtype != DType::float32 && dtype != DType::float64)
        throw DTypeError("Unsupported dtype " + numpy_dtype(dtype) + " for " + std::string(method));
}

// NumPy's test of a scale: negative (-0.0 included) is refused, NaN is not.
void require_non_negative(double value, std::string_view name) {
    if (std::signbit(value) && !std::isnan(value)) throw InvalidArgumentError(std::string(name) + " < 0");
}
void require_non_negative(const Array& values, std::string_view name) {
    if (values.size() == 0) return;
    if (count_nonzero(logical_and(signbit(values), logical_not(isnan(values)))) > 0)
        throw InvalidArgumentError(std::string(name) + " < 0");
}

void require_contiguous_out(const Array& out) {
    if (!out.is_c_contiguous())
        throw InvalidArgumentError(
            "Supplied output array must be contiguous, writable, aligned, and in machine byte-order.");
}

std::uint64_t blocks_of(std::int64_t size, std::int64_t per_block) {
    return static_cast<std::uint64_t>((size + per_block - 1) / per_block);
}

// NumPy's broadcast of shapes; InvalidArgumentError where they do not broadcast.
Shape broadcast_shape(const Shape& a, const Shape& b) {
    Shape result(std::max(a.size(), b.size()), 1);
    for (std::size_t k = 0; k < result.size(); ++k) {
        const std::int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1, y = k < b.size() ? b[b.size() - 1 - k] : 1;
        if (x != y && x != 1 && y != 1)
            throw InvalidArgumentError("shape mismatch: objects cannot be broadcast to a single shape");
        result[result.size() - 1 - k] = x == 1 ? y : x;
    }
    return result;
}

// The shape of a draw with array parameters: `size`, which the parameters must broadcast to, or
// their broadcast shape.
Shape draw_shape(const std::optional<Shape>& size, const Shape& parameters) {
    if (!size) return parameters;
    if (broadcast_shape(*size, parameters) != *size)
        throw InvalidArgumentError("shape mismatch: objects cannot be broadcast to a single shape");
    return *size;
}

}  // namespace

Generator::Generator(std::uint64_t seed)
    : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)} {}

Generator::Generator(std::array<std::uint32_t, 2> key, Counter offset) : key_(key), offset_(offset) {}

void Generator::advance(std::uint64_t blocks) noexcept {
    const std::uint64_t low = offset_.low + blocks;
    offset_.high += low < blocks ? 1 : 0;
    offset_.low = low;
}

Counter Generator::claim(std::uint64_t blocks) noexcept {
    const Counter at = offset_;
    advance(blocks);
    return at;
}

namespace {

// The parameters every kernel takes: the output, the key and the call's offset.
detail::RandomParams params_for(const Array& out, const std::array<std::uint32_t, 2>& key, const Counter& at) {
    detail::RandomParams params;
    params.out = detail::launch_address(out, current_stream(out.device()));
    params.size = out.size();
    params.itemsize = static_cast<std::int32_t>(out.itemsize());
    params.offset_low = at.low;
    params.offset_high = at.high;
    params.key0 = key[0];
    params.key1 = key[1];
    return params;
}

}  // namespace

Array philox_blocks(std::array<std::uint32_t, 2> key, Counter offset, std::int64_t blocks) {
    if (blocks < 0) throw InvalidArgumentError("negative dimensions are not allowed");
    Array out = Array::empty({4 * blocks}, DType::uint32);
    detail::launch_random("gk_random_bits", out.device(), blocks, params_for(out, key, offset));
    return out;
}

// ---- floating distributions

void Generator::draw_floats(const Array& out, std::string_view distribution, double a, double b, bool affine) {
    const std::int64_t per_block = out.dtype() == DType::float32 ? 4 : 2;
    const std::uint64_t blocks = blocks_of(out.size(), per_block);
    detail::RandomParams params = params_for(out, key_, claim(blocks));
    params.a = a;
    params.b = b;
    params.affine = affine ? 1 : 0;
    const std::string kernel = detail::concat("gk_random_", distribution, per_block == 4 ? "32" : "64");
    detail::launch_random(kernel, out.device(), static_cast<std::int64_t>(blocks), params);
}

void Generator::random(const Array& out) {
    require_float(out.dtype(), "random");
    require_contiguous_out(out);
    draw_floats(out, "uniform");
}

Array Generator::random(const Shape& size, DType dtype) {
    require_float(dtype, "random");
    Array out = Array::empty(size, dtype);
    random(out);
    return out;
}

void Generator::standard_normal(const Array& out) {
    require_float(out.dtype(), "standard_normal");
    require_contiguous_out(out);
    draw_floats(out, "normal");
}

Array Generator::standard_normal(const Shape& size, DType dtype) {
    require_float(dtype, "standard_normal");
    Array out = Array::empty(size, dtype);
    standard_normal(out);
    return out;
}

Array Generator::normal(double loc, double scale, const Shape& size, DType dtype) {
    require_float(dtype, "normal");
    require_non_negative(scale, "scale");
    Array out = Array::empty(size, dtype);
    draw_floats(out, "normal", loc, scale, true);
    return out;
}

Array Generator::normal(const Array& loc, const Array& scale, const std::optional<Shape>& size, DType dtype) {
    require_float(dtype, "normal");
    require_non_negative(scale, "scale");
    Array out = standard_normal(draw_shape(size, broadcast_shape(loc.shape(), scale.shape())), dtype);
    multiply(scale.astype(dtype), out, out);
    add(loc.astype(dtype), out, out);
    return out;
}

Array Generator::uniform(double low, double high, const Shape& size, DType dtype) {
    require_float(dtype, "uniform");
    const double range = high - low;
    if (!std::isfinite(range)) throw ScalarOverflowError("high - low range exceeds valid bounds");
    Array out = Array::empty(size, dtype);
    draw_floats(out, "uniform", low, range, true);
    return out;
}

Array Generator::uniform(const Array& low, const Array& high, const std::optional<Shape>& size, DType dtype) {
    require_float(dtype, "uniform");
    const Array low_of = low.astype(dtype);
    const Array range = subtract(high.astype(dtype), low_of);
    Array out = random(draw_shape(size, range.shape()), dtype);
    multiply(range, out, out);
    add(low_of, out, out);
    return out;
}

Array Generator::exponential(double scale, const Shape& size, DType dtype) {
    require_float(dtype, "exponential");
    require_non_negative(scale, "scale");
    Array out = Array::empty(size, dtype);
    draw_floats(out, "exponential", scale);
    return out;
}

Array Generator::exponential(const Array& scale, const std::optional<Shape>& size, DType dtype) {
    require_non_negative(scale, "scale");
    Array out = exponential(1.0, draw_shape(size, scale.shape()), dtype);
    multiply(scale.astype(dtype), out, out);
    return out;
}

Array Generator::poisson(double lam, const Shape& size) {
    // NumPy's bound: the largest lam whose counts stay far from int64's end.
    constexpr double max_lam = 9.223372006484771e18;
    if (!(lam >= 0)) throw InvalidArgumentError("lam < 0 or lam is NaN");
    if (lam > max_lam) throw InvalidArgumentError("lam value too large");
    Array out = Array::empty(size, DType::int64);
    detail::RandomParams params = params_for(out, key_, claim(static_cast<std::uint64_t>(out.size())));
    params.a = lam;
    detail::launch_random("gk_random_poisson", out.device(), out.size(), params);
    return out;
}

namespace {

Array scalar_of(double value, const Device& device) {
    return full({}, Scalar(value), DType::float64, Order::C, device);
}

// Whether some element of the bool `condition` holds (one wait; false for an empty one).
bool any_element(const Array& condition) { return condition.size() > 0 && count_nonzero(condition) > 0; }

// Whether each element of x lies in [low, high], each end open where asked; NaN lies nowhere.
Array within(const Array& x, double low, bool low_open, double high, bool high_open) {
    const Array above =
        low_open ? greater(x, scalar_of(low, x.device())) : greater_equal(x, scalar_of(low, x.device()));
    const Array below = high_open ? less(x, scalar_of(high, x.device())) : less_equal(x, scalar_of(high, x.device()));
    return logical_and(above, below);
}

// A distribution's parameter as float64 (TypeError for complex ones, as NumPy's).
Array real_parameter(const Array& values, std::string_view name) {
    if (dtype_info(values.dtype()).kind == DTypeKind::complex) throw DTypeError(std::string(name) + " must be real");
    return values.astype(DType::float64);
}

// A count (binomial's n, hypergeometric's, multinomial's) as NumPy takes it, int64, held in float64
// for the kernels.
Array count_parameter(const Array& values, std::string_view name) {
    if (dtype_info(values.dtype()).kind == DTypeKind::complex) throw DTypeError(std::string(name) + " must be real");
    return values.astype(DType::int64).astype(DType::float64);
}

// NumPy's test of a parameter that must be positive: <= 0 is refused, NaN is not.
void require_positive(const Array& values, std::string_view name) {
    if (any_element(less_equal(values, scalar_of(0.0, values.device()))))
        throw InvalidArgumentError(std::string(name) + " <= 0");
}

Shape draw_shape(const std::optional<Shape>& size, const Array& a, const Array& b) {
    return draw_shape(size, broadcast_shape(a.shape(), b.shape()));
}

// Fills `out` with a kernel whose elements each read their own parameters (at most three, float64)
// at values_a, values_b and values_c: one value read by every element (step 0, no copy), or one per
// element, broadcast to out's shape in C order.
void launch_per_element(std::string_view kernel, const Array& out, std::initializer_list<Array> parameters,
                        const std::array<std::uint32_t, 2>& key, const Counter& at) {
    const StreamRef stream = current_stream(out.device());
    detail::RandomParams params = params_for(out, key, at);
    const std::array<std::uint64_t*, 3> slots{&params.values_a, &params.values_b, &params.values_c};
    const std::array<std::int64_t*, 3> steps{&params.step_a, &params.step_b, &params.step_c};
    std::vector<Array> each;  // kept until the launch is queued
    for (const Array& parameter : parameters) {
        const std::size_t k = each.size();
        if (k == slots.size()) break;
        const bool one_value = parameter.size() == 1;
        each.push_back(one_value ? parameter.reshape({1}) : ascontiguousarray(broadcast_to(parameter, out.shape())));
        *slots[k] = detail::launch_address(each[k], stream);
        *steps[k] = one_value ? 0 : 1;
    }
    detail::launch_random(kernel, out.device(), out.size(), params);
}

}  // namespace

Array Generator::poisson(const Array& lam, const std::optional<Shape>& size) {
    if (dtype_info(lam.dtype()).kind == DTypeKind::complex) throw DTypeError("lam must be real");
    const Array values = lam.astype(DType::float64);
    if (any_element(logical_not(greater_equal(values, scalar_of(0.0, values.device())))))
        throw InvalidArgumentError("lam < 0 or lam contains NaNs");
    if (values.size() > 0 && max(values).to_vector<double>()[0] > 9.223372006484771e18)
        throw InvalidArgumentError("lam value too large");
    Array out = Array::empty(draw_shape(size, lam.shape()), DType::int64);
    if (out.size() == 0) return out;
    launch_per_element("gk_random_poisson", out, {values}, key_, claim(static_cast<std::uint64_t>(out.size())));
    return out;
}

// ---- the standard gamma and the distributions NumPy builds from it, the normal and the uniform

Array Generator::standard_gamma(const Array& shape, const std::optional<Shape>& size, DType dtype) {
    require_float(dtype, "standard_gamma");
    const Array values = real_parameter(shape, "shape");
    require_non_negative(values, "shape");
    const Shape drawn = draw_shape(size, values.shape());
    Array out = Array::empty(drawn, dtype, values.device());
    if (out.size() == 0) return out;
    launch_per_element("gk_random_standard_gamma", out, {values}, key_, claim(static_cast<std::uint64_t>(out.size())));
    return out;
}

Array Generator::gamma(const Array& shape, const Array& scale, const std::optional<Shape>& size, DType dtype) {
    const Array scales = real_parameter(scale, "scale");
    require_non_negative(scales, "scale");
    const Array values = real_parameter(shape, "shape");
    require_non_negative(values, "shape");
    const Array drawn = standard_gamma(values, draw_shape(size, values, scales));
    return multiply(drawn, scales).astype(dtype);
}

Array Generator::beta(const Array& a, const Array& b, const std::optional<Shape>& size) {
    const Array alpha = real_parameter(a, "a"), beta_ = real_parameter(b, "b");
    require_positive(alpha, "a");
    require_positive(beta_, "b");
    const Shape drawn = draw_shape(size, alpha, beta_);
    const Array x = standard_gamma(alpha, drawn), y = standard_gamma(beta_, drawn);
    const Array total = add(x, y);
    // Shapes so small that both gammas underflow to 0: the limit, 1 with probability a / (a + b).
    const Array limit = less(random(drawn), true_divide(alpha, add(alpha, beta_))).astype(DType::float64);
    return where(equal(total, scalar_of(0.0, total.device())), limit, true_divide(x, total));
}

Array Generator::chisquare(const Array& df, const std::optional<Shape>& size) {
    const Array degrees = real_parameter(df, "df");
    require_positive(degrees, "df");
    return multiply(
        standard_gamma(multiply(degrees, scalar_of(0.5, degrees.device())), draw_shape(size, degrees.shape())),
        scalar_of(2.0, degrees.device()));
}

Array Generator::f(const Array& dfnum, const Array& dfden, const std::optional<Shape>& size) {
    const Array numerator = real_parameter(dfnum, "dfnum"), denominator = real_parameter(dfden, "dfden");
    require_positive(numerator, "dfnum");
    require_positive(denominator, "dfden");
    const Shape drawn = draw_shape(size, numerator, denominator);
    return true_divide(true_divide(chisquare(numerator, drawn), numerator),
                       true_divide(chisquare(denominator, drawn), denominator));
}

Array Generator::standard_t(const Array& df, const std::optional<Shape>& size) {
    const Array degrees = real_parameter(df, "df");
    require_positive(degrees, "df");
    const Shape drawn = draw_shape(size, degrees.shape());
    const Array z = standard_normal(drawn);
    return true_divide(z, sqrt(true_divide(chisquare(degrees, drawn), degrees)));
}

Array Generator::lognormal(const Array& mean, const Array& sigma, const std::optional<Shape>& size) {
    const Array sigmas = real_parameter(sigma, "sigma");
    require_non_negative(sigmas, "sigma");
    return exp(normal(real_parameter(mean, "mean"), sigmas, size));
}

Array Generator::laplace(const Array& loc, const Array& scale, const std::optional<Shape>& size) {
    const Array scales = real_parameter(scale, "scale");
    require_non_negative(scales, "scale");
    const Array locs = real_parameter(loc, "loc");
    const Shape drawn = draw_shape(size, locs, scales);
    // A unit exponential (finite: -log of a (0, 1] uniform) with a fair sign.
    const Array magnitude = exponential(1.0, drawn);
    const Array negative = less(random(drawn), scalar_of(0.5, locs.device()));
    return add(locs, multiply(scales, where(negative, gpukit::negative(magnitude), magnitude)));
}

Array Generator::logistic(const Array& loc, const Array& scale, const std::optional<Shape>& size) {
    const Array scales = real_parameter(scale, "scale");
    require_non_negative(scales, "scale");
    const Array locs = real_parameter(loc, "loc");
    // log(u / (1 - u)) = log(e1 / e2) for e1, e2 unit exponentials (u = e1 / (e1 + e2) is uniform).
    const Shape drawn = draw_shape(size, locs, scales);
    const Array ratio = log(true_divide(exponential(1.0, drawn), exponential(1.0, drawn)));
    return add(locs, multiply(scales, ratio));
}

Array Generator::gumbel(const Array& loc, const Array& scale, const std::optional<Shape>& size) {
    const Array scales = real_parameter(scale, "scale");
    require_non_negative(scales, "scale");
    const Array locs = real_parameter(loc, "loc");
    // loc - scale log(e), e a unit exponential.
    return subtract(locs, multiply(scales, log(exponential(1.0, draw_shape(size, locs, scales)))));
}

Array Generator::weibull(const Array& a, const std::optional<Shape>& size) {
    const Array shapes = real_parameter(a, "a");
    require_non_negative(shapes, "a");
    // e^(1/a), e a unit exponential; a = 0 gives 0, as NumPy's.
    const Array drawn = gpukit::power(exponential(1.0, draw_shape(size, shapes.shape())),
                                      true_divide(scalar_of(1.0, shapes.device()), shapes));
    return where(equal(shapes, scalar_of(0.0, shapes.device())), scalar_of(0.0, shapes.device()), drawn);
}

Array Generator::pareto(const Array& a, const std::optional<Shape>& size) {
    const Array shapes = real_parameter(a, "a");
    require_positive(shapes, "a");
    // exp(e / a) - 1, e a unit exponential (Pareto II, NumPy's).
    return expm1(true_divide(exponential(1.0, draw_shape(size, shapes.shape())), shapes));
}

Array Generator::power(const Array& a, const std::optional<Shape>& size) {
    const Array shapes = real_parameter(a, "a");
    require_positive(shapes, "a");
    // (1 - exp(-e))^(1/a): a uniform's 1/a-th power, e a unit exponential.
    const Array uniform_ =
        gpukit::negative(expm1(gpukit::negative(exponential(1.0, draw_shape(size, shapes.shape())))));
    return gpukit::power(uniform_, true_divide(scalar_of(1.0, shapes.device()), shapes));
}

Array Generator::rayleigh(const Array& scale, const std::optional<Shape>& size) {
    const Array scales = real_parameter(scale, "scale");
    require_non_negative(scales, "scale");
    // scale sqrt(2 e), e a unit exponential.
    const Array e = exponential(1.0, draw_shape(size, scales.shape()));
    return multiply(scales, sqrt(multiply(e, scalar_of(2.0, scales.device()))));
}

Array Generator::standard_cauchy(const Shape& size) {
    return true_divide(standard_normal(size), standard_normal(size));
}

Array Generator::geometric(const Array& p, const std::optional<Shape>& size) {
    const Array chance = real_parameter(p, "p");
    require_positive(chance, "p");
    if (any_element(greater(chance, scalar_of(1.0, chance.device())))) throw InvalidArgumentError("p > 1");
    // The trials to the first success: ceil(e / -log(1 - p)), e a unit exponential, at least 1.
    const Array e = exponential(1.0, draw_shape(size, chance.shape()));
    const Array trials = ceil(true_divide(e, gpukit::negative(log1p(gpukit::negative(chance)))));
    return maximum(trials, scalar_of(1.0, chance.device())).astype(DType::int64);
}

Array Generator::negative_binomial(const Array& n, const Array& p, const std::optional<Shape>& size) {
    const Array successes = real_parameter(n, "n"), chance = real_parameter(p, "p");
    require_positive(successes, "n");
    if (any_element(logical_not(within(chance, 0.0, true, 1.0, false))))
        throw InvalidArgumentError("p < 0, p > 1 or p is NaN");
    // A Poisson count whose mean is gamma(n, (1 - p) / p): NumPy's mixture.
    const Shape drawn = draw_shape(size, successes, chance);
    const Array odds = true_divide(subtract(scalar_of(1.0, chance.device()), chance), chance);
    return poisson(gamma(successes, odds, drawn), std::nullopt);
}

Array Generator::binomial(const Array& n, const Array& p, const std::optional<Shape>& size) {
    const Array trials = count_parameter(n, "n"), chance = real_parameter(p, "p");
    if (any_element(less(trials, scalar_of(0.0, trials.device())))) throw InvalidArgumentError("n < 0");
    if (any_element(logical_not(within(chance, 0.0, false, 1.0, false))))
        throw InvalidArgumentError("p < 0, p > 1 or p is NaN");
    Array out = Array::empty(draw_shape(size, trials, chance), DType::int64, chance.device());
    if (out.size() == 0) return out;
    launch_per_element("gk_random_binomial", out, {trials, chance}, key_,
                       claim(static_cast<std::uint64_t>(out.size())));
    return out;
}

Array Generator::logseries(const Array& p, const std::optional<Shape>& size) {
    const Array chance = real_parameter(p, "p");
    if (any_element(logical_not(within(chance, 0.0, false, 1.0, true))))
        throw InvalidArgumentError("p < 0, p >= 1 or p is NaN");
    Array out = Array::empty(draw_shape(size, chance.shape()), DType::int64, chance.device());
    if (out.size() == 0) return out;
    launch_per_element("gk_random_logseries", out, {chance}, key_, claim(static_cast<std::uint64_t>(out.size())));
    return out;
}

Array Generator::zipf(const Array& a, const std::optional<Shape>& size) {
    const Array exponent = real_parameter(a, "a");
    if (any_element(logical_not(greater(exponent, scalar_of(1.0, exponent.device())))))
        throw InvalidArgumentError("a <= 1 or a is NaN");
    Array out = Array::empty(draw_shape(size, exponent.shape()), DType::int64, exponent.device());
    if (out.size() == 0) return out;
    launch_per_element("gk_random_zipf", out, {exponent}, key_, claim(static_cast<std::uint64_t>(out.size())));
    return out;
}

Array Generator::hypergeometric(const Array& ngood, const Array& nbad, const Array& nsample,
                                const std::optional<Shape>& size) {
    const Array good = count_parameter(ngood, "ngood"), bad = count_parameter(nbad, "nbad");
    const Array sample = count_parameter(nsample, "nsample");
    const Device& device = good.device();
    const Array zero = scalar_of(0.0, device), limit = scalar_of(1e9, device);
    if (any_element(less(good, zero))) throw InvalidArgumentError("ngood < 0");
    if (any_element(less(bad, zero))) throw InvalidArgumentError("nbad < 0");
    if (any_element(less(sample, zero))) throw InvalidArgumentError("nsample < 0");
    if (any_element(less(add(good, bad), sample))) throw InvalidArgumentError("ngood + nbad < nsample");
    if (any_element(logical_or(greater_equal(good, limit), greater_equal(bad, limit))))
        throw InvalidArgumentError("both ngood and nbad must be less than 1000000000");
    const Shape drawn = draw_shape(size, broadcast_shape(broadcast_shape(good.shape(), bad.shape()), sample.shape()));
    Array out = Array::empty(drawn, DType::int64, device);
    if (out.size() == 0) return out;
    launch_per_element("gk_random_hypergeometric", out, {good, bad, sample}, key_,
                       claim(static_cast<std::uint64_t>(out.size())));
    return out;
}

Array Generator::vonmises(const Array& mu, const Array& kappa, const std::optional<Shape>& size) {
    const Array mode = real_parameter(mu, "mu"), concentration = real_parameter(kappa, "kappa");
    require_non_negative(concentration, "kappa");
    Array out = Array::empty(draw_shape(size, mode, concentration), DType::float64, mode.device());
    if (out.size() == 0) return out;
    launch_per_element("gk_random_vonmises", out, {mode, concentration}, key_,
                       claim(static_cast<std::uint64_t>(out.size())));
    return out;
}

Array Generator::wald(const Array& mean, const Array& scale, const std::optional<Shape>& size) {
    const Array mu = real_parameter(mean, "mean"), lambda = real_parameter(scale, "scale");
    require_positive(mu, "mean");
    require_positive(lambda, "scale");
    const Device& device = mu.device();
    const Shape drawn = draw_shape(size, mu, lambda);
    // y = mu z^2; x = mu + mu / (2 lambda) (y - sqrt(4 lambda y + y^2)), the smaller root, taken with
    // probability mu / (mu + x); else the larger, mu^2 / x.
    const Array z = standard_normal(drawn);
    const Array y = multiply(mu, multiply(z, z));
    const Array half_ratio = true_divide(mu, multiply(lambda, scalar_of(2.0, device)));
    const Array root = sqrt(add(multiply(multiply(lambda, scalar_of(4.0, device)), y), multiply(y, y)));
    const Array x = add(mu, multiply(half_ratio, subtract(y, root)));
    const Array u = random(drawn);
    return where(less_equal(u, true_divide(mu, add(mu, x))), x, true_divide(multiply(mu, mu), x));
}

Array Generator::triangular(const Array& left, const Array& mode, const Array& right,
                            const std::optional<Shape>& size) {
    const Array low = real_parameter(left, "left"), peak = real_parameter(mode, "mode");
    const Array high = real_parameter(right, "right");
    if (low.size() > 0 && peak.size() > 0 && high.size() > 0) {
        if (count_nonzero(greater(low, peak)) > 0) throw InvalidArgumentError("left > mode");
        if (count_nonzero(greater(peak, high)) > 0) throw InvalidArgumentError("mode > right");
        if (count_nonzero(equal(low, high)) > 0) throw InvalidArgumentError("left == right");
    }
    const Device& device = low.device();
    const Shape drawn = draw_shape(size, broadcast_shape(broadcast_shape(low.shape(), peak.shape()), high.shape()));
    // The inverse distribution function: left + sqrt(u (mode - left)(right - left)) below the mode's
    // share (mode - left) / (right - left), right - sqrt((1 - u)(right - mode)(right - left)) above.
    const Array base = subtract(high, low), rising = subtract(peak, low);
    const Array u = random(drawn);
    const Array below = add(low, sqrt(multiply(u, multiply(rising, base))));
    const Array above =
        subtract(high, sqrt(multiply(subtract(scalar_of(1.0, device), u), multiply(subtract(high, peak), base))));
    return where(less_equal(u, true_divide(rising, base)), below, above);
}

Array Generator::noncentral_chisquare(const Array& df, const Array& nonc, const std::optional<Shape>& size) {
    const Array degrees = real_parameter(df, "df"), shift = real_parameter(nonc, "nonc");
    require_positive(degrees, "df");
    require_non_negative(shift, "nonc");
    const Device& device = degrees.device();
    const Shape drawn = draw_shape(size, degrees, shift);
    const Array one = scalar_of(1.0, device);
    const Array wide = greater(degrees, one);
    // df > 1: chisquare(df - 1) + (z + sqrt(nonc))^2; else chisquare(df + 2 poisson(nonc / 2)). Both
    // are drawn where parameters are arrays; each element takes its own.
    const Array shifted = add(standard_normal(drawn), sqrt(shift));
    const Array from_normal =
        add(chisquare(where(wide, subtract(degrees, one), one), drawn), multiply(shifted, shifted));
    const Array counts = poisson(broadcast_to(multiply(shift, scalar_of(0.5, device)), drawn), std::nullopt);
    const Array from_poisson =
        chisquare(add(degrees, multiply(counts.astype(DType::float64), scalar_of(2.0, device))), drawn);
    return where(wide, from_normal, from_poisson);
}

Array Generator::noncentral_f(const Array& dfnum, const Array& dfden, const Array& nonc,
                              const std::optional<Shape>& size) {
    const Array numerator = real_parameter(dfnum, "dfnum"), denominator = real_parameter(dfden, "dfden");
    const Array shift = real_parameter(nonc, "nonc");
    require_positive(numerator, "dfnum");
    require_positive(denominator, "dfden");
    require_non_negative(shift, "nonc");
    const Shape drawn =
        draw_shape(size, broadcast_shape(broadcast_shape(numerator.shape(), denominator.shape()), shift.shape()));
    return true_divide(multiply(noncentral_chisquare(numerator, shift, drawn), denominator),
                       multiply(chisquare(denominator, drawn), numerator));
}

Array Generator::multinomial(const Array& n, const Array& pvals, const std::optional<Shape>& size) {
    const Array trials = count_parameter(n, "n"), chances = real_parameter(pvals, "pvals");
    if (chances.ndim() == 0) throw InvalidArgumentError("pvals must have at least 1 dimension");
    const Device& device = chances.device();
    const std::int64_t categories = chances.shape().back();
    if (any_element(less(trials, scalar_of(0.0, device)))) throw InvalidArgumentError("n < 0");
    if (chances.size() > 0) {
        if (any_element(logical_not(within(chances, 0.0, false, 1.0, false))))
            throw InvalidArgumentError("pvals < 0, pvals > 1 or pvals contains NaNs");
        ReduceOptions along_last;
        along_last.axis = std::vector<std::int64_t>{-1};
        const Array leading = chances.index({ellipsis, Slice{0, categories - 1}});
        if (count_nonzero(greater(sum(leading, along_last), scalar_of(1.0 + 1e-12, device))) > 0)
            throw InvalidArgumentError("sum(pvals[:-1]) > 1.0");
    }
    const Shape other(chances.shape().begin(), chances.shape().end() - 1);
    Shape drawn = draw_shape(size, broadcast_shape(trials.shape(), other));
    // Category by category: a binomial of what is left of n, with the category's share of what is
    // left of the probability; the last category takes the rest.
    Array left_over = broadcast_to(trials, drawn).copy(Order::C);
    Array left_chance = full(drawn, Scalar(1.0), DType::float64, Order::C, device);
    std::vector<Array> counts;
    for (std::int64_t c = 0; c + 1 < categories; ++c) {
        const Array p = broadcast_to(chances.index({ellipsis, c}), drawn);
        const Array share =
            where(greater(left_chance, scalar_of(0.0, device)),
                  minimum(maximum(true_divide(p, left_chance), scalar_of(0.0, device)), scalar_of(1.0, device)),
                  scalar_of(0.0, device));
        const Array drawn_here = binomial(left_over, share, drawn);
        left_over = subtract(left_over, drawn_here.astype(DType::float64));
        left_chance = subtract(left_chance, p);
        counts.push_back(drawn_here);
    }
    counts.push_back(left_over.astype(DType::int64));
    return stack(counts, -1);
}

Array Generator::multivariate_normal(const Array& mean, const Array& cov, const std::optional<Shape>& size,
                                     Factorization method, CovarianceCheck check_valid, double tol) {
    const Array mu = real_parameter(mean, "mean"), covariance = real_parameter(cov, "cov");
    if (mu.ndim() != 1) throw InvalidArgumentError("mean must be 1 dimensional");
    const std::int64_t k = mu.shape()[0];
    if (covariance.ndim() != 2 || covariance.shape()[0] != covariance.shape()[1])
        throw InvalidArgumentError("cov must be 2 dimensional and square");
    if (covariance.shape()[0] != k) throw InvalidArgumentError("mean and cov must have same length");
    const Device& device = mu.device();
    Array factor = covariance;
    if (method == Factorization::cholesky) {
        factor = linalg::cholesky(covariance);
    } else {
        bool semidefinite = true;
        if (method == Factorization::svd) {
            const linalg::SVDResult parts = linalg::svd(covariance);
            const Array rebuilt = matmul(multiply(parts.Vh.transpose(), parts.S), parts.Vh);
            CloseOptions close;
            close.rtol = close.atol = tol;
            semidefinite = count_nonzero(allclose(rebuilt, covariance, close)) > 0;
            factor = multiply(parts.U, sqrt(parts.S));
        } else {
            const linalg::EighResult parts = linalg::eigh(covariance);
            semidefinite = count_nonzero(less(parts.eigenvalues, scalar_of(-tol, device))) == 0;
            factor = multiply(parts.eigenvectors, sqrt(absolute(parts.eigenvalues)));
        }
        if (!semidefinite && check_valid == CovarianceCheck::raise)
            throw InvalidArgumentError("covariance is not symmetric positive-semidefinite.");
        if (!semidefinite && check_valid == CovarianceCheck::warn)
            detail::warn(WarningCategory::runtime, "covariance is not symmetric positive-semidefinite.");
    }
    Shape drawn = size.value_or(Shape{});
    drawn.push_back(k);
    return add(mu, matmul(standard_normal(drawn), factor.transpose()));
}

Array Generator::dirichlet(const Array& alpha, const std::optional<Shape>& size) {
    const Array weights = real_parameter(alpha, "alpha");
    if (weights.ndim() != 1) throw InvalidArgumentError("alpha must be a one-dimensional array");
    require_positive(weights, "alpha");
    Shape drawn = size.value_or(Shape{});
    drawn.push_back(weights.shape()[0]);
    const Array draws = standard_gamma(weights, drawn);
    ReduceOptions along_last;
    along_last.axis = std::vector<std::int64_t>{-1};
    along_last.keepdims = true;
    return true_divide(draws, sum(draws, along_last));
}

// ---- integers

namespace {

// The values integers() may draw in `dtype` (DTypeError for one it does not draw).
std::pair<IntegerBound, IntegerBound> integer_range(DType dtype) {
    const DTypeKind kind_of = kind(dtype);
    if (kind_of != DTypeKind::signed_integer && kind_of != DTypeKind::unsigned_integer && dtype != DType::bool_)
        throw DTypeError("Unsupported dtype " + numpy_dtype(dtype) + " for integers");
    const int bits = static_cast<int>(itemsize(dtype)) * 8;
    if (kind_of == DTypeKind::signed_integer)
        return {-(IntegerBound(1) << (bits - 1)), (IntegerBound(1) << (bits - 1)) - 1};
    if (kind_of == DTypeKind::unsigned_integer) return {0, (IntegerBound(1) << bits) - 1};
    return {0, 1};
}

}  // namespace

Array Generator::integers(IntegerBound low, IntegerBound high, const Shape& size, DType dtype, bool endpoint) {
    const auto [smallest, largest] = integer_range(dtype);
    const IntegerBound top = endpoint ? high : high - 1;
    const std::string name(to_string(dtype));
    if (low < smallest) throw InvalidArgumentError("low is out of bounds for " + name);
    if (top > largest) throw InvalidArgumentError("high is out of bounds for " + name);
    if (low > top) throw InvalidArgumentError(endpoint ? "low > high" : "low >= high");

    Array out = Array::empty(size, dtype);
    const auto span = static_cast<std::uint64_t>(top - low);
    const bool narrow = span <= 0xffffffffull;
    const std::uint64_t blocks = blocks_of(out.size(), narrow ? 4 : 2);
    detail::RandomParams params = params_for(out, key_, claim(blocks));
    params.low = static_cast<std::uint64_t>(low);
    params.span = span;
    params.itemsize = static_cast<std::int32_t>(itemsize(dtype));
    detail::launch_random(narrow ? "gk_random_integers32" : "gk_random_integers64", out.device(),
                          static_cast<std::int64_t>(blocks), params);
    return out;
}

namespace {

// The least or greatest value of `a` (an integer, bool or float array, not empty) as a bound.
IntegerBound extreme(const Array& a, bool greatest) {
    const Array value = greatest ? max(a) : min(a);
    switch (dtype_info(a.dtype()).kind) {
        case DTypeKind::unsigned_integer: return value.astype(DType::uint64).to_vector<std::uint64_t>()[0];
        case DTypeKind::floating: return static_cast<IntegerBound>(value.astype(DType::float64).to_vector<double>()[0]);
        default: return value.astype(DType::int64).to_vector<std::int64_t>()[0];
    }
}

}  // namespace

Array Generator::integers(const Array& low, const Array& high, const std::optional<Shape>& size, DType dtype,
                          bool endpoint) {
    const DTypeKind kind_of = kind(dtype);
    for (const Array* bound : {&low, &high})
        if (dtype_info(bound->dtype()).kind == DTypeKind::complex) throw DTypeError("integers' bounds must be real");
    const auto [smallest, largest] = integer_range(dtype);
    const Shape shape = draw_shape(size, broadcast_shape(low.shape(), high.shape()));
    const std::string name(to_string(dtype));
    if (low.size() > 0 && extreme(low, false) < smallest)
        throw InvalidArgumentError("low is out of bounds for " + name);
    if (high.size() > 0 && extreme(high, true) - (endpoint ? 0 : 1) > largest)
        throw InvalidArgumentError("high is out of bounds for " + name);
    // In 64 bits, two's complement: past the checks every bound fits uint64 (unsigned dtypes) or int64.
    const DType wide = kind_of == DTypeKind::unsigned_integer ? DType::uint64 : DType::int64;
    const Array from = low.astype(wide), to = high.astype(wide);
    if (low.size() > 0 && high.size() > 0) {
        const Array empty_range = endpoint ? greater(from, to) : greater_equal(from, to);
        if (any(empty_range).astype(DType::uint8).to_vector<std::uint8_t>()[0])
            throw InvalidArgumentError(endpoint ? "low > high" : "low >= high");
    }
    Array out = Array::empty(shape, dtype);
    if (out.size() == 0) return out;
    const Array lows = broadcast_to(from.astype(DType::uint64), shape).copy(Order::C);
    Array spans = subtract(to.astype(DType::uint64), from.astype(DType::uint64));  // wraps as uint64
    if (!endpoint) spans = subtract(spans, full({}, Scalar(std::int64_t{1}), DType::uint64));
    spans = broadcast_to(spans, shape).copy(Order::C);
    const std::uint64_t blocks = blocks_of(out.size(), 2);
    detail::RandomParams params = params_for(out, key_, claim(blocks));
    const StreamRef stream = current_stream(out.device());
    params.values_a = detail::launch_address(lows, stream);
    params.values_b = detail::launch_address(spans, stream);
    params.itemsize = static_cast<std::int32_t>(itemsize(dtype));
    detail::launch_random("gk_random_integers_each", out.device(), static_cast<std::int64_t>(blocks), params);
    return out;
}

// ---- sampling and permutations: sorts of random keys (stable, so ties keep a fixed order)

Array Generator::permutation(std::int64_t n) {
    if (n < 0) throw InvalidArgumentError("negative dimensions are not allowed");
    const Array keys = integers(0, IntegerBound(1) << 64, {n}, DType::uint64);
    return argsort(keys, 0);
}

Array Generator::permutation(const Array& x, std::int64_t axis) {
    const auto along = static_cast<std::int64_t>(normalize_axis(axis, x.ndim()));
    return gpukit::take(x, permutation(x.shape()[static_cast<std::size_t>(along)]), along);
}

void Generator::shuffle(const Array& x, std::int64_t axis) {
    if (x.ndim() == 0) throw DTypeError("len() of unsized object");
    copyto(x, permutation(x, axis));
}

Array Generator::choice(const Population& a, const Shape& size, bool replace, const std::optional<Array>& p,
                        std::int64_t axis, bool /*shuffle*/) {
    const std::int64_t samples = element_count(size);
    std::int64_t population = 0;
    const Array* items = std::get_if<Array>(&a);
    if (items && items->ndim() == 0) {
        population = items->astype(DType::int64).to_vector<std::int64_t>()[0];
        items = nullptr;
    } else if (items) {
        axis = static_cast<std::int64_t>(normalize_axis(axis, items->ndim()));
        population = items->shape()[static_cast<std::size_t>(axis)];
        if (population == 0 && samples > 0) throw InvalidArgumentError("a cannot be empty unless no samples are taken");
    } else {
        population = std::get<std::int64_t>(a);
    }
    if (!items && (population < 0 || (population == 0 && samples > 0)))
        throw InvalidArgumentError("a must be a positive integer unless no samples are taken");

    std::vector<double> probabilities;
    if (p) {
        if (p->ndim() != 1) throw InvalidArgumentError("p must be 1-dimensional");
        if (p->size() != population) throw InvalidArgumentError("a and p must have same size");
        probabilities = p->astype(DType::float64).to_vector<double>();  // checked on the host, as NumPy's
        double sum = 0;
        for (const double v : probabilities) sum += v;
        if (std::isnan(sum)) throw InvalidArgumentError("Probabilities contain NaN");
        if (std::any_of(probabilities.begin(), probabilities.end(), [](double v) { return v < 0; }))
            throw InvalidArgumentError("Probabilities are not non-negative");
        if (std::abs(sum - 1.0) > std::sqrt(std::numeric_limits<double>::epsilon()))
            throw InvalidArgumentError("Probabilities do not sum to 1");
    }
    if (!replace && samples > population)
        throw InvalidArgumentError("Cannot take a larger sample than population when replace is False");

    Array indices = [&] {
        if (replace && !p) return integers(0, population, size, DType::int64);
        if (replace) {
            // Inverse CDF: the first item whose cumulative probability exceeds u in [0, 1).
            std::vector<double> cdf(probabilities.size());
            std::partial_sum(probabilities.begin(), probabilities.end(), cdf.begin());
            for (double& v : cdf) v /= cdf.back();
            const Array cumulative = Array::from_host(std::span<const double>(cdf), {population});
            return searchsorted(cumulative, random(size, DType::float64), Side::right);
        }
        const Array order = [&] {
            if (!p) return permutation(population);
            // Efraimidis and Spirakis: the items of the smallest E / p_i (E exponential) are a
            // weighted sample without replacement, in order of selection.
            const auto nonzero =
                std::count_if(probabilities.begin(), probabilities.end(), [](double v) { return v > 0; });
            if (nonzero < samples) throw InvalidArgumentError("Fewer non-zero entries in p than size");
            const Array weights = Array::from_host(std::span<const double>(probabilities), {population});
            return argsort(true_divide(exponential(1.0, {population}), weights), 0);
        }();
        return order.index({Slice{0, samples, std::nullopt}}).reshape(std::span<const std::int64_t>(size));
    }();
    if (!items) return indices;
    return gpukit::take(*items, indices, axis);
}

}  // namespace gpukit::random
