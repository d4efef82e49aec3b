// src/ops/streaming/pipeline.cpp: stream_map and stream_reduce (gpukit/streaming.hpp): chunks of
// rows through pinned staging and the device, `buffers` of them in flight on streams of their own.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <optional>
#include <thread>
#include <vector>

#include "backends/backend.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/event.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/streaming.hpp"
#include "ops/streaming/copy_team.hpp"
#include "ops/streaming/kept.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

Array Chunk::interior() const {
    if (halo_before == 0 && halo_after == 0) return data;
    return data.index({Slice{halo_before, halo_before + rows, std::nullopt}});
}

namespace {

// 64 MiB chunks beat 256 MiB ones on pageable input (H200 host, 16 GiB: 78 % of the pinned copy
// rate against 51 %), and their staging, in and out for 3 buffers, fits what kept.cpp keeps.
constexpr std::size_t largest_chunk_bytes = std::size_t{64} << 20;
constexpr int most_buffers = 8;

// The events that time one chunk's phases on its slot's stream.
struct ChunkEvents {
    int slot = 0;
    std::int64_t chunk = 0;
    Event start, copied_in, worked, copied_out;
};

// One slot: a stream and what a chunk in flight on it uses.
struct Slot {
    Stream stream;  // declared first: destroyed last, after the arrays made in its order
    std::optional<detail::StagingLoan> staging_in;
    const std::byte* rows_in = nullptr;  // where the chunk's rows are: the staging, or a pinned input in place
    std::int64_t staged_rows = 0;        // rows of the staging filled from the input (or zeros before its start)
    std::optional<Array> device_in;
    Event done;
    bool in_flight = false;
    // The chunk in flight.
    std::int64_t offset = 0;
    std::int64_t rows = 0;
    // A map's results: on the device until copied back, then in the pinned staging.
    std::optional<Array> result;
    std::optional<detail::StagingLoan> staging_out;
    // A reduction's partials combined so far.
    std::optional<Array> accumulated;

    explicit Slot(Device device) : stream(device), done(device, EventFlags::no_timing) {}
};

// What every streamed operation shares: the chunking, the slots and the order of their work.
class Pipeline {
public:
    Pipeline(RowSource& in, const StreamingOptions& options);
    ~Pipeline();
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    // Runs every chunk: `enqueue` queues a chunk's work on its slot's stream (current while it
    // runs), then `copy_out` (if any) its results' copy back; `hand_on` hands on a slot's finished
    // chunk. Chunks are handed on in order.
    void run(const std::function<void(Slot&, const Chunk&)>& enqueue, const std::function<void(Slot&)>& copy_out,
             const std::function<void(Slot&)>& hand_on);

    std::vector<Slot>& slots() { return slots_; }
    detail::CopyTeam& team() { return *team_; }
    std::int64_t chunk_rows() const { return chunk_rows_; }
    // Waits for every slot's stream (the pipeline's work and whatever else was queued there).
    void drain();
    StreamingStats finish(std::int64_t bytes_out);

private:
    // Fills slot `slot`'s staging for chunk `chunk`; the chunk's interior rows (0: no rows left).
    std::int64_t fill(int slot, std::int64_t chunk);
    // Makes the slot's device array (and its staging, unless the input is copied in place) at first use.
    void prepare(Slot& slot);
    // Waits for the slot's chunk in flight, if any, and hands it on.
    void retire(Slot& slot, const std::function<void(Slot&)>& hand_on);

    RowSource& in_;
    const StreamingOptions& options_;
    Device device_;
    std::int64_t row_bytes_ = 0;
    std::int64_t chunk_rows_ = 0;
    std::int64_t hb_ = 0, ha_ = 0;
    std::vector<Slot> slots_;
    detail::CopyTeamLoan team_;
    std::vector<ChunkEvents> events_;
    std::int64_t rows_done_ = 0, chunks_ = 0, bytes_in_ = 0;
    bool source_ended_ = false;  // the last chunk is filled
    bool input_ended_ = false;   // the input has no more rows to read
    bool in_place_ = false;      // the input is page-locked: copied to the device from where it is
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

int copy_threads_for(const StreamingOptions& options) {
    if (options.copy_threads < 0)
        throw InvalidArgumentError(concat("streaming: copy_threads is ", options.copy_threads, "; 0 chooses"));
    if (options.copy_threads > 0) return options.copy_threads;
    // Every core: copying into pinned memory is what limits the pipeline (16 threads on a 16-core
    // host carried 1.7x what 8 did). Page-locking the caller's pages in place instead, a part of
    // each chunk (cuMemHostRegister on a thread of its own), was slower on an H200 host: register
    // ran at 23-40 GiB/s, but cuMemHostUnregister waits for all the device's queued work (167 ms
    // behind an 8 GiB copy), so each chunk's release stalled behind the copies in flight.
    return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));
}

