// src/backends/sim/host_reduction.hpp: the simulator's collectives' arithmetic: NCCL's reductions
// of every rank's elements, on the host.
#pragma once

#include <cstddef>
#include <span>

#include "backends/collective_library.hpp"

namespace gpukit::detail::sim {

// For each of `count` elements of `type`: combines the element of every source, in rank order,
// with `op` as NCCL does (integers wrap; avg of integers is the sum divided by the number of
// sources, truncated toward zero; avg of floats sums each element times 1 / sources; 16-bit floats
// are combined in float and rounded to nearest even once), and writes the result to every target.
// A target may be a source: each element is read from every source before it is written.
void reduce_elements(CollectiveType type, ReduceOp op, std::span<const std::byte* const> sources,
                     std::span<std::byte* const> targets, std::size_t count);

}  // namespace gpukit::detail::sim
