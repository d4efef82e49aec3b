// src/ops/reduction/reduce.cpp: the reduction engine (reduce.hpp): built-in reductions' table and
// dtypes, kernels compiled and kept, per-stream scratch, and the launch.
//
// Kernels: on a GPU one per (reduction, dtypes, shape, vector width), compiled on first use; on the
// simulator one module per one-input built-in reduction holding every input dtype's loop in every
// shape (g++ takes about half a second per compile, so one compile serves a reduction on any
// array); other loops get a module each.
// Scratch: each stream has a buffer of counters (zero between launches: the last block of a count
// resets it) and partials, so that a launch needs no allocation or memset of its own.
#include "ops/reduction/reduce.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>

#include "array/device_copy.hpp"
#include "array/same_device.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"
#include "gpukit/promotion.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/reduction/plan.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// ---- the table

enum class ReductionRule { sum, same, logical, mean, index, count, variance, norm, given };

struct Reduction {
    ReductionId id;
    std::string_view name;  // NumPy's name of the ufunc or function it reduces by, as its messages say
    ReductionRule rule;
    std::size_t inputs;
    bool has_identity;
    ReductionExpressions expressions;
};

const Reduction& reduction(ReductionId id) {
    static const std::array table = {
#define GPUKIT_REDUCTION(name, numpy_name, rule, inputs, has_identity, accumulator, identity, map, reduce, post) \
    Reduction{ReductionId::name,   numpy_name,                                                                   \
              ReductionRule::rule, inputs,                                                                       \
              has_identity,        {accumulator, identity, map, reduce, post}},
#include "ops/reductions.def"
#undef GPUKIT_REDUCTION
    };
    return table[static_cast<std::size_t>(id)];
}

// A built-in reduction's map with a where= mask as its last input (named `mask`): elements where it
// is false count as the identity.
std::string_view masked_map(ReductionId id) {
    static const auto* maps = [] {
        auto* made = new std::array<std::string, reduction_count>;
        for (std::size_t k = 0; k < made->size(); ++k) {
            const Reduction& row = reduction(static_cast<ReductionId>(k));
            (*made)[k] =
                concat("if (!gk_truth(in", row.inputs, ")) { a = identity(); } else { ", row.expressions.map, "; }");
        }
        return made;
    }();
    return (*maps)[static_cast<std::size_t>(id)];
}

bool half(DType dtype) { return dtype == DType::float16 || dtype == DType::bfloat16; }
DType real_of(DType dtype) {
    if (dtype == DType::complex64) return DType::float32;
    if (dtype == DType::complex128) return DType::float64;
    return dtype;
}

}  // namespace

DType mean_dtype(DType input, std::optional<DType> dtype) {
    if (dtype) return *dtype;
    if (integral(input)) return DType::float64;
    if (half(input)) return DType::float32;
    return input;
}

ReductionDTypes reduction_dtypes(ReductionId id, std::span<const DType> inputs, std::optional<DType> dtype) {
    const Reduction& row = reduction(id);
    ReductionDTypes dtypes;
    dtypes.input_count = static_cast<std::uint8_t>(inputs.size());
    std::copy(inputs.begin(), inputs.end(), dtypes.inputs.begin());
    const DType input = inputs[0];
    const auto set = [&](DType accumulator, DType output) {
        dtypes.accumulator = accumulator;
        dtypes.output = output;
        return dtypes;
    };
    const auto refuse_dtype = [&] {
        if (dtype)
            throw DTypeError(concat("the reduction of ", row.name,
                                    " takes no dtype=: its result has a fixed dtype (convert with astype)"));
    };
    switch (row.rule) {
        case ReductionRule::same:
        case ReductionRule::logical: {
            refuse_dtype();
            const DType result = row.rule == ReductionRule::logical ? DType::bool_ : input;
            return set(half(input) ? DType::float32 : result, result);
        }
        case ReductionRule::index: refuse_dtype(); return set(half(input) ? DType::float32 : input, DType::int64);
        case ReductionRule::count: refuse_dtype(); return set(DType::int64, DType::int64);
        case ReductionRule::sum:
        case ReductionRule::mean: {
            if (dtype) return set(half(*dtype) ? DType::float32 : *dtype, *dtype);
            if (half(input)) return set(DType::float32, input);
            if (row.rule == ReductionRule::mean && integral(input)) return set(DType::float64, DType::float64);
            if (kind(input) == DTypeKind::unsigned_integer) return set(DType::uint64, DType::uint64);
            if (integral(input)) return set(DType::int64, DType::int64);
            return set(input, input);
        }
        case ReductionRule::variance: {
            // The second input is the mean, in the type the squares are summed in (its real part's).
            const DType mean = inputs.size() > 1 ? inputs[1] : input;
            const DType result = dtype ? *dtype : integral(input) ? DType::float64 : input;
            return set(real_of(mean), real_of(result));
        }
        case ReductionRule::norm: {
            refuse_dtype();
            if (integral(input)) return set(DType::float64, DType::float64);
            return set(half(input) ? DType::float32 : real_of(input), real_of(input));
        }
        case ReductionRule::given: break;
    }
    const DType result = dtype ? *dtype : input;
    return set(half(result) ? DType::float32 : result, result);
}

