// src/backends/sim/lapack_solver.cpp: the simulator's dense solvers: the host's LAPACK (reference
// LAPACK, OpenBLAS, ...), loaded at run time through its Fortran entry points (sgetrf_, ...).
//
// Loaded, not linked, for the reason the CUDA libraries are: gpukit then builds and imports on
// machines without LAPACK, and only gpukit.linalg on the simulator needs it (with a message
// saying how to install it). The Fortran ABI (every argument by pointer, a hidden length after
// the arguments for each CHARACTER one) is what every LAPACK exports, LAPACKE is not always there.
// Simulated device memory is host memory at the same address in this process, so each call is a
// host task on the stream that runs LAPACK on the matrices where they lie, one after the other.
#include "backends/sim/lapack_solver.hpp"
#include "util/complex_traits.hpp"

#include <algorithm>
#include <complex>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "gpukit/error.hpp"
#include "util/dynamic_library.hpp"
#include "util/once.hpp"
#include "util/text.hpp"

namespace gpukit::detail::sim {

namespace {

using Length = std::size_t;  // gfortran's hidden length argument of a CHARACTER argument

// The entry points of one element type (LAPACK's prefix s, d, c or z).
template <class T>
struct LapackFunctions {
    using R = typename RealOf<T>::type;
    void (*getrf)(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) = nullptr;
    void (*getrs)(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda, const int* ipiv, T* b,
                  const int* ldb, int* info, Length) = nullptr;
    void (*potrf)(const char* uplo, const int* n, T* a, const int* lda, int* info, Length) = nullptr;
    void (*geqrf)(const int* m, const int* n, T* a, const int* lda, T* tau, T* work, const int* lwork,
                  int* info) = nullptr;
    void (*orgqr)(const int* m, const int* n, const int* k, T* a, const int* lda, const T* tau, T* work,
                  const int* lwork, int* info) = nullptr;
    // Real types: no rwork; complex ones take rwork before info.
    void (*gesvd_real)(const char* jobu, const char* jobvt, const int* m, const int* n, T* a, const int* lda, R* s,
                       T* u, const int* ldu, T* vt, const int* ldvt, T* work, const int* lwork, int* info, Length,
                       Length) = nullptr;
    void (*gesvd_complex)(const char* jobu, const char* jobvt, const int* m, const int* n, T* a, const int* lda, R* s,
                          T* u, const int* ldu, T* vt, const int* ldvt, T* work, const int* lwork, R* rwork, int* info,
                          Length, Length) = nullptr;
    void (*syevd)(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, R* w, T* work,
                  const int* lwork, int* iwork, const int* liwork, int* info, Length, Length) = nullptr;
    void (*heevd)(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, R* w, T* work,
                  const int* lwork, R* rwork, const int* lrwork, int* iwork, const int* liwork, int* info, Length,
                  Length) =
        nullptr;  // Real types: the eigenvalues' real and imaginary parts apart; complex ones: w, and rwork.
    void (*geev_real)(const char* jobvl, const char* jobvr, const int* n, T* a, const int* lda, T* wr, T* wi, T* vl,
                      const int* ldvl, T* vr, const int* ldvr, T* work, const int* lwork, int* info, Length,
                      Length) = nullptr;
    void (*geev_complex)(const char* jobvl, const char* jobvr, const int* n, T* a, const int* lda, T* w, T* vl,
                         const int* ldvl, T* vr, const int* ldvr, T* work, const int* lwork, R* rwork, int* info,
                         Length, Length) = nullptr;
};

struct Lapack {
    std::string path;
    LapackFunctions<float> s;
    LapackFunctions<double> d;
    LapackFunctions<std::complex<float>> c;
    LapackFunctions<std::complex<double>> z;
};

std::vector<std::string> lapack_candidates() {
    // A path given is the only candidate: a wrong one is an error, never passed over.
    if (const char* path = std::getenv("GPUKIT_LAPACK"); path && *path) return {path};
    return {"liblapack.so.3", "libopenblas.so.0", "liblapack.so", "libopenblas.so"};
}

template <class T>
void resolve(const DynamicLibrary& library, char prefix, LapackFunctions<T>& f, std::string& missing) {
    const auto get = [&](auto& slot, const char* name) { library.resolve(slot, concat(prefix, name, "_"), missing); };
    get(f.getrf, "getrf");
    get(f.getrs, "getrs");
    get(f.potrf, "potrf");
    get(f.geqrf, "geqrf");
    if constexpr (is_complex_v<T>) {
        get(f.orgqr, "ungqr");
        get(f.gesvd_complex, "gesvd");
        get(f.heevd, "heevd");
        get(f.geev_complex, "geev");
    } else {
        get(f.orgqr, "orgqr");
        get(f.gesvd_real, "gesvd");
        get(f.syevd, "syevd");
        get(f.geev_real, "geev");
    }
}

const Lapack& lapack() {
    return once([] {
        const auto library = DynamicLibrary::open_first(
            "LAPACK (liblapack.so.3), which gpukit.linalg uses on the simulator,", lapack_candidates(),
            "Install it (Debian/Ubuntu: apt-get install liblapack3, or libopenblas0 for OpenBLAS), or set "
            "GPUKIT_LAPACK to a LAPACK library's path.");
        Lapack api;
        api.path = library.path();
        std::string missing;
        resolve(library, 's', api.s, missing);
        resolve(library, 'd', api.d, missing);
        resolve(library, 'c', api.c, missing);
        resolve(library, 'z', api.z, missing);
        if (!missing.empty())
            throw BackendUnavailableError(
                concat("The LAPACK library at ", api.path, " lacks ", missing, ", which gpukit.linalg needs"));
        return api;
    });
}

int to_int(std::int64_t value, const char* what) {
    if (value < 0 || value > std::int64_t{std::numeric_limits<int>::max()})
        throw InvalidArgumentError(concat("LAPACK takes 32-bit sizes: ", what, " = ", value, " is too large"));
    return static_cast<int>(value);
}

template <class T>
T* at(std::uint64_t address, std::int64_t index = 0) {
    return reinterpret_cast<T*>(address) + index;
}

// The size a workspace query (lwork = -1) answered in work[0].
template <class T>
int queried(const T& value) {
    return std::max(1, static_cast<int>(std::real(value)));
}

// Bytes of one value of the dtype's real part (singular values, eigenvalues).
std::int64_t real_itemsize(DType dtype) {
    const auto bytes = static_cast<std::int64_t>(itemsize(dtype));
    return dtype == DType::complex64 || dtype == DType::complex128 ? bytes / 2 : bytes;
}

char fill_char(Triangle triangle) { return triangle == Triangle::lower ? 'L' : 'U'; }

class LapackSolver final : public SolverLibrary {
public:
    LapackSolver(HostQueue queue, const Lapack& api) : queue_(std::move(queue)), api_(api) {}

