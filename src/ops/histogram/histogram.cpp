// src/ops/histogram/histogram.cpp: bincount, histogram, histogramdd and digitize
// (gpukit/histograms.hpp) over the kernels of kernels/gpukit_histogram.cuh. What NumPy decides on
// the host (ranges, edges, bin counts, the checks of its arguments) is decided here the same way;
// the counting runs on the device.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include "array/convert.hpp"
#include "array/upload.hpp"
#include "gpukit/advanced_indexing.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/histograms.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/quantiles.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/scans.hpp"
#include "gpukit/sorting.hpp"
#include "ops/histogram/bin_width.hpp"
#include "ops/histogram/kernels.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

using detail::BinAccumulator;
using detail::BinCompare;
using detail::BinMode;
using detail::concat;
using detail::HistogramParams;
using detail::launch_address;

DTypeKind kind_of(DType dtype) { return dtype_info(dtype).kind; }
bool is_complex(DType dtype) { return kind_of(dtype) == DTypeKind::complex; }
bool is_floating(DType dtype) { return kind_of(dtype) == DTypeKind::floating; }
bool is_integral(DType dtype) { return !is_complex(dtype) && !is_floating(dtype); }  // bool and integers
std::string quoted(DType dtype) { return concat("dtype('", to_string(dtype), "')"); }

// A number as Python's repr writes a float ("0.0", "inf", "nan"), for messages in NumPy's words.
std::string python_float(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    std::string result(text, end);
    if (result.find_first_of(".en") == std::string::npos) result += ".0";
    return result;
}

// A 0-d array's value on the host: these wait for the device.
double host_double(const Array& value) { return value.astype(DType::float64).to_vector<double>()[0]; }
bool host_true(const Array& value) { return value.astype(DType::uint8).to_vector<std::uint8_t>()[0] != 0; }

// A 1-D array whose stride is a whole number of elements (a copy where it is not).
Array elements_of(const Array& a) {
    Array flat = a.ravel();
    if (flat.ndim() == 1 && flat.strides()[0] % flat.itemsize() != 0) flat = flat.copy();
    return flat;
}
std::int64_t element_stride(const Array& flat) { return flat.size() > 1 ? flat.strides()[0] / flat.itemsize() : 1; }

// What a bin accumulates for these weights: counts (int64) without them; sums in int64 of bool
// and integer weights (uint64 in uint64), in float64 of float ones, in complex128 of complex ones.
struct Accumulator {
    BinAccumulator kind;
    DType dtype;
};
Accumulator accumulator_for(const std::optional<Array>& weights) {
    if (!weights) return {BinAccumulator::count, DType::int64};
    const DType dtype = weights->dtype();
    if (is_complex(dtype)) return {BinAccumulator::sum_complex, DType::complex128};
    if (is_floating(dtype)) return {BinAccumulator::sum_float, DType::float64};
    return {BinAccumulator::sum_int, dtype == DType::uint64 ? DType::uint64 : DType::int64};
}

// The 1-D `values` counted (or their `weights`, flattened alike, summed) into `p.bins` bins found
// as `p` says; the accumulators, on the values' device. With `track`, two 8-byte slots follow the
// bins (zeroed with them: one fill) where the kernel leaves the largest value and whether any was
// negative (gk_histogram_params.extremes).
Array count_into_bins(const Array& values, const std::optional<Array>& weights, HistogramParams p, bool track = false) {
    const Device device = values.device();
    const StreamRef stream = current_stream(device);
    const Accumulator accumulator = accumulator_for(weights);
    const std::int64_t slots = track ? (16 + itemsize(accumulator.dtype) - 1) / itemsize(accumulator.dtype) : 0;
    Array out = zeros({p.bins + slots}, accumulator.dtype, Order::C, device);
    if (track) p.extremes = launch_address(out, stream) + static_cast<std::uint64_t>(p.bins) * out.itemsize();
    p.values = launch_address(values, stream);
    p.size = values.size();
    p.stride = element_stride(values);
    p.value_dtype = static_cast<std::int32_t>(values.dtype());
    p.accumulate = accumulator.kind;
    p.weight_dtype = static_cast<std::int32_t>(weights ? weights->dtype() : DType::bool_);
    if (weights) {
        p.weights = launch_address(*weights, stream);
        p.weight_stride = element_stride(*weights);
    }
    p.out = launch_address(out, stream);
    detail::launch_histogram(device, p);
    return out;
}

