// src/backends/sim/local_executor.cpp: runs the simulated device's code in the calling process.
#include "backends/sim/local_executor.hpp"

#include <utility>

#include "backends/sim/allocations.hpp"
#include "backends/sim/block_runner.hpp"
#include "backends/sim/check/launch_checker.hpp"
#include "backends/sim/check/tools.hpp"
#include "backends/sim/worker_pool.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

ModuleInfo describe(const SimModule& module) {
    ModuleInfo info;
    for (const auto& kernel : module.kernels()) {
        KernelInfo k;
        k.name = kernel.name;
        for (unsigned i = 0; i < kernel.record->param_count; ++i) {
            k.param_sizes.push_back(kernel.record->param_sizes[i]);
            k.param_offsets.push_back(kernel.record->param_offsets[i]);
        }
        k.synchronises = kernel.record->synchronises;
        k.static_shared_bytes = kernel.static_shared_bytes;
        info.kernels.push_back(std::move(k));
    }
    for (const auto& [name, global] : module.globals())
        info.globals.emplace_back(name, GlobalInfo{global.device_address, global.size});
    info.global_names = module.global_names();
    info.check_tools = module.record().check_tools;
    return info;
}

}  // namespace

LocalExecutor::LocalExecutor(int memory_fd, std::uint64_t memory_base)
    : memory_fd_(memory_fd), memory_base_(memory_base), directory_("gpukit-sim-") {}

LocalExecutor::~LocalExecutor() {
    std::lock_guard lock(mutex_);
    modules_.clear();  // unloaded before their directory goes
}

ModuleInfo LocalExecutor::load(std::uint64_t id, std::string_view image, std::uint64_t data) {
    return load_module(id, image, data, false);
}

ModuleInfo LocalExecutor::reload(std::uint64_t id, std::string_view image, std::uint64_t data) {
    return load_module(id, image, data, true);
}

ModuleInfo LocalExecutor::load_module(std::uint64_t id, std::string_view image, std::uint64_t data, bool keep_values) {
    ModulePlacement placement;
    placement.directory = &directory_;
    placement.memory_fd = memory_fd_;
    placement.memory_base = memory_base_;
    placement.data = data;
    placement.keep_values = keep_values;
    {
        std::lock_guard lock(mutex_);
        placement.file_name = concat("module-", id, "-", loads_++, ".so");
    }
    auto module = std::make_shared<SimModule>(image, runtime_hooks(), placement);
    ModuleInfo info = describe(*module);
    std::lock_guard lock(mutex_);
    modules_[id] = std::move(module);
    return info;
}

void LocalExecutor::unload(std::uint64_t id) noexcept {
    std::shared_ptr<SimModule> module;
    {
        std::lock_guard lock(mutex_);
        auto it = modules_.find(id);
        if (it == modules_.end()) return;
        module = std::move(it->second);
        modules_.erase(it);
    }
    // A launch still holding it unloads it when it ends.
}

const SimModule* LocalExecutor::module_at(const void* pc, std::uint64_t* id) const {
    const auto address = reinterpret_cast<std::uintptr_t>(pc);
    std::lock_guard lock(mutex_);
    for (const auto& [module_id, module] : modules_) {
        const auto [begin, end] = module->code();
        if (address >= begin && address < end) {
            if (id) *id = module_id;
            return module.get();
        }
    }
    return nullptr;
}

LaunchResult LocalExecutor::launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done) {
    return launch(request, blocks_done, 0);
}

LaunchResult LocalExecutor::launch(const LaunchRequest& request, std::atomic<std::uint64_t>& blocks_done,
                                   unsigned tag) {
    std::shared_ptr<SimModule> module;
    {
        std::lock_guard lock(mutex_);
        auto it = modules_.find(request.module);
        if (it == modules_.end())
            throw UsageError(concat("The simulator has no module ", request.module, " loaded (it was released)"));
        module = it->second;
    }
    if (request.kernel >= module->kernels().size())
        throw UsageError(concat("The simulator's module has no kernel ", request.kernel));
    const SimKernel& kernel = module->kernels()[request.kernel];
    std::vector<void*> pointers;
    pointers.reserve(request.arguments.size());
    for (const auto& value : request.arguments) pointers.push_back(const_cast<unsigned char*>(value.data()));

    std::unique_ptr<check::LaunchChecker> checker;
    const CheckTools tools = CheckTools::from_bits(module->record().check_tools);
    if (!tools.empty())
        checker = std::make_unique<check::LaunchChecker>(*module, kernel.name, tools, request.grid, request.block,
                                                         request.shared_bytes);
    // The tools the module was not compiled for do not see this launch; some must know of it.
    check::before_unwatched_launch(tools, request.arguments);
    BlockLaunch launch{module.get(),  &kernel, pointers.data(), request.grid, request.block, request.shared_bytes,
                       checker.get(), tag};
    const gpukit_sim::Index3 grid = request.grid;
    const std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;
    LaunchResult result;
    try {
        WorkerPool::instance().run(
            blocks,
            [&](std::uint64_t index) {
                const gpukit_sim::Index3 at{static_cast<unsigned>(index % grid.x),
                                            static_cast<unsigned>((index / grid.x) % grid.y),
                                            static_cast<unsigned>(index / (std::uint64_t{grid.x} * grid.y))};
                run_block(launch, at);
            },
            &blocks_done);
    } catch (...) {
        result.error = std::current_exception();
    }
    if (checker) result.hazards = checker->hazards();
    return result;
}

void LocalExecutor::allocation_added(std::uint64_t address, std::size_t bytes, bool written) {
    AllocationTable::instance().add(address, bytes);
    if (written) AllocationTable::instance().mark_written(address, bytes);
}

void LocalExecutor::allocation_removed(std::uint64_t address) { AllocationTable::instance().remove(address); }

void LocalExecutor::host_wrote(std::uint64_t address, std::size_t bytes) {
    AllocationTable::instance().mark_written(address, bytes);
}

}  // namespace gpukit::detail::sim
