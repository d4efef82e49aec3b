// python/src/memory.cpp: device and pinned allocations, copies and memset by address.
//
// The Python ndarray computes addresses and byte counts from its shape and strides; these calls
// move contiguous bytes between them and host buffers. With a stream they are asynchronous on it;
// with None they are synchronous on the device's default stream.
#include <nanobind/stl/optional.h>

#include <cstdint>
#include <optional>
#include <utility>

#include "bindings.hpp"
#include "host_buffer.hpp"
#include "memory_owner.hpp"
#include "stream_arg.hpp"

namespace nb = nanobind;

namespace gpukit::python {

namespace {
std::exception_ptr deferred_launch_error;  // guarded by the GIL

bool interpreter_finalizing() noexcept {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing();
#else
    return _Py_IsFinalizing();
#endif
}
}  // namespace

void defer_launch_error(std::exception_ptr error) noexcept {
    if (!deferred_launch_error) deferred_launch_error = std::move(error);
}

void raise_deferred_launch_error() {
    if (deferred_launch_error) std::rethrow_exception(std::exchange(deferred_launch_error, nullptr));
}

void MemoryOwner::wait_for_launches() noexcept {
    if (!used_by_launch_) return;
    try {
        if (interpreter_finalizing()) {  // no other thread may take the GIL now: wait holding it
            device_.synchronize();
            return;
        }
        nb::gil_scoped_release unlocked;
        device_.synchronize();
    } catch (...) {
        // The memory is freed all the same; the error reaches the user at the next synchronisation.
        defer_launch_error(std::current_exception());
    }
}

namespace {

BufferView device_range(const Device& device, std::uint64_t address, std::size_t size) {
    return BufferView(device, address, size);
}

}  // namespace

void bind_memory(nb::module_& m) {
    nb::class_<MemoryOwner>(m, "MemoryOwner", nb::is_weak_referenceable(), "Base of the owners of memory behind gpukit arrays.")
        .def_prop_ro("device", &MemoryOwner::device);

    nb::class_<DeviceMemory, MemoryOwner>(m, "DeviceMemory", nb::is_weak_referenceable(), "An allocation on a device, freed with this object.")
        .def(nb::init<Device, std::size_t>(), nb::arg("device"), nb::arg("size_bytes"))
        .def_prop_ro("address", &DeviceMemory::address)
        .def_prop_ro("size_bytes", &DeviceMemory::size_bytes);

    nb::class_<PinnedMemory>(m, "PinnedMemory", "Page-locked host memory, freed with this object.")
        .def(nb::init<Device, std::size_t>(), nb::arg("device"), nb::arg("size_bytes"))
        .def_prop_ro("address", &PinnedMemory::address)
        .def_prop_ro("size_bytes", &PinnedMemory::size_bytes);

    m.def(
        "copy_to_device",
        [](const Device& device, std::uint64_t dst, nb::handle host, const Stream* stream) {
            raise_deferred_launch_error();
            HostBuffer source(host, false);
            nb::gil_scoped_release unlocked;
            const auto dst_range = device_range(device, dst, source.bytes().size());
            if (stream)
                copy_async(dst_range, std::span<const std::byte>(source.bytes()), stream->ref());
            else
                copy(dst_range, std::span<const std::byte>(source.bytes()));
        },
        nb::arg("device"), nb::arg("dst"), nb::arg("host"), nb::arg("stream").none(),
        "Copies a contiguous host buffer to device address `dst`. Asynchronous on a stream: keep the "
        "host buffer alive and synchronise before reusing it.");
    m.def(
        "copy_to_host",
        [](const Device& device, nb::handle host, std::uint64_t src, const Stream* stream) {
            raise_deferred_launch_error();
            HostBuffer destination(host, true);
            nb::gil_scoped_release unlocked;
            const auto src_range = device_range(device, src, destination.bytes().size());
            if (stream)
                copy_async(destination.bytes(), src_range, stream->ref());
            else
                copy(destination.bytes(), src_range);
        },
        nb::arg("device"), nb::arg("host"), nb::arg("src"), nb::arg("stream").none(),
        "Copies len(host) bytes from device address `src` into a writable contiguous host buffer.");
    m.def(
        "copy_on_device",
        [](const Device& device, std::uint64_t dst, std::uint64_t src, std::size_t size, const Stream* stream) {
            raise_deferred_launch_error();
            nb::gil_scoped_release unlocked;
            if (stream)
                copy_async(device_range(device, dst, size), device_range(device, src, size), stream->ref());
            else
                copy(device_range(device, dst, size), device_range(device, src, size));
        },
        nb::arg("device"), nb::arg("dst"), nb::arg("src"), nb::arg("size_bytes"), nb::arg("stream").none(),
        "Copies `size_bytes` between two device addresses of one device.");
    m.def(
        "memset",
        [](const Device& device, std::uint64_t dst, std::size_t size, std::uint8_t value, const Stream* stream) {
            raise_deferred_launch_error();
            nb::gil_scoped_release unlocked;
            const auto range = device_range(device, dst, size);
            if (stream)
                memset_async(range, value, stream->ref());
            else
                gpukit::memset(range, value);
        },
        nb::arg("device"), nb::arg("dst"), nb::arg("size_bytes"), nb::arg("value"), nb::arg("stream").none(),
        "Sets `size_bytes` bytes at device address `dst` to `value`.");
}

}  // namespace gpukit::python
