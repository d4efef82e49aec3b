// python/src/python_refs.cpp: see python_refs.hpp.
#include "python_refs.hpp"

#include "gpukit/array_memory.hpp"

namespace nb = nanobind;

namespace gpukit::python {

bool interpreter_finalizing() noexcept {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing();
#else
    return _Py_IsFinalizing();
#endif
}

void release_reference(PyObject* object) noexcept {
    if (!object || !Py_IsInitialized()) return;
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
    nb::gil_scoped_release unlocked;
    device.synchronize();
}

}  // namespace

void install_device_wait() noexcept { set_device_wait(&wait_without_the_gil); }

}  // namespace gpukit::python
