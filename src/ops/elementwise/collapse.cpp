// src/ops/elementwise/collapse.cpp: broadcasting and merging dimensions for elementwise kernels.
#include "ops/elementwise/collapse.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "gpukit/error.hpp"

namespace gpukit::detail {
namespace {

[[noreturn]] void throw_not_broadcastable(std::span<const Shape> shapes) {
    std::string message = "operands could not be broadcast together with shapes";
    for (const Shape& shape : shapes) message += " " + format_shape(shape);
    throw InvalidArgumentError(message);
}

}  // namespace

Shape broadcast_shapes(std::span<const Shape> shapes) {
    std::size_t ndim = 0;
    for (const Shape& shape : shapes) ndim = std::max(ndim, shape.size());
    Shape result(ndim, 1);
    for (const Shape& shape : shapes) {
        const std::size_t lead = ndim - shape.size();
        for (std::size_t d = 0; d < shape.size(); ++d) {
            std::int64_t& out = result[lead + d];
            if (shape[d] == out || shape[d] == 1) continue;
            if (out != 1) throw_not_broadcastable(shapes);
            out = shape[d];
        }
    }
    return result;
}

Strides broadcast_strides(std::span<const std::int64_t> operand_shape, std::span<const std::int64_t> operand_strides,
                          std::span<const std::int64_t> shape) {
    if (operand_shape.size() > shape.size()) {
        const Shape both[] = {Shape(operand_shape.begin(), operand_shape.end()), Shape(shape.begin(), shape.end())};
        throw_not_broadcastable(both);
    }
    const std::size_t lead = shape.size() - operand_shape.size();
    Strides strides(shape.size(), 0);
    for (std::size_t d = 0; d < operand_shape.size(); ++d) {
        if (operand_shape[d] == shape[lead + d]) {
            strides[lead + d] = shape[lead + d] == 1 ? 0 : operand_strides[d];
        } else if (operand_shape[d] != 1) {
            const Shape both[] = {Shape(operand_shape.begin(), operand_shape.end()), Shape(shape.begin(), shape.end())};
            throw_not_broadcastable(both);
        }
    }
    return strides;
}

CollapsedLayout collapse(std::span<const std::int64_t> shape, std::span<const Strides> strides) {
    CollapsedLayout layout;
    layout.size = element_count(shape);
    layout.strides.resize(strides.size());
    if (layout.size == 0) return layout;  // nothing to walk: no kernel runs
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1) continue;  // contributes nothing to any address
        bool merges = !layout.shape.empty();
        for (std::size_t k = 0; merges && k < strides.size(); ++k)
            merges = layout.strides[k].back() == strides[k][d] * shape[d];
        if (merges) {
            layout.shape.back() *= shape[d];
            for (std::size_t k = 0; k < strides.size(); ++k) layout.strides[k].back() = strides[k][d];
        } else {
            layout.shape.push_back(shape[d]);
            for (std::size_t k = 0; k < strides.size(); ++k) layout.strides[k].push_back(strides[k][d]);
        }
    }
    return layout;
}

AccessClass classify(const CollapsedLayout& layout, std::size_t operand, std::uint64_t address, std::int64_t itemsize) {
    const Strides& strides = layout.strides[operand];
    if (std::all_of(strides.begin(), strides.end(), [](std::int64_t s) { return s == 0; })) return AccessClass::scalar;
    // C-contiguous: each stride the product of the extents inside it (compared in place: no allocation).
    std::int64_t expected = itemsize;
    for (std::size_t d = strides.size(); d-- > 0;) {
        if (strides[d] != expected) return AccessClass::strided;
        expected *= layout.shape[d];
    }
    return address % 16 == 0 ? AccessClass::contiguous_aligned16 : AccessClass::contiguous;
}

AccessClass classify_rows(const CollapsedLayout& layout, std::size_t operand, std::uint64_t address,
                          std::int64_t itemsize) {
    const Strides& strides = layout.strides[operand];
    if (strides.empty()) return AccessClass::strided;
    const std::int64_t inner = strides.back();
    if (strides.size() == 2 && strides[0] == itemsize && inner != itemsize && inner != 0)
        return AccessClass::transposed;
    if (inner == 0) return AccessClass::rows_broadcast;
    const bool outer_aligned =
        std::all_of(strides.begin(), strides.end() - 1, [](std::int64_t s) { return s % 16 == 0; });
    if (inner == itemsize && address % 16 == 0 && outer_aligned) return AccessClass::rows_aligned16;
    return AccessClass::strided;
}

bool fits_index32(const CollapsedLayout& layout, std::span<const std::int64_t> itemsizes) {
    constexpr std::int64_t limit = std::numeric_limits<std::int32_t>::max();
    if (layout.size > limit) return false;
    for (std::size_t k = 0; k < layout.strides.size(); ++k) {
        // The farthest byte an operand's offsets reach, in either direction.
        std::int64_t reach = itemsizes[k];
        for (std::size_t d = 0; d < layout.shape.size(); ++d) {
            const std::int64_t stride = layout.strides[k][d];
            reach += (layout.shape[d] - 1) * (stride < 0 ? -stride : stride);
        }
        if (reach > limit) return false;
    }
    return true;
}

}  // namespace gpukit::detail
