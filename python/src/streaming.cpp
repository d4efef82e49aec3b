// python/src/streaming.cpp: the streaming pipeline (gpukit/streaming.hpp) for gpukit.streaming.
//
// A source is a C-contiguous NumPy array (read by gpukit's copy threads) or a reader: a callable
// given a writable NumPy view of pinned staging that returns how many rows it wrote. A
// destination is a C-contiguous NumPy array or a callable (offset, rows, dtype, row_shape) that
// returns the NumPy array those rows go to. Python callables run on the calling thread with the
// GIL; Ctrl-C stops the pipeline between chunks (KeyboardInterrupt once the chunks in flight are done).
#include <nanobind/stl/function.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <optional>

#include "array_arguments.hpp"
#include "bindings.hpp"
#include "gpukit/streaming.hpp"
#include "numpy_bridge.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace gpukit::python {
namespace {

// A NumPy array over host memory gpukit owns, valid while the call that gave it runs.
nb::object numpy_over(std::byte* data, DType dtype, const Shape& shape) {
    const std::int64_t bytes = element_count(shape) * static_cast<std::int64_t>(itemsize(dtype));
    nb::object memory = nb::steal(PyMemoryView_FromMemory(reinterpret_cast<char*>(data), bytes, PyBUF_WRITE));
    if (!memory.is_valid()) nb::raise_python_error();
    nb::tuple extents = nb::steal<nb::tuple>(PyTuple_New(static_cast<Py_ssize_t>(shape.size())));
    for (std::size_t d = 0; d < shape.size(); ++d)
        PyTuple_SET_ITEM(extents.ptr(), static_cast<Py_ssize_t>(d), nb::int_(shape[d]).release().ptr());
    return numpy_module().attr("frombuffer")(memory, numpy_dtype(dtype)).attr("reshape")(extents);
}

nb::tuple shape_tuple(const Shape& shape) {
    nb::list items;
    for (const std::int64_t extent : shape) items.append(extent);
    return nb::tuple(items);
}

// The rows of a NumPy array, or of a reader (dtype, row shape and total rows given with it).
struct Source {
    std::optional<NumpyHost> host;
    std::optional<RowSource> rows;
};

std::unique_ptr<Source> to_source(nb::handle source, nb::handle dtype, nb::handle row_shape, std::int64_t total_rows) {
    auto result = std::make_unique<Source>();
    if (PyCallable_Check(source.ptr())) {
        const DType type = to_dtype(dtype);
        nb::object read = nb::borrow(source);
        result->rows.emplace(RowSource::reader(
            type, to_shape(row_shape, "row_shape"),
            [read, type](const HostView& staging) {
                const nb::object written = read(numpy_over(staging.data, type, staging.shape));
                return nb::cast<std::int64_t>(written);
            },
            total_rows));
    } else {
        result->host.emplace(source, false);
        result->rows.emplace(RowSource::of(result->host->view()));
    }
    return result;
}

// A destination: a NumPy array, or a callable that places each run of rows.
RowDestination to_destination(nb::handle destination, const std::shared_ptr<std::optional<NumpyHost>>& holder) {
    if (PyCallable_Check(destination.ptr())) {
        nb::object place = nb::borrow(destination);
        return RowDestination::place(
            [place, holder](std::int64_t offset, std::int64_t rows, DType dtype, const Shape& row_shape) {
                const nb::object target = place(offset, rows, numpy_dtype(dtype), shape_tuple(row_shape));
                holder->reset();
                holder->emplace(target, true);
                return (*holder)->view();
            });
    }
    holder->emplace(destination, true);
    return RowDestination::of((*holder)->view());
}

StreamingOptions to_options(std::int64_t chunk_rows, int buffers, std::int64_t halo_before, std::int64_t halo_after,
                            int copy_threads, nb::handle progress, bool timeline) {
    StreamingOptions options;
    options.chunk_rows = chunk_rows;
    options.buffers = buffers;
    options.halo_before = halo_before;
    options.halo_after = halo_after;
    options.copy_threads = copy_threads;
    options.record_timeline = timeline;
    if (!progress.is_none()) {
        nb::object call = nb::borrow(progress);
        options.progress = [call](std::int64_t done, std::int64_t total) { call(done, total); };
    }
    options.between_chunks = [] {
        if (PyErr_CheckSignals() != 0) throw nb::python_error();
    };
    return options;
}

nb::dict stats_dict(const StreamingStats& stats) {
    nb::dict result;
    result["rows"] = stats.rows;
    result["chunks"] = stats.chunks;
    result["bytes_in"] = stats.bytes_in;
    result["bytes_out"] = stats.bytes_out;
    result["in_place"] = stats.in_place;
    result["seconds"] = stats.seconds;
    nb::list spans;
    for (const StreamingSpan& span : stats.timeline)
        spans.append(nb::make_tuple(span.slot, span.chunk, span.phase, span.start_ms, span.end_ms));
    result["timeline"] = spans;
    return result;
}

ChunkWork to_work(nb::handle func) {
    nb::object call = nb::borrow(func);
    return [call](const Chunk& chunk) { return nb::cast<Array>(call(chunk)); };
}

}  // namespace

