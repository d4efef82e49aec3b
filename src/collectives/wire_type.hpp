// src/collectives/wire_type.hpp: how a gpukit dtype travels through a collective: as which of
// NCCL's element types, and how many of them per array element.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "backends/collective_library.hpp"
#include "gpukit/dtype.hpp"

namespace gpukit::detail {

struct WireType {
    CollectiveType type;
    std::size_t per_element;  // wire elements per array element (2 for complex, itemsize for bytes)
};

// For a reduction with `op` of `dtype` elements: NCCL's own types as they are; bool as uint8 for
// max (any), min (all) and prod (all); complex as pairs of floats for sum and avg. Throws
// InvalidArgumentError naming what works instead for anything else (`operation`: "all_reduce").
WireType reduction_wire_type(DType dtype, ReduceOp op, std::string_view operation);
// For broadcast and all_gather, which only move bytes: any dtype, as bytes.
WireType movement_wire_type(DType dtype);

}  // namespace gpukit::detail
