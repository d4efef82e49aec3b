// src/array/vander.cpp: vander (gpukit/creation.hpp), NumPy's Vandermonde matrix: each row the powers
// of one element, written as running products of the element along the row (NumPy's
// multiply.accumulate) into the columns in their order.
#include "gpukit/creation.hpp"
#include "gpukit/promotion.hpp"
#include "gpukit/scans.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

Array vander(const Array& x, std::optional<std::int64_t> n, bool increasing) {
    if (x.ndim() != 1) throw InvalidArgumentError("x must be a one-dimensional array or sequence.");
    const std::int64_t rows = x.shape()[0], columns = n.value_or(rows);
    const DType dtype = promote_types(x.dtype(), DType::int64);
    Array result = empty({rows, columns}, dtype, Order::C, x.device());
    if (result.size() == 0) return result;
    // The powers in increasing order: the result itself, or its columns reversed.
    const std::int64_t last_axis[] = {1};
    const Array powers = increasing ? result : flip(result, last_axis);
    powers.index({Slice{}, Index(std::int64_t{0})}).fill(Scalar(std::int64_t{1}));
    if (columns > 1) {
        // x ** 1 ... x ** (columns - 1): the running product of x repeated along each row.
        const std::int64_t repeated_shape[] = {rows, columns - 1};
        const std::int64_t column_axis[] = {1};
        const Array repeated = broadcast_to(expand_dims(x, column_axis), repeated_shape);
        (void)cumprod(repeated, {.axis = 1, .dtype = dtype, .out = powers.index({Slice{}, Slice{1, std::nullopt, 1}})});
    }
    return result;
}

}  // namespace gpukit
