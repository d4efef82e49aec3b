// python/src/memory_pool.cpp: gpukit.MemoryPool, the caching allocator arrays use, with CuPy's
// names (cupy.get_default_memory_pool(), used_bytes(), free_all_blocks(), set_limit(size=, fraction=)).
#include <nanobind/stl/string.h>

#include <cmath>
#include <string>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/memory_pool.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {

namespace {

// CuPy's set_limit: a size in bytes, or a fraction of the device's memory; neither (or 0): none.
void set_limit(const MemoryPool& pool, nb::handle size, nb::handle fraction) {
    if (!size.is_none() && !fraction.is_none()) raise_value_error("set_limit takes size or fraction, not both");
    if (!fraction.is_none()) {
        if (PyBool_Check(fraction.ptr()) || !PyNumber_Check(fraction.ptr()))
            raise_type_error("fraction must be a number in [0, 1], not " + describe_value(fraction));
        const double share = nb::cast<double>(nb::float_(fraction));
        if (!(share >= 0.0 && share <= 1.0))
            raise_value_error("fraction must be in [0, 1] (a share of the device's memory), not " + str_of(fraction));
        const auto total = static_cast<double>(pool.device().properties().total_memory);
        return pool.set_limit(static_cast<std::size_t>(std::floor(share * total)));
    }
    pool.set_limit(size.is_none() ? 0 : to_size(size, "size"));
}

std::string describe(const MemoryPool& pool) {
    return "<gpukit.MemoryPool of " + pool.device().describe() + ": " + std::to_string(pool.used_bytes()) +
           " bytes used, " + std::to_string(pool.total_bytes()) + " held" + (pool.caching() ? "" : ", not caching") +
           ">";
}

}  // namespace

void bind_memory_pool(nb::module_& m) {
    nb::class_<MemoryPool>(m, "MemoryPool",
                           "A device's caching allocator, which arrays allocate from (as CuPy's MemoryPool): memory "
                           "an array lets go of is kept for the next array, in its stream's order, instead of going "
                           "back to the device. Out of memory, the pool gives back what it cached and tries again "
                           "before raising gpukit.OutOfMemoryError. On the simulator it does not cache, so that "
                           "check mode sees each array as an allocation of its own; GPUKIT_MEMORY_POOL=on|off|auto "
                           "chooses.")
        .def_prop_ro(
            "device", [](const MemoryPool& pool) { return pool.device(); }, "The device whose memory it holds.")
        .def("used_bytes", &MemoryPool::used_bytes, "Bytes of the blocks live arrays hold (rounded up to 512 bytes).")
        .def("total_bytes", &MemoryPool::total_bytes,
             "Bytes the pool holds on the device: used_bytes() and the cached free blocks.")
        .def("free_bytes", &MemoryPool::free_bytes, "Bytes of the cached free blocks.")
        .def("n_free_blocks", &MemoryPool::n_free_blocks, "How many free blocks the pool caches.")
        .def(
            "free_all_blocks",
            [](const MemoryPool& pool) {
                GilRelease unlocked;  // giving memory back may wait for the device
                pool.free_all_blocks();
            },
            "Gives the cached blocks back to the device (a segment that still holds a live array's block stays).")
        .def("set_limit", &set_limit, nb::arg("size").none() = nb::none(), nb::arg("fraction").none() = nb::none(),
             nb::sig("def set_limit(self, size: int | None = None, fraction: float | None = None) -> None"),
             "The most bytes the pool may hold on the device: `size` bytes, or `fraction` of the device's memory; "
             "neither, or 0: no limit. Past it, allocations raise gpukit.OutOfMemoryError once the cached blocks "
             "are given back.")
        .def("get_limit", &MemoryPool::limit, "The limit set_limit set, in bytes; 0: none.")
        .def_prop_ro("caching", &MemoryPool::caching, "Whether freed memory is kept for the next array.")
        .def(
            "set_caching", [](const MemoryPool& pool, nb::handle on) { pool.set_caching(to_bool(on, "on")); },
            nb::arg("on").none(), nb::sig("def set_caching(self, on: bool) -> None"),
            "Keep freed memory (True), or give every array's memory back to the device when it goes (False, "
            "for debugging; it gives the cached blocks back now).")
        .def("__repr__", &describe);

    m.def(
        "get_default_memory_pool", [](nb::handle device) { return default_memory_pool(to_device(device, "device")); },
        nb::arg("device").none() = nb::none(),
        nb::sig("def get_default_memory_pool(device: Device | None = None) -> MemoryPool"),
        "The pool arrays on `device` (None: the current device) allocate from.");
}

}  // namespace gpukit::python
