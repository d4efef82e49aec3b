// include/gpukit/histograms.hpp: counting values into bins, as NumPy's (numpy.bincount,
// numpy.histogram, numpy.histogram_bin_edges, numpy.histogram2d, numpy.histogramdd,
// numpy.digitize). Each block of a GPU counts in its own copy of the bins in shared memory and adds
// it to the result once, so skewed data (every value in one bin) costs no more than uniform data.
//
//   gpukit::Array counts = gpukit::bincount(labels);                       // int64
//   auto [hist, edges] = gpukit::histogram(x, {.bins = std::int64_t{256}});
//   gpukit::Array where = gpukit::digitize(x, edges);
//
// Data-dependent sizes (bincount's length, histogram's range when none is given, the estimators'
// bin counts) are read back from the device: those calls wait for the data, as NumPy's and CuPy's do.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit {

// numpy.bincount: how often each non-negative integer occurs in the 1-D `x` (int64), or the sum of
// `weights` (same length, real: float64) at each; max(x) + 1 bins, at least `minlength`.
// InvalidArgumentError (Python's ValueError) for a negative value, weights of another length, a
// negative minlength or x not 1-D; DTypeError (TypeError) for x not of an integer or bool dtype
// and for complex weights, with NumPy's messages.
Array bincount(const Array& x, const std::optional<Array>& weights = std::nullopt, std::int64_t minlength = 0);

// A histogram's bins along one dimension: a count of equal-width bins, explicit edges
// (non-decreasing, 1-D), or the name of one of NumPy's estimators of the bin width ("auto", "fd",
// "doane", "scott", "stone", "rice", "sturges", "sqrt").
using Bins = std::variant<std::int64_t, Array, std::string>;
// The lower and upper edge of the bins (values outside are not counted).
using BinRange = std::pair<double, double>;

struct HistogramOptions {
    Bins bins = std::int64_t{10};
    std::optional<BinRange> range;  // none: the data's minimum and maximum
    std::optional<Array> weights;   // the shape of the data: sums of weights instead of counts
    bool density = false;           // the counts divided by their total and the bin widths (float64)
};

struct Histogram {
    Array hist;   // counts (int64), sums in the weights' dtype, or densities (float64)
    Array edges;  // bins + 1 edges: the given ones, or equal-width in the data's float dtype (float64 for integers)
};

// numpy.histogram of the flattened `a`: bin k holds edges[k] <= x < edges[k + 1], the last bin
// also x == edges[bins]. Complex data is a DTypeError (NumPy orders it by real part, with a warning).
Histogram histogram(const Array& a, const HistogramOptions& options = {});

// numpy.histogram_bin_edges: the edges numpy.histogram would use.
Array histogram_bin_edges(const Array& a, const HistogramOptions& options = {});

struct HistogramddOptions {
    std::vector<Bins> bins = {std::int64_t{10}};  // one for every dimension, or one for all (no estimators)
    std::vector<std::optional<BinRange>> ranges;  // empty, or one per dimension (none: that dimension's data)
    std::optional<Array> weights;                 // one per sample
    bool density = false;
};

struct HistogramDD {
    Array hist;                // float64, one axis per dimension
    std::vector<Array> edges;  // per dimension
};

// numpy.histogramdd of `coordinates`: D arrays of the same size, the samples' coordinates along
// each dimension (numpy.histogramdd's (N, D) sample is its columns).
HistogramDD histogramdd(const std::vector<Array>& coordinates, const HistogramddOptions& options = {});

// numpy.digitize: for each x the index i with bins[i-1] <= x < bins[i] (right: bins[i-1] < x <=
// bins[i]) for increasing bins, mirrored for decreasing ones (int64, x's shape).
// InvalidArgumentError for bins neither non-decreasing nor non-increasing, or not 1-D; DTypeError
// for complex x.
Array digitize(const Array& x, const Array& bins, bool right = false);

}  // namespace gpukit
