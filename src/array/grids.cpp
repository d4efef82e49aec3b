// src/array/grids.cpp: meshgrid and indices (gpukit/shape_ops.hpp). meshgrid reshapes the
// coordinate vectors and broadcasts them (copied unless asked not to); indices writes each plane
// with one generated kernel that reads the element's index.
#include <numeric>
#include <vector>

#include "array/device_copy.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/shape_ops.hpp"

namespace gpukit {

std::vector<Array> meshgrid(std::span<const Array> coordinates, const MeshgridOptions& options) {
    const std::size_t ndim = coordinates.size();
    std::vector<Array> grids;
    for (std::size_t k = 0; k < ndim; ++k) {
        // Each vector along its own dimension; 'xy' indexing swaps the first two.
        std::size_t along = k;
        if (!options.matrix_indexing && ndim > 1 && k < 2) along = 1 - k;
        std::vector<std::int64_t> shape(ndim, 1);
        shape[along] = -1;
        grids.push_back(coordinates[k].reshape(shape));
    }
    if (!options.sparse) grids = broadcast_arrays(grids);
    if (options.copy)
        for (Array& grid : grids) grid = grid.copy();
    return grids;
}

Array indices(std::span<const std::int64_t> dimensions, DType dtype, Device device) {
    Shape shape{static_cast<std::int64_t>(dimensions.size())};
    shape.insert(shape.end(), dimensions.begin(), dimensions.end());
    Array result = empty(shape, dtype, Order::C, device);
    if (result.size() == 0) return result;
    // Plane k: the coordinate along dimension k of a C-ordered grid, (i / inner) % extent.
    std::int64_t inner = 1;
    for (std::size_t k = dimensions.size(); k-- > 0;) {
        const Array plane = result.index({static_cast<std::int64_t>(k)});
        const detail::ElementwiseOperand inputs[] = {Scalar::of(inner), Scalar::of(dimensions[k])};
        const Array* outputs[] = {&plane};
        const DType loop[] = {DType::int64, DType::int64, DType::int64};
        detail::run_builtin(detail::BuiltinOp::coordinate, inputs, outputs, loop);
        inner *= dimensions[k];
    }
    return result;
}

std::vector<Array> sparse_indices(std::span<const std::int64_t> dimensions, DType dtype, Device device) {
    std::vector<Array> result;
    for (std::size_t k = 0; k < dimensions.size(); ++k) {
        std::vector<std::int64_t> shape(dimensions.size(), 1);
        shape[k] = dimensions[k];
        result.push_back(arange(Scalar(dimensions[k]), dtype, device).reshape(shape));
    }
    return result;
}

}  // namespace gpukit
