// src/ops/sort/radix.hpp: the building blocks of sorting and searching (kernels/gpukit_sort.cuh):
// elements as order-preserving keys and back, the stable radix sort of keys carrying indices
// (rows of an axis as the most significant part of a composite key), and moving elements by
// positions. Every array here is contiguous and 1-D; the callers (sort.cpp, sets.cpp) arrange that.
#pragma once

#include <cstdint>
#include <optional>

#include "gpukit/array.hpp"

namespace gpukit::detail {

// An array's elements as keys: unsigned words (uint32 or uint64) in NumPy's order; complex128
// has a high and a low word per element (order by high, then low).
struct SortKeys {
    Array high;
    std::optional<Array> low;
    int bits = 0;  // the significant bits of a word (the radix passes sort these)
};

// The keys of `elements` (contiguous). `canonical_zero`: -0.0 gets 0.0's key (argsort, searches:
// equal values have equal keys); otherwise -0.0 sorts just before 0.0 and keeps its sign.
// `wide`: 64-bit words always (searches and flags read uint64).
SortKeys encode_keys(const Array& elements, bool canonical_zero, bool wide);

// The elements of keys (in their order) into `out`, contiguous, of the dtype they were made from.
void decode_keys(const SortKeys& keys, const Array& out);

// Keys at or above this one are NaN (for the dtype's wide keys); nullopt: the dtype has no NaN.
std::optional<std::uint64_t> nan_key(DType dtype);

// Stable sort of `keys` (uint32 or uint64, `bits` significant), carrying `values` (uint32 or
// uint64, each an index into `rows` rows of `row_length` elements) along. With rows > 1, rows order
// before keys: (values / row_length, key) is the composite key. The arrays given are reused as
// scratch; the results come back.
struct SortedPairs {
    Array keys;
    std::optional<Array> values;
};
SortedPairs radix_sort(Array keys, int bits, std::optional<Array> values, std::int64_t row_length = 1,
                       std::int64_t rows = 1);

// Sorts the elements (contiguous; not complex128, whose keys are two words) stably, rows first when rows > 1, writing
// the sorted elements to `sorted_out` and/or the int64 indices that sort each row to `indices_out` (contiguous, of the
// elements' size): the radix passes' first one reads the elements, making their keys on the way, and the last one
// writes the results (on a GPU; the simulator's chunked passes take keys made before and leave results to write after).
void sort_elements(const Array& elements, bool canonical_zero, std::int64_t row_length, std::int64_t rows,
                   const Array* sorted_out, const Array* indices_out);

// 0, 1, ..., n - 1 as uint32 (when n fits) or uint64: the indices argsort carries.
Array iota(std::int64_t n, const Device& device);

// out[i] = elements[positions[i]] (elements contiguous, of any dtype; positions uint32, uint64 or int64).
Array gather(const Array& elements, const Array& positions);

// positions % row_length as int64 (argsort's indices within their row).
Array indices_within_rows(const Array& positions, std::int64_t row_length);

// The stable order of keys: the permutation (uint32 or uint64) that sorts them, rows first when
// rows > 1 (complex128's two words: low first, then high). The keys' arrays are used as scratch.
Array argsort_keys(SortKeys keys, std::int64_t row_length, std::int64_t rows);

}  // namespace gpukit::detail