namespace {

// ---- kernels

// What a kernel runs: a built-in reduction (masked or not) or a ReductionKernel's operation.
struct Operation {
    std::uint64_t id;  // built-ins: 2 * ReductionId + masked; ReductionKernels: custom_reduction_id()
    const ReductionExpressions* expressions;
    ReductionNames names;
    const CompileOptions* compile = nullptr;  // a ReductionKernel's options
    std::optional<ReductionId> builtin;
    bool masked = false;
};

// The loop a built-in runs on an input of `input` dtype without dtype=: its second input the mean
// (variances) or another of the same dtype (products), then the mask (where=).
ReductionDTypes default_dtypes(ReductionId id, bool masked, DType input) {
    const Reduction& row = reduction(id);
    std::array<DType, 2> inputs{input, input};
    if (row.rule == ReductionRule::variance) inputs[1] = mean_dtype(input, std::nullopt);
    ReductionDTypes dtypes = reduction_dtypes(id, std::span(inputs.data(), row.inputs), std::nullopt);
    if (masked) dtypes.inputs[dtypes.input_count++] = DType::bool_;
    return dtypes;
}

Module compile_reduction(const std::string& source, const Device& device, const CompileOptions* user) {
    CompileOptions options = user ? *user : CompileOptions{};
    options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
    options.header(std::string(reduction_header_name), std::string(reduction_header()));
    if (!user) options.program_name = "gpukit_reduction.cu";
    return Module::compile(source, options, device);
}

constexpr ReductionClass kernel_shapes[] = {ReductionClass::full, ReductionClass::rows, ReductionClass::strided};

// The kernel running `spec` of `operation` on `device`, compiled on first use. Entries are never
// erased, so a reference to one stays valid; the last one this thread used is found again without
// the lock or the lookup (a reduction called in a loop: part of x.sum()'s host time).
const Kernel& reduction_kernel(const Operation& operation, const ReductionKernelSpec& spec, const Device& device,
                               bool simulated, bool gpu_shapes) {
    using Key = std::tuple<const void*, int, bool, std::uint64_t, ReductionDTypes, ReductionClass, int>;
    static std::mutex mutex;
    static auto* kernels = new std::map<Key, Kernel>;  // never destroyed: kernels outlive static destruction
    thread_local const std::pair<const Key, Kernel>* last_used = nullptr;
    const ReductionClass shape = spec.shape;
    const auto key_of = [&](const ReductionDTypes& dtypes, ReductionClass each, int width) {
        return std::make_tuple(static_cast<const void*>(&device.backend_info()), device.ordinal(), gpu_shapes,
                               operation.id, dtypes, each, width);
    };
    const Key key = key_of(spec.dtypes, shape, spec.vector_width);
    if (last_used && last_used->first == key) return last_used->second;
    {
        std::lock_guard lock(mutex);
        if (auto found = kernels->find(key); found != kernels->end()) {
            last_used = &*found;
            return found->second;
        }
    }
    // On the simulator a built-in's default loops for every input dtype come as one module.
    std::vector<ReductionKernelSpec> specs;
    if (simulated && !gpu_shapes && operation.builtin &&
        spec.dtypes == default_dtypes(*operation.builtin, operation.masked, spec.dtypes.inputs[0])) {
        for (const DTypeInfo& info : dtype_table)
            for (const ReductionClass each : kernel_shapes)
                specs.push_back({default_dtypes(*operation.builtin, operation.masked, info.dtype), each, 1});
    } else {
        specs.push_back({spec.dtypes, shape, spec.vector_width});
    }
    // Compiled outside the lock: the compile cache makes a race harmless (same source, same module).
    const Module module =
        compile_reduction(generate_reduction(*operation.expressions, operation.names, specs, simulated, gpu_shapes),
                          device, operation.compile);
    std::lock_guard lock(mutex);
    for (std::size_t index = 0; index < specs.size(); ++index) {
        const ReductionKernelSpec& made = specs[index];
        kernels->try_emplace(key_of(made.dtypes, made.shape, made.vector_width),
                             module.kernel(reduction_kernel_name(made.shape, index)));
    }
    last_used = &*kernels->find(key);
    return last_used->second;
}

// ---- scratch

// Mirrors gk_reduce_params<N> and the scratch layout of kernels/gpukit_reduction.cuh.
constexpr std::size_t max_dims = 8;
template <std::size_t N>
struct ReduceParams {
    std::uint64_t output, scratch;
    std::uint64_t input[N];
    std::int64_t kept_shape[max_dims], kept_output[max_dims], reduced_shape[max_dims];
    std::int64_t kept_input[N][max_dims], reduced_input[N][max_dims];
    std::int64_t kept_size, reduced_size;
    double argument;
    std::int32_t kept_ndim, reduced_ndim;
    std::int32_t splits;
    std::int32_t row_threads;
};
constexpr std::int64_t scratch_counters = 4096;
constexpr std::int64_t scratch_partials_offset = scratch_counters * 4;
// Room per partial: the largest accumulator (ptp's range of two complex128 values).
constexpr std::int64_t partial_bytes_each = 32;

// The stream's scratch with room for `partial_bytes` of partials: zeroed counters, then partials.
// Kept per stream (work on one stream runs in order, so one buffer serves its launches one after
// another); a stream destroyed and its handle reused gets a new one. Device memory of its own, not
// the pool's: the pool's used_bytes() counts the user's arrays. A buffer outgrown stays allocated
// (launches queued before may still use it); sizes only grow, so there are few.
std::uint64_t scratch_for(const Device& device, const StreamRef& stream, std::int64_t partial_bytes) {
    struct Entry {
        StreamRef stream;
        std::shared_ptr<DeviceBuffer> buffer;
    };
    using Key = std::tuple<const void*, int, void*>;
    static std::mutex mutex;
    static auto* buffers = new std::map<Key, Entry>;
    static auto* outgrown = new std::vector<std::shared_ptr<DeviceBuffer>>;
    const Key key{&device.backend_info(), device.ordinal(), stream.native_handle()};
    std::lock_guard lock(mutex);
    auto found = buffers->find(key);
    const auto needed = static_cast<std::size_t>(scratch_partials_offset + partial_bytes);
    if (found != buffers->end() && found->second.stream == stream && found->second.buffer->size_bytes() >= needed)
        return found->second.buffer->address();
    const std::size_t size = std::max(needed, static_cast<std::size_t>(scratch_partials_offset + (1 << 16)));
    auto buffer = std::make_shared<DeviceBuffer>(device, size);
    const BufferView counters(device, buffer->address(), static_cast<std::size_t>(scratch_partials_offset));
    if (stream.is_default())
        memset(counters, 0);
    else
        memset_async(counters, 0, stream);
    if (found != buffers->end()) {
        if (found->second.stream == stream) outgrown->push_back(found->second.buffer);
        found->second = Entry{stream, buffer};
    } else {
        buffers->emplace(key, Entry{stream, buffer});
    }
    return buffer->address();
}

// ---- launching

template <class Span>
void copy_dims(const Span& from, std::int64_t* to) {
    std::copy(from.begin(), from.end(), to);
}

// The elements of `input` per load of up to 16 bytes (at most `most`): where every load is aligned
// (the input's address and each of `strides` a multiple of the load's bytes) and the `count`
// elements read together come in whole groups (0: the kernel takes any count); else 1.
int vector_width(const Array& input, std::int64_t most, std::int64_t count, std::span<const std::int64_t> strides) {
    const std::int64_t itemsize = input.itemsize();
    if (itemsize >= 16) return 1;
    const std::int64_t width = std::min(16 / itemsize, most), bytes = width * itemsize;
    if (static_cast<std::int64_t>(input.address() % bytes) != 0 || count % width != 0) return 1;
    for (const std::int64_t stride : strides)
        if (stride % bytes != 0) return 1;
    return static_cast<int>(width);
}

// A full reduction of one contiguous input (its kernel reads the tail that makes no whole group
// element by element).
int full_vector_width(const ReductionLayout& layout, std::span<const Array> inputs, bool chunked) {
    if (chunked || inputs.size() != 1 || layout.reduced.size() != 1 ||
        layout.input_reduced[0][0] != inputs[0].itemsize())
        return 1;
    return vector_width(inputs[0], 16, 0, {});
}

// Rows of one input, each contiguous, starting aligned and holding whole groups.
int row_vector_width(const ReductionLayout& layout, std::span<const Array> inputs, bool chunked) {
    if (chunked || inputs.size() != 1 || layout.reduced.size() != 1 ||
        layout.input_reduced[0][0] != inputs[0].itemsize())
        return 1;
    return vector_width(inputs[0], 16, layout.reduced_size, layout.input_kept[0]);
}

// Neighbouring results of one input read as one group (at most column_results_most, then capped by
// their accumulators' bytes: column_results_per_thread), each reduced element's group aligned, the
// results in whole groups.
int column_vector_width(const ReductionLayout& layout, std::span<const Array> inputs, bool chunked) {
    if (chunked || inputs.size() != 1) return 1;
    return vector_width(inputs[0], column_results_most, layout.kept_size, layout.input_reduced[0]);
}

template <std::size_t N>
void launch_with(const Operation& operation, const ReductionDTypes& dtypes, std::span<const Array> inputs,
                 const ReductionLayout& layout, const Array& result, double argument) {
    const Device device = result.device();
    const bool simulated = device.backend_info().capabilities.simulated;
    // The simulator's chunked shapes, or the GPU's (on the simulator too where tests ask).
    const bool chunked = simulated && !specialized_elementwise_on_simulator();
    const StreamRef stream = current_stream(device);
    const std::int64_t processors = std::max(1, device.properties().multiprocessor_count);

    ReduceParams<N> params{};
    copy_dims(layout.kept, params.kept_shape);
    copy_dims(layout.output_kept, params.kept_output);
    copy_dims(layout.reduced, params.reduced_shape);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        copy_dims(layout.input_kept[k], params.kept_input[k]);
        copy_dims(layout.input_reduced[k], params.reduced_input[k]);
    }
    params.kept_size = layout.kept_size;
    params.reduced_size = layout.reduced_size;
    params.kept_ndim = static_cast<std::int32_t>(layout.kept.size());
    params.reduced_ndim = static_cast<std::int32_t>(layout.reduced.size());
    params.splits = 1;
    params.argument = argument;

