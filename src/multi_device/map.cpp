// src/multi_device/map.cpp: a function of one part run on every part at once, and the results
// combined.
#include <optional>
#include <vector>

#include "gpukit/multi_device.hpp"
#include "multi_device/on_each_device.hpp"
#include "util/text.hpp"

namespace gpukit::multi_device {

using gpukit::detail::concat;

std::vector<Array> map_parts(const Split& split, const PartFunction& fn) {
    const std::vector<Device> devices = split.devices();
    std::vector<std::optional<Array>> results(split.parts.size());
    detail::on_each_device(
        devices,
        [&](std::size_t i) {
            const Part& part = split.parts[i];
            Array result = fn(part);
            if (!(result.device() == part.device()))
                throw InvalidArgumentError(concat("the function returned an array on ", result.device().describe(),
                                                  " for the part on ", part.device().describe(),
                                                  ": work on a part stays on its device (its result is moved when the "
                                                  "results are combined)"));
            results[i] = std::move(result);
        },
        "multi_device.map",
        [&](std::size_t i) {
            const Part& part = split.parts[i];
            return concat("entries [", part.offset, ", ", part.offset + part.length, ") along axis ", part.axis);
        });
    std::vector<Array> arrays;
    arrays.reserve(results.size());
    for (std::optional<Array>& result : results) arrays.push_back(std::move(*result));
    return arrays;
}

Array map(const PartFunction& fn, const Array& x, std::span<const Device> devices, const MapOptions& options) {
    const Split parts = split(x, devices, {.axis = options.axis, .halo = options.halo});
    const std::vector<Array> results = map_parts(parts, fn);
    return combine(results, parts, options.combine, options.out_device.value_or(x.device()));
}

}  // namespace gpukit::multi_device