// ---- bins along one dimension
// `value` rounded to `dtype` as NumPy rounds an operation's exact result in it: float16 and
// bfloat16 compute in float32 and round again (exact operands and a double's exact sum, product
// or quotient round to float32 exactly as float32 arithmetic does).
double rounded(DType dtype, double value) {
    switch (dtype) {
        case DType::float32: return static_cast<float>(value);
        case DType::float16: return detail::float16_value(detail::float16_bits(static_cast<float>(value)));
        case DType::bfloat16: return detail::bfloat16_value(detail::bfloat16_bits(static_cast<float>(value)));
        default: return value;
    }
}

// numpy.histogram's outer edges and the dtype NumPy computes the edges in: the range given (checked;
// Python floats: float64), or the data's minimum and maximum (its float dtype, float64 for
// integers; 0 and 1 for no data), widened by a half on each side when they are equal.
struct OuterEdges {
    double first = 0, last = 1;
    DType compute = DType::float64;
};

// The dtype of equal-width edges for data of `dtype`: its own when it is a float, else float64.
DType bin_dtype_of(DType dtype) { return is_floating(dtype) ? dtype : DType::float64; }

OuterEdges outer_edges(const Array& x, const std::optional<BinRange>& range) {
    OuterEdges edges;
    if (range) {
        std::tie(edges.first, edges.last) = *range;
        if (edges.first > edges.last) throw InvalidArgumentError("max must be larger than min in range parameter.");
        if (!std::isfinite(edges.first) || !std::isfinite(edges.last))
            throw InvalidArgumentError(concat("supplied range of [", python_float(edges.first), ", ",
                                              python_float(edges.last), "] is not finite"));
    } else if (x.size() > 0) {
        edges.first = host_double(gpukit::min(x));
        edges.last = host_double(gpukit::max(x));
        edges.compute = bin_dtype_of(x.dtype());
        if (!std::isfinite(edges.first) || !std::isfinite(edges.last))
            throw InvalidArgumentError(concat("autodetected range of [", python_float(edges.first), ", ",
                                              python_float(edges.last), "] is not finite"));
    }
    if (edges.first == edges.last) {
        edges.first = rounded(edges.compute, edges.first - 0.5);
        edges.last = rounded(edges.compute, edges.last + 0.5);
    }
    return edges;
}

// Equal-width bins: their edges in `edge_dtype` (returned) and as doubles (what the kernel compares
// with), computed on the host as numpy.linspace computes them in `outer.compute` (first + i * step,
// each operation rounded; the last edge exactly `last`), then converted to `edge_dtype`.
struct EqualEdges {
    std::vector<std::byte> edges;  // in the edge dtype
    std::vector<double> edges_as_double;
    double first = 0, last = 0, scale = 0;
    // How far, in bins, an edge may lie from where the arithmetic puts it (see arithmetic_margin).
    double margin = 0;
    // Where every edge is a whole number, the edges a whole number `integer_width` apart (and small
    // enough that a double holds every value between them): integers then find their bin exactly by
    // integer arithmetic.
    std::optional<std::int64_t> integer_width;
};

// The kernel takes the arithmetic's bin without looking at the edges when (x - first) * scale is
// further than this from a whole number: further than any rounded edge lies from its place on the
// exact line through first and last, plus the rounding of the arithmetic itself (a few units in
// the last place of a position up to `bins`), with room to spare. Half a bin or more: always look.
double arithmetic_margin(const std::vector<double>& edges) {
    const auto bins = static_cast<long double>(edges.size() - 1);
    const long double first = edges.front(), width = (static_cast<long double>(edges.back()) - first) / bins;
    long double furthest = 0;
    for (std::size_t k = 0; k < edges.size(); ++k) {
        const long double exact = first + static_cast<long double>(k) * width;
        furthest = std::max(furthest, std::fabs(static_cast<long double>(edges[k]) - exact) / width);
    }
    const double margin = static_cast<double>(furthest + bins * 1e-15L + 1e-12L);
    return std::isfinite(margin) ? std::min(margin, 0.5) : 0.5;
}

