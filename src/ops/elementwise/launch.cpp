// src/ops/elementwise/launch.cpp: collapse the layout, find or build the kernel, launch.
//
// Launch policy, decided by the backend's `simulated` capability (never by its name): on a GPU,
// one kernel per key (generate_elementwise), 256 threads per block and enough blocks for every
// element (or group of 16 bytes) once, the grid-stride loop only catching what a grid too large
// for the device leaves; on the simulator, the operation's generic kernels
// (generate_generic_elementwise, one compile for all its loops) with a few blocks per worker, each
// simulated thread streaming one contiguous chunk.
#include "ops/elementwise/launch.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "array/same_device.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/op_key.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// Mirrors gk_params in gpukit_elementwise.cuh.
struct Params {
    std::uint64_t address[max_elementwise_operands];
    std::int64_t shape[max_elementwise_dims];
    std::int64_t strides[max_elementwise_operands][max_elementwise_dims];
    std::int64_t size;
    std::uint64_t immediate[max_elementwise_operands][2];
    std::uint8_t storage[max_elementwise_operands];
    std::uint8_t is_immediate[max_elementwise_operands];
    std::int32_t ndim;
    std::int32_t flat;
    std::int32_t masked;
    std::int32_t tiled;
};

Module compile_elementwise(const std::string& source, const Device& device) {
    CompileOptions options;
    options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
    options.program_name = "gpukit_elementwise.cu";
    return Module::compile(source, options, device);
}

// GPU kernels by key, for the life of the process (one per op, dtypes and layout class that ran).
class KernelMap {
public:
    Kernel get(const OpKey& key, std::string_view expression, const Device& device) {
        {
            std::lock_guard lock(mutex_);
            if (auto found = kernels_.find(key); found != kernels_.end()) return found->second;
        }
        // Compiled outside the lock: the compile cache makes a race harmless (same source, same module).
        Kernel kernel =
            compile_elementwise(generate_elementwise(key, expression), device).kernel(elementwise_kernel_name);
        std::lock_guard lock(mutex_);
        return kernels_.emplace(key, std::move(kernel)).first->second;
    }

private:
    std::mutex mutex_;
    std::unordered_map<OpKey, Kernel, OpKeyHash> kernels_;
};

// The simulator's generic modules: one per operation (all its loops), or per loop for a loop
// without a family.
struct FamilyKey {
    std::uint16_t op = 0;
    std::uint8_t nin = 0, nout = 0;
    std::uint32_t loops = 0;                             // the family's size; 0 for a lone loop
    std::array<DType, max_elementwise_operands> lone{};  // a lone loop's dtypes
    std::int32_t device = 0;
    const void* backend = nullptr;
    friend bool operator==(const FamilyKey& a, const FamilyKey& b) noexcept = default;
};
struct FamilyKeyHash {
    std::size_t operator()(const FamilyKey& key) const noexcept {
        std::size_t h = std::hash<const void*>()(key.backend);
        const auto mix = [&h](std::size_t v) { h = (h ^ v) * 1099511628211ull; };
        mix(key.op);
        mix(key.nin);
        mix(key.nout);
        mix(key.loops);
        mix(static_cast<std::size_t>(key.device));
        for (DType d : key.lone) mix(static_cast<std::size_t>(d));
        return h;
    }
};

class FamilyMap {
public:
    Kernel get(const FamilyKey& key, std::size_t nin, std::size_t nout, std::span<const GenericLoop> family,
               std::size_t index, const Device& device) {
        {
            std::lock_guard lock(mutex_);
            if (auto found = modules_.find(key); found != modules_.end())
                return found->second.kernel(generic_kernel_name(index));
        }
        Module module = compile_elementwise(generate_generic_elementwise(nin, nout, family), device);
        Kernel kernel = module.kernel(generic_kernel_name(index));
        std::lock_guard lock(mutex_);
        modules_.emplace(key, std::move(module));
        return kernel;
    }

private:
    std::mutex mutex_;
    std::unordered_map<FamilyKey, Module, FamilyKeyHash> modules_;
};

// Never destroyed: kernels may outlive static destruction order.
KernelMap& kernel_map() {
    static auto* map = new KernelMap;
    return *map;
}
FamilyMap& family_map() {
    static auto* map = new FamilyMap;
    return *map;
}

