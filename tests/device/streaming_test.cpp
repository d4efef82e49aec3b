// tests/device/streaming_test.cpp: stream_map, stream_reduce, stream_histogram and stream_convolve
// (gpukit/streaming.hpp) against host loops: chunks that do not divide the rows, 1 to 3 buffers,
// rows of several values, readers that give odd pieces, halos at both ends, progress, the timeline,
// cancellation and bad input. tests/python/test_streaming.py compares with NumPy on inputs larger
// than a small simulated device.
#include <cmath>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>
#include <thread>

#include "device_test_fixture.hpp"
#include "gpukit/streaming.hpp"
#include "ops/streaming/kept.hpp"

namespace gpukit::testing {
namespace {

std::vector<double> random_doubles(std::size_t n, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(-100, 100);
    std::vector<double> values(n);
    for (auto& v : values) v = std::round(uniform(random) * 8) / 8;  // exact in float32 sums and products
    return values;
}

ConstHostView view_of(const std::vector<double>& values, Shape shape) {
    return {reinterpret_cast<const std::byte*>(values.data()), DType::float64, std::move(shape)};
}
HostView view_of(std::vector<double>& values, Shape shape) {
    return {reinterpret_cast<std::byte*>(values.data()), DType::float64, std::move(shape)};
}

// A reader over `values` that gives at most `piece` rows a call.
RowSource piecewise(const std::vector<double>& values, std::int64_t piece) {
    auto next = std::make_shared<std::size_t>(0);
    return RowSource::reader(
        DType::float64, {},
        [&values, piece, next](const HostView& staging) {
            const auto n = static_cast<std::size_t>(
                std::min<std::int64_t>({piece, staging.shape[0], static_cast<std::int64_t>(values.size() - *next)}));
            std::memcpy(staging.data, values.data() + *next, n * sizeof(double));
            *next += n;
            return static_cast<std::int64_t>(n);
        },
        static_cast<std::int64_t>(values.size()));
}

class Streaming : public DeviceTest {};

TEST_F(Streaming, AMapGivesEveryRowsResultWhateverTheChunkingAndBuffers) {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{10007}}) {
        const std::vector<double> x = random_doubles(static_cast<std::size_t>(n), 1);
        for (const int buffers : {1, 2, 3}) {
            for (const std::int64_t chunk : {std::int64_t{1}, std::int64_t{999}, std::int64_t{4096}}) {
                if (n / chunk > 2000) continue;
                SCOPED_TRACE(std::to_string(n) + " rows, chunks of " + std::to_string(chunk) + ", " +
                             std::to_string(buffers) + " buffers");
                std::vector<double> y(x.size(), std::nan(""));
                std::vector<std::int64_t> progress;
                const StreamingStats stats = stream_map(
                    RowSource::of(view_of(x, {n})), RowDestination::of(view_of(y, {n})),
                    [](const Chunk& c) { return c.interior() * 2.0 + 1.0; },
                    {.chunk_rows = chunk, .buffers = buffers, .progress = [&](std::int64_t done, std::int64_t total) {
                         EXPECT_EQ(total, n);
                         progress.push_back(done);
                     }});
                for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], 2 * x[i] + 1) << "row " << i;
                EXPECT_EQ(stats.rows, n);
                EXPECT_EQ(stats.chunks, (n + chunk - 1) / chunk);
                ASSERT_FALSE(progress.empty());
                EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
                EXPECT_EQ(progress.back(), n);
            }
        }
    }
}

TEST_F(Streaming, APageLockedInputIsCopiedFromWhereItIs) {
    const std::int64_t n = 100003;
    const std::vector<double> x = random_doubles(static_cast<std::size_t>(n), 11);
    const PinnedBuffer pinned(x.size() * sizeof(double));
    std::memcpy(pinned.data(), x.data(), x.size() * sizeof(double));
    const ConstHostView rows(pinned.data(), DType::float64, {n});
    for (const int buffers : {1, 2, 3}) {
        std::vector<double> y(x.size());
        const StreamingStats stats =
            stream_map(RowSource::of(rows), RowDestination::of(view_of(y, {n})),
                       [](const Chunk& c) { return c.interior() * 3.0; }, {.chunk_rows = 7777, .buffers = buffers});
        EXPECT_TRUE(stats.in_place);
        for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(y[i], 3 * x[i]) << "row " << i;
        const Array total = stream_reduce(
            RowSource::of(rows), [](const Chunk& c) { return sum(c.interior()); },
            [](const Array& a, const Array& b) { return add(a, b); }, {.chunk_rows = 10000, .buffers = buffers});
        EXPECT_EQ(total.to_vector<double>()[0], std::accumulate(x.begin(), x.end(), 0.0));
    }
    // Ordinary memory, a part of the pinned buffer past its end, or halos: staged.
    std::vector<double> y(x.size());
    EXPECT_FALSE(stream_map(RowSource::of(view_of(x, {n})), RowDestination::of(view_of(y, {n})), [](const Chunk& c) {
                     return c.interior();
                 }).in_place);
    EXPECT_FALSE(stream_map(RowSource::of(rows), RowDestination::of(view_of(y, {n})),
                            [](const Chunk& c) { return c.interior(); }, {.chunk_rows = 1000, .halo_before = 1})
                     .in_place);
    EXPECT_EQ(y[n - 1], x[n - 1]);
}

