// src/ops/linalg/general_eigen.cpp: numpy.linalg's eig and eigvals (include/gpukit/linalg.hpp)
// from the solver library's geev, on column-major copies of the operands (solver_call.hpp).
//
// As NumPy's: the matrices are checked finite, geev runs in double precision whatever the input's
// (NumPy's 'd->DD' and 'D->DD' loops; float32 and complex64 results are rounded from it), a real
// matrix's packed eigenvectors become complex ones, and a real input's results are real when every
// eigenvalue of the stack is.
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/reductions.hpp"
#include "gpukit/shape_ops.hpp"
#include "ops/linalg/solver_call.hpp"

namespace gpukit::linalg {
namespace {

using detail::SolverCall;

bool is_complex(DType dtype) { return dtype == DType::complex64 || dtype == DType::complex128; }

// Whether any element of `a` is nonzero (true), read back: it decides an error or a dtype.
bool any_nonzero(const Array& a) { return count_nonzero(a, ReduceOptions{}).to_vector<std::int64_t>()[0] > 0; }

// NumPy's _assert_finite.
void require_finite(const Array& a) {
    if (any_nonzero(logical_not(isfinite(a)))) throw LinAlgError("Array must not contain infs or NaNs");
}

// The columns of each matrix moved one place left (`shift` -1: the next column, zeros past the
// last) or right (+1: the previous column, zeros before the first).
Array shifted_columns(const Array& matrices, int shift) {
    Shape edge_shape = matrices.shape();
    edge_shape.back() = 1;
    const Array edge = zeros(edge_shape, matrices.dtype(), Order::C, matrices.device());
    if (shift < 0) {
        const Array parts[] = {matrices.index({ellipsis, Slice{1, std::nullopt, std::nullopt}}), edge};
        return concatenate(parts, -1);
    }
    const Array parts[] = {edge, matrices.index({ellipsis, Slice{std::nullopt, -1, std::nullopt}})};
    return concatenate(parts, -1);
}

// A real matrix's eigenvectors as geev packs them (vr, one per column) made complex: a pair whose
// first eigenvalue has a positive imaginary part holds that one's vector as vr[:, j] + i vr[:, j+1]
// and its conjugate's as vr[:, j] - i vr[:, j+1] (NumPy's mk_geev_complex_eigenvectors).
Array complex_eigenvectors(const Array& vr, const Array& w) {
    const DType complex = DType::complex128;
    const Array unit_imaginary = full({}, Scalar(std::complex<double>(0, 1)), complex, Order::C, vr.device());
    const Array parts = imag(w).index({ellipsis, NewAxis{}, Slice{}});  // one per column
    const Array zero = zeros({}, parts.dtype(), Order::C, vr.device());
    const Array own = vr.astype(complex);
    const Array first_of_pair = add(own, multiply(shifted_columns(vr, -1).astype(complex), unit_imaginary));
    const Array second_of_pair = subtract(shifted_columns(vr, +1).astype(complex), multiply(own, unit_imaginary));
    return where(greater(parts, zero), first_of_pair, where(less(parts, zero), second_of_pair, own));
}

EigResult general_eigen(const Array& a, bool with_vectors) {
    detail::require_stacked_square(a);
    require_finite(a);
    const DType dtype = detail::solver_dtype({&a});
    const bool complex_input = is_complex(dtype);
    const DType compute = complex_input ? DType::complex128 : DType::float64;
    const bool single = dtype == DType::float32 || dtype == DType::complex64;
    const std::int64_t n = a.shape().back();
    const std::int64_t count = detail::batch_count(a.shape());
    Shape w_shape(a.shape().begin(), a.shape().end() - 1);
    const Array work = detail::column_major(a, compute);
    Array w = zeros(w_shape, DType::complex128, Order::C, a.device());
    const Array vr =
        with_vectors ? zeros(a.shape(), compute, Order::C, a.device()) : Array::empty({0}, compute, a.device());
    if (count > 0 && n > 0) {
        const SolverCall call(a.device(), compute, count);
        call.library().geev(call.batch(), call.matrices(work, n, n), call.address(w),
                            with_vectors ? call.matrices(vr, n, n) : gpukit::detail::PackedMatrices{0, n, n});
        if (call.first_failure("geev") >= 0) throw LinAlgError("Eigenvalues did not converge");
    }
    // geev's column-major vectors (..., j, i) as NumPy's (..., i, j): vector j in column j.
    Array v = with_vectors ? detail::from_column_major(vr) : vr;
    if (!complex_input && !any_nonzero(imag(w))) {
        const DType real_type = single ? DType::float32 : DType::float64;
        return {real(w).astype(real_type, Order::C), v.astype(real_type)};
    }
    if (!complex_input && with_vectors) v = complex_eigenvectors(v, w);
    const DType result = single ? DType::complex64 : DType::complex128;
    return {w.astype(result), v.astype(result)};
}

}  // namespace

EigResult eig(const Array& a) { return general_eigen(a, true); }

Array eigvals(const Array& a) { return general_eigen(a, false).eigenvalues; }

}  // namespace gpukit::linalg
