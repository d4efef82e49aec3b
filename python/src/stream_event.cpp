// python/src/stream_event.cpp: streams and events (the Python layer adds the current-stream stack).
#include <nanobind/stl/optional.h>

#include <cstdint>
#include <optional>

#include "bindings.hpp"
#include "gpukit/event.hpp"
#include "gpukit/stream.hpp"
#include "memory_owner.hpp"
#include "stream_arg.hpp"

namespace nb = nanobind;

namespace gpukit::python {

void bind_stream_event(nb::module_& m) {
    nb::class_<Stream>(m, "Stream", "An owned stream of the device it was made on.")
        .def(
            "__init__",
            [](Stream* self, std::optional<Device> device, bool non_blocking) {
                const auto flags = non_blocking ? StreamFlags::non_blocking : StreamFlags::blocking;
                new (self) Stream(device.value_or(Device::current()), flags);
            },
            nb::arg("device") = nb::none(), nb::arg("non_blocking") = false)
        .def_prop_ro("device", &Stream::device)
        .def("synchronize",
             [](const Stream& s) {
                 raise_deferred_launch_error();
                 nb::gil_scoped_release unlocked;
                 s.synchronize();
             })
        .def("query", &Stream::query)
        .def("wait", &Stream::wait, nb::arg("event"))
        .def_prop_ro("native_handle",
                     [](const Stream& s) { return reinterpret_cast<std::uintptr_t>(s.ref().native_handle()); });

    m.def(
        "synchronize_default_stream",
        [](const Device& device) {
            raise_deferred_launch_error();
            nb::gil_scoped_release unlocked;
            StreamRef::default_stream(device).synchronize();
        },
        nb::arg("device"), "Waits for the device's legacy default stream.");
    m.def(
        "query_default_stream", [](const Device& device) { return StreamRef::default_stream(device).query(); },
        nb::arg("device"), "True when all work enqueued on the device's default stream has finished.");
    m.def(
        "default_stream_wait", [](const Device& device, const Event& event) { StreamRef::default_stream(device).wait(event); },
        nb::arg("device"), nb::arg("event"));

    nb::class_<Event>(m, "Event", "An event of the device it was made on.")
        .def(
            "__init__",
            [](Event* self, std::optional<Device> device, bool timing) {
                new (self) Event(device.value_or(Device::current()), timing ? EventFlags::timing : EventFlags::no_timing);
            },
            nb::arg("device") = nb::none(), nb::arg("timing") = true)
        .def_prop_ro("device", &Event::device)
        .def(
            "record", [](Event& e, const Stream* stream) { e.record(stream_or_default(stream, e.device())); },
            nb::arg("stream").none())
        .def("synchronize",
             [](const Event& e) {
                 raise_deferred_launch_error();
                 nb::gil_scoped_release unlocked;
                 e.synchronize();
             })
        .def("query", &Event::query)
        .def_prop_ro("is_recorded", &Event::is_recorded)
        .def_static("elapsed_ms", &Event::elapsed_ms, nb::arg("start"), nb::arg("end"),
                    "Milliseconds between two recorded timing events; `end` must have completed.");
}

}  // namespace gpukit::python