TEST_F(Streaming, CallsOnSeveralThreadsAtOnceEachBorrowTheirOwnStagingAndCopyThreads) {
    // The pinned staging and the copy threads a call made are kept for the next call: calls at
    // once must never share them.
    const Device device = Device::current();
    std::vector<std::vector<double>> inputs, outputs;
    for (unsigned t = 0; t < 4; ++t) {
        inputs.push_back(random_doubles(50000, 20 + t));
        outputs.emplace_back(inputs.back().size());
    }
    std::vector<std::jthread> threads;
    for (std::size_t t = 0; t < inputs.size(); ++t)
        threads.emplace_back([&, t] {
            const DeviceScope scope(device);
            const auto n = static_cast<std::int64_t>(inputs[t].size());
            for (int round = 0; round < 3; ++round)
                stream_map(RowSource::of(view_of(inputs[t], {n})), RowDestination::of(view_of(outputs[t], {n})),
                           [t](const Chunk& c) { return c.interior() * static_cast<double>(t + 1); },
                           {.chunk_rows = 7001, .copy_threads = 2});
        });
    threads.clear();
    for (std::size_t t = 0; t < inputs.size(); ++t)
        for (std::size_t i = 0; i < inputs[t].size(); ++i)
            ASSERT_EQ(outputs[t][i], inputs[t][i] * static_cast<double>(t + 1)) << "thread " << t << ", row " << i;
}

TEST_F(Streaming, StagingGoesBackOnceForTheNextCallToBorrow) {
    const Device device = Device::current();
    static std::size_t run = 0;  // a size no other test's (or an earlier repeat's) staging has
    const std::size_t bytes = (std::size_t{5} << 20) + 123 + 4096 * run++;
    const std::byte* first = nullptr;
    {
        detail::StagingLoan loan(device, bytes);
        first = loan.data();
        const detail::StagingLoan moved(std::move(loan));  // only the loan moved to gives it back
        EXPECT_EQ(moved.data(), first);
    }
    const detail::StagingLoan again(device, bytes);
    EXPECT_EQ(again.data(), first);  // the kept buffer: no new page-locked allocation
    EXPECT_GE(again.size_bytes(), bytes);
    const detail::StagingLoan meanwhile(device, bytes);  // lent already: a new one
    EXPECT_NE(meanwhile.data(), first);
}

TEST_F(Streaming, RowsOfSeveralValuesMapToRowsOfAnotherShape) {
    const std::int64_t rows = 777;
    const std::vector<double> x = random_doubles(static_cast<std::size_t>(rows * 3), 2);
    std::vector<double> y(static_cast<std::size_t>(rows));
    stream_map(RowSource::of(view_of(x, {rows, 3})), RowDestination::of(view_of(y, {rows})),
               [](const Chunk& c) { return sum(c.interior(), {.axis = std::vector<std::int64_t>{1}}); },
               {.chunk_rows = 100});
    for (std::int64_t r = 0; r < rows; ++r)
        ASSERT_EQ(y[static_cast<std::size_t>(r)], x[r * 3] + x[r * 3 + 1] + x[r * 3 + 2]) << "row " << r;
}

