// gpukit/streaming.hpp: operations over host data larger than the device memory, a chunk of rows
// at a time, with the copies in, the work and the copies out of different chunks overlapping.
//
//   std::vector<float> big(n), roots(n);  // more than the device holds
//   gpukit::stream_map(gpukit::RowSource::of(host_view(big)), gpukit::RowDestination::of(host_view(roots)),
//                      [](const gpukit::Chunk& chunk) { return gpukit::sqrt(chunk.interior()); });
//   gpukit::Array total = gpukit::stream_reduce(gpukit::RowSource::of(host_view(big)),
//       [](const gpukit::Chunk& chunk) { return gpukit::sum(chunk.interior()); },
//       [](const gpukit::Array& a, const gpukit::Array& b) { return gpukit::add(a, b); });
//
// Rows are the entries of the first axis (a 1-D input's rows are its elements). The pipeline has
// `buffers` slots, each with a stream of its own, pinned staging for the rows going in and the
// results coming out, and the device array the rows land in. Chunk k takes slot k % buffers: the
// calling thread waits for the slot's previous chunk, hands that chunk's results on from the pinned
// staging, copies the next rows into the pinned staging (with several threads: one thread's memcpy
// is slower than the bus), then queues on the slot's stream the copy to the device, the work and
// the copy back. So chunk k's copy in overlaps chunk k-1's work and chunk k-2's copy out. An input
// in page-locked memory (a PinnedBuffer, gpukit.pinned_empty) without halos skips the staging: the
// copy engine reads it where it is. The work
// is called on the calling thread with the slot's stream current: gpukit operations it calls queue
// there.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/convolution.hpp"
#include "gpukit/histograms.hpp"

namespace gpukit {

// One chunk as the work sees it.
struct Chunk {
    Array data;                    // halo_before + rows + halo_after rows, on the device
    std::int64_t offset = 0;       // the input row the interior starts at
    std::int64_t rows = 0;         // interior rows
    std::int64_t halo_before = 0;  // rows of data before the interior: zeros before the input's start
    std::int64_t halo_after = 0;   // rows of data after the interior: zeros past the input's end
    // The chunk's own rows: data without its halos (a view).
    Array interior() const;
};

namespace detail {
class CopyTeam;
}

// Where the rows come from: host memory gpukit reads from several threads, or a reader called on
// the calling thread that fills staging (an iterator of chunks, a file).
class RowSource {
public:
    // Fills `staging` (rows of the source's dtype and row shape) with up to staging.shape[0] rows;
    // returns how many it wrote, 0 only once the rows have run out.
    using Reader = std::function<std::int64_t(const HostView& staging)>;

    // The rows of a C-contiguous host array (InvalidArgumentError for another layout or a 0-D one).
    static RowSource of(const ConstHostView& host);
    // Rows of `dtype` and `row_shape` from `read`; `total_rows` (-1: not known) is for progress.
    static RowSource reader(DType dtype, Shape row_shape, Reader read, std::int64_t total_rows = -1);
    // The same rows followed by `rows` rows of zeros.
    RowSource then_zeros(std::int64_t rows) &&;

    DType dtype() const noexcept { return dtype_; }
    const Shape& row_shape() const noexcept { return row_shape_; }
    std::int64_t total_rows() const noexcept { return total_rows_; }
    std::int64_t row_bytes() const noexcept;
    // Whether it can be read again from the start (of(); a reader cannot).
    bool rereadable() const noexcept { return !reader_; }
    // A source of the same rows from the start (UsageError for a reader).
    RowSource again() const;

    // Used by the pipeline: the next rows, at most max_rows, into `staging`; how many were written.
    std::int64_t read(std::byte* staging, std::int64_t max_rows, detail::CopyTeam& team);
    // Used by the pipeline where the rows are copied to the device in place: the bytes of of()'s
    // rows (empty for a reader, or with zeros after), and the next rows, at most max_rows, taken
    // without copying (`where` they are).
    std::span<const std::byte> host_bytes() const noexcept;
    std::int64_t take(std::int64_t max_rows, const std::byte*& where);

private:
    RowSource() = default;
    DType dtype_ = DType::float32;
    Shape row_shape_;
    std::int64_t total_rows_ = -1;
    const std::byte* host_ = nullptr;  // of(): the rows, and how far they have been read
    std::int64_t host_rows_ = 0;
    std::int64_t next_row_ = 0;
    Reader reader_;
    bool reader_done_ = false;
    std::int64_t zeros_after_ = 0;  // then_zeros(): rows of zeros after the rows
    std::int64_t zeros_given_ = 0;
};

// Where a map's results go: a C-contiguous host array with a row for each result row, or a
// function that returns, for each run of result rows in order, the host memory they go to.
class RowDestination {
public:
    // The C-contiguous host view result rows [offset, offset + rows) of `dtype` and `row_shape` go to.
    using Place = std::function<HostView(std::int64_t offset, std::int64_t rows, DType dtype, const Shape& row_shape)>;