std::optional<std::int64_t> integer_width_of(const std::vector<double>& edges) {
    constexpr double exact_limit = 9007199254740992.0;  // 2^53
    const double first = edges.front(), last = edges.back();
    if (!(std::fabs(first) < exact_limit && std::fabs(last) < exact_limit) || first != std::floor(first)) return {};
    const double width = (last - first) / static_cast<double>(edges.size() - 1);
    if (width < 1 || width != std::floor(width)) return {};
    for (std::size_t k = 0; k < edges.size(); ++k)
        if (edges[k] != first + static_cast<double>(k) * width) return {};
    return static_cast<std::int64_t>(width);
}

EqualEdges equal_edges(const OuterEdges& outer, std::int64_t count, DType edge_dtype, std::string_view bins_name) {
    const std::int64_t num = count + 1;
    const DType dtype = outer.compute;
    const double div = static_cast<double>(count);
    const double delta = rounded(dtype, outer.last - outer.first), step = rounded(dtype, delta / div);
    std::vector<double> values(static_cast<std::size_t>(num));
    for (std::int64_t i = 0; i < num; ++i) {
        const double index = rounded(dtype, static_cast<double>(i));
        const double scaled =
            step == 0 ? rounded(dtype, rounded(dtype, index / div) * delta) : rounded(dtype, index * step);
        values[static_cast<std::size_t>(i)] = rounded(dtype, scaled + outer.first);
    }
    values.back() = outer.last;
    std::vector<std::byte> typed(values.size() * itemsize(edge_dtype));
    detail::convert_elements(reinterpret_cast<const std::byte*>(values.data()), sizeof(double), DType::float64,
                             typed.data(), static_cast<std::int64_t>(itemsize(edge_dtype)), edge_dtype, num);
    detail::convert_elements(typed.data(), static_cast<std::int64_t>(itemsize(edge_dtype)), edge_dtype,
                             reinterpret_cast<std::byte*>(values.data()), sizeof(double), DType::float64, num);
    for (std::size_t k = 1; k < values.size(); ++k)
        if (!(values[k - 1] < values[k]))
            throw InvalidArgumentError(concat("Too many bins for data range. Cannot create ", count,
                                              " finite-sized bins", bins_name.empty() ? "" : " for ", bins_name, "."));
    const double first = values.front(), last = values.back();
    const double margin = arithmetic_margin(values);
    const std::optional<std::int64_t> integer_width = integer_width_of(values);
    return {.edges = std::move(typed),
            .edges_as_double = std::move(values),
            .first = first,
            .last = last,
            .scale = div / (last - first),
            .margin = margin,
            .integer_width = integer_width};
}

// Whether no element of the 1-D `a` is greater than the next (NaN compares false, as NumPy's check).
bool non_decreasing(const Array& a) {
    if (a.size() < 2) return true;
    const Array before = a.index({Slice{{}, -1, {}}}), after = a.index({Slice{1, {}, {}}});
    return !host_true(gpukit::any(gpukit::greater(before, after)));
}
bool non_increasing(const Array& a) {
    if (a.size() < 2) return true;
    const Array before = a.index({Slice{{}, -1, {}}}), after = a.index({Slice{1, {}, {}}});
    return !host_true(gpukit::any(gpukit::less(before, after)));
}