TEST_F(Streaming, HalosHoldTheNeighbouringRowsAndZerosPastTheEnds) {
    // The input's end at every place against the last chunk: inside it, just past it (in what would
    // be its halo after) and on its edge; halos as large as a chunk; one to three buffers.
    struct Case {
        std::int64_t n, chunk, before, after;
    };
    for (const Case c : {Case{1001, 64, 1, 2}, Case{1001, 100, 4, 4}, Case{1002, 100, 4, 4}, Case{1000, 100, 4, 4},
                         Case{999, 100, 4, 4}, Case{1, 64, 1, 2}, Case{300, 64, 64, 64}, Case{257, 64, 3, 64}}) {
        const std::vector<double> x = random_doubles(static_cast<std::size_t>(c.n), 3);
        const auto at = [&](std::int64_t i) { return i < 0 || i >= c.n ? 0.0 : x[static_cast<std::size_t>(i)]; };
        for (const int buffers : {1, 2, 3}) {
            for (const bool reader : {false, true}) {
                SCOPED_TRACE(std::to_string(c.n) + " rows, chunks of " + std::to_string(c.chunk) + ", halos " +
                             std::to_string(c.before) + " and " + std::to_string(c.after) + ", " +
                             std::to_string(buffers) + " buffers" + (reader ? ", a reader" : ""));
                std::vector<double> y(x.size());
                // Each row's result: the first row before + 10 * the row + 100 * the last row after.
                stream_map(reader ? piecewise(x, 37) : RowSource::of(view_of(x, {c.n})),
                           RowDestination::of(view_of(y, {c.n})),
                           [&](const Chunk& k) {
                               const auto rows = [&](std::int64_t from) {
                                   return k.data.index({Slice{from, from + k.rows, std::nullopt}});
                               };
                               return rows(c.before - 1) + rows(c.before) * 10.0 + rows(c.before + c.after) * 100.0;
                           },
                           {.chunk_rows = c.chunk, .buffers = buffers, .halo_before = c.before, .halo_after = c.after});
                for (std::int64_t i = 0; i < c.n; ++i)
                    ASSERT_EQ(y[static_cast<std::size_t>(i)], at(i - 1) + 10 * at(i) + 100 * at(i + c.after))
                        << "row " << i;
            }
        }
    }
}

TEST_F(Streaming, AReductionCombinesEveryChunksPartial) {
    const std::int64_t n = 50001;
    const std::vector<double> x = random_doubles(static_cast<std::size_t>(n), 4);
    const double expected = std::accumulate(x.begin(), x.end(), 0.0);
    for (const int buffers : {1, 2, 3}) {
        StreamingStats stats;
        const Array total = stream_reduce(
            piecewise(x, 333), [](const Chunk& c) { return sum(c.interior()); },
            [](const Array& a, const Array& b) { return add(a, b); }, {.chunk_rows = 4000, .buffers = buffers}, &stats);
        EXPECT_EQ(total.to_vector<double>()[0], expected);
        EXPECT_EQ(stats.chunks, 13);
    }
    EXPECT_THROW(stream_reduce(
                     RowSource::of(view_of(x, {0})), [](const Chunk& c) { return sum(c.interior()); },
                     [](const Array& a, const Array& b) { return add(a, b); }),
                 InvalidArgumentError);
}

TEST_F(Streaming, AHistogramCountsAsOneOverAllTheRows) {
    const std::int64_t n = 30000;
    const std::vector<double> x = random_doubles(static_cast<std::size_t>(n), 5);
    const Array whole = Array::from_host(std::span<const double>(x), {n});
    for (const bool given_range : {true, false}) {
        HistogramOptions options{.bins = std::int64_t{37}, .range = {}, .weights = {}};
        if (given_range) options.range = BinRange{-50, 75};
        const Histogram streamed = stream_histogram(RowSource::of(view_of(x, {n})), options, {.chunk_rows = 4096});
        const Histogram direct = histogram(whole, options);
        EXPECT_EQ(streamed.hist.to_vector<std::int64_t>(), direct.hist.to_vector<std::int64_t>());
        EXPECT_EQ(streamed.edges.to_vector<double>(), direct.edges.to_vector<double>());
    }
    EXPECT_THROW(stream_histogram(piecewise(x, 100), {.bins = std::int64_t{10}, .range = {}, .weights = {}}),
                 InvalidArgumentError);  // a reader cannot be read twice for the range
    EXPECT_THROW(
        stream_histogram(RowSource::of(view_of(x, {n})), {.bins = std::string("fd"), .range = {}, .weights = {}}),
        InvalidArgumentError);
}

TEST_F(Streaming, AConvolutionMatchesTheWholeSignalsInEveryMode) {
    const std::int64_t n = 5003;
    const std::vector<double> x = random_doubles(static_cast<std::size_t>(n), 6);
    const std::vector<double> taps = random_doubles(7, 7);
    const Array whole = Array::from_host(std::span<const double>(x), {n});
    const Array v = Array::from_host(std::span<const double>(taps), {7});
    for (const ConvolveMode mode : {ConvolveMode::full, ConvolveMode::same, ConvolveMode::valid}) {
        const std::vector<double> expected = convolve(whole, v, mode).to_vector<double>();
        std::vector<double> y(expected.size());
        const auto length = static_cast<std::int64_t>(y.size());
        stream_convolve(RowSource::of(view_of(x, {n})), v, mode, RowDestination::of(view_of(y, {length})),
                        {.chunk_rows = 500});
        for (std::size_t i = 0; i < y.size(); ++i) ASSERT_NEAR(y[i], expected[i], 1e-9) << "output " << i;
    }
    // A signal shorter than the taps, as NumPy: the operands swap.
    const std::vector<double> shortx(x.begin(), x.begin() + 3);
    std::vector<double> y(9);
    stream_convolve(RowSource::of(view_of(shortx, {3})), v, ConvolveMode::full, RowDestination::of(view_of(y, {9})));
    const Array expected = convolve(Array::from_host(std::span<const double>(shortx), {3}), v, ConvolveMode::full);
    EXPECT_EQ(y, expected.to_vector<double>());
}

