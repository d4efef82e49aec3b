// src/ops/own_kernels.cpp: one table of own-kernel modules and their kernels.
#include "ops/own_kernels.hpp"

#include <map>
#include <mutex>
#include <tuple>

#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

class OwnKernelTable {
public:
    Module module(const Device& device, const OwnKernelSource& source) {
        std::lock_guard lock(mutex_);
        return module_locked(device, source);
    }

    Kernel kernel(const Device& device, const OwnKernelSource& source, std::string_view name) {
        std::lock_guard lock(mutex_);
        KernelKey key{module_key(device, source), std::string(name)};
        if (auto found = kernels_.find(key); found != kernels_.end()) return found->second;
        return kernels_.emplace(std::move(key), module_locked(device, source).kernel(std::string(name))).first->second;
    }

    Kernel kernel(const Device& device, std::string_view family, std::uint64_t key,
                  const std::function<OwnKernelRecipe()>& make) {
        const KeyedKey keyed{&device.backend_info(), device.ordinal(), family, key};
        {
            std::lock_guard lock(mutex_);
            if (auto found = keyed_.find(keyed); found != keyed_.end()) return found->second;
        }
        const OwnKernelRecipe recipe = make();
        Kernel made = kernel(device, recipe.source, recipe.name);
        std::lock_guard lock(mutex_);
        return keyed_.emplace(keyed, std::move(made)).first->second;
    }

private:
    using KeyedKey = std::tuple<const void*, int, std::string_view, std::uint64_t>;
    using ModuleKey = std::tuple<const void*, int, std::string, std::string, std::string>;
    using KernelKey = std::tuple<ModuleKey, std::string>;

    static ModuleKey module_key(const Device& device, const OwnKernelSource& source) {
        return {&device.backend_info(), device.ordinal(), std::string(source.program_name), source.defines,
                join(source.options, "\n")};
    }

    // Compiled under the lock: the first call waits for one compile, not several.
    Module module_locked(const Device& device, const OwnKernelSource& source) {
        ModuleKey key = module_key(device, source);
        if (auto found = modules_.find(key); found != modules_.end()) return found->second;
        const bool simulated = device.backend_info().capabilities.simulated;
        std::string text = concat("// gpukit's ", source.program_name, " (src/ops/own_kernels.cpp).\n");
        text += source.defines;
        text += simulated ? elementwise_header_defines(true) : dtype_number_defines();
        text += concat("#include \"", source.header_name, "\"\n");
        CompileOptions options;
        options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
        options.header(std::string(source.header_name), std::string(source.header_text));
        for (const std::string& option : source.options) options.option(option);
        options.program_name = std::string(source.program_name);
        return modules_.emplace(std::move(key), Module::compile(text, options, device)).first->second;
    }

    std::mutex mutex_;
    std::map<ModuleKey, Module> modules_;
    std::map<KernelKey, Kernel> kernels_;
    std::map<KeyedKey, Kernel> keyed_;  // families are string literals: the views stay valid
};

OwnKernelTable& table() {
    static auto* kernels = new OwnKernelTable;  // never destroyed: kernels may outlive static destruction order
    return *kernels;
}

}  // namespace

Module own_kernel_module(const Device& device, const OwnKernelSource& source) { return table().module(device, source); }

Kernel own_kernel(const Device& device, const OwnKernelSource& source, std::string_view name) {
    return table().kernel(device, source, name);
}

Kernel own_kernel(const Device& device, std::string_view family, std::uint64_t key,
                  const std::function<OwnKernelRecipe()>& make) {
    return table().kernel(device, family, key, make);
}

bool runs_chunked_shapes(const Device& device) {
    return device.backend_info().capabilities.simulated && !specialized_elementwise_on_simulator();
}

}  // namespace gpukit::detail
