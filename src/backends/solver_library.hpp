// src/backends/solver_library.hpp: the dense solvers a backend offers (LAPACK's names): LU, Cholesky,
// QR, SVD, the Hermitian and the general eigensolvers, on batches of column-major matrices in device memory.
//
// gpukit.linalg (src/ops/linalg/) is written once against this; the CUDA backend serves it with
// cuSOLVER, the simulator with the host's LAPACK. Every call only enqueues work on `stream` and
// writes one int32 `info` per matrix, as LAPACK's: 0 for success, > 0 for a matrix the
// factorisation failed on (a zero pivot, a leading minor not positive definite, no convergence);
// the caller reads it back when it decides an error. Failures of the library itself (bad
// arguments, out of memory, a library missing) throw.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpukit/dtype.hpp"

namespace gpukit::detail {

using NativeStream = void*;

// Device memory for a call's workspace, alive until the call's work on its stream has run. The
// caller supplies it from gpukit's memory pool.
class SolverScratch {
public:
    virtual ~SolverScratch() = default;
    // The address of `bytes` bytes of device memory (aligned for any element type).
    virtual std::uint64_t allocate(std::size_t bytes) = 0;
};

// What every call of a batch shares: `count` matrices of `dtype` (float32, float64, complex64 or
// complex128) on `stream`; `info` is `count` int32 in device memory.
struct SolverBatch {
    DType dtype;
    std::int64_t count;
    NativeStream stream;
    std::uint64_t info;
    SolverScratch& scratch;
};

// `count` column-major matrices packed one after the other: leading dimension max(1, rows),
// rows * cols elements apart.
struct PackedMatrices {
    std::uint64_t address;
    std::int64_t rows;
    std::int64_t cols;
};

enum class Triangle : std::uint8_t { lower, upper };

// Which singular vectors gesvd computes: all of U's columns (and V^H's rows), the min(m, n)
// leading ones, or none.
enum class SingularVectors : std::uint8_t { all, reduced, none };

class SolverLibrary {
public:
    virtual ~SolverLibrary() = default;

    // LU with partial pivoting of n x n matrices, in place; `pivots`: n int32 per matrix, 1-based.
    virtual void getrf(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t pivots) = 0;
    // Solves A X = B (or A^T X = B with `transpose`) from getrf's factors, X over B (n x nrhs).
    virtual void getrs(const SolverBatch& batch, bool transpose, const PackedMatrices& lu, std::uint64_t pivots,
                       const PackedMatrices& b) = 0;
    // Cholesky factor of Hermitian positive-definite n x n matrices from the `triangle` given, in
    // place there (A = L L^H for lower, U^H U for upper); the other triangle is left as it was.
    virtual void potrf(const SolverBatch& batch, Triangle triangle, const PackedMatrices& a) = 0;
    // Householder QR of m x n matrices in place: R on and above the diagonal, the reflectors
    // below; `tau`: min(m, n) scalars per matrix.
    virtual void geqrf(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t tau) = 0;
    // Q's first q.cols columns (m x q.cols, q.cols <= m) from the k reflectors of geqrf in q's
    // first k columns (orgqr for real dtypes, ungqr for complex ones).
    virtual void orgqr(const SolverBatch& batch, const PackedMatrices& q, std::int64_t k, std::uint64_t tau) = 0;
    // SVD of m x n matrices with m >= n (a is overwritten): `s` min(m, n) = n singular values per
    // matrix (of the real dtype), descending; u m x m (all) or m x n (reduced); vt n x n (V^H).
    virtual void gesvd(const SolverBatch& batch, SingularVectors vectors, const PackedMatrices& a, std::uint64_t s,
                       const PackedMatrices& u, const PackedMatrices& vt) = 0;
    // Eigenvalues (ascending, real dtype, n per matrix, into `w`) of Hermitian n x n matrices read
    // from `triangle`, and, with `vectors`, the orthonormal eigenvectors over a, one per column.
    virtual void heevd(const SolverBatch& batch, bool vectors, Triangle triangle, const PackedMatrices& a,
                       std::uint64_t w) = 0;
    // Eigenvalues of general n x n matrices (a is overwritten), in LAPACK's order, into `w`: n
    // complex numbers per matrix (complex64 for float32 and complex64 batches, complex128 for the
    // others), a real matrix's conjugate pairs one after the other, the positive imaginary part
    // first. With vr.address, the right eigenvectors too, one per column, each of unit 2-norm with
    // its largest component real; a real matrix's are packed as LAPACK's: a pair's vector is
    // vr[:, j] + i vr[:, j + 1] (and its conjugate for the second eigenvalue of the pair).
    virtual void geev(const SolverBatch& batch, const PackedMatrices& a, std::uint64_t w, const PackedMatrices& vr) = 0;
};

}  // namespace gpukit::detail
