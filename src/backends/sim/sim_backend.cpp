// src/backends/sim/sim_backend.cpp: the simulator backend: kernels compiled by the host compiler,
// run in a supervised device process (device_process.hpp) on its pool of worker threads; device
// memory shared between it and this process (device_memory.hpp); streams and events here.
#include "backends/sim/sim_backend.hpp"

#include <pthread.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <cctype>
#include <cerrno>
#include <optional>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "backends/sim/crash_report.hpp"
#include "backends/sim/device_memory.hpp"
#include "backends/sim/device_process.hpp"
#include "backends/sim/host_collectives.hpp"
#include "backends/sim/host_compiler.hpp"
#include "backends/sim/lapack_solver.hpp"
#include "backends/sim/local_executor.hpp"
#include "backends/sim/sim_fft.hpp"
#include "backends/sim/sim_module.hpp"
#include "backends/sim/sim_streams.hpp"
#include "backends/sim/worker_pool.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

constexpr std::size_t allocation_alignment = 256;  // what cudaMalloc guarantees

// GPUKIT_SIM_ISOLATION=0 (or off, none): kernels run in this process, as a debugger wants them;
// a faulting kernel then ends the process. Default: in the device process.
bool run_in_this_process() {
    const char* value = std::getenv("GPUKIT_SIM_ISOLATION");
    if (!value || !*value) return false;
    const std::string text = value;
    if (text == "0" || text == "off" || text == "none" || text == "false") return true;
    if (text == "1" || text == "on" || text == "process" || text == "true") return false;
    throw InvalidArgumentError(concat("GPUKIT_SIM_ISOLATION=", text,
                                      ": say 'process' (kernels run in a device process of their own, the default) or "
                                      "'0' (in this process, for a debugger)"));
}

// GPUKIT_SIM_SANDBOX=1 (or on, true): kernels run in the sandbox from the start (set_sandbox).
bool sandbox_from_environment() {
    const char* value = std::getenv("GPUKIT_SIM_SANDBOX");
    if (!value || !*value) return false;
    const std::string text = value;
    if (text == "1" || text == "on" || text == "true") return true;
    if (text == "0" || text == "off" || text == "false") return false;
    throw InvalidArgumentError(concat("GPUKIT_SIM_SANDBOX=", text,
                                      ": say '1' (kernels run in the sandbox: no network, a private temporary "
                                      "directory, the files read-only) or '0' (they do not, the default)"));
}

constexpr std::string_view in_process_refusal =
    "Cannot run kernels in a sandbox: GPUKIT_SIM_ISOLATION=0 runs them in this process, which cannot enter one. "
    "Leave GPUKIT_SIM_ISOLATION unset for the sandbox";

// GPUKIT_SIM_LAUNCH_TIMEOUT=<seconds>: a launch running longer is given up (0 or unset: no limit).
double launch_time_limit() {
    const char* value = std::getenv("GPUKIT_SIM_LAUNCH_TIMEOUT");
    if (!value || !*value) return 0;
    char* end = nullptr;
    const double seconds = std::strtod(value, &end);
    if (end == value || *end || !(seconds >= 0))
        throw InvalidArgumentError(
            concat("GPUKIT_SIM_LAUNCH_TIMEOUT=", value, ": give the launch time limit in seconds (0 for none)"));
    return seconds;
}

// A module as the host sees it; the code runs in the executor.
struct HostModule;
struct HostKernel {
    HostModule* module;
    unsigned index;
    KernelInfo info;
};
struct HostModule {
    std::uint64_t id = 0;
    std::uint64_t data = 0;  // its data segments in device memory
    ModuleInfo info;
    std::vector<HostKernel> kernels;  // never resized once made: handles point into it
    std::map<std::string, GlobalInfo, std::less<>> globals;
};

// Set by fork() in the child: the device belongs to the parent.
std::atomic<bool> forked{false};

std::string host_machine() {
    utsname name{};
    return uname(&name) == 0 ? std::string(name.machine) : std::string("unknown");
}

