// src/ops/reduction/reduce.cpp: the built-in reductions (include/gpukit/reductions.hpp): each a row
// of src/ops/reductions.def, its dtypes chosen as NumPy's, its layout planned (plan.hpp), its
// kernel generated (generator.hpp) and launched on the current stream.
//
// Kernels: on a GPU one per (reduction, dtypes, shape, vector width), compiled on first use; on the
// simulator one module per reduction holding every input dtype's loop in every shape (g++ takes
// about half a second per compile, so one compile serves a reduction on any array).
// Scratch: each stream has a buffer of counters (zero between launches: the last block of a count
// resets it) and partials, so that a launch needs no allocation or memset of its own.
#include "gpukit/reductions.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>

#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/error.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"
#include "gpukit/promotion.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "ops/reduction/generator.hpp"
#include "ops/reduction/plan.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// ---- the table

enum class ReductionRule { sum, same, logical, mean };

enum class ReductionId : std::uint8_t {
#define GPUKIT_REDUCTION(name, ...) name,
#include "ops/reductions.def"
#undef GPUKIT_REDUCTION
};

struct Reduction {
    ReductionId id;
    std::string_view name;  // NumPy's name of the ufunc it reduces, as its messages say
    ReductionRule rule;
    bool has_identity;
    ReductionExpressions expressions;
};

const Reduction& reduction(ReductionId id) {
    static const std::array table = {
#define GPUKIT_REDUCTION(name, numpy_name, rule, has_identity, identity, map, reduce, post) \
    Reduction{ReductionId::name, numpy_name, ReductionRule::rule, has_identity, {identity, map, reduce, post}},
#include "ops/reductions.def"
#undef GPUKIT_REDUCTION
    };
    return table[static_cast<std::size_t>(id)];
}

// NumPy's dtypes for a reduction of `input` (dtype= where given).
ReductionDTypes reduction_dtypes(const Reduction& reduction, DType input, std::optional<DType> dtype) {
    const DTypeKind input_kind = kind(input);
    const bool half = input == DType::float16 || input == DType::bfloat16;
    switch (reduction.rule) {
        case ReductionRule::same:
        case ReductionRule::logical: {
            if (dtype)
                throw DTypeError(concat("the reduction of ", reduction.name,
                                        " takes no dtype=: its result has the input's dtype (convert with astype)"));
            const DType result = reduction.rule == ReductionRule::logical ? DType::bool_ : input;
            return {input, half ? DType::float32 : result, result};
        }
        case ReductionRule::sum:
        case ReductionRule::mean: {
            if (dtype) {
                const bool half_result = *dtype == DType::float16 || *dtype == DType::bfloat16;
                return {input, half_result ? DType::float32 : *dtype, *dtype};
            }
            if (half) return {input, DType::float32, input};
            const bool integral = input_kind == DTypeKind::boolean || input_kind == DTypeKind::signed_integer ||
                                  input_kind == DTypeKind::unsigned_integer;
            if (reduction.rule == ReductionRule::mean && integral) return {input, DType::float64, DType::float64};
            if (input_kind == DTypeKind::unsigned_integer) return {input, DType::uint64, DType::uint64};
            if (integral) return {input, DType::int64, DType::int64};
            return {input, input, input};
        }
    }
    return {input, input, input};
}

// ---- kernels

Module compile_reduction(const std::string& source, const Device& device) {
    CompileOptions options;
    options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
    options.header(std::string(reduction_header_name), std::string(reduction_header()));
    options.program_name = "gpukit_reduction.cu";
    return Module::compile(source, options, device);
}

constexpr ReductionClass kernel_shapes[] = {ReductionClass::full, ReductionClass::rows, ReductionClass::strided};

