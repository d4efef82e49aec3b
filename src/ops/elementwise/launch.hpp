// src/ops/elementwise/launch.hpp: runs one elementwise loop over arrays.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "gpukit/array.hpp"

namespace gpukit::detail {

// One loop of an operation: its id (OpKey::op: equal ids must mean equal expressions), the
// expression over in0.. and out0.., and the dtype each operand is computed in.
struct ElementwiseLoop {
    std::uint16_t op;
    std::string_view expression;
    std::span<const DType> loop_dtypes;  // inputs then outputs
};

// Runs `loop` over `inputs` broadcast to the outputs' shape (all outputs have one shape), on the
// current stream of their device, without waiting. Inputs are converted to their loop dtype on
// load and results to each output's dtype on store. Throws InvalidArgumentError when an input does
// not broadcast (naming both shapes) or the arrays are on different devices.
void launch_elementwise(const ElementwiseLoop& loop, std::span<const Array* const> inputs,
                        std::span<const Array* const> outputs);

}  // namespace gpukit::detail
