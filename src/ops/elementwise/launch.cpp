// src/ops/elementwise/launch.cpp: collapse the layout, find or build the kernel for its key, launch.
//
// Launch policy, decided by the backend's `simulated` capability (never by its name): on a GPU,
// 256 threads per block and enough blocks for every element (or group of 16 bytes) once, the
// grid-stride loop only catching what a grid too large for the device leaves; on the simulator a
// few blocks per worker, each simulated thread streaming one contiguous chunk.
#include "ops/elementwise/launch.hpp"

#include <algorithm>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "gpukit/current_stream.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/generator.hpp"
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
};

// Loaded kernels by key, for the life of the process (one per op, dtypes and layout class that ran).
class KernelMap {
public:
    Kernel get(const OpKey& key, std::string_view expression, const Device& device) {
        {
            std::lock_guard lock(mutex_);
            if (auto found = kernels_.find(key); found != kernels_.end()) return found->second;
        }
        // Compiled outside the lock: the compile cache makes a race harmless (same source, same module).
        CompileOptions options;
        options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
        options.program_name = "gpukit_elementwise.cu";
        const Module module = Module::compile(generate_elementwise(key, expression), options, device);
        Kernel kernel = module.kernel(elementwise_kernel_name);
        std::lock_guard lock(mutex_);
        return kernels_.emplace(key, std::move(kernel)).first->second;
    }

private:
    std::mutex mutex_;
    std::unordered_map<OpKey, Kernel, OpKeyHash> kernels_;
};

KernelMap& kernel_map() {
    static KernelMap* map = new KernelMap;  // never destroyed: kernels may outlive static destruction order
    return *map;
}

LaunchConfig launch_config(const OpKey& key, std::int64_t size, const Device& device) {
    LaunchConfig config;
    config.stream = current_stream(device);
    const std::int64_t work = (size + key.vector_width - 1) / key.vector_width;
    if (key.simulated) {
        const std::int64_t workers = std::max(1u, std::thread::hardware_concurrency());
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

}  // namespace

void launch_elementwise(const ElementwiseLoop& loop, std::span<const Array* const> inputs,
                        std::span<const Array* const> outputs) {
    const std::size_t count = inputs.size() + outputs.size();
    if (outputs.empty() || count > max_elementwise_operands || loop.loop_dtypes.size() != count)
        throw InvalidArgumentError(concat("an elementwise kernel takes 1 to ", max_elementwise_operands,
                                          " operands with one loop dtype each, not ", count));
    const Device device = outputs.front()->device();
    const Shape& shape = outputs.front()->shape();
    std::vector<const Array*> operands(inputs.begin(), inputs.end());
    operands.insert(operands.end(), outputs.begin(), outputs.end());
    std::vector<Strides> strides;
    for (std::size_t k = 0; k < count; ++k) {
        const Array* operand = operands[k];
        if (operand->device() != device)
            throw InvalidArgumentError(concat("an operation's arrays must be on one device; they are on ",
                                              operands.front()->device().name(), " ", device.ordinal(), " and ",
                                              operand->device().name(), " ", operand->device().ordinal(),
                                              " (copy one over first)"));
        if (k >= inputs.size() && operand->shape() != shape)
            throw InvalidArgumentError(concat("outputs of one operation must have one shape, not ", format_shape(shape),
                                              " and ", format_shape(operand->shape())));
        strides.push_back(broadcast_strides(operand->shape(), operand->strides(), shape));
    }
    const CollapsedLayout layout = collapse(shape, strides);
    if (layout.size == 0) return;
    if (layout.shape.size() > max_elementwise_dims)
        throw InvalidArgumentError(concat("elementwise operations take arrays of up to ", max_elementwise_dims,
                                          " dimensions after merging contiguous ones, not ", layout.shape.size()));

    OpKey key;
    key.op = loop.op;
    key.nin = static_cast<std::uint8_t>(inputs.size());
    key.nout = static_cast<std::uint8_t>(outputs.size());
    key.ndim = static_cast<std::uint8_t>(layout.shape.size());
    key.simulated = device.backend_info().capabilities.simulated;
    key.device = device.ordinal();
    key.backend = &device.backend_info();
    std::vector<std::int64_t> itemsizes;
    bool vectorizable = true;
    for (std::size_t k = 0; k < count; ++k) {
        key.storage[k] = operands[k]->dtype();
        key.loop[k] = loop.loop_dtypes[k];
        key.access[k] = classify(layout, k, operands[k]->address(), operands[k]->itemsize());
        itemsizes.push_back(operands[k]->itemsize());
        vectorizable = vectorizable && key.access[k] == AccessClass::contiguous_aligned16 &&
                       operands[k]->itemsize() == operands[0]->itemsize() && operands[k]->itemsize() < 16;
    }
    key.index32 = fits_index32(layout, itemsizes);
    if (vectorizable) key.vector_width = static_cast<std::uint8_t>(16 / operands[0]->itemsize());

    Params params{};
    for (std::size_t k = 0; k < count; ++k) {
        params.address[k] = launch_address(*operands[k]);
        for (std::size_t d = 0; d < layout.shape.size(); ++d) params.strides[k][d] = layout.strides[k][d];
    }
    for (std::size_t d = 0; d < layout.shape.size(); ++d) params.shape[d] = layout.shape[d];
    params.size = layout.size;

    const Kernel kernel = kernel_map().get(key, loop.expression, device);
    kernel(launch_config(key, layout.size, device), params);
}

}  // namespace gpukit::detail