// The kernel running `spec` of `reduction` on `device`: per key on a GPU; on the simulator from the
// reduction's module of every input dtype (or a module of its own for a dtype= loop).
Kernel reduction_kernel(const Reduction& reduction, const ReductionKernelSpec& spec, const Device& device,
                        bool simulated, bool gpu_shapes) {
    using Key = std::tuple<const void*, int, bool, ReductionId, DType, DType, DType, ReductionClass, int>;
    static std::mutex mutex;
    static auto* kernels = new std::map<Key, Kernel>;  // never destroyed: kernels outlive static destruction
    const ReductionClass shape = spec.shape == ReductionClass::columns ? ReductionClass::strided : spec.shape;
    const auto key_of = [&](const ReductionDTypes& dtypes, ReductionClass each, int width) {
        return std::make_tuple(static_cast<const void*>(&device.backend_info()), device.ordinal(), gpu_shapes,
                               reduction.id, dtypes.input, dtypes.accumulator, dtypes.output, each, width);
    };
    const Key key = key_of(spec.dtypes, shape, spec.vector_width);
    {
        std::lock_guard lock(mutex);
        if (auto found = kernels->find(key); found != kernels->end()) return found->second;
    }
    std::vector<ReductionKernelSpec> specs;
    if (simulated && !gpu_shapes && spec.dtypes == reduction_dtypes(reduction, spec.dtypes.input, std::nullopt)) {
        for (const DTypeInfo& info : dtype_table)
            for (const ReductionClass each : kernel_shapes)
                specs.push_back({reduction_dtypes(reduction, info.dtype, std::nullopt), each, 1});
    } else {
        specs.push_back({spec.dtypes, shape, spec.vector_width});
    }
    // Compiled outside the lock: the compile cache makes a race harmless (same source, same module).
    const Module module =
        compile_reduction(generate_reduction(reduction.expressions, specs, simulated, gpu_shapes), device);
    std::lock_guard lock(mutex);
    for (std::size_t index = 0; index < specs.size(); ++index) {
        const ReductionKernelSpec& made = specs[index];
        kernels->try_emplace(key_of(made.dtypes, made.shape, made.vector_width),
                             module.kernel(reduction_kernel_name(made.shape, index)));
    }
    return kernels->at(key);
}

// ---- scratch

// Mirrors gk_reduce_params and the scratch layout of kernels/gpukit_reduction.cuh.
constexpr std::size_t max_dims = 8;
struct ReduceParams {
    std::uint64_t input, output, scratch;
    std::int64_t kept_shape[max_dims], kept_input[max_dims], kept_output[max_dims];
    std::int64_t reduced_shape[max_dims], reduced_input[max_dims];
    std::int64_t kept_size, reduced_size;
    std::int32_t kept_ndim, reduced_ndim;
    std::int32_t splits;
    std::int32_t row_threads;
};
constexpr std::int64_t scratch_counters = 4096;
constexpr std::int64_t scratch_partials_offset = scratch_counters * 4;

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

void copy_dims(std::span<const std::int64_t> from, std::int64_t* to) { std::copy(from.begin(), from.end(), to); }

// The elements per 16-byte load of a full reduction of a contiguous, aligned input, else 1.
int full_vector_width(const ReductionLayout& layout, const Array& input, bool chunked) {
    if (chunked || layout.reduced.size() != 1 || layout.input_reduced[0] != input.itemsize()) return 1;
    if (input.address() % 16 != 0 || input.itemsize() >= 16) return 1;
    return static_cast<int>(16 / input.itemsize());
}

void launch_reduction(const Reduction& reduction, const ReductionDTypes& dtypes, const Array& input,
                      const ReductionLayout& layout, const Array& result) {
    const Device device = input.device();
    const bool simulated = device.backend_info().capabilities.simulated;
    // The simulator's chunked shapes, or the GPU's (on the simulator too where tests ask).
    const bool chunked = simulated && !specialized_elementwise_on_simulator();
    const StreamRef stream = current_stream(device);
    const std::int64_t processors = std::max(1, device.properties().multiprocessor_count);
    if (layout.kept.size() > max_dims || layout.reduced.size() > max_dims)
        throw InvalidArgumentError(
            concat("reductions take arrays of up to ", max_dims, " dimensions after merging contiguous ones"));

    ReduceParams params{};
    copy_dims(layout.kept, params.kept_shape);
    copy_dims(layout.input_kept, params.kept_input);
    copy_dims(layout.output_kept, params.kept_output);
    copy_dims(layout.reduced, params.reduced_shape);
    copy_dims(layout.input_reduced, params.reduced_input);
    params.kept_size = layout.kept_size;
    params.reduced_size = layout.reduced_size;
    params.kept_ndim = static_cast<std::int32_t>(layout.kept.size());
    params.reduced_ndim = static_cast<std::int32_t>(layout.reduced.size());
    params.splits = 1;

    ReductionKernelSpec spec{dtypes, layout.kind, 1};
    if (spec.shape == ReductionClass::columns) spec.shape = ReductionClass::strided;
    const std::int64_t accumulator_size = static_cast<std::int64_t>(itemsize(dtypes.accumulator));
    LaunchConfig config;
    config.stream = stream;
    std::int64_t partial_bytes = 0;
    const std::int64_t total = layout.kept_size * layout.reduced_size;
    if (spec.shape == ReductionClass::full) {
        spec.vector_width = full_vector_width(layout, input, chunked);
        const std::int64_t blocks =
            chunked ? elementwise_launch_config(true, layout.reduced_size, stream).grid.x
                    : std::clamp<std::int64_t>(layout.reduced_size / (std::int64_t{256} * spec.vector_width), 1,
                                               8 * processors);
        config.block = Dim3(chunked ? 32 : 256);
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
        partial_bytes = blocks * accumulator_size;
    } else if (chunked) {
        // Each simulated thread takes whole results (rows or columns), a few blocks per worker.
        const std::int64_t blocks = std::clamp<std::int64_t>(
            std::min(total / (std::int64_t{32} * 4096), (layout.kept_size + 31) / 32), 1, 4 * processors);
        config.block = Dim3(32);
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
    } else if (spec.shape == ReductionClass::rows) {
        // A warp per row for short rows, the block for long ones.
        params.row_threads = layout.reduced_size <= 1024 ? 32 : 256;
        const std::int64_t rows_per_block = 256 / params.row_threads;
        config.block = Dim3(256);
        config.grid = Dim3(static_cast<std::uint32_t>((layout.kept_size + rows_per_block - 1) / rows_per_block));
    } else {
        // A thread per result; few results split their reduced elements over blockIdx.y.
        const std::int64_t columns = (layout.kept_size + 255) / 256;
        std::int64_t splits = 1;
        if (columns < 2 * processors && columns <= scratch_counters && layout.reduced_size >= 256)
            splits = std::clamp<std::int64_t>(
                std::min((4 * processors + columns - 1) / columns, layout.reduced_size / 64), 1, 128);
        params.splits = static_cast<std::int32_t>(splits);
        config.block = Dim3(256);
        config.grid = Dim3(static_cast<std::uint32_t>(columns), static_cast<std::uint32_t>(splits));
        if (splits > 1) partial_bytes = splits * layout.kept_size * accumulator_size;
    }

    params.scratch = scratch_for(device, stream, partial_bytes);
    params.input = launch_address(input, stream);
    params.output = launch_address(result, stream);
    reduction_kernel(reduction, spec, device, simulated, !chunked)(config, params);
}