// Whether `input` shares bytes with `output` other than element for element (same first element,
// same strides once broadcast): then writing the output could change inputs not yet read.
bool overlaps_unsafely(const Array& input, const Strides& input_strides, const Array& output) {
    if (input.memory() != output.memory() && input.memory()->allocation() != output.memory()->allocation())
        return false;
    const ByteExtent in = input.extent();
    const ByteExtent out = output.extent();
    const auto in_low = static_cast<std::int64_t>(input.address()) + in.low;
    const auto out_low = static_cast<std::int64_t>(output.address()) + out.low;
    if (in_low >= out_low + out.size() || out_low >= in_low + in.size()) return false;
    return !(input.address() == output.address() && input.itemsize() == output.itemsize() &&
             input_strides == output.strides());
}

std::atomic<bool>& specialized_flag() {
    static std::atomic<bool> flag{false};
    return flag;
}
bool specialized_on_simulator() { return specialized_flag().load(std::memory_order_relaxed); }

// Two dimensions, a transposed input, contiguous outputs and no mask: shared-memory tiles.
bool tiled_layout(const OpKey& key, std::size_t nin, std::size_t count) {
    if (key.ndim != 2 || key.masked) return false;
    bool transposed = false;
    for (std::size_t k = 0; k < count; ++k) {
        if (k < nin)
            transposed = transposed || key.access[k] == AccessClass::transposed;
        else if (key.access[k] != AccessClass::contiguous && key.access[k] != AccessClass::contiguous_aligned16)
            return false;
    }
    return transposed;
}

// Elements per group, or 1: the widest operand moves 16 bytes per group, narrower ones less (a
// cast float32 -> float16 reads 16 bytes and writes 8). Every array operand must be reached in
// whole groups (contiguous and aligned, a row broadcast or aligned rows, one element), outputs
// contiguous or aligned rows; with rows or single elements, the innermost extent a multiple of the
// group so that no group straddles two rows.
std::uint8_t vector_width(const OpKey& key, const CollapsedLayout& layout, std::span<const std::int64_t> itemsizes,
                          std::size_t count) {
    if (key.masked) return 1;
    std::int64_t widest = 0;
    bool rows = false;
    for (std::size_t k = 0; k < count; ++k) {
        const AccessClass access = key.access[k];
        if (access == AccessClass::immediate) continue;
        widest = std::max(widest, itemsizes[k]);
        const bool whole = access == AccessClass::contiguous_aligned16 || access == AccessClass::rows_aligned16 ||
                           (k < key.nin && (access == AccessClass::rows_broadcast || access == AccessClass::scalar));
        if (!whole) return 1;
        rows = rows || access != AccessClass::contiguous_aligned16;
    }
    if (widest == 0 || widest >= 16) return 1;
    const auto width = static_cast<std::uint8_t>(16 / widest);
    if (rows && (layout.shape.empty() || layout.shape.back() % width != 0)) return 1;
    return width;
}

}  // namespace

void set_specialized_elementwise_on_simulator(bool on) { specialized_flag().store(on); }
bool specialized_elementwise_on_simulator() { return specialized_on_simulator(); }

