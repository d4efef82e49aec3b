// src/backends/sim/sim_backend.cpp: the simulator backend: kernels compiled by the host compiler,
// blocks run on a pool of worker threads, device memory in host memory.
#include "backends/sim/sim_backend.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>

#include "backends/sim/allocations.hpp"
#include "backends/sim/block_runner.hpp"
#include "backends/sim/check/launch_checker.hpp"
#include "backends/sim/check/tools.hpp"
#include "backends/sim/crash_report.hpp"
#include "backends/sim/host_compiler.hpp"
#include "backends/sim/sim_module.hpp"
#include "backends/sim/sim_streams.hpp"
#include "backends/sim/worker_pool.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

constexpr std::size_t allocation_alignment = 256;  // what cudaMalloc guarantees

std::string host_machine() {
    utsname name{};
    return uname(&name) == 0 ? std::string(name.machine) : std::string("unknown");
}

DeviceProperties simulated_properties(unsigned workers) {
    DeviceProperties p;
    p.backend = "sim";
    p.ordinal = 0;
    p.name = concat("gpukit CPU simulator (", workers, workers == 1 ? " worker thread)" : " worker threads)");
    p.compute_capability = {9, 0};  // the capability the prelude's __CUDA_ARCH__ models
    p.target = "host-" + host_machine();
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    p.total_memory =
        pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0;
    p.multiprocessor_count = static_cast<int>(workers);
    p.limits.max_threads_per_block = 1024;
    p.limits.max_block_dim = {1024, 1024, 64};
    p.limits.max_grid_dim = {2147483647u, 65535, 65535};
    p.limits.shared_memory_per_block = std::size_t{48} * 1024;
    p.limits.shared_memory_per_block_optin = dynamic_shared_capacity;
    p.limits.warp_size = 32;
    p.shared_memory_per_multiprocessor = dynamic_shared_capacity;
    p.total_constant_memory = std::size_t{64} * 1024;
    p.registers_per_block = 65536;
    p.registers_per_multiprocessor = 65536;
    p.max_threads_per_multiprocessor = 1024;  // a worker runs one block at a time
    return p;
}

class SimBackend final : public Backend {
public:
    SimBackend() : properties_(simulated_properties(WorkerPool::instance().size())) { install_crash_report(); }

    const BackendInfo& info() const override { return sim_backend_descriptor().info; }
    int device_count() override { return 1; }
    const DeviceProperties& properties(int device) override {
        check_device(device);
        return properties_;
    }
    MemoryInfo memory_info(int device) override {
        check_device(device);
        const long pages = sysconf(_SC_AVPHYS_PAGES);
        const long page_size = sysconf(_SC_PAGESIZE);
        return {pages > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0,
                properties_.total_memory};
    }
    void synchronize_device(int device) override {
        check_device(device);
        streams_.synchronize_all();
    }
    const Compiler& compiler() override { return host_compiler(); }

    // ---- memory: host memory, aligned like device allocations

