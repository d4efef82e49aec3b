// src/ops/linalg/decompositions.cpp: numpy.linalg's qr, svd, svdvals, eigh and eigvalsh
// (include/gpukit/linalg.hpp) from the solver library's geqrf + orgqr, gesvd and heevd, on
// column-major copies of the operands (solver_call.hpp).
#include "gpukit/advanced_indexing.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/elementwise.hpp"
#include "gpukit/error.hpp"
#include "gpukit/indexing.hpp"
#include "gpukit/linalg.hpp"
#include "gpukit/shape_ops.hpp"
#include "gpukit/sorting.hpp"
#include "ops/linalg/solver_call.hpp"

namespace gpukit::linalg {
namespace {

using detail::SolverCall;
using gpukit::detail::SingularVectors;
using gpukit::detail::Triangle;

Shape replace_core(const Shape& shape, std::size_t core, std::initializer_list<std::int64_t> extents) {
    Shape out(shape.begin(), shape.end() - static_cast<std::ptrdiff_t>(core));
    out.insert(out.end(), extents.begin(), extents.end());
    return out;
}

// The first `rows` rows of each matrix in the last two axes (a view).
Array leading_rows(const Array& a, std::int64_t rows) {
    return a.index({ellipsis, Slice{std::nullopt, rows, std::nullopt}, Slice{}});
}

}  // namespace

QRResult qr(const Array& a, QRMode mode) {
    detail::require_stacked_matrices(a);
    const DType dtype = detail::solver_dtype({&a});
    const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
    const std::int64_t count = detail::batch_count(a.shape());
    // Column-major A: (..., n, m) in C order; geqrf leaves R and the reflectors there.
    const Array h = detail::column_major(a, dtype);
    const Array tau = zeros(replace_core(a.shape(), 2, {k}), dtype, Order::C, a.device());
    if (count > 0 && k > 0) {
        const SolverCall call(a.device(), dtype, count);
        call.library().geqrf(call.batch(), call.matrices(h, m, n), call.address(tau));
    }
    if (mode == QRMode::raw) return {h, tau};
    // Complete with more rows than columns: Q is m x m and R m x n; else k columns and rows.
    const std::int64_t q_cols = mode == QRMode::complete && m > n ? m : k;
    const Array r = triu(leading_rows(detail::from_column_major(h), q_cols));
    if (mode == QRMode::r) return {Array::empty(replace_core(a.shape(), 2, {0, 0}), dtype, a.device()), r};
    // Q's columns (rows of the column-major buffer): the reflectors in the first k, zeros after.
    Array q = zeros(replace_core(a.shape(), 2, {q_cols, m}), dtype, Order::C, a.device());
    leading_rows(q, k).assign(leading_rows(h, k));
    if (count > 0 && m > 0 && q_cols > 0) {
        if (k == 0) {
            q = broadcast_to(identity(m, dtype, a.device()), q.shape()).copy(Order::C);
        } else {
            const SolverCall call(a.device(), dtype, count);
            call.library().orgqr(call.batch(), call.matrices(q, m, q_cols), k, call.address(tau));
        }
    }
    return {detail::from_column_major(q), r};
}

namespace {

// The SVD through gesvd, which takes m >= n: a wide matrix's from its conjugate transpose's
// (A^H = U' S V'^H gives A = V' S U'^H), whose column-major storage is conj(A) in C order.
SVDResult gesvd_of(const Array& a, bool full_matrices, bool compute_uv) {
    detail::require_stacked_matrices(a);
    const DType dtype = detail::solver_dtype({&a});
    const DType real = detail::real_dtype(dtype);
    const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape().back(), k = std::min(m, n);
    const std::int64_t count = detail::batch_count(a.shape());
    const bool wide = m < n;
    const std::int64_t rows = wide ? n : m, cols = wide ? m : n;  // of the tall matrix gesvd takes
    const Array tall = wide ? conjugate(a.astype(dtype, Order::C)) : detail::column_major(a, dtype);
    const Array s = zeros(replace_core(a.shape(), 2, {k}), real, Order::C, a.device());
    const SingularVectors vectors = !compute_uv     ? SingularVectors::none
                                    : full_matrices ? SingularVectors::all
                                                    : SingularVectors::reduced;
    const std::int64_t u_cols = full_matrices ? rows : cols;
    // Column-major buffers of the tall matrix's U (rows x u_cols) and V^H (cols x cols).
    const Array u = zeros(replace_core(a.shape(), 2, {compute_uv ? u_cols : 0, rows}), dtype, Order::C, a.device());
    const Array vt = zeros(replace_core(a.shape(), 2, {compute_uv ? cols : 0, cols}), dtype, Order::C, a.device());
    if (count > 0 && k > 0) {
        const SolverCall call(a.device(), dtype, count);
        call.library().gesvd(call.batch(), vectors, call.matrices(tall, rows, cols), call.address(s),
                             compute_uv ? call.matrices(u, rows, u_cols) : gpukit::detail::PackedMatrices{0, rows, 0},
                             compute_uv ? call.matrices(vt, cols, cols) : gpukit::detail::PackedMatrices{0, cols, 0});
        if (call.first_failure("gesvd") >= 0) throw LinAlgError("SVD did not converge");
    }
    if (!compute_uv) return {Array::empty({0}, dtype, a.device()), s, Array::empty({0}, dtype, a.device())};
    // An empty matrix's U and V^H are identities (NumPy's), which gesvd never ran to give.
    const auto filled = [&](const Array& buffer, std::int64_t size) {
        const auto& shape = buffer.shape();
        if (count == 0 || k > 0 || size == 0 || shape[shape.size() - 2] != size) return buffer;
        return broadcast_to(identity(size, dtype, a.device()), buffer.shape()).copy(Order::C);
    };
    const Array tall_u = filled(u, rows), tall_vt = filled(vt, cols);
    if (wide) return {conjugate(tall_vt), s, conjugate(tall_u)};  // read in C order: V'^H^H, U'^H
    return {detail::from_column_major(tall_u), s, detail::from_column_major(tall_vt)};
}

}  // namespace

EighResult eigh(const Array& a, Uplo uplo) {
    detail::require_stacked_square(a);
    const DType dtype = detail::solver_dtype({&a});
    const std::int64_t n = a.shape().back();
    const std::int64_t count = detail::batch_count(a.shape());
    const Array vectors = detail::column_major(a, dtype);
    const Array w = zeros(replace_core(a.shape(), 2, {n}), detail::real_dtype(dtype), Order::C, a.device());
    if (count > 0 && n > 0) {
        const SolverCall call(a.device(), dtype, count);
        call.library().heevd(call.batch(), true, uplo == Uplo::lower ? Triangle::lower : Triangle::upper,
                             call.matrices(vectors, n, n), call.address(w));
        if (call.first_failure("heevd") >= 0) throw LinAlgError("Eigenvalues did not converge");
    }
    return {w, detail::from_column_major(vectors)};
}

Array eigvalsh(const Array& a, Uplo uplo) {
    detail::require_stacked_square(a);
    const DType dtype = detail::solver_dtype({&a});
    const std::int64_t n = a.shape().back();
    const std::int64_t count = detail::batch_count(a.shape());
    const Array work = detail::column_major(a, dtype);
    Array w = zeros(replace_core(a.shape(), 2, {n}), detail::real_dtype(dtype), Order::C, a.device());
    if (count > 0 && n > 0) {
        const SolverCall call(a.device(), dtype, count);
        call.library().heevd(call.batch(), false, uplo == Uplo::lower ? Triangle::lower : Triangle::upper,
                             call.matrices(work, n, n), call.address(w));
        if (call.first_failure("heevd") >= 0) throw LinAlgError("Eigenvalues did not converge");
    }
    return w;
}

SVDResult svd(const Array& a, bool full_matrices, bool hermitian) {
    if (!hermitian) return gesvd_of(a, full_matrices, true);
    // NumPy's Hermitian SVD: eigh, the eigenvalues' magnitudes descending, their signs moved to V^H.
    const EighResult e = eigh(a);
    const Array order = flip(argsort(absolute(e.eigenvalues), -1), std::vector<std::int64_t>{-1});
    const Array s = take_along_axis(absolute(e.eigenvalues), order, -1);
    const Array signs = take_along_axis(sign(e.eigenvalues), order, -1);
    const Array u = take_along_axis(e.eigenvectors, expand_dims(order, std::vector<std::int64_t>{-2}), -1);
    const Array vh = conjugate(swapaxes(multiply(u, expand_dims(signs, std::vector<std::int64_t>{-2})), -1, -2));
    return {u, s, vh.copy(Order::C)};
}

Array svdvals(const Array& a, bool hermitian) {
    if (!hermitian) return gesvd_of(a, false, false).S;
    return flip(sort(absolute(eigvalsh(a)), -1), std::vector<std::int64_t>{-1}).copy(Order::C);
}

}  // namespace gpukit::linalg
