// src/backends/cuda/cufft.cpp: cuFFT loaded at run time (cufft.hpp).
//
// gpukit links no CUDA library, and the CUDA headers it builds against need not include cuFFT's:
// the few entry points used are declared here from cuFFT's documented API (handles are ints,
// results and transform types are the documented enumerator values). Plans are made with the
// 64-bit API (cufftMakePlanMany64: no 2^31 limit on sizes and batches) and kept per device, the
// 16 most recently used; cuFFT allocates each plan's work area itself. A plan is bound to a
// stream by cufftSetStream, so setting the stream and launching happen under the plan's lock.
#include "backends/cuda/cufft.hpp"

#include <deque>
#include <map>
#include <mutex>

#include "backends/cuda/toolkit_library.hpp"
#include "backends/fft_plan_cache.hpp"
#include "gpukit/layout.hpp"
#include "util/dynamic_library.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

// ---- cuFFT's API, as its documentation defines it
using cufftHandle = int;
using cufftResult = int;
using cufftType = int;
constexpr cufftResult cufft_success = 0;
constexpr cufftType cufft_r2c = 0x2a, cufft_c2r = 0x2c, cufft_c2c = 0x29;
constexpr cufftType cufft_d2z = 0x6a, cufft_z2d = 0x6c, cufft_z2z = 0x69;
constexpr int cufft_forward = -1, cufft_inverse = 1;
constexpr int library_property_major = 0, library_property_minor = 1, library_property_patch = 2;

struct CufftApi {
    cufftResult (*cufftCreate)(cufftHandle*) = nullptr;
    cufftResult (*cufftDestroy)(cufftHandle) = nullptr;
    cufftResult (*cufftMakePlanMany64)(cufftHandle, int rank, long long* n, long long* inembed, long long istride,
                                       long long idist, long long* onembed, long long ostride, long long odist,
                                       cufftType type, long long batch, std::size_t* work_size) = nullptr;
    cufftResult (*cufftSetStream)(cufftHandle, void* stream) = nullptr;
    cufftResult (*cufftExecC2C)(cufftHandle, void* in, void* out, int direction) = nullptr;
    cufftResult (*cufftExecZ2Z)(cufftHandle, void* in, void* out, int direction) = nullptr;
    cufftResult (*cufftExecR2C)(cufftHandle, void* in, void* out) = nullptr;
    cufftResult (*cufftExecD2Z)(cufftHandle, void* in, void* out) = nullptr;
    cufftResult (*cufftExecC2R)(cufftHandle, void* in, void* out) = nullptr;
    cufftResult (*cufftExecZ2D)(cufftHandle, void* in, void* out) = nullptr;
    cufftResult (*cufftGetProperty)(int property, int* value) = nullptr;
    std::string path;
    std::string version;  // "12.0.0"
};

const char* result_name(cufftResult result) {
    switch (result) {
        case 0: return "CUFFT_SUCCESS";
        case 1: return "CUFFT_INVALID_PLAN";
        case 2: return "CUFFT_ALLOC_FAILED";
        case 3: return "CUFFT_INVALID_TYPE";
        case 4: return "CUFFT_INVALID_VALUE";
        case 5: return "CUFFT_INTERNAL_ERROR";
        case 6: return "CUFFT_EXEC_FAILED";
        case 7: return "CUFFT_SETUP_FAILED";
        case 8: return "CUFFT_INVALID_SIZE";
        case 9: return "CUFFT_UNALIGNED_DATA";
        case 11: return "CUFFT_INVALID_DEVICE";
        case 13: return "CUFFT_NO_WORKSPACE";
        case 14: return "CUFFT_NOT_IMPLEMENTED";
        case 16: return "CUFFT_NOT_SUPPORTED";
        case 17: return "CUFFT_MISSING_DEPENDENCY";
        case 18: return "CUFFT_NVRTC_FAILURE";
        case 19: return "CUFFT_NVJITLINK_FAILURE";
        default: return "CUFFT_UNKNOWN_ERROR";
    }
}