    // The simulated device has as much memory as the machine: allocations beyond what is left of
    // it fail as on a GPU, even where the operating system would overcommit. Managed memory is
    // device memory here (the host addresses both); pinned memory is host memory, aligned like the
    // real thing, which kernels may not use.
    std::uint64_t allocate(int device, MemoryKind kind, std::size_t bytes) override {
        check_device(device);
        if (kind == MemoryKind::pinned) return reinterpret_cast<std::uint64_t>(allocate_pinned(bytes));
        const std::size_t rounded = (bytes + allocation_alignment - 1) / allocation_alignment * allocation_alignment;
        std::size_t in_use = allocated_.load();
        void* memory = nullptr;
        if (rounded >= bytes && rounded <= properties_.total_memory - std::min(in_use, properties_.total_memory))
            memory = std::aligned_alloc(allocation_alignment, rounded);
        if (!memory) {
            throw OutOfMemoryError(concat("Failed to allocate ", format_bytes(bytes), " on the simulator"),
                                   "CUDA_ERROR_OUT_OF_MEMORY", 2, "out of memory", bytes,
                                   properties_.total_memory - std::min(in_use, properties_.total_memory),
                                   properties_.total_memory);
        }
        allocated_ += rounded;
        AllocationTable::instance().add(reinterpret_cast<std::uint64_t>(memory), bytes);
        // The host writes managed memory without telling anyone: initcheck counts it as written.
        if (kind == MemoryKind::managed)
            AllocationTable::instance().mark_written(reinterpret_cast<std::uint64_t>(memory), bytes);
        return reinterpret_cast<std::uint64_t>(memory);
    }
    void release(int, MemoryKind kind, std::uint64_t address) noexcept override {
        if (kind == MemoryKind::pinned) return std::free(reinterpret_cast<void*>(address));
        if (auto allocation = AllocationTable::instance().containing(address, 1)) {
            allocated_ -= (allocation->size + allocation_alignment - 1) / allocation_alignment * allocation_alignment;
            AllocationTable::instance().remove(address);
        }
        std::free(reinterpret_cast<void*>(address));
    }

    void copy_to_device(int device, std::uint64_t dst, const void* src, std::size_t bytes,
                        std::optional<NativeStream> stream) override {
        check_device(device);
        submit(stream, [=] {
            std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
            AllocationTable::instance().mark_written(dst, bytes);
        });
    }
    void copy_to_host(int device, void* dst, std::uint64_t src, std::size_t bytes,
                      std::optional<NativeStream> stream) override {
        check_device(device);
        submit(stream, [=] { std::memcpy(dst, reinterpret_cast<const void*>(src), bytes); });
    }
    void copy_on_device(int device, std::uint64_t dst, std::uint64_t src, std::size_t bytes,
                        std::optional<NativeStream> stream) override {
        check_device(device);
        submit(stream, [=] {
            std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
            AllocationTable::instance().mark_written(dst, bytes);
        });
    }
    void fill(int device, std::uint64_t dst, std::uint8_t value, std::size_t bytes,
              std::optional<NativeStream> stream) override {
        check_device(device);
        submit(stream, [=] {
            std::memset(reinterpret_cast<void*>(dst), value, bytes);
            AllocationTable::instance().mark_written(dst, bytes);
        });
    }

    // ---- streams and events

    NativeStream create_stream(int device, StreamFlags flags) override {
        check_device(device);
        return streams_.create_stream(flags == StreamFlags::blocking);
    }
    void release_stream(int, NativeStream stream) noexcept override {
        try {
            streams_.destroy_stream(as_stream(stream));
        } catch (...) {
            // A destructor has no one to report to; the stream's thread has ended either way.
        }
    }
    void synchronize_stream(int, NativeStream stream) override { streams_.synchronize(as_stream(stream)); }
    bool query_stream(int, NativeStream stream) override { return streams_.query(as_stream(stream)); }
    void stream_wait_event(int, NativeStream stream, NativeEvent event) override {
        streams_.wait(as_stream(stream), static_cast<SimEvent*>(event));
    }
    NativeEvent create_event(int device, EventFlags flags) override {
        check_device(device);
        return streams_.create_event(flags == EventFlags::timing);
    }
    void release_event(int, NativeEvent event) noexcept override {
        try {
            streams_.destroy_event(static_cast<SimEvent*>(event));
        } catch (...) {
            // As for streams: nothing to report from a destructor.
        }
    }
    void record_event(int, NativeEvent event, NativeStream stream) override {
        streams_.record(static_cast<SimEvent*>(event), as_stream(stream));
    }
    void synchronize_event(int, NativeEvent event) override { streams_.synchronize(static_cast<SimEvent*>(event)); }
    bool query_event(int, NativeEvent event) override { return streams_.query(static_cast<SimEvent*>(event)); }
    float elapsed_ms(int, NativeEvent start, NativeEvent end) override {
        return streams_.elapsed_ms(static_cast<SimEvent*>(start), static_cast<SimEvent*>(end));
    }

