// python/src/warnings.cpp: gpukit's warnings (gpukit/warnings.hpp) given as Python's, through the
// warnings module: its filters apply, and under "error" the call that warned raises the warning.
#include <string>

#include "bindings.hpp"
#include "gpukit/warnings.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

void warn_in_python(const Warning& warning) {
    const std::string message(warning.message);
    if (interpreter_finalizing() || python_exiting()) return;  // no Python left to tell
    // The operation that warns may have let the GIL go.
    nb::gil_scoped_acquire gil;
    // stacklevel 1: the warning names the line of Python that called into gpukit.
    if (PyErr_WarnEx(PyExc_RuntimeWarning, message.c_str(), 1) != 0) throw nb::python_error();
}

}  // namespace

void install_warnings() { set_warning_handler(warn_in_python); }

}  // namespace gpukit::python