    void getrf(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t pivots) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            const int n = to_int(a.rows, "n");
            const std::int64_t count = batch.count;
            const std::uint64_t address = a.address, info = batch.info;
            return [&f, n, count, address, pivots, info] {
                const int ld = std::max(1, n);
                for (std::int64_t i = 0; i < count; ++i)
                    f.getrf(&n, &n, at<T>(address, i * n * n), &ld, at<int>(pivots, i * n), at<int>(info, i));
            };
        });
        wrote(batch, a);
        wrote(batch, pivots, batch.count * a.rows * 4);
    }

    void getrs(const SolverBatch& batch, bool transpose, const PackedMatrices& lu, std::uint64_t pivots,
               const PackedMatrices& b) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            const int n = to_int(lu.rows, "n"), nrhs = to_int(b.cols, "nrhs");
            const std::int64_t count = batch.count;
            const std::uint64_t factors = lu.address, rhs = b.address, info = batch.info;
            const char trans = transpose ? 'T' : 'N';
            return [&f, n, nrhs, count, factors, rhs, pivots, info, trans] {
                const int ld = std::max(1, n);
                for (std::int64_t i = 0; i < count; ++i)
                    f.getrs(&trans, &n, &nrhs, at<T>(factors, i * n * n), &ld, at<int>(pivots, i * n),
                            at<T>(rhs, i * n * nrhs), &ld, at<int>(info, i), 1);
            };
        });
        wrote(batch, b);
    }

    void potrf(const SolverBatch& batch, Triangle triangle, const PackedMatrices& a) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            const int n = to_int(a.rows, "n");
            const std::int64_t count = batch.count;
            const std::uint64_t address = a.address, info = batch.info;
            const char uplo = fill_char(triangle);
            return [&f, n, count, address, info, uplo] {
                const int ld = std::max(1, n);
                for (std::int64_t i = 0; i < count; ++i)
                    f.potrf(&uplo, &n, at<T>(address, i * n * n), &ld, at<int>(info, i), 1);
            };
        });
        wrote(batch, a);
    }

    void geqrf(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t tau) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            const int m = to_int(a.rows, "m"), n = to_int(a.cols, "n");
            const std::int64_t count = batch.count, k = std::min(m, n);
            const std::uint64_t address = a.address, info = batch.info;
            return [&f, m, n, k, count, address, tau, info] {
                const int ld = std::max(1, m);
                T size{};
                int query = -1, status = 0;
                f.geqrf(&m, &n, at<T>(address), &ld, at<T>(tau), &size, &query, &status);
                const int lwork = queried(size);
                std::vector<T> work(static_cast<std::size_t>(lwork));
                for (std::int64_t i = 0; i < count; ++i)
                    f.geqrf(&m, &n, at<T>(address, i * m * n), &ld, at<T>(tau, i * k), work.data(), &lwork,
                            at<int>(info, i));
            };
        });
        wrote(batch, a);
        wrote(batch, tau, batch.count * std::min(a.rows, a.cols) * static_cast<std::int64_t>(itemsize(batch.dtype)));
    }

    void orgqr(const SolverBatch& batch, const PackedMatrices& q, std::int64_t k, std::uint64_t tau) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            const int m = to_int(q.rows, "m"), n = to_int(q.cols, "n"), reflectors = to_int(k, "k");
            const std::int64_t count = batch.count;
            const std::uint64_t address = q.address, info = batch.info;
            return [&f, m, n, reflectors, count, address, tau, info] {
                const int ld = std::max(1, m);
                T size{};
                int query = -1, status = 0;
                f.orgqr(&m, &n, &reflectors, at<T>(address), &ld, at<T>(tau), &size, &query, &status);
                const int lwork = queried(size);
                std::vector<T> work(static_cast<std::size_t>(lwork));
                for (std::int64_t i = 0; i < count; ++i)
                    f.orgqr(&m, &n, &reflectors, at<T>(address, i * m * n), &ld, at<T>(tau, i * reflectors),
                            work.data(), &lwork, at<int>(info, i));
            };
        });
        wrote(batch, q);
    }

    void gesvd(const SolverBatch& batch, SingularVectors vectors, const PackedMatrices& a, std::uint64_t s,
               const PackedMatrices& u, const PackedMatrices& vt) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            using R = typename RealOf<T>::type;
            const int m = to_int(a.rows, "m"), n = to_int(a.cols, "n");
            const std::int64_t count = batch.count, k = std::min(m, n);
            const std::int64_t u_size = u.rows * u.cols, vt_size = vt.rows * vt.cols;
            const char job = vectors == SingularVectors::all ? 'A' : vectors == SingularVectors::reduced ? 'S' : 'N';
            const std::uint64_t address = a.address, us = u.address, vts = vt.address, info = batch.info;
            const int ldu = std::max<int>(1, to_int(u.rows, "ldu")), ldvt = std::max<int>(1, to_int(vt.rows, "ldvt"));
            return [&f, m, n, k, count, u_size, vt_size, job, address, s, us, vts, info, ldu, ldvt] {
                const int lda = std::max(1, m);
                // A one-element stand-in where no vectors are asked for (LAPACK never touches it).
                T unused{};
                const auto u_of = [&](std::int64_t i) { return us ? at<T>(us, i * u_size) : &unused; };
                const auto vt_of = [&](std::int64_t i) { return vts ? at<T>(vts, i * vt_size) : &unused; };
                std::vector<R> rwork(static_cast<std::size_t>(std::max<std::int64_t>(1, 5 * k)));
                const auto call = [&](std::int64_t i, T* work, const int* lwork, int* status) {
                    if constexpr (is_complex_v<T>)
                        f.gesvd_complex(&job, &job, &m, &n, at<T>(address, i * m * n), &lda, at<R>(s, i * k), u_of(i),
                                        &ldu, vt_of(i), &ldvt, work, lwork, rwork.data(), status, 1, 1);
                    else
                        f.gesvd_real(&job, &job, &m, &n, at<T>(address, i * m * n), &lda, at<R>(s, i * k), u_of(i),
                                     &ldu, vt_of(i), &ldvt, work, lwork, status, 1, 1);
                };
                T size{};
                int query = -1, status = 0;
                call(0, &size, &query, &status);
                const int lwork = queried(size);
                std::vector<T> work(static_cast<std::size_t>(lwork));
                for (std::int64_t i = 0; i < count; ++i) call(i, work.data(), &lwork, at<int>(info, i));
            };
        });
        wrote(batch, a);
        wrote(batch, s, batch.count * std::min(a.rows, a.cols) * real_itemsize(batch.dtype));
        if (vectors != SingularVectors::none) {
            wrote(batch, u);
            wrote(batch, vt);
        }
    }

    void heevd(const SolverBatch& batch, bool vectors, Triangle triangle, const PackedMatrices& a,
               std::uint64_t w) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            using R = typename RealOf<T>::type;
            const int n = to_int(a.rows, "n");
            const std::int64_t count = batch.count;
            const std::uint64_t address = a.address, info = batch.info;
            const char jobz = vectors ? 'V' : 'N', uplo = fill_char(triangle);
            return [&f, n, count, address, w, info, jobz, uplo] {
                const int ld = std::max(1, n);
                T size{};
                R rsize{};
                int isize = 0, query = -1, status = 0;
                const auto call = [&](std::int64_t i, T* work, const int* lwork, R* rwork, const int* lrwork,
                                      int* iwork, const int* liwork, int* result) {
                    if constexpr (is_complex_v<T>)
                        f.heevd(&jobz, &uplo, &n, at<T>(address, i * n * n), &ld, at<R>(w, i * n), work, lwork, rwork,
                                lrwork, iwork, liwork, result, 1, 1);
                    else
                        f.syevd(&jobz, &uplo, &n, at<T>(address, i * n * n), &ld, at<R>(w, i * n), work, lwork, iwork,
                                liwork, result, 1, 1);
                };
                call(0, &size, &query, &rsize, &query, &isize, &query, &status);
                const int lwork = queried(size), lrwork = queried(rsize), liwork = std::max(1, isize);
                std::vector<T> work(static_cast<std::size_t>(lwork));
                std::vector<R> rwork(static_cast<std::size_t>(lrwork));
                std::vector<int> iwork(static_cast<std::size_t>(liwork));
                for (std::int64_t i = 0; i < count; ++i)
                    call(i, work.data(), &lwork, rwork.data(), &lrwork, iwork.data(), &liwork, at<int>(info, i));
            };
        });
        wrote(batch, a);
        wrote(batch, w, batch.count * a.rows * real_itemsize(batch.dtype));
    }

    void geev(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t w, const PackedMatrices& vr) override {
        dispatch(batch, [&]<class T>(const LapackFunctions<T>& f) {
            using R = typename RealOf<T>::type;
            const int n = to_int(a.rows, "n");
            const std::int64_t count = batch.count;
            const std::uint64_t address = a.address, vectors = vr.address, info = batch.info;
            return [&f, n, count, address, w, vectors, info] {
                const int ld = std::max(1, n), unused_ld = 1;
                const char no = 'N', jobvr = vectors ? 'V' : 'N';
                T unused{};
                const auto vr_of = [&](std::int64_t i) { return vectors ? at<T>(vectors, i * n * n) : &unused; };
                // A real matrix's eigenvalues come as two arrays, which w interleaves as complex numbers.
                std::vector<T> wr(static_cast<std::size_t>(n)), wi(static_cast<std::size_t>(n));
                std::vector<R> rwork(static_cast<std::size_t>(std::max(1, 2 * n)));
                const int ldvr = vectors ? ld : 1;
                const auto call = [&](std::int64_t i, T* work, const int* lwork, int* status) {
                    if constexpr (is_complex_v<T>)
                        f.geev_complex(&no, &jobvr, &n, at<T>(address, i * n * n), &ld, at<T>(w, i * n), &unused,
                                       &unused_ld, vr_of(i), &ldvr, work, lwork, rwork.data(), status, 1, 1);
                    else
                        f.geev_real(&no, &jobvr, &n, at<T>(address, i * n * n), &ld, wr.data(), wi.data(), &unused,
                                    &unused_ld, vr_of(i), &ldvr, work, lwork, status, 1, 1);
                };
                T size{};
                int query = -1, status = 0;
                call(0, &size, &query, &status);
                const int lwork = queried(size);
                std::vector<T> work(static_cast<std::size_t>(lwork));
                for (std::int64_t i = 0; i < count; ++i) {
                    call(i, work.data(), &lwork, at<int>(info, i));
                    if constexpr (!is_complex_v<T>)
                        for (std::size_t j = 0; j < wr.size(); ++j)
                            at<std::complex<T>>(w)[i * n + static_cast<std::int64_t>(j)] = {wr[j], wi[j]};
                }
            };
        });
        wrote(batch, a);
        wrote(batch, w, batch.count * a.rows * 2 * real_itemsize(batch.dtype));
        if (vr.address) wrote(batch, vr);
    }

