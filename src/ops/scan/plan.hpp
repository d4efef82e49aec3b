// src/ops/scan/plan.hpp: what a scan walks. The input seen as lines (the scanned axis) at the
// coordinates of the other axes, those merged where the input and the result walk them alike, and
// classed by how a kernel reads them (kernels/gpukit_scan.cuh):
//   tiles    few long lines: each cut into tiles scanned by a block each, linked by look-back;
//   lines    many short lines: a warp each (a thread on the simulator);
//   columns  neighbouring lines neighbours in memory (x.cumsum(axis=0) of a C array): a thread per
//            line walking down it, coalesced across lines.
#pragma once

#include <cstdint>
#include <span>

#include "gpukit/layout.hpp"

namespace gpukit::detail {

enum class ScanClass : std::uint8_t { tiles, lines, columns };

struct ScanLayout {
    Shape outer;                                   // the lines' merged extents, outer first
    Strides outer_input, outer_output;             // byte strides of the input and the result along them
    std::int64_t lines = 1;                        // scans
    std::int64_t length = 0;                       // elements in each
    std::int64_t input_step = 0, output_step = 0;  // byte strides along a line
    bool adjacent_lines = false;                   // the innermost line coordinate is one element apart in the input
};

// The layout of scanning an input of `shape` and byte `strides` along `axis` (normalised) into a
// result whose byte strides are `output_strides`, elements of `itemsize` bytes in the input.
ScanLayout plan_scan(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::size_t axis,
                     std::span<const std::int64_t> output_strides, std::int64_t itemsize);

}  // namespace gpukit::detail
