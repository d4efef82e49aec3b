// src/ops/scan/scan.cpp: the built-in scans (include/gpukit/scans.hpp): each a row of
// src/ops/scans.def, its dtypes chosen as NumPy's, its lines planned (plan.hpp), its kernel shape
// chosen, generated (generator.hpp) and launched on the current stream.
//
// Kernels: on a GPU one per (scan, dtypes, shape, vector widths), compiled on first use; on the
// simulator one module per scan holding every input dtype's loop in every shape.
// Scratch: each stream has a buffer holding the ticket count (zero between launches) and the
// look-back state of the tiles; status words carry the launch's epoch, counted here per buffer.
#include "gpukit/scans.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "array/device_copy.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"
#include "gpukit/promotion.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/reduction/generator.hpp"
#include "ops/scan/generator.hpp"
#include "ops/scan/plan.hpp"
#include "util/text.hpp"

namespace gpukit::detail {

ScanDTypes scan_dtypes(DType input, std::optional<DType> dtype) {
    const auto half = [](DType d) { return d == DType::float16 || d == DType::bfloat16; };
    if (dtype) return {input, half(*dtype) ? DType::float32 : *dtype, *dtype};
    if (half(input)) return {input, DType::float32, input};
    const DTypeKind input_kind = kind(input);
    if (input_kind == DTypeKind::unsigned_integer) return {input, DType::uint64, DType::uint64};
    if (input_kind == DTypeKind::boolean || input_kind == DTypeKind::signed_integer)
        return {input, DType::int64, DType::int64};
    return {input, input, input};
}

namespace {

// ---- the table

enum class ScanId : std::uint8_t {
#define GPUKIT_SCAN(name, ...) name,
#include "ops/scans.def"
#undef GPUKIT_SCAN
};

struct Scan {
    ScanId id;
    std::string_view name;
    ScanExpressions expressions;
};

const Scan& scan(ScanId id) {
    static const std::array table = {
#define GPUKIT_SCAN(name, identity, map, reduce) Scan{ScanId::name, #name, {identity, map, reduce}},
#include "ops/scans.def"
#undef GPUKIT_SCAN
    };
    return table[static_cast<std::size_t>(id)];
}

// ---- kernels

Module compile_scan(const std::string& source, const Device& device) {
    CompileOptions options;
    options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
    options.header(std::string(reduction_header_name), std::string(reduction_header()));
    options.header(std::string(scan_header_name), std::string(scan_header()));
    options.program_name = "gpukit_scan.cu";
    return Module::compile(source, options, device);
}

constexpr ScanClass kernel_shapes[] = {ScanClass::tiles, ScanClass::lines, ScanClass::columns};

// The kernel running `spec` of `scan` on `device`: per key on a GPU; on the simulator from the
// scan's module of every input dtype (or a module of its own for a dtype= loop).
Kernel scan_kernel(const Scan& scan, const ScanKernelSpec& spec, const Device& device, bool simulated,
                   bool gpu_shapes) {
    using Key = std::tuple<const void*, int, bool, ScanId, DType, DType, DType, ScanClass, int, bool, bool>;
    static std::mutex mutex;
    static auto* kernels = new std::map<Key, Kernel>;  // never destroyed: kernels outlive static destruction
    const auto key_of = [&](const ScanKernelSpec& s) {
        return std::make_tuple(static_cast<const void*>(&device.backend_info()), device.ordinal(), gpu_shapes, scan.id,
                               s.dtypes.input, s.dtypes.accumulator, s.dtypes.output, s.shape, s.vector_width,
                               s.vector_output, s.streaming);
    };
    const Key key = key_of(spec);
    {
        std::lock_guard lock(mutex);
        if (auto found = kernels->find(key); found != kernels->end()) return found->second;
    }
    std::vector<ScanKernelSpec> specs;
    if (simulated && !gpu_shapes && spec.dtypes == scan_dtypes(spec.dtypes.input, std::nullopt)) {
        for (const DTypeInfo& info : dtype_table)
            for (const ScanClass shape : kernel_shapes) specs.push_back({scan_dtypes(info.dtype, std::nullopt), shape});
    } else {
        specs.push_back(spec);
    }
    // Compiled outside the lock: the compile cache makes a race harmless (same source, same module).
    const Module module = compile_scan(generate_scan(scan.expressions, specs, simulated, gpu_shapes), device);
    std::lock_guard lock(mutex);
    for (std::size_t index = 0; index < specs.size(); ++index)
        kernels->try_emplace(key_of(specs[index]), module.kernel(scan_kernel_name(specs[index].shape, index)));
    return kernels->at(key);
}

// ---- scratch

// Mirrors gk_scan_params of kernels/gpukit_scan.cuh.
constexpr std::size_t max_dims = 8;
struct ScanParams {
    std::uint64_t input, output;
    std::uint64_t counter, statuses, aggregates, prefixes;
    std::int64_t outer_shape[max_dims], outer_input[max_dims], outer_output[max_dims];
    std::int64_t lines, length;
    std::int64_t input_step, output_step;
    std::int64_t tile, tiles_per_line, tiles;
    std::int32_t outer_ndim;
    std::uint32_t epoch;
};

constexpr std::uint32_t last_epoch = (1u << 30) - 1;  // status words keep the epoch in 30 bits
// Each look-back slot's status word, 8 bytes: accumulators of up to 4 bytes travel in it (gk_look_back_slots).
constexpr std::int64_t status_bytes = 8;

std::int64_t round_up(std::int64_t n, std::int64_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// The stream's scratch for `tiles` look-back slots of `value_bytes` values, and the epoch of this launch.
// Kept per stream (work on one stream runs in order); device memory of its own, not the pool's. A
// buffer outgrown stays allocated (launches queued before may still use it).
struct Scratch {
    std::uint64_t counter, statuses, aggregates, prefixes;
    std::uint32_t epoch;
};
Scratch scratch_for(const Device& device, const StreamRef& stream, std::int64_t tiles, std::int64_t value_bytes) {
    struct Entry {
        StreamRef stream;
        std::shared_ptr<DeviceBuffer> buffer;
        std::int64_t tiles = 0, value_bytes = 0;
        std::uint32_t epoch = 0;
    };
    using Key = std::tuple<const void*, int, void*>;
    static std::mutex mutex;
    static auto* buffers = new std::map<Key, Entry>;
    static auto* outgrown = new std::vector<std::shared_ptr<DeviceBuffer>>;
    const Key key{&device.backend_info(), device.ordinal(), stream.native_handle()};
    const auto zero = [&](std::uint64_t address, std::int64_t bytes) {
        const BufferView view(device, address, static_cast<std::size_t>(bytes));
        if (stream.is_default())
            memset(view, 0);
        else
            memset_async(view, 0, stream);
    };
    std::lock_guard lock(mutex);
    auto found = buffers->find(key);
    const bool fits = found != buffers->end() && found->second.stream == stream && found->second.tiles >= tiles &&
                      found->second.value_bytes >= value_bytes;
    if (!fits) {
        Entry entry{stream, nullptr, std::max<std::int64_t>(tiles, 4096), std::max<std::int64_t>(value_bytes, 16)};
        if (found != buffers->end() && found->second.stream == stream) {
            entry.tiles = std::max(entry.tiles, found->second.tiles);
            entry.value_bytes = std::max(entry.value_bytes, found->second.value_bytes);
            outgrown->push_back(found->second.buffer);
        }
        const std::int64_t bytes =
            256 + round_up(entry.tiles * status_bytes, 256) + 2 * round_up(entry.tiles * entry.value_bytes, 256);
        entry.buffer = std::make_shared<DeviceBuffer>(device, static_cast<std::size_t>(bytes));
        zero(entry.buffer->address(), 256 + round_up(entry.tiles * status_bytes, 256));  // the count and the statuses
        found = buffers->insert_or_assign(key, std::move(entry)).first;
    }
    Entry& entry = found->second;
    if (entry.epoch == last_epoch) {  // every status word could be mistaken for this launch's: clear them
        zero(entry.buffer->address() + 256, round_up(entry.tiles * status_bytes, 256));
        entry.epoch = 0;
    }
    const std::uint64_t base = entry.buffer->address();
    const auto statuses = base + 256;
    const auto aggregates = statuses + static_cast<std::uint64_t>(round_up(entry.tiles * status_bytes, 256));
    const auto prefixes = aggregates + static_cast<std::uint64_t>(round_up(entry.tiles * entry.value_bytes, 256));
    return {base, statuses, aggregates, prefixes, ++entry.epoch};
}

// ---- launching

void copy_dims(std::span<const std::int64_t> from, std::int64_t* to) { std::copy(from.begin(), from.end(), to); }

bool aligned16(std::uint64_t address, std::span<const std::int64_t> strides) {
    return address % 16 == 0 && std::all_of(strides.begin(), strides.end(), [](std::int64_t s) { return s % 16 == 0; });
}

constexpr std::int64_t tile_threads = 256;  // GK_SCAN_THREADS
// GK_SCAN_COLUMN_ROWS: a split column's segment, in elements of `bytes`.
std::int64_t column_rows(std::int64_t bytes) { return 128 / std::max<std::int64_t>(bytes, 4); }
// GK_SCAN_ROUNDS: loads of `width` elements per thread of a tile accumulating in `accumulator_bytes`.
std::int64_t tile_rounds(std::int64_t width, std::size_t accumulator_bytes) {
    return width >= 4 ? (accumulator_bytes <= 4 ? 48 : 16) / width : 4;
}

void launch_scan(const Scan& scan, const ScanDTypes& dtypes, const Array& input, const ScanLayout& layout,
                 const Array& result) {
    const Device device = input.device();
    const bool simulated = device.backend_info().capabilities.simulated;
    const bool chunked = simulated && !specialized_elementwise_on_simulator();
    const StreamRef stream = current_stream(device);
    const std::int64_t processors = std::max(1, device.properties().multiprocessor_count);
    if (layout.outer.size() > max_dims)
        throw InvalidArgumentError(
            concat("scans take arrays of up to ", max_dims + 1, " dimensions after merging contiguous ones"));

    ScanParams params{};
    copy_dims(layout.outer, params.outer_shape);
    copy_dims(layout.outer_input, params.outer_input);
    copy_dims(layout.outer_output, params.outer_output);
    params.outer_ndim = static_cast<std::int32_t>(layout.outer.size());
    params.lines = layout.lines;
    params.length = layout.length;
    params.input_step = layout.input_step;
    params.output_step = layout.output_step;
    params.tiles_per_line = 1;

    ScanKernelSpec spec{dtypes, ScanClass::lines};
    LaunchConfig config;
    config.stream = stream;
    const std::int64_t total = layout.lines * layout.length;
    if (chunked) {
        // Each simulated thread a contiguous chunk (few long lines cut into a tile per block) or
        // whole lines, a few blocks per worker.
        config.block = Dim3(32);
        if (layout.lines < 64 && layout.length >= 4096) {
            spec.shape = ScanClass::tiles;
            params.tiles_per_line =
                std::clamp<std::int64_t>((4 * processors + layout.lines - 1) / layout.lines, 1, layout.length / 1024);
        } else {
            spec.shape = layout.adjacent_lines ? ScanClass::columns : ScanClass::lines;
            const std::int64_t units = layout.adjacent_lines ? (layout.lines + 63) / 64 : layout.lines;
            config.grid = Dim3(static_cast<std::uint32_t>(std::clamp<std::int64_t>(
                std::min(total / (std::int64_t{32} * 4096), (units + 31) / 32), 1, 4 * processors)));
        }
    } else if (layout.adjacent_lines) {
        // A thread per line; few lines split their axis into segments (held in registers) linked by look-back.
        spec.shape = ScanClass::columns;
        const std::int64_t groups = (layout.lines + tile_threads - 1) / tile_threads;
        const std::int64_t rows = column_rows(input.itemsize());
        config.block = Dim3(static_cast<std::uint32_t>(tile_threads));
        config.grid = Dim3(static_cast<std::uint32_t>(groups));
        if (groups < 2 * processors && layout.length > rows) {
            params.tile = rows;
            params.tiles_per_line = (layout.length + rows - 1) / rows;
            params.tiles = params.tiles_per_line * groups;
            config.grid = Dim3(static_cast<std::uint32_t>(params.tiles));
        }
    } else {
        // 16-byte loads (and stores) where the lines are contiguous and aligned.
        const std::int64_t in_size = input.itemsize(), out_size = result.itemsize();
        if (layout.input_step == in_size && in_size < 16 && aligned16(launch_address(input), layout.outer_input))
            spec.vector_width = static_cast<int>(16 / in_size);
        spec.vector_output = spec.vector_width > 1 && layout.output_step == out_size &&
                             aligned16(launch_address(result), layout.outer_output);
        config.block = Dim3(static_cast<std::uint32_t>(tile_threads));
        if (layout.length > 1024) {  // tiles
            spec.shape = ScanClass::tiles;
            const auto bytes = static_cast<std::size_t>(total * (in_size + out_size));
            spec.streaming = spec.vector_width > 1 && bytes > device.properties().l2_cache_bytes;
            params.tile =
                tile_threads * tile_rounds(spec.vector_width, itemsize(dtypes.accumulator)) * spec.vector_width;
        } else {  // a warp per line
            config.grid =
                Dim3(static_cast<std::uint32_t>((layout.lines + tile_threads / 32 - 1) / (tile_threads / 32)));
        }
    }
    if (spec.shape == ScanClass::tiles) {
        if (chunked) params.tile = (layout.length + params.tiles_per_line - 1) / params.tiles_per_line;
        params.tiles_per_line = (layout.length + params.tile - 1) / params.tile;
        params.tiles = params.tiles_per_line * layout.lines;
        config.grid = Dim3(static_cast<std::uint32_t>(params.tiles));
    }
    if (params.tiles > std::numeric_limits<std::int32_t>::max())  // a grid's blocks, a ticket's count
        throw InvalidArgumentError(concat("a scan of ", total, " elements needs more tiles than a launch has blocks"));

    if (params.tiles > 0) {
        // Look-back slots: one per tile, or per (segment, line) of split columns.
        const std::int64_t slots =
            spec.shape == ScanClass::columns ? params.tiles_per_line * layout.lines : params.tiles;
        const Scratch scratch =
            scratch_for(device, stream, slots, static_cast<std::int64_t>(itemsize(dtypes.accumulator)));
        params.counter = scratch.counter;
        params.statuses = scratch.statuses;
        params.aggregates = scratch.aggregates;
        params.prefixes = scratch.prefixes;
        params.epoch = scratch.epoch;
    }
    params.input = launch_address(input, stream);
    params.output = launch_address(result, stream);
    scan_kernel(scan, spec, device, simulated, !chunked)(config, params);
}

Array run_scan(ScanId id, const Array& a, const ScanOptions& options) {
    raise_deferred_launch_error();
    const Scan& scan = detail::scan(id);
    // No axis: the flattened array (C order); a 0-d array scans as one element.
    const Array input = !options.axis || a.ndim() == 0 ? a.ravel() : a;
    const std::size_t axis = options.axis ? normalize_axis(*options.axis, input.ndim()) : 0;
    const ScanDTypes dtypes = scan_dtypes(a.dtype(), options.dtype);

    std::optional<Array> out = options.out;
    if (out) {
        if (out->device() != a.device())
            throw InvalidArgumentError("out= must be on the input's device (copy it over first)");
        if (out->shape() != input.shape())
            throw InvalidArgumentError(concat("out= of ", scan.name, " has shape ", format_shape(out->shape()),
                                              ", not the result's shape ", format_shape(input.shape())));
        if (!can_cast(dtypes.output, out->dtype(), Casting::same_kind))
            throw DTypeError(concat("Cannot cast the result of ", scan.name, " from dtype('", to_string(dtypes.output),
                                    "') to dtype('", to_string(out->dtype()), "') with casting rule 'same_kind'"));
    }
    const bool direct = out && out->dtype() == dtypes.output && !may_share_memory(*out, a);
    Array result = direct ? *out : Array::empty(input.shape(), dtypes.output, a.device());
    if (result.size() > 0) {
        const ScanLayout layout = plan_scan(input.shape(), input.strides(), axis, result.strides(), input.itemsize());
        launch_scan(scan, dtypes, input, layout, result);
    }
    if (out && !direct) {
        copy_elements(result, *out);
        return *out;
    }
    return result;
}

}  // namespace
}  // namespace gpukit::detail

namespace gpukit {

#define GPUKIT_SCAN(name, ...)                                     \
    Array name(const Array& a, const ScanOptions& options) {       \
        return detail::run_scan(detail::ScanId::name, a, options); \
    }
#include "ops/scans.def"
#undef GPUKIT_SCAN

}  // namespace gpukit