// The result's byte strides along the input's kept axes, in order.
Strides kept_output_strides(const Array& result, const std::vector<bool>& reduced, bool keepdims) {
    if (!keepdims) return result.strides();
    Strides strides;
    for (std::size_t d = 0; d < reduced.size(); ++d)
        if (!reduced[d]) strides.push_back(result.strides()[d]);
    return strides;
}

Array reduce(ReductionId id, const Array& a, const ReduceOptions& options) {
    raise_deferred_launch_error();
    const Reduction& reduction = detail::reduction(id);
    const std::vector<bool> reduced = options.axis
                                          ? reduced_axes(std::span<const std::int64_t>(*options.axis), a.ndim())
                                          : reduced_axes(std::nullopt, a.ndim());
    const ReductionDTypes dtypes = reduction_dtypes(reduction, a.dtype(), options.dtype);
    const Shape shape = reduction_result_shape(a.shape(), reduced, options.keepdims);

    std::int64_t reduced_size = 1;
    for (std::size_t d = 0; d < a.ndim(); ++d)
        if (reduced[d]) reduced_size *= a.shape()[d];
    if (reduced_size == 0 && element_count(shape) > 0 && !reduction.has_identity)
        throw InvalidArgumentError(
            concat("zero-size array to reduction operation ", reduction.name, " which has no identity"));

    // The result: out= itself when it has the result's dtype, else a new array copied into it.
    std::optional<Array> out = options.out;
    if (out) {
        if (out->device() != a.device())
            throw InvalidArgumentError("out= must be on the input's device (copy it over first)");
        if (out->shape() != shape)
            throw InvalidArgumentError(concat("output parameter for reduction operation ", reduction.name, " has ",
                                              format_shape(out->shape()), ", not the result's shape ",
                                              format_shape(shape)));
        if (!can_cast(dtypes.output, out->dtype(), Casting::same_kind))
            throw DTypeError(concat("Cannot cast the result of ", reduction.name, " from dtype('",
                                    to_string(dtypes.output), "') to dtype('", to_string(out->dtype()),
                                    "') with casting rule 'same_kind'"));
    }
    const bool direct = out && out->dtype() == dtypes.output && !may_share_memory(*out, a);
    Array result = direct ? *out : Array::empty(shape, dtypes.output, a.device());
    if (result.size() > 0) {
        const ReductionLayout layout = plan_reduction(a.shape(), a.strides(), a.itemsize(), reduced,
                                                      kept_output_strides(result, reduced, options.keepdims));
        launch_reduction(reduction, dtypes, a, layout, result);
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

#define GPUKIT_REDUCTION(name, ...)                                   \
    Array name(const Array& a, const ReduceOptions& options) {        \
        return detail::reduce(detail::ReductionId::name, a, options); \
    }
#include "ops/reductions.def"
#undef GPUKIT_REDUCTION

Array amax(const Array& a, const ReduceOptions& options) { return max(a, options); }
Array amin(const Array& a, const ReduceOptions& options) { return min(a, options); }

}  // namespace gpukit
