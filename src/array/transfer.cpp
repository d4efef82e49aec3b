// src/array/transfer.cpp: moving elements between the host and the device (contiguous or strided),
// and the Array members that copy, convert and fill on the device (src/array/device_copy.cpp does
// the work). All on the current stream of the array's device.
//
// A strided view's transfer with the host moves the bytes it spans (its byte extent) and picks its
// elements out, or writes them in, on the host.
#include "gpukit/array.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "array/device_copy.hpp"
#include "array/host_copy.hpp"
#include "array/upload.hpp"
#include "backends/backend.hpp"
#include "gpukit/creation.hpp"
#include "gpukit/current_stream.hpp"
#include "gpukit/event.hpp"
#include "gpukit/kernel.hpp"
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

bool is_contiguous_host(const ConstHostView& host) {
    return gpukit::is_c_contiguous(host.shape, host.strides, static_cast<std::int64_t>(itemsize(host.dtype)));
}

// Host memory laid out exactly as the array is, without gaps: one transfer of the bytes.
bool same_dense_layout(const Array& array, const ConstHostView& host) {
    return host.strides == array.strides() && array.extent().size() == array.nbytes();
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
    if (same_dense_layout(*this, host)) {
        const ByteExtent span = extent();
        return read_bytes(*memory_, address_ + span.low, {host.data + span.low, static_cast<std::size_t>(span.size())});
    }
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
    if (same_dense_layout(*this, host)) {
        const ByteExtent span = extent();
        return write_bytes(*memory_, address_ + span.low,
                           {host.data + span.low, static_cast<std::size_t>(span.size())});
    }
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
    const ConstHostView source = detail::broadcast_to(host, shape_);  // NumPy's refusal, before any transfer
    if (host.dtype == dtype_ && host.shape == shape_) return copy_from_host(host);
    if (size() == 0) return;
    // The host's elements as they are (a scalar stays one element), broadcast and converted on the device.
    detail::copy_elements(from_host(host, device()), *this);
}

void Array::assign(const Array& source) {
    if (source.device() == device()) return detail::copy_elements(source, *this);
    (void)detail::broadcast_to(ConstHostView(nullptr, source.dtype_, source.shape_), shape_);
    // Another device of this backend: its elements copied here, then converted and broadcast.
    if (&source.device().backend() == &device().backend())
        return detail::copy_elements(source.to_device(device()), *this);
    // Another backend's: through the host, whose copy then converts and broadcasts here.
    std::vector<std::byte> host(static_cast<std::size_t>(source.nbytes()));
    const HostView values(host.data(), source.dtype_, source.shape_);
    source.copy_to_host(values);
    assign(ConstHostView(values));
}

Array Array::copy(Order order) const {
    LikeOptions layout;
    layout.order = order;
    Array result = empty_like(*this, layout);
    detail::copy_elements(*this, result);
    return result;
}

Array Array::to_device(const Device& device) const {
    if (device == this->device()) return *this;
    LikeOptions there;
    there.device = device;
    if (&device.backend() != &this->device().backend()) {  // another backend's device: through the host
        Array result = empty_like(*this, there);
        result.assign(*this);
        return result;
    }
    // The devices exchange one byte range: a view with gaps is made dense here first.
    const Array dense = is_c_contiguous() || is_f_contiguous() ? *this : copy(Order::K);
    Array result = empty_like(dense, there);
    if (result.size() > 0) detail::copy_between_devices(dense, result);
    return result;
}

namespace detail {

// On the target's current stream, after the work queued so far on the source's; the source's
// stream then waits for the copy, so that its memory is neither reused nor changed before it is read.
void copy_between_devices(const Array& source, const Array& target) {
    const Device from = source.device();
    const Device to = target.device();
    const StreamRef source_stream = current_stream(from);
    const StreamRef target_stream = current_stream(to);
    Event source_ready(from, EventFlags::no_timing);
    source_ready.record(source_stream);
    target_stream.wait(source_ready);
    const auto bytes = static_cast<std::size_t>(source.nbytes());
    const BufferView source_bytes(from, launch_address(source, source_stream), bytes);
    const BufferView target_bytes(to, launch_address(target, target_stream), bytes);
    copy_async(target_bytes, source_bytes, target_stream);
    Event copied(to, EventFlags::no_timing);
    copied.record(target_stream);
    source_stream.wait(copied);
}

}  // namespace detail

Array Array::astype(DType dtype, Order order) const {
    LikeOptions layout;
    layout.dtype = dtype;
    layout.order = order;
    Array result = empty_like(*this, layout);
    detail::copy_elements(*this, result);
    return result;
}

void Array::fill(const Scalar& value) const { detail::fill_elements(*this, value); }

void Array::fill_bytes(std::span<const std::byte> element) const {
    if (element.size() != static_cast<std::size_t>(itemsize()))
        throw InvalidArgumentError(concat("fill takes one ", to_string(dtype_), " element (", itemsize(),
                                          " bytes), not ", element.size(), " bytes"));
    detail::fill_elements(*this, Scalar::typed(dtype_, element.data()));
}

namespace detail {

Array upload(std::span<const std::byte> bytes, DType dtype, Device device) {
    const auto count = static_cast<std::int64_t>(bytes.size() / itemsize(dtype));
    Array array = Array::empty({count}, dtype, device);
    if (bytes.empty()) return array;
    if (bytes.size() > staged_upload_limit) {
        array.copy_from_host(ConstHostView(bytes.data(), dtype, {count}));
        return array;
    }
    const StreamRef stream = current_stream(device);
    const std::uint64_t address = launch_address(array, stream);  // ordered on the stream, as a launch's
    device.backend().upload_staged(device.ordinal(), address, bytes.data(), bytes.size(), stream.native_handle());
    return array;
}

}  // namespace detail

}  // namespace gpukit
