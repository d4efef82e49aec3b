// src/ops/indexing/gather.cpp: launching kernels/gpukit_gather.cu for a plan, and raising what its
// mode raise found.
#include "ops/indexing/gather.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "array/convert.hpp"
#include "array/same_device.hpp"
#include "gpukit/current_stream.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/indexing/kernels.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

constexpr std::size_t max_dims = 8;          // GK_MAX_DIMS
constexpr std::size_t max_index_arrays = 8;  // GK_MAX_INDEX_ARRAYS
constexpr int index_zero_code = 8;           // gk_index_zero
constexpr unsigned element_bits = 56;        // the error word: index array << 56 | element
constexpr std::uint64_t no_error = ~std::uint64_t{0};

// Mirrors gk_gather_params in kernels/gpukit_gather.cu.
struct GatherParams {
    std::uint64_t base;
    std::uint64_t data;
    std::uint64_t error;
    std::int64_t size;
    std::int64_t data_period;
    std::int64_t shape[max_dims];
    std::int64_t base_strides[max_dims];
    std::int64_t data_strides[max_dims];
    std::uint64_t index[max_index_arrays];
    std::int64_t index_strides[max_index_arrays][max_dims];
    std::int64_t index_positions[max_index_arrays];
    std::int64_t axis_extent[max_dims];
    std::int64_t axis_stride[max_dims];
    std::int32_t index_axes[max_index_arrays];
    std::int32_t index_dtype[max_index_arrays];
    std::int32_t index_mode[max_index_arrays];
    std::int32_t ndim;
    std::int32_t nindex;
    std::int32_t itemsize;
    std::int32_t write;
    std::uint64_t immediate[2];
};

// gk_index_int8 ... gk_index_uint64.
int index_dtype_code(DType dtype) {
    switch (dtype) {
        case DType::int8: return 0;
        case DType::int16: return 1;
        case DType::int32: return 2;
        case DType::int64: return 3;
        case DType::uint8: return 4;
        case DType::uint16: return 5;
        case DType::uint32: return 6;
        case DType::uint64: return 7;
        default: break;
    }
    throw IndexError(concat("arrays used as indices must be of integer (or boolean) type, not ", to_string(dtype)));
}

std::int64_t reach(std::span<const std::int64_t> extents, std::span<const std::int64_t> strides) {
    std::int64_t bytes = 0;
    for (std::size_t d = 0; d < extents.size(); ++d)
        bytes += (std::max<std::int64_t>(extents[d], 1) - 1) * (strides[d] < 0 ? -strides[d] : strides[d]);
    return bytes;
}

// The index value of operand `k` at result element `element`, as text.
std::string index_value_text(const GatherPlan& plan, const IndexOperand& operand, std::int64_t element) {
    if (!operand.values) return "0";
    std::int64_t offset = 0;
    for (std::size_t d = plan.shape.size(); d-- > 0;) {
        offset += (element % plan.shape[d]) * operand.strides[d];
        element /= plan.shape[d];
    }
    const Array& values = *operand.values;
    const Array one(values.memory(), values.address() + static_cast<std::uint64_t>(offset), {}, {}, values.dtype());
    std::byte bytes[8] = {};
    one.copy_to_host(HostView(bytes, values.dtype(), {}));
    if (values.dtype() == DType::uint64) {
        std::uint64_t value = 0;
        std::memcpy(&value, bytes, sizeof value);
        return std::to_string(value);
    }
    std::int64_t value = 0;
    convert_elements(bytes, 0, values.dtype(), reinterpret_cast<std::byte*>(&value), 0, DType::int64, 1);
    return std::to_string(value);
}

// Reads the error word (waiting for the stream) and throws NumPy's IndexError for what it names.
void raise_recorded_error(const GatherPlan& plan, const Array& error) {
    const std::uint64_t word = error.to_vector<std::uint64_t>()[0];
    if (word == no_error) return;
    const IndexOperand& operand = plan.indices[word >> element_bits];
    const auto element = static_cast<std::int64_t>(word & ((std::uint64_t{1} << element_bits) - 1));
    throw IndexError(concat("index ", index_value_text(plan, operand, element), " is out of bounds for axis ",
                            operand.axis, " with size ", operand.size));
}

// Indexing reads and writes one device's memory: arrays elsewhere are refused, not copied.
void check_device(const Array& array, const Device& device) {
    require_on_device(array, device, "an indexing operation");
}

// The data operand: an array (out, or values) or one immediate element, and put's period.
struct Data {
    const Array* array = nullptr;
    std::span<const std::byte> immediate;
    std::int64_t period = 0;
};