// GPUKIT_SIM_MEMORY: the simulated device's memory, less than the host's (tests of work larger
// than a device, on a machine of any size): bytes, or a number with K, M, G or T (powers of 1024).
std::optional<std::size_t> memory_from_environment() {
    const char* value = std::getenv("GPUKIT_SIM_MEMORY");
    if (!value || !*value) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const unsigned long long number = std::strtoull(value, &end, 10);
    int shift = 0;
    if (end != value && *end && !end[1]) {
        const std::string_view units = "KMGT";
        if (const auto unit = units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(*end))));
            unit != std::string_view::npos) {
            shift = 10 * static_cast<int>(unit + 1);
            ++end;
        }
    }
    if (end == value || *end || errno != 0 || value[0] == '-' || number == 0 || number > (~0ull >> shift))
        throw InvalidArgumentError(concat("GPUKIT_SIM_MEMORY=", value,
                                          ": give the simulated device's memory in bytes, or with K, M, G or T "
                                          "(for example 64M), more than 0"));
    return static_cast<std::size_t>(number << shift);
}

// GPUKIT_SIM_DEVICES=<n>: how many devices the simulator presents (1 to 16, default 1), so that
// work over several GPUs is written and tested without them. They share the worker threads and
// one memory (each counts its own allocations against its own size), as GPUs of one host with
// peer access do.
constexpr int most_simulated_devices = 16;
int device_count_from_environment() {
    const char* value = std::getenv("GPUKIT_SIM_DEVICES");
    if (!value || !*value) return 1;
    char* end = nullptr;
    errno = 0;
    const long count = std::strtol(value, &end, 10);
    if (end == value || *end || errno != 0 || count < 1 || count > most_simulated_devices)
        throw InvalidArgumentError(concat("GPUKIT_SIM_DEVICES=", value,
                                          ": give how many devices the simulator presents, 1 to ",
                                          most_simulated_devices));
    return static_cast<int>(count);
}

// GPUKIT_SIM_PEER_ACCESS=0: the simulated devices cannot reach each other's memory, as GPUs on
// different PCIe roots cannot, so that copies between devices go through the host (the fallback
// is tested without such a machine). Default 1: every pair has peer access.
bool peer_access_from_environment() {
    const char* value = std::getenv("GPUKIT_SIM_PEER_ACCESS");
    if (!value || !*value) return true;
    const std::string text = value;
    if (text == "1" || text == "on" || text == "true") return true;
    if (text == "0" || text == "off" || text == "false") return false;
    throw InvalidArgumentError(concat("GPUKIT_SIM_PEER_ACCESS=", text,
                                      ": say '1' (the simulated devices reach each other's memory, the default) or "
                                      "'0' (they do not: copies between them go through the host)"));
}

