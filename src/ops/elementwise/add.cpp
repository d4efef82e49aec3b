// src/ops/elementwise/add.cpp: gpukit::add, the first operation on the elementwise engine.
// (The ufunc table, src/ops/ufuncs.def, will give every operation its loops; add is written by hand
// until then.)
#include <array>

#include "gpukit/elementwise.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/launch.hpp"
#include "util/text.hpp"

namespace gpukit {
namespace {

constexpr std::uint16_t add_op = 1;

}  // namespace

void add(const Array& a, const Array& b, const Array& out, Casting casting) {
    const DType loop = promote_types(a.dtype(), b.dtype());
    if (!can_cast(loop, out.dtype(), casting))
        throw InvalidArgumentError(detail::concat("Cannot cast ufunc 'add' output from dtype('", to_string(loop),
                                                  "') to dtype('", to_string(out.dtype()), "') with casting rule '",
                                                  to_string(casting), "'"));
    const Shape shapes[] = {a.shape(), b.shape()};
    const Shape shape = detail::broadcast_shapes(shapes);
    if (shape != out.shape())
        throw InvalidArgumentError(detail::concat("add: the result has shape ", format_shape(shape),
                                                  ", which does not match the output's shape ",
                                                  format_shape(out.shape())));
    const std::array<DType, 3> loop_dtypes{loop, loop, loop};
    const Array* inputs[] = {&a, &b};
    const Array* outputs[] = {&out};
    detail::launch_elementwise({add_op, "out0 = in0 + in1", loop_dtypes}, inputs, outputs);
}

Array add(const Array& a, const Array& b) {
    const Shape shapes[] = {a.shape(), b.shape()};
    Array out = Array::empty(detail::broadcast_shapes(shapes), promote_types(a.dtype(), b.dtype()), a.device());
    add(a, b, out);
    return out;
}

}  // namespace gpukit
