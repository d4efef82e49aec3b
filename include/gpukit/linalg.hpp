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

// numpy.linalg.norm: vector norms (any order), and the Frobenius, 1, -1, inf and -inf matrix norms.
// Integers compute in float64; complex numbers give their real dtype. Throws InvalidArgumentError
// for an order the shape has no norm of, and for the matrix norms made of singular values (2, -2,
// "nuc": they come with gpukit's SVD).
Array norm(const Array& x, const NormOptions& options = {});

}  // namespace linalg
}  // namespace gpukit
