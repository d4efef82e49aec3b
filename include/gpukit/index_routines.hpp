// gpukit/index_routines.hpp: arrays of indices for indexing other arrays, as NumPy's tril_indices,
// triu_indices, diag_indices (and their *_from forms) and ix_ make them.
//
//   auto [rows, columns] = gpukit::tril_indices(4);   // a[rows, columns]: a's lower triangle
//   auto open_mesh = gpukit::ix_(std::vector{r, c});  // a[open_mesh[0], open_mesh[1]]: the cross product
//
// The indices are int64 (NumPy's intp), made on the device: the triangles' by nonzero of a tri mask
// (which waits for the count, as nonzero does), the diagonals' by arange.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpukit/array.hpp"

namespace gpukit {

// The (row, column) indices of the lower (upper) triangle of an n x m matrix (m = n when not given)
// from diagonal k, row by row.
std::vector<Array> tril_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt,
                                Device device = Device::current());
std::vector<Array> triu_indices(std::int64_t n, std::int64_t k = 0, std::optional<std::int64_t> m = std::nullopt,
                                Device device = Device::current());
// The same for the shape of the 2-D `a`, on its device: InvalidArgumentError for other dimensions.
std::vector<Array> tril_indices_from(const Array& a, std::int64_t k = 0);
std::vector<Array> triu_indices_from(const Array& a, std::int64_t k = 0);

// `ndim` copies of arange(n): the indices of the main diagonal of an array of ndim dimensions of extent n.
std::vector<Array> diag_indices(std::int64_t n, std::int64_t ndim = 2, Device device = Device::current());
// The same for `a`: InvalidArgumentError when it has fewer than 2 dimensions or extents that differ.
std::vector<Array> diag_indices_from(const Array& a);

// NumPy's ix_: each 1-D sequence (a bool one as its nonzero positions) reshaped to extend along its
// own dimension of the result, 1 along the others, so that together they index the cross product.
// InvalidArgumentError for a sequence that is not 1-D.
std::vector<Array> ix_(std::span<const Array> sequences);

}  // namespace gpukit
