// src/ops/histogram/kernels.cpp: compiling, keeping and launching the histogram kernels.
#include "ops/histogram/kernels.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "gpukit/current_stream.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// The simulator runs one generic module that reads dtypes and modes from the parameters, each
// simulated thread a contiguous chunk; a GPU (and the simulator when tests ask for the GPU's
// shapes) gets a module per dtypes and mode, whose constants the compiler folds.
bool chunked(const Device& device) {
    return device.backend_info().capabilities.simulated && !specialized_elementwise_on_simulator();
}

std::string specialisation(const Device& device, const HistogramParams& p) {
    if (chunked(device)) return {};
    std::string defines = device.backend_info().capabilities.simulated ? "#define GK_GPU_SHAPES\n" : "";
    defines +=
        concat("#define GK_HIST_SPECIALISED\n#define GK_HIST_VALUE_DTYPE ", p.value_dtype,
               "\n#define GK_HIST_WEIGHT_DTYPE ", p.weight_dtype, "\n#define GK_HIST_MODE ", static_cast<int>(p.mode),
               "\n#define GK_HIST_COMPARE ", static_cast<int>(p.compare), "\n#define GK_HIST_ACCUMULATE ",
               static_cast<int>(p.accumulate), "\n#define GK_HIST_SHARED ", p.shared, "\n");
    return defines;
}

// Loaded modules by (backend, device, specialisation), for the life of the process.
class HistogramModules {
public:
    Kernel get(std::string_view name, const Device& device, const std::string& defines) {
        const Key key{&device.backend_info(), device.ordinal(), defines};
        std::lock_guard lock(mutex_);
        auto module = modules_.find(key);
        if (module == modules_.end()) {
            const bool simulated = device.backend_info().capabilities.simulated;
            std::string source = "// gpukit's histograms (src/ops/histogram/kernels.cpp).\n";
            source += defines;
            source += simulated ? elementwise_header_defines(true) : dtype_number_defines();
            source += concat("#include \"", histogram_header_name, "\"\n");
            CompileOptions options;
            options.header(std::string(elementwise_header_name), std::string(elementwise_header()));
            options.header(std::string(histogram_header_name), std::string(histogram_header()));
            options.program_name = "gpukit_histogram.cu";
            module = modules_.emplace(key, Module::compile(source, options, device)).first;
        }
        return module->second.kernel(std::string(name));
    }

private:
    using Key = std::tuple<const void*, int, std::string>;
    std::mutex mutex_;
    std::map<Key, Module> modules_;
};

HistogramModules& modules() {
    static auto* table = new HistogramModules;  // never destroyed: kernels may outlive static destruction order
    return *table;
}

std::int64_t shared_bytes_per_bin(BinAccumulator accumulate) {
    switch (accumulate) {
        case BinAccumulator::count: return 4;
        case BinAccumulator::sum_complex: return 16;
        default: return 8;
    }
}

// A block's own copy of the bins stays under this (several blocks then share a multiprocessor).
constexpr std::int64_t max_shared_histogram_bytes = std::int64_t{32} * 1024;
// A block counts at most this many elements in its 32-bit shared counters.
constexpr std::int64_t max_elements_per_block = std::int64_t{1} << 31;

}  // namespace

void launch_histogram(const Device& device, HistogramParams params) {
    if (params.size == 0) return;
    const StreamRef stream = current_stream(device);
    const std::int64_t itemsize = static_cast<std::int64_t>(gpukit::itemsize(static_cast<DType>(params.value_dtype)));
    const std::int64_t histogram_bytes = params.bins * shared_bytes_per_bin(params.accumulate);
    params.shared = histogram_bytes <= max_shared_histogram_bytes ? 1 : 0;
    LaunchConfig config;
    if (chunked(device)) {
        config = elementwise_launch_config(true, params.size, stream);
    } else {
        params.vector = params.stride == 1 && params.values % 16 == 0 ? 1 : 0;
        const std::int64_t work = params.vector ? params.size / (16 / itemsize) + 16 : params.size;
        if (params.shared) {
            // Few large blocks, each with its copy of the bins, several per multiprocessor.
            constexpr std::int64_t threads = 512;
            const std::int64_t multiprocessors = std::max(1, device.properties().multiprocessor_count);
            const std::int64_t blocks =
                std::clamp<std::int64_t>((work + threads - 1) / threads, 1, 4 * multiprocessors);
            config.block = Dim3(threads);
            config.grid = Dim3(static_cast<std::uint32_t>(
                std::max(blocks, (params.size + max_elements_per_block - 1) / max_elements_per_block)));
            config.stream = stream;
        } else {
            config = elementwise_launch_config(false, work, stream);
        }
    }
    if (params.shared && params.size > max_elements_per_block * static_cast<std::int64_t>(config.grid.x))
        params.shared = 0;
    // Whole 8-byte words: the kernel zeroes its copy a word at a time.
    if (params.shared) config.shared_bytes = static_cast<std::size_t>((histogram_bytes + 7) / 8 * 8);
    modules().get("gk_histogram", device, specialisation(device, params))(config, params);
}

void launch_histogram_bin_index(const Device& device, const HistogramParams& params) {
    if (params.size == 0) return;
    const LaunchConfig config =
        elementwise_launch_config(device.backend_info().capabilities.simulated, params.size, current_stream(device));
    modules().get("gk_histogram_bin_index", device, specialisation(device, params))(config, params);
}

}  // namespace gpukit::detail
