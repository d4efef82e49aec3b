// src/backends/cuda/cuda_backend.cpp: the CUDA backend (driver API + NVRTC).
//
// Each device uses its primary context, made current on the calling thread before each call.
// Every driver call goes through check() in driver.hpp with the action it was attempting.
#include "backends/cuda/cuda_backend.hpp"

#include <chrono>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>

#include "backends/cuda/cublas.hpp"
#include "backends/cuda/cufft.hpp"
#include "backends/cuda/cusolver.hpp"
#include "backends/cuda/device_waiter.hpp"
#include "backends/cuda/driver.hpp"
#include "backends/cuda/nccl.hpp"
#include "backends/cuda/nvrtc.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

struct DeviceState {
    explicit DeviceState(std::string description) : health(std::move(description)) {}

    CUdevice device = 0;
    DeviceProperties properties;
    ContextHealth health;
    std::once_flag context_once;
    CUcontext context = nullptr;
    std::unique_ptr<DeviceWaiter> waiter;  // for waits with a deadline or an interrupt check
    std::once_flag blas_once;              // a failed load (no cuBLAS) is tried again on the next call
    std::unique_ptr<BlasLibrary> blas;
    std::once_flag solver_once;
    std::unique_ptr<SolverLibrary> solver;  // cuSOLVER, made on first use
};

int attribute(const DriverApi& api, CUdevice device, CUdevice_attribute which) {
    int value = 0;
    check(api.cuDeviceGetAttribute(&value, which, device), nullptr,
          [&] { return concat("Failed to read attribute ", static_cast<int>(which), " of CUDA device ", device); });
    return value;
}