    // ---- code

    NativeModule load_module(int device, ImageFormat format, std::string_view image) override {
        check_device(device);
        if (format != ImageFormat::shared_object)
            throw InvalidArgumentError(
                concat("The simulator runs modules it compiled itself (shared objects); it "
                       "cannot load ",
                       to_string(format), ". Compile the CUDA C source instead"));
        return new SimModule(image, runtime_hooks());
    }
    void release_module(int, NativeModule module) noexcept override { delete static_cast<SimModule*>(module); }

    std::optional<NativeFunction> find_function(int, NativeModule module, const std::string& symbol) override {
        if (const SimKernel* kernel = static_cast<SimModule*>(module)->kernel(symbol))
            return const_cast<SimKernel*>(kernel);
        return std::nullopt;
    }
    std::vector<std::string> function_symbols(int, NativeModule module) override {
        return static_cast<SimModule*>(module)->kernel_names();
    }
    std::vector<std::string> global_names(int, NativeModule module) override {
        return static_cast<SimModule*>(module)->global_names();
    }
    std::optional<GlobalSymbol> find_global(int device, NativeModule module, const std::string& name) override {
        auto global = static_cast<SimModule*>(module)->global(name);
        if (!global) return std::nullopt;
        return GlobalSymbol{
            name, BufferView(Device(*this, device), reinterpret_cast<std::uint64_t>(global->address), global->size)};
    }
    std::optional<std::vector<KernelParam>> function_params(int, NativeFunction function) override {
        const auto& record = *as_kernel(function).record;
        std::vector<KernelParam> params;
        for (unsigned i = 0; i < record.param_count; ++i)
            params.push_back({record.param_offsets[i], record.param_sizes[i], {}, {}});
        return params;
    }
    KernelAttributes function_attributes(int, NativeFunction function) override {
        const SimKernel& kernel = as_kernel(function);
        KernelAttributes a;
        a.static_shared_bytes = kernel.static_shared_bytes;
        a.max_threads_per_block = properties_.limits.max_threads_per_block;
        const std::size_t limit = properties_.limits.shared_memory_per_block;
        a.max_dynamic_shared_bytes = kernel.static_shared_bytes < limit ? limit - kernel.static_shared_bytes : 0;
        return a;
    }
    void set_max_dynamic_shared(int, NativeFunction, std::size_t) override {
        // The kernel layer keeps the limit and checks every launch against it; the buffer behind
        // extern __shared__ always holds the opt-in maximum.
    }
    BlockSizeSuggestion suggest_block_size(int, NativeFunction, std::size_t, std::uint32_t block_size_limit) override {
        // No occupancy on a CPU: a block per worker at a time. 256 threads amortise the per-block
        // cost and keep barriers cheap; enough blocks keep every worker busy.
        const std::uint32_t block = block_size_limit ? std::min<std::uint32_t>(256, block_size_limit) : 256;
        return {block, static_cast<std::uint32_t>(properties_.multiprocessor_count) * 4};
    }
    int max_active_blocks_per_multiprocessor(int, NativeFunction, std::uint32_t, std::size_t) override { return 1; }