template <class Action>
void check(cufftResult result, Action&& action) {
    if (result == cufft_success) return;
    throw CudaError(action(), result_name(result), result, "cuFFT call failed");
}

CufftApi load_cufft() {
    auto library = DynamicLibrary::open_first(
        "cuFFT (libcufft.so), the CUDA FFT library,", cufft_candidates(),
        "gpukit.fft needs it on a GPU. It comes with the CUDA toolkit, or `pip install nvidia-cufft-cu13` (CUDA 13; "
        "nvidia-cufft-cu12 for CUDA 12); set GPUKIT_CUFFT to the path of its libcufft.so.12 (or .11), or CUDA_HOME to "
        "the toolkit's root.");
    CufftApi api;
    api.path = library.path();
    std::string missing;
#define GPUKIT_RESOLVE_CUFFT(name) library.resolve(api.name, #name, missing);
    GPUKIT_RESOLVE_CUFFT(cufftCreate)
    GPUKIT_RESOLVE_CUFFT(cufftDestroy)
    GPUKIT_RESOLVE_CUFFT(cufftMakePlanMany64)
    GPUKIT_RESOLVE_CUFFT(cufftSetStream)
    GPUKIT_RESOLVE_CUFFT(cufftExecC2C)
    GPUKIT_RESOLVE_CUFFT(cufftExecZ2Z)
    GPUKIT_RESOLVE_CUFFT(cufftExecR2C)
    GPUKIT_RESOLVE_CUFFT(cufftExecD2Z)
    GPUKIT_RESOLVE_CUFFT(cufftExecC2R)
    GPUKIT_RESOLVE_CUFFT(cufftExecZ2D)
    GPUKIT_RESOLVE_CUFFT(cufftGetProperty)
#undef GPUKIT_RESOLVE_CUFFT
    if (!missing.empty())
        throw BackendUnavailableError(concat("cuFFT at ", api.path, " lacks ", missing,
                                             "; it is too old (gpukit needs cuFFT 10 or newer, CUDA 11+)"));
    int major = 0, minor = 0, patch = 0;
    if (api.cufftGetProperty(library_property_major, &major) == cufft_success &&
        api.cufftGetProperty(library_property_minor, &minor) == cufft_success &&
        api.cufftGetProperty(library_property_patch, &patch) == cufft_success)
        api.version = concat(major, ".", minor, ".", patch);
    return api;
}

std::string describe(const CufftApi& api) {
    return concat("cuFFT ", api.version.empty() ? "(version unknown)" : api.version, " (", api.path, ")");
}

cufftType type_of(const FftPlanKey& key) {
    const bool single = key.precision == FftPrecision::single;
    switch (key.type) {
        case FftType::c2c: return single ? cufft_c2c : cufft_z2z;
        case FftType::r2c: return single ? cufft_r2c : cufft_d2z;
        case FftType::c2r: return single ? cufft_c2r : cufft_z2d;
    }
    return cufft_c2c;
}

// "4 transforms of (256, 256) C2C float32": how messages name a plan.
std::string describe(const FftPlanKey& key) {
    const char* type = key.type == FftType::c2c ? "C2C" : key.type == FftType::r2c ? "R2C" : "C2R";
    return concat(key.batch, key.batch == 1 ? " transform of " : " transforms of ", format_shape(key.extents), " ",
                  type, key.precision == FftPrecision::single ? " single precision" : " double precision");
}

// One cuFFT plan; destroyed with its device's context current (the owner's job: see ~CufftLibrary).
struct CufftPlan {
    const CufftApi* api = nullptr;
    cufftHandle handle = 0;
    std::mutex mutex;  // cufftSetStream and the launch after it, as one
    CufftPlan() = default;
    CufftPlan(const CufftPlan&) = delete;
    CufftPlan& operator=(const CufftPlan&) = delete;
    ~CufftPlan() {
        // A destructor has no one to report to; cufftDestroy fails only for a handle already gone.
        if (api) [[maybe_unused]]
            const cufftResult ignored = api->cufftDestroy(handle);
    }
};