// How values of `value_dtype` meet explicit edges of `edge_dtype`: in NumPy's common type, which
// is a float (compared as double, exactly), uint64, or another integer (compared as int64).
BinCompare compare_for(DType value_dtype, DType edge_dtype) {
    const DType common = promote_types(value_dtype == DType::bool_ ? DType::uint8 : value_dtype, edge_dtype);
    if (is_floating(common)) return BinCompare::float64;
    return common == DType::uint64 ? BinCompare::uint64 : BinCompare::int64;
}
DType compare_dtype(BinCompare compare) {
    switch (compare) {
        case BinCompare::int64: return DType::int64;
        case BinCompare::uint64: return DType::uint64;
        default: return DType::float64;
    }
}

// One dimension's bins, ready for the kernel: the parameters that find a value's bin, the edges
// returned to the caller (equal-width ones still on the host: they go up after the counting is
// queued, which then starts sooner) and the arrays the parameters point to (kept until the launch).
struct DimensionBins {
    HistogramParams params;
    std::optional<Array> edges;
    std::vector<std::byte> host_edges;
    DType host_edge_dtype = DType::float64;
    std::vector<Array> keep;
    std::int64_t count = 0;
};

// The edges returned to the caller, on `device`.
Array edges_of(DimensionBins& bins, const Device& device) {
    // Queued, not waited for: a synchronous copy would wait for the device's earlier work first.
    if (!bins.edges)
        bins.edges = detail::upload(std::span<const std::byte>(bins.host_edges), bins.host_edge_dtype, device);
    return *bins.edges;
}

// Integers a double holds exactly, whose bins may then be found by integer arithmetic.
bool small_integers(DType dtype) {
    switch (dtype) {
        case DType::int8:
        case DType::int16:
        case DType::int32:
        case DType::uint8:
        case DType::uint16:
        case DType::uint32: return true;
        default: return false;
    }
}

DimensionBins equal_dimension(const OuterEdges& outer, std::int64_t count, DType edge_dtype, DType value_dtype,
                              const Device& device, std::string_view bins_name = {}) {
    EqualEdges equal = equal_edges(outer, count, edge_dtype, bins_name);
    HistogramParams params;
    params.mode = BinMode::equal;
    params.bins = count;
    params.first = equal.first;
    params.last = equal.last;
    params.scale = equal.scale;
    params.margin = equal.margin;
    // Float values against whole-number edges: floor(x)'s bin, in float32 arithmetic for the
    // narrow floats (exact where the outer edges are at most 2^24).
    constexpr double float_exact_limit = 16777216.0;
    const bool whole_number_floats = is_floating(value_dtype) && std::fabs(equal.first) <= float_exact_limit &&
                                     std::fabs(equal.last) <= float_exact_limit;
    if (equal.integer_width && (small_integers(value_dtype) || whole_number_floats)) {
        params.mode = BinMode::integer;
        params.low = static_cast<std::int64_t>(equal.first);
        params.width = *equal.integer_width;
        params.closed_last = 1;
    }
    DimensionBins bins{params, {}, std::move(equal.edges), edge_dtype, {}, count};
    if (params.mode == BinMode::equal) {
        // The kernel looks at the edges near them.
        Array edges_as_double = detail::upload(std::span<const double>(equal.edges_as_double), DType::float64, device);
        bins.params.edges = launch_address(edges_as_double, current_stream(device));
        if (edge_dtype == DType::float64) bins.edges = edges_as_double;
        bins.keep.push_back(std::move(edges_as_double));
    }
    return bins;
}

DimensionBins explicit_dimension(const Array& values, const Array& edges) {
    if (is_complex(edges.dtype())) throw DTypeError("histogram bins may not be complex");
    const BinCompare compare = compare_for(values.dtype(), edges.dtype());
    Array compared = edges.astype(compare_dtype(compare), Order::C);
    HistogramParams params;
    params.mode = BinMode::edges;
    params.compare = compare;
    params.bins = std::max<std::int64_t>(edges.size() - 1, 0);
    params.edges = launch_address(compared, current_stream(edges.device()));
    return {params, edges, {}, DType::float64, {std::move(compared)}, params.bins};
}

