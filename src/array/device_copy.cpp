// src/array/device_copy.cpp: copies, conversions and fills on the device (see device_copy.hpp).
//
// Same dtype, same layout, elements without gaps: one memcpy of the bytes they span (any order of
// dimensions, C or F or permuted). Anything else, a strided gather, a broadcast, a conversion: the
// engine's copy loop (detail::copy_op, the one it copies overlapping inputs with), generated per
// (dtypes, layout class), converting on the store exactly as the host converter
// (src/array/convert.cpp) does. Fills and scalars travel as the engine's immediate scalars.
#include "array/device_copy.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "array/same_device.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/memory.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/generator.hpp"
#include "ops/elementwise/launch.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// The elements fill the bytes they span, without gaps or repeats: that range may be copied or
// set whole.
bool is_dense(const Array& array) { return array.extent().size() == array.nbytes(); }

bool broadcasts_to(const Shape& from, const Shape& to) {
    if (from.size() > to.size()) return false;
    const std::size_t lead = to.size() - from.size();
    for (std::size_t d = 0; d < from.size(); ++d)
        if (from[d] != 1 && from[d] != to[lead + d]) return false;
    return true;
}

// Work on the device alone may still run when the call returns: like a launch, it needs the memory
// it touches to outlive it (gpukit/array_memory.hpp), whatever becomes of the arrays.
void copy_extent(const Array& target, const Array& source) {
    const StreamRef stream = current_stream(target.device());
    target.memory()->mark_used_by_launch(stream);
    source.memory()->mark_used_by_launch(stream);
    const ByteExtent extent = target.extent();
    const auto size = static_cast<std::size_t>(extent.size());
    const BufferView to(target.device(), target.address() + extent.low, size);
    const BufferView from(source.device(), source.address() + extent.low, size);
    if (stream.is_default()) return copy(to, from);
    copy_async(to, from, stream);
}

void set_extent(const Array& target, std::uint8_t value) {
    const StreamRef stream = current_stream(target.device());
    target.memory()->mark_used_by_launch(stream);
    const ByteExtent extent = target.extent();
    const BufferView bytes(target.device(), target.address() + extent.low, static_cast<std::size_t>(extent.size()));
    if (stream.is_default()) return gpukit::memset(bytes, value);
    memset_async(bytes, value, stream);
}

// The engine's copy loop (the same kernels as its own copies of overlapping inputs) from the
// source's dtype, converted to the output's on the store.
void launch_copy(const ElementwiseOperand& source, DType source_dtype, const Array& dst) {
    const ElementwiseOperand inputs[] = {source};
    const Array* outputs[] = {&dst};
    const DType loop[] = {source_dtype, source_dtype};
    launch_elementwise({copy_op, expression(BuiltinOp::copy), loop}, inputs, outputs);
}

}  // namespace

bool may_share_memory(const Array& a, const Array& b) noexcept {
    if (a.device() != b.device() || a.size() == 0 || b.size() == 0) return false;
    const ByteExtent ea = a.extent(), eb = b.extent();
    const std::uint64_t a_begin = a.address() + ea.low, a_end = a.address() + ea.high;
    const std::uint64_t b_begin = b.address() + eb.low, b_end = b.address() + eb.high;
    return a_begin < b_end && b_begin < a_end;
}

void run_builtin(BuiltinOp op, std::span<const ElementwiseOperand> inputs, std::span<const Array* const> outputs,
                 std::span<const DType> loop_dtypes) {
    const std::uint16_t id = op == BuiltinOp::copy ? copy_op : static_cast<std::uint16_t>(op);
    launch_elementwise({id, expression(op), loop_dtypes}, inputs, outputs);
}

void copy_elements(const Array& src, const Array& dst) {
    raise_deferred_launch_error();
    require_on_device(src, dst.device(), "an element copy");
    // Checked first, so that a copy with nothing to do still refuses shapes NumPy refuses.
    if (!broadcasts_to(src.shape(), dst.shape()))
        throw InvalidArgumentError(concat("could not broadcast input array from shape ", format_shape(src.shape()),
                                          " into shape ", format_shape(dst.shape())));
    if (dst.size() == 0) return;
    const bool same_elements = src.shape() == dst.shape() && src.strides() == dst.strides();
    if (may_share_memory(src, dst)) {
        if (same_elements && src.address() == dst.address() && src.dtype() == dst.dtype()) return;  // a = a
        return copy_elements(src.copy(), dst);  // NumPy's a[1:] = a[:-1]: read everything first
    }
    if (same_elements && src.dtype() == dst.dtype() && is_dense(dst)) return copy_extent(dst, src);
    launch_copy(src, src.dtype(), dst);  // converted once, by the store
}

void fill_elements(const Array& dst, const Scalar& value) {
    raise_deferred_launch_error();
    if (dst.size() == 0) return;
    // NumPy's conversion: a Python int the dtype cannot hold is an OverflowError, anything else as astype.
    const std::array<std::byte, 16> element = value.as(dst.dtype());
    const auto bytes = std::span(element).first(static_cast<std::size_t>(dst.itemsize()));
    const bool one_byte_value = std::all_of(bytes.begin(), bytes.end(), [&](std::byte b) { return b == bytes[0]; });
    if (one_byte_value && is_dense(dst)) return set_extent(dst, std::to_integer<std::uint8_t>(bytes[0]));
    launch_copy(Scalar::typed(dst.dtype(), element.data()), dst.dtype(), dst);
}

Scalar scalar_as(const Scalar& value, DType dtype) { return Scalar::typed(dtype, value.as(dtype).data()); }

}  // namespace gpukit::detail
