// include/gpukit/sorting.hpp: sorting, searching and the set routines, as NumPy's (numpy.sort,
// numpy.argsort, numpy.searchsorted, numpy.unique, numpy.isin, ...), on the device. Results stay
// on the device; only the routines whose result size depends on the data (unique and the set
// routines) wait for a count.
//
//   gpukit::sort(a)                 along the last axis; gpukit::sort(a, std::nullopt) flattened
//   gpukit::argsort(a, 0)           stable: equal elements keep their order
//   gpukit::searchsorted(a, v, gpukit::Side::right)
//   gpukit::unique(a, {.return_counts = true}).counts
//
// Order is NumPy's: NaN after every number (complex: R + Rj, R + nanj, nan + Rj, nan + nanj),
// -0.0 equal to 0.0, complex numbers by real then imaginary part. Every sort is our own stable
// LSD radix sort (kernels/gpukit_sort.cuh): argsort equals numpy.argsort(kind='stable'), and so
// does sort whatever `kind` asks for. A sort along an axis sorts the composite key (row, element):
// more radix passes over the row's bits, rather than a sort per row.
//
// Errors: AxisError for an axis out of range; InvalidArgumentError (Python: ValueError) for a bad
// kind, side or kth, for order= on arrays without fields, for a searchsorted of an array that is
// not 1-D or a sorter of another size; IndexError for a sorter's index out of range (NumPy: ValueError).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit {

// The sorted copy of `a` along `axis` (nullopt: flattened first), C-contiguous.
Array sort(const Array& a, std::optional<std::int64_t> axis = -1);
// The int64 indices that sort `a` along `axis` (nullopt: of the flattened array); stable.
Array argsort(const Array& a, std::optional<std::int64_t> axis = -1);
// Largest first (the Array API's descending=True): sort's reverse, and the indices of it that keep
// equal elements in their order (stable).
Array sort_descending(const Array& a, std::optional<std::int64_t> axis = -1);
Array argsort_descending(const Array& a, std::optional<std::int64_t> axis = -1);
// ndarray.sort: sorts `a` along `axis` in place.
void sort_in_place(const Array& a, std::int64_t axis = -1);

// Validates NumPy's kind= / stable= / order= arguments of sort and argsort:
// kind one of quicksort, mergesort, heapsort, stable (or their first letters), not with stable=;
// order= only for structured arrays, which gpukit has none of. (The sort is stable either way.)
void check_sort_arguments(std::optional<std::string_view> kind, std::optional<bool> stable, bool order_given);
// partition's and argpartition's: kind 'introselect', order= as above.
void check_partition_arguments(std::string_view kind, bool order_given);

// The indices that sort by several keys (the last one primary), each of one shape, along `axis`.
Array lexsort(std::span<const Array> keys, std::int64_t axis = -1);

// numpy.partition / argpartition: the element at each kth in its sorted place, smaller ones before
// it, larger after (a full stable sort, which satisfies that). kth: negative from the end.
Array partition(const Array& a, std::span<const std::int64_t> kth, std::optional<std::int64_t> axis = -1);
Array argpartition(const Array& a, std::span<const std::int64_t> kth, std::optional<std::int64_t> axis = -1);

enum class Side : std::uint8_t { left, right };
// "left" or "right"; InvalidArgumentError otherwise, in NumPy's words.
Side parse_side(std::string_view side);

// Where each element of `v` would go in the sorted 1-D `a` (through `sorter`, the indices that sort
// it, when given): int64, of v's shape. left: before equal elements; right: after them.
Array searchsorted(const Array& a, const Array& v, Side side = Side::left,
                   const std::optional<Array>& sorter = std::nullopt);

struct UniqueOptions {
    bool return_index = false;           // the first index of each unique value
    bool return_inverse = false;         // each element's unique value's index, of the input's shape
    bool return_counts = false;          // how often each unique value occurs
    std::optional<std::int64_t> axis{};  // the unique subarrays along it; none: elements of the flattened array
    bool equal_nan = true;               // NaNs count as one value
};
struct UniqueResult {
    Array values;
    std::optional<Array> index, inverse, counts;
};
UniqueResult unique(const Array& ar, const UniqueOptions& options = {});

// Whether each element of `element` is in `test_elements` (bool, of element's shape).
Array isin(const Array& element, const Array& test_elements, bool assume_unique = false, bool invert = false);
// The same, of the flattened `ar1`.
Array in1d(const Array& ar1, const Array& ar2, bool assume_unique = false, bool invert = false);

struct Intersection {
    Array values;
    std::optional<Array> indices1, indices2;  // return_indices: the first occurrences in ar1 and ar2
};
Intersection intersect1d(const Array& ar1, const Array& ar2, bool assume_unique = false, bool return_indices = false);
Array union1d(const Array& ar1, const Array& ar2);
Array setdiff1d(const Array& ar1, const Array& ar2, bool assume_unique = false);
Array setxor1d(const Array& ar1, const Array& ar2, bool assume_unique = false);

}  // namespace gpukit
