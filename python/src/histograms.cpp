// python/src/histograms.cpp: bincount, histogram, histogram_bin_edges, histogram2d, histogramdd
// and digitize (gpukit/histograms.hpp) with NumPy's arguments. Bins may be an int, an estimator's
// name, a gpukit array of edges, or a list or tuple of edges (a few numbers a user typed: copied
// to the device); ranges are pairs of numbers.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arguments.hpp"
#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/histograms.hpp"
#include "indexing.hpp"
#include "numpy_bridge.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

bool is_numpy_array(nb::handle value) { return nb::isinstance(value, numpy_module().attr("ndarray")); }

bool is_sequence(nb::handle value) { return nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value); }

// Edges given as a gpukit array, or as a NumPy array, list or tuple of numbers (copied to `device`:
// edges are few, and Dask hands its chunks' histograms the edges it computed on the host).
Array edges_of(nb::handle value, std::string_view name, const Device& device) {
    if (nb::isinstance<Array>(value)) return to_array(value, name);
    if (!is_sequence(value) && !is_numpy_array(value)) to_array(value, name);  // TypeError: another library's
    return to_device_array(value, device, name, false);
}

// An int, or anything with __index__ but an array (NumPy's integer arrays have one).
bool is_integer(nb::handle value) {
    return !nb::isinstance<nb::bool_>(value) && (nb::isinstance<nb::int_>(value) || PyIndex_Check(value.ptr())) &&
           !nb::isinstance<Array>(value) && !(is_numpy_array(value) && nb::cast<int>(value.attr("ndim")) > 0);
}

// numpy.histogram's bins: an int, an estimator's name or edges.
Bins bins_of(nb::handle value, const Device& device) {
    if (nb::isinstance<nb::str>(value)) return to_str(value, "bins");
    if (is_integer(value)) return to_int64(value, "bins");
    if (nb::isinstance<Array>(value) || is_sequence(value) || is_numpy_array(value))
        return edges_of(value, "bins", device);
    throw nb::type_error("`bins` must be an integer, a string, or an array");
}

// A (min, max) pair, or nullopt for None.
std::optional<BinRange> range_of(nb::handle value, std::string_view name) {
    if (value.is_none()) return std::nullopt;
    if (!is_sequence(value) || nb::len(value) != 2)
        raise_value_error(std::string(name) + " must be a pair (min, max), not " + describe_value(value));
    return BinRange{nb::cast<double>(nb::float_(value[0])), nb::cast<double>(nb::float_(value[1]))};
}

bool density_of(nb::handle value) { return !value.is_none() && to_bool(value, "density"); }

std::optional<Array> weights_of(nb::handle value) {
    if (value.is_none()) return std::nullopt;
    return to_array(value, "weights");
}

// histogramdd's and histogram2d's bins: one per dimension, each an int or edges; one int for all.
std::vector<Bins> bins_per_dimension(nb::handle value, std::size_t dimensions, const Device& device) {
    if (is_integer(value)) return {to_int64(value, "bins")};
    if (nb::isinstance<nb::str>(value)) return {to_str(value, "bins")};  // refused by the core
    std::vector<Bins> bins;
    if (nb::isinstance<Array>(value)) {  // one count per dimension
        for (const std::int64_t count : to_array(value, "bins").astype(DType::int64).to_vector<std::int64_t>())
            bins.emplace_back(count);
        return bins;
    }
    if (!is_sequence(value)) throw nb::type_error("`bins` must be an integer or a sequence of integers and arrays");
    for (std::size_t d = 0; d < nb::len(value); ++d) {
        nb::handle item = value[d];
        if (is_integer(item))
            bins.emplace_back(to_int64(item, "bins"));
        else
            bins.emplace_back(edges_of(item, "bins", device));
    }
    (void)dimensions;
    return bins;
}

std::vector<std::optional<BinRange>> ranges_of(nb::handle value) {
    std::vector<std::optional<BinRange>> ranges;
    if (value.is_none()) return ranges;
    if (!is_sequence(value))
        raise_value_error("range must be a sequence of (min, max) pairs or None, one per dimension");
    for (nb::handle item : value) ranges.push_back(range_of(item, "range"));
    return ranges;
}

nb::tuple histogramdd_result(HistogramDD&& result) {
    nb::list edges;
    for (Array& edge : result.edges) edges.append(nb::cast(std::move(edge)));
    return nb::make_tuple(nb::cast(std::move(result.hist)), edges);
}

}  // namespace

