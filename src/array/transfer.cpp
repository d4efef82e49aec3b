// src/array/transfer.cpp: moving elements: host <-> device (contiguous or strided), device copies,
// conversions and fills. All on the current stream of the array's device.
//
// Until elementwise kernels arrive, what a single memcpy or memset cannot do goes through the
// host: a strided view's bytes are brought over whole (its byte extent), its elements picked out
// or written in there, and written back.
#include "gpukit/array.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "array/convert.hpp"
#include "array/host_copy.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/memory.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

namespace {

// On the default stream, the synchronous calls; on another, the asynchronous ones on it. Transfers
// with the host then wait for the stream: the host memory must outlive the copy. Memory that came
// in another stream's order (a pool block) is first ordered before the stream.
void read_bytes(ArrayMemory& memory, std::uint64_t address, std::span<std::byte> host) {
    const Device& device = memory.device();
    const BufferView source(device, address, host.size());
    const StreamRef stream = current_stream(device);
    memory.prepare_use_on(stream);
    if (stream.is_default()) return copy(host, source);
    copy_async(host, source, stream);
    stream.synchronize();
}

void write_bytes(ArrayMemory& memory, std::uint64_t address, std::span<const std::byte> host) {
    const Device& device = memory.device();
    const BufferView target(device, address, host.size());
    const StreamRef stream = current_stream(device);
    memory.prepare_use_on(stream);
    if (stream.is_default()) return copy(target, host);
    copy_async(target, host, stream);
    stream.synchronize();
}

// Work on the device alone may still run when the call returns (on a stream; and CUDA's copies
// between device addresses do not wait even on the default stream): like a launch, it needs the
// memory it touches to outlive it (gpukit/array_memory.hpp), whatever becomes of the arrays.
void copy_bytes(const Array& target, const Array& source) {
    const StreamRef stream = current_stream(target.device());
    target.memory()->mark_used_by_launch(stream);
    source.memory()->mark_used_by_launch(stream);
    const auto size = static_cast<std::size_t>(target.nbytes());
    const BufferView to(target.device(), target.address(), size), from(source.device(), source.address(), size);
    if (stream.is_default()) return copy(to, from);
    copy_async(to, from, stream);
}

void set_bytes(const Array& target, std::uint8_t value) {
    const StreamRef stream = current_stream(target.device());
    target.memory()->mark_used_by_launch(stream);
    const BufferView bytes(target.device(), target.address(), static_cast<std::size_t>(target.nbytes()));
    if (stream.is_default()) return gpukit::memset(bytes, value);
    memset_async(bytes, value, stream);
}

bool is_contiguous_host(const ConstHostView& host) {
    return gpukit::is_c_contiguous(host.shape, host.strides, static_cast<std::int64_t>(itemsize(host.dtype)));
}

// Device addresses [begin, end) an array's elements touch.
struct AddressRange {
    std::uint64_t begin;
    std::uint64_t end;
};

AddressRange touched(const Array& array) {
    const ByteExtent extent = array.extent();
    return {array.address() + extent.low, array.address() + extent.high};
}

}  // namespace

Array Array::from_host(const ConstHostView& host, Device device) {
    Array array = empty(host.shape, host.dtype, device);
    array.copy_from_host(host);
    return array;
}

void Array::copy_to_host(const HostView& host) const {
    if (host.shape != shape_ || host.dtype != dtype_)
        throw InvalidArgumentError(concat("cannot copy a ", format_shape(shape_), " ", to_string(dtype_),
                                          " array to host memory of shape ", format_shape(host.shape), " and dtype ",
                                          to_string(host.dtype), ": they must match"));
    raise_deferred_launch_error();
    if (size() == 0) return;
    if (is_c_contiguous() && is_contiguous_host(host))
        return read_bytes(*memory_, address_, {host.data, static_cast<std::size_t>(nbytes())});
    // A strided view: bring the bytes it spans, then pick its elements out.
    const ByteExtent span = extent();
    std::vector<std::byte> bytes(static_cast<std::size_t>(span.size()));
    read_bytes(*memory_, address_ + span.low, bytes);
    detail::copy_host_elements(ConstHostView(bytes.data() - span.low, dtype_, shape_, strides_), host);
}

