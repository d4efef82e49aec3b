// include/gpukit/linalg.hpp: products and norms, as NumPy's (numpy.matmul, dot, vdot, inner,
// tensordot, outer, kron, trace, numpy.linalg.norm), with NumPy's result dtypes for every shape.
// Matrix products (matmul, tensordot, dot with a matrix operand) run the backend's BLAS (cuBLAS)
// or gpukit's matrix-product kernels (src/ops/linalg/matmul.cpp; set_matmul_library); vdot, inner and the dot of
// vectors are one reduction of a broadcast product (gpukit/reductions.hpp's engine); outer and kron one broadcast
// multiply.
//
//   gpukit::Array d = gpukit::dot(x, y);                            // 1-D: a 0-d array
//   gpukit::Array n = gpukit::linalg::norm(x, {.ord = 1.0, .axis = {{0}}});
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/promotion.hpp"

namespace gpukit {

struct MatmulOptions {
    std::optional<Array> out;    // the result's shape; the result is cast to its dtype under `casting`
    std::optional<DType> dtype;  // computed and returned in this dtype (default: the operands' promoted one)
    Casting casting = Casting::same_kind;
};

// numpy.matmul (the @ operator): the matrix product of the last two axes, earlier axes a batch that
// broadcasts; a 1-D operand is a row on the left and a column on the right, its axis dropped from
// the result. Every dtype: half types summed in float32, integers wrapping, bool as or-of-ands.
// InvalidArgumentError for a 0-d operand, contracted axes of different lengths (naming both
// shapes), batch axes that do not broadcast, or out= of another shape; DTypeError where `casting`
// forbids the result into out's dtype.
Array matmul(const Array& a, const Array& b, const MatmulOptions& options = {});

// How float32 and complex64 matrix products may trade precision for speed, in
// torch.set_float32_matmul_precision's words: "highest" (float32 arithmetic throughout; the
// default) or "high" (inputs rounded to TF32 on tensor cores where the library has them; "tf32"
// names it too). Process-wide. InvalidArgumentError for another name ("medium", bfloat16 products,
// is not offered).
void set_matmul_precision(std::string_view precision);
std::string matmul_precision();
// Which code computes float and complex matrix products: "vendor" (the backend's BLAS where it has
// one: cuBLAS on CUDA, loaded on first use, an error naming it where it is missing; gpukit's own
// kernels where the backend has none, as the simulator; the default) or "own" (gpukit's kernels
// everywhere). Integer and bool products always run gpukit's kernels. Process-wide.
void set_matmul_library(std::string_view library);
std::string matmul_library();

// numpy.tensordot: the sum over a's axes `a_axes` against b's `b_axes` (pairwise, of equal
// lengths), the result a's other axes then b's, as one matrix product. InvalidArgumentError
// ("shape-mismatch for sum") for axes of different lengths, an axis out of range (AxisError) or twice.
Array tensordot(const Array& a, const Array& b, std::span<const std::int64_t> a_axes,
                std::span<const std::int64_t> b_axes);
// The last `axes` axes of a against the first `axes` of b (numpy.tensordot(a, b, axes=N)).
Array tensordot(const Array& a, const Array& b, std::int64_t axes = 2);
// numpy.outer: every element of the flattened a times every element of the flattened b.
Array outer(const Array& a, const Array& b);
// numpy.kron: the Kronecker product, blocks of b scaled by each element of a.
Array kron(const Array& a, const Array& b);

struct EinsumOptions {
    std::optional<Array> out;    // the result's shape; the result is cast to its dtype under `casting`
    std::optional<DType> dtype;  // computed in this dtype (default: the operands' result_type)
    Casting casting = Casting::safe;
};

// numpy.einsum: "ij,jk->ik" (letters, '...' for broadcast axes; without "->", the labels used once,
// alphabetically, after the ellipsis's axes). A repeated label within an operand takes its
// diagonal; labels missing from the output are summed; several operands are contracted left to
// right, each pair one batched matrix product. InvalidArgumentError in NumPy's words for bad
// subscripts (not letters, too many for an operand, an output label no input has) or mismatched
// extents.
Array einsum(std::string_view subscripts, std::span<const Array> operands, const EinsumOptions& options = {});

// numpy.dot: 0-d operands multiply; otherwise the sum over a's last axis and b's second-to-last
// (its only one when 1-D). The result's dtype is the operands' promoted dtype (bool stays bool).
// Throws InvalidArgumentError when those axes differ in length ("shapes (2,3) and (4,) not aligned").
Array dot(const Array& a, const Array& b);
// numpy.dot into `out`, which must have the result's shape and dtype (InvalidArgumentError
// otherwise, NumPy's "output array is not acceptable"); returns out.
Array dot(const Array& a, const Array& b, const Array& out);
// numpy.vdot: the flattened operands, the first conjugated.
Array vdot(const Array& a, const Array& b);
// numpy.inner: the sum over both operands' last axes.
Array inner(const Array& a, const Array& b);
// numpy.vecdot (and the Array API's): the sum over `axis` of conj(a) * b, the other axes broadcast.
// `axis` counts in each operand (negative: from its end); InvalidArgumentError when the two axes
// differ in length, AxisError when an operand has no such axis.
Array vecdot(const Array& a, const Array& b, std::int64_t axis = -1);
// numpy.cross: the cross products of the vectors along axisa of a and axisb of b (2 or 3
// components each; a missing third one is 0), the other axes broadcast. Three components give a
// vector along `axisc` of the result; two and two give its z component alone. InvalidArgumentError
// for vectors of another length.
Array cross(const Array& a, const Array& b, std::int64_t axisa = -1, std::int64_t axisb = -1, std::int64_t axisc = -1);
// numpy.trace: the sums of the diagonals (offset, axis1, axis2 as numpy.diagonal's), with sum's
// dtypes (dtype= and out= as sum's).
Array trace(const Array& a, std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1,
            std::optional<DType> dtype = std::nullopt, const std::optional<Array>& out = std::nullopt);

namespace linalg {

// A norm's order: a number (inf, -inf, 0, 1, 2, -1, -2, any p for vectors) or "fro" / "nuc".
using NormOrder = std::variant<double, std::string>;

struct NormOptions {
    std::optional<NormOrder> ord;                   // none: the 2-norm (Frobenius for matrices)
    std::optional<std::vector<std::int64_t>> axis;  // one axis: vector norms; two: matrix norms
    bool keepdims = false;
};

// numpy.linalg.norm: vector norms (any order), and the Frobenius, 1, -1, inf, -inf, 2, -2 and
// nuclear matrix norms (the last three from singular values, svdvals). Integers compute in float64;
// complex numbers give their real dtype. Throws InvalidArgumentError for an order the shape has no
// norm of.
Array norm(const Array& x, const NormOptions& options = {});
// The Array API's vector_norm: the norm of order `ord` over `axis` (every axis when none; a tuple
// of them as one flattened vector), as numpy.linalg.vector_norm.
Array vector_norm(const Array& x, const std::optional<std::vector<std::int64_t>>& axis = std::nullopt,
                  bool keepdims = false, double ord = 2);
// The Array API's matrix_norm: the norm of the matrices in the last two axes ("fro" by default;
// "nuc", 1, -1, 2, -2, inf, -inf), as numpy.linalg.matrix_norm. InvalidArgumentError under 2-D.
Array matrix_norm(const Array& x, bool keepdims = false, const NormOrder& ord = std::string("fro"));
// The Array API's cross: numpy.cross of vectors of 3 components along `axis` of both operands.
Array cross(const Array& a, const Array& b, std::int64_t axis = -1);

// ---- dense solvers, as numpy.linalg's: every function takes a stack of matrices in the last two
// axes (the others a batch), float32, float64, complex64 or complex128; integers and bool compute in
// float64, and two operands in their common type (float32 with float64: float64). float16 and
// bfloat16 are refused with DTypeError ("array type float16 is unsupported in linalg"), as NumPy's
// TypeError. They run behind the backend's solver library (cuSOLVER on CUDA, LAPACK on the
// simulator) on the current stream, and wait for it where a result decides an error: LinAlgError
// in NumPy's words for a singular matrix ("Singular matrix"), one not positive definite, and
// arrays that are not stacks of (square) matrices.

// x with a @ x == b: b a stack of vectors (..., n) when it has one axis or, as NumPy 2 decides,
// a stack of matrices (..., n, k) otherwise; the batch axes broadcast.
Array solve(const Array& a, const Array& b);
// The inverses.
Array inv(const Array& a);
// The determinants, sign * exp(logabsdet) of slogdet (as NumPy computes them).
Array det(const Array& a);
struct SlogdetResult {
    Array sign;       // +-1 (a unit complex number for complex matrices), 0 for a singular one
    Array logabsdet;  // log |det|, -inf for a singular matrix (the real dtype)
};
SlogdetResult slogdet(const Array& a);
// The Cholesky factor L (A = L L^H) from the lower triangle, or with `upper` U (A = U^H U) from
// the upper one; LinAlgError "Matrix is not positive definite" otherwise.
Array cholesky(const Array& a, bool upper = false);

enum class QRMode : std::uint8_t { reduced, complete, r, raw };
struct QRResult {
    Array Q;  // raw: h, the reflectors and R as LAPACK leaves them, transposed (..., n, m)
    Array R;  // raw: tau; mode r: R (Q is then empty)
};
// Householder QR: Q (..., m, k) and R (..., k, n), k = min(m, n) (reduced), or Q (..., m, m) and R
// (..., m, n) (complete); mode r gives R only, raw LAPACK's (h, tau).
QRResult qr(const Array& a, QRMode mode = QRMode::reduced);

struct SVDResult {
    Array U;
    Array S;   // singular values, descending, the real dtype
    Array Vh;  // V^H
};
// a = U diag(S) Vh; U (..., m, m) and Vh (..., n, n) with full_matrices, else (..., m, k) and
// (..., k, n). With `hermitian` (a is taken as Hermitian) from eigh, as NumPy's.
SVDResult svd(const Array& a, bool full_matrices = true, bool hermitian = false);
// The singular values only (numpy.linalg.svd(compute_uv=False), svdvals).
Array svdvals(const Array& a, bool hermitian = false);

enum class Uplo : std::uint8_t { lower, upper };  // the triangle of a Hermitian matrix read ('L', 'U')
struct EighResult {
    Array eigenvalues;   // ascending, the real dtype
    Array eigenvectors;  // one per column
};
EighResult eigh(const Array& a, Uplo uplo = Uplo::lower);
Array eigvalsh(const Array& a, Uplo uplo = Uplo::lower);

struct LstsqResult {
    Array x;
    Array residuals;  // squared 2-norms of b - a x per column; empty unless rank == n < m
    std::int64_t rank = 0;
    Array s;  // a's singular values
};
// The least-squares solution of a x = b for one matrix a (m, n) and b (m,) or (m, k), from the SVD:
// singular values below rcond * max(s) count as zero (default: machine epsilon * max(m, n)).
LstsqResult lstsq(const Array& a, const Array& b, std::optional<double> rcond = std::nullopt);
// The pseudo-inverses: singular values at most rcond * max(s) (rcond broadcast over the batch;
// default 1e-15, NumPy's) are dropped.
Array pinv(const Array& a, const std::optional<Array>& rcond = std::nullopt, bool hermitian = false);
// The number of singular values above tol (an absolute bound), or above rtol * max(s) (default:
// machine epsilon * max(m, n)); for fewer than 2 dimensions, 1 unless every element is 0.
Array matrix_rank(const Array& a, const std::optional<Array>& tol = std::nullopt, bool hermitian = false,
                  const std::optional<Array>& rtol = std::nullopt);
// a to the integer power n by repeated squaring (matmul, any dtype matmul takes); n = 0 gives
// identities of a's dtype, n < 0 powers of inv(a).
Array matrix_power(const Array& a, std::int64_t n);

struct EigResult {
    Array eigenvalues;   // of the real dtype where every one is real (real input), else complex
    Array eigenvectors;  // one per column, each of unit 2-norm (LAPACK geev's), dtype as eigenvalues
};
// The eigenvalues and right eigenvectors of general (non-symmetric) square matrices, as
// numpy.linalg.eig, from the solver library's geev. A real matrix's result is real when every
// eigenvalue of the whole stack is (NumPy's rule; deciding it waits for the device), else complex;
// LinAlgError "Eigenvalues did not converge" where geev does not.
EigResult eig(const Array& a);
// The eigenvalues only (numpy.linalg.eigvals), in eig's dtype.
Array eigvals(const Array& a);

// numpy.linalg.cond: the condition numbers in the order `p` (none, 2, -2: the ratio of the extreme
// singular values, of any matrices; 'fro', 'nuc', 1, -1, inf, -inf: norm(a) * norm(inv(a)) of
// square ones, the inverse computed in float64 or complex128 as NumPy's). A singular matrix gives
// inf (a nan that a's own nans did not cause becomes inf); the real dtype of the solver dtype.
// LinAlgError "cond is not defined on empty arrays" for 0 x n matrices, and NumPy's others.
Array cond(const Array& a, const std::optional<NormOrder>& p = std::nullopt);
// numpy.linalg.multi_dot: the product of two or more arrays, parenthesised to cost the fewest scalar
// multiplications (NumPy's chain order, so results round alike); the first array may be 1-D (a
// row), the last 1-D (a column), their axes dropped from the result. InvalidArgumentError for fewer
// than two arrays, LinAlgError for others than 2-D ones. `out` as dot's, for the last product.
Array multi_dot(std::span<const Array> arrays, const std::optional<Array>& out = std::nullopt);
// numpy.linalg.tensorinv: the inverse of `a` taken as a matrix of its first `ind` axes' elements by
// its others', shaped a.shape[ind:] + a.shape[:ind]. InvalidArgumentError for ind <= 0.
Array tensorinv(const Array& a, std::int64_t ind = 2);
// numpy.linalg.tensorsolve: x with tensordot(a, x, x.ndim) == b, x of a's trailing shape (after
// moving `axes` of a to its end, in order). LinAlgError unless the two parts of a hold as many
// elements; AxisError for an axis a does not have.
Array tensorsolve(const Array& a, const Array& b, const std::optional<std::vector<std::int64_t>>& axes = std::nullopt);

}  // namespace linalg
}  // namespace gpukit
