// src/backends/cuda/cusolver.cpp: cuSOLVER's dense routines (the legacy typed API: S, D, C, Z
// getrf, getrs, potrf, geqrf, orgqr/ungqr, gesvd, syevd/heevd; and the 64-bit API's Xgeev, which
// has no typed form), loaded at run time.
//
// Nothing of cuSOLVER is linked or included: the entry points are declared here from NVIDIA's
// cuSOLVER documentation, so gpukit builds where the CUDA toolkit has no cuSOLVER headers (where it
// has them, the declarations are checked against them at compile time). libcusolver needs
// libcublas, libcublasLt and libcusparse of the same CUDA release, which it loads by soname.
// One handle per device (cusolverDnCreate), guarded by a mutex held while a call's work is enqueued
// (the stream is the handle's state). A matrix of a batch is one call after the other on the
// stream; the workspace a call asks for is allocated once per batch (every matrix has one size).
#include "backends/cuda/cusolver.hpp"
#include "util/complex_traits.hpp"

#include <complex>
#include <cstdint>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "backends/cuda/toolkit_library.hpp"
#include "gpukit/error.hpp"
#include "util/dynamic_library.hpp"
#include "util/once.hpp"
#include "util/text.hpp"

namespace gpukit::detail::cuda {

namespace {

// ---- cuSOLVER's types, as its documentation states them
using Status = int;    // cusolverStatus_t
using Handle = void*;  // cusolverDnHandle_t
using Stream = void*;  // cudaStream_t (a CUstream)
constexpr Status status_success = 0;
constexpr int fill_lower = 0, fill_upper = 1;    // cublasFillMode_t
constexpr int op_n = 0, op_t = 1;                // cublasOperation_t
constexpr int eig_novector = 0, eig_vector = 1;  // cusolverEigMode_t
using Params = void*;                            // cusolverDnParams_t
// cudaDataType of each element type.
constexpr int data_type(DType dtype) {
    switch (dtype) {
        case DType::float32: return 0;     // CUDA_R_32F
        case DType::float64: return 1;     // CUDA_R_64F
        case DType::complex64: return 4;   // CUDA_C_32F
        case DType::complex128: return 5;  // CUDA_C_64F
        default: return -1;
    }
}

const char* status_name(Status status) {
    switch (status) {
        case 0: return "CUSOLVER_STATUS_SUCCESS";
        case 1: return "CUSOLVER_STATUS_NOT_INITIALIZED";
        case 2: return "CUSOLVER_STATUS_ALLOC_FAILED";
        case 3: return "CUSOLVER_STATUS_INVALID_VALUE";
        case 4: return "CUSOLVER_STATUS_ARCH_MISMATCH";
        case 5: return "CUSOLVER_STATUS_MAPPING_ERROR";
        case 6: return "CUSOLVER_STATUS_EXECUTION_FAILED";
        case 7: return "CUSOLVER_STATUS_INTERNAL_ERROR";
        case 8: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
        case 9: return "CUSOLVER_STATUS_NOT_SUPPORTED";
        case 10: return "CUSOLVER_STATUS_ZERO_PIVOT";
        case 11: return "CUSOLVER_STATUS_INVALID_LICENSE";
        case 31: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
        default: return "CUSOLVER_STATUS_UNKNOWN";
    }
}

// The entry points of one element type (prefix S, D, C or Z). Complex numbers are cuComplex /
// cuDoubleComplex, laid out as std::complex.
template <class T>
struct DnFunctions {
    using R = typename RealOf<T>::type;
    Status (*getrf_bufferSize)(Handle, int m, int n, T* a, int lda, int* lwork) = nullptr;
    Status (*getrf)(Handle, int m, int n, T* a, int lda, T* work, int* ipiv, int* info) = nullptr;
    Status (*getrs)(Handle, int trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb,
                    int* info) = nullptr;
    Status (*potrf_bufferSize)(Handle, int uplo, int n, T* a, int lda, int* lwork) = nullptr;
    Status (*potrf)(Handle, int uplo, int n, T* a, int lda, T* work, int lwork, int* info) = nullptr;
    Status (*geqrf_bufferSize)(Handle, int m, int n, T* a, int lda, int* lwork) = nullptr;
    Status (*geqrf)(Handle, int m, int n, T* a, int lda, T* tau, T* work, int lwork, int* info) = nullptr;
    Status (*orgqr_bufferSize)(Handle, int m, int n, int k, const T* a, int lda, const T* tau, int* lwork) = nullptr;
    Status (*orgqr)(Handle, int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork, int* info) = nullptr;
    Status (*gesvd_bufferSize)(Handle, int m, int n, int* lwork) = nullptr;
    Status (*gesvd)(Handle, signed char jobu, signed char jobvt, int m, int n, T* a, int lda, R* s, T* u, int ldu,
                    T* vt, int ldvt, T* work, int lwork, R* rwork, int* info) = nullptr;
    Status (*heevd_bufferSize)(Handle, int jobz, int uplo, int n, const T* a, int lda, const R* w,
                               int* lwork) = nullptr;
    Status (*heevd)(Handle, int jobz, int uplo, int n, T* a, int lda, R* w, T* work, int lwork, int* info) = nullptr;
};

// The 64-bit API's general eigensolver (CUDA 12.6 and later), its types given at run time.
struct GeevFunctions {
    Status (*create_params)(Params*) = nullptr;
    Status (*buffer_size)(Handle, Params, int jobvl, int jobvr, std::int64_t n, int type_a, const void* a,
                          std::int64_t lda, int type_w, const void* w, int type_vl, const void* vl, std::int64_t ldvl,
                          int type_vr, const void* vr, std::int64_t ldvr, int compute_type, std::size_t* device_bytes,
                          std::size_t* host_bytes) = nullptr;
    Status (*geev)(Handle, Params, int jobvl, int jobvr, std::int64_t n, int type_a, void* a, std::int64_t lda,
                   int type_w, void* w, int type_vl, void* vl, std::int64_t ldvl, int type_vr, void* vr,
                   std::int64_t ldvr, int compute_type, void* device_work, std::size_t device_bytes, void* host_work,
                   std::size_t host_bytes, int* info) = nullptr;
};

struct Cusolver {
    std::string path;
    Status (*create)(Handle*) = nullptr;
    Status (*set_stream)(Handle, Stream) = nullptr;
    // Null where cuSOLVER predates Xgeev: only gpukit.linalg.eig and eigvals then refuse to run.
    GeevFunctions geev;
    DnFunctions<float> s;
    DnFunctions<double> d;
    DnFunctions<std::complex<float>> c;
    DnFunctions<std::complex<double>> z;
};

std::vector<std::string> cusolver_candidates() {
    return toolkit_library_candidates("GPUKIT_CUSOLVER", {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"},
                                      {"nvidia/cu13/lib/libcusolver.so.12", "nvidia/cusolver/lib/libcusolver.so.12",
                                       "nvidia/cusolver/lib/libcusolver.so.11"});
}

template <class T>
void resolve(const DynamicLibrary& library, char prefix, DnFunctions<T>& f, std::string& missing) {
    const auto get = [&](auto& slot, const char* name) {
        library.resolve(slot, concat("cusolverDn", prefix, name), missing);
    };
    constexpr bool complex = is_complex_v<T>;
    get(f.getrf_bufferSize, "getrf_bufferSize");
    get(f.getrf, "getrf");
    get(f.getrs, "getrs");
    get(f.potrf_bufferSize, "potrf_bufferSize");
    get(f.potrf, "potrf");
    get(f.geqrf_bufferSize, "geqrf_bufferSize");
    get(f.geqrf, "geqrf");
    get(f.orgqr_bufferSize, complex ? "ungqr_bufferSize" : "orgqr_bufferSize");
    get(f.orgqr, complex ? "ungqr" : "orgqr");
    get(f.gesvd_bufferSize, "gesvd_bufferSize");
    get(f.gesvd, "gesvd");
    get(f.heevd_bufferSize, complex ? "heevd_bufferSize" : "syevd_bufferSize");
    get(f.heevd, complex ? "heevd" : "syevd");
}

const Cusolver& cusolver() {
    return once([] {
        const auto library = DynamicLibrary::open_first(
            "cuSOLVER (libcusolver.so), which gpukit.linalg uses on CUDA devices,", cusolver_candidates(),
            "It comes with the CUDA toolkit, or `pip install nvidia-cusolver-cu13` (cu12 for CUDA 12), and needs "
            "cuBLAS and cuSPARSE of the same CUDA release where the dynamic linker finds them (nvidia-cublas-cu13, "
            "nvidia-cusparse-cu13). Set GPUKIT_CUSOLVER to its path, or CUDA_HOME to the toolkit's root.");
        Cusolver api;
        api.path = library.path();
        std::string missing;
        const auto get = [&](auto& slot, const char* name) { library.resolve(slot, name, missing); };
        get(api.create, "cusolverDnCreate");
        get(api.set_stream, "cusolverDnSetStream");
        resolve(library, 'S', api.s, missing);
        resolve(library, 'D', api.d, missing);
        resolve(library, 'C', api.c, missing);
        resolve(library, 'Z', api.z, missing);
        const auto optional = [&](auto& slot, const char* name) { library.resolve_optional(slot, name); };
        optional(api.geev.create_params, "cusolverDnCreateParams");
        optional(api.geev.buffer_size, "cusolverDnXgeev_bufferSize");
        optional(api.geev.geev, "cusolverDnXgeev");
        if (!missing.empty())
            throw BackendUnavailableError(
                concat("cuSOLVER at ", api.path, " lacks ", missing, ", which gpukit.linalg needs: it is too old"));
        return api;
    });
}

void check(Status status, const char* action, const std::string& path) {
    if (status == status_success) return;
    throw CudaError(concat("Failed to ", action, " with cuSOLVER (", path, ")"), status_name(status), status,
                    "cuSOLVER call failed");
}

int to_int(std::int64_t value) {
    if (value < 0 || value > std::int64_t{std::numeric_limits<int>::max()})
        throw InvalidArgumentError(concat("cuSOLVER takes 32-bit sizes, not ", value));
    return static_cast<int>(value);
}

template <class T>
T* at(std::uint64_t address, std::int64_t index = 0) {
    return reinterpret_cast<T*>(address) + index;
}

class CusolverLibrary final : public SolverLibrary {
public:
    CusolverLibrary(std::function<void()> activate, const Cusolver& api) : activate_(std::move(activate)), api_(api) {}
    // The handle is never destroyed: the backend lives until the process ends, when the CUDA
    // context may already be gone (as DynamicLibrary never closes a CUDA library).
    ~CusolverLibrary() override = default;
    CusolverLibrary(const CusolverLibrary&) = delete;
    CusolverLibrary& operator=(const CusolverLibrary&) = delete;

    void getrf(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t pivots) override {
        run(batch, "factor matrices (getrf)", [&]<class T>(const DnFunctions<T>& f, Handle h) {
            const int n = to_int(a.rows), ld = std::max(1, n);
            int lwork = 0;
            check(f.getrf_bufferSize(h, n, n, at<T>(a.address), ld, &lwork), "size the workspace of getrf", api_.path);
            T* work = at<T>(batch.scratch.allocate(bytes<T>(lwork)));
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.getrf(h, n, n, at<T>(a.address, i * n * n), ld, work, at<int>(pivots, i * n),
                              at<int>(batch.info, i)),
                      "factor a matrix (getrf)", api_.path);
        });
    }

    void getrs(const SolverBatch& batch, bool transpose, const PackedMatrices& lu, std::uint64_t pivots,
               const PackedMatrices& b) override {
        run(batch, "solve (getrs)", [&]<class T>(const DnFunctions<T>& f, Handle h) {
            const int n = to_int(lu.rows), nrhs = to_int(b.cols), ld = std::max(1, n);
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.getrs(h, transpose ? op_t : op_n, n, nrhs, at<T>(lu.address, i * n * n), ld,
                              at<int>(pivots, i * n), at<T>(b.address, i * n * nrhs), ld, at<int>(batch.info, i)),
                      "solve from LU factors (getrs)", api_.path);
        });
    }

