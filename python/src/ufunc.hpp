// python/src/ufunc.hpp: gpukit.ufunc, one Python object per row of src/ops/ufuncs.def.
//
// gpukit.add, gpukit.sqrt, ... are made from the table when the extension loads, so a row added
// there is a Python ufunc (and, where an operator names it, an operator) without a line here. A
// call translates its Python arguments (operands.hpp) and keywords, then runs detail::call_ufunc;
// nothing on the way runs Python code or looks a name up.
#pragma once

#include <nanobind/nanobind.h>

#include <array>
#include <cstddef>
#include <string_view>

#include "ops/ufunc.hpp"

namespace gpukit::python {

// The row named `name` (NumPy's name or one of its aliases: divide, mod, abs, conj, ...), or null
// where the table has none (yet).
const detail::Ufunc* find_ufunc(std::string_view name) noexcept;

// The Python ufunc object of a row (gpukit.add for add).
nanobind::object ufunc_object(const detail::Ufunc& row);

// One call's arguments as Python objects, borrowed from the caller.
struct UfuncArguments {
    std::array<PyObject*, 4> inputs{};
    std::array<PyObject*, 4> outputs{};  // null: a new array
    PyObject* where = nullptr;           // null: everywhere (where=True)
    detail::UfuncOptions options;        // dtype= and casting= (where= is resolved by the call)
    bool is_operator = false;            // an operator: operands of no known kind give NotImplemented, not TypeError
};

// Runs `ufunc` on `arguments`: a new reference to the result (an array, the output given, or a
// tuple of them for several outputs), Py_NotImplemented (new reference) for an operator given an
// operand of unknown type, or null with the Python error set.
PyObject* call_ufunc(const detail::Ufunc& ufunc, const UfuncArguments& arguments) noexcept;

}  // namespace gpukit::python
