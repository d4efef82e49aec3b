// python/src/stream_event.cpp: gpukit.Stream, gpukit.Event and the current stream.
//
// The current stream is C++'s, per thread and per device (gpukit/current_stream.hpp): launches,
// copies and event records without a stream go to it. `with stream:` and stream.use() make a
// stream current for its device, holding the Python object while it is; get_current_stream()
// gives that object back (Stream.null when the default stream is current).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arguments.hpp"
#include "bindings.hpp"
#include "gpukit/array_memory.hpp"
#include "gpukit/event.hpp"
#include "python_refs.hpp"
#include "python_stream.hpp"

namespace nb = nanobind;

namespace gpukit::python {

namespace {

// Stream.null, made once: the object get_current_stream() gives for a default stream. Borrowed:
// the class holds it, and the class outlives every call.
PyObject* null_stream = nullptr;

// The scopes `with stream:` blocks entered on this thread, innermost last.
std::vector<std::unique_ptr<StreamScope>>& entered_streams() {
    thread_local std::vector<std::unique_ptr<StreamScope>> scopes;
    return scopes;
}

nb::object current_stream_object() {
    const Device device = Device::current();
    const StreamRef stream = current_stream(device);
    if (stream.is_default()) return nb::borrow(null_stream);
    // Only these bindings make streams current with an owner in this process: the Python object.
    if (const auto owner = current_stream_owner(device))
        return nb::borrow(static_cast<PyObject*>(const_cast<void*>(owner.get())));
    return nb::cast(PythonStream(stream));  // made current by C++ code alone
}

std::string hex(std::uintptr_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

}  // namespace

StreamRef stream_argument(nb::handle stream, const Device& device) {
    if (stream.is_none()) return current_stream(device);
    return to_instance<PythonStream>(stream, "stream", "gpukit.Stream or None (the current stream)").for_device(device);
}

void bind_stream_event(nb::module_& m) {
    nb::class_<PythonStream> stream_class(
        m, "Stream", nb::is_weak_referenceable(),
        "A stream: work enqueued on it runs in order; work on different streams may overlap.\n\n"
        "``Stream()`` creates a blocking stream on the current device (``non_blocking=True`` for one that does not "
        "wait for the default stream). ``Stream.null`` is the default stream of whichever device the work runs on: "
        "work on it waits for earlier work on every blocking stream, and blocking streams wait for it. ``with "
        "stream:`` makes a stream current for its device on the calling thread until the block ends; launches, "
        "copies and :func:`gpukit.benchmark` without an explicit ``stream=`` use the current stream.");
    stream_class
        .def(
            "__init__",
            [](PythonStream* self, nb::handle non_blocking, nb::handle device) {
                new (self) PythonStream(to_device(device, "device"), to_bool(non_blocking, "non_blocking")
                                                                         ? StreamFlags::non_blocking
                                                                         : StreamFlags::blocking);
            },
            nb::arg("non_blocking").none() = false, nb::arg("device") = nb::none(),
            nb::sig("def __init__(self, non_blocking: bool = False, device: Device | None = None) -> None"))
        .def_prop_ro("device", &PythonStream::device,
                     "The device the stream belongs to (the current device for :attr:`Stream.null`).")
        .def_prop_ro("is_default", &PythonStream::is_default, "True for :attr:`Stream.null`.")
        .def_prop_ro("ptr", &PythonStream::handle,
                     "The native handle as an int (a ``CUstream``); 0 for the default stream.")
        .def(
            "synchronize",
            [](const PythonStream& s, nb::handle timeout) {
                synchronize_for_python(s.for_device(Device::current()), timeout);
            },
            nb::arg("timeout").none() = nb::none(),
            nb::sig("def synchronize(self, timeout: float | None = None) -> None"),
            "Waits until all work enqueued on the stream has finished; ``timeout`` as for "
            ":meth:`Device.synchronize`.")
        .def(
            "done", [](const PythonStream& s) { return s.for_device(Device::current()).query(); },
            "True when all work enqueued so far has finished.")
        .def(
            "wait_event",
            [](const PythonStream& s, nb::handle event_object) {
                const Event& event = to_instance<Event>(event_object, "event", "gpukit.Event");
                s.for_device(event.device()).wait(event);
            },
            nb::arg("event").none(), nb::sig("def wait_event(self, event: Event) -> None"),
            "Work enqueued on this stream after this call waits until ``event`` has completed.")
        .def(
            "record",
            [](nb::handle self, nb::handle event) {
                nb::object target = event.is_none() ? nb::cast(Event(Device::current())) : nb::borrow(event);
                Event& recorded = to_instance<Event>(target, "event", "gpukit.Event or None (a new one)");
                recorded.record(stream_argument(self, recorded.device()));
                return target;
            },
            nb::arg("event") = nb::none(), "Records ``event`` (a new one when None) on this stream and returns it.")
        .def(
            "use",
            [](nb::handle self) {
                const PythonStream& s = *nb::inst_ptr<PythonStream>(self);
                const Device device = s.device();
                set_current_stream(s.for_device(device), s.is_default() ? nullptr : hold_reference(self));
                return nb::borrow(self);
            },
            "Makes this the current stream of its device on the calling thread outside any ``with`` block; returns "
            "self.")
        .def("__enter__",
             [](nb::handle self) {
                 const PythonStream& s = *nb::inst_ptr<PythonStream>(self);
                 const Device device = s.device();
                 entered_streams().push_back(std::make_unique<StreamScope>(
                     s.for_device(device), s.is_default() ? nullptr : hold_reference(self)));
                 return nb::borrow(self);
             })
        .def("__exit__",
             [](nb::handle, const nb::args&) {
                 auto& scopes = entered_streams();
                 if (!scopes.empty()) scopes.pop_back();
             })
        .def("__eq__",
             [](const PythonStream& a, nb::handle other) -> nb::object {
                 if (!nb::isinstance<PythonStream>(other)) return nb::borrow(Py_NotImplemented);
                 const PythonStream& b = *nb::inst_ptr<PythonStream>(other);
                 if (a.is_default() || b.is_default()) return nb::bool_(a.is_default() == b.is_default());
                 return nb::bool_(a.handle() == b.handle() && a.device() == b.device());
             })
        .def("__hash__", [](const PythonStream& s) { return nb::hash(nb::int_(s.handle())); })
        .def("__repr__", [](nb::handle self) {
            const PythonStream& s = *nb::inst_ptr<PythonStream>(self);
            if (s.is_default()) return std::string("<gpukit.Stream null (the default stream)>");
            return "<gpukit.Stream " + hex(s.handle()) + " on " +
                   nb::cast<std::string>(nb::repr(nb::cast(s.device()))) + ">";
        });
    nb::object null = nb::cast(PythonStream());
    stream_class.attr("null") = null;
    null_stream = null.ptr();

    nb::class_<Event>(m, "Event", nb::is_weak_referenceable(),
                      "A marker in a stream, for ordering streams and timing the work between two of them.\n\n"
                      "``Event()`` times (``timing=False`` makes a lighter one that cannot). ``record(stream)`` "
                      "captures the work enqueued on the stream so far; ``synchronize()`` waits for it.")
        .def(
            "__init__",
            [](Event* self, nb::handle timing, nb::handle device) {
                new (self) Event(to_device(device, "device"),
                                 to_bool(timing, "timing") ? EventFlags::timing : EventFlags::no_timing);
            },
            nb::arg("timing").none() = true, nb::arg("device") = nb::none(),
            nb::sig("def __init__(self, timing: bool = True, device: Device | None = None) -> None"))
        .def_prop_ro("device", &Event::device, "The device the event belongs to.")
        .def(
            "record", [](Event& e, nb::handle stream) { e.record(stream_argument(stream, e.device())); },
            nb::arg("stream") = nb::none(),
            "Captures the work enqueued so far on ``stream`` (default: the current stream).")
        .def(
            "synchronize", [](const Event& e, nb::handle timeout) { synchronize_for_python(e, timeout); },
            nb::arg("timeout").none() = nb::none(),
            nb::sig("def synchronize(self, timeout: float | None = None) -> None"),
            "Waits until the captured work has finished; ``timeout`` as for :meth:`Device.synchronize`.")
        .def("done", &Event::query, "True when the captured work has finished (or nothing was recorded).")
        .def_prop_ro("is_recorded", &Event::is_recorded, "True once :meth:`record` has been called.")
        .def(
            "elapsed_time",
            [](const Event& start, nb::handle end) {
                return Event::elapsed_ms(start, to_instance<Event>(end, "end", "gpukit.Event"));
            },
            nb::arg("end").none(), nb::sig("def elapsed_time(self, end: Event) -> float"),
            "Milliseconds from this event to ``end``; both recorded, ``end`` completed (synchronise it first).")
        .def("__repr__", [](const Event& e) {
            return std::string("<gpukit.Event ") + (e.is_recorded() ? "recorded" : "not recorded") + " on " +
                   nb::cast<std::string>(nb::repr(nb::cast(e.device()))) + ">";
        });

    // The streams current on the main thread hold their Python objects: let go of them while the
    // interpreter can still free them.
    nb::module_::import_("atexit").attr("register")(nb::cpp_function([] {
        entered_streams().clear();
        reset_current_streams();
    }));

    m.def("get_current_stream", &current_stream_object, nb::sig("def get_current_stream() -> Stream"),
          "The calling thread's current stream of the current device: the innermost ``with stream:``, or the last "
          "``stream.use()``, else :attr:`Stream.null`.");
    m.def(
        "get_elapsed_time",
        [](nb::handle start_object, nb::handle end_object) {
            const Event& start = to_instance<Event>(start_object, "start_event", "gpukit.Event");
            const Event& end = to_instance<Event>(end_object, "end_event", "gpukit.Event");
            return Event::elapsed_ms(start, end);
        },
        nb::arg("start_event").none(), nb::arg("end_event").none(),
        nb::sig("def get_elapsed_time(start_event: Event, end_event: Event) -> float"),
        "Milliseconds between two recorded events (as ``cupy.cuda.get_elapsed_time``).");
}

}  // namespace gpukit::python
