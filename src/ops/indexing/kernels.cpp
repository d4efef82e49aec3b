// src/ops/indexing/kernels.cpp: compiling and keeping the indexing kernels' modules.
#include "ops/indexing/kernels.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "gpukit/current_stream.hpp"
#include "ops/elementwise/generator.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

constexpr std::string_view indexing_header_name = "gpukit_indexing.cuh";

struct KernelInfo {
    std::string_view name;
    IndexingFamily family;
};

KernelInfo info(IndexingKernel kernel) {
    switch (kernel) {
        case IndexingKernel::gather: return {"gk_gather", IndexingFamily::gather};
        case IndexingKernel::scatter: return {"gk_scatter", IndexingFamily::gather};
        case IndexingKernel::select_count: return {"gk_select_count", IndexingFamily::select};
        case IndexingKernel::select_scan: return {"gk_select_scan", IndexingFamily::select};
        case IndexingKernel::select_write: return {"gk_select_write", IndexingFamily::select};
        case IndexingKernel::select_fill: return {"gk_select_fill", IndexingFamily::select};
    }
    return {"gk_gather", IndexingFamily::gather};
}

// Loaded kernels by (backend, device, kernel, index width), for the life of the process.
class KernelTable {
public:
    Kernel get(IndexingKernel kernel, const Device& device, bool index32) {
        const Key key{&device.backend_info(), device.ordinal(), kernel, index32};
        std::lock_guard lock(mutex_);
        if (auto found = kernels_.find(key); found != kernels_.end()) return found->second;
        // Compiled under the lock: the first use of a family waits for one compile, not several.
        const KernelInfo wanted = info(kernel);
        const bool simulated = device.backend_info().capabilities.simulated;
        const Module module = Module::compile(indexing_source(wanted.family, index32, simulated),
                                              indexing_compile_options(wanted.family), device);
        return kernels_.emplace(key, module.kernel(wanted.name)).first->second;
    }

private:
    using Key = std::tuple<const void*, int, IndexingKernel, bool>;
    std::mutex mutex_;
    std::map<Key, Kernel> kernels_;
};

KernelTable& table() {
    static auto* kernels = new KernelTable;  // never destroyed: kernels may outlive static destruction order
    return *kernels;
}

}  // namespace

std::string indexing_source(IndexingFamily family, bool index32, bool simulated) {
    std::string source = "// gpukit's indexing kernels (src/ops/indexing/kernels.cpp).\n";
    if (index32) source += "#define GK_INDEX32\n";
    source += elementwise_header_defines(simulated);
    source += family == IndexingFamily::select ? select_kernels_source() : gather_kernels_source();
    return source;
}

CompileOptions indexing_compile_options(IndexingFamily family) {
    CompileOptions options;
    options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
    options.header(std::string(indexing_header_name), std::string(indexing_header()));
    options.program_name = family == IndexingFamily::select ? "gpukit_select.cu" : "gpukit_gather.cu";
    return options;
}

Kernel indexing_kernel(IndexingKernel kernel, const Device& device, bool index32) {
    return table().get(kernel, device, index32);
}

}  // namespace gpukit::detail
