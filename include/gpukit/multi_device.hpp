// gpukit/multi_device.hpp: one array's work split across several devices and combined again.
//
//   const std::vector<gpukit::Device> all = gpukit::devices();
//   // the sum of x's elements, each device summing its block of rows, the partial sums added:
//   gpukit::Array total = gpukit::multi_device::map(
//       [](const gpukit::multi_device::Part& part) { return gpukit::sum(part.data); }, x, all,
//       {.combine = gpukit::multi_device::Combine::sum});
//   // a 'same' 2-D convolution by blocks of image rows, each with the rows its stencil reaches:
//   const std::vector<gpukit::Array> kernels = gpukit::multi_device::broadcast(kernel, all);
//   gpukit::Array smooth = gpukit::multi_device::map(
//       [&](const gpukit::multi_device::Part& part) {
//           return gpukit::signal::convolve2d(part.data, kernels[part.index], {.mode = gpukit::ConvolveMode::same});
//       },
//       image, all, {.halo = kernel.shape()[0] / 2});
//
// split() cuts an array into nearly equal blocks along an axis (numpy.array_split's sizes), one per
// device, and copies each to its device (peer to peer where the devices reach each other); each
// part may carry `halo` more rows on either side, clipped at the array's edges, for a stencil. A
// device that would get no rows gets no part, so a function never runs on an empty block unless
// the array itself is empty (then one empty part goes to the first device). map() runs a function
// on every part at once, one host thread per part with the part's device current and the calling
// thread's current stream of that device current too, so what the function queues is ordered
// with the caller's work; then it combines the results on one device: concatenated along the
// axis (cropped to the parts' own rows where they have halos), stacked, or reduced. Nothing
// waits for the devices: copies between them are ordered by events (Array::to_device).
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpukit/array.hpp"
#include "gpukit/device.hpp"
#include "gpukit/error.hpp"

namespace gpukit::multi_device {

// One device's block of a split array.
struct Part {
    Array data;                    // halo_before + length + halo_after entries along the axis, on its device
    std::size_t index = 0;         // its place among the split's parts
    std::size_t axis = 0;          // the axis the array was split along
    std::int64_t offset = 0;       // where its own entries start in the whole array, along the axis
    std::int64_t length = 0;       // its own entries along the axis
    std::int64_t halo_before = 0;  // entries of data before its own (fewer at the array's start)
    std::int64_t halo_after = 0;   // entries of data after its own (fewer at the array's end)

    const Device& device() const noexcept { return data.device(); }
    // data without its halos (a view).
    Array interior() const;
    // The entries of `result` that belong to this part's own, for a result that keeps data's extent
    // along the axis (a 'same' stencil): a view without the halos. InvalidArgumentError, naming the
    // device and the extents, for a result of another extent or too few dimensions.
    Array crop(const Array& result) const;
};

// An array cut into parts along one axis, in order.
struct Split {
    std::vector<Part> parts;
    std::size_t axis = 0;
    Shape shape;  // the whole array's
    DType dtype = DType::float32;
    std::int64_t halo = 0;

    // The device of each part, in order.
    std::vector<Device> devices() const;
};

struct SplitOptions {
    std::int64_t axis = 0;  // negative counts from the end
    std::int64_t halo = 0;  // more entries on either side of every part, clipped at the array's edges
};

// Where `extent` entries are cut into `count` nearly equal blocks, as numpy.array_split cuts them
// (the first extent % count blocks one longer): count + 1 bounds from 0 to extent.
// InvalidArgumentError for a count below 1 or a negative extent.
std::vector<std::int64_t> block_bounds(std::int64_t extent, std::size_t count);

// `x` cut along options.axis into one part per device (a device that would get no rows gets no
// part; at least one part), each part a copy on its device: where x already is, a view of x.
// InvalidArgumentError for no devices, a 0-D array, a negative halo or one longer than a part that
// lies between two others (a halo comes from the neighbouring parts alone: use fewer devices);
// AxisError for an axis outside x's dimensions.
Split split(const Array& x, std::span<const Device> devices, const SplitOptions& options = {});
// The same from host memory: each part copied straight from the host to its device, all at once.
Split split(const ConstHostView& x, std::span<const Device> devices, const SplitOptions& options = {});

// The parts' own entries (halos dropped) joined along the split's axis on `device`.
Array gather(const Split& split, const Device& device);
// Arrays on any devices joined along `axis` on `device` (numpy.concatenate's rules).
// InvalidArgumentError when there are none.
Array gather(std::span<const Array> parts, const Device& device, std::int64_t axis = 0);

// How partial results combine: sums (histogram counts too), products, maxima, minima.
enum class ReduceOp { sum, prod, max, min };
// "sum", "prod", "max" or "min" (InvalidArgumentError naming them for anything else).
ReduceOp reduce_op_from_name(std::string_view name);
std::string_view reduce_op_name(ReduceOp op) noexcept;

// The partial results (on any devices, of shapes that broadcast) combined elementwise on `device`,
// as numpy.add/multiply/maximum/minimum would: the result of adding them up in order.
// InvalidArgumentError when there are none.
Array reduce(std::span<const Array> partials, ReduceOp op, const Device& device);

// `x` on every device of `devices`, in order: x itself where it is, a copy elsewhere (one per
// distinct device), for an operand every part needs (matmul's right-hand side, a stencil).
std::vector<Array> broadcast(const Array& x, std::span<const Device> devices);

// What map does with the parts' results.
enum class Combine {
    concatenate,  // joined along the split's axis, each cropped to its part's own entries with halos
    stack,        // numpy.stack along a new first axis: one entry per part
    sum,
    prod,
    max,
    min,
};
// "concatenate", "stack", "sum", "prod", "max" or "min" (InvalidArgumentError otherwise).
Combine combine_from_name(std::string_view name);

// A function of one part: runs with the part's device current; returns an array on that device.
using PartFunction = std::function<Array(const Part& part)>;

// The work on one part failed: what() names the device, the part's entries and the cause; cause()
// is the exception the work threw. Thrown after every part's work has finished.
class PartFailedError : public Error {
public:
    PartFailedError(const std::string& message, std::size_t part, int device, std::exception_ptr cause,
                    std::size_t failures);
    std::size_t part() const noexcept { return part_; }
    int device() const noexcept { return device_; }  // its ordinal
    const std::exception_ptr& cause() const noexcept { return cause_; }
    std::size_t failures() const noexcept { return failures_; }  // how many parts failed, this one included

private:
    std::size_t part_;
    int device_;
    std::exception_ptr cause_;
    std::size_t failures_;
};

// `fn` on every part at once (one host thread per part; a single part on the calling thread),
// each result checked to be an array on its part's device: the results in part order. When some
// part's work throws, the others still finish; then PartFailedError for the first that failed.
std::vector<Array> map_parts(const Split& split, const PartFunction& fn);

// The parts' results combined as `combine` says on `device`. InvalidArgumentError for a number of
// results other than the parts', and for concatenate with halos, results that do not keep their
// part's extent along the axis.
Array combine(std::span<const Array> results, const Split& split, Combine combine, const Device& device);

struct MapOptions {
    std::int64_t axis = 0;
    std::int64_t halo = 0;
    Combine combine = Combine::concatenate;
    std::optional<Device> out_device;  // none: x's device
};

// split, map_parts and combine in one call.
Array map(const PartFunction& fn, const Array& x, std::span<const Device> devices, const MapOptions& options = {});

}  // namespace gpukit::multi_device