    void launch(int device, NativeFunction function, const Dim3& grid, const Dim3& block, std::size_t shared_bytes,
                NativeStream stream, void** args) override {
        check_device(device);
        SimKernel& kernel = as_kernel(function);
        // The driver copies parameters at launch; so do we, for the work that runs later.
        auto storage = std::make_shared<LaunchStorage>();
        const auto& record = *kernel.record;
        storage->values.resize(record.param_count);
        for (unsigned i = 0; i < record.param_count; ++i) {
            storage->values[i].resize(record.param_sizes[i]);
            std::memcpy(storage->values[i].data(), args[i], record.param_sizes[i]);
        }
        for (auto& value : storage->values) storage->pointers.push_back(value.data());
        const SimModule* module = kernel.module;
        streams_.enqueue(as_stream(stream), [this, storage, &kernel, module, grid, block, shared_bytes] {
            std::unique_ptr<check::LaunchChecker> checker;
            const CheckTools tools = CheckTools::from_bits(module->record().check_tools);
            if (!tools.empty())
                checker = std::make_unique<check::LaunchChecker>(
                    *module, kernel.name, tools, gpukit_sim::Index3{grid.x, grid.y, grid.z},
                    gpukit_sim::Index3{block.x, block.y, block.z}, shared_bytes);
            // The tools the module was not compiled for do not see this launch; some must know of it.
            check::before_unwatched_launch(tools, storage->values);
            const BlockLaunch launch{module,
                                     &kernel,
                                     storage->pointers.data(),
                                     {grid.x, grid.y, grid.z},
                                     {block.x, block.y, block.z},
                                     shared_bytes,
                                     checker.get()};
            // Whatever the launch ends with, its hazards are kept for take_check_report().
            std::vector<Hazard> found;
            auto keep_hazards = [&] {
                if (!checker) return;
                found = checker->hazards();
                std::lock_guard lock(hazards_mutex_);
                hazards_.insert(hazards_.end(), found.begin(), found.end());
            };
            const std::uint64_t blocks = std::uint64_t{grid.x} * grid.y * grid.z;
            try {
                WorkerPool::instance().run(blocks, [&](std::uint64_t index) {
                    const gpukit_sim::Index3 at{static_cast<unsigned>(index % grid.x),
                                                static_cast<unsigned>((index / grid.x) % grid.y),
                                                static_cast<unsigned>(index / (std::uint64_t{grid.x} * grid.y))};
                    run_block(launch, at);
                });
            } catch (...) {
                keep_hazards();
                throw;
            }
            keep_hazards();
            if (!found.empty() && raise_on_hazard()) throw HazardError(found.front());
        });
    }

    std::vector<Hazard> take_check_hazards() override {
        streams_.synchronize_all();
        return take_finished_check_hazards();
    }
    std::vector<Hazard> take_finished_check_hazards() override {
        std::lock_guard lock(hazards_mutex_);
        return std::exchange(hazards_, {});
    }

private:
    void* allocate_pinned(std::size_t bytes) {
        const std::size_t rounded = (bytes + allocation_alignment - 1) / allocation_alignment * allocation_alignment;
        void* host = rounded >= bytes ? std::aligned_alloc(allocation_alignment, rounded) : nullptr;
        if (!host)
            throw OutOfMemoryError(concat("Failed to allocate ", format_bytes(bytes), " of host memory"),
                                   "CUDA_ERROR_OUT_OF_MEMORY", 2, "out of memory", bytes, 0, properties_.total_memory);
        return host;
    }

    struct LaunchStorage {
        std::vector<std::vector<unsigned char>> values;
        std::vector<void*> pointers;
    };

    static void check_device(int device) {
        if (device != 0)
            throw InvalidArgumentError(concat("There is no simulator device ", device, "; the simulator has device 0"));
    }
    static SimStream* as_stream(NativeStream stream) { return static_cast<SimStream*>(stream); }
    static SimKernel& as_kernel(NativeFunction function) { return *static_cast<SimKernel*>(function); }

    void submit(std::optional<NativeStream> stream, std::function<void()> work) {
        if (stream)
            streams_.enqueue(as_stream(*stream), std::move(work));
        else
            streams_.run_synchronously(work);
    }

    DeviceProperties properties_;
    std::atomic<std::size_t> allocated_{0};  // rounded bytes of live allocations
    std::mutex hazards_mutex_;               // guards hazards_
    std::vector<Hazard> hazards_;            // found by check-mode launches, not yet taken
    StreamScheduler streams_;
};

}  // namespace

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<SimBackend>(); }

}  // namespace gpukit::detail::sim
