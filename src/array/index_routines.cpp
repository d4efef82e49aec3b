// src/array/index_routines.cpp: tril_indices, triu_indices, diag_indices, their *_from forms and ix_
// (gpukit/index_routines.hpp), made of tri, nonzero and arange on the device.
#include "gpukit/index_routines.hpp"

#include "gpukit/advanced_indexing.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/shape_ops.hpp"

namespace gpukit {

namespace {

// The (rows, columns) of the 2-D `a`, for the *_from forms.
std::pair<std::int64_t, std::int64_t> matrix_extents(const Array& a) {
    if (a.ndim() != 2) throw InvalidArgumentError("input array must be 2-d");
    return {a.shape()[0], a.shape()[1]};
}

}  // namespace

std::vector<Array> tril_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m, Device device) {
    return nonzero(tri(n, m, k, DType::bool_, device));
}

std::vector<Array> triu_indices(std::int64_t n, std::int64_t k, std::optional<std::int64_t> m, Device device) {
    // On and above diagonal k: what is not on or below diagonal k - 1.
    const std::int64_t rows = std::max<std::int64_t>(n, 0), columns = std::max<std::int64_t>(m.value_or(n), 0);
    const Array one = full({}, Scalar(true), DType::bool_, Order::C, device);
    const std::int64_t shape[] = {rows, columns};
    return nonzero(triu(broadcast_to(one, shape), k));
}

std::vector<Array> tril_indices_from(const Array& a, std::int64_t k) {
    const auto [rows, columns] = matrix_extents(a);
    return tril_indices(rows, k, columns, a.device());
}

std::vector<Array> triu_indices_from(const Array& a, std::int64_t k) {
    const auto [rows, columns] = matrix_extents(a);
    return triu_indices(rows, k, columns, a.device());
}

std::vector<Array> diag_indices(std::int64_t n, std::int64_t ndim, Device device) {
    const Array positions = arange(Scalar(n), DType::int64, device);
    return std::vector<Array>(static_cast<std::size_t>(std::max<std::int64_t>(ndim, 0)), positions);
}

std::vector<Array> diag_indices_from(const Array& a) {
    if (a.ndim() < 2) throw InvalidArgumentError("input array must be at least 2-d");
    for (const std::int64_t extent : a.shape())
        if (extent != a.shape()[0]) throw InvalidArgumentError("All dimensions of input must be of equal length");
    return diag_indices(a.shape()[0], static_cast<std::int64_t>(a.ndim()), a.device());
}

std::vector<Array> ix_(std::span<const Array> sequences) {
    std::vector<Array> result;
    result.reserve(sequences.size());
    for (std::size_t k = 0; k < sequences.size(); ++k) {
        const Array& sequence = sequences[k];
        if (sequence.ndim() != 1) throw InvalidArgumentError("Cross index must be 1 dimensional");
        const Array positions = sequence.dtype() == DType::bool_ ? nonzero(sequence)[0] : sequence;
        Shape shape(sequences.size(), 1);
        shape[k] = positions.size();
        result.push_back(positions.reshape(shape));
    }
    return result;
}

}  // namespace gpukit
