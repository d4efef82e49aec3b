// src/ops/histogram/bin_width.cpp: NumPy's bin-width estimators, each a formula over statistics
// the array layer computes on the device (extent, standard deviation, skewness, quartiles), read
// back as numbers: the bin count decides the output's shape. Formulas as NumPy documents them
// (numpy.histogram_bin_edges).
#include "ops/histogram/bin_width.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numbers>

#include "core/warnings.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/quantiles.hpp"
#include "gpukit/reductions.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

double host_double(const Array& value) { return value.astype(DType::float64).to_vector<double>()[0]; }

// max - min, exact for integers (as NumPy's, which subtracts them unsigned).
double extent(const Array& x) {
    const Array low = gpukit::min(x), high = gpukit::max(x);
    if (x.dtype() == DType::uint64 || x.dtype() == DType::int64) {
        const auto top = high.astype(DType::uint64).to_vector<std::uint64_t>()[0];
        const auto bottom = low.astype(DType::uint64).to_vector<std::uint64_t>()[0];
        return static_cast<double>(top - bottom);
    }
    return host_double(high) - host_double(low);
}
double count_of(const Array& x) { return static_cast<double>(x.size()); }

double sqrt_width(const Array& x) { return extent(x) / std::sqrt(count_of(x)); }
double sturges_width(const Array& x) { return extent(x) / (std::log2(count_of(x)) + 1.0); }
double rice_width(const Array& x) { return extent(x) / (2.0 * std::cbrt(count_of(x))); }
double scott_width(const Array& x) {
    return std::cbrt(24.0 * std::sqrt(std::numbers::pi) / count_of(x)) * host_double(gpukit::std(x));
}

double doane_width(const Array& x) {
    const double n = count_of(x);
    if (n <= 2) return 0;
    const double sg1 = std::sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)));
    const Array as_double = x.astype(DType::float64);
    const double sigma = host_double(gpukit::std(as_double));
    if (!(sigma > 0)) return 0;
    const Array mean = gpukit::mean(as_double);
    const Array standardised = gpukit::true_divide(gpukit::subtract(as_double, mean), full({}, Scalar(sigma)));
    const double g1 = host_double(gpukit::mean(gpukit::power(standardised, full({}, Scalar(3.0)))));
    return extent(x) / (1.0 + std::log2(n) + std::log2(1.0 + std::abs(g1) / sg1));
}

double fd_width(const Array& x) {
    const std::array<double, 2> q{0.75, 0.25};
    const std::vector<double> quartiles = gpukit::quantile(x, q, {2}).astype(DType::float64).to_vector<double>();
    return 2.0 * (quartiles[0] - quartiles[1]) * std::pow(count_of(x), -1.0 / 3.0);
}

double auto_width(const Array& x) {
    const double fd = fd_width(x), sturges = sturges_width(x);
    return fd != 0 ? std::min(fd, sturges) : sturges;
}

// Stone's: the bin count from 1 to max(100, sqrt(n)) that minimises an estimate of the integrated
// squared error, each count's histogram over `range` counted on the device.
double stone_width(const Array& x, const BinRange& range) {
    const double n = count_of(x), spread = extent(x);
    if (n <= 1 || spread == 0) return 0;
    const auto upper = std::max<std::int64_t>(100, static_cast<std::int64_t>(std::sqrt(n)));
    std::int64_t best = 1;
    double best_risk = 0;
    for (std::int64_t bins = 1; bins <= upper; ++bins) {
        const Array counts =
            histogram(x, {.bins = bins, .range = range, .weights = std::nullopt, .density = false}).hist;
        double sum_of_squares = 0;
        for (const std::int64_t count : counts.to_vector<std::int64_t>()) {
            const double p = static_cast<double>(count) / n;
            sum_of_squares += p * p;
        }
        const double risk = (2 - (n + 1) * sum_of_squares) / (spread / static_cast<double>(bins));
        if (bins == 1 || risk < best_risk) {
            best = bins;
            best_risk = risk;
        }
    }
    if (best == upper) warn(WarningCategory::runtime, "The number of bins estimated may be suboptimal.");
    return spread / static_cast<double>(best);
}

struct Estimator {
    std::string_view name;
    std::function<double(const Array&, const BinRange&)> width;
};
const std::array<Estimator, 8>& estimators() {
    static const std::array<Estimator, 8> table{{
        {"stone", stone_width},
        {"auto", [](const Array& x, const BinRange&) { return auto_width(x); }},
        {"doane", [](const Array& x, const BinRange&) { return doane_width(x); }},
        {"fd", [](const Array& x, const BinRange&) { return fd_width(x); }},
        {"rice", [](const Array& x, const BinRange&) { return rice_width(x); }},
        {"scott", [](const Array& x, const BinRange&) { return scott_width(x); }},
        {"sqrt", [](const Array& x, const BinRange&) { return sqrt_width(x); }},
        {"sturges", [](const Array& x, const BinRange&) { return sturges_width(x); }},
    }};
    return table;
}

const Estimator& estimator(std::string_view name) {
    for (const Estimator& candidate : estimators())
        if (candidate.name == name) return candidate;
    throw InvalidArgumentError(concat("'", name, "' is not a valid estimator for `bins`"));
}

}  // namespace

void check_bin_width_estimator(std::string_view name) { (void)estimator(name); }

double bin_width(std::string_view name, const Array& x, const BinRange& range) {
    return estimator(name).width(x, range);
}

}  // namespace gpukit::detail
