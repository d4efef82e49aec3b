// src/backends/cuda/driver.hpp: the CUDA driver API, loaded at run time, and the one choke point
// every driver call goes through.
//
// Only cuGetProcAddress is found by dlsym; every other entry point is requested through it with
// the CUDA version of the headers we were built with, so we get the ABI those headers declare
// (a plain dlsym("cuMemAlloc") would return the 32-bit legacy ABI).
#pragma once

#include <cuda.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <string>

#include "gpukit/error.hpp"

namespace gpukit::detail::cuda {

// Entry points gpukit needs; OPTIONAL ones are absent from older drivers. VERSIONED ones are
// requested at an explicit CUDA version because a newer ABI exists under the same name than the
// prototype cuda.h declares: CUDA 13 added cuCtxSynchronize(CUcontext) beside cuCtxSynchronize(void).
// One line per group of entry points: clang-format would stack the list in a staircase.
// clang-format off
#define GPUKIT_CUDA_DRIVER_FUNCTIONS(REQUIRED, OPTIONAL, VERSIONED)                                             \
    REQUIRED(cuInit) REQUIRED(cuDriverGetVersion) REQUIRED(cuGetErrorName) REQUIRED(cuGetErrorString)          \
    REQUIRED(cuDeviceGetCount) REQUIRED(cuDeviceGet) REQUIRED(cuDeviceGetName) REQUIRED(cuDeviceGetAttribute)  \
    REQUIRED(cuDeviceTotalMem) REQUIRED(cuDeviceGetPCIBusId) REQUIRED(cuDevicePrimaryCtxRetain)                \
    REQUIRED(cuCtxSetCurrent) REQUIRED(cuCtxGetCurrent) VERSIONED(cuCtxSynchronize, 12000) REQUIRED(cuMemGetInfo) \
    REQUIRED(cuMemAlloc) REQUIRED(cuMemAllocManaged) REQUIRED(cuMemFree) REQUIRED(cuMemHostAlloc)             \
    REQUIRED(cuMemFreeHost) REQUIRED(cuPointerGetAttribute)                                                    \
    REQUIRED(cuMemcpyHtoD) REQUIRED(cuMemcpyDtoH) REQUIRED(cuMemcpyDtoD) REQUIRED(cuMemcpyHtoDAsync)           \
    REQUIRED(cuMemcpyDtoHAsync) REQUIRED(cuMemcpyDtoDAsync) REQUIRED(cuMemsetD8) REQUIRED(cuMemsetD8Async)     \
    REQUIRED(cuStreamCreate) REQUIRED(cuStreamDestroy) REQUIRED(cuStreamSynchronize) REQUIRED(cuStreamQuery)   \
    REQUIRED(cuStreamWaitEvent) REQUIRED(cuEventCreate) REQUIRED(cuEventDestroy) REQUIRED(cuEventRecord)       \
    REQUIRED(cuEventSynchronize) REQUIRED(cuEventQuery) REQUIRED(cuEventElapsedTime)                           \
    REQUIRED(cuModuleLoadDataEx) REQUIRED(cuModuleUnload) REQUIRED(cuModuleGetFunction)                        \
    REQUIRED(cuModuleGetGlobal) REQUIRED(cuFuncGetAttribute) REQUIRED(cuFuncSetAttribute)                      \
    REQUIRED(cuOccupancyMaxPotentialBlockSize) REQUIRED(cuOccupancyMaxActiveBlocksPerMultiprocessor)           \
    REQUIRED(cuLaunchKernel) REQUIRED(cuDeviceCanAccessPeer) REQUIRED(cuCtxEnablePeerAccess)                   \
    REQUIRED(cuMemcpyPeer) REQUIRED(cuMemcpyPeerAsync)                                                         \
    OPTIONAL(cuFuncGetParamInfo) OPTIONAL(cuModuleGetFunctionCount) OPTIONAL(cuModuleEnumerateFunctions)       \
    OPTIONAL(cuFuncGetName)
// clang-format on

struct DriverApi {
// `name` is an entry point's name, which no parentheses may enclose.
#define GPUKIT_DECLARE_DRIVER_ENTRY(name) decltype(&::name) name = nullptr;  // NOLINT(bugprone-macro-parentheses)
#define GPUKIT_DECLARE_VERSIONED_DRIVER_ENTRY(name, version) \
    decltype(&::name) name = nullptr;  // NOLINT(bugprone-macro-parentheses)
    GPUKIT_CUDA_DRIVER_FUNCTIONS(GPUKIT_DECLARE_DRIVER_ENTRY, GPUKIT_DECLARE_DRIVER_ENTRY,
                                 GPUKIT_DECLARE_VERSIONED_DRIVER_ENTRY)
#undef GPUKIT_DECLARE_DRIVER_ENTRY
#undef GPUKIT_DECLARE_VERSIONED_DRIVER_ENTRY

    int driver_version = 0;    // e.g. 13000
    std::string library_path;  // where libcuda was found
};

// Loads the driver (GPUKIT_CUDA_DRIVER names another file), resolves the entry points and calls
// cuInit once. Throws BackendUnavailableError saying what is missing; the failure is remembered.
const DriverApi& driver();

// The file the driver would be loaded from, found without loading it; empty when none is on disk.
std::string driver_library_file();

std::string error_name(CUresult status);
std::string error_description(CUresult status);

// Errors after which the context cannot be used again in this process.
bool is_sticky(CUresult status);

// What a device's context has been through. A sticky error poisons it: every later call on that
// device raises ContextUnusableError naming the first failure instead of a puzzling new code.
class ContextHealth {
public:
    explicit ContextHealth(std::string device) : device_(std::move(device)) {}

    bool poisoned() const noexcept { return poisoned_.load(std::memory_order_acquire); }
    void poison(const CudaError& failure);
    [[noreturn]] void throw_unusable(const std::string& action) const;

private:
    std::string device_;  // "device 0 (NVIDIA H100 80GB HBM3)"
    std::atomic<bool> poisoned_{false};
    mutable std::mutex mutex_;
    std::optional<CudaError> first_failure_;
};

// Turns a failed status into the right exception: "<action>: <NAME> (<code>): <description>".
// Poisons `health` (when given) if the error is sticky.
[[noreturn]] void throw_driver_error(CUresult status, const std::string& action, ContextHealth* health);

// The choke point: `describe` builds the action text ("Failed to allocate 4.0 GiB on device 0
// (NVIDIA H200)") only when the call failed.
template <class Describe>
inline void check(CUresult status, ContextHealth* health, Describe&& describe) {
    if (status == CUDA_SUCCESS) [[likely]]
        return;
    throw_driver_error(status, std::string(describe()), health);
}

}  // namespace gpukit::detail::cuda
