// src/core/memory.cpp: device and page-locked buffers, copies and memset.
#include "gpukit/memory.hpp"

#include <utility>

#include "backends/backend.hpp"
#include "core/check_report.hpp"
#include "core/peer_access.hpp"
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
        throw InvalidArgumentError(concat("subview of bytes [", offset, ", ", offset + size_bytes,
                                          ") is outside a buffer of ", size_, " bytes"));
    BufferView view = *this;
    view.address_ += offset;
    view.size_ = size_bytes;
    return view;
}

// ---- Buffer

std::string_view to_string(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::device: return "device";
        case MemoryKind::pinned: return "pinned";
        case MemoryKind::managed: return "managed";
    }
    return "unknown";
}

namespace {
// How error messages name a buffer of this kind: the type the user holds.
std::string_view type_name(MemoryKind kind) {
    switch (kind) {
        case MemoryKind::device: return "gpukit::DeviceBuffer";
        case MemoryKind::pinned: return "gpukit::PinnedBuffer";
        case MemoryKind::managed: return "gpukit::ManagedBuffer";
    }
    return "gpukit::Buffer";
}
}  // namespace

Buffer::Buffer(Device device, std::size_t size_bytes, MemoryKind kind)
    : backend_(&device.backend()),
      ordinal_(device.ordinal()),
      kind_(kind),
      address_(size_bytes ? device.backend().allocate(device.ordinal(), kind, size_bytes) : 0),
      size_(size_bytes) {}

Buffer::~Buffer() {
    if (backend_ && address_) backend_->release(ordinal_, kind_, address_);
}

Buffer::Buffer(Buffer&& other) noexcept
    : backend_(std::exchange(other.backend_, nullptr)),
      ordinal_(other.ordinal_),
      kind_(other.kind_),
      address_(std::exchange(other.address_, 0)),
      size_(std::exchange(other.size_, 0)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
    Buffer taken(std::move(other));
    std::swap(backend_, taken.backend_);
    std::swap(ordinal_, taken.ordinal_);
    std::swap(kind_, taken.kind_);
    std::swap(address_, taken.address_);
    std::swap(size_, taken.size_);
    return *this;  // `taken` frees what this held
}

void Buffer::require_live(const char* action) const {
    if (!backend_) throw UsageError(concat("Cannot ", action, " a moved-from ", type_name(kind_)));
}

MemoryKind Buffer::kind() const {
    require_live("ask the kind of");
    return kind_;
}

Device Buffer::device() const {
    require_live("ask the device of");
    return Device(*backend_, ordinal_);
}

std::uint64_t Buffer::address() const {
    require_live("take the address of");
    return address_;
}

std::size_t Buffer::size_bytes() const {
    require_live("take the size of");
    return size_;
}

BufferView Buffer::device_view() const {
    require_live("view");
    if (kind_ == MemoryKind::pinned)
        throw UsageError("Pinned memory is host memory: kernels and device copies take device or managed memory");
    return BufferView(Device(*backend_, ordinal_), address_, size_);
}

std::byte* Buffer::host_data() const {
    require_live("use");
    if (kind_ == MemoryKind::device)
        throw UsageError(
            "Device memory has no host address: copy it to the host, or allocate pinned or managed memory");
    return reinterpret_cast<std::byte*>(address_);
}

// ---- copies

namespace {

void require_same_size(const char* what, std::size_t dst, std::size_t src) {
    if (dst != src)
        throw InvalidArgumentError(
            concat(what, ": the destination holds ", dst, " bytes but the source holds ", src,
                   " bytes; copies need equal sizes (use BufferView::subview for part of a buffer)"));
}

void require_same_backend(const char* what, const Device& a, const Device& b) {
    if (&a.backend() != &b.backend())
        throw InvalidArgumentError(concat(what, ": the buffers belong to different backends (", a.describe(), " on ",
                                          a.backend_info().name, ", ", b.describe(), " on ", b.backend_info().name,
                                          "); copy through the host"));
}

// Between two devices: directly where the destination can reach the source's memory (peer access,
// enabled on first use), else staged through the host by the backend.
void copy_between(const char* what, BufferView dst, BufferView src, std::optional<detail::NativeStream> stream) {
    const Device to = dst.device();
    const Device from = src.device();
    require_same_backend(what, to, from);
    detail::peer_access(to, from);  // enabled where the devices can reach each other, asked once per pair
    to.backend().copy_peer(to.ordinal(), dst.address(), from.ordinal(), src.address(), src.size_bytes(), stream);
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
    const detail::ReportAfterSync report;  // a synchronous copy waits for the work before it
    const Device d = src.device();
    d.backend().copy_to_host(d.ordinal(), dst.data(), src.address(), dst.size(), std::nullopt);
}

void copy(BufferView dst, BufferView src) {
    require_same_size("copy on device", dst.size_bytes(), src.size_bytes());
    if (src.empty()) return;
    const Device d = dst.device();
    if (d != src.device()) return copy_between("copy between devices", dst, src, std::nullopt);
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
    if (d != src.device()) {
        // A stream of either device orders the copy (CUDA's cuMemcpyPeerAsync takes either).
        const Device on = stream.device() == src.device() ? src.device() : d;
        return copy_between("copy_async between devices", dst, src,
                            detail::StreamAccess::resolve(stream, on, "copy between devices"));
    }
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
