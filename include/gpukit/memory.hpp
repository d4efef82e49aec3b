// gpukit/memory.hpp: device buffers, page-locked host buffers, copies and memset.
//
// DeviceBuffer and PinnedBuffer own their memory and are move-only; BufferView is the cheap
// non-owning reference that copies, memsets and kernel launches take. Synchronous calls return
// when the work is done; *_async calls enqueue on a stream and return at once (host memory given
// to them must stay alive, and should be a PinnedBuffer for the copy to overlap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "gpukit/device.hpp"
#include "gpukit/stream.hpp"

namespace gpukit {

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

class DeviceBuffer {
public:
    // Allocates on the current device (or `device`). Zero bytes allocate nothing. Throws
    // OutOfMemoryError with the requested and free bytes when the device cannot hold it.
    explicit DeviceBuffer(std::size_t size_bytes);
    DeviceBuffer(Device device, std::size_t size_bytes);
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    // Allocates and fills from host memory.
    template <class T>
    static DeviceBuffer from_host(std::span<const T> host, Device device = Device::current());

    // Each accessor throws UsageError on a moved-from buffer.
    BufferView view() const;
    operator BufferView() const { return view(); }
    Device device() const;
    std::uint64_t address() const;
    std::size_t size_bytes() const;

private:
    void require_live(const char* action) const;

    detail::Backend* backend_ = nullptr;  // null once moved from
    int ordinal_ = 0;
    std::uint64_t address_ = 0;
    std::size_t size_ = 0;
};

// Page-locked host memory: the only host memory async copies overlap with.
class PinnedBuffer {
public:
    explicit PinnedBuffer(std::size_t size_bytes);
    PinnedBuffer(Device device, std::size_t size_bytes);
    ~PinnedBuffer();
    PinnedBuffer(PinnedBuffer&& other) noexcept;
    PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;

    std::byte* data() const;  // throws UsageError on a moved-from buffer
    std::size_t size_bytes() const noexcept { return size_; }
    std::span<std::byte> bytes() const { return {data(), size_}; }
    template <class T>
    std::span<T> as() const {
        static_assert(std::is_trivially_copyable_v<T>);
        return {reinterpret_cast<T*>(data()), size_ / sizeof(T)};
    }

private:
    detail::Backend* backend_ = nullptr;
    int ordinal_ = 0;
    std::byte* data_ = nullptr;
    std::size_t size_ = 0;
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

// Typed host spans.
template <class T>
void copy(BufferView dst, std::span<const T> src) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy(dst, std::as_bytes(src));
}
template <class T>
    requires(!std::is_const_v<T>)
void copy(std::span<T> dst, BufferView src) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy(std::as_writable_bytes(dst), src);
}
template <class T>
void copy_async(BufferView dst, std::span<const T> src, StreamRef stream) {
    static_assert(std::is_trivially_copyable_v<T>);
    copy_async(dst, std::as_bytes(src), stream);
}
template <class T>
    requires(!std::is_const_v<T>)
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