    ReductionKernelSpec spec{dtypes, layout.kind, 1};
    // The simulator's threads take whole columns as they take whole rows (the each shape).
    if (spec.shape == ReductionClass::columns && chunked) spec.shape = ReductionClass::strided;
    LaunchConfig config;
    config.stream = stream;
    std::int64_t partial_bytes = 0;
    const std::int64_t total = layout.kept_size * layout.reduced_size;
    // Splits of a reduced range over blocks: enough blocks for `blocks_wanted`, each at least
    // `least` elements, and a counter per group of results that share them.
    const auto splits_for = [&](std::int64_t groups, std::int64_t blocks_wanted, std::int64_t range,
                                std::int64_t least) {
        if (groups > scratch_counters) return std::int64_t{1};
        return std::clamp<std::int64_t>((blocks_wanted + groups - 1) / groups, 1,
                                        std::max<std::int64_t>(1, range / least));
    };
    if (spec.shape == ReductionClass::full) {
        spec.vector_width = full_vector_width(layout, inputs, chunked);
        const std::int64_t blocks =
            chunked ? elementwise_launch_config(true, layout.reduced_size, stream).grid.x
                    : std::clamp<std::int64_t>(layout.reduced_size / (std::int64_t{256} * spec.vector_width), 1,
                                               8 * processors);
        config.block = Dim3(chunked ? 32 : 256);
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
        partial_bytes = blocks * partial_bytes_each;
    } else if (chunked) {
        // Each simulated thread takes whole results (rows or columns), a few blocks per worker.
        const std::int64_t blocks = std::clamp<std::int64_t>(
            std::min(total / (std::int64_t{32} * 4096), (layout.kept_size + 31) / 32), 1, 4 * processors);
        config.block = Dim3(32);
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
    } else if (spec.shape == ReductionClass::rows) {
        // Part of a warp per short row (each lane several loads), a warp per row for many rows (on
        // an H200 a warp per row of 4096 float32 ran 15 % faster than a block per row), four warps
        // per long row where there are rows enough to fill the device (4096^2 float32, axis=1:
        // 2.4 % faster than a warp per row, and 9 % faster than a block per row), a block per row
        // for fewer, and several blocks per row where too few rows fill the device.
        spec.vector_width = row_vector_width(layout, inputs, chunked);
        const std::int64_t groups = layout.reduced_size / spec.vector_width;
        config.block = Dim3(256);
        if (groups >= 1024 && layout.kept_size >= 2 * processors) {
            params.row_threads = 128;
            config.grid = Dim3(static_cast<std::uint32_t>((layout.kept_size + 1) / 2));
        } else if (layout.reduced_size <= 1024 || layout.kept_size >= 16 * processors) {
            params.row_threads = groups >= 128 ? 32 : groups >= 64 ? 16 : 8;
            const std::int64_t rows_per_block = 256 / params.row_threads;
            config.grid = Dim3(static_cast<std::uint32_t>((layout.kept_size + rows_per_block - 1) / rows_per_block));
        } else {
            params.row_threads = 256;
            const std::int64_t splits =
                layout.kept_size >= 2 * processors ? 1 : splits_for(layout.kept_size, 4 * processors, groups, 1024);
            params.splits = static_cast<std::int32_t>(splits);
            config.grid = Dim3(static_cast<std::uint32_t>(layout.kept_size), static_cast<std::uint32_t>(splits));
            if (splits > 1) partial_bytes = splits * layout.kept_size * partial_bytes_each;
        }
    } else if (spec.shape == ReductionClass::columns) {
        // Tiles of 32 lanes x W results; the reduced elements split over as many blocks as fit the
        // device at once (the kernel's launch bound a multiprocessor) and no more: the blocks past
        // them ran alone, after the rest (axis=0 of 4096^2 on an H200: 800 blocks for 792 places,
        // 11 % slower than 768). At most 128 splits, so that the last block of a tile combines the
        // partials quickly.
        const std::int64_t accumulator = accumulator_bytes(*operation.expressions, dtypes.accumulator);
        spec.vector_width = column_results_per_thread(column_vector_width(layout, inputs, chunked), accumulator);
        const std::int64_t resident = column_blocks_per_processor(spec.vector_width, accumulator) * processors;
        const std::int64_t tile = std::int64_t{32} * spec.vector_width;
        const std::int64_t tiles = (layout.kept_size + tile - 1) / tile;
        const std::int64_t splits =
            tiles > scratch_counters
                ? 1
                : std::clamp<std::int64_t>(resident / tiles, 1,
                                           std::clamp<std::int64_t>(layout.reduced_size / 32, 1, 128));
        params.splits = static_cast<std::int32_t>(splits);
        config.block = Dim3(256);
        config.grid = Dim3(static_cast<std::uint32_t>(tiles), static_cast<std::uint32_t>(splits));
        if (splits > 1) partial_bytes = splits * layout.kept_size * partial_bytes_each;
    } else {
        // A thread per result; few results split their reduced elements over blockIdx.y.
        const std::int64_t columns = (layout.kept_size + 255) / 256;
        const std::int64_t splits =
            columns < 2 * processors && layout.reduced_size >= 256
                ? std::min<std::int64_t>(splits_for(columns, 4 * processors, layout.reduced_size, 64), 128)
                : 1;
        params.splits = static_cast<std::int32_t>(splits);
        config.block = Dim3(256);
        config.grid = Dim3(static_cast<std::uint32_t>(columns), static_cast<std::uint32_t>(splits));
        if (splits > 1) partial_bytes = splits * layout.kept_size * partial_bytes_each;
    }

