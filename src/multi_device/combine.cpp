// src/multi_device/combine.cpp: results of several devices brought to one and joined or reduced,
// and one operand copied to every device.
#include <array>
#include <string>
#include <vector>

#include "gpukit/elementwise.hpp"
#include "gpukit/multi_device.hpp"
#include "gpukit/shape_ops.hpp"
#include "util/text.hpp"

namespace gpukit::multi_device {

using gpukit::detail::concat;

namespace {

std::vector<Array> on_device(std::span<const Array> arrays, const Device& device) {
    std::vector<Array> moved;
    moved.reserve(arrays.size());
    for (const Array& array : arrays) moved.push_back(array.to_device(device));
    return moved;
}

constexpr std::array<std::string_view, 4> reduce_op_names{"sum", "prod", "max", "min"};
constexpr std::array<std::string_view, 6> combine_names{"concatenate", "stack", "sum", "prod", "max", "min"};

}  // namespace

Array gather(const Split& split, const Device& device) {
    std::vector<Array> interiors;
    interiors.reserve(split.parts.size());
    for (const Part& part : split.parts) interiors.push_back(part.interior());
    return gather(interiors, device, static_cast<std::int64_t>(split.axis));
}

Array gather(std::span<const Array> parts, const Device& device, std::int64_t axis) {
    if (parts.empty()) throw InvalidArgumentError("Cannot gather no arrays: give at least one part");
    const std::vector<Array> here = on_device(parts, device);
    const DeviceScope scope(device);
    return concatenate(here, axis);
}

ReduceOp reduce_op_from_name(std::string_view name) {
    for (std::size_t i = 0; i < reduce_op_names.size(); ++i)
        if (name == reduce_op_names[i]) return static_cast<ReduceOp>(i);
    throw InvalidArgumentError(
        concat("Unknown reduction '", name, "': partial results combine by 'sum', 'prod', 'max' or 'min'"));
}

std::string_view reduce_op_name(ReduceOp op) noexcept { return reduce_op_names[static_cast<std::size_t>(op)]; }

Array reduce(std::span<const Array> partials, ReduceOp op, const Device& device) {
    if (partials.empty())
        throw InvalidArgumentError(concat("Cannot reduce ('", reduce_op_name(op), "') no partial results"));
    const std::vector<Array> here = on_device(partials, device);
    const DeviceScope scope(device);
    Array result = here.front();
    for (std::size_t i = 1; i < here.size(); ++i) {
        switch (op) {
            case ReduceOp::sum: result = add(result, here[i]); break;
            case ReduceOp::prod: result = multiply(result, here[i]); break;
            case ReduceOp::max: result = maximum(result, here[i]); break;
            case ReduceOp::min: result = minimum(result, here[i]); break;
        }
    }
    // One partial is returned as a new array all the same: the caller may write to either.
    return here.size() == 1 && here.front().memory() == partials.front().memory() ? result.copy() : result;
}

std::vector<Array> broadcast(const Array& x, std::span<const Device> devices) {
    std::vector<Array> copies;
    copies.reserve(devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i) {
        std::size_t earlier = 0;  // a device named twice gets the first copy again
        while (earlier < i && !(devices[earlier] == devices[i])) ++earlier;
        copies.push_back(earlier < i ? copies[earlier] : x.to_device(devices[i]));
    }
    return copies;
}

Combine combine_from_name(std::string_view name) {
    for (std::size_t i = 0; i < combine_names.size(); ++i)
        if (name == combine_names[i]) return static_cast<Combine>(i);
    throw InvalidArgumentError(concat("Unknown combine '", name,
                                      "': results combine by 'concatenate', 'stack', 'sum', 'prod', 'max' or 'min'"));
}

Array combine(std::span<const Array> results, const Split& split, Combine how, const Device& device) {
    if (results.size() != split.parts.size())
        throw InvalidArgumentError(concat("Cannot combine ", results.size(), " results of a split into ",
                                          split.parts.size(), " parts: one result per part"));
    switch (how) {
        case Combine::concatenate: {
            std::vector<Array> own;
            own.reserve(results.size());
            for (std::size_t i = 0; i < results.size(); ++i) {
                const Part& part = split.parts[i];
                own.push_back(part.halo_before + part.halo_after > 0 ? part.crop(results[i]) : results[i]);
                if (own.back().ndim() <= split.axis)
                    throw InvalidArgumentError(
                        concat("Cannot concatenate the results along axis ", split.axis, ": the result of the part on ",
                               part.device().describe(), " has ", own.back().ndim(),
                               " dimensions (reduce such results with combine='sum', 'max', ..., or stack them)"));
            }
            return gather(own, device, static_cast<std::int64_t>(split.axis));
        }
        case Combine::stack: {
            const std::vector<Array> here = on_device(results, device);
            const DeviceScope scope(device);
            return stack(here, 0);
        }
        case Combine::sum: return reduce(results, ReduceOp::sum, device);
        case Combine::prod: return reduce(results, ReduceOp::prod, device);
        case Combine::max: return reduce(results, ReduceOp::max, device);
        case Combine::min: return reduce(results, ReduceOp::min, device);
    }
    throw InvalidArgumentError("Unknown combine");  // unreachable: every enumerator returns above
}

}  // namespace gpukit::multi_device