    void potrf(const SolverBatch& batch, Triangle triangle, const PackedMatrices& a) override {
        run(batch, "factor matrices (potrf)", [&]<class T>(const DnFunctions<T>& f, Handle h) {
            const int n = to_int(a.rows), ld = std::max(1, n);
            const int uplo = triangle == Triangle::lower ? fill_lower : fill_upper;
            int lwork = 0;
            check(f.potrf_bufferSize(h, uplo, n, at<T>(a.address), ld, &lwork), "size the workspace of potrf",
                  api_.path);
            T* work = at<T>(batch.scratch.allocate(bytes<T>(lwork)));
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.potrf(h, uplo, n, at<T>(a.address, i * n * n), ld, work, lwork, at<int>(batch.info, i)),
                      "compute a Cholesky factor (potrf)", api_.path);
        });
    }

    void geqrf(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t tau) override {
        run(batch, "factor matrices (geqrf)", [&]<class T>(const DnFunctions<T>& f, Handle h) {
            const int m = to_int(a.rows), n = to_int(a.cols), ld = std::max(1, m), k = std::min(m, n);
            int lwork = 0;
            check(f.geqrf_bufferSize(h, m, n, at<T>(a.address), ld, &lwork), "size the workspace of geqrf", api_.path);
            T* work = at<T>(batch.scratch.allocate(bytes<T>(lwork)));
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.geqrf(h, m, n, at<T>(a.address, i * m * n), ld, at<T>(tau, i * k), work, lwork,
                              at<int>(batch.info, i)),
                      "compute a QR factorisation (geqrf)", api_.path);
        });
    }

    void orgqr(const SolverBatch& batch, const PackedMatrices& q, std::int64_t k, std::uint64_t tau) override {
        run(batch, "form Q (orgqr)", [&]<class T>(const DnFunctions<T>& f, Handle h) {
            const int m = to_int(q.rows), n = to_int(q.cols), reflectors = to_int(k), ld = std::max(1, m);
            int lwork = 0;
            check(f.orgqr_bufferSize(h, m, n, reflectors, at<T>(q.address), ld, at<T>(tau), &lwork),
                  "size the workspace of orgqr", api_.path);
            T* work = at<T>(batch.scratch.allocate(bytes<T>(lwork)));
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.orgqr(h, m, n, reflectors, at<T>(q.address, i * m * n), ld, at<T>(tau, i * reflectors), work,
                              lwork, at<int>(batch.info, i)),
                      "form Q from reflectors (orgqr)", api_.path);
        });
    }

    void gesvd(const SolverBatch& batch, SingularVectors vectors, const PackedMatrices& a, std::uint64_t s,
               const PackedMatrices& u, const PackedMatrices& vt) override {
        run(batch, "compute SVDs (gesvd)", [&]<class T>(const DnFunctions<T>& f, Handle h) {
            using R = typename RealOf<T>::type;
            const int m = to_int(a.rows), n = to_int(a.cols), ld = std::max(1, m), k = std::min(m, n);
            const signed char job = vectors == SingularVectors::all       ? 'A'
                                    : vectors == SingularVectors::reduced ? 'S'
                                                                          : 'N';
            const int ldu = std::max(1, to_int(u.rows)), ldvt = std::max(1, to_int(vt.rows));
            const std::int64_t u_size = u.rows * u.cols, vt_size = vt.rows * vt.cols;
            int lwork = 0;
            check(f.gesvd_bufferSize(h, m, n, &lwork), "size the workspace of gesvd", api_.path);
            T* work = at<T>(batch.scratch.allocate(bytes<T>(lwork)));
            R* rwork = at<R>(batch.scratch.allocate(bytes<R>(std::max(1, k))));
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.gesvd(h, job, job, m, n, at<T>(a.address, i * m * n), ld, at<R>(s, i * k),
                              u.address ? at<T>(u.address, i * u_size) : nullptr, ldu,
                              vt.address ? at<T>(vt.address, i * vt_size) : nullptr, ldvt, work, lwork, rwork,
                              at<int>(batch.info, i)),
                      "compute an SVD (gesvd)", api_.path);
        });
    }

    void heevd(const SolverBatch& batch, bool vectors, Triangle triangle, const PackedMatrices& a,
               std::uint64_t w) override {
        run(batch, "compute eigenvalues (syevd/heevd)", [&]<class T>(const DnFunctions<T>& f, Handle h) {
            using R = typename RealOf<T>::type;
            const int n = to_int(a.rows), ld = std::max(1, n);
            const int jobz = vectors ? eig_vector : eig_novector;
            const int uplo = triangle == Triangle::lower ? fill_lower : fill_upper;
            int lwork = 0;
            check(f.heevd_bufferSize(h, jobz, uplo, n, at<T>(a.address), ld, at<R>(w), &lwork),
                  "size the workspace of syevd/heevd", api_.path);
            T* work = at<T>(batch.scratch.allocate(bytes<T>(lwork)));
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.heevd(h, jobz, uplo, n, at<T>(a.address, i * n * n), ld, at<R>(w, i * n), work, lwork,
                              at<int>(batch.info, i)),
                      "compute eigenvalues (syevd/heevd)", api_.path);
        });
    }

    void geev(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t w, const PackedMatrices& vr) override {
        const GeevFunctions& f = api_.geev;
        if (!f.create_params || !f.buffer_size || !f.geev)
            throw BackendUnavailableError(concat("cuSOLVER at ", api_.path,
                                                 " lacks cusolverDnXgeev (CUDA 12.6 and later have it), which "
                                                 "gpukit.linalg.eig and eigvals need"));
        run(batch, "compute eigenvalues (Xgeev)", [&]<class T>(const DnFunctions<T>&, Handle h) {
            const std::int64_t n = a.rows, ld = std::max<std::int64_t>(1, n);
            const int type = data_type(batch.dtype);
            // A real matrix's eigenvalues as complex numbers (cuSOLVER's second form, LAPACK's order).
            const int w_type = type == data_type(DType::float32)   ? data_type(DType::complex64)
                               : type == data_type(DType::float64) ? data_type(DType::complex128)
                                                                   : type;
            const int jobvr = vr.address ? eig_vector : eig_novector;
            const std::int64_t ldvr = vr.address ? ld : 1;
            if (!params_) check(f.create_params(&params_), "create cuSOLVER parameters", api_.path);
            std::size_t device_bytes = 0, host_bytes = 0;
            check(f.buffer_size(h, params_, eig_novector, jobvr, n, type, at<T>(a.address), ld, w_type, at<T>(w), type,
                                nullptr, 1, type, vr.address ? at<T>(vr.address) : nullptr, ldvr, type, &device_bytes,
                                &host_bytes),
                  "size the workspace of Xgeev", api_.path);
            void* device_work = at<char>(batch.scratch.allocate(std::max<std::size_t>(device_bytes, 1)));
            // cuSOLVER states no lifetime for the host workspace: it is the library's, kept (and
            // only ever grown) for the process rather than freed when the call returns.
            if (host_work_.size() < std::max<std::size_t>(host_bytes, 1))
                host_work_.resize(std::max<std::size_t>(host_bytes, 1));
            const std::int64_t w_bytes = n * (w_type == data_type(DType::complex128) ? 16 : 8);
            for (std::int64_t i = 0; i < batch.count; ++i)
                check(f.geev(h, params_, eig_novector, jobvr, n, type, at<T>(a.address, i * n * n), ld, w_type,
                             at<char>(w, i * w_bytes), type, nullptr, 1, type,
                             vr.address ? at<T>(vr.address, i * n * n) : nullptr, ldvr, type, device_work, device_bytes,
                             host_work_.data(), host_bytes, at<int>(batch.info, i)),
                      "compute eigenvalues (Xgeev)", api_.path);
        });
    }