void bind_streaming(nb::module_& m) {
    nb::class_<Chunk>(m, "Chunk", "One chunk of a streamed operation's rows, on the device.")
        .def_ro("data", &Chunk::data, "halo_before + rows + halo_after rows (zeros past the input's ends)")
        .def_ro("offset", &Chunk::offset, "the input row the chunk's own rows start at")
        .def_ro("rows", &Chunk::rows, "the chunk's own rows")
        .def_ro("halo_before", &Chunk::halo_before)
        .def_ro("halo_after", &Chunk::halo_after)
        .def("interior", &Chunk::interior, "data without its halos (a view)");

    m.def(
        "stream_map",
        [](nb::handle func, nb::handle source, nb::handle destination, nb::handle dtype, nb::handle row_shape,
           std::int64_t total_rows, std::int64_t chunk_rows, int buffers, std::int64_t halo_before,
           std::int64_t halo_after, int copy_threads, nb::handle progress, bool timeline) {
            const auto in = to_source(source, dtype, row_shape, total_rows);
            auto holder = std::make_shared<std::optional<NumpyHost>>();
            const RowDestination out = to_destination(destination, holder);
            return stats_dict(
                stream_map(*in->rows, out, to_work(func),
                           to_options(chunk_rows, buffers, halo_before, halo_after, copy_threads, progress, timeline)));
        },
        "func"_a, "source"_a, "destination"_a, "dtype"_a.none() = nb::none(), "row_shape"_a = nb::tuple(),
        "total_rows"_a = -1, "chunk_rows"_a = 0, "buffers"_a = 2, "halo_before"_a = 0, "halo_after"_a = 0,
        "copy_threads"_a = 0, "progress"_a.none() = nb::none(), "timeline"_a = false,
        "func(chunk) for every chunk of the source's rows, its rows to the destination (gpukit.streaming.map).");

    m.def(
        "stream_reduce",
        [](nb::handle func, nb::handle combine, nb::handle source, nb::handle dtype, nb::handle row_shape,
           std::int64_t total_rows, std::int64_t chunk_rows, int buffers, int copy_threads, nb::handle progress,
           bool timeline) {
            const auto in = to_source(source, dtype, row_shape, total_rows);
            nb::object join = nb::borrow(combine);
            StreamingStats stats;
            Array total = stream_reduce(
                *in->rows, to_work(func),
                [join](const Array& a, const Array& b) { return nb::cast<Array>(join(a, b)); },
                to_options(chunk_rows, buffers, 0, 0, copy_threads, progress, timeline), &stats);
            return nb::make_tuple(nb::cast(std::move(total)), stats_dict(stats));
        },
        "func"_a, "combine"_a, "source"_a, "dtype"_a.none() = nb::none(), "row_shape"_a = nb::tuple(),
        "total_rows"_a = -1, "chunk_rows"_a = 0, "buffers"_a = 2, "copy_threads"_a = 0,
        "progress"_a.none() = nb::none(), "timeline"_a = false,
        "combine(... combine(func(chunk 0), func(chunk 1)) ...) over every chunk (gpukit.streaming.reduce).");

    m.def(
        "stream_histogram",
        [](nb::handle source, nb::handle bins, std::optional<std::pair<double, double>> range, bool density,
           nb::handle dtype, nb::handle row_shape, std::int64_t total_rows, std::int64_t chunk_rows, int buffers,
           int copy_threads, nb::handle progress) {
            const auto in = to_source(source, dtype, row_shape, total_rows);
            HistogramOptions options;
            if (nb::isinstance<Array>(bins))
                options.bins = to_array(bins, "bins");
            else if (nb::isinstance<nb::str>(bins))
                options.bins = nb::cast<std::string>(bins);
            else
                options.bins = nb::cast<std::int64_t>(bins);
            options.range = range;
            options.density = density;
            StreamingStats stats;
            Histogram result = stream_histogram(
                *in->rows, options, to_options(chunk_rows, buffers, 0, 0, copy_threads, progress, false), &stats);
            return nb::make_tuple(nb::cast(std::move(result.hist)), nb::cast(std::move(result.edges)),
                                  stats_dict(stats));
        },
        "source"_a, "bins"_a, "range"_a.none() = nb::none(), "density"_a = false, "dtype"_a.none() = nb::none(),
        "row_shape"_a = nb::tuple(), "total_rows"_a = -1, "chunk_rows"_a = 0, "buffers"_a = 2, "copy_threads"_a = 0,
        "progress"_a.none() = nb::none(), "numpy.histogram over every row (gpukit.streaming.histogram).");

    m.def(
        "stream_convolve",
        [](nb::handle source, nb::handle v, const std::string& mode, nb::handle destination, nb::handle dtype,
           std::int64_t total_rows, std::int64_t chunk_rows, int buffers, int copy_threads, nb::handle progress,
           bool timeline) {
            const auto in = to_source(source, dtype, nb::tuple(), total_rows);
            auto holder = std::make_shared<std::optional<NumpyHost>>();
            const RowDestination out = to_destination(destination, holder);
            return stats_dict(stream_convolve(*in->rows, to_array(v, "v"), convolve_mode_from_name(mode), out,
                                              to_options(chunk_rows, buffers, 0, 0, copy_threads, progress, timeline)));
        },
        "source"_a, "v"_a, "mode"_a, "destination"_a, "dtype"_a.none() = nb::none(), "total_rows"_a = -1,
        "chunk_rows"_a = 0, "buffers"_a = 2, "copy_threads"_a = 0, "progress"_a.none() = nb::none(),
        "timeline"_a = false, "numpy.convolve of the streamed rows and v (gpukit.streaming.convolve).");
}

}  // namespace gpukit::python