DeviceProperties simulated_properties(unsigned workers, int ordinal) {
    DeviceProperties p;
    p.backend = "sim";
    p.ordinal = ordinal;
    p.name = concat("gpukit CPU simulator (", workers, workers == 1 ? " worker thread)" : " worker threads)");
    p.compute_capability = {9, 0};  // the capability the prelude's __CUDA_ARCH__ models
    p.target = "host-" + host_machine();
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    p.total_memory =
        pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0;
    if (const std::optional<std::size_t> limit = memory_from_environment())
        p.total_memory = std::min(p.total_memory, *limit);
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

std::vector<DeviceProperties> simulated_devices() {
    std::vector<DeviceProperties> devices;
    const int count = device_count_from_environment();
    devices.reserve(static_cast<std::size_t>(count));
    for (int ordinal = 0; ordinal < count; ++ordinal)
        devices.push_back(simulated_properties(WorkerPool::configured_size(), ordinal));
    return devices;
}

// One memory for all the devices: each device's size, as many times as there are devices, but
// no more than the host has.
std::size_t shared_memory_size(const std::vector<DeviceProperties>& devices) {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    const std::size_t host =
        pages > 0 && page_size > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0;
    const std::size_t each = devices.front().total_memory;
    return each > host / devices.size() ? host : each * devices.size();
}

class SimBackend final : public Backend {
public:
    SimBackend()
        : properties_(simulated_devices()),
          peer_access_(peer_access_from_environment()),
          allocated_(properties_.size()),
          memory_(shared_memory_size(properties_)) {
        static const int registered = pthread_atfork(nullptr, nullptr, [] { forked = true; });
        (void)registered;
        const double limit = launch_time_limit();
        const bool sandbox = sandbox_from_environment();
        protocol::spin_ns();  // GPUKIT_SIM_SPIN_US, checked here
        if (run_in_this_process()) {
            if (sandbox) throw InvalidArgumentError(concat("GPUKIT_SIM_SANDBOX=1: ", in_process_refusal));
            install_crash_report();
            local_ = std::make_unique<LocalExecutor>(memory_.fd(), memory_.base());
            local_->directory().remove_at_exit();
            executor_ = local_.get();
        } else {
            process_ = std::make_unique<DeviceProcess>(memory_, limit, sandbox);
            executor_ = process_.get();
            streams_.set_stopper([this](const std::string& why) { return executor_.load()->abandon(why); });
        }
    }

    const BackendInfo& info() const override { return sim_backend_descriptor().info; }
    int device_count() override { return static_cast<int>(properties_.size()); }
    const DeviceProperties& properties(int device) override {
        check_device(device);
        return properties_[static_cast<std::size_t>(device)];
    }
    MemoryInfo memory_info(int device) override {
        check_device(device);
        const long pages = sysconf(_SC_AVPHYS_PAGES);
        const long page_size = sysconf(_SC_PAGESIZE);
        const std::size_t host_free =
            pages > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size) : 0;
        const std::size_t total = properties(device).total_memory;
        const std::size_t unallocated = total - std::min(allocated(device).load(), total);
        return {std::min(host_free, unallocated), total};
    }
    // The devices share one set of streams: a device's synchronize waits for the others' work too.
    void synchronize_device(int device, const Deadline& deadline) override {
        check_device(device);
        streams_.synchronize_all(deadline);
    }
    const Compiler& compiler() override { return host_compiler(); }

    void set_sandbox(bool on) override {
        if (executor_.load() != process_.get()) {  // kernels run in this process
            if (!on) return;
            if (!process_) throw BackendUnavailableError(std::string(in_process_refusal));
            throw BackendUnavailableError(concat("Cannot run kernels in a sandbox: ", process_->start_failure(),
                                                 ", so kernels run in this process, which cannot enter one"));
        }
        process_->set_sandbox(on);
    }
    bool sandboxed() const override { return process_ && executor_.load() == process_.get() && process_->sandboxed(); }

    // ---- memory: device memory (device_memory.hpp), shared with the device process

    // The simulated device has as much memory as the machine (GPUKIT_SIM_MEMORY: less): allocations
    // beyond what is left of it fail as on a GPU, even where the operating system would overcommit. Managed memory is
    // device memory here (the host addresses both); pinned memory is device memory too, which
    // kernels may read as they may on a GPU, but check mode does not count it as theirs.
    bool kernels_reach_host_memory(int device, std::uint64_t address, std::size_t bytes) override {
        check_device(device);
        // In the device process kernels see device memory only (it is shared); in this process, everything.
        return local_ != nullptr || memory_.contains(address, bytes);
    }

    std::uint64_t allocate(int device, MemoryKind kind, std::size_t bytes) override {
        check_device(device);
        const std::size_t total = properties(device).total_memory;
        std::atomic<std::size_t>& allocated_here = allocated(device);
        const std::size_t rounded = (bytes + allocation_alignment - 1) / allocation_alignment * allocation_alignment;
        const std::size_t in_use = allocated_here.load();
        const std::size_t free = total - std::min(in_use, total);
        std::optional<std::uint64_t> address;
        if (rounded >= bytes && rounded <= free) address = memory_.allocate(rounded, allocation_alignment);
        if (!address && rounded >= bytes && !forked) {
            // Memory freed while queued work could still use it comes back once that work ends.
            streams_.finish_put_off_actions();
            const std::size_t free_now = total - std::min(allocated_here.load(), total);
            if (rounded <= free_now) address = memory_.allocate(rounded, allocation_alignment);
        }
        if (!address) {
            if (kind == MemoryKind::pinned)
                throw OutOfMemoryError(concat("Failed to allocate ", format_bytes(bytes), " of host memory"),
                                       "CUDA_ERROR_OUT_OF_MEMORY", 2, "out of memory", bytes, free, total);
            throw OutOfMemoryError(
                concat("Failed to allocate ", format_bytes(bytes), " on ",
                       properties_.size() == 1 ? "the simulator" : concat("simulator device ", device)),
                "CUDA_ERROR_OUT_OF_MEMORY", 2, "out of memory", bytes, free, total);
        }
        allocated_here += rounded;
        if (kind == MemoryKind::pinned) {
            std::lock_guard lock(pinned_mutex_);
            pinned_.emplace(*address, bytes);
            return *address;
        }
        // The host writes managed memory without telling anyone: initcheck counts it as written.
        try {
            executor_.load()->allocation_added(*address, bytes, kind == MemoryKind::managed);
        } catch (...) {
            allocated_here -= rounded;
            memory_.release(*address);
            throw;
        }
        return *address;
    }
    // As cudaFree, a release waits for the work queued so far, which may still use the memory,
    // but without blocking: the memory goes when that work has ended. Until then it stays
    // allocated, and accessible to the device process's kernels (device_memory.hpp: guard pages).
    void release(int device, MemoryKind kind, std::uint64_t address) noexcept override {
        if (forked) {  // the streams' threads are the parent's
            free_now(device, kind, address);
            return;
        }
        try {
            streams_.after_queued_work([this, device, kind, address] { free_now(device, kind, address); });
        } catch (...) {
            free_now(device, kind, address);  // no memory to put it off: at once, as before
        }
    }
    bool host_range_is_pinned(int device, const void* address, std::size_t bytes) override {
        check_device(device);
        const auto first = reinterpret_cast<std::uint64_t>(address);
        std::lock_guard lock(pinned_mutex_);
        auto after = pinned_.upper_bound(first);
        if (bytes == 0 || after == pinned_.begin()) return false;
        const auto& [start, size] = *std::prev(after);
        return first + bytes <= start + size;
    }

    void copy_to_device(int device, std::uint64_t dst, const void* src, std::size_t bytes,
                        std::optional<NativeStream> stream) override {
        check_device(device);
        submit(stream, [=, this] {
            std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
            executor_.load()->host_wrote(dst, bytes);
        });
    }
    void upload_staged(int device, std::uint64_t dst, const void* src, std::size_t bytes,
                       NativeStream stream) override {
        check_device(device);
        const auto* first = static_cast<const std::byte*>(src);
        submit(stream, [=, this, staged = std::vector<std::byte>(first, first + bytes)] {
            std::memcpy(reinterpret_cast<void*>(dst), staged.data(), staged.size());
            executor_.load()->host_wrote(dst, staged.size());
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
        submit(stream, [=, this] {
            std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
            executor_.load()->host_wrote(dst, bytes);
        });
    }
    // The devices share one memory: a copy between two is a copy, with or without peer access
    // (which says only whether kernels may reach the other's memory).
    void copy_peer(int dst_device, std::uint64_t dst, int src_device, std::uint64_t src, std::size_t bytes,
                   std::optional<NativeStream> stream) override {
        check_device(src_device);
        copy_on_device(dst_device, dst, src, bytes, stream);
    }
    bool can_access_peer(int device, int peer) override {
        check_device(device);
        check_device(peer);
        return device != peer && peer_access_;
    }
    void enable_peer_access(int device, int peer) override {
        if (!can_access_peer(device, peer))
            throw InvalidArgumentError(concat("Simulator device ", device, " cannot reach the memory of device ", peer,
                                              " (GPUKIT_SIM_PEER_ACCESS=0)"));
    }
    void fill(int device, std::uint64_t dst, std::uint8_t value, std::size_t bytes,
              std::optional<NativeStream> stream) override {
        check_device(device);
        submit(stream, [=, this] {
            std::memset(reinterpret_cast<void*>(dst), value, bytes);
            executor_.load()->host_wrote(dst, bytes);
        });
    }

    // ---- streams and events

    NativeStream create_stream(int device, StreamFlags flags) override {
        check_device(device);
        return streams_.create_stream(flags == StreamFlags::blocking);
    }
    void release_stream(int, NativeStream stream) noexcept override {
        if (forked) return;
        try {
            streams_.destroy_stream(as_stream(stream));
        } catch (...) {
            // A destructor has no one to report to; the stream's thread has ended either way.
        }
    }
    void synchronize_stream(int device, NativeStream stream, const Deadline& deadline) override {
        check_device(device);
        streams_.synchronize(as_stream(stream), deadline);
    }
    bool query_stream(int device, NativeStream stream) override {
        check_device(device);
        return streams_.query(as_stream(stream));
    }
    void stream_wait_event(int device, NativeStream stream, NativeEvent event) override {
        check_device(device);
        streams_.wait(as_stream(stream), static_cast<SimEvent*>(event));
    }
    NativeEvent create_event(int device, EventFlags flags) override {
        check_device(device);
        return streams_.create_event(flags == EventFlags::timing);
    }
    void release_event(int, NativeEvent event) noexcept override {
        if (forked) return;
        try {
            streams_.destroy_event(static_cast<SimEvent*>(event));
        } catch (...) {
            // As for streams: nothing to report from a destructor.
        }
    }
    void record_event(int device, NativeEvent event, NativeStream stream) override {
        check_device(device);
        streams_.record(static_cast<SimEvent*>(event), as_stream(stream));
    }
    void synchronize_event(int device, NativeEvent event, const Deadline& deadline) override {
        check_device(device);
        streams_.synchronize(static_cast<SimEvent*>(event), deadline);
    }
    bool query_event(int device, NativeEvent event) override {
        check_device(device);
        return streams_.query(static_cast<SimEvent*>(event));
    }
    float elapsed_ms(int device, NativeEvent start, NativeEvent end) override {
        check_device(device);
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
        start_executor();
        auto module = std::make_unique<HostModule>();
        module->id = next_module_.fetch_add(1) + 1;
        const std::size_t data_bytes = module_data_bytes(image);
        if (data_bytes) {
            const auto data = memory_.allocate(data_bytes, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
            if (!data)
                throw OutOfMemoryError(concat("Failed to place a module's variables (", format_bytes(data_bytes),
                                              ") in the simulator's memory"),
                                       "CUDA_ERROR_OUT_OF_MEMORY", 2, "out of memory", data_bytes, 0,
                                       properties_.front().total_memory);
            module->data = *data;
        }
        try {
            module->info = executor_.load()->load(module->id, image, module->data);
        } catch (...) {
            if (module->data) memory_.release(module->data);
            throw;
        }
        module->kernels.reserve(module->info.kernels.size());
        for (unsigned i = 0; i < module->info.kernels.size(); ++i)
            module->kernels.push_back({module.get(), i, module->info.kernels[i]});
        for (const auto& [name, global] : module->info.globals) module->globals.emplace(name, global);
        return module.release();
    }
    void release_module(int, NativeModule handle) noexcept override {
        std::unique_ptr<HostModule> module(static_cast<HostModule*>(handle));
        if (forked) {
            static_cast<void>(module.release());  // the parent's device still has it
            return;
        }
        executor_.load()->unload(module->id);
        if (module->data) memory_.release(module->data);
    }

    std::optional<NativeFunction> find_function(int, NativeModule module, const std::string& symbol) override {
        for (auto& kernel : as_module(module).kernels)
            if (kernel.info.name == symbol) return &kernel;
        return std::nullopt;
    }
    std::vector<std::string> function_symbols(int, NativeModule module) override {
        std::vector<std::string> names;
        for (const auto& kernel : as_module(module).kernels) names.push_back(kernel.info.name);
        return names;
    }
    std::vector<std::string> global_names(int, NativeModule module) override {
        return as_module(module).info.global_names;
    }
    std::optional<GlobalSymbol> find_global(int device, NativeModule module, const std::string& name) override {
        const auto& globals = as_module(module).globals;
        auto it = globals.find(name);
        if (it == globals.end()) return std::nullopt;
        if (!it->second.address)
            throw InvalidArgumentError(concat("The variable '", name,
                                              "' lies among the module's code, where the host cannot reach it on the "
                                              "simulator; declare it outside functions, without const"));
        return GlobalSymbol{name, BufferView(Device(*this, device), it->second.address, it->second.size)};
    }
    std::optional<std::vector<KernelParam>> function_params(int, NativeFunction function) override {
        const auto& info = as_kernel(function).info;
        std::vector<KernelParam> params;
        for (std::size_t i = 0; i < info.param_sizes.size(); ++i)
            params.push_back({info.param_offsets[i], info.param_sizes[i], {}, {}});
        return params;
    }
    KernelAttributes function_attributes(int, NativeFunction function) override {
        const auto& info = as_kernel(function).info;
        KernelAttributes a;
        a.static_shared_bytes = info.static_shared_bytes;
        a.max_threads_per_block = properties_.front().limits.max_threads_per_block;
        const std::size_t limit = properties_.front().limits.shared_memory_per_block;
        a.max_dynamic_shared_bytes = info.static_shared_bytes < limit ? limit - info.static_shared_bytes : 0;
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
        return {block, static_cast<std::uint32_t>(properties_.front().multiprocessor_count) * 4};
    }
    int max_active_blocks_per_multiprocessor(int, NativeFunction, std::uint32_t, std::size_t) override { return 1; }

    void launch(int device, NativeFunction function, const Dim3& grid, const Dim3& block, std::size_t shared_bytes,
                NativeStream stream, void** args) override {
        check_device(device);
        const HostKernel& kernel = as_kernel(function);
        // The driver copies parameters at launch; so do we, for the work that runs later.
        auto values = std::make_shared<std::vector<std::vector<unsigned char>>>(kernel.info.param_sizes.size());
        for (std::size_t i = 0; i < values->size(); ++i) {
            (*values)[i].resize(kernel.info.param_sizes[i]);
            std::memcpy((*values)[i].data(), args[i], kernel.info.param_sizes[i]);
        }
        const std::uint64_t module = kernel.module->id;
        const unsigned index = kernel.index;
        streams_.enqueue(as_stream(stream), [this, values, module, index, grid, block, shared_bytes] {
            LaunchRequest request;
            request.module = module;
            request.kernel = index;
            request.grid = {grid.x, grid.y, grid.z};
            request.block = {block.x, block.y, block.z};
            request.shared_bytes = shared_bytes;
            request.arguments = *values;
            request.given_up = StreamScheduler::given_up_check();
            std::atomic<std::uint64_t> blocks_done{0};
            LaunchResult result = executor_.load()->launch(request, blocks_done);
            // Whatever the launch ends with, its hazards are kept for take_check_report().
            if (!result.hazards.empty()) {
                std::lock_guard lock(hazards_mutex_);
                hazards_.insert(hazards_.end(), result.hazards.begin(), result.hazards.end());
            }
            if (result.error) std::rethrow_exception(result.error);
            if (!result.hazards.empty() && raise_on_hazard()) throw HazardError(result.hazards.front());
        });
    }

    // ---- libraries: the CPU FFT, as host work in stream order (sim_fft.hpp)
    FftLibrary* fft_library(int device) override {
        check_device(device);
        std::call_once(fft_once_, [this] {
            fft_ = make_sim_fft({.enqueue = [this](NativeStream stream,
                                                   std::function<void()> work) { submit(stream, std::move(work)); },
                                 .wrote = [this](std::uint64_t address,
                                                 std::size_t bytes) { executor_.load()->host_wrote(address, bytes); }});
        });
        return fft_.get();
    }

    std::vector<Hazard> take_check_hazards() override {
        streams_.synchronize_all();
        return take_finished_check_hazards();
    }
    std::vector<Hazard> take_finished_check_hazards() override {
        std::lock_guard lock(hazards_mutex_);
        return std::exchange(hazards_, {});
    }

    // ---- dense solvers: LAPACK as host work in stream order (lapack_solver.hpp), made once.
    SolverLibrary* solver_library(int device) override {
        check_device(device);
        std::call_once(solver_once_, [this] {
            HostQueue queue;
            queue.submit = [this](NativeStream stream, std::function<void()> work) { submit(stream, std::move(work)); };
            queue.wrote = [this](std::uint64_t address, std::size_t bytes) {
                executor_.load()->host_wrote(address, bytes);
            };
            solver_ = make_lapack_solver(std::move(queue));
        });
        return solver_.get();
    }

    // ---- collectives: a host implementation in stream order (host_collectives.hpp), made once.
    CollectiveLibrary* collective_library() override {
        std::call_once(collectives_once_, [this] {
            HostQueue queue;
            queue.submit = [this](NativeStream stream, std::function<void()> work) { submit(stream, std::move(work)); };
            queue.wrote = [this](std::uint64_t address, std::size_t bytes) {
                executor_.load()->host_wrote(address, bytes);
            };
            collectives_ = make_host_collectives(std::move(queue));
        });
        return collectives_.get();
    }

private:
    // The device process starts with the first module; where it cannot, kernels run in this
    // process, unisolated, after saying so once.
    void start_executor() {
        std::call_once(started_, [&] {
            if (!process_ || process_->start()) return;
            // Never out of the sandbox once it was asked for: every use says why, until
            // set_sandbox(false) (this throw leaves the once to be tried again).
            if (process_->sandboxed()) throw BackendUnavailableError(process_->start_failure());
            std::fprintf(stderr,
                         "gpukit: %s. Kernels run in this process instead: a faulting kernel will end it "
                         "(GPUKIT_SIM_ISOLATION=0 says this is wanted and silences this message).\n",
                         process_->start_failure().c_str());
            install_crash_report();
            memory_.guard_pages(false);  // kernels run in this process, whose memory stays accessible
            local_ = std::make_unique<LocalExecutor>(memory_.fd(), memory_.base());
            local_->directory().remove_at_exit();
            // What check mode knows of the allocations so far: each counts as written.
            std::map<std::uint64_t, std::size_t> pinned;
            {
                std::lock_guard lock(pinned_mutex_);
                pinned = pinned_;
            }
            for (const auto& [address, bytes] : memory_.live())
                if (!pinned.count(address)) local_->allocation_added(address, bytes, true);
            executor_ = local_.get();
            streams_.set_stopper(nullptr);
        });
    }

    void check_device(int device) const {
        if (forked)
            throw UsageError(
                "The simulator's device belongs to the process that used it before fork(): a forked "
                "child cannot use it (as with CUDA). Use gpukit in the child only, or start it with "
                "the 'spawn' or 'forkserver' method of multiprocessing");
        const auto count = properties_.size();
        if (device < 0 || static_cast<std::size_t>(device) >= count)
            throw InvalidArgumentError(
                concat("There is no simulator device ", device, "; the simulator has ", count,
                       count == 1 ? " device (device 0)" : concat(" devices (0 to ", count - 1, ")"),
                       count == 1 ? "; GPUKIT_SIM_DEVICES=<n> presents more" : ""));
    }
    std::atomic<std::size_t>& allocated(int device) { return allocated_[static_cast<std::size_t>(device)]; }
    static SimStream* as_stream(NativeStream stream) { return static_cast<SimStream*>(stream); }
    static const HostKernel& as_kernel(NativeFunction function) { return *static_cast<HostKernel*>(function); }
    static HostModule& as_module(NativeModule module) { return *static_cast<HostModule*>(module); }

    void free_now(int device, MemoryKind kind, std::uint64_t address) noexcept {
        if (kind == MemoryKind::pinned) {
            std::lock_guard lock(pinned_mutex_);
            pinned_.erase(address);
        } else if (!forked) {
            try {
                executor_.load()->allocation_removed(address);
            } catch (...) {
                // Only check mode's record of allocations misses it; the memory goes all the same.
            }
        }
        const std::size_t bytes = memory_.release(address);
        allocated(device) -= (bytes + allocation_alignment - 1) / allocation_alignment * allocation_alignment;
    }

    void submit(std::optional<NativeStream> stream, std::function<void()> work) {
        if (stream)
            streams_.enqueue(as_stream(*stream), std::move(work));
        else
            streams_.run_synchronously(work);
    }

    std::vector<DeviceProperties> properties_;  // one per device
    bool peer_access_;
    std::vector<std::atomic<std::size_t>> allocated_;  // per device: rounded bytes of live allocations
    DeviceMemory memory_;
    std::unique_ptr<DeviceProcess> process_;  // kernels in a device process (the default)
    std::unique_ptr<LocalExecutor> local_;    // or in this one
    std::atomic<Executor*> executor_{nullptr};
    std::once_flag started_;
    std::atomic<std::uint64_t> next_module_{0};
    std::mutex pinned_mutex_;
    std::map<std::uint64_t, std::size_t> pinned_;  // page-locked allocations: address, bytes
    std::mutex hazards_mutex_;                     // guards hazards_
    std::vector<Hazard> hazards_;                  // found by check-mode launches, not yet taken
    StreamScheduler streams_;
    std::once_flag solver_once_;
    std::unique_ptr<SolverLibrary> solver_;
    std::once_flag fft_once_;
    std::unique_ptr<FftLibrary> fft_;
    std::once_flag collectives_once_;
    std::unique_ptr<CollectiveLibrary> collectives_;
};

}  // namespace

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<SimBackend>(); }

}  // namespace gpukit::detail::sim
