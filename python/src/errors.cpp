// python/src/errors.cpp: every C++ gpukit exception becomes the matching gpukit Python exception.
//
// The Python classes live in gpukit/_errors.py, where they can inherit from both gpukit's base and
// the builtin a Python user catches (ValueError, MemoryError, ...). The translator builds them with
// the core's message and the fields the C++ exception carries.
#include "errors.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <exception>
#include <new>
#include <regex>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "gpukit/check.hpp"
#include "gpukit/device.hpp"
#include "gpukit/error.hpp"
#include "python_refs.hpp"

namespace nb = nanobind;

namespace gpukit::python {
namespace {

// Each C++ spelling a core message may use, and what a Python user writes instead. (Messages of
// C++-only APIs, Module::load_file and BufferView's copies, never reach Python: the test lists them.)
const std::vector<std::pair<std::regex, std::string>>& spellings() {
    static const std::vector<std::pair<std::regex, std::string>> table = [] {
        const std::pair<const char*, const char*> rows[] = {
            {R"(Kernel::set_max_dynamic_shared_bytes\((\d+)\))", "kernel.max_dynamic_shared_size_bytes = $1"},
            {R"(Kernel::set_max_dynamic_shared_bytes)", "kernel.max_dynamic_shared_size_bytes = ..."},
            {R"(Event::elapsed_ms)", "Event.elapsed_time"},
            {R"(Device::synchronize)", "Device.synchronize"},
            {R"(Stream::synchronize)", "Stream.synchronize"},
            {R"(Event::synchronize)", "Event.synchronize"},
            {R"(EventFlags::timing)", "timing=True (the default)"},
            {R"(LaunchConfig::check)", "check="},
            {R"(LaunchConfig::shared_bytes)", "shared_mem="},
            {R"(CompileOptions::name_expressions?\b)", "name_expressions="},
            {R"(CompileOptions::define\b)", "-D"},
            {R"(CompileOptions::include_dir\b)", "-I"},
            {R"(CompileOptions::std\b)", "-std="},
            {R"(CompileOptions::program_name\b)", "program_name="},
            {R"(CompileOptions::target\b)", "-arch="},
            {R"(CompileOptions::headers?\b)", "C++'s CompileOptions.header, not in Python"},
            {R"(gpukit::grid_for computes the grid)", "grid = (n + block - 1) // block"},
            {R"(gpukit::grid_for)", "(n + block - 1) // block"},
            {R"(DevicePtr\{array\.address\(\)\})", "gpukit.DevicePointer(array.data_ptr)"},
            {R"(UniqueId::create\(\))", "gpukit.collectives.UniqueId.create()"},
        };
        std::vector<std::pair<std::regex, std::string>> compiled;
        for (const auto& [cpp, python] : rows) compiled.emplace_back(std::regex(cpp), python);
        return compiled;
    }();
    return table;
}

// Raises gpukit._errors.<class_name>(message, **fields), the message in Python's words. Never
// throws: a failure to build the exception leaves that failure as the Python error instead.
void raise_python(const char* class_name, const char* cpp_message, const nb::dict& fields = {}) {
    try {
        const std::string message = python_spelling(cpp_message);
        nb::object type = nb::module_::import_("gpukit._errors").attr(class_name);
        nb::object error = type(message, **fields);
        PyErr_SetObject(type.ptr(), error.ptr());
    } catch (nb::python_error& failure) {
        failure.restore();
    } catch (const std::exception& failure) {
        PyErr_SetString(PyExc_RuntimeError, failure.what());
    }
}

nb::dict cuda_fields(const CudaError& e) {
    nb::dict fields;
    fields["action"] = e.action();
    fields["name"] = e.name();
    fields["code"] = e.code();
    fields["description"] = e.description();
    return fields;
}

// The exception Python's signal handlers raised while a wait for the device checked for an
// interrupt (KeyboardInterrupt from Ctrl-C): it is raised in place of the WaitInterruptedError the
// wait ends with. One per thread (only the main thread runs signal handlers).
struct PendingInterrupt {
    PyObject* type = nullptr;
    PyObject* value = nullptr;
    PyObject* traceback = nullptr;
};
thread_local PendingInterrupt pending_interrupt;

// The wait interrupt check (gpukit/device.hpp): runs Python's signal handlers, with the GIL.
bool run_python_signal_handlers() {
    // No handlers run any more; taking the GIL could end this thread.
    if (interpreter_finalizing() || python_exiting()) return false;
    const PyGILState_STATE state = PyGILState_Ensure();
    bool interrupted = false;
    if (PyErr_CheckSignals() != 0) {
        Py_XDECREF(pending_interrupt.type);
        Py_XDECREF(pending_interrupt.value);
        Py_XDECREF(pending_interrupt.traceback);
        PyErr_Fetch(&pending_interrupt.type, &pending_interrupt.value, &pending_interrupt.traceback);
        interrupted = pending_interrupt.type != nullptr;
    }
    PyGILState_Release(state);
    return interrupted;
}

nb::object index_tuple(const Dim3& d) { return nb::make_tuple(d.x, d.y, d.z); }

void translate(const std::exception_ptr& thrown, void*) {
    try {
        std::rethrow_exception(thrown);
    } catch (const KernelFaultError& e) {
        const FaultSite& site = e.site();
        nb::dict fields;
        fields["reason"] = std::string(to_string(e.kind()));
        fields["kernel"] = site.kernel;
        fields["block"] = index_tuple(site.block);
        fields["thread"] = site.thread_known ? index_tuple(site.thread) : nb::object(nb::none());
        fields["file"] = site.file.empty() ? nb::object(nb::none()) : nb::object(nb::str(site.file.c_str()));
        fields["line"] = site.line > 0 ? nb::object(nb::int_(site.line)) : nb::object(nb::none());
        fields["function"] =
            site.function.empty() ? nb::object(nb::none()) : nb::object(nb::str(site.function.c_str()));
        fields["address"] = site.address ? nb::object(nb::int_(site.address)) : nb::object(nb::none());
        raise_python("KernelFaultError", e.what(), fields);
    } catch (const LaunchTimeoutError& e) {
        nb::dict fields;
        fields["kernel"] = e.kernel();
        fields["limit_seconds"] = e.limit_seconds();
        fields["blocks_done"] = e.blocks_done();
        fields["blocks_total"] = e.blocks_total();
        raise_python("LaunchTimeoutError", e.what(), fields);
    } catch (const LaunchAbandonedError& e) {
        raise_python("LaunchAbandonedError", e.what());
    } catch (const WaitTimeoutError& e) {
        nb::dict fields;
        fields["timeout_seconds"] = e.timeout_seconds();
        raise_python("WaitTimeoutError", e.what(), fields);
    } catch (const WaitInterruptedError& e) {
        if (pending_interrupt.type) {
            // What the signal handler raised (KeyboardInterrupt), as if the wait had been Python code.
            PyErr_Restore(std::exchange(pending_interrupt.type, nullptr),
                          std::exchange(pending_interrupt.value, nullptr),
                          std::exchange(pending_interrupt.traceback, nullptr));
            return;
        }
        raise_python("WaitInterruptedError", e.what());
    } catch (const OutOfMemoryError& e) {
        nb::dict fields = cuda_fields(e);
        fields["requested_bytes"] = e.requested_bytes();
        fields["free_bytes"] = e.free_bytes();
        fields["total_bytes"] = e.total_bytes();
        raise_python("OutOfMemoryError", e.what(), fields);
    } catch (const ContextUnusableError& e) {
        nb::dict fields = cuda_fields(e);
        fields["first_failure"] = e.first_failure();
        raise_python("ContextUnusableError", e.what(), fields);
    } catch (const CudaError& e) {
        raise_python("CudaError", e.what(), cuda_fields(e));
    } catch (const CompileError& e) {
        nb::dict fields;
        fields["log"] = e.log();
        fields["program_name"] = e.program_name();
        fields["target"] = e.target();
        fields["options"] = e.options();
        fields["source"] = e.source();
        raise_python("CompileError", e.what(), fields);
    } catch (const LaunchConfigError& e) {
        raise_python("LaunchConfigError", e.what());
    } catch (const KernelArgumentError& e) {
        nb::dict fields;
        fields["parameter_index"] =
            e.parameter_index() < 0 ? nb::object(nb::none()) : nb::object(nb::int_(e.parameter_index()));
        raise_python("KernelArgumentError", e.what(), fields);
    } catch (const LaunchError& e) {
        raise_python("LaunchError", e.what());
    } catch (const KernelNotFoundError& e) {
        nb::dict fields;
        fields["name"] = e.name();
        fields["available"] = e.available();
        raise_python("KernelNotFoundError", e.what(), fields);
    } catch (const HazardError& e) {
        nb::dict fields;
        fields["hazard"] = nb::cast(e.hazard());
        raise_python("HazardError", e.what(), fields);
    } catch (const BackendUnavailableError& e) {
        raise_python("BackendUnavailableError", e.what());
    } catch (const AxisError& e) {
        raise_python("AxisError", e.what());
    } catch (const UnsupportedDTypeError& e) {
        raise_python("UnsupportedDTypeError", e.what());
    } catch (const InvalidArgumentError& e) {
        raise_python("InvalidArgumentError", e.what());
    } catch (const LinAlgError& e) {
        raise_python("LinAlgError", e.what());
    } catch (const IndexError& e) {
        raise_python("ArrayIndexError", e.what());
    } catch (const DTypeError& e) {
        raise_python("DTypeError", e.what());
    } catch (const ScalarOverflowError& e) {
        raise_python("ScalarOverflowError", e.what());
    } catch (const ZeroDivisionError& e) {
        raise_python("ZeroDivisionError", e.what());
    } catch (const UsageError& e) {
        raise_python("UsageError", e.what());
    } catch (const Error& e) {
        raise_python("GpukitError", e.what());
    }
    // Anything else falls through to nanobind's own translators.
}

}  // namespace

std::string python_spelling(std::string_view message) {
    std::string text(message);
    if (text.find("::") == std::string::npos && text.find("DevicePtr") == std::string::npos) return text;
    for (const auto& [cpp, python] : spellings()) text = std::regex_replace(text, cpp, python);
    return text;
}

void set_python_error_from_exception() noexcept {
    try {
        throw;
    } catch (nb::python_error& e) {
        e.restore();
    } catch (const nb::builtin_exception& e) {
        PyObject* type = PyExc_RuntimeError;
        switch (e.type()) {
            case nb::exception_type::stop_iteration: type = PyExc_StopIteration; break;
            case nb::exception_type::index_error: type = PyExc_IndexError; break;
            case nb::exception_type::key_error: type = PyExc_KeyError; break;
            case nb::exception_type::value_error: type = PyExc_ValueError; break;
            case nb::exception_type::type_error: type = PyExc_TypeError; break;
            case nb::exception_type::buffer_error: type = PyExc_BufferError; break;
            case nb::exception_type::import_error: type = PyExc_ImportError; break;
            case nb::exception_type::attribute_error: type = PyExc_AttributeError; break;
            default: break;
        }
        PyErr_SetString(type, e.what());
    } catch (...) {
        const std::exception_ptr thrown = std::current_exception();
        try {
            translate(thrown, nullptr);  // gpukit's errors; rethrows any other
        } catch (...) {                  // NOLINT(bugprone-empty-catch): not gpukit's; mapped below
        }
        if (PyErr_Occurred()) return;
        try {
            std::rethrow_exception(thrown);
        } catch (const std::bad_alloc& e) {
            PyErr_SetString(PyExc_MemoryError, e.what());
        } catch (const std::exception& e) {
            PyErr_SetString(PyExc_RuntimeError, e.what());
        } catch (...) {
            PyErr_SetString(PyExc_SystemError, "gpukit: an unknown C++ exception reached Python");
        }
    }
}

void bind_errors(nb::module_& m) {
    nb::register_exception_translator(translate);
    m.def("python_spelling", &python_spelling, nb::arg("message"),
          "A core message with the C++ APIs it names spelled as in Python (for tests).");
    // Ctrl-C interrupts a wait for the device (synchronize, a copy that waits for a kernel).
    set_wait_interrupt_check(&run_python_signal_handlers);
}

}  // namespace gpukit::python