private:
    // Runs `make(functions of the batch's dtype)`'s task on the batch's stream, then marks the
    // info words written.
    template <class Make>
    void dispatch(const SolverBatch& batch, Make make) {
        std::function<void()> task;
        switch (batch.dtype) {
            case DType::float32: task = make(api_.s); break;
            case DType::float64: task = make(api_.d); break;
            case DType::complex64: task = make(api_.c); break;
            case DType::complex128: task = make(api_.z); break;
            default: throw InvalidArgumentError(concat("LAPACK has no solvers for ", to_string(batch.dtype)));
        }
        queue_.submit(batch.stream, std::move(task));
        wrote(batch, batch.info, batch.count * 4);
    }
    // Tells check mode that the task wrote these bytes (queued after it, in the same order).
    void wrote(const SolverBatch& batch, std::uint64_t address, std::int64_t bytes) {
        if (!address || bytes <= 0) return;
        auto wrote = queue_.wrote;
        queue_.submit(batch.stream, [wrote, address, bytes] { wrote(address, static_cast<std::size_t>(bytes)); });
    }
    void wrote(const SolverBatch& batch, const PackedMatrices& m) {
        wrote(batch, m.address, batch.count * m.rows * m.cols * static_cast<std::int64_t>(itemsize(batch.dtype)));
    }

    HostQueue queue_;
    const Lapack& api_;
};

}  // namespace

std::unique_ptr<SolverLibrary> make_lapack_solver(HostQueue queue) {
    return std::make_unique<LapackSolver>(std::move(queue), lapack());
}

}  // namespace gpukit::detail::sim