    static RowDestination of(const HostView& host);
    static RowDestination place(Place place);
    // Only result rows [begin, end) are kept, as rows [0, end - begin) of `inner`.
    static RowDestination window(RowDestination inner, std::int64_t begin, std::int64_t end);

    // Used by the pipeline: `rows` (pinned staging) are result rows from `offset` on.
    void deliver(std::int64_t offset, const ConstHostView& rows, detail::CopyTeam& team) const;

private:
    using Deliver = std::function<void(std::int64_t offset, const ConstHostView& rows, detail::CopyTeam& team)>;
    explicit RowDestination(Deliver deliver) : deliver_(std::move(deliver)) {}
    Deliver deliver_;
};

// One span of a slot's stream, from recorded events: for a timeline of the overlap.
struct StreamingSpan {
    int slot = 0;
    std::int64_t chunk = 0;
    std::string phase;                // "copy in", "work", "copy out"
    double start_ms = 0, end_ms = 0;  // from the first chunk's copy in
};

struct StreamingStats {
    std::int64_t rows = 0, chunks = 0;
    std::int64_t bytes_in = 0, bytes_out = 0;
    bool in_place = false;                // the input was page-locked: copied from where it is, not staged
    double seconds = 0;                   // the whole call, host clock
    std::vector<StreamingSpan> timeline;  // with StreamingOptions::record_timeline
};

struct StreamingOptions {
    // Interior rows per chunk; 0: chosen so that a chunk's input is about 1/(8 * buffers) of the
    // device's free memory, at most 64 MiB.
    std::int64_t chunk_rows = 0;
    // Slots in flight: 2 double buffering, 3 triple; 1 is the plain loop (copy, work, copy back).
    int buffers = 2;
    // Rows of the neighbouring chunks each chunk's data also holds (a convolution's reach); at
    // most chunk_rows each (InvalidArgumentError otherwise).
    std::int64_t halo_before = 0, halo_after = 0;
    // Host threads copying into and out of pinned staging; 0: chosen (every core, up to 16).
    int copy_threads = 0;
    // After each chunk is done, on the calling thread: rows done and the total (-1: not known).
    std::function<void(std::int64_t done, std::int64_t total)> progress;
    // Before each chunk, on the calling thread: throw from it to stop (Ctrl-C). The chunks in
    // flight finish first; the exception then leaves the call.
    std::function<void()> between_chunks;
    // Records every chunk's copy in, work and copy out with events (StreamingStats::timeline).
    bool record_timeline = false;
};

using ChunkWork = std::function<Array(const Chunk& chunk)>;
using Combine = std::function<Array(const Array& accumulated, const Array& partial)>;

// out rows = work(chunk) for every chunk: the work returns the chunk's interior rows' results (or
// as many rows as the chunk's data, halos included, which are dropped), of one dtype and row shape
// for every chunk (InvalidArgumentError naming the chunk otherwise).
StreamingStats stream_map(RowSource in, const RowDestination& out, const ChunkWork& work,
                          const StreamingOptions& options = {});

// combine(...combine(work(chunk 0), work(chunk 1))..., work(chunk n-1)): the partials of the
// chunks each slot ran are combined on that slot's stream, then the slots' in slot order, so
// `combine` must be associative and commutative (as a reduction's is). InvalidArgumentError for
// an input of no rows (there is nothing to combine).
Array stream_reduce(RowSource in, const ChunkWork& work, const Combine& combine, const StreamingOptions& options = {},
                    StreamingStats* stats = nullptr);

// numpy.convolve(x, v, mode) of the 1-D rows of `in` and the device array `v` (1-D, its length at
// most the input's), into `out`: N + M - 1 results (full), N (same) or N - M + 1 (valid). Each
// chunk carries the M - 1 rows before it as a halo.
StreamingStats stream_convolve(RowSource in, const Array& v, ConvolveMode mode, const RowDestination& out,
                               const StreamingOptions& options = {});

// numpy.histogram over every row's values with bins given by `options` (bins and range, or
// edges): the range must be given, or it is found by a first pass over the rows (reading them
// twice; a reader source can be read only once: InvalidArgumentError).
Histogram stream_histogram(RowSource in, const HistogramOptions& options, const StreamingOptions& streaming = {},
                           StreamingStats* stats = nullptr);

}  // namespace gpukit
