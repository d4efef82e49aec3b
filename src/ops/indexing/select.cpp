// src/ops/indexing/select.cpp: launching kernels/gpukit_select.cu: count, scan, read the total,
// write the positions.
//
// Launch shape: the count and write passes split the elements into the same chunks, one per block.
// On a GPU, 256 threads take tiles of 256 x 8 elements (each thread 8 consecutive ones) and there are
// at most 1024 blocks, so the scan of the block counts is one block's work; on the simulator, a few
// blocks of 32 threads per worker, each thread one contiguous run (0.3 ns per element against 10+
// for interleaved order, as the elementwise engine measured).
#include "ops/indexing/select.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "array/same_device.hpp"
#include "gpukit/current_stream.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/indexing/kernels.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

constexpr std::size_t max_dims = 8;              // GK_MAX_DIMS
constexpr std::size_t max_coordinate_dims = 32;  // GK_MAX_COORDINATE_DIMS
constexpr std::int64_t int32_limit = std::numeric_limits<std::int32_t>::max();

// Mirrors gk_select_params in kernels/gpukit_select.cu.
struct SelectParams {
    std::uint64_t source;
    std::uint64_t target;
    std::uint64_t value;
    std::uint64_t counts;
    std::uint64_t out;
    std::int64_t size;
    std::int64_t chunk;
    std::int64_t per_thread;
    std::int64_t blocks;
    std::int64_t shape[max_dims];
    std::int64_t source_strides[max_dims];
    std::int64_t target_strides[max_dims];
    std::uint64_t significant[2];
    std::int64_t position_stride;
    std::int64_t coordinate_stride;
    std::int64_t coordinate_shape[max_coordinate_dims];
    std::uint64_t immediate[2];
    std::int32_t ndim;
    std::int32_t source_itemsize;
    std::int32_t target_itemsize;
    std::int32_t out_itemsize;
    std::int32_t coordinate_ndim;
    std::int32_t unused;
};

// The bits of an element that make it nonzero: all of them, but the sign bits of floats (so that
// -0.0 is zero), a complex number's two floats each so.
void significant_bits(DType dtype, std::uint64_t bits[2]) {
    constexpr std::uint64_t all = ~std::uint64_t{0};
    bits[0] = bits[1] = all;
    switch (dtype) {
        case DType::float16:
        case DType::bfloat16: bits[0] = 0x7fff; break;
        case DType::float32: bits[0] = 0x7fffffff; break;
        case DType::float64: bits[0] = 0x7fffffffffffffff; break;
        case DType::complex64: bits[0] = 0x7fffffff7fffffff; break;
        case DType::complex128: bits[0] = bits[1] = 0x7fffffffffffffff; break;
        default: break;
    }
}

std::int64_t reach(const CollapsedLayout& layout, std::size_t operand) {
    std::int64_t bytes = 0;
    for (std::size_t d = 0; d < layout.shape.size(); ++d) {
        const std::int64_t stride = layout.strides[operand][d];
        bytes += (layout.shape[d] - 1) * (stride < 0 ? -stride : stride);
    }
    return bytes;
}

// Params for walking `source` (and `target`, of the same shape, when given) in C order.
SelectParams walk(const Array& source, const Array* target, bool& index32) {
    std::vector<Strides> strides{source.strides()};
    if (target) strides.push_back(target->strides());
    const Shape& shape = target ? target->shape() : source.shape();
    const CollapsedLayout layout = collapse(shape, strides);
    if (layout.shape.size() > max_dims)
        throw InvalidArgumentError(concat("gpukit selects over arrays of up to ", max_dims,
                                          " dimensions after merging contiguous ones, not ", layout.shape.size()));
    const StreamRef stream = current_stream(source.device());  // the kernels', named to the arrays they use
    SelectParams params{};
    params.source = launch_address(source, stream);
    params.size = layout.size;
    params.ndim = static_cast<std::int32_t>(layout.shape.size());
    params.source_itemsize = static_cast<std::int32_t>(source.itemsize());
    significant_bits(source.dtype(), params.significant);
    for (std::size_t d = 0; d < layout.shape.size(); ++d) {
        params.shape[d] = layout.shape[d];
        params.source_strides[d] = layout.strides[0][d];
        if (target) params.target_strides[d] = layout.strides[1][d];
    }
    index32 = layout.size <= int32_limit && reach(layout, 0) + 16 <= int32_limit &&
              (!target || reach(layout, 1) + 16 <= int32_limit);
    if (target) {
        params.target = launch_address(*target, stream);
        params.target_itemsize = static_cast<std::int32_t>(target->itemsize());
    }
    return params;
}

// The counted selection: params ready for the write pass, the scanned counts, the total.
struct Counted {
    SelectParams params{};
    std::optional<Array> counts;
    LaunchConfig config;
    bool index32 = false;
    std::int64_t count = 0;
};

