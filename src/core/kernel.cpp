// src/core/kernel.cpp: kernel attributes and checked launches.
#include "gpukit/kernel.hpp"

#include "core/launch_check.hpp"
#include "core/module_state.hpp"
#include "core/stream_access.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

const std::string& Kernel::name() const { return state_->name; }
const std::string& Kernel::lowered_name() const { return state_->symbol; }
Device Kernel::device() const { return Device(*module_->backend, module_->device); }
const std::vector<KernelParam>& Kernel::params() const { return state_->params; }

ParamKind Kernel::param_kind(std::size_t index) const { return state_->param_kinds.at(index); }

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
    return module_->backend->suggest_block_size(module_->device, state_->function, dynamic_shared_bytes,
                                                block_size_limit);
}

int Kernel::max_active_blocks_per_multiprocessor(std::uint32_t block_threads, std::size_t dynamic_shared_bytes) const {
    const std::pair<std::uint32_t, std::size_t> shape{block_threads, dynamic_shared_bytes};
    std::lock_guard lock(state_->occupancy_mutex);
    if (auto found = state_->occupancy.find(shape); found != state_->occupancy.end()) return found->second;
    const int blocks = module_->backend->max_active_blocks_per_multiprocessor(module_->device, state_->function,
                                                                              block_threads, dynamic_shared_bytes);
    return state_->occupancy.emplace(shape, blocks).first->second;
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
    if (!module_->check.contains(config.check)) return launch_checked(config, args, sizes, count);
    const Device device(*module_->backend, module_->device);
    const auto stream = detail::StreamAccess::resolve(config.stream, device, "launch a kernel");
    module_->launched.store(true, std::memory_order_relaxed);
    module_->backend->launch(module_->device, kernel.function, config.grid, config.block, config.shared_bytes, stream,
                             const_cast<void**>(args));
}

// LaunchConfig::check: the launch runs in the module's checked twin, which starts from the
// module's variables and hands them back, in stream order, so the launch sees and leaves what a
// plain launch would.
void Kernel::launch_checked(const LaunchConfig& config, const void* const* args, const std::size_t* sizes,
                            std::size_t count) const {
    detail::ModuleState& module = *module_;
    if (!module.backend->info().capabilities.check_mode) {
        std::vector<std::string> checking;
        for (const auto& info : backends())
            if (info.capabilities.check_mode) checking.push_back(info.name);
        throw InvalidArgumentError(detail::concat(
            "Cannot launch ", state_->name, " with LaunchConfig::check: the ", module.backend->info().name,
            " backend does not run check mode; the ", detail::join(checking, ", "), " backend does (GPUKIT_BACKEND=",
            checking.empty() ? "" : checking.front(), "). On a GPU, run under compute-sanitizer"));
    }
    if (module.source.empty())
        throw InvalidArgumentError(
            detail::concat("Cannot launch ", state_->name,
                           " with LaunchConfig::check: the module was "
                           "loaded from an image, so there is no source to compile for check mode"));
    const CheckTools tools = module.check | config.check;
    Kernel checked = [&] {
        std::lock_guard lock(module.twins_mutex);
        auto twin = module.checked_twins.find(tools.bits());
        if (twin == module.checked_twins.end()) {
            CompileOptions options = module.options;
            options.check = tools;
            twin = module.checked_twins
                       .emplace(tools.bits(),
                                Module::compile(module.source, options, Device(*module.backend, module.device)))
                       .first;
        }
        return twin->second.kernel(state_->name);
    }();
    const detail::ModuleState& twin = *checked.module_;

    detail::Backend& backend = *module.backend;
    const auto stream = detail::StreamAccess::resolve(config.stream, Device(backend, module.device), "launch a kernel");
    struct Variable {
        std::uint64_t ours, theirs;
        std::size_t bytes;
    };
    std::vector<Variable> variables;
    for (const auto& name : backend.global_names(module.device, module.handle)) {
        const auto ours = backend.find_global(module.device, module.handle, name);
        const auto theirs = backend.find_global(twin.device, twin.handle, name);
        if (ours && theirs && ours->memory.size_bytes() == theirs->memory.size_bytes())
            variables.push_back({ours->memory.address(), theirs->memory.address(), ours->memory.size_bytes()});
    }
    for (const auto& v : variables) backend.copy_on_device(module.device, v.theirs, v.ours, v.bytes, stream);
    LaunchConfig plain = config;
    plain.check = {};
    checked.launch_raw(plain, args, sizes, count);
    for (const auto& v : variables) backend.copy_on_device(module.device, v.ours, v.theirs, v.bytes, stream);
}

}  // namespace gpukit
