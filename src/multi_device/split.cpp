// src/multi_device/split.cpp: an array cut into one block per device, each with its halo, and
// the parts' own entries taken back out of results that kept their size.
#include <algorithm>
#include <optional>
#include <vector>

#include "array/along_axis.hpp"
#include "gpukit/layout.hpp"
#include "gpukit/multi_device.hpp"
#include "multi_device/on_each_device.hpp"
#include "util/text.hpp"

namespace gpukit::multi_device {

using gpukit::detail::concat;

Array Part::interior() const {
    return gpukit::detail::along_axis(data, axis, Slice{halo_before, halo_before + length, 1});
}

Array Part::crop(const Array& result) const {
    const std::int64_t extent = data.shape()[axis];
    if (result.ndim() <= axis || result.shape()[axis] != extent)
        throw InvalidArgumentError(
            concat("Cannot crop the result of the part on ", device().describe(), " to its own ", length,
                   " entries along axis ", axis, ": a result must keep the part's extent with its halos (", extent,
                   ") along that axis, as a 'same' ", "stencil does, but it has ",
                   result.ndim() <= axis ? concat(result.ndim(), " dimension", result.ndim() == 1 ? "" : "s")
                                         : concat(result.shape()[axis], " entries")));
    return gpukit::detail::along_axis(result, axis, Slice{halo_before, halo_before + length, 1});
}

std::vector<Device> Split::devices() const {
    std::vector<Device> result;
    result.reserve(parts.size());
    for (const Part& part : parts) result.push_back(part.device());
    return result;
}

std::vector<std::int64_t> block_bounds(std::int64_t extent, std::size_t count) {
    if (count < 1) throw InvalidArgumentError("Cannot cut an array into 0 blocks: give at least one device");
    if (extent < 0) throw InvalidArgumentError(concat("Cannot cut a negative extent (", extent, ") into blocks"));
    const auto n = static_cast<std::int64_t>(count);
    std::vector<std::int64_t> bounds{0};
    for (std::int64_t k = 0; k < n; ++k) bounds.push_back(bounds.back() + extent / n + (k < extent % n ? 1 : 0));
    return bounds;
}

namespace {

// Where a part lies along the axis.
struct Place {
    std::int64_t offset = 0;
    std::int64_t length = 0;
    std::int64_t halo_before = 0;
    std::int64_t halo_after = 0;
    std::int64_t begin() const { return offset - halo_before; }
    std::int64_t end() const { return offset + length + halo_after; }
};

// Where each part lies, before any data moves: the checks and the bounds both splits share.
struct Layout {
    std::size_t axis = 0;
    std::int64_t halo = 0;
    std::vector<Place> places;
};

Layout lay_out(const Shape& shape, std::span<const Device> devices, const SplitOptions& options) {
    if (devices.empty()) throw InvalidArgumentError("Cannot split an array across no devices: give at least one");
    if (shape.empty()) throw InvalidArgumentError("Cannot split a 0-D array across devices: it has no axis to cut");
    Layout layout;
    layout.axis = normalize_axis(options.axis, shape.size());
    layout.halo = options.halo;
    const std::int64_t extent = shape[layout.axis];
    if (options.halo < 0)
        throw InvalidArgumentError(concat("Cannot split with halo=", options.halo, ": a halo is at least 0 entries"));
    // A device that would get nothing gets no part; an empty array still has one, for its shape.
    const auto count = static_cast<std::size_t>(
        std::clamp<std::int64_t>(extent, std::int64_t{1}, static_cast<std::int64_t>(devices.size())));
    const std::vector<std::int64_t> bounds = block_bounds(extent, count);
    for (std::size_t i = 0; i < count; ++i)
        layout.places.push_back(Place{.offset = bounds[i],
                                      .length = bounds[i + 1] - bounds[i],
                                      .halo_before = std::min(options.halo, bounds[i]),
                                      .halo_after = std::min(options.halo, extent - bounds[i + 1])});
    // A halo comes from the neighbouring parts alone (Dask's map_overlap has the same rule): a part
    // between two others must be at least as long as the halo. The first and last parts' rows are
    // never passed over, since halos stop at the array's edges.
    for (std::size_t i = 1; i + 1 < count; ++i) {
        const Place& place = layout.places[i];
        if (place.length < options.halo)
            throw InvalidArgumentError(concat(
                "Cannot split ", extent, " entries along axis ", layout.axis, " across ", count,
                " devices with halo=", options.halo,
                ": a part's halo must come from its neighbours alone, but the part of entries [", place.offset, ", ",
                place.offset + place.length, ") has only ", place.length, "; use fewer devices or a smaller halo"));
    }
    return layout;
}

// The split of parts whose data has been placed on their devices.
Split finish(const Layout& layout, std::vector<Array> data, const Shape& shape, DType dtype) {
    Split result{.parts = {}, .axis = layout.axis, .shape = shape, .dtype = dtype, .halo = layout.halo};
    result.parts.reserve(data.size());
    for (std::size_t i = 0; i < data.size(); ++i) {
        const Place& place = layout.places[i];
        result.parts.push_back(Part{.data = std::move(data[i]),
                                    .index = i,
                                    .axis = layout.axis,
                                    .offset = place.offset,
                                    .length = place.length,
                                    .halo_before = place.halo_before,
                                    .halo_after = place.halo_after});
    }
    return result;
}

}  // namespace

Split split(const Array& x, std::span<const Device> devices, const SplitOptions& options) {
    const Layout layout = lay_out(x.shape(), devices, options);
    std::vector<Array> data;
    data.reserve(layout.places.size());
    for (std::size_t i = 0; i < layout.places.size(); ++i) {
        const Place& place = layout.places[i];
        const Array block = gpukit::detail::along_axis(x, layout.axis, Slice{place.begin(), place.end(), 1});
        data.push_back(block.to_device(devices[i]));  // asynchronous: ordered by events
    }
    return finish(layout, std::move(data), x.shape(), x.dtype());
}

Split split(const ConstHostView& x, std::span<const Device> devices, const SplitOptions& options) {
    const Layout layout = lay_out(x.shape, devices, options);
    const std::span<const Device> targets = devices.first(layout.places.size());
    std::vector<std::optional<Array>> copies(layout.places.size());
    try {  // each copy waits for its host memory to be read: the devices' copies run side by side
        detail::on_each_device(
            targets,
            [&](std::size_t i) {
                const Place& place = layout.places[i];
                ConstHostView block = x;
                block.data += place.begin() * x.strides[layout.axis];
                block.shape[layout.axis] = place.end() - place.begin();
                copies[i] = Array::from_host(block, targets[i]);
            },
            "multi_device.split",
            [&](std::size_t i) {
                return concat("entries [", layout.places[i].offset, ", ",
                              layout.places[i].offset + layout.places[i].length, ") along axis ", layout.axis);
            });
    } catch (const PartFailedError& failure) {
        std::rethrow_exception(failure.cause());  // a copy's own error (out of memory) names its device
    }
    std::vector<Array> data;
    data.reserve(copies.size());
    for (std::optional<Array>& copy : copies) data.push_back(std::move(*copy));
    return finish(layout, std::move(data), x.shape, x.dtype);
}

}  // namespace gpukit::multi_device