Counted count(const Array& source) {
    Counted counted;
    if (source.size() == 0) return counted;
    const Device& device = source.device();
    SelectParams& params = counted.params;
    params = walk(source, nullptr, counted.index32);

    std::int64_t threads = 256, per_thread = 8, blocks = 0;
    if (device.backend_info().capabilities.simulated) {
        const std::int64_t workers = std::max(1, device.properties().multiprocessor_count);
        threads = 32;
        blocks = std::clamp<std::int64_t>(params.size / (threads * 4096), 1, 4 * workers);
        per_thread = (params.size + blocks * threads - 1) / (blocks * threads);
    } else {
        blocks = std::min<std::int64_t>((params.size + threads * per_thread - 1) / (threads * per_thread), 1024);
    }
    const std::int64_t tile = threads * per_thread;
    params.chunk = (params.size + blocks - 1) / blocks;
    params.chunk = (params.chunk + tile - 1) / tile * tile;
    params.blocks = (params.size + params.chunk - 1) / params.chunk;
    params.per_thread = per_thread;

    counted.counts = Array::empty({params.blocks + 1}, DType::int64, device);
    counted.config.stream = current_stream(device);
    params.counts = launch_address(*counted.counts, counted.config.stream);
    counted.config.grid = Dim3(static_cast<std::uint32_t>(params.blocks));
    counted.config.block = Dim3(static_cast<std::uint32_t>(threads));
    indexing_kernel(IndexingKernel::select_count, device, counted.index32)(counted.config, params);

    LaunchConfig scan = counted.config;
    scan.grid = Dim3(1);
    scan.block = Dim3(static_cast<std::uint32_t>(std::min<std::int64_t>((params.blocks + 31) / 32 * 32, 1024)));
    indexing_kernel(IndexingKernel::select_scan, device, counted.index32)(scan, params);

    const Array total = counted.counts->index({params.blocks});
    counted.count = total.to_vector<std::int64_t>()[0];
    return counted;
}

// Writes the positions of the counted selection at out: position p at p * position_stride,
// coordinate d of it at d * coordinate_stride further (`coordinates` of the source's shape, or none:
// flat positions), each an int of out's itemsize.
void write(Counted& counted, const Array& source, const Array& out, std::int64_t position_stride,
           std::int64_t coordinate_stride, bool coordinates) {
    if (counted.count == 0) return;
    SelectParams& params = counted.params;
    params.out = launch_address(out, current_stream(out.device()));
    params.out_itemsize = static_cast<std::int32_t>(out.itemsize());
    params.position_stride = position_stride;
    params.coordinate_stride = coordinate_stride;
    if (coordinates) {
        if (source.ndim() > max_coordinate_dims)
            throw InvalidArgumentError(concat("gpukit finds the nonzero elements of arrays of up to ",
                                              max_coordinate_dims, " dimensions, not ", source.ndim()));
        params.coordinate_ndim = static_cast<std::int32_t>(source.ndim());
        for (std::size_t d = 0; d < source.ndim(); ++d) params.coordinate_shape[d] = source.shape()[d];
    }
    indexing_kernel(IndexingKernel::select_write, source.device(), counted.index32)(counted.config, params);
}

}  // namespace

std::int64_t count_selected(const Array& source) { return count(source).count; }

Array flat_positions(const Array& source, DType dtype) {
    Counted counted = count(source);
    Array out = Array::empty({counted.count}, dtype, source.device());
    write(counted, source, out, out.itemsize(), 0, false);
    return out;
}

Array coordinates(const Array& source, bool by_dimension) {
    Counted counted = count(source);
    const auto ndim = static_cast<std::int64_t>(source.ndim());
    if (by_dimension) {
        Array out = Array::empty({ndim, counted.count}, DType::int64, source.device());
        write(counted, source, out, 8, counted.count * 8, true);
        return out;
    }
    Array out = Array::empty({counted.count, ndim}, DType::int64, source.device());
    write(counted, source, out, ndim * 8, 8, true);
    return out;
}

void fill_selected(const Array& mask, const Array& target, const Array* value, std::span<const std::byte> element) {
    if (target.size() == 0) return;
    for (const Array* read : {&mask, value})
        if (read) require_on_device(*read, target.device(), "an indexing operation");
    bool index32 = false;
    SelectParams params = walk(mask, &target, index32);
    if (value) {
        params.value = launch_address(*value, current_stream(value->device()));
    } else {
        std::memcpy(params.immediate, element.data(), element.size());
    }
    const Device& device = target.device();
    indexing_kernel(IndexingKernel::select_fill, device, index32)(
        elementwise_launch_config(device.backend_info().capabilities.simulated, params.size, current_stream(device)),
        params);
}

}  // namespace gpukit::detail
