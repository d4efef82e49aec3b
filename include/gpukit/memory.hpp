// gpukit/memory.hpp: memory gpukit allocates (device, page-locked host, managed), copies and memset.
//
// Buffer owns one allocation of any kind and is move-only; DeviceBuffer, PinnedBuffer and
// ManagedBuffer are Buffers of one kind with the accessors that kind has. BufferView is the cheap
// non-owning reference to device memory that copies, memsets and kernel launches take. Synchronous
// calls return when the work is done; *_async calls enqueue on a stream and return at once (host
// memory given to them must stay alive, and should be pinned for the copy to overlap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "gpukit/device.hpp"
#include "gpukit/stream.hpp"

namespace gpukit {

// Where an allocation lives and who can address it.
enum class MemoryKind {
    device,   // device memory: kernels address it; the host copies to and from it
    pinned,   // page-locked host memory: the host addresses it; asynchronous copies overlap only with it
    managed,  // unified memory: one address for the host and for kernels, migrated on demand
};
std::string_view to_string(MemoryKind kind);

// A range of device memory that someone else owns.
class BufferView {
public:
    BufferView() = default;
    BufferView(Device device, std::uint64_t address, std::size_t size_bytes) noexcept
        : backend_(&device.backend()), ordinal_(device.ordinal()), address_(address), size_(size_bytes) {}

    Device device() const;
    std::uint64_t address() const noexcept { return address_; }
    std::size_t size_bytes() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    // Bytes [offset, offset + size_bytes); throws InvalidArgumentError if out of range.
    BufferView subview(std::size_t offset, std::size_t size_bytes) const;

private:
    detail::Backend* backend_ = nullptr;
    int ordinal_ = 0;
    std::uint64_t address_ = 0;
    std::size_t size_ = 0;
};

// One allocation of any kind, freed with the Buffer. Zero bytes allocate nothing. Allocating throws
// OutOfMemoryError with the requested and free bytes when the memory is not there.
class Buffer {
public:
    Buffer(Device device, std::size_t size_bytes, MemoryKind kind);
    ~Buffer();
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    // Each accessor throws UsageError on a moved-from buffer.
    MemoryKind kind() const;
    Device device() const;
    // Where the memory starts: a device address (device, managed) or a host address (pinned).
    std::uint64_t address() const;
    std::size_t size_bytes() const;

protected:
    // The memory as kernels and device copies see it; throws UsageError for pinned memory.
    BufferView device_view() const;
    // The memory as the host sees it; throws UsageError for device memory.
    std::byte* host_data() const;

private:
    void require_live(const char* action) const;

    detail::Backend* backend_ = nullptr;  // null once moved from
    int ordinal_ = 0;
    MemoryKind kind_ = MemoryKind::device;
    std::uint64_t address_ = 0;
    std::size_t size_ = 0;
};

// Device memory, on the current device unless given one.
class DeviceBuffer : public Buffer {
public:
    explicit DeviceBuffer(std::size_t size_bytes) : DeviceBuffer(Device::current(), size_bytes) {}
    DeviceBuffer(Device device, std::size_t size_bytes) : Buffer(device, size_bytes, MemoryKind::device) {}

    // Allocates and fills from host memory.
    template <class T>
    static DeviceBuffer from_host(std::span<const T> host, Device device = Device::current());

    BufferView view() const { return device_view(); }
    operator BufferView() const { return view(); }  // NOLINT(google-explicit-constructor): a buffer is a view of itself
};

// Page-locked host memory: the only host memory asynchronous copies overlap with.
class PinnedBuffer : public Buffer {
public:
    explicit PinnedBuffer(std::size_t size_bytes) : PinnedBuffer(Device::current(), size_bytes) {}
    PinnedBuffer(Device device, std::size_t size_bytes) : Buffer(device, size_bytes, MemoryKind::pinned) {}

    std::byte* data() const { return host_data(); }
    std::span<std::byte> bytes() const { return {data(), size_bytes()}; }
    template <class T>
    std::span<T> as() const {
        static_assert(std::is_trivially_copyable_v<T>);
        return {reinterpret_cast<T*>(data()), size_bytes() / sizeof(T)};
    }
};

// Unified memory: the host reads and writes it through data(), kernels through view().
class ManagedBuffer : public Buffer {
public:
    explicit ManagedBuffer(std::size_t size_bytes) : ManagedBuffer(Device::current(), size_bytes) {}
    ManagedBuffer(Device device, std::size_t size_bytes) : Buffer(device, size_bytes, MemoryKind::managed) {}

    BufferView view() const { return device_view(); }
    operator BufferView() const { return view(); }  // NOLINT(google-explicit-constructor): as DeviceBuffer
    std::byte* data() const { return host_data(); }
    template <class T>
    std::span<T> as() const {
        static_assert(std::is_trivially_copyable_v<T>);
        return {reinterpret_cast<T*>(data()), size_bytes() / sizeof(T)};
    }
};

// Copies. Sizes must match exactly (InvalidArgumentError otherwise).
void copy(BufferView dst, std::span<const std::byte> src);  // host to device
void copy(std::span<std::byte> dst, BufferView src);        // device to host
void copy(BufferView dst, BufferView src);                  // device to device
void copy_async(BufferView dst, std::span<const std::byte> src, StreamRef stream);
void copy_async(std::span<std::byte> dst, BufferView src, StreamRef stream);
void copy_async(BufferView dst, BufferView src, StreamRef stream);

// Sets every byte of dst to value.
void memset(BufferView dst, std::uint8_t value);
void memset_async(BufferView dst, std::uint8_t value, StreamRef stream);

// Typed host spans. A span of const elements is a source only: copying into one does not compile.
template <class T>
concept WritableElement = !std::is_const_v<T>;

template <class T>
void copy(BufferView dst, std::span<const T> src) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy(dst, std::as_bytes(src));
}
template <WritableElement T>
void copy(std::span<T> dst, BufferView src) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy(std::as_writable_bytes(dst), src);
}
template <class T>
void copy_async(BufferView dst, std::span<const T> src, StreamRef stream) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy_async(dst, std::as_bytes(src), stream);
}
template <WritableElement T>
void copy_async(std::span<T> dst, BufferView src, StreamRef stream) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy_async(std::as_writable_bytes(dst), src, stream);
}

template <class T>
DeviceBuffer DeviceBuffer::from_host(std::span<const T> host, Device device) {
    DeviceBuffer buffer(device, host.size_bytes());
    copy(buffer.view(), host);
    return buffer;
}

}  // namespace gpukit
