// src/array/copyto.cpp: copyto (gpukit/shape_ops.hpp): NumPy's casting check, then the device copy,
// or, with where=, a generated kernel that keeps the destination's element where the mask is false.
#include "array/device_copy.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

void copyto(const Array& dst, const Array& src, Casting casting, const std::optional<Array>& where) {
    if (!can_cast(src.dtype(), dst.dtype(), casting))
        throw DTypeError(concat("Cannot cast array data from dtype('", to_string(src.dtype()), "') to dtype('",
                                to_string(dst.dtype()), "') according to the rule '", to_string(casting), "'"));
    if (!where) return detail::copy_elements(src, dst);
    if (where->dtype() != DType::bool_)
        throw DTypeError(concat("Cannot cast array data from dtype('", to_string(where->dtype()),
                                "') to dtype('bool') according to the rule 'safe'"));
    const auto refuse_shape = [&](const Array& operand, const char* what) {
        const Shape& from = operand.shape();
        bool fits = from.size() <= dst.ndim();
        for (std::size_t d = 0; fits && d < from.size(); ++d)
            fits = from[d] == 1 || from[d] == dst.shape()[dst.ndim() - from.size() + d];
        if (!fits)
            throw InvalidArgumentError(concat("could not broadcast ", what, " from shape ", format_shape(from),
                                              " into shape ", format_shape(dst.shape())));
    };
    refuse_shape(src, "input array");
    refuse_shape(*where, "where mask");
    if (dst.size() == 0) return;
    // Read before written, as NumPy's: a source or mask in the destination's memory is copied out first.
    // float16 and bfloat16 destinations take the source converted first: the kernel's float compute type
    // would round a float64 twice.
    const bool half = dst.dtype() == DType::float16 || dst.dtype() == DType::bfloat16;
    const Array source = detail::may_share_memory(src, dst) || (half && src.dtype() != dst.dtype())
                             ? src.astype(dst.dtype(), Order::C)
                             : src;
    const Array mask = detail::may_share_memory(*where, dst) ? where->copy() : *where;
    const detail::ElementwiseOperand inputs[] = {source, mask, dst};
    const Array* outputs[] = {&dst};
    const DType loop[] = {dst.dtype(), DType::bool_, dst.dtype(), dst.dtype()};
    detail::run_builtin(detail::BuiltinOp::masked_copy, inputs, outputs, loop);
}

}  // namespace gpukit
