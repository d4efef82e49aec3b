// src/ops/random/kernels.cpp: compiling and keeping the random number kernels' module.
#include "ops/random/kernels.hpp"

#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "gpukit/current_stream.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::detail {
namespace {

// Loaded kernels by (backend, device, name), for the life of the process.
class RandomKernelTable {
public:
    Kernel get(std::string_view name, const Device& device) {
        const Key key{&device.backend_info(), device.ordinal(), std::string(name)};
        std::lock_guard lock(mutex_);
        if (auto found = kernels_.find(key); found != kernels_.end()) return found->second;
        const ModuleKey module_key{&device.backend_info(), device.ordinal()};
        auto module = modules_.find(module_key);
        if (module == modules_.end()) {
            // Compiled under the lock: the first call waits for one compile, not several.
            std::string source = "// gpukit.random (src/ops/random/kernels.cpp).\n";
            source += elementwise_header_defines(device.backend_info().capabilities.simulated);
            source += std::string("#include \"") + std::string(random_header_name) + "\"\n";
            CompileOptions options;
            options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
            options.header(std::string(random_header_name), std::string(random_header()));
            // No multiply-add contraction: a GPU would fuse a * b + c where the simulator rounds
            // twice, and the numbers must be the same bits on both (gpukit_random.cuh).
            options.option("--fmad=false");
            options.program_name = "gpukit_random.cu";
            module = modules_.emplace(module_key, Module::compile(source, options, device)).first;
        }
        return kernels_.emplace(key, module->second.kernel(std::string(name))).first->second;
    }

private:
    using ModuleKey = std::tuple<const void*, int>;
    using Key = std::tuple<const void*, int, std::string>;
    std::mutex mutex_;
    std::map<ModuleKey, Module> modules_;
    std::map<Key, Kernel> kernels_;
};

RandomKernelTable& table() {
    static auto* kernels = new RandomKernelTable;  // never destroyed: kernels may outlive static destruction order
    return *kernels;
}

}  // namespace

Kernel random_kernel(std::string_view name, const Device& device) { return table().get(name, device); }

void launch_random(std::string_view name, const Device& device, std::int64_t threads, const RandomParams& params) {
    if (threads == 0) return;
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, threads, current_stream(device));
    random_kernel(name, device)(config, params);
}

}  // namespace gpukit::detail
