// src/array/triangles.cpp: tril and triu (gpukit/shape_ops.hpp): one generated kernel that keeps the
// elements on the kept side of diagonal k of each matrix and writes zero elsewhere, as NumPy's
// where(mask, m, 0) (so a NaN outside the triangle becomes 0). diag and diagflat: a diagonal view
// copied out, or written into zeros. tri (gpukit/creation.hpp): the lower triangle of a broadcast one.
#include <algorithm>
#include <array>
#include <cstddef>

#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

namespace {

Array triangle(const Array& a, std::int64_t k, bool lower) {
    if (a.ndim() == 0) throw InvalidArgumentError("tril and triu need an array of at least 1 dimension, not a 0-d one");
    // A 1-D array is the rows of a square matrix (NumPy broadcasts it against the square mask).
    const std::int64_t columns = a.shape().back();
    Shape shape = a.shape();
    if (a.ndim() == 1) shape.insert(shape.begin(), columns);
    const std::int64_t rows = shape[shape.size() - 2];
    Array result = empty(shape, a.dtype(), Order::C, a.device());
    if (result.size() == 0) return result;
    const std::array<std::byte, 16> zero{};
    const detail::ElementwiseOperand inputs[] = {a,
                                                 Scalar::of(columns),
                                                 Scalar::of(rows),
                                                 Scalar::of(k),
                                                 Scalar::of(lower),
                                                 Scalar::typed(a.dtype(), zero.data())};
    const Array* outputs[] = {&result};
    const DType loop[] = {a.dtype(), DType::int64, DType::int64, DType::int64, DType::bool_, a.dtype(), a.dtype()};
    detail::run_builtin(detail::BuiltinOp::triangle, inputs, outputs, loop);
    return result;
}

}  // namespace

Array tril(const Array& a, std::int64_t k) { return triangle(a, k, true); }
Array triu(const Array& a, std::int64_t k) { return triangle(a, k, false); }

Array diag(const Array& v, std::int64_t k) {
    if (v.ndim() == 2) return diagonal(v, k).copy();
    if (v.ndim() != 1)
        throw InvalidArgumentError(detail::concat("diag: input must be 1- or 2-d, not ", v.ndim(), "-d"));
    const std::int64_t n = v.shape()[0] + (k < 0 ? -k : k);
    Array result = zeros({n, n}, v.dtype(), Order::C, v.device());
    Array line = diagonal(result, k);
    if (line.size() > 0) line.assign(v);
    return result;
}

Array diagflat(const Array& v, std::int64_t k) { return diag(v.ravel(), k); }

Array tri(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype, Device device) {
    const std::int64_t rows = std::max<std::int64_t>(n, 0), columns = std::max<std::int64_t>(m.value_or(n), 0);
    // One element broadcast to the matrix: the triangle kernel writes the result in one pass.
    const Array one = full({}, Scalar(std::int64_t{1}), dtype, Order::C, device);
    const std::int64_t shape[] = {rows, columns};
    return tril(broadcast_to(one, shape), k);
}

}  // namespace gpukit