// numpy.histogram's bins for the flattened, real `x`.
DimensionBins histogram_bins(const Array& x, const HistogramOptions& options) {
    const Device device = x.device();
    if (const auto* count = std::get_if<std::int64_t>(&options.bins)) {
        if (*count < 1) throw InvalidArgumentError("`bins` must be positive, when an integer");
        return equal_dimension(outer_edges(x, options.range), *count, bin_dtype_of(x.dtype()), x.dtype(), device);
    }
    if (const auto* edges = std::get_if<Array>(&options.bins)) {
        if (edges->ndim() != 1) throw InvalidArgumentError("`bins` must be 1d, when an array");
        if (!non_decreasing(*edges)) throw InvalidArgumentError("`bins` must increase monotonically, when an array");
        return explicit_dimension(x, *edges);
    }
    // An estimator of the bin width, over the values inside the range.
    const std::string& name = std::get<std::string>(options.bins);
    detail::check_bin_width_estimator(name);
    if (options.weights)
        throw DTypeError("Automated estimation of the number of bins is not supported for weighted data");
    const OuterEdges outer = outer_edges(x, options.range);
    const double first = outer.first, last = outer.last;
    Array inside = x;
    if (options.range && x.size() > 0) {
        // NumPy compares with the range's Python floats, weak: in the data's float dtype.
        const DType dtype = bin_dtype_of(x.dtype());
        const Array low = full({}, Scalar(first), dtype, Order::C, device),
                    high = full({}, Scalar(last), dtype, Order::C, device);
        const Array keep = gpukit::logical_and(gpukit::greater_equal(x, low), gpukit::less_equal(x, high));
        inside = getitem(x, {keep});
    }
    std::int64_t count = 1;
    if (inside.size() > 0) {
        double width = detail::bin_width(name, inside, {first, last});
        if (width > 0) {
            if (!is_floating(x.dtype()) && width < 1) width = 1;
            count = static_cast<std::int64_t>(std::ceil((last - first) / width));
        }
    }
    return equal_dimension(outer, count, bin_dtype_of(x.dtype()), x.dtype(), device);
}

// The real, flattened data of histogram and histogramdd (complex data has no order NumPy's bins
// mean anything for).
Array real_data(const Array& a, std::string_view what) {
    if (is_complex(a.dtype()))
        throw DTypeError(concat(what,
                                " of complex values is not supported: bin their real parts (a.real) or their "
                                "magnitudes (abs(a))"));
    return elements_of(a);
}

// hist / widths / total, NumPy's density (float64, or complex128 for complex weights).
Array density_of(const Array& hist, const Array& edges) {
    const Array widths = gpukit::diff(edges).astype(DType::float64);
    return gpukit::true_divide(gpukit::true_divide(hist, widths), gpukit::sum(hist));
}

}  // namespace

