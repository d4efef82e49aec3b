// src/backends/cuda/cublas.cpp: cuBLAS, loaded at run time like the driver (gpukit links no CUDA
// library), behind BlasLibrary: every product is one cublasGemmStridedBatchedEx_64 call.
#include "backends/cuda/cublas.hpp"

#include <cublas_api.h>

#include <complex>
#include <mutex>

#include "backends/cuda/toolkit_library.hpp"
#include "util/dynamic_library.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {
namespace {

// The cuBLAS entry points gpukit calls, by their exported (_v2) names.
struct CublasApi {
    decltype(&::cublasCreate_v2) create = nullptr;
    decltype(&::cublasSetStream_v2) set_stream = nullptr;
    decltype(&::cublasSetWorkspace_v2) set_workspace = nullptr;
    decltype(&::cublasSetMathMode) set_math_mode = nullptr;
    decltype(&::cublasGetVersion_v2) get_version = nullptr;
    decltype(&::cublasGemmStridedBatchedEx_64) gemm = nullptr;
    decltype(&::cublasGetStatusName) status_name = nullptr;  // optional: older libraries lack it
    std::string library_path;
    int version = 0;
};

const CublasApi& cublas_api() {
    static const CublasApi api = [] {
        const auto library = DynamicLibrary::open_first(
            "cuBLAS (libcublas.so), the CUDA BLAS library that gpukit's matrix products call on a GPU,",
            toolkit_library_candidates("GPUKIT_CUBLAS", {"libcublas.so.13", "libcublas.so.12"}),
            "It comes with the CUDA toolkit or the nvidia-cublas-cu13 Python wheel (pip install nvidia-cublas-cu13). "
            "Set GPUKIT_CUBLAS to its path, or CUDA_HOME to the toolkit's root; or call "
            "gpukit.set_matmul_library('own') to use gpukit's own matrix-product kernels instead.");
        CublasApi api;
        api.library_path = library.path();
        std::string missing;
        const auto resolve = [&](auto& entry, const char* name, bool required) {
            if (required)
                library.resolve(entry, name, missing);
            else
                library.resolve_optional(entry, name);
        };
        resolve(api.create, "cublasCreate_v2", true);
        resolve(api.set_stream, "cublasSetStream_v2", true);
        resolve(api.set_workspace, "cublasSetWorkspace_v2", true);
        resolve(api.set_math_mode, "cublasSetMathMode", true);
        resolve(api.get_version, "cublasGetVersion_v2", true);
        resolve(api.gemm, "cublasGemmStridedBatchedEx_64", true);
        resolve(api.status_name, "cublasGetStatusName", false);
        if (!missing.empty())
            throw BackendUnavailableError(
                concat("cuBLAS at ", api.library_path, " lacks ", missing, ": gpukit needs cuBLAS 12 or newer"));
        return api;
    }();
    return api;
}

std::string status_name(const CublasApi& api, cublasStatus_t status) {
    if (api.status_name)
        if (const char* name = api.status_name(status)) return name;
    return "CUBLAS_STATUS_" + std::to_string(static_cast<int>(status));
}

void check(const CublasApi& api, cublasStatus_t status, const std::string& action) {
    if (status == CUBLAS_STATUS_SUCCESS) return;
    throw CudaError(action, status_name(api, status), static_cast<int>(status), "cuBLAS call failed");
}

cudaDataType data_type(DType dtype) {
    switch (dtype) {
        case DType::float16: return CUDA_R_16F;
        case DType::bfloat16: return CUDA_R_16BF;
        case DType::float32: return CUDA_R_32F;
        case DType::float64: return CUDA_R_64F;
        case DType::complex64: return CUDA_C_32F;
        default: return CUDA_C_64F;
    }
}

// Workspace for cuBLAS's kernels: Hopper's fastest ones need it (cuBLAS's documentation
// recommends 32 MiB there; PyTorch gives it as much).
constexpr std::size_t workspace_bytes = std::size_t{32} << 20;

class Cublas final : public BlasLibrary {
public:
    Cublas(const DriverApi& driver, std::string device_description)
        : driver_(driver), api_(cublas_api()), device_(std::move(device_description)) {
        check(api_, api_.create(&handle_), concat("Failed to create a cuBLAS handle on ", device_));
        check(api_, api_.get_version(handle_, &version_), "Failed to read cuBLAS's version");
        cuda::check(driver_.cuMemAlloc(&workspace_, workspace_bytes), nullptr,
                    [&] { return concat("Failed to allocate cuBLAS's workspace on ", device_); });
        cuda::check(driver_.cuEventCreate(&stream_switch_, CU_EVENT_DISABLE_TIMING), nullptr,
                    [&] { return concat("Failed to create an event for cuBLAS on ", device_); });
    }
    // The handle, workspace and event stay until the process ends: cuBLAS registers its own exit
    // handlers, and a handle destroyed after the driver has shut down would crash.
    ~Cublas() override = default;
    Cublas(const Cublas&) = delete;
    Cublas& operator=(const Cublas&) = delete;