class CufftLibrary final : public FftLibrary {
public:
    CufftLibrary(CufftApi api, std::function<void(int)> activate)
        : api_(std::move(api)), activate_(std::move(activate)) {}

    std::string identity() const override { return describe(api_); }

    void execute(int device, const FftPlanKey& key, FftDirection direction, std::uint64_t input, std::uint64_t output,
                 NativeStream stream) override {
        if (key.extents.empty() || key.batch <= 0) return;
        activate_(device);
        std::shared_ptr<CufftPlan> plan = cache(device).get(key, [&] { return make_plan(device, key); });
        std::lock_guard lock(plan->mutex);
        check(api_.cufftSetStream(plan->handle, stream),
              [&] { return concat("Failed to set the stream of the cuFFT plan for ", describe(key)); });
        auto* in = reinterpret_cast<void*>(input);
        auto* out = reinterpret_cast<void*>(output);
        const int sign = direction == FftDirection::forward ? cufft_forward : cufft_inverse;
        cufftResult result = cufft_success;
        switch (type_of(key)) {
            case cufft_c2c: result = api_.cufftExecC2C(plan->handle, in, out, sign); break;
            case cufft_z2z: result = api_.cufftExecZ2Z(plan->handle, in, out, sign); break;
            case cufft_r2c: result = api_.cufftExecR2C(plan->handle, in, out); break;
            case cufft_d2z: result = api_.cufftExecD2Z(plan->handle, in, out); break;
            case cufft_c2r: result = api_.cufftExecC2R(plan->handle, in, out); break;
            case cufft_z2d: result = api_.cufftExecZ2D(plan->handle, in, out); break;
            default: break;
        }
        check(result, [&] { return concat("Failed to run cuFFT on ", describe(key), " on device ", device); });
    }

private:
    FftPlanCache<CufftPlan>& cache(int device) {
        std::lock_guard lock(mutex_);
        auto it = caches_.find(device);
        if (it == caches_.end()) it = caches_.emplace(device, std::make_unique<FftPlanCache<CufftPlan>>(16)).first;
        return *it->second;
    }

    std::shared_ptr<CufftPlan> make_plan(int device, const FftPlanKey& key) {
        auto plan = std::make_shared<CufftPlan>();
        check(api_.cufftCreate(&plan->handle),
              [&] { return concat("Failed to create a cuFFT plan on device ", device); });
        plan->api = &api_;
        // The advanced layout, dense: embeddings are the extents of each side (the half spectrum's
        // last extent is n / 2 + 1), unit strides, the key's distances.
        std::vector<long long> n(key.extents.begin(), key.extents.end());
        std::vector<long long> real_side = n, complex_side = n;
        if (key.type != FftType::c2c) complex_side.back() = n.back() / 2 + 1;
        std::vector<long long> in = key.type == FftType::r2c ? real_side : complex_side;
        std::vector<long long> out = key.type == FftType::c2r ? real_side : complex_side;
        std::size_t work_bytes = 0;
        check(api_.cufftMakePlanMany64(plan->handle, static_cast<int>(n.size()), n.data(), in.data(), 1,
                                       key.input_distance, out.data(), 1, key.output_distance, type_of(key), key.batch,
                                       &work_bytes),
              [&] { return concat("Failed to make a cuFFT plan for ", describe(key), " on device ", device); });
        return plan;
    }

    CufftApi api_;
    std::function<void(int)> activate_;
    std::mutex mutex_;
    // Plans are dropped before the library goes; the library lives as long as the backend.
    std::map<int, std::unique_ptr<FftPlanCache<CufftPlan>>> caches_;
};

}  // namespace

std::vector<std::string> cufft_candidates() {
    return toolkit_library_candidates("GPUKIT_CUFFT", {"libcufft.so.12", "libcufft.so.11"});
}

std::string probe_cufft() { return describe(load_cufft()); }

std::unique_ptr<FftLibrary> make_cufft_library(std::function<void(int)> activate) {
    return std::make_unique<CufftLibrary>(load_cufft(), std::move(activate));
}

}  // namespace gpukit::detail::cuda
