// src/ops/streaming/histogram.cpp: stream_histogram (gpukit/streaming.hpp): each chunk counted into
// the same bins, the counts added.
#include <array>
#include <variant>

#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/streaming.hpp"

namespace gpukit {

namespace {

// The smallest and largest value of every row, by a first pass: [min, max] in the rows' dtype, the
// two values NumPy's histogram makes its edges from where no range is given.
Array streamed_bounds(RowSource in, const StreamingOptions& options) {
    const auto pair = [](const Array& low, const Array& high) {
        const std::array<Array, 2> both{low, high};
        return stack(both);
    };
    return stream_reduce(
        std::move(in), [&](const Chunk& chunk) { return pair(min(chunk.interior()), max(chunk.interior())); },
        [&](const Array& a, const Array& b) {
            return pair(minimum(a.index({std::int64_t{0}}), b.index({std::int64_t{0}})),
                        maximum(a.index({std::int64_t{1}}), b.index({std::int64_t{1}})));
        },
        options);
}

}  // namespace

Histogram stream_histogram(RowSource in, const HistogramOptions& options, const StreamingOptions& streaming,
                           StreamingStats* stats) {
    if (options.weights)
        throw InvalidArgumentError(
            "streaming histogram: weights are not streamed; histogram the chunks yourself "
            "with stream_reduce");
    if (std::holds_alternative<std::string>(options.bins))
        throw InvalidArgumentError("streaming histogram: bin estimators ('" + std::get<std::string>(options.bins) +
                                   "') need all the data at once; give a number of bins and a range, or the edges");
    HistogramOptions per_chunk = options;
    per_chunk.density = false;
    if (std::holds_alternative<std::int64_t>(options.bins) && !options.range && in.total_rows() != 0) {
        if (!in.rereadable())
            throw InvalidArgumentError(
                "streaming histogram: without range= the values are read twice (once for "
                "their range), and a reader's rows can be read only once: give range=");
        // The edges NumPy makes from the data's extremes (in their dtype: float32 data, float32 edges),
        // every chunk binned by them.
        per_chunk.bins = histogram_bin_edges(streamed_bounds(in.again(), streaming), per_chunk);
    }
    // The edges: what numpy.histogram gives for these bins and this range over data of this dtype.
    const Array sample = zeros({0}, in.dtype());
    // The counts: the chunks' added up (an input of no rows counts nothing, as NumPy's empty histogram).
    const auto count = [&] {
        if (in.total_rows() == 0) return histogram(sample, per_chunk).hist;
        return stream_reduce(
            std::move(in), [&](const Chunk& chunk) { return histogram(chunk.interior(), per_chunk).hist; },
            [](const Array& a, const Array& b) { return add(a, b); }, streaming, stats);
    };
    Histogram result{count(), histogram_bin_edges(sample, per_chunk)};
    if (options.density) {
        // numpy: hist / (sum(hist) * diff(edges)), in float64.
        const std::int64_t bins = result.edges.shape()[0] - 1;
        const Array widths = subtract(result.edges.index({Slice{1, std::nullopt, std::nullopt}}),
                                      result.edges.index({Slice{0, bins, std::nullopt}}));
        const Array counts = result.hist.astype(DType::float64);
        result.hist = divide(counts, multiply(sum(counts), widths.astype(DType::float64)));
    }
    return result;
}

}  // namespace gpukit
