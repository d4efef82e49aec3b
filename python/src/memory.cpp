// python/src/memory.cpp: page-locked host memory, behind gpukit.pinned_empty's NumPy arrays.
//
// Device memory belongs to arrays (array.cpp): gpukit::Array owns it and moves it to and from the host.
#include <cstdint>

#include "bindings.hpp"
#include "gpukit/memory.hpp"

namespace nb = nanobind;

namespace gpukit::python {

namespace {

class PinnedMemory {
public:
    PinnedMemory(Device device, std::size_t size_bytes) : buffer_(device, size_bytes) {}

    std::uintptr_t address() const { return reinterpret_cast<std::uintptr_t>(buffer_.data()); }
    std::size_t size_bytes() const noexcept { return buffer_.size_bytes(); }

private:
    PinnedBuffer buffer_;
};

}  // namespace

void bind_memory(nb::module_& m) {
    nb::class_<PinnedMemory>(m, "PinnedMemory", "Page-locked host memory, freed with this object.")
        .def(nb::init<Device, std::size_t>(), nb::arg("device"), nb::arg("size_bytes"))
        .def_prop_ro("address", &PinnedMemory::address)
        .def_prop_ro("size_bytes", &PinnedMemory::size_bytes);
}

}  // namespace gpukit::python
