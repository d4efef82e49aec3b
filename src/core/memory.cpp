// src/core/memory.cpp: device and page-locked buffers, copies and memset.
#include "gpukit/memory.hpp"

#include <utility>

#include "backends/backend.hpp"
#include "core/stream_access.hpp"
#include "gpukit/error.hpp"
#include "util/text.hpp"

namespace gpukit {

using detail::concat;

Device BufferView::device() const {
    if (!backend_) throw UsageError("Use of an empty gpukit::BufferView (it refers to no memory)");
    return Device(*backend_, ordinal_);
}

BufferView BufferView::subview(std::size_t offset, std::size_t size_bytes) const {
    if (offset > size_ || size_bytes > size_ - offset)
        throw InvalidArgumentError(concat("subview of bytes [", offset, ", ", offset + size_bytes, ") is outside a buffer of ",
                                          size_, " bytes"));
    BufferView view = *this;
    view.address_ += offset;
    view.size_ = size_bytes;
    return view;
}

// ---- DeviceBuffer

DeviceBuffer::DeviceBuffer(std::size_t size_bytes) : DeviceBuffer(Device::current(), size_bytes) {}

DeviceBuffer::DeviceBuffer(Device device, std::size_t size_bytes)
    : backend_(&device.backend()),
      ordinal_(device.ordinal()),
      address_(size_bytes ? device.backend().allocate(device.ordinal(), size_bytes) : 0),
      size_(size_bytes) {}

DeviceBuffer::~DeviceBuffer() {
    if (backend_ && address_) backend_->release_memory(ordinal_, address_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : backend_(std::exchange(other.backend_, nullptr)),
      ordinal_(other.ordinal_),
      address_(std::exchange(other.address_, 0)),
      size_(std::exchange(other.size_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    DeviceBuffer taken(std::move(other));
    std::swap(backend_, taken.backend_);
    std::swap(ordinal_, taken.ordinal_);
    std::swap(address_, taken.address_);
    std::swap(size_, taken.size_);
    return *this;
}

void DeviceBuffer::require_live(const char* action) const {
    if (!backend_) throw UsageError(concat("Cannot ", action, " a moved-from gpukit::DeviceBuffer"));
}

BufferView DeviceBuffer::view() const {
    require_live("view");
    return BufferView(Device(*backend_, ordinal_), address_, size_);
}

Device DeviceBuffer::device() const {
    require_live("ask the device of");
    return Device(*backend_, ordinal_);
}

std::uint64_t DeviceBuffer::address() const {
    require_live("take the address of");
    return address_;
}

std::size_t DeviceBuffer::size_bytes() const {
    require_live("take the size of");
    return size_;
}

// ---- PinnedBuffer

PinnedBuffer::PinnedBuffer(std::size_t size_bytes) : PinnedBuffer(Device::current(), size_bytes) {}

PinnedBuffer::PinnedBuffer(Device device, std::size_t size_bytes)
    : backend_(&device.backend()),
      ordinal_(device.ordinal()),
      data_(size_bytes ? static_cast<std::byte*>(device.backend().allocate_pinned(device.ordinal(), size_bytes)) : nullptr),
      size_(size_bytes) {}

PinnedBuffer::~PinnedBuffer() {
    if (backend_ && data_) backend_->release_pinned(ordinal_, data_);
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& other) noexcept
    : backend_(std::exchange(other.backend_, nullptr)),
      ordinal_(other.ordinal_),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
    PinnedBuffer taken(std::move(other));
    std::swap(backend_, taken.backend_);
    std::swap(ordinal_, taken.ordinal_);
    std::swap(data_, taken.data_);
    std::swap(size_, taken.size_);
    return *this;
}

std::byte* PinnedBuffer::data() const {
    if (!backend_) throw UsageError("Cannot use a moved-from gpukit::PinnedBuffer");
    return data_;
}

// ---- copies

namespace {

void require_same_size(const char* what, std::size_t dst, std::size_t src) {
    if (dst != src)
        throw InvalidArgumentError(concat(what, ": the destination holds ", dst, " bytes but the source holds ", src,
                                          " bytes; copies need equal sizes (use BufferView::subview for part of a buffer)"));
}

void require_same_device(const char* what, const Device& a, const Device& b) {
    if (a != b)
        throw InvalidArgumentError(concat(what, ": the buffers are on different devices (", a.describe(), " and ",
                                          b.describe(), ")"));
}

}  // namespace

void copy(BufferView dst, std::span<const std::byte> src) {
    require_same_size("copy to device", dst.size_bytes(), src.size());
    if (src.empty()) return;
    const Device d = dst.device();
    d.backend().copy_to_device(d.ordinal(), dst.address(), src.data(), src.size(), std::nullopt);
}

void copy(std::span<std::byte> dst, BufferView src) {
    require_same_size("copy to host", dst.size(), src.size_bytes());
    if (dst.empty()) return;
    const Device d = src.device();
    d.backend().copy_to_host(d.ordinal(), dst.data(), src.address(), dst.size(), std::nullopt);
}

void copy(BufferView dst, BufferView src) {
    require_same_size("copy on device", dst.size_bytes(), src.size_bytes());
    if (src.empty()) return;
    const Device d = dst.device();
    require_same_device("copy on device", d, src.device());
    d.backend().copy_on_device(d.ordinal(), dst.address(), src.address(), src.size_bytes(), std::nullopt);
}

void copy_async(BufferView dst, std::span<const std::byte> src, StreamRef stream) {
    require_same_size("copy_async to device", dst.size_bytes(), src.size());
    if (src.empty()) return;
    const Device d = dst.device();
    d.backend().copy_to_device(d.ordinal(), dst.address(), src.data(), src.size(),
                               detail::StreamAccess::resolve(stream, d, "copy to the device"));
}

void copy_async(std::span<std::byte> dst, BufferView src, StreamRef stream) {
    require_same_size("copy_async to host", dst.size(), src.size_bytes());
    if (dst.empty()) return;
    const Device d = src.device();
    d.backend().copy_to_host(d.ordinal(), dst.data(), src.address(), dst.size(),
                             detail::StreamAccess::resolve(stream, d, "copy to the host"));
}

void copy_async(BufferView dst, BufferView src, StreamRef stream) {
    require_same_size("copy_async on device", dst.size_bytes(), src.size_bytes());
    if (src.empty()) return;
    const Device d = dst.device();
    require_same_device("copy_async on device", d, src.device());
    d.backend().copy_on_device(d.ordinal(), dst.address(), src.address(), src.size_bytes(),
                               detail::StreamAccess::resolve(stream, d, "copy on the device"));
}

void memset(BufferView dst, std::uint8_t value) {
    if (dst.empty()) return;
    const Device d = dst.device();
    d.backend().fill(d.ordinal(), dst.address(), value, dst.size_bytes(), std::nullopt);
}

void memset_async(BufferView dst, std::uint8_t value, StreamRef stream) {
    if (dst.empty()) return;
    const Device d = dst.device();
    d.backend().fill(d.ordinal(), dst.address(), value, dst.size_bytes(),
                     detail::StreamAccess::resolve(stream, d, "set memory"));
}

}  // namespace gpukit