void launch_elementwise(const ElementwiseLoop& loop, std::span<const ElementwiseOperand> inputs,
                        std::span<const Array* const> outputs, const Array* where) {
    const std::size_t nin = inputs.size();
    const std::size_t nout = outputs.size();
    const std::size_t count = nin + nout;
    const std::size_t total = count + (where ? 1 : 0);
    if (outputs.empty() || total > max_elementwise_operands || loop.loop_dtypes.size() != count)
        throw InvalidArgumentError(concat("an elementwise kernel takes 1 to ", max_elementwise_operands,
                                          " operands with one loop dtype each, not ", count));
    const Device device = outputs.front()->device();
    const Shape& shape = outputs.front()->shape();

    // Operands in kernel order (inputs, outputs, mask); a null array is a scalar.
    std::array<const Array*, max_elementwise_operands> operands{};
    std::vector<Array> copies;  // inputs read from a copy (overlap); kept until the launch is queued
    std::vector<Strides> strides(total);
    const auto check_device = [&](const Array& array) { require_on_device(array, device, "an elementwise operation"); };
    for (std::size_t k = nin; k < count; ++k) {
        const Array& output = *outputs[k - nin];
        check_device(output);
        if (output.shape() != shape)
            throw InvalidArgumentError(concat("outputs of one operation must have one shape, not ", format_shape(shape),
                                              " and ", format_shape(output.shape())));
        operands[k] = &output;
        strides[k] = output.strides();
    }
    for (std::size_t k = 0; k < nin; ++k) {
        const Array* input = inputs[k].array();
        if (!input) {
            strides[k] = Strides(shape.size(), 0);
            continue;
        }
        check_device(*input);
        strides[k] = broadcast_strides(input->shape(), input->strides(), shape);
        for (const Array* output : outputs) {
            if (!overlaps_unsafely(*input, strides[k], *output)) continue;
            copies.reserve(nin);  // no reallocation: earlier operands point into it
            copies.push_back(Array::empty(input->shape(), input->dtype(), device));
            const DType same[] = {input->dtype(), input->dtype()};
            const Array* from[] = {input};
            const Array* to[] = {&copies.back()};
            launch_elementwise({copy_op, "out0 = in0", same}, from, to);
            input = &copies.back();
            strides[k] = broadcast_strides(input->shape(), input->strides(), shape);
            break;
        }
        operands[k] = input;
    }
    if (where) {
        check_device(*where);
        if (where->dtype() != DType::bool_)
            throw DTypeError(concat("Cannot cast array data from dtype('", to_string(where->dtype()),
                                    "') to dtype('bool') according to the rule 'safe' (where= takes a bool mask)"));
        operands[count] = where;
        strides[count] = broadcast_strides(where->shape(), where->strides(), shape);
    }

    const CollapsedLayout layout = collapse(shape, strides);
    if (layout.size == 0) return;
    if (layout.shape.size() > max_elementwise_dims)
        throw InvalidArgumentError(concat("elementwise operations take arrays of up to ", max_elementwise_dims,
                                          " dimensions after merging contiguous ones, not ", layout.shape.size()));

    // The stream the kernel runs on, named to each array: a result dropped right after runs no
    // wait when its memory goes back to the pool (it is reused in this stream's order).
    const StreamRef stream = current_stream(device);
    Params params{};
    const auto ndim = layout.shape.size();
    for (std::size_t k = 0; k < total; ++k) {
        if (operands[k]) {
            params.address[k] = launch_address(*operands[k], stream);
            params.storage[k] = static_cast<std::uint8_t>(operands[k]->dtype());
        } else {
            const std::array<std::byte, 16> value = inputs[k].scalar()->as(loop.loop_dtypes[k]);
            std::memcpy(params.immediate[k], value.data(), value.size());
            params.is_immediate[k] = 1;
            params.storage[k] = static_cast<std::uint8_t>(loop.loop_dtypes[k]);
        }
        for (std::size_t d = 0; d < ndim; ++d) params.strides[k][d] = layout.strides[k][d];
    }
    for (std::size_t d = 0; d < ndim; ++d) params.shape[d] = layout.shape[d];
    params.size = layout.size;
    params.ndim = static_cast<std::int32_t>(ndim);
    params.masked = where ? 1 : 0;

    const bool simulated = device.backend_info().capabilities.simulated;
    if (simulated && !specialized_on_simulator()) {
        // The fast path: one dimension (or none), every operand a contiguous array in its loop
        // dtype, no mask.
        bool flat = !where && ndim <= 1;
        for (std::size_t k = 0; k < count && flat; ++k)
            flat = operands[k] && operands[k]->dtype() == loop.loop_dtypes[k] &&
                   (ndim == 0 || layout.strides[k][0] == operands[k]->itemsize());
        params.flat = flat ? 1 : 0;
        for (std::size_t k = 0; k < nin && ndim == 2 && !where && params.tiled == 0; ++k)
            if (operands[k] &&
                classify_rows(layout, k, operands[k]->address(), operands[k]->itemsize()) == AccessClass::transposed)
                params.tiled = static_cast<std::int32_t>(k + 1);  // the input read through the tile
        FamilyKey key;
        key.op = loop.op;
        key.nin = static_cast<std::uint8_t>(nin);
        key.nout = static_cast<std::uint8_t>(nout);
        key.device = device.ordinal();
        key.backend = &device.backend_info();
        const GenericLoop lone{loop.expression, loop.loop_dtypes};
        std::span<const GenericLoop> family = loop.family;
        std::size_t index = loop.family_index;
        if (family.empty()) {
            family = std::span<const GenericLoop>(&lone, 1);
            index = 0;
            std::copy(loop.loop_dtypes.begin(), loop.loop_dtypes.end(), key.lone.begin());
        } else {
            key.loops = static_cast<std::uint32_t>(family.size());
        }
        const Kernel kernel = family_map().get(key, nin, nout, family, index, device);
        kernel(elementwise_launch_config(true, layout.size, stream), params);
        return;
    }

    OpKey key;
    key.op = loop.op;
    key.nin = static_cast<std::uint8_t>(nin);
    key.nout = static_cast<std::uint8_t>(nout);
    key.ndim = static_cast<std::uint8_t>(ndim);
    key.masked = where != nullptr;
    key.simulated = simulated;
    key.device = device.ordinal();
    key.backend = &device.backend_info();
    std::array<std::int64_t, max_elementwise_operands> itemsize_of{};
    const std::span<const std::int64_t> itemsizes(itemsize_of.data(), total);
    for (std::size_t k = 0; k < total; ++k) {
        if (k < count) {
            key.storage[k] = operands[k] ? operands[k]->dtype() : loop.loop_dtypes[k];
            key.loop[k] = loop.loop_dtypes[k];
        }
        if (!operands[k]) {
            key.access[k] = AccessClass::immediate;
            continue;
        }
        key.access[k] = classify(layout, k, operands[k]->address(), operands[k]->itemsize());
        if (key.access[k] == AccessClass::strided)
            key.access[k] = classify_rows(layout, k, operands[k]->address(), operands[k]->itemsize());
        itemsize_of[k] = operands[k]->itemsize();
    }
    key.index32 = fits_index32(layout, itemsizes);
    key.tiled = tiled_layout(key, nin, count);
    if (!key.tiled) key.vector_width = vector_width(key, layout, itemsizes, count);
    const Kernel kernel = kernel_map().get(key, loop.expression, device);
    LaunchConfig config =
        elementwise_launch_config(simulated, (layout.size + key.vector_width - 1) / key.vector_width, stream);
    if (key.tiled) {
        const std::int64_t tiles = ((layout.shape[0] + 31) / 32) * ((layout.shape[1] + 31) / 32);
        config.block = Dim3(256);
        config.grid = Dim3(static_cast<std::uint32_t>(std::min<std::int64_t>(tiles, 0x7fffffff)));
    }
    kernel(config, params);
}