DeviceProperties read_properties(const DriverApi& api, int ordinal, CUdevice device) {
    DeviceProperties p;
    p.backend = "cuda";
    p.ordinal = ordinal;
    char name[256] = {};
    check(api.cuDeviceGetName(name, sizeof name, device), nullptr,
          [&] { return concat("Failed to read the name of CUDA device ", ordinal); });
    p.name = name;
    char bus[32] = {};
    if (api.cuDeviceGetPCIBusId(bus, sizeof bus, device) == CUDA_SUCCESS) p.pci_bus_id = bus;
    std::size_t total = 0;
    check(api.cuDeviceTotalMem(&total, device), nullptr,
          [&] { return concat("Failed to read the memory size of CUDA device ", ordinal); });
    p.total_memory = total;
    auto get = [&](CUdevice_attribute which) { return attribute(api, device, which); };
    p.compute_capability = {get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                            get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
    p.multiprocessor_count = get(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    auto& l = p.limits;
    l.max_threads_per_block = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    l.max_block_dim = {static_cast<std::uint32_t>(get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)),
                       static_cast<std::uint32_t>(get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)),
                       static_cast<std::uint32_t>(get(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z))};
    l.max_grid_dim = {static_cast<std::uint32_t>(get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)),
                      static_cast<std::uint32_t>(get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)),
                      static_cast<std::uint32_t>(get(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z))};
    l.shared_memory_per_block = static_cast<std::size_t>(get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
    l.shared_memory_per_block_optin =
        static_cast<std::size_t>(get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
    l.warp_size = get(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    p.shared_memory_per_multiprocessor =
        static_cast<std::size_t>(get(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
    p.total_constant_memory = static_cast<std::size_t>(get(CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
    p.registers_per_block = get(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    p.registers_per_multiprocessor = get(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    p.max_threads_per_multiprocessor = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    p.clock_rate_khz = get(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    p.memory_clock_rate_khz = get(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    p.memory_bus_width_bits = get(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    p.l2_cache_bytes = static_cast<std::size_t>(get(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
    p.target = p.architecture();
    return p;
}

std::string describe(const DeviceProperties& p) { return concat("device ", p.ordinal, " (", p.name, ")"); }

CUstream as_stream(NativeStream stream) { return static_cast<CUstream>(stream); }
CUevent as_event(NativeEvent event) { return static_cast<CUevent>(event); }
CUmodule as_module(NativeModule module) { return static_cast<CUmodule>(module); }
CUfunction as_function(NativeFunction function) { return static_cast<CUfunction>(function); }

class CudaBackend final : public Backend {
public:
    CudaBackend() : api_(driver()) {
        int count = 0;
        check(api_.cuDeviceGetCount(&count), nullptr, [] { return "Failed to count CUDA devices"; });
        if (count == 0)
            throw BackendUnavailableError(concat("The CUDA driver at ", api_.library_path, " (CUDA ",
                                                 api_.driver_version / 1000, ".", api_.driver_version % 1000 / 10,
                                                 ") found no CUDA device"));
        for (int ordinal = 0; ordinal < count; ++ordinal) {
            CUdevice device = 0;
            check(api_.cuDeviceGet(&device, ordinal), nullptr,
                  [&] { return concat("Failed to open CUDA device ", ordinal); });
            auto properties = read_properties(api_, ordinal, device);
            auto& state = devices_.emplace_back(describe(properties));
            state.device = device;
            state.properties = std::move(properties);
        }
    }

    const BackendInfo& info() const override { return cuda_backend_descriptor().info; }

    int device_count() override { return static_cast<int>(devices_.size()); }

    const DeviceProperties& properties(int device) override { return state(device).properties; }

    MemoryInfo memory_info(int device) override {
        auto& s = activate(device, "read the free memory of");
        MemoryInfo info;
        check(api_.cuMemGetInfo(&info.free_bytes, &info.total_bytes), &s.health,
              [&] { return concat("Failed to read the free memory of ", describe(s.properties)); });
        return info;
    }

    void synchronize_device(int device, const Deadline& deadline) override {
        auto& s = activate(device, "synchronize");
        const auto blocking = [this] { return api_.cuCtxSynchronize(); };
        const CUresult status =
            DeviceWaiter::needed(deadline)
                ? s.waiter->wait(blocking, nullptr, deadline, concat("the device's work on ", describe(s.properties)))
                : blocking();
        check(status, &s.health, [&] { return concat("Failed to synchronize ", describe(s.properties)); });
    }

    const Compiler& compiler() override { return nvrtc_compiler(); }

    BlasLibrary* blas_library(int device) override {
        auto& s = activate(device, "load cuBLAS for");
        std::call_once(s.blas_once, [&] { s.blas = make_cublas(api_, describe(s.properties)); });
        return s.blas.get();
    }

    // ---- memory

    std::uint64_t allocate(int device, MemoryKind kind, std::size_t bytes) override {
        auto& s = activate(device, "allocate memory on");
        const auto what = [&] {
            const char* memory = kind == MemoryKind::pinned    ? " of page-locked host memory for "
                                 : kind == MemoryKind::managed ? " of managed memory on "
                                                               : " on ";
            return concat("Failed to allocate ", format_bytes(bytes), memory, describe(s.properties));
        };
        CUresult status = CUDA_SUCCESS;
        std::uint64_t address = 0;
        if (kind == MemoryKind::pinned) {
            void* host = nullptr;
            status = api_.cuMemHostAlloc(&host, bytes, CU_MEMHOSTALLOC_PORTABLE);
            address = reinterpret_cast<std::uint64_t>(host);
        } else {
            CUdeviceptr pointer = 0;
            status = kind == MemoryKind::managed ? api_.cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL)
                                                 : api_.cuMemAlloc(&pointer, bytes);
            address = pointer;
        }
        if (status == CUDA_ERROR_OUT_OF_MEMORY) {
            MemoryInfo info;
            api_.cuMemGetInfo(&info.free_bytes, &info.total_bytes);
            throw OutOfMemoryError(what(), error_name(status), static_cast<int>(status), error_description(status),
                                   bytes, info.free_bytes, info.total_bytes);
        }
        check(status, &s.health, what);
        return address;
    }

    void release(int device, MemoryKind kind, std::uint64_t address) noexcept override {
        // A failure here (a poisoned context) leaves nothing to do: the memory goes with the context.
        if (!make_current_quietly(device)) return;
        if (kind == MemoryKind::pinned)
            api_.cuMemFreeHost(reinterpret_cast<void*>(address));
        else
            api_.cuMemFree(static_cast<CUdeviceptr>(address));
    }

    bool host_range_is_pinned(int device, const void* address, std::size_t bytes) override {
        if (bytes == 0 || !make_current_quietly(device)) return false;
        // Both ends in page-locked host memory of one allocation. The driver answers pageable
        // memory with an error: that is the "no", not a failure.
        const auto allocation_of = [&](std::uintptr_t at) -> std::optional<CUdeviceptr> {
            unsigned int type = 0;
            CUdeviceptr start = 0;
            const auto pointer = static_cast<CUdeviceptr>(at);
            if (api_.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, pointer) != CUDA_SUCCESS ||
                type != CU_MEMORYTYPE_HOST ||
                api_.cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, pointer) != CUDA_SUCCESS)
                return std::nullopt;
            return start;
        };
        const auto first = reinterpret_cast<std::uintptr_t>(address);
        const auto head = allocation_of(first), tail = allocation_of(first + bytes - 1);
        return head && tail && *head == *tail;
    }

    void copy_to_device(int device, std::uint64_t dst, const void* src, std::size_t bytes,
                        std::optional<NativeStream> stream) override {
        auto& s = activate(device, "copy to");
        const CUresult status =
            stream ? api_.cuMemcpyHtoDAsync(dst, src, bytes, as_stream(*stream)) : api_.cuMemcpyHtoD(dst, src, bytes);
        check(status, &s.health, [&] {
            return concat("Failed to copy ", format_bytes(bytes), " from the host to ", describe(s.properties));
        });
    }

    void upload_staged(int device, std::uint64_t dst, const void* src, std::size_t bytes,
                       NativeStream stream) override {
        copy_to_device(device, dst, src, bytes, stream);  // pageable: staged before cuMemcpyHtoDAsync returns
    }

    void copy_to_host(int device, void* dst, std::uint64_t src, std::size_t bytes,
                      std::optional<NativeStream> stream) override {
        auto& s = activate(device, "copy from");
        const CUresult status =
            stream ? api_.cuMemcpyDtoHAsync(dst, src, bytes, as_stream(*stream)) : api_.cuMemcpyDtoH(dst, src, bytes);
        check(status, &s.health, [&] {
            return concat("Failed to copy ", format_bytes(bytes), " from ", describe(s.properties), " to the host");
        });
    }

    void copy_on_device(int device, std::uint64_t dst, std::uint64_t src, std::size_t bytes,
                        std::optional<NativeStream> stream) override {
        auto& s = activate(device, "copy on");
        const CUresult status =
            stream ? api_.cuMemcpyDtoDAsync(dst, src, bytes, as_stream(*stream)) : api_.cuMemcpyDtoD(dst, src, bytes);
        check(status, &s.health,
              [&] { return concat("Failed to copy ", format_bytes(bytes), " within ", describe(s.properties)); });
    }

    void copy_peer(int dst_device, std::uint64_t dst, int src_device, std::uint64_t src, std::size_t bytes,
                   std::optional<NativeStream> stream) override {
        const CUcontext from = activate(src_device, "copy from").context;
        auto& s = activate(dst_device, "copy to");
        // The driver copies directly where peer access is enabled and stages through the host where not.
        const CUresult status = stream ? api_.cuMemcpyPeerAsync(dst, s.context, src, from, bytes, as_stream(*stream))
                                       : api_.cuMemcpyPeer(dst, s.context, src, from, bytes);
        check(status, &s.health, [&] {
            return concat("Failed to copy ", format_bytes(bytes), " from ", describe(state(src_device).properties),
                          " to ", describe(s.properties));
        });
    }
    bool can_access_peer(int device, int peer) override {
        auto& s = state(device);
        const auto& other = state(peer);
        if (device == peer) return false;
        int can = 0;
        check(api_.cuDeviceCanAccessPeer(&can, s.device, other.device), nullptr, [&] {
            return concat("Failed to ask whether ", describe(s.properties), " can reach the memory of ",
                          describe(other.properties));
        });
        return can != 0;
    }
    void enable_peer_access(int device, int peer) override {
        const CUcontext other = activate(peer, "enable peer access to").context;
        auto& s = activate(device, "enable peer access from");
        const CUresult status = api_.cuCtxEnablePeerAccess(other, 0);
        if (status == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) return;  // by another library in this process
        check(status, &s.health, [&] {
            return concat("Failed to let ", describe(s.properties), " reach the memory of ",
                          describe(state(peer).properties));
        });
    }

    void fill(int device, std::uint64_t dst, std::uint8_t value, std::size_t bytes,
              std::optional<NativeStream> stream) override {
        auto& s = activate(device, "set memory on");
        const CUresult status =
            stream ? api_.cuMemsetD8Async(dst, value, bytes, as_stream(*stream)) : api_.cuMemsetD8(dst, value, bytes);
        check(status, &s.health,
              [&] { return concat("Failed to set ", format_bytes(bytes), " of memory on ", describe(s.properties)); });
    }

    // ---- streams and events

    NativeStream create_stream(int device, StreamFlags flags) override {
        auto& s = activate(device, "create a stream on");
        CUstream stream = nullptr;
        check(api_.cuStreamCreate(&stream,
                                  flags == StreamFlags::non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT),
              &s.health, [&] { return concat("Failed to create a stream on ", describe(s.properties)); });
        return stream;
    }

    void release_stream(int device, NativeStream stream) noexcept override {
        // The driver defers the release until the stream's work is done; a failure (poisoned
        // context) leaves nothing to release.
        if (make_current_quietly(device)) api_.cuStreamDestroy(as_stream(stream));
    }

    void synchronize_stream(int device, NativeStream stream, const Deadline& deadline) override {
        auto& s = activate(device, "synchronize a stream on");
        const auto blocking = [this, stream] { return api_.cuStreamSynchronize(as_stream(stream)); };
        const CUresult status = DeviceWaiter::needed(deadline)
                                    ? s.waiter->wait(
                                          blocking, [&] { return api_.cuStreamQuery(as_stream(stream)); }, deadline,
                                          concat("the work of stream ", stream, " on ", describe(s.properties)))
                                    : blocking();
        check(status, &s.health,
              [&] { return concat("Failed to synchronize stream ", stream, " on ", describe(s.properties)); });
    }

    bool query_stream(int device, NativeStream stream) override {
        auto& s = activate(device, "query a stream on");
        const CUresult status = api_.cuStreamQuery(as_stream(stream));
        if (status == CUDA_ERROR_NOT_READY) return false;
        check(status, &s.health,
              [&] { return concat("Failed to query stream ", stream, " on ", describe(s.properties)); });
        return true;
    }

    void stream_wait_event(int device, NativeStream stream, NativeEvent event) override {
        auto& s = activate(device, "order a stream on");
        check(api_.cuStreamWaitEvent(as_stream(stream), as_event(event), 0), &s.health, [&] {
            return concat("Failed to make stream ", stream, " wait for event ", event, " on ", describe(s.properties));
        });
    }

    NativeEvent create_event(int device, EventFlags flags) override {
        auto& s = activate(device, "create an event on");
        CUevent event = nullptr;
        check(api_.cuEventCreate(&event, flags == EventFlags::timing ? CU_EVENT_DEFAULT : CU_EVENT_DISABLE_TIMING),
              &s.health, [&] { return concat("Failed to create an event on ", describe(s.properties)); });
        return event;
    }

    void release_event(int device, NativeEvent event) noexcept override {
        // As for streams: a destructor has no one to report a failure to.
        if (make_current_quietly(device)) api_.cuEventDestroy(as_event(event));
    }

    void record_event(int device, NativeEvent event, NativeStream stream) override {
        auto& s = activate(device, "record an event on");
        check(api_.cuEventRecord(as_event(event), as_stream(stream)), &s.health, [&] {
            return concat("Failed to record event ", event, " on stream ", stream, " of ", describe(s.properties));
        });
    }

    void synchronize_event(int device, NativeEvent event, const Deadline& deadline) override {
        auto& s = activate(device, "wait for an event on");
        const auto blocking = [this, event] { return api_.cuEventSynchronize(as_event(event)); };
        const CUresult status = DeviceWaiter::needed(deadline)
                                    ? s.waiter->wait(
                                          blocking, [&] { return api_.cuEventQuery(as_event(event)); }, deadline,
                                          concat("the work of event ", event, " on ", describe(s.properties)))
                                    : blocking();
        check(status, &s.health,
              [&] { return concat("Failed to wait for event ", event, " on ", describe(s.properties)); });
    }

    bool query_event(int device, NativeEvent event) override {
        auto& s = activate(device, "query an event on");
        const CUresult status = api_.cuEventQuery(as_event(event));
        if (status == CUDA_ERROR_NOT_READY) return false;
        check(status, &s.health,
              [&] { return concat("Failed to query event ", event, " on ", describe(s.properties)); });
        return true;
    }

    float elapsed_ms(int device, NativeEvent start, NativeEvent end) override {
        auto& s = activate(device, "time events on");
        float ms = 0;
        check(api_.cuEventElapsedTime(&ms, as_event(start), as_event(end)), &s.health, [&] {
            return concat("Failed to read the time between events ", start, " and ", end, " on ",
                          describe(s.properties),
                          " (both must be recorded with timing enabled, and the second must have completed)");
        });
        return ms;
    }

    // ---- code

    NativeModule load_module(int device, ImageFormat format, std::string_view image) override {
        auto& s = activate(device, "load a module on");
        const std::string data(image);  // NUL-terminated, as PTX must be
        char error_log[8192] = {};
        CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
        void* values[] = {error_log, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof error_log))};
        CUmodule module = nullptr;
        const CUresult status = api_.cuModuleLoadDataEx(&module, data.c_str(), 2, options, values);
        check(status, &s.health, [&] {
            std::string log = trim_trailing(error_log);
            return concat("Failed to load a ", to_string(format), " module (", format_bytes(image.size()), ") on ",
                          describe(s.properties), log.empty() ? "" : ": ", log);
        });
        return module;
    }

    void release_module(int device, NativeModule module) noexcept override {
        // Unloading fails only on a dead context, which takes the module with it.
        if (make_current_quietly(device)) api_.cuModuleUnload(as_module(module));
    }

    std::optional<NativeFunction> find_function(int device, NativeModule module, const std::string& symbol) override {
        auto& s = activate(device, "look up a kernel on");
        CUfunction function = nullptr;
        const CUresult status = api_.cuModuleGetFunction(&function, as_module(module), symbol.c_str());
        if (status == CUDA_ERROR_NOT_FOUND) return std::nullopt;
        check(status, &s.health,
              [&] { return concat("Failed to look up kernel ", symbol, " on ", describe(s.properties)); });
        return function;
    }

    std::vector<std::string> function_symbols(int device, NativeModule module) override {
        auto& s = activate(device, "list the kernels of a module on");
        if (!api_.cuModuleGetFunctionCount || !api_.cuModuleEnumerateFunctions || !api_.cuFuncGetName) return {};
        unsigned count = 0;
        check(api_.cuModuleGetFunctionCount(&count, as_module(module)), &s.health,
              [&] { return concat("Failed to count the kernels of a module on ", describe(s.properties)); });
        std::vector<CUfunction> functions(count);
        if (count)
            check(api_.cuModuleEnumerateFunctions(functions.data(), count, as_module(module)), &s.health,
                  [&] { return concat("Failed to list the kernels of a module on ", describe(s.properties)); });
        std::vector<std::string> names;
        for (CUfunction function : functions) {
            const char* name = nullptr;
            if (api_.cuFuncGetName(&name, function) == CUDA_SUCCESS && name) names.emplace_back(name);
        }
        return names;
    }

    std::vector<std::string> global_names(int, NativeModule) override { return {}; }

    std::optional<GlobalSymbol> find_global(int device, NativeModule module, const std::string& name) override {
        auto& s = activate(device, "look up a global on");
        CUdeviceptr address = 0;
        std::size_t bytes = 0;
        const CUresult status = api_.cuModuleGetGlobal(&address, &bytes, as_module(module), name.c_str());
        if (status == CUDA_ERROR_NOT_FOUND) return std::nullopt;
        check(status, &s.health,
              [&] { return concat("Failed to look up global ", name, " on ", describe(s.properties)); });
        return GlobalSymbol{name, BufferView(Device(*this, device), address, bytes)};
    }

    std::optional<std::vector<KernelParam>> function_params(int device, NativeFunction function) override {
        auto& s = activate(device, "read the parameters of a kernel on");
        if (!api_.cuFuncGetParamInfo) return std::nullopt;
        std::vector<KernelParam> params;
        for (std::size_t index = 0;; ++index) {
            std::size_t offset = 0, size = 0;
            const CUresult status = api_.cuFuncGetParamInfo(as_function(function), index, &offset, &size);
            if (status == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
            check(status, &s.health, [&] {
                return concat("Failed to read parameter ", index, " of a kernel on ", describe(s.properties));
            });
            params.push_back({offset, size, {}, {}});
        }
        return params;
    }

    KernelAttributes function_attributes(int device, NativeFunction function) override {
        auto& s = activate(device, "read kernel attributes on");
        auto get = [&](CUfunction_attribute which) {
            int value = 0;
            check(api_.cuFuncGetAttribute(&value, which, as_function(function)), &s.health, [&] {
                return concat("Failed to read attribute ", static_cast<int>(which), " of a kernel on ",
                              describe(s.properties));
            });
            return value;
        };
        KernelAttributes a;
        a.num_registers = get(CU_FUNC_ATTRIBUTE_NUM_REGS);
        a.static_shared_bytes = static_cast<std::size_t>(get(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES));
        a.local_bytes_per_thread = static_cast<std::size_t>(get(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES));
        a.constant_bytes = static_cast<std::size_t>(get(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES));
        a.max_threads_per_block = get(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        a.max_dynamic_shared_bytes = static_cast<std::size_t>(get(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
        a.ptx_version = get(CU_FUNC_ATTRIBUTE_PTX_VERSION);
        a.binary_version = get(CU_FUNC_ATTRIBUTE_BINARY_VERSION);
        return a;
    }

    void set_max_dynamic_shared(int device, NativeFunction function, std::size_t bytes) override {
        auto& s = activate(device, "set a kernel attribute on");
        check(api_.cuFuncSetAttribute(as_function(function), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      static_cast<int>(bytes)),
              &s.health, [&] {
                  return concat("Failed to raise a kernel's dynamic shared memory limit to ", bytes, " bytes on ",
                                describe(s.properties));
              });
    }

    BlockSizeSuggestion suggest_block_size(int device, NativeFunction function, std::size_t dynamic_shared,
                                           std::uint32_t block_size_limit) override {
        auto& s = activate(device, "compute occupancy on");
        int min_grid = 0, block = 0;
        check(api_.cuOccupancyMaxPotentialBlockSize(&min_grid, &block, as_function(function), nullptr, dynamic_shared,
                                                    static_cast<int>(block_size_limit)),
              &s.health,
              [&] { return concat("Failed to compute a block size for a kernel on ", describe(s.properties)); });
        return {static_cast<std::uint32_t>(block), static_cast<std::uint32_t>(min_grid)};
    }

    int max_active_blocks_per_multiprocessor(int device, NativeFunction function, std::uint32_t block_threads,
                                             std::size_t dynamic_shared) override {
        auto& s = activate(device, "compute occupancy on");
        int blocks = 0;
        check(api_.cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, as_function(function),
                                                               static_cast<int>(block_threads), dynamic_shared),
              &s.health,
              [&] { return concat("Failed to compute the occupancy of a kernel on ", describe(s.properties)); });
        return blocks;
    }

    void launch(int device, NativeFunction function, const Dim3& grid, const Dim3& block, std::size_t shared_bytes,
                NativeStream stream, void** args) override {
        auto& s = activate(device, "launch a kernel on");
        check(api_.cuLaunchKernel(as_function(function), grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                  static_cast<unsigned>(shared_bytes), as_stream(stream), args, nullptr),
              &s.health, [&] {
                  return concat("Failed to launch a kernel with grid ", to_string(grid), ", block ", to_string(block),
                                " and ", shared_bytes, " bytes of dynamic shared memory on ", describe(s.properties));
              });
    }

    // ---- dense solvers: cuSOLVER (cusolver.hpp), one per device, made on first use.
    SolverLibrary* solver_library(int device) override {
        auto& s = activate(device, "use cuSOLVER on");
        std::call_once(s.solver_once, [&] {
            s.solver = make_cusolver_library([this, device] { activate(device, "use cuSOLVER on"); });
        });
        return s.solver.get();
    }

    // ---- libraries: cuFFT, loaded on first use (cufft.hpp)
    FftLibrary* fft_library(int device) override {
        activate(device, "run cuFFT on");
        std::call_once(fft_once_, [this] {
            try {
                // Never destroyed: its plans would be destroyed at exit, after CUDA's own exit
                // handlers may have torn the runtime down.
                fft_ = make_cufft_library([this](int ordinal) { activate(ordinal, "run cuFFT on"); }).release();
            } catch (...) {
                fft_failure_ = std::current_exception();  // a missing library stays missing
            }
        });
        if (fft_failure_) std::rethrow_exception(fft_failure_);
        return fft_;
    }

    // ---- collectives: NCCL, loaded on first use (nccl.hpp)
    CollectiveLibrary* collective_library() override {
        std::call_once(collectives_once_, [this] {
            try {
                // Never destroyed, as cuFFT: its communicators would go after CUDA's exit handlers.
                collectives_ =
                    make_nccl_collectives([this](int ordinal) { activate(ordinal, "run NCCL on"); }).release();
            } catch (...) {
                collectives_failure_ = std::current_exception();  // a missing library stays missing
            }
        });
        if (collectives_failure_) std::rethrow_exception(collectives_failure_);
        return collectives_;
    }

private:
    DeviceState& state(int device) {
        if (device < 0 || device >= static_cast<int>(devices_.size()))
            throw InvalidArgumentError(concat("There is no CUDA device ", device, "; this machine has ",
                                              devices_.size(), devices_.size() == 1 ? " device" : " devices"));
        return devices_[static_cast<std::size_t>(device)];
    }

    // Makes the device's primary context current on this thread; refuses a poisoned context.
    DeviceState& activate(int device, const char* what) {
        auto& s = state(device);
        if (s.health.poisoned()) [[unlikely]]
            s.health.throw_unusable(concat("Failed to ", what, " ", describe(s.properties)));
        std::call_once(s.context_once, [&] {
            check(api_.cuDevicePrimaryCtxRetain(&s.context, s.device), &s.health,
                  [&] { return concat("Failed to create the CUDA context of ", describe(s.properties)); });
            s.waiter = std::make_unique<DeviceWaiter>(api_, s.context);
        });
        CUcontext current = nullptr;
        api_.cuCtxGetCurrent(&current);
        if (current != s.context)
            check(api_.cuCtxSetCurrent(s.context), &s.health,
                  [&] { return concat("Failed to make the context of ", describe(s.properties), " current"); });
        return s;
    }

    // For destructors: true when the context could be made current.
    bool make_current_quietly(int device) noexcept {
        if (device < 0 || device >= static_cast<int>(devices_.size())) return false;
        auto& s = devices_[static_cast<std::size_t>(device)];
        if (!s.context) return false;
        CUcontext current = nullptr;
        api_.cuCtxGetCurrent(&current);
        return current == s.context || api_.cuCtxSetCurrent(s.context) == CUDA_SUCCESS;
    }

    const DriverApi& api_;
    std::once_flag fft_once_;
    FftLibrary* fft_ = nullptr;  // see fft_library()
    std::exception_ptr fft_failure_;
    std::once_flag collectives_once_;
    CollectiveLibrary* collectives_ = nullptr;  // see collective_library()
    std::exception_ptr collectives_failure_;
    std::deque<DeviceState> devices_;  // deque: DeviceState holds a mutex and must not move
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

}  // namespace gpukit::detail::cuda
