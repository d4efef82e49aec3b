// src/backends/backend.hpp: the interface every backend implements, and the descriptor by which
// each registers itself.
//
// Everything above this line (devices, buffers, streams, modules, launches, the compile cache)
// is written once against it, and asks a backend's capabilities (gpukit/backend.hpp), never its
// name. A backend is a folder of src/backends/ that defines <name>_backend_descriptor() and a line
// in src/backends/CMakeLists.txt (see CONTRIBUTING.md). Handles are opaque pointers owned by the
// public RAII types; a backend never frees what it did not hand out. Every method reports failure
// by throwing a gpukit exception, except the release_* methods, which destructors call and which
// never throw.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "backends/blas_library.hpp"
#include "backends/solver_library.hpp"
#include "gpukit/backend.hpp"
#include "gpukit/check.hpp"
#include "gpukit/device.hpp"
#include "gpukit/error.hpp"
#include "gpukit/event.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"

namespace gpukit::detail {

using NativeStream = void*;  // nullptr: the device's default stream
using NativeEvent = void*;
using NativeModule = void*;
using NativeFunction = void*;

// The most bytes Backend::upload_staged takes in one call.
inline constexpr std::size_t staged_upload_limit = std::size_t{64} << 10;

class FftLibrary;         // backends/fft_library.hpp
class CollectiveLibrary;  // backends/collective_library.hpp

// How long a wait for the device may last: until `deadline`; `seconds` as the caller asked, for
// messages. A nullopt Deadline waits as long as it takes.
struct WaitLimit {
    std::chrono::steady_clock::time_point deadline;
    double seconds = 0;
};
using Deadline = std::optional<WaitLimit>;

// The code generator behind a backend (NVRTC, the host C++ compiler). Separate from the backend
// so that compiling (and caching) needs no device.
struct CompileInput {
    std::string_view source;
    const CompileOptions& options;
    std::string target;  // "sm_90"
    CheckTools check;    // the check tools to compile for: options.check and GPUKIT_CHECK, where the backend runs them
};

class Compiler {
public:
    virtual ~Compiler() = default;
    // Names the compiler and its version exactly; part of every cache key.
    virtual std::string identity() const = 0;
    // Compiles or throws CompileError (bad source) / BackendUnavailableError (no compiler).
    virtual CompiledImage compile(const CompileInput& input) const = 0;
};

class Backend {
public:
    virtual ~Backend() = default;

    // The descriptor's information (name, capabilities).
    virtual const BackendInfo& info() const = 0;

    // ---- devices
    virtual int device_count() = 0;
    virtual const DeviceProperties& properties(int device) = 0;
    virtual MemoryInfo memory_info(int device) = 0;
    // Whether kernels can reach [address, address + bytes) of the host's memory as it is, for
    // sharing host memory without a copy where the backend addresses host memory at all (DLPack's
    // kDLCPU). False where kernels run apart from this process (the simulator's device process).
    virtual bool kernels_reach_host_memory(int device, std::uint64_t address, std::size_t bytes) {
        static_cast<void>(device);
        static_cast<void>(address);
        static_cast<void>(bytes);
        return true;
    }
    // Waits for all the device's work. Past the deadline: WaitTimeoutError. A wait also ends when
    // the interrupt check (gpukit/device.hpp) says so: WaitInterruptedError. A backend that can
    // give up running work (the simulator) does so before throwing either, so that the device is
    // usable again.
    virtual void synchronize_device(int device, const Deadline& deadline) = 0;
    virtual const Compiler& compiler() = 0;
    // Kernels in the backend's sandbox or not (gpukit::set_sandbox): called only where
    // info().capabilities.sandbox says there is one.
    virtual void set_sandbox(bool on) {
        if (on) throw BackendUnavailableError("The " + info().name + " backend has no sandbox for kernels");
    }
    virtual bool sandboxed() const { return false; }