void Array::copy_from_host(const ConstHostView& host) {
    if (host.shape != shape_)
        throw InvalidArgumentError(concat("cannot set an array of shape ", format_shape(shape_), " from one of shape ",
                                          format_shape(host.shape)));
    if (host.dtype != dtype_)
        throw InvalidArgumentError(concat("cannot set a ", to_string(dtype_), " array from ", to_string(host.dtype),
                                          " data; convert it to ", to_string(dtype_), " first"));
    raise_deferred_launch_error();
    if (size() == 0) return;
    if (is_c_contiguous()) {
        if (is_contiguous_host(host))
            return write_bytes(*memory_, address_, {host.data, static_cast<std::size_t>(nbytes())});
        std::vector<std::byte> gathered(static_cast<std::size_t>(nbytes()));
        detail::copy_host_elements(host, HostView(gathered.data(), dtype_, shape_));
        return write_bytes(*memory_, address_, gathered);
    }
    // A strided view: write its elements into the bytes it spans, and those back (the bytes
    // between its elements unchanged).
    const ByteExtent span = extent();
    std::vector<std::byte> bytes(static_cast<std::size_t>(span.size()));
    read_bytes(*memory_, address_ + span.low, bytes);
    detail::copy_host_elements(host, HostView(bytes.data() - span.low, dtype_, shape_, strides_));
    write_bytes(*memory_, address_ + span.low, bytes);
}

void Array::assign(const ConstHostView& host) {
    const ConstHostView source = detail::broadcast_to(host, shape_);
    if (source.dtype == dtype_) return copy_from_host(source);
    std::vector<std::byte> converted(static_cast<std::size_t>(nbytes()));
    const HostView target(converted.data(), dtype_, shape_);
    detail::copy_host_elements(source, target);
    copy_from_host(target);
}

void Array::assign(const Array& source) {
    const AddressRange to = touched(*this), from = touched(source);
    const bool overlapping = device() == source.device() && to.begin < from.end && from.begin < to.end;
    if (source.shape_ == shape_ && source.dtype_ == dtype_ && source.device() == device() && !overlapping &&
        is_c_contiguous() && source.is_c_contiguous()) {
        raise_deferred_launch_error();
        if (size() != 0) copy_bytes(*this, source);
        return;
    }
    // Another layout, dtype or device, or memory that overlaps: through the host.
    std::vector<std::byte> host(static_cast<std::size_t>(source.nbytes()));
    const HostView values(host.data(), source.dtype_, source.shape_);
    source.copy_to_host(values);
    assign(ConstHostView(values));
}

Array Array::copy() const {
    Array result = empty(shape_, dtype_, device());
    if (size() == 0) return result;
    if (is_c_contiguous()) {
        raise_deferred_launch_error();
        copy_bytes(result, *this);
        return result;
    }
    std::vector<std::byte> host(static_cast<std::size_t>(nbytes()));  // a strided gather needs a kernel
    const HostView values(host.data(), dtype_, shape_);
    copy_to_host(values);
    result.copy_from_host(values);
    return result;
}

Array Array::astype(DType dtype) const {
    if (dtype == dtype_) return copy();
    Array result = empty(shape_, dtype, device());
    if (size() == 0) return result;
    std::vector<std::byte> host(static_cast<std::size_t>(nbytes()));
    const HostView values(host.data(), dtype_, shape_);
    copy_to_host(values);
    result.assign(ConstHostView(values));
    return result;
}

void Array::fill_bytes(std::span<const std::byte> element) {
    if (element.size() != static_cast<std::size_t>(itemsize()))
        throw InvalidArgumentError(concat("fill takes one ", to_string(dtype_), " element (", itemsize(),
                                          " bytes), not ", element.size(), " bytes"));
    raise_deferred_launch_error();
    if (size() == 0) return;
    const bool one_byte_value =
        std::all_of(element.begin(), element.end(), [&](std::byte b) { return b == element[0]; });
    if (one_byte_value && is_c_contiguous()) return set_bytes(*this, std::to_integer<std::uint8_t>(element[0]));
    // The element repeated (stride 0 in every dimension), written as host data.
    copy_from_host(ConstHostView(element.data(), dtype_, shape_, Strides(ndim(), 0)));
}

void Array::fill_converted(const std::byte* value, DType value_dtype) {
    std::byte element[16];
    detail::convert_elements(value, 0, value_dtype, element, 0, dtype_, 1);
    fill_bytes({element, static_cast<std::size_t>(itemsize())});
}

}  // namespace gpukit