void bind_histograms(nb::module_& m) {
    m.def(
        "bincount",
        [](nb::handle x, nb::handle weights, nb::handle minlength) {
            const Array& values = to_array(x, "x");
            const std::optional<Array> w = weights_of(weights);
            const std::int64_t length = to_int64(minlength, "minlength");
            GilRelease unlocked;
            return bincount(values, w, length);
        },
        "x"_a.none(), "weights"_a.none() = nb::none(), "minlength"_a = 0,
        "How often each non-negative integer occurs in x (or the sum of its weights), as numpy.bincount.");

    m.def(
        "histogram",
        [](nb::handle a, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
            const Array& data = to_array(a, "a");
            HistogramOptions options{bins_of(bins, data.device()), range_of(range, "range"), weights_of(weights),
                                     density_of(density)};
            Histogram result = [&] {
                GilRelease unlocked;
                return histogram(data, options);
            }();
            return nb::make_tuple(nb::cast(std::move(result.hist)), nb::cast(std::move(result.edges)));
        },
        "a"_a.none(), "bins"_a.none() = 10, "range"_a.none() = nb::none(), "density"_a.none() = nb::none(),
        "weights"_a.none() = nb::none(),
        "The histogram of the flattened a and its bin edges, as numpy.histogram (bins: a count, edges, or "
        "one of NumPy's estimators).");

    m.def(
        "histogram_bin_edges",
        [](nb::handle a, nb::handle bins, nb::handle range, nb::handle weights) {
            const Array& data = to_array(a, "a");
            HistogramOptions options{bins_of(bins, data.device()), range_of(range, "range"), weights_of(weights),
                                     false};
            GilRelease unlocked;
            return histogram_bin_edges(data, options);
        },
        "a"_a.none(), "bins"_a.none() = 10, "range"_a.none() = nb::none(), "weights"_a.none() = nb::none(),
        "The bin edges numpy.histogram would use, as numpy.histogram_bin_edges.");

    m.def(
        "histogramdd",
        [](nb::handle sample, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
            std::vector<Array> coordinates;
            if (nb::isinstance<Array>(sample)) {
                const Array& points = to_array(sample, "sample");
                if (points.ndim() == 1) {
                    coordinates.push_back(points);
                } else if (points.ndim() == 2) {
                    for (std::int64_t d = 0; d < points.shape()[1]; ++d)
                        coordinates.push_back(points.index({Slice{}, Index(d)}));
                } else {
                    raise_value_error("sample must be an (N, D) array or a sequence of D coordinate arrays");
                }
            } else {
                coordinates = to_arrays(sample, "sample");
            }
            if (coordinates.empty()) raise_value_error("sample has no dimensions");
            HistogramddOptions options{bins_per_dimension(bins, coordinates.size(), coordinates.front().device()),
                                       ranges_of(range), weights_of(weights), density_of(density)};
            HistogramDD result = [&] {
                GilRelease unlocked;
                return histogramdd(coordinates, options);
            }();
            return histogramdd_result(std::move(result));
        },
        "sample"_a.none(), "bins"_a.none() = 10, "range"_a.none() = nb::none(), "density"_a.none() = nb::none(),
        "weights"_a.none() = nb::none(),
        "The D-dimensional histogram of the samples and each dimension's edges, as numpy.histogramdd.");

    m.def(
        "histogram2d",
        [](nb::handle x, nb::handle y, nb::handle bins, nb::handle range, nb::handle density, nb::handle weights) {
            const std::vector<Array> coordinates{to_array(x, "x"), to_array(y, "y")};
            const Device device = coordinates.front().device();
            std::vector<Bins> per_dimension;
            if (nb::isinstance<Array>(bins) || (is_sequence(bins) && nb::len(bins) != 1 && nb::len(bins) != 2)) {
                const Array edges = edges_of(bins, "bins", device);  // the same edges for x and y
                per_dimension = {edges, edges};
            } else {
                per_dimension = bins_per_dimension(bins, 2, device);
            }
            HistogramddOptions options{std::move(per_dimension), ranges_of(range), weights_of(weights),
                                       density_of(density)};
            HistogramDD result = [&] {
                GilRelease unlocked;
                return histogramdd(coordinates, options);
            }();
            return nb::make_tuple(nb::cast(std::move(result.hist)), nb::cast(std::move(result.edges[0])),
                                  nb::cast(std::move(result.edges[1])));
        },
        "x"_a.none(), "y"_a.none(), "bins"_a.none() = 10, "range"_a.none() = nb::none(),
        "density"_a.none() = nb::none(), "weights"_a.none() = nb::none(),
        "The two-dimensional histogram of (x, y) and its x and y edges, as numpy.histogram2d.");

    m.def(
        "digitize",
        [](nb::handle x, nb::handle bins, nb::handle right) {
            const Array& values = to_array(x, "x");
            const Array edges = edges_of(bins, "bins", values.device());
            const bool on_right = to_bool(right, "right");
            GilRelease unlocked;
            return digitize(values, edges, on_right);
        },
        "x"_a.none(), "bins"_a.none(), "right"_a = false,
        "The index of the bin each x falls in, as numpy.digitize (bins increasing or decreasing).");
}

}  // namespace gpukit::python