TEST_F(Streaming, TheTimelineHasEachChunksThreePhases) {
    const std::vector<double> x = random_doubles(4000, 8);
    std::vector<double> y(x.size());
    const StreamingStats stats = stream_map(RowSource::of(view_of(x, {4000})), RowDestination::of(view_of(y, {4000})),
                                            [](const Chunk& c) { return negative(c.interior()); },
                                            {.chunk_rows = 1000, .buffers = 2, .record_timeline = true});
    ASSERT_EQ(stats.timeline.size(), 12u);
    for (const StreamingSpan& span : stats.timeline) {
        EXPECT_GE(span.end_ms, span.start_ms) << span.phase;
        EXPECT_EQ(span.slot, span.chunk % 2);
    }
}

TEST_F(Streaming, StoppingBetweenChunksLeavesTheProcessWorking) {
    const std::vector<double> x = random_doubles(10000, 9);
    std::vector<double> y(x.size(), 0.0);
    int calls = 0;
    EXPECT_THROW(stream_map(RowSource::of(view_of(x, {10000})), RowDestination::of(view_of(y, {10000})),
                            [](const Chunk& c) { return negative(c.interior()); },
                            {.chunk_rows = 1000,
                             .between_chunks =
                                 [&] {
                                     if (++calls == 4) throw UsageError("stopped");
                                 }}),
                 UsageError);
    EXPECT_EQ(y[0], -x[0]);  // the chunks before it were done
    // and the next call works
    stream_map(RowSource::of(view_of(x, {10000})), RowDestination::of(view_of(y, {10000})),
               [](const Chunk& c) { return negative(c.interior()); }, {.chunk_rows = 1000});
    EXPECT_EQ(y[9999], -x[9999]);
}

TEST_F(Streaming, BadInputIsAClearError) {
    const std::vector<double> x = random_doubles(1000, 10);
    std::vector<double> y(x.size());
    const auto identity = [](const Chunk& c) { return c.interior(); };
    const auto map = [&](RowSource in, const ChunkWork& work, const StreamingOptions& options) {
        stream_map(std::move(in), RowDestination::of(view_of(y, {1000})), work, options);
    };
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, map(RowSource::of(view_of(x, {1000})), identity,
                                                                {.chunk_rows = 10, .halo_before = 11})),
                    "larger than a chunk");
    expect_contains(
        GPUKIT_MESSAGE_OF(InvalidArgumentError, map(RowSource::of(view_of(x, {1000})),
                                                    [](const Chunk& c) {
                                                        return c.interior().index({Slice{0, 1, std::nullopt}});
                                                    },
                                                    {.chunk_rows = 100})),
        "returned 1 rows for the chunk at row 0 of 100 rows");
    expect_contains(GPUKIT_MESSAGE_OF(InvalidArgumentError, map(RowSource::of(view_of(x, {1000})),
                                                                [](const Chunk& c) {
                                                                    return c.offset == 0
                                                                               ? c.interior()
                                                                               : c.interior().astype(DType::float32);
                                                                },
                                                                {.chunk_rows = 100})),
                    "rows of float32 () for the chunk at row 100, and rows of float64 () before");
    expect_contains(
        GPUKIT_MESSAGE_OF(InvalidArgumentError,
                          map(RowSource::reader(DType::float64, {}, [](const HostView& s) { return s.shape[0] + 1; }),
                              identity, {.chunk_rows = 100})),
        "the reader said it wrote 101 rows where at most 100 fit");
    EXPECT_THROW(map(RowSource::of(view_of(x, {1000})), identity, {.buffers = 0}), InvalidArgumentError);
    std::vector<double> short_output(10);
    expect_contains(
        GPUKIT_MESSAGE_OF(InvalidArgumentError, stream_map(RowSource::of(view_of(x, {1000})),
                                                           RowDestination::of(view_of(short_output, {10})), identity)),
        "the output has 10 rows");
    // and the device still works
    EXPECT_EQ(sum(Array::from_host(std::span<const double>(x), {1000})).to_vector<double>()[0],
              std::accumulate(x.begin(), x.end(), 0.0));
}

}  // namespace
}  // namespace gpukit::testing