void launch_elementwise(const ElementwiseLoop& loop, std::span<const Array* const> inputs,
                        std::span<const Array* const> outputs) {
    std::vector<ElementwiseOperand> operands;
    operands.reserve(inputs.size());
    for (const Array* input : inputs) operands.emplace_back(*input);
    launch_elementwise(loop, operands, outputs);
}

LaunchConfig elementwise_launch_config(bool simulated, std::int64_t work, const StreamRef& stream) {
    LaunchConfig config;
    config.stream = stream;
    if (simulated) {
        // The simulator's workers (its multiprocessors): std::thread::hardware_concurrency reads
        // /sys on every call, a fifth of a small operation's host time.
        const std::int64_t workers = std::max(1, stream.device().properties().multiprocessor_count);
        constexpr std::int64_t threads = 32;
        constexpr std::int64_t elements_per_thread = 4096;  // below this a launch's overhead dominates anyway
        const std::int64_t blocks = std::clamp<std::int64_t>(work / (threads * elements_per_thread), 1, 4 * workers);
        config.block = Dim3(threads);
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
    } else {
        constexpr std::int64_t threads = 256;
        const std::int64_t blocks = std::clamp<std::int64_t>((work + threads - 1) / threads, 1, 0x7fffffff);
        config.block = Dim3(threads);
        config.grid = Dim3(static_cast<std::uint32_t>(blocks));
    }
    return config;
}

}  // namespace gpukit::detail