void run(const GatherPlan& plan, IndexingKernel kernel, const Data& data, IndexMode mode) {
    const std::int64_t size = element_count(plan.shape);
    if (size == 0) return;
    if (plan.indices.size() > max_index_arrays)
        throw IndexError(concat("gpukit indexes with at most ", max_index_arrays, " index arrays at once, not ",
                                plan.indices.size()));
    const Device& device = plan.base.device();
    const auto itemsize = plan.base.itemsize();
    if (data.array) check_device(*data.array, device);
    for (const IndexOperand& operand : plan.indices)
        if (operand.values) check_device(*operand.values, device);

    // Every operand's strides in the result's shape, merged where all of them allow.
    std::vector<Strides> strides{plan.base_strides};
    if (data.array && data.period == 0) {
        strides.push_back(broadcast_strides(data.array->shape(), data.array->strides(), plan.shape));
    } else {
        strides.emplace_back(plan.shape.size(), 0);
    }
    for (const IndexOperand& operand : plan.indices) strides.push_back(operand.strides);
    const CollapsedLayout layout = collapse(plan.shape, strides);
    if (layout.shape.size() > max_dims)
        throw InvalidArgumentError(concat("gpukit gathers and scatters over up to ", max_dims,
                                          " dimensions after merging contiguous ones, not ", layout.shape.size()));

    const StreamRef stream = current_stream(device);  // the kernel's, named to every array it uses
    GatherParams params{};
    params.base = launch_address(plan.base, stream);
    params.size = size;
    params.data_period = data.period;
    params.ndim = static_cast<std::int32_t>(layout.shape.size());
    params.nindex = static_cast<std::int32_t>(plan.indices.size());
    params.itemsize = static_cast<std::int32_t>(itemsize);
    params.write = 1;
    for (std::size_t d = 0; d < layout.shape.size(); ++d) {
        params.shape[d] = layout.shape[d];
        params.base_strides[d] = layout.strides[0][d];
        params.data_strides[d] = layout.strides[1][d];
    }
    if (data.array) params.data = launch_address(*data.array, stream);
    if (!data.immediate.empty()) std::memcpy(params.immediate, data.immediate.data(), data.immediate.size());

    // The base's farthest byte, for the index width: its own dimensions and the axes indices select among.
    std::int64_t base_reach = reach(layout.shape, layout.strides[0]) + itemsize;
    std::int64_t other_reach = reach(layout.shape, layout.strides[1]) + itemsize;
    std::size_t axis = 0;
    bool checked = false;
    for (std::size_t k = 0; k < plan.indices.size(); ++k) {
        const IndexOperand& operand = plan.indices[k];
        Shape extents = operand.axis_extents;
        Strides axis_strides = operand.axis_strides;
        const std::int64_t positions = element_count(extents);
        merge_axes(extents, axis_strides);
        if (axis + extents.size() > max_dims)
            throw InvalidArgumentError(concat("gpukit's index arrays select among up to ", max_dims,
                                              " axes of the indexed array in all (after merging contiguous ones)"));
        if (positions == 0 && mode != IndexMode::raise && !operand.trusted)
            throw IndexError("cannot do a non-empty take from an empty axes.");
        params.index_positions[k] = positions;
        params.index_axes[k] = static_cast<std::int32_t>(extents.size());
        for (std::size_t a = 0; a < extents.size(); ++a, ++axis) {
            params.axis_extent[axis] = extents[a];
            params.axis_stride[axis] = axis_strides[a];
        }
        base_reach += reach(extents, axis_strides);
        // Trusted positions are in range: wrap's fast path takes them without a check or a wait.
        params.index_mode[k] = static_cast<std::int32_t>(operand.trusted ? IndexMode::wrap : mode);
        checked = checked || (!operand.trusted && mode == IndexMode::raise);
        for (std::size_t d = 0; d < layout.shape.size(); ++d) params.index_strides[k][d] = layout.strides[2 + k][d];
        if (operand.values) {
            params.index[k] = launch_address(*operand.values, stream);
            params.index_dtype[k] = index_dtype_code(operand.values->dtype());
            other_reach = std::max(other_reach, reach(layout.shape, layout.strides[2 + k]) + 8);
        } else {
            params.index_dtype[k] = index_zero_code;
        }
    }
    constexpr std::int64_t int32_limit = std::numeric_limits<std::int32_t>::max();
    const bool index32 = size <= int32_limit && base_reach <= int32_limit && other_reach <= int32_limit;

    std::optional<Array> error;
    if (checked) {
        error = Array::empty({1}, DType::uint64, device);
        const std::byte ones[8] = {std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xff},
                                   std::byte{0xff}, std::byte{0xff}, std::byte{0xff}, std::byte{0xff}};
        error->fill_bytes(ones);
        params.error = launch_address(*error, stream);
    }
    const Kernel launch = indexing_kernel(kernel, device, index32);
    const LaunchConfig config = elementwise_launch_config(device.backend_info().capabilities.simulated, size, stream);
    if (kernel == IndexingKernel::scatter && checked) {
        // Every index is checked before any element is written: an error leaves the array as it was.
        params.write = 0;
        launch(config, params);
        raise_recorded_error(plan, *error);
        params.write = 1;
        params.error = 0;
        for (std::size_t k = 0; k < plan.indices.size(); ++k)  // all in range now: no word to record in
            if (params.index_mode[k] == static_cast<std::int32_t>(IndexMode::raise))
                params.index_mode[k] = static_cast<std::int32_t>(IndexMode::wrap);
        launch(config, params);
        return;
    }
    launch(config, params);
    if (checked) raise_recorded_error(plan, *error);
}

}  // namespace

void merge_axes(Shape& extents, Strides& strides) {
    if (element_count(extents) == 0) return;  // no positions to unravel
    Shape merged_extents;
    Strides merged_strides;
    for (std::size_t a = 0; a < extents.size(); ++a) {
        if (extents[a] == 1) continue;
        if (!merged_extents.empty() && merged_strides.back() == strides[a] * extents[a]) {
            merged_extents.back() *= extents[a];
            merged_strides.back() = strides[a];
        } else {
            merged_extents.push_back(extents[a]);
            merged_strides.push_back(strides[a]);
        }
    }
    extents = std::move(merged_extents);
    strides = std::move(merged_strides);
}

void gather(const GatherPlan& plan, const Array& out, IndexMode mode) {
    run(plan, IndexingKernel::gather, {&out, {}, 0}, mode);
}

void scatter(const GatherPlan& plan, const Array& values, IndexMode mode, std::int64_t period) {
    run(plan, IndexingKernel::scatter, {&values, {}, period}, mode);
}

void scatter(const GatherPlan& plan, std::span<const std::byte> element, IndexMode mode) {
    run(plan, IndexingKernel::scatter, {nullptr, element, 0}, mode);
}

}  // namespace gpukit::detail