std::int64_t chosen_chunk_rows(const Device& device, const RowSource& in, const StreamingOptions& options) {
    const std::int64_t row_bytes = std::max<std::int64_t>(in.row_bytes(), 1);
    const std::size_t free_bytes = device.memory_info().free_bytes;
    const std::size_t target =
        std::min(largest_chunk_bytes, free_bytes / (8 * static_cast<std::size_t>(options.buffers)));
    std::int64_t rows = std::max<std::int64_t>(1, static_cast<std::int64_t>(target) / row_bytes);
    if (in.total_rows() >= 0) rows = std::min(rows, std::max<std::int64_t>(in.total_rows(), 1));
    return std::max({rows, options.halo_before, options.halo_after});
}

Pipeline::Pipeline(RowSource& in, const StreamingOptions& options)
    : in_(in), options_(options), device_(Device::current()), team_(copy_threads_for(options)) {
    if (options.buffers < 1 || options.buffers > most_buffers)
        throw InvalidArgumentError(
            concat("streaming: buffers is ", options.buffers, "; 1 to ", most_buffers, " chunks can be in flight"));
    if (options.halo_before < 0 || options.halo_after < 0)
        throw InvalidArgumentError(concat("streaming: a halo of ", std::min(options.halo_before, options.halo_after),
                                          " rows; halos are 0 or more"));
    if (options.chunk_rows < 0)
        throw InvalidArgumentError(concat("streaming: chunk_rows is ", options.chunk_rows, "; 0 chooses"));
    row_bytes_ = in.row_bytes();
    hb_ = options.halo_before, ha_ = options.halo_after;
    chunk_rows_ = options.chunk_rows > 0 ? options.chunk_rows : chosen_chunk_rows(device_, in, options);
    if (hb_ > chunk_rows_ || ha_ > chunk_rows_)
        throw InvalidArgumentError(concat("streaming: a halo of ", std::max(hb_, ha_),
                                          " rows is larger than a chunk of ", chunk_rows_,
                                          " rows: make chunk_rows at least the halo"));
    // A page-locked input (gpukit.pinned_empty's) needs no staging: the copy engine reads it in place.
    const std::span<const std::byte> host = in.host_bytes();
    in_place_ = hb_ == 0 && ha_ == 0 && !host.empty() &&
                device_.backend().host_range_is_pinned(device_.ordinal(), host.data(), host.size());
    slots_.reserve(static_cast<std::size_t>(options.buffers));
    for (int index = 0; index < options.buffers; ++index) slots_.emplace_back(device_);
}

Pipeline::~Pipeline() {
    // The pinned staging and device arrays go with the slots: their streams must be done with them.
    for (Slot& slot : slots_) {
        try {
            slot.stream.synchronize();
        } catch (...) {  // the error was, or will be, raised where the work was waited for
        }
    }
}

void Pipeline::drain() {
    for (Slot& slot : slots_) slot.stream.synchronize();
}

void Pipeline::prepare(Slot& slot) {
    if (slot.device_in) return;
    const std::int64_t capacity = hb_ + chunk_rows_ + ha_;
    Shape shape = in_.row_shape();
    shape.insert(shape.begin(), capacity);
    if (!in_place_) slot.staging_in.emplace(device_, static_cast<std::size_t>(capacity * row_bytes_));
    StreamScope scope(slot.stream);
    slot.device_in = Array::empty(shape, in_.dtype(), device_);
}

void Pipeline::retire(Slot& slot, const std::function<void(Slot&)>& hand_on) {
    if (!slot.in_flight) return;
    slot.done.synchronize();
    hand_on(slot);
    slot.in_flight = false;
    rows_done_ += slot.rows;
    if (options_.progress) options_.progress(rows_done_, in_.total_rows());
}

