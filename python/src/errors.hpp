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

}  // namespace gpukit::python
