// src/array/device_copy.hpp: moving elements between arrays on the device: copies, conversions,
// broadcasts and fills, through one generated kernel (the copy of src/ops/builtin_ops.hpp) or a
// memcpy/memset where the bytes allow. Nothing here goes through the host or waits.
#pragma once

#include <span>

#include "gpukit/array.hpp"
#include "gpukit/scalar.hpp"
#include "ops/builtin_ops.hpp"
#include "ops/elementwise/launch.hpp"

namespace gpukit::detail {

// dst[...] = src: src broadcast to dst's shape and converted to dst's dtype as NumPy's astype
// converts, on the current stream of dst's device, without waiting. Memory they share behaves as
// NumPy's: as if src were copied out first. Throws InvalidArgumentError when src does not
// broadcast to dst's shape (NumPy's message) or they are on different devices.
void copy_elements(const Array& src, const Array& dst);

// target's bytes = source's, between two devices of one backend (arrays of one dense layout and
// size): peer to peer where the devices reach each other, else staged through the host by the
// driver; on target's current stream after the source's queued work, without waiting.
void copy_between_devices(const Array& source, const Array& target);

// dst[...] = value, converted to dst's dtype as NumPy converts it (Scalar::as: a weak integer the
// dtype cannot hold is a ScalarOverflowError, anything else converts as astype): a memset where the
// element's bytes are all equal and dst's elements lie without gaps, else the engine's copy loop
// with the value as an immediate scalar.
void fill_elements(const Array& dst, const Scalar& value);

// `value` converted to `dtype` as fill_elements converts it (a weak integer `dtype` cannot hold is a
// ScalarOverflowError), as a typed scalar: the scalar operands of the built-in loops, which travel in
// the kernel's parameters.
Scalar scalar_as(const Scalar& value, DType dtype);

// Runs built-in `op` with the loop dtypes given (inputs, then outputs), as launch_elementwise does.
void run_builtin(BuiltinOp op, std::span<const ElementwiseOperand> inputs, std::span<const Array* const> outputs,
                 std::span<const DType> loop_dtypes);

// Whether the elements of `a` and `b` may share bytes (their byte extents overlap on one device).
bool may_share_memory(const Array& a, const Array& b) noexcept;

}  // namespace gpukit::detail