private:
    template <class T>
    static std::size_t bytes(int elements) {
        return static_cast<std::size_t>(std::max(1, elements)) * sizeof(T);
    }

    // Calls `body(functions of the batch's dtype, handle)` with the device's context current, the
    // handle on the batch's stream, and the mutex held.
    template <class Body>
    void run(const SolverBatch& batch, const char* action, Body body) {
        activate_();
        std::lock_guard lock(mutex_);
        if (!handle_) check(api_.create(&handle_), "create a cuSOLVER handle", api_.path);
        check(api_.set_stream(handle_, batch.stream), "set the stream of the cuSOLVER handle", api_.path);
        switch (batch.dtype) {
            case DType::float32: body(api_.s, handle_); break;
            case DType::float64: body(api_.d, handle_); break;
            case DType::complex64: body(api_.c, handle_); break;
            case DType::complex128: body(api_.z, handle_); break;
            default: throw InvalidArgumentError(concat("cuSOLVER cannot ", action, " of ", to_string(batch.dtype)));
        }
    }

    std::function<void()> activate_;
    const Cusolver& api_;
    std::mutex mutex_;
    Handle handle_ = nullptr;
    Params params_ = nullptr;      // Xgeev's (default) parameters, created on its first use
    std::vector<char> host_work_;  // Xgeev's host workspace
};

}  // namespace

std::unique_ptr<SolverLibrary> make_cusolver_library(std::function<void()> activate) {
    return std::make_unique<CusolverLibrary>(std::move(activate), cusolver());
}

}  // namespace gpukit::detail::cuda

// Where the toolkit has cuSOLVER's headers, the declarations above are checked against them.
#if __has_include(<cusolverDn.h>)
#include <cusolverDn.h>
static_assert(CUSOLVER_STATUS_SUCCESS == 0 && CUSOLVER_STATUS_INVALID_WORKSPACE == 31);
static_assert(CUBLAS_FILL_MODE_LOWER == 0 && CUBLAS_FILL_MODE_UPPER == 1);
static_assert(CUBLAS_OP_N == 0 && CUBLAS_OP_T == 1);
static_assert(CUSOLVER_EIG_MODE_NOVECTOR == 0 && CUSOLVER_EIG_MODE_VECTOR == 1);
static_assert(CUDA_R_32F == 0 && CUDA_R_64F == 1 && CUDA_C_32F == 4 && CUDA_C_64F == 5);
static_assert(sizeof(cuDoubleComplex) == sizeof(std::complex<double>) &&
              sizeof(cuComplex) == sizeof(std::complex<float>));
#endif