    // ---- memory
    // The address of `bytes` new bytes of that kind (a host address for pinned memory). Throws
    // OutOfMemoryError with the requested and free bytes when they are not there.
    virtual std::uint64_t allocate(int device, MemoryKind kind, std::size_t bytes) = 0;
    virtual void release(int device, MemoryKind kind, std::uint64_t address) noexcept = 0;
    // A nullopt stream makes the call synchronous.
    virtual void copy_to_device(int device, std::uint64_t dst, const void* src, std::size_t bytes,
                                std::optional<NativeStream> stream) = 0;
    // Queues a copy of at most staged_upload_limit bytes of ordinary (pageable) host memory on
    // `stream` and returns once the bytes are taken: the caller may free or change them at once, and
    // the host does not wait for the device (CUDA stages pageable memory so; pinned memory it would
    // read later, so callers pass only memory they allocated themselves).
    virtual void upload_staged(int device, std::uint64_t dst, const void* src, std::size_t bytes,
                               NativeStream stream) = 0;
    virtual void copy_to_host(int device, void* dst, std::uint64_t src, std::size_t bytes,
                              std::optional<NativeStream> stream) = 0;
    // Whether [address, address + bytes) lies in one page-locked host allocation: asynchronous
    // copies may then read it in place, without staging. False where it cannot tell.
    virtual bool host_range_is_pinned(int device, const void* address, std::size_t bytes) {
        static_cast<void>(device), static_cast<void>(address), static_cast<void>(bytes);
        return false;
    }
    virtual void copy_on_device(int device, std::uint64_t dst, std::uint64_t src, std::size_t bytes,
                                std::optional<NativeStream> stream) = 0;
    virtual void fill(int device, std::uint64_t dst, std::uint8_t value, std::size_t bytes,
                      std::optional<NativeStream> stream) = 0;

    // ---- several devices
    // Whether `device` can reach `peer`'s memory directly (peer access; false for the device
    // itself), and makes it so: called once per ordered pair (gpukit::Device::enable_peer_access).
    virtual bool can_access_peer(int device, int peer) = 0;
    virtual void enable_peer_access(int device, int peer) = 0;
    // Copies `bytes` from `src` on `src_device` to `dst` on `dst_device`, in `stream`'s order (a
    // stream of dst_device; nullopt: synchronously). Direct where peer access is enabled, else
    // staged through the host by the backend.
    virtual void copy_peer(int dst_device, std::uint64_t dst, int src_device, std::uint64_t src, std::size_t bytes,
                           std::optional<NativeStream> stream) = 0;

    // ---- streams and events
    virtual NativeStream create_stream(int device, StreamFlags flags) = 0;
    virtual void release_stream(int device, NativeStream stream) noexcept = 0;
    virtual void synchronize_stream(int device, NativeStream stream, const Deadline& deadline) = 0;
    virtual bool query_stream(int device, NativeStream stream) = 0;
    virtual void stream_wait_event(int device, NativeStream stream, NativeEvent event) = 0;
    virtual NativeEvent create_event(int device, EventFlags flags) = 0;
    virtual void release_event(int device, NativeEvent event) noexcept = 0;
    virtual void record_event(int device, NativeEvent event, NativeStream stream) = 0;
    virtual void synchronize_event(int device, NativeEvent event, const Deadline& deadline) = 0;
    virtual bool query_event(int device, NativeEvent event) = 0;
    virtual float elapsed_ms(int device, NativeEvent start, NativeEvent end) = 0;

