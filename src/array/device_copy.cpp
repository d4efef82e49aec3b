// src/array/device_copy.cpp: copies, conversions and fills on the device (see device_copy.hpp).
//
// Same dtype, same layout, elements without gaps: one memcpy of the bytes they span (any order of
// dimensions, C or F or permuted). Anything else, a strided gather, a broadcast, a conversion: the
// copy kernel, generated per (dtypes, layout class) by the elementwise engine, converting on the
// store exactly as the host converter (src/array/convert.cpp) does.
#include "array/device_copy.hpp"

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "gpukit/current_stream.hpp"
#include "gpukit/kernel.hpp"
#include "gpukit/memory.hpp"
#include "gpukit/module.hpp"
#include "ops/elementwise/collapse.hpp"
#include "ops/elementwise/launch.hpp"
#include "util/text.hpp"

namespace gpukit::detail {
namespace {

// The elements fill the bytes they span, without gaps or repeats: that range may be copied or
// set whole.
bool is_dense(const Array& array) { return array.extent().size() == array.nbytes(); }

bool broadcasts_to(const Shape& from, const Shape& to) {
    if (from.size() > to.size()) return false;
    const std::size_t lead = to.size() - from.size();
    for (std::size_t d = 0; d < from.size(); ++d)
        if (from[d] != 1 && from[d] != to[lead + d]) return false;
    return true;
}

// Work on the device alone may still run when the call returns: like a launch, it needs the memory
// it touches to outlive it (gpukit/array_memory.hpp), whatever becomes of the arrays.
void copy_extent(const Array& target, const Array& source) {
    target.memory()->mark_used_by_launch();
    source.memory()->mark_used_by_launch();
    const ByteExtent extent = target.extent();
    const auto size = static_cast<std::size_t>(extent.size());
    const BufferView to(target.device(), target.address() + extent.low, size);
    const BufferView from(source.device(), source.address() + extent.low, size);
    const StreamRef stream = current_stream(target.device());
    if (stream.is_default()) return copy(to, from);
    copy_async(to, from, stream);
}

void set_extent(const Array& target, std::uint8_t value) {
    target.memory()->mark_used_by_launch();
    const ByteExtent extent = target.extent();
    const BufferView bytes(target.device(), target.address() + extent.low, static_cast<std::size_t>(extent.size()));
    const StreamRef stream = current_stream(target.device());
    if (stream.is_default()) return gpukit::memset(bytes, value);
    memset_async(bytes, value, stream);
}

// Writes one element's bytes, passed by value as two 64-bit halves (little-endian on the host and
// on every device gpukit runs on).
constexpr std::string_view store_element_source = R"(
extern "C" __global__ void gk_store_element(unsigned char* element, unsigned long long low,
                                            unsigned long long high, int bytes) {
    for (int k = 0; k < bytes; ++k)
        element[k] = (unsigned char)(k < 8 ? low >> (8 * k) : high >> (8 * (k - 8)));
}
)";

Kernel store_element_kernel(const Device& device) {
    static std::mutex mutex;
    static auto* kernels = new std::vector<std::pair<Device, Kernel>>;  // never destroyed, as the engine's map
    {
        std::lock_guard lock(mutex);
        for (const auto& [known, kernel] : *kernels)
            if (known == device) return kernel;
    }
    CompileOptions options;
    options.program_name = "gpukit_store_element.cu";
    Kernel kernel = Module::compile(store_element_source, options, device).kernel("gk_store_element");
    std::lock_guard lock(mutex);
    kernels->emplace_back(device, kernel);
    return kernel;
}

}  // namespace

bool may_share_memory(const Array& a, const Array& b) noexcept {
    if (a.device() != b.device() || a.size() == 0 || b.size() == 0) return false;
    const ByteExtent ea = a.extent(), eb = b.extent();
    const std::uint64_t a_begin = a.address() + ea.low, a_end = a.address() + ea.high;
    const std::uint64_t b_begin = b.address() + eb.low, b_end = b.address() + eb.high;
    return a_begin < b_end && b_begin < a_end;
}

void run_builtin(BuiltinOp op, std::span<const Array* const> inputs, std::span<const Array* const> outputs,
                 std::span<const DType> loop_dtypes) {
    launch_elementwise({static_cast<std::uint16_t>(op), expression(op), loop_dtypes}, inputs, outputs);
}

void copy_elements(const Array& src, const Array& dst) {
    raise_deferred_launch_error();
    if (src.device() != dst.device())
        throw InvalidArgumentError(concat("cannot copy between arrays on different devices (", src.device().name(), " ",
                                          src.device().ordinal(), " and ", dst.device().name(), " ",
                                          dst.device().ordinal(), ") in one operation; copy through the host"));
    // Checked first, so that a copy with nothing to do still refuses shapes NumPy refuses.
    if (!broadcasts_to(src.shape(), dst.shape()))
        throw InvalidArgumentError(concat("could not broadcast input array from shape ", format_shape(src.shape()),
                                          " into shape ", format_shape(dst.shape())));
    if (dst.size() == 0) return;
    const bool same_elements = src.shape() == dst.shape() && src.strides() == dst.strides();
    if (may_share_memory(src, dst)) {
        if (same_elements && src.address() == dst.address() && src.dtype() == dst.dtype()) return;  // a = a
        return copy_elements(src.copy(), dst);  // NumPy's a[1:] = a[:-1]: read everything first
    }
    if (same_elements && src.dtype() == dst.dtype() && is_dense(dst)) return copy_extent(dst, src);
    const Array* inputs[] = {&src};
    const Array* outputs[] = {&dst};
    const DType loop[] = {src.dtype(), src.dtype()};  // converted once, by the store
    run_builtin(BuiltinOp::copy, inputs, outputs, loop);
}

void fill_elements(const Array& dst, const Scalar& value) {
    raise_deferred_launch_error();
    if (dst.size() == 0) return;
    const std::array<std::byte, 16> element = value.converted(dst.dtype());
    const auto bytes = std::span(element).first(static_cast<std::size_t>(dst.itemsize()));
    const bool one_byte_value = std::all_of(bytes.begin(), bytes.end(), [&](std::byte b) { return b == bytes[0]; });
    if (one_byte_value && is_dense(dst)) return set_extent(dst, std::to_integer<std::uint8_t>(bytes[0]));
    copy_elements(device_scalar(Scalar(bytes, dst.dtype()), dst.dtype(), dst.device()), dst);
}

Array device_scalar(const Scalar& value, DType dtype, const Device& device) {
    Array scalar = Array::empty({}, dtype, device);
    const std::array<std::byte, 16> element = value.converted(dtype);
    std::uint64_t halves[2];
    std::copy(element.begin(), element.end(), reinterpret_cast<std::byte*>(halves));
    LaunchConfig config;
    config.grid = Dim3(1);
    config.block = Dim3(1);
    config.stream = current_stream(device);
    store_element_kernel(device)(config, scalar, halves[0], halves[1], static_cast<int>(itemsize(dtype)));
    return scalar;
}

}  // namespace gpukit::detail
