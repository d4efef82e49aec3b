// src/backends/cuda/driver.cpp: loading the CUDA driver and reporting its errors.
#include "backends/cuda/driver.hpp"

#include <cstdlib>

#include "util/dynamic_library.hpp"
#include "util/library_search.hpp"
#include "util/once.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

std::vector<std::string> driver_candidates() {
    if (const char* path = std::getenv("GPUKIT_CUDA_DRIVER"); path && *path) return {path};
    return {"libcuda.so.1", "libcuda.so"};
}

DriverApi load_driver() {
    auto library = DynamicLibrary::open_first(
        "The CUDA driver (libcuda.so.1)", driver_candidates(),
        "It comes with the NVIDIA display driver, not the CUDA toolkit: this machine has no NVIDIA driver "
        "installed, or no GPU. Set GPUKIT_BACKEND=sim to run kernels on the CPU simulator.");

    DriverApi api;
    api.library_path = library.path();
    auto get_proc_address = reinterpret_cast<GetProcAddress>(library.symbol("cuGetProcAddress_v2"));
    if (!get_proc_address)
        throw BackendUnavailableError(concat("The CUDA driver at ", api.library_path,
                                             " has no cuGetProcAddress_v2: it is older than CUDA 12.0, which gpukit "
                                             "needs. Update the NVIDIA driver."));

    std::string missing;
    auto resolve = [&](const char* name, void** slot, bool required, int version) {
        CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
        CUresult status = get_proc_address(name, slot, version, CU_GET_PROC_ADDRESS_DEFAULT, &found);
        if (status != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS) {
            *slot = nullptr;
            if (required) missing += concat(missing.empty() ? "" : ", ", name);
        }
    };
#define GPUKIT_RESOLVE_REQUIRED(name) resolve(#name, reinterpret_cast<void**>(&api.name), true, CUDA_VERSION);
#define GPUKIT_RESOLVE_OPTIONAL(name) resolve(#name, reinterpret_cast<void**>(&api.name), false, CUDA_VERSION);
#define GPUKIT_RESOLVE_VERSIONED(name, version) resolve(#name, reinterpret_cast<void**>(&api.name), true, version);
    GPUKIT_CUDA_DRIVER_FUNCTIONS(GPUKIT_RESOLVE_REQUIRED, GPUKIT_RESOLVE_OPTIONAL, GPUKIT_RESOLVE_VERSIONED)
#undef GPUKIT_RESOLVE_REQUIRED
#undef GPUKIT_RESOLVE_OPTIONAL
#undef GPUKIT_RESOLVE_VERSIONED
    if (!missing.empty())
        throw BackendUnavailableError(concat("The CUDA driver at ", api.library_path,
                                             " lacks entry points gpukit needs (", missing,
                                             "); gpukit was built against CUDA ", CUDA_VERSION / 1000, ".",
                                             CUDA_VERSION % 1000 / 10, ". Update the NVIDIA driver."));

    check(api.cuDriverGetVersion(&api.driver_version), nullptr,
          [] { return "Failed to read the CUDA driver version"; });
    CUresult init = api.cuInit(0);
    if (init != CUDA_SUCCESS) {
        const char* name = nullptr;
        api.cuGetErrorName(init, &name);
        throw BackendUnavailableError(concat(
            "The CUDA driver at ", api.library_path, " failed to initialise: ", name ? name : "unknown error", " (",
            static_cast<int>(init), ")", init == CUDA_ERROR_NO_DEVICE ? ": no CUDA-capable device is present" : ""));
    }
    return api;
}

}  // namespace

const DriverApi& driver() {
    return once([] { return load_driver(); });
}

std::string driver_library_file() {
    for (const auto& candidate : driver_candidates())
        if (auto found = find_library_file(candidate)) return *found;
    return {};
}

std::string error_name(CUresult status) {
    const char* name = nullptr;
    driver().cuGetErrorName(status, &name);
    return name ? name : concat("CUDA error ", static_cast<int>(status));
}

std::string error_description(CUresult status) {
    const char* text = nullptr;
    driver().cuGetErrorString(status, &text);
    return text ? text : "unknown error";
}

bool is_sticky(CUresult status) {
    switch (status) {
        case CUDA_ERROR_ILLEGAL_ADDRESS:
        case CUDA_ERROR_LAUNCH_FAILED:
        case CUDA_ERROR_HARDWARE_STACK_ERROR:
        case CUDA_ERROR_ILLEGAL_INSTRUCTION:
        case CUDA_ERROR_MISALIGNED_ADDRESS:
        case CUDA_ERROR_INVALID_ADDRESS_SPACE:
        case CUDA_ERROR_INVALID_PC:
        case CUDA_ERROR_ASSERT:
        case CUDA_ERROR_LAUNCH_TIMEOUT:
        case CUDA_ERROR_ECC_UNCORRECTABLE:
        case CUDA_ERROR_CONTEXT_IS_DESTROYED: return true;
        default: return false;
    }
}

void ContextHealth::poison(const CudaError& failure) {
    std::lock_guard lock(mutex_);
    if (!first_failure_) first_failure_ = failure;
    poisoned_.store(true, std::memory_order_release);
}

void ContextHealth::throw_unusable(const std::string& action) const {
    std::lock_guard lock(mutex_);
    throw ContextUnusableError(action, device_, *first_failure_);
}

void throw_driver_error(CUresult status, const std::string& action, ContextHealth* health) {
    if (health && health->poisoned()) health->throw_unusable(action);
    CudaError error(action, error_name(status), static_cast<int>(status), error_description(status));
    if (health && is_sticky(status)) {
        health->poison(error);
        throw CudaError(
            action, error.name(), error.code(),
            error.description() + ". This error is sticky: the device's context cannot be used again in this process");
    }
    throw error;
}

}  // namespace gpukit::detail::cuda
