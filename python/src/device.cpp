// python/src/device.cpp: backends, devices, their properties and the current device.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <limits>
#include <optional>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/array_memory.hpp"
#include "gpukit/device.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

nb::tuple dim3_tuple(const Dim3& d) { return nb::make_tuple(d.x, d.y, d.z); }

// The devices that `with device:` blocks replaced, innermost last, per thread.
std::vector<Device>& entered_devices() {
    thread_local std::vector<Device> previous;
    return previous;
}

}  // namespace

void bind_device(nb::module_& m) {
    nb::class_<LaunchLimits>(m, "LaunchLimits", "The limits every launch on a device is checked against.")
        .def_ro("max_threads_per_block", &LaunchLimits::max_threads_per_block)
        .def_prop_ro("max_block_dim", [](const LaunchLimits& l) { return dim3_tuple(l.max_block_dim); })
        .def_prop_ro("max_grid_dim", [](const LaunchLimits& l) { return dim3_tuple(l.max_grid_dim); })
        .def_ro("shared_memory_per_block", &LaunchLimits::shared_memory_per_block,
                "Bytes of shared memory (static and dynamic) a block gets without opting in.")
        .def_ro("shared_memory_per_block_optin", &LaunchLimits::shared_memory_per_block_optin,
                "The most shared memory a kernel may opt in to.")
        .def_ro("warp_size", &LaunchLimits::warp_size);

    nb::class_<DeviceProperties>(m, "DeviceProperties", "What a device is and what it can do.")
        .def_ro("backend", &DeviceProperties::backend, "The backend's name.")
        .def_ro("ordinal", &DeviceProperties::ordinal)
        .def_ro("name", &DeviceProperties::name)
        .def_prop_ro("compute_capability",
                     [](const DeviceProperties& p) {
                         return std::make_pair(p.compute_capability.major, p.compute_capability.minor);
                     })
        .def_ro("pci_bus_id", &DeviceProperties::pci_bus_id)
        .def_ro("total_memory", &DeviceProperties::total_memory)
        .def_ro("multiprocessor_count", &DeviceProperties::multiprocessor_count)
        .def_ro("limits", &DeviceProperties::limits)
        .def_ro("shared_memory_per_multiprocessor", &DeviceProperties::shared_memory_per_multiprocessor)
        .def_ro("total_constant_memory", &DeviceProperties::total_constant_memory)
        .def_ro("registers_per_block", &DeviceProperties::registers_per_block)
        .def_ro("registers_per_multiprocessor", &DeviceProperties::registers_per_multiprocessor)
        .def_ro("max_threads_per_multiprocessor", &DeviceProperties::max_threads_per_multiprocessor)
        .def_ro("clock_rate_khz", &DeviceProperties::clock_rate_khz)
        .def_ro("memory_clock_rate_khz", &DeviceProperties::memory_clock_rate_khz)
        .def_ro("memory_bus_width_bits", &DeviceProperties::memory_bus_width_bits)
        .def_ro("l2_cache_bytes", &DeviceProperties::l2_cache_bytes)
        .def_ro("target", &DeviceProperties::target,
                "What kernels are compiled for: 'sm_90', or the host's architecture on a simulated device.")
        .def("architecture", &DeviceProperties::architecture);

    nb::class_<Device>(m, "Device",
                       "A GPU, or a simulated device. Device() is the current device; Device(n) is device n of the "
                       "selected backend. `with device:` makes it current inside the block.")
        .def(
            "__init__",
            [](Device* self, nb::handle ordinal) {
                new (self) Device(ordinal.is_none() ? Device::current()
                                                    : gpukit::device(static_cast<int>(
                                                          to_int64(ordinal, "id", std::numeric_limits<int>::min(),
                                                                   std::numeric_limits<int>::max()))));
            },
            nb::arg("id") = nb::none(), nb::sig("def __init__(self, id: int | None = None) -> None"))
        .def_prop_ro("id", &Device::ordinal, "The device's ordinal within its backend.")
        .def_prop_ro(
            "backend", [](const Device& d) { return d.backend_info().name; }, "The backend's name.")
        .def_prop_ro("backend_info", &Device::backend_info, nb::rv_policy::reference,
                     "The backend: its name, label and capabilities.")
        .def_prop_ro("name", [](const Device& d) { return std::string(d.name()); })
        .def_prop_ro("properties", &Device::properties, nb::rv_policy::reference_internal)
        .def_prop_ro("compute_capability",
                     [](const Device& d) {
                         const auto cc = d.properties().compute_capability;
                         return std::make_pair(cc.major, cc.minor);
                     })
        .def_prop_ro(
            "mem_info",
            [](const Device& d) {
                const auto info = d.memory_info();
                return std::make_pair(info.free_bytes, info.total_bytes);
            },
            "(free bytes, total bytes) now.")
        .def("use", &Device::use, "Makes this the current device of the calling thread.")
        .def(
            "synchronize", [](const Device& d, nb::handle timeout) { synchronize_for_python(d, timeout); },
            nb::arg("timeout").none() = nb::none(),
            nb::sig("def synchronize(self, timeout: float | None = None) -> None"),
            "Waits for all work on the device to finish; Ctrl-C interrupts the wait (KeyboardInterrupt). With "
            "``timeout`` (seconds), raises WaitTimeoutError past it. On the simulator an interrupted or timed-out "
            "wait gives up the device's running work, so that the device is usable again.")
        .def("describe", &Device::describe)
        .def("can_access_peer", &Device::can_access_peer, nb::arg("peer"),
             "Whether this device can reach `peer`'s memory directly (peer access over NVLink or PCIe); False for "
             "itself. Copies between devices without it go through the host.")
        .def("enable_peer_access", &Device::enable_peer_access, nb::arg("peer"),
             "Lets this device reach `peer`'s memory (once per pair; later calls return at once). ValueError where "
             "can_access_peer(peer) is False. Copies between devices enable it themselves.")
        .def("__enter__",
             [](const Device& d) {
                 entered_devices().push_back(Device::current());
                 d.use();
                 return d;
             })
        .def("__exit__",
             [](const Device&, const nb::args&) {
                 auto& previous = entered_devices();
                 if (previous.empty()) return;
                 const Device restore = previous.back();
                 previous.pop_back();
                 restore.use();
             })
        .def("__eq__", [](const Device& a, const Device& b) { return a == b; })
        .def("__eq__", [](const Device&, nb::handle) { return false; })
        .def("__hash__", [](const Device& d) { return nb::hash(nb::make_tuple(d.backend_info().name, d.ordinal())); })
        .def("__repr__", [](const Device& d) {
            return "<gpukit.Device " + std::to_string(d.ordinal()) + " (" + std::string(d.name()) + ") on " +
                   d.backend_info().name + ">";
        });

    m.def("devices", &devices, "Every device of the selected backend.");
    m.def("all_devices", &all_devices, "Every device of every backend that can run here.");
    m.def("current_device", &Device::current, "The calling thread's current device.");
    m.def(
        "checked_device", [](nb::handle value) { return to_device(value, "device"); }, nb::arg("device").none(),
        "`device` when it is a gpukit.Device, the current device for None; TypeError for anything else.");
}

}  // namespace gpukit::python