    // ---- code
    virtual NativeModule load_module(int device, ImageFormat format, std::string_view image) = 0;
    virtual void release_module(int device, NativeModule module) noexcept = 0;
    virtual std::optional<NativeFunction> find_function(int device, NativeModule module, const std::string& symbol) = 0;
    // The symbols of every kernel in the module (mangled where C++).
    virtual std::vector<std::string> function_symbols(int device, NativeModule module) = 0;
    virtual std::optional<GlobalSymbol> find_global(int device, NativeModule module, const std::string& name) = 0;
    // The names of the module's __device__ and __constant__ variables, where the backend can list
    // them (the simulator; the driver has no such query).
    virtual std::vector<std::string> global_names(int device, NativeModule module) = 0;
    // Each parameter's offset and size; nullopt where the backend cannot tell.
    virtual std::optional<std::vector<KernelParam>> function_params(int device, NativeFunction function) = 0;
    virtual KernelAttributes function_attributes(int device, NativeFunction function) = 0;
    virtual void set_max_dynamic_shared(int device, NativeFunction function, std::size_t bytes) = 0;
    virtual BlockSizeSuggestion suggest_block_size(int device, NativeFunction function, std::size_t dynamic_shared,
                                                   std::uint32_t block_size_limit) = 0;
    virtual int max_active_blocks_per_multiprocessor(int device, NativeFunction function, std::uint32_t block_threads,
                                                     std::size_t dynamic_shared) = 0;
    // Launches a launch already checked by the caller. `args` points at one value per parameter.
    virtual void launch(int device, NativeFunction function, const Dim3& grid, const Dim3& block,
                        std::size_t shared_bytes, NativeStream stream, void** args) = 0;

    // ---- libraries: each the backend's library for `device`, made on first use and alive as long
    // as the backend; nullptr where the backend has none. BackendUnavailableError, naming the
    // library and how to install it, where the backend has one but this machine lacks it.
    // The vendor BLAS (backends/blas_library.hpp); where none, gpukit's own kernels serve matmul.
    virtual BlasLibrary* blas_library(int device) {
        static_cast<void>(device);
        return nullptr;
    }
    // The FFT library (backends/fft_library.hpp), for gpukit.fft.
    virtual FftLibrary* fft_library(int device) {
        static_cast<void>(device);
        return nullptr;
    }
    // The dense solvers (backends/solver_library.hpp), for gpukit.linalg.
    virtual SolverLibrary* solver_library(int device) {
        static_cast<void>(device);
        return nullptr;
    }
    // The collectives across the backend's devices (backends/collective_library.hpp), for
    // gpukit's collectives: NCCL on CUDA, a host implementation on the simulator.
    virtual CollectiveLibrary* collective_library() { return nullptr; }

    // ---- check mode (backends with capabilities.check_mode)
    // The hazards that check-mode launches found since the last call, after they finished.
    virtual std::vector<Hazard> take_check_hazards() { return {}; }
    // The hazards of the check-mode launches that have finished, without waiting for the others.
    virtual std::vector<Hazard> take_finished_check_hazards() { return {}; }
};

// How a backend registers itself: what it is, and how to make it. Each backend folder defines
// `const BackendDescriptor& <name>_backend_descriptor()`; the build lists the backends it compiled
// in, in the order automatic selection tries them (src/backends/CMakeLists.txt).
struct BackendDescriptor {
    BackendInfo info;
    // The backend, probing the machine. Throws BackendUnavailableError saying what is missing (no
    // driver, no device). Called at most once per process.
    std::unique_ptr<Backend> (*create)();
    // The backend's compiler, usable without a device (compiling needs no GPU). Throws
    // BackendUnavailableError when the compiler cannot be had.
    const Compiler& (*compiler)();
    // What the backend uses on this machine, for `gpukit info`. Never throws.
    std::vector<ToolchainPart> (*toolchain)();
};

// A backend of this name exists but was not built into this gpukit, and why not.
struct UnbuiltBackend {
    std::string_view name;
    std::string_view reason;
};

// The backends the build compiled in and those it left out (generated from src/backends/CMakeLists.txt).
std::span<const BackendDescriptor* const> built_backends();
std::span<const UnbuiltBackend> unbuilt_backends();

// The backend of that name, created on first use and alive until the process ends. Throws
// InvalidArgumentError for an unknown name, BackendUnavailableError when it cannot be had.
Backend& backend(std::string_view name);
// The process's selected backend (see gpukit::select_backend).
Backend& selected();
// The backends created so far. Never throws.
std::vector<Backend*> existing_backends();
// The compiler of the backend of that name, usable without a device.
const Compiler& compiler(std::string_view name);

}  // namespace gpukit::detail