std::int64_t Pipeline::fill(int slot_index, std::int64_t chunk) {
    Slot& slot = slots_[static_cast<std::size_t>(slot_index)];
    prepare(slot);
    if (in_place_) {
        const std::int64_t rows = in_.take(chunk_rows_, slot.rows_in);
        if (rows < chunk_rows_) source_ended_ = true;
        return rows;
    }
    // The staging holds the rows from the chunk's start - hb_: `have` of them are rows of the input
    // (or, before its start, zeros); past the input's end come zeros.
    const std::int64_t capacity = hb_ + chunk_rows_ + ha_;
    std::byte* staging = slot.staging_in->data();
    slot.rows_in = staging;
    const auto row = static_cast<std::size_t>(row_bytes_);
    std::int64_t have = 0;
    if (chunk == 0) {
        team().zero(staging, static_cast<std::size_t>(hb_) * row);
        have = hb_;
    } else {
        // The previous chunk's last interior rows are this one's halo before, its halo after this
        // one's first rows: they start at its row chunk_rows_, and as many as it had are carried.
        const Slot& previous = slots_[static_cast<std::size_t>((slot_index + options_.buffers - 1) % options_.buffers)];
        have = std::clamp<std::int64_t>(previous.staged_rows - chunk_rows_, 0, hb_ + ha_);
        const std::byte* carried = previous.staging_in->data() + static_cast<std::size_t>(chunk_rows_) * row;
        if (&previous == &slot)  // one buffer: within the staging, perhaps overlapping
            std::memmove(staging, carried, static_cast<std::size_t>(have) * row);
        else
            team().copy(staging, carried, static_cast<std::size_t>(have) * row);
    }
    if (!input_ended_) {
        have += in_.read(staging + static_cast<std::size_t>(have) * row, capacity - have, team());
        input_ended_ = have < capacity;
    }
    slot.staged_rows = have;
    const std::int64_t rows = std::clamp<std::int64_t>(have - hb_, 0, chunk_rows_);
    // The last chunk: no row of the input after its interior (a short read may leave up to ha_
    // rows past a whole chunk, the next chunk's).
    if (input_ended_ && have <= hb_ + chunk_rows_) source_ended_ = true;
    const std::int64_t used = hb_ + rows + ha_;
    if (rows > 0 && have < used)
        team().zero(staging + static_cast<std::size_t>(have) * row, static_cast<std::size_t>(used - have) * row);
    return rows;
}

void Pipeline::run(const std::function<void(Slot&, const Chunk&)>& enqueue, const std::function<void(Slot&)>& copy_out,
                   const std::function<void(Slot&)>& hand_on) {
    const int buffers = options_.buffers;
    std::int64_t chunk = 0;
    bool more = true;
    while (more) {
        if (options_.between_chunks) options_.between_chunks();
        const int index = static_cast<int>(chunk % buffers);
        Slot& slot = slots_[static_cast<std::size_t>(index)];
        retire(slot, hand_on);
        const std::int64_t rows = fill(index, chunk);
        if (rows == 0) break;
        const std::int64_t data_rows = hb_ + rows + ha_;
        const Chunk view{data_rows == slot.device_in->shape()[0]
                             ? *slot.device_in
                             : slot.device_in->index({Slice{0, data_rows, std::nullopt}}),
                         chunk * chunk_rows_, rows, hb_, ha_};
        {
            StreamScope scope(slot.stream);
            ChunkEvents* timing = nullptr;
            if (options_.record_timeline) {
                timing = &events_.emplace_back(
                    ChunkEvents{index, chunk, Event(device_), Event(device_), Event(device_), Event(device_)});
                timing->start.record(slot.stream);
            }
            const std::size_t bytes = static_cast<std::size_t>(data_rows * row_bytes_);
            copy_async(BufferView(device_, view.data.address(), bytes), std::span<const std::byte>(slot.rows_in, bytes),
                       slot.stream);
            if (timing) timing->copied_in.record(slot.stream);
            slot.offset = view.offset;
            slot.rows = rows;
            enqueue(slot, view);
            if (timing) timing->worked.record(slot.stream);
            if (copy_out) copy_out(slot);
            if (timing) timing->copied_out.record(slot.stream);
            slot.done.record(slot.stream);
        }
        slot.in_flight = true;
        bytes_in_ += static_cast<std::int64_t>(rows) * row_bytes_;
        ++chunks_;
        ++chunk;
        more = !source_ended_;  // a fill that found the rows' end made the last chunk
    }
    // The chunks still in flight, in order.
    for (int step = 0; step < buffers; ++step)
        retire(slots_[static_cast<std::size_t>((chunk + step) % buffers)], hand_on);
}

StreamingStats Pipeline::finish(std::int64_t bytes_out) {
    StreamingStats stats;
    stats.rows = rows_done_;
    stats.chunks = chunks_;
    stats.bytes_in = bytes_in_;
    stats.bytes_out = bytes_out;
    stats.in_place = in_place_;
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (!events_.empty()) {
        const Event& first = events_.front().start;
        for (const ChunkEvents& e : events_) {
            const auto add = [&](const char* phase, const Event& from, const Event& to) {
                stats.timeline.push_back(StreamingSpan{e.slot, e.chunk, phase, Event::elapsed_ms(first, from),
                                                       Event::elapsed_ms(first, to)});
            };
            add("copy in", e.start, e.copied_in);
            add("work", e.copied_in, e.worked);
            add("copy out", e.worked, e.copied_out);
        }
    }
    return stats;
}

