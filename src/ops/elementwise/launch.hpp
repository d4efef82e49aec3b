// src/ops/elementwise/launch.hpp: runs one elementwise loop over arrays and scalars.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpukit/array.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/scalar.hpp"
#include "ops/elementwise/generator.hpp"

namespace gpukit::detail {

// Operation ids (OpKey::op) of the engine's own loops. Ufuncs take ufunc_op_base + their UfuncId;
// other built-in operations take ids below it, one per expression.
inline constexpr std::uint16_t copy_op = 0;  // "out0 = in0": copies and casts
inline constexpr std::uint16_t ufunc_op_base = 0x100;
inline constexpr std::uint16_t function_op_base = 0x4100;  // where, nan_to_num, around, angle

// One loop of an operation: its id (OpKey::op: equal ids must mean equal expressions), the
// expression over in0.. and out0.., and the dtype each operand is computed in.
struct ElementwiseLoop {
    std::uint16_t op;
    std::string_view expression;
    std::span<const DType> loop_dtypes;  // inputs then outputs
    // Every loop of the operation (this one is family[family_index]): the simulator compiles them
    // as one module, so an operation costs one compile for all its dtypes and layouts. Empty: the
    // loop alone (its id and dtypes then name its module).
    std::span<const GenericLoop> family = {};
    std::size_t family_index = 0;
};

// An input: an array (referred to: it must outlive the operand), or a scalar every element sees
// (held by value; it travels in the kernel's parameters).
class ElementwiseOperand {
public:
    ElementwiseOperand(const Array& array) noexcept : array_(&array) {}     // NOLINT(google-explicit-constructor)
    ElementwiseOperand(const Scalar& scalar) noexcept : scalar_(scalar) {}  // NOLINT(google-explicit-constructor)
    const Array* array() const noexcept { return array_; }
    const Scalar* scalar() const noexcept { return scalar_ ? &*scalar_ : nullptr; }

private:
    const Array* array_ = nullptr;
    std::optional<Scalar> scalar_;
};

// Runs `loop` over `inputs` broadcast to the outputs' shape (all outputs have one shape), on the
// current stream of their device, without waiting. Inputs are converted to their loop dtype on
// load (a scalar once, on the host: OverflowError when a weak integer does not fit) and results to
// each output's dtype on store; with `where` (bool, broadcast to the shape), only where it is true.
// An input that overlaps an output other than element for element is read from a copy first, as
// NumPy reads it. Throws InvalidArgumentError when an input does not broadcast (naming both
// shapes) or the arrays are on different devices.
// The engine's grid for `work` independent items on `stream`: 256-thread blocks covering them on a
// GPU; on the simulator a few 32-thread blocks per worker, each thread a contiguous chunk.
LaunchConfig elementwise_launch_config(bool simulated, std::int64_t work, const StreamRef& stream);

void launch_elementwise(const ElementwiseLoop& loop, std::span<const ElementwiseOperand> inputs,
                        std::span<const Array* const> outputs, const Array* where = nullptr);
void launch_elementwise(const ElementwiseLoop& loop, std::span<const Array* const> inputs,
                        std::span<const Array* const> outputs);

// Tests: run the GPU's kernel shapes (one kernel per layout: vectors, rows, tiles) on the simulator
// too, so that CI checks the code a GPU runs.
void set_specialized_elementwise_on_simulator(bool on);
// Whether they asked (user ElementwiseKernels follow the same switch).
bool specialized_elementwise_on_simulator();

}  // namespace gpukit::detail
