// python/src/python_refs.cpp: see python_refs.hpp.
#include "python_refs.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include "gpukit/array_memory.hpp"

namespace nb = nanobind;

namespace gpukit::python {

namespace {

std::atomic<bool> exiting{false};
std::atomic<unsigned long> exiting_thread{0};  // the thread that runs the atexit callbacks and finalises

[[noreturn]] void wait_for_the_process_to_end() {
    for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

}  // namespace

bool python_exiting() noexcept { return exiting.load() && PyThread_get_thread_ident() != exiting_thread.load(); }

void register_python_exit() noexcept {
    try {
        nb::module_::import_("atexit").attr("register")(nb::cpp_function([] {
            exiting_thread.store(PyThread_get_thread_ident());
            exiting.store(true);
            // Threads kept from coming back hold their objects to the end: not leaks to warn of.
            nb::set_leak_warnings(false);
            // The threads already waiting for the GIL in GilRelease get it now, before the
            // interpreter finalises (when taking it ends a thread).
            GilRelease unlocked;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }));
    } catch (...) {
        PyErr_Clear();  // without it, daemon threads may still end the process at exit
    }
}

GilRelease::GilRelease() noexcept : state_(PyEval_SaveThread()) {}

GilRelease::~GilRelease() {
    if (exiting.load() && PyThread_get_thread_ident() != exiting_thread.load()) wait_for_the_process_to_end();
    PyEval_RestoreThread(state_);
}

bool interpreter_finalizing() noexcept {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing();
#else
    return _Py_IsFinalizing();
#endif
}

void release_reference(PyObject* object) noexcept {
    // Once Python exits, the object is left to the process's end: taking the GIL could end this thread.
    if (!object || !Py_IsInitialized() || interpreter_finalizing() || python_exiting()) return;
    const PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(object);
    PyGILState_Release(state);
}

std::shared_ptr<const void> hold_reference(nb::handle object) {
    return std::shared_ptr<const void>(object.inc_ref().ptr(), [](const void* held) {
        release_reference(static_cast<PyObject*>(const_cast<void*>(held)));
    });
}

namespace {

// A memory owner may die with or without the GIL (an array dropped by Python code, or by C++
// work the bindings run with the GIL released).
void wait_without_the_gil(const Device& device) {
    if (!PyGILState_Check() || interpreter_finalizing()) return device.synchronize();
    GilRelease unlocked;
    device.synchronize();
}

}  // namespace

void install_device_wait() noexcept { set_device_wait(&wait_without_the_gil); }

}  // namespace gpukit::python