// The rows of `result` a map keeps for `chunk`: all of them, or the interior's of a result with
// the chunk's data rows.
Array kept_rows(const Array& result, const Chunk& chunk) {
    const std::int64_t data_rows = chunk.data.shape()[0];
    if (result.ndim() == 0)
        throw InvalidArgumentError(concat("streaming map: the work returned a 0-D array for the chunk at row ",
                                          chunk.offset, "; it must return the chunk's rows"));
    if (result.shape()[0] == chunk.rows) return result;
    if (result.shape()[0] == data_rows)
        return result.index({Slice{chunk.halo_before, chunk.halo_before + chunk.rows, std::nullopt}});
    throw InvalidArgumentError(concat("streaming map: the work returned ", result.shape()[0],
                                      " rows for the chunk at row ", chunk.offset, " of ", chunk.rows, " rows",
                                      data_rows != chunk.rows ? concat(" (", data_rows, " with its halos)") : "",
                                      "; it must return one row per row"));
}

}  // namespace

StreamingStats stream_map(RowSource in, const RowDestination& out, const ChunkWork& work,
                          const StreamingOptions& options) {
    if (!work) throw InvalidArgumentError("streaming map: the work is empty");
    Pipeline pipeline(in, options);
    std::optional<std::pair<DType, Shape>> result_rows;  // the first chunk's, which every chunk's must match
    std::int64_t bytes_out = 0;
    const auto enqueue = [&](Slot& slot, const Chunk& chunk) {
        Array result = kept_rows(work(chunk), chunk);
        if (result.device() != chunk.data.device())
            throw InvalidArgumentError("streaming map: the work returned an array on another device");
        const Shape row_shape(result.shape().begin() + 1, result.shape().end());
        if (!result_rows) result_rows.emplace(result.dtype(), row_shape);
        if (result.dtype() != result_rows->first || row_shape != result_rows->second)
            throw InvalidArgumentError(concat("streaming map: the work returned rows of ", to_string(result.dtype()),
                                              " ", format_shape(row_shape), " for the chunk at row ", chunk.offset,
                                              ", and rows of ", to_string(result_rows->first), " ",
                                              format_shape(result_rows->second), " before"));
        slot.result = result.is_c_contiguous() ? std::move(result) : result.copy();
    };
    const auto copy_out = [&](Slot& slot) {
        const Array& result = *slot.result;
        const auto bytes = static_cast<std::size_t>(result.nbytes());
        const std::size_t capacity = static_cast<std::size_t>(pipeline.chunk_rows()) *
                                     static_cast<std::size_t>(element_count(result_rows->second)) *
                                     static_cast<std::size_t>(result.itemsize());
        if (!slot.staging_out || slot.staging_out->size_bytes() < capacity)
            slot.staging_out.emplace(result.device(), std::max<std::size_t>(capacity, 1));
        copy_async(std::span<std::byte>(slot.staging_out->data(), bytes),
                   BufferView(result.device(), result.address(), bytes), slot.stream);
        result.memory()->mark_used_by_launch(slot.stream);
    };
    const auto retire = [&](Slot& slot) {
        const Array& result = *slot.result;
        const ConstHostView rows(slot.staging_out->data(), result.dtype(), result.shape());
        out.deliver(slot.offset, rows, pipeline.team());
        bytes_out += result.nbytes();
        slot.result.reset();
    };
    pipeline.run(enqueue, copy_out, retire);
    return pipeline.finish(bytes_out);
}

Array stream_reduce(RowSource in, const ChunkWork& work, const Combine& combine, const StreamingOptions& options,
                    StreamingStats* stats) {
    if (!work || !combine) throw InvalidArgumentError("streaming reduce: the work or the combine is empty");
    Pipeline pipeline(in, options);
    const auto enqueue = [&](Slot& slot, const Chunk& chunk) {
        Array partial = work(chunk);
        slot.accumulated = slot.accumulated ? combine(*slot.accumulated, partial) : std::move(partial);
    };
    pipeline.run(enqueue, nullptr, [](Slot&) {});
    pipeline.drain();
    std::optional<Array> total;
    for (Slot& slot : pipeline.slots()) {
        if (!slot.accumulated) continue;
        total = total ? combine(*total, *slot.accumulated) : *slot.accumulated;
        slot.accumulated.reset();
    }
    if (!total) throw InvalidArgumentError("streaming reduce: the input has no rows, so there is nothing to reduce");
    if (stats) *stats = pipeline.finish(0);
    return *total;
}

}  // namespace gpukit
