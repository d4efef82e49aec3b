// python/src/python_refs.hpp: Python references that C++ objects hold, released safely from any
// thread, and how gpukit's owners wait for the device while the GIL is held.
#pragma once

#include <nanobind/nanobind.h>

#include <chrono>
#include <memory>
#include <optional>

#include "arguments.hpp"
#include "gpukit/array_memory.hpp"

namespace gpukit::python {

// True while the interpreter shuts down: no other thread may take the GIL then.
bool interpreter_finalizing() noexcept;

// True once Python runs its atexit callbacks (gpukit's is registered when the extension loads):
// from then on a thread that is not Python's main thread does not come back to Python.
bool python_exiting() noexcept;
void register_python_exit() noexcept;

// As nb::gil_scoped_release (also as a call guard), except for a thread that comes back once
// Python is exiting (a daemon thread launching kernels): it waits there for the process to end.
// Python would end it on taking the GIL (pthread_exit), and that unwinding through C++ frames
// that cannot be unwound (destructors) ends the whole process with std::terminate.
class GilRelease {
public:
    GilRelease() noexcept;
    ~GilRelease();
    GilRelease(const GilRelease&) = delete;
    GilRelease& operator=(const GilRelease&) = delete;

private:
    PyThreadState* state_;
};

// Drops one reference from any thread, with or without the GIL; nothing once Python has shut down
// (the object is then left to the process's end).
void release_reference(PyObject* object) noexcept;

// A C++ owner of one reference to `object`, released by release_reference.
std::shared_ptr<const void> hold_reference(nanobind::handle object);

// Makes gpukit's array memory owners wait for the device without the GIL (so that other Python
// threads, which the device's work may be waiting on, run meanwhile), except while the
// interpreter shuts down. Called once when the extension loads.
void install_device_wait() noexcept;

// `waitable.synchronize()` (a Device, a StreamRef or an Event) as Python calls it, with `timeout`
// (None, or seconds) passed on: a launch error deferred earlier is raised first, and the wait runs
// without the GIL (Ctrl-C still reaches it through the wait interrupt check).
template <class Waitable>
void synchronize_for_python(const Waitable& waitable, nanobind::handle timeout_object) {
    const std::optional<double> timeout = to_timeout(timeout_object, "timeout");
    raise_deferred_launch_error();
    GilRelease unlocked;
    if (timeout)
        waitable.synchronize(std::chrono::duration<double>(*timeout));
    else
        waitable.synchronize();
}

}  // namespace gpukit::python