Array bincount(const Array& x, const std::optional<Array>& weights, std::int64_t minlength) {
    if (x.ndim() == 0) throw InvalidArgumentError("object of too small depth for desired array");
    if (x.ndim() > 1) throw InvalidArgumentError("object too deep for desired array");
    if (!is_integral(x.dtype()))
        throw DTypeError(concat("Cannot cast array data from ", quoted(x.dtype()),
                                " to dtype('int64') according to the rule 'safe'"));
    if (minlength < 0) throw InvalidArgumentError("'minlength' must not be negative");
    std::optional<Array> weight_values;
    if (weights) {
        if (weights->ndim() == 0) throw InvalidArgumentError("object of too small depth for desired array");
        if (weights->ndim() > 1) throw InvalidArgumentError("object too deep for desired array");
        if (is_complex(weights->dtype()))
            throw DTypeError(concat("Cannot cast array data from ", quoted(weights->dtype()),
                                    " to dtype('float64') according to the rule 'safe'"));
        if (weights->size() != x.size()) throw InvalidArgumentError("The weights and list don't have the same length.");
        // Summed as NumPy sums them: converted to float64 first.
        weight_values = elements_of(weights->astype(DType::float64));
    }
    const Array values = elements_of(x);
    HistogramParams params;
    params.mode = BinMode::integer;
    params.bins = minlength;
    if (values.size() == 0) return count_into_bins(values, weight_values, params);
    // One pass where the guess holds: counted into as many bins as one block's shared copy holds
    // (or minlength), while the kernel finds the largest value and any negative one. A largest value
    // past the guess costs a second pass with the bins it needs.
    const std::int64_t shared_bins = detail::shared_histogram_bins(accumulator_for(weight_values).kind);
    params.bins = std::max(minlength, shared_bins);
    Array counts = count_into_bins(values, weight_values, params, true);
    const Array slots = counts.index({Slice{params.bins, {}, {}}});
    std::vector<std::byte> bytes(static_cast<std::size_t>(slots.nbytes()));
    slots.copy_to_host(HostView(bytes.data(), slots.dtype(), slots.shape()));
    std::array<std::uint64_t, 2> seen{};
    std::memcpy(seen.data(), bytes.data(), sizeof seen);
    if (seen[1] != 0) throw InvalidArgumentError("'list' argument must have no negative elements");
    const std::uint64_t top = seen[0];
    if (top >= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw InvalidArgumentError(
            concat("bincount of a value as large as ", top, " needs more bins than memory holds"));
    const std::int64_t bins = std::max(minlength, static_cast<std::int64_t>(top) + 1);
    if (bins <= params.bins) return counts.index({Slice{0, bins, {}}});
    params.bins = bins;
    return count_into_bins(values, weight_values, params);
}

Histogram histogram(const Array& a, const HistogramOptions& options) {
    const Array x = real_data(a, "histogram");
    std::optional<Array> weights;
    if (options.weights) {
        if (options.weights->shape() != a.shape())
            throw InvalidArgumentError("weights should have the same shape as a.");
        weights = elements_of(*options.weights);
    }
    DimensionBins bins = histogram_bins(x, options);
    Array hist = count_into_bins(x, weights, bins.params);
    const DType result_dtype = weights ? weights->dtype() : DType::int64;
    if (hist.dtype() != result_dtype) hist = hist.astype(result_dtype);
    Array edges = edges_of(bins, x.device());
    if (options.density) hist = density_of(hist, edges);
    return {std::move(hist), std::move(edges)};
}

Array histogram_bin_edges(const Array& a, const HistogramOptions& options) {
    const Array x = real_data(a, "histogram_bin_edges");
    if (options.weights && options.weights->shape() != a.shape())
        throw InvalidArgumentError("weights should have the same shape as a.");
    DimensionBins bins = histogram_bins(x, options);
    return edges_of(bins, x.device());
}

HistogramDD histogramdd(const std::vector<Array>& coordinates, const HistogramddOptions& options) {
    const std::size_t dimensions = coordinates.size();
    if (dimensions == 0) throw InvalidArgumentError("histogramdd needs at least one dimension");
    const Device device = coordinates.front().device();
    std::vector<Array> values;
    for (const Array& coordinate : coordinates) {
        if (coordinate.size() != coordinates.front().size())
            throw InvalidArgumentError("histogramdd's coordinates must have the same number of samples");
        values.push_back(real_data(coordinate, "histogramdd"));
    }
    const std::int64_t samples = values.front().size();
    if (options.bins.size() != 1 && options.bins.size() != dimensions)
        throw InvalidArgumentError("The dimension of bins must be equal to the dimension of the sample x.");
    if (!options.ranges.empty() && options.ranges.size() != dimensions)
        throw InvalidArgumentError("range argument must have one entry per dimension");
    std::optional<Array> weights;
    if (options.weights) {
        if (is_complex(options.weights->dtype()))
            throw DTypeError(concat("Cannot cast array data from ", quoted(options.weights->dtype()),
                                    " to dtype('float64') according to the rule 'safe'"));
        if (options.weights->size() != samples)
            throw InvalidArgumentError("histogramdd's weights must have one value per sample");
        weights = elements_of(options.weights->astype(DType::float64));
    }

    std::vector<DimensionBins> bins;
    Shape shape;
    for (std::size_t d = 0; d < dimensions; ++d) {
        const Bins& given = options.bins.size() == 1 ? options.bins.front() : options.bins[d];
        const std::optional<BinRange> range = options.ranges.empty() ? std::nullopt : options.ranges[d];
        const std::string name = concat("`bins[", d, "]`");
        if (const auto* count = std::get_if<std::int64_t>(&given)) {
            if (*count < 1) throw InvalidArgumentError(concat(name, " must be positive, when an integer"));
            // NumPy's edges here are linspace's own dtype: the data's float dtype from its minimum
            // and maximum, float64 from a range.
            const OuterEdges outer = outer_edges(values[d], range);
            bins.push_back(
                equal_dimension(outer, *count, outer.compute, values[d].dtype(), device, concat("dimension ", d)));
        } else if (const auto* edges = std::get_if<Array>(&given)) {
            if (edges->ndim() != 1) throw InvalidArgumentError(concat(name, " must be a scalar or 1d array"));
            if (!non_decreasing(*edges))
                throw InvalidArgumentError(concat(name, " must be monotonically increasing, when an array"));
            bins.push_back(explicit_dimension(values[d], *edges));
        } else {
            throw DTypeError(concat(name, " must be an integer or an array: histogramdd has no estimators"));
        }
        shape.push_back(bins.back().count);
    }

    // Each sample's linear bin (C order), -1 where a coordinate is outside; then counted.
    std::int64_t total = 1;
    std::vector<std::int64_t> steps(dimensions, 1);
    for (std::size_t d = dimensions; d-- > 0;) {
        steps[d] = total;
        if (bins[d].count > 0 && total > std::numeric_limits<std::int64_t>::max() / bins[d].count)
            throw InvalidArgumentError("histogramdd: the bins of all dimensions together are too many to count");
        total *= bins[d].count;
    }
    Array hist = zeros(shape, DType::float64, Order::C, device);
    if (total > 0) {
        Array linear = Array::empty({samples}, DType::int64, device);
        const StreamRef stream = current_stream(device);
        for (std::size_t d = 0; d < dimensions; ++d) {
            HistogramParams p = bins[d].params;
            p.values = launch_address(values[d], stream);
            p.size = samples;
            p.stride = element_stride(values[d]);
            p.value_dtype = static_cast<std::int32_t>(values[d].dtype());
            p.bin_stride = steps[d];
            p.first_dimension = d == 0;
            p.out = launch_address(linear, stream);
            detail::launch_histogram_bin_index(device, p);
        }
        HistogramParams counting;
        counting.mode = BinMode::integer;
        counting.bins = total;
        hist = count_into_bins(linear, weights, counting).astype(DType::float64).reshape(shape);
    }
    std::vector<Array> edges;
    edges.reserve(bins.size());
    for (DimensionBins& dimension : bins) edges.push_back(edges_of(dimension, device));
    if (options.density) {
        const Array total_count = gpukit::sum(hist);
        for (std::size_t d = 0; d < dimensions; ++d) {
            Shape along(dimensions, 1);
            along[d] = shape[d];
            hist = gpukit::true_divide(hist, gpukit::diff(edges[d]).astype(DType::float64).reshape(along));
        }
        hist = gpukit::true_divide(hist, total_count);
    }
    return {std::move(hist), std::move(edges)};
}

Array digitize(const Array& x, const Array& bins, bool right) {
    if (is_complex(x.dtype())) throw DTypeError("x may not be complex");
    if (bins.ndim() == 0) throw InvalidArgumentError("object of too small depth for desired array");
    if (bins.ndim() > 1) throw InvalidArgumentError("object too deep for desired array");
    const Side side = right ? Side::left : Side::right;
    if (non_decreasing(bins)) return searchsorted(bins, x, side);
    if (!non_increasing(bins)) throw InvalidArgumentError("bins must be monotonically increasing or decreasing");
    const Array reversed = bins.index({Slice{{}, {}, -1}});
    const Array count = full({}, Scalar(bins.size()), DType::int64, Order::C, x.device());
    return gpukit::subtract(count, searchsorted(reversed, x, side));
}

}  // namespace gpukit
