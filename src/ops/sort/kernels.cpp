// src/ops/sort/kernels.cpp: compiling and keeping the sort kernels' modules.
#include "ops/sort/kernels.hpp"

#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "gpukit/current_stream.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::detail {
namespace {

// Loaded kernels by (backend, device, shapes, name), for the life of the process.
class SortKernelTable {
public:
    Kernel get(std::string_view name, const Device& device, bool chunked) {
        const bool simulated = device.backend_info().capabilities.simulated;
        const Key key{&device.backend_info(), device.ordinal(), chunked, std::string(name)};
        std::lock_guard lock(mutex_);
        if (auto found = kernels_.find(key); found != kernels_.end()) return found->second;
        const ModuleKey module_key{&device.backend_info(), device.ordinal(), chunked};
        auto module = modules_.find(module_key);
        if (module == modules_.end()) {
            // Compiled under the lock: the first sort waits for one compile, not several.
            std::string source = "// gpukit's radix sort (src/ops/sort/kernels.cpp).\n";
            if (simulated && !chunked) source += "#define GK_GPU_SHAPES\n";
            source += elementwise_header_defines(simulated);
            source += std::string("#include \"") + std::string(sort_header_name) + "\"\n";
            CompileOptions options;
            options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
            options.header(std::string(sort_header_name), std::string(sort_header()));
            options.program_name = "gpukit_sort.cu";
            module = modules_.emplace(module_key, Module::compile(source, options, device)).first;
        }
        return kernels_.emplace(key, module->second.kernel(std::string(name))).first->second;
    }

private:
    using ModuleKey = std::tuple<const void*, int, bool>;
    using Key = std::tuple<const void*, int, bool, std::string>;
    std::mutex mutex_;
    std::map<ModuleKey, Module> modules_;
    std::map<Key, Kernel> kernels_;
};

SortKernelTable& table() {
    static auto* kernels = new SortKernelTable;  // never destroyed: kernels may outlive static destruction order
    return *kernels;
}

}  // namespace

bool sort_chunked(const Device& device) {
    return device.backend_info().capabilities.simulated && !specialized_elementwise_on_simulator();
}

Kernel sort_kernel(std::string_view name, const Device& device) {
    return table().get(name, device, sort_chunked(device));
}

void launch_sort_elements(std::string_view name, const Device& device, std::int64_t work, const SortParams& params) {
    if (work == 0) return;
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, work, current_stream(device));
    sort_kernel(name, device)(config, params);
}

}  // namespace gpukit::detail