    params.scratch = scratch_for(device, stream, partial_bytes);
    for (std::size_t k = 0; k < inputs.size(); ++k) params.input[k] = launch_address(inputs[k], stream);
    params.output = launch_address(result, stream);
    reduction_kernel(operation, spec, device, simulated, !chunked)(config, params);
}

void launch_reduction(const Operation& operation, const ReductionDTypes& dtypes, std::span<const Array> inputs,
                      const ReductionLayout& layout, const Array& result, double argument) {
    if (layout.kept.size() > max_dims || layout.reduced.size() > max_dims)
        throw InvalidArgumentError(
            concat("reductions take arrays of up to ", max_dims, " dimensions after merging contiguous ones"));
    switch (reduction_params_width(inputs.size())) {
        case 1: return launch_with<1>(operation, dtypes, inputs, layout, result, argument);
        case 2: return launch_with<2>(operation, dtypes, inputs, layout, result, argument);
        case 4: return launch_with<4>(operation, dtypes, inputs, layout, result, argument);
        default: return launch_with<8>(operation, dtypes, inputs, layout, result, argument);
    }
}

// The result's byte strides along the input's kept axes, in order.
Strides kept_output_strides(const Array& result, const std::vector<bool>& reduced, bool keepdims) {
    if (!keepdims) return result.strides();
    Strides strides;
    for (std::size_t d = 0; d < reduced.size(); ++d)
        if (!reduced[d]) strides.push_back(result.strides()[d]);
    return strides;
}

