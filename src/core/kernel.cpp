// src/core/kernel.cpp: kernel attributes and checked launches.
#include "gpukit/kernel.hpp"

#include "core/launch_check.hpp"
#include "core/module_state.hpp"
#include "core/stream_access.hpp"
#include "gpukit/error.hpp"

namespace gpukit {

const std::string& Kernel::name() const { return state_->name; }
const std::string& Kernel::lowered_name() const { return state_->symbol; }
Device Kernel::device() const { return Device(*module_->backend, module_->device); }
const std::vector<KernelParam>& Kernel::params() const { return state_->params; }

KernelAttributes Kernel::attributes() const {
    KernelAttributes attributes = state_->attributes;
    attributes.max_dynamic_shared_bytes = state_->max_dynamic_shared_bytes.load(std::memory_order_relaxed);
    return attributes;
}

void Kernel::set_max_dynamic_shared_bytes(std::size_t bytes) const {
    detail::check_dynamic_shared_optin({state_->name, state_->device_description}, *state_->limits, state_->attributes,
                                       bytes);
    module_->backend->set_max_dynamic_shared(module_->device, state_->function, bytes);
    state_->max_dynamic_shared_bytes.store(bytes, std::memory_order_relaxed);
}

BlockSizeSuggestion Kernel::suggest_block_size(std::size_t dynamic_shared_bytes, std::uint32_t block_size_limit) const {
    return module_->backend->suggest_block_size(module_->device, state_->function, dynamic_shared_bytes, block_size_limit);
}

int Kernel::max_active_blocks_per_multiprocessor(std::uint32_t block_threads, std::size_t dynamic_shared_bytes) const {
    return module_->backend->max_active_blocks_per_multiprocessor(module_->device, state_->function, block_threads,
                                                                  dynamic_shared_bytes);
}

void* Kernel::native_handle() const { return state_->function; }

void Kernel::launch(const LaunchConfig& config, const KernelArgs& args) const {
    launch_raw(config, args.pointers().data(), args.sizes().data(), args.size());
}

void Kernel::launch_raw(const LaunchConfig& config, const void* const* args, const std::size_t* sizes,
                        std::size_t count) const {
    const auto& kernel = *state_;
    const detail::LaunchSubject subject{kernel.name, kernel.device_description};
    if (kernel.params_known) detail::check_arguments(subject, kernel.params, sizes, count);
    KernelAttributes limits_now = kernel.attributes;
    limits_now.max_dynamic_shared_bytes = kernel.max_dynamic_shared_bytes.load(std::memory_order_relaxed);
    detail::check_launch_config(subject, *kernel.limits, limits_now, config.grid, config.block, config.shared_bytes);
    const Device device(*module_->backend, module_->device);
    const auto stream = detail::StreamAccess::resolve(config.stream, device, "launch a kernel");
    module_->backend->launch(module_->device, kernel.function, config.grid, config.block, config.shared_bytes, stream,
                             const_cast<void**>(args));
}

}  // namespace gpukit