    std::string description() const override {
        return concat("cuBLAS ", version_ / 10000, ".", version_ / 100 % 100, ".", version_ % 100, " (",
                      api_.library_path, ")");
    }

    bool supports(DType dtype) const override {
        switch (dtype) {
            case DType::float16:
            case DType::bfloat16:
            case DType::float32:
            case DType::float64:
            case DType::complex64:
            case DType::complex128: return true;
            default: return false;
        }
    }

    void gemm(NativeStream native_stream, const GemmCall& call) override {
        const auto stream = static_cast<CUstream>(native_stream);
        const std::scoped_lock lock(mutex_);  // one handle and one workspace: one product at a time
        if (!has_stream_ || stream != stream_) switch_to(stream);
        const cudaDataType type = data_type(call.dtype);
        cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
        const float one_f = 1, zero_f = 0;
        const double one_d = 1, zero_d = 0;
        const std::complex<float> one_c = 1, zero_c = 0;
        const std::complex<double> one_z = 1, zero_z = 0;
        const void* one = &one_f;
        const void* zero = &zero_f;
        switch (call.dtype) {
            case DType::float32: compute = call.allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F; break;
            case DType::float64:
                compute = CUBLAS_COMPUTE_64F;
                one = &one_d, zero = &zero_d;
                break;
            case DType::complex64:
                compute = call.allow_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
                one = &one_c, zero = &zero_c;
                break;
            case DType::complex128:
                compute = CUBLAS_COMPUTE_64F;
                one = &one_z, zero = &zero_z;
                break;
            default: break;  // float16, bfloat16: summed in float32, as gpukit's own kernel sums them
        }
        const auto op = [](bool transpose) { return transpose ? CUBLAS_OP_T : CUBLAS_OP_N; };
        check(api_,
              api_.gemm(handle_, op(call.transpose_a), op(call.transpose_b), call.m, call.n, call.k, one,
                        reinterpret_cast<const void*>(call.a), type, call.lda, call.stride_a,
                        reinterpret_cast<const void*>(call.b), type, call.ldb, call.stride_b, zero,
                        reinterpret_cast<void*>(call.c), type, call.ldc, call.stride_c, call.batch, compute,
                        CUBLAS_GEMM_DEFAULT),
              concat("Failed to multiply ", call.batch, " matrices of ", to_string(call.dtype), " (", call.m, "x",
                     call.k, " by ", call.k, "x", call.n, ") with cuBLAS on ", device_));
    }

private:
    // The workspace is shared by every stream: products on `stream` wait for what is queued on the
    // last one (its products' kernels may still be using it). Setting a stream drops the handle's
    // workspace (cuBLAS's documented behaviour), so it is given again. Only at a switch: a call on
    // the same stream as the last one costs neither.
    void switch_to(CUstream stream) {
        if (has_stream_) {
            cuda::check(driver_.cuEventRecord(stream_switch_, stream_), nullptr,
                        [&] { return concat("Failed to record cuBLAS's last products on ", device_); });
            cuda::check(driver_.cuStreamWaitEvent(stream, stream_switch_, 0), nullptr,
                        [&] { return concat("Failed to order cuBLAS's workspace between streams on ", device_); });
        }
        check(api_, api_.set_stream(handle_, reinterpret_cast<cudaStream_t>(stream)), "Failed to set cuBLAS's stream");
        check(api_, api_.set_workspace(handle_, reinterpret_cast<void*>(workspace_), workspace_bytes),
              "Failed to give cuBLAS its workspace");
        stream_ = stream;
        has_stream_ = true;
    }

    const DriverApi& driver_;
    const CublasApi& api_;
    std::string device_;
    cublasHandle_t handle_ = nullptr;
    int version_ = 0;
    CUdeviceptr workspace_ = 0;
    CUevent stream_switch_ = nullptr;
    CUstream stream_ = nullptr;  // the handle's stream (nullptr is the default stream: has_stream_ says whether set)
    bool has_stream_ = false;
    std::mutex mutex_;
};

}  // namespace

std::unique_ptr<BlasLibrary> make_cublas(const DriverApi& driver, std::string device_description) {
    return std::make_unique<Cublas>(driver, std::move(device_description));
}

}  // namespace gpukit::detail::cuda