// A run of `operation` named `name` (for messages).
Array run(const Operation& operation, std::string_view name, bool has_identity, const ReductionDTypes& dtypes,
          std::span<const Array> given_inputs, const ReductionRun& request) {
    raise_deferred_launch_error();
    if (given_inputs.size() > max_reduction_inputs)
        throw InvalidArgumentError(concat("a reduction takes at most ", max_reduction_inputs, " input arrays"));
    const Device device = given_inputs[0].device();
    for (const Array& input : given_inputs) require_on_device(input, device, "a reduction");

    // The inputs broadcast together (the first's shape, usually).
    Shape shape = given_inputs[0].shape();
    bool same_shape = true;
    for (const Array& input : given_inputs) same_shape = same_shape && input.shape() == shape;
    if (!same_shape) {
        std::vector<Shape> shapes;
        for (const Array& input : given_inputs) shapes.push_back(input.shape());
        shape = broadcast_shapes(shapes);
    }
    std::vector<Strides> strides;
    strides.reserve(given_inputs.size());
    for (const Array& input : given_inputs)
        strides.push_back(same_shape ? input.strides() : broadcast_strides(input.shape(), input.strides(), shape));

    const std::vector<bool> reduced = request.axis
                                          ? reduced_axes(std::span<const std::int64_t>(*request.axis), shape.size())
                                          : reduced_axes(std::nullopt, shape.size());
    const Shape result_shape = reduction_result_shape(shape, reduced, request.keepdims);
    std::int64_t reduced_size = 1;
    for (std::size_t d = 0; d < shape.size(); ++d)
        if (reduced[d]) reduced_size *= shape[d];
    if (reduced_size == 0 && element_count(result_shape) > 0 && !has_identity)
        throw InvalidArgumentError(concat("zero-size array to reduction operation ", name, " which has no identity"));

    // The result: out= itself when it has the result's dtype, else a new array copied into it.
    const std::optional<Array>& out = request.out;
    if (out) {
        if (out->device() != device)
            throw InvalidArgumentError("out= must be on the input's device (copy it over first)");
        if (out->shape() != result_shape)
            throw InvalidArgumentError(concat("output parameter for reduction operation ", name, " has ",
                                              format_shape(out->shape()), ", not the result's shape ",
                                              format_shape(result_shape)));
        if (!can_cast(dtypes.output, out->dtype(), Casting::same_kind))
            throw DTypeError(concat("Cannot cast the result of ", name, " from dtype('", to_string(dtypes.output),
                                    "') to dtype('", to_string(out->dtype()), "') with casting rule 'same_kind'"));
    }
    bool direct = out && out->dtype() == dtypes.output;
    for (const Array& input : given_inputs) direct = direct && !may_share_memory(*out, input);
    Array result = direct ? *out : Array::empty(result_shape, dtypes.output, device);
    if (result.size() > 0) {
        const ReductionLayout layout = plan_reduction(shape, strides, given_inputs[0].itemsize(), reduced,
                                                      kept_output_strides(result, reduced, request.keepdims));
        launch_reduction(operation, dtypes, given_inputs, layout, result, request.argument);
    }
    if (out && !direct) {
        copy_elements(result, *out);
        return *out;
    }
    return result;
}

}  // namespace

