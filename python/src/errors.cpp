// python/src/errors.cpp: every C++ gpukit exception becomes the matching gpukit Python exception.
//
// The Python classes live in gpukit/_errors.py, where they can inherit from both gpukit's base and
// the builtin a Python user catches (ValueError, MemoryError, ...). The translator builds them with
// the core's message and the fields the C++ exception carries.
#include "errors.hpp"

#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <regex>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "gpukit/check.hpp"
#include "gpukit/error.hpp"

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

void translate(const std::exception_ptr& thrown, void*) {
    try {
        std::rethrow_exception(thrown);
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
    } catch (const InvalidArgumentError& e) {
        raise_python("InvalidArgumentError", e.what());
    } catch (const IndexError& e) {
        raise_python("ArrayIndexError", e.what());
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

void bind_errors(nb::module_& m) {
    nb::register_exception_translator(translate);
    m.def("python_spelling", &python_spelling, nb::arg("message"),
          "A core message with the C++ APIs it names spelled as in Python (for tests).");
}

}  // namespace gpukit::python
