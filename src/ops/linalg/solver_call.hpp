// src/ops/linalg/solver_call.hpp: what every gpukit.linalg solver shares: NumPy's checks of the
// operands and its dtype rule, the column-major copies the solver library works on, and one call
// of the backend's solver library (src/backends/solver_library.hpp) with its info words.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "backends/solver_library.hpp"
#include "gpukit/array.hpp"
#include "gpukit/stream.hpp"

namespace gpukit::linalg::detail {

// NumPy's linalg dtype: float32, float64, complex64 or complex128 (integers and bool: float64; two
// operands: their common type). DTypeError "array type float16 is unsupported in linalg" for
// float16, bfloat16 and any other dtype LAPACK has no routines for.
DType solver_dtype(std::initializer_list<const Array*> operands);
// The real dtype of a solver dtype (float32 for complex64).
DType real_dtype(DType dtype);

// LinAlgError in NumPy's words unless `a` has at least 2 dimensions (and square last two).
void require_stacked_matrices(const Array& a);
void require_stacked_square(const Array& a);

// A new C-contiguous (..., n, m) array of `dtype` holding each (..., m, n) matrix of `a` in
// column-major order: what the solver library works on (and overwrites).
Array column_major(const Array& a, DType dtype);
// The (..., m, n) matrices a column-major buffer (..., n, m) holds, as a C-contiguous array.
Array from_column_major(const Array& buffer);

// The matrices of the batch axes of `shape` (all but the last two).
std::int64_t batch_count(const Shape& shape);

// The inverses of the matrices in `a`'s last two axes, computed in `dtype`, NaN wherever LU finds a
// matrix singular: NumPy's inverse under errstate(all='ignore'), which cond takes.
Array inverse_or_nan(const Array& a, DType dtype);

// One call of the solver library on the current stream of `device`: its batch, info words and
// workspaces. Arrays given to it (address()) stay alive and are ordered on the stream.
class SolverCall {
public:
    SolverCall(const Device& device, DType dtype, std::int64_t count);

    gpukit::detail::SolverLibrary& library() const { return library_; }
    const gpukit::detail::SolverBatch& batch() const { return batch_; }
    // The address of `array`'s first element for the library's work on the call's stream.
    std::uint64_t address(const Array& array) const;
    gpukit::detail::PackedMatrices matrices(const Array& buffer, std::int64_t rows, std::int64_t cols) const;
    // Reads the info words back (waits for the stream): the first matrix whose info is positive,
    // or -1 when none. A negative info (an argument the library refused) is an internal error.
    std::int64_t first_failure(std::string_view routine) const;
    // The info words themselves (int32, one per matrix), for results that mark failed matrices
    // rather than throw.
    const Array& info() const { return info_; }

private:
    class Scratch;
    Device device_;
    StreamRef stream_;
    gpukit::detail::SolverLibrary& library_;
    Array info_;
    std::shared_ptr<Scratch> scratch_;
    gpukit::detail::SolverBatch batch_;
};

}  // namespace gpukit::linalg::detail