Array run_reduction(ReductionId id, const ReductionDTypes& dtypes, const ReductionRun& request) {
    const Reduction& row = reduction(id);
    const bool masked = request.where.has_value();
    Operation operation;
    operation.id = 2 * static_cast<std::uint64_t>(id) + (masked ? 1 : 0);
    operation.builtin = id;
    operation.masked = masked;
    operation.names = {builtin_input_names(), "out0", ""};
    ReductionExpressions masked_expressions;
    if (masked) {
        masked_expressions = row.expressions;
        masked_expressions.map = masked_map(id);
        operation.expressions = &masked_expressions;
    } else {
        operation.expressions = &row.expressions;
    }
    if (request.inputs.size() != row.inputs)
        throw InvalidArgumentError(concat("the reduction ", row.name, " takes ", row.inputs, " input arrays"));
    if (!masked)
        return run(operation, row.name, row.has_identity || request.initial_given, dtypes, request.inputs, request);
    if (request.where->dtype() != DType::bool_)
        throw DTypeError(concat("where= must be a boolean array, not ", to_string(request.where->dtype())));
    std::vector<Array> inputs(request.inputs.begin(), request.inputs.end());
    inputs.push_back(*request.where);
    ReductionDTypes with_mask = dtypes;
    with_mask.inputs[with_mask.input_count++] = DType::bool_;
    // The mask broadcasts to the inputs' shape, not beyond it (NumPy's where=).
    if (broadcast_shapes(std::vector<Shape>{inputs[0].shape(), request.where->shape()}) != inputs[0].shape())
        throw InvalidArgumentError(concat("where= of shape ", format_shape(request.where->shape()),
                                          " does not broadcast to the input's shape ",
                                          format_shape(inputs[0].shape())));
    return run(operation, row.name, true, with_mask, inputs, request);
}

std::uint64_t custom_reduction_id() {
    static std::atomic<std::uint64_t> next{std::uint64_t{1} << 32};
    return next++;
}

Array run_custom_reduction(const CustomReduction& reduction, const ReductionDTypes& dtypes, const std::string& prelude,
                           const ReductionRun& request) {
    Operation operation;
    operation.id = reduction.id;
    operation.expressions = &reduction.expressions;
    operation.names = {reduction.input_names, reduction.output_name, prelude};
    operation.compile = &reduction.compile;
    return run(operation, reduction.name, reduction.has_identity, dtypes, request.inputs, request);
}

}  // namespace gpukit::detail
