// src/ops/elementwise/collapse.hpp: the layout an elementwise kernel walks: operands broadcast to
// one shape, dimensions merged where every operand allows it, and each operand's access class.
//
// A kernel's cost is in its index arithmetic and its memory access, both decided here: an array
// that is contiguous after merging is read at i * itemsize (and in 16-byte groups when aligned), a
// broadcast scalar is read once per element from the same address, and only truly strided operands
// decode i into coordinates. CuPy does the same merging in _reduced_view; PyTorch in
// TensorIterator's coalesce_dimensions.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpukit/layout.hpp"

namespace gpukit::detail {

// NumPy's broadcast of several shapes. Throws InvalidArgumentError naming every shape when they do
// not broadcast ("operands could not be broadcast together with shapes (2, 3) (4,)").
Shape broadcast_shapes(std::span<const Shape> shapes);

// An operand's byte strides in `shape` (which its own shape broadcasts to): 0 along the dimensions
// it is repeated over. Throws InvalidArgumentError naming both shapes when it does not broadcast.
Strides broadcast_strides(std::span<const std::int64_t> operand_shape, std::span<const std::int64_t> operand_strides,
                          std::span<const std::int64_t> shape);

enum class AccessClass : std::uint8_t {
    contiguous_aligned16,  // element i at address + i * itemsize, address a multiple of 16
    contiguous,            // element i at address + i * itemsize
    strided,               // element i at address + the dot product of its coordinates and the strides
    scalar,                // every element at address (broadcast, or one element)
    immediate,             // a scalar operand: its value is in the parameters, not in memory
    // Strided operands that GPU kernels read faster than by decoding every element's coordinates
    // (classify_rows): along the innermost dimension...
    rows_broadcast,  // ...one element repeated (a column broadcast across rows)
    rows_aligned16,  // ...contiguous, each row starting 16-byte aligned (a row broadcast down a matrix)
    transposed,      // of two dimensions, contiguous down the outer one (a.T): a shared-memory tile turns it
};

// Whether an access class decodes coordinates (strided or one of its refinements).
inline bool decodes_coordinates(AccessClass access) {
    return access == AccessClass::strided || access == AccessClass::rows_broadcast ||
           access == AccessClass::rows_aligned16 || access == AccessClass::transposed;
}

struct CollapsedLayout {
    Shape shape;                   // extents of 1 dropped, mergeable neighbours merged; empty for one element
    std::vector<Strides> strides;  // per operand, in bytes, one per dimension of `shape`
    std::int64_t size = 0;         // elements
};

// Merges the dimensions of `shape` that every operand walks as one: d and d+1 merge when
// strides[d] == strides[d+1] * shape[d+1] for each operand. `strides` are already broadcast to `shape`.
CollapsedLayout collapse(std::span<const std::int64_t> shape, std::span<const Strides> strides);

// How an operand of `layout` (operand `operand`) at `address` with elements of `itemsize` is accessed.
AccessClass classify(const CollapsedLayout& layout, std::size_t operand, std::uint64_t address, std::int64_t itemsize);

// The refinement of a strided operand (else `strided`): rows_broadcast, rows_aligned16 or transposed.
AccessClass classify_rows(const CollapsedLayout& layout, std::size_t operand, std::uint64_t address,
                          std::int64_t itemsize);

// Whether every byte offset and element index of the layout fits a 32-bit int, so kernels may
// index with int (cheaper division in the strided decode).
bool fits_index32(const CollapsedLayout& layout, std::span<const std::int64_t> itemsizes);

}  // namespace gpukit::detail
