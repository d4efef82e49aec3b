// python/src/errors.hpp: the core's messages in Python's words.
//
// C++ messages name the C++ API (`Kernel::set_max_dynamic_shared_bytes(N)`); a Python user needs the
// Python spelling (`kernel.max_dynamic_shared_size_bytes = N`). Every message that reaches Python
// through errors.cpp, the argument packer or a check report is rewritten here, from one table;
// tests/python/test_errors.py fails when a C++ message names an API the table does not know.
#pragma once

#include <string>
#include <string_view>

namespace gpukit::python {

// `message` with every C++ API it names replaced by the Python spelling.
std::string python_spelling(std::string_view message);

// For code Python calls without nanobind between (type slots such as nb_add and tp_call): sets the
// exception being handled as the Python error, as nanobind's dispatch would (gpukit errors by
// errors.cpp's translator, nanobind's and the standard exceptions as nanobind maps them). Call it
// in a catch (...) block, then return null to Python.
void set_python_error_from_exception() noexcept;

}  // namespace gpukit::python
