// python/src/array_arguments.cpp: see array_arguments.hpp.
#include "array_arguments.hpp"

#include <nanobind/stl/string.h>

#include <complex>
#include <limits>
#include <string>

#include "arguments.hpp"
#include "gpukit/error.hpp"
#include "numpy_bridge.hpp"

namespace nb = nanobind;

namespace gpukit::python {

const Array& to_array(nb::handle value, std::string_view name) {
    if (nb::isinstance<Array>(value) && nb::inst_ready(value)) return *nb::inst_ptr<Array>(value);
    if (nb::isinstance(value, numpy_module().attr("ndarray")))
        raise_type_error(std::string(name) +
                         " is a numpy.ndarray, in host memory; gpukit functions take gpukit arrays: " +
                         "copy it to the device with gpukit.asarray() first");
    raise_type_error(std::string(name) + " must be a gpukit.ndarray, not " + describe_value(value) +
                     " (gpukit.asarray() makes one)");
}

std::vector<Array> to_arrays(nb::handle sequence, std::string_view name) {
    if (nb::isinstance<Array>(sequence) || !(PyList_Check(sequence.ptr()) || PyTuple_Check(sequence.ptr())))
        raise_type_error(std::string(name) + " must be a sequence (list or tuple) of gpukit arrays, not " +
                         describe_value(sequence));
    std::vector<Array> arrays;
    const Py_ssize_t count = PySequence_Size(sequence.ptr());
    for (Py_ssize_t i = 0; i < count; ++i) {
        nb::object item = nb::steal(PySequence_GetItem(sequence.ptr(), i));
        arrays.push_back(to_array(item, std::string(name) + "[" + std::to_string(i) + "]"));
    }
    return arrays;
}

std::optional<std::int64_t> to_optional_axis(nb::handle value, std::string_view name) {
    if (value.is_none()) return std::nullopt;
    return to_int64(value, name);
}

std::vector<std::int64_t> to_axes(nb::handle value, std::string_view name) {
    if (!PyBool_Check(value.ptr()) && PyIndex_Check(value.ptr())) return {to_int64(value, name)};
    return to_shape(value, name);
}

Order to_order(nb::handle value, Order absent) {
    if (value.is_none()) return absent;
    if (!PyUnicode_Check(value.ptr()))
        raise_type_error("order must be 'C', 'F', 'A' or 'K', not " + describe_value(value));
    return parse_order(nb::cast<std::string>(value));
}

Casting to_casting(nb::handle value) {
    if (!PyUnicode_Check(value.ptr()))
        raise_type_error("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe', not " +
                         describe_value(value));
    return parse_casting(nb::cast<std::string>(value));
}

std::optional<DType> to_optional_dtype(nb::handle value) {
    if (value.is_none()) return std::nullopt;
    return to_dtype(value);
}

bool is_scalar(nb::handle value) {
    PyObject* object = value.ptr();
    if (PyBool_Check(object) || PyLong_Check(object) || PyFloat_Check(object) || PyComplex_Check(object)) return true;
    if (PyObject_IsInstance(object, numpy_module().attr("generic").ptr()) == 1) return true;
    return PyObject_IsInstance(object, numpy_module().attr("ndarray").ptr()) == 1 &&
           nb::cast<int>(value.attr("ndim")) == 0;
}

Scalar to_scalar(nb::handle value, std::string_view name) {
    PyObject* object = value.ptr();
    if (PyBool_Check(object)) return Scalar(object == Py_True);
    if (PyLong_Check(object)) {
        int overflow = 0;
        const long long n = PyLong_AsLongLongAndOverflow(object, &overflow);
        if (overflow == 0) return Scalar(static_cast<std::int64_t>(n));
        if (overflow > 0) {
            const unsigned long long u = PyLong_AsUnsignedLongLong(object);
            if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred()))
                return Scalar::weak_unsigned(static_cast<std::uint64_t>(u));
            PyErr_Clear();
        }
        throw ScalarOverflowError("Python integer " + str_of(value) + " out of bounds for int64 and uint64");
    }
    if (PyFloat_Check(object)) return Scalar(PyFloat_AsDouble(object));
    if (PyComplex_Check(object))
        return Scalar(std::complex<double>(PyComplex_RealAsDouble(object), PyComplex_ImagAsDouble(object)));
    if (is_scalar(value)) {  // a NumPy scalar or 0-d array: its own dtype, its bytes
        nb::object host = as_numpy(value);
        const std::optional<DType> dtype = held_dtype(host.attr("dtype"));
        if (!dtype)
            raise_type_error(std::string(name) + " must be a number, not " + describe_value(value) + " of dtype " +
                             str_of(host.attr("dtype")));
        const NumpyHost view(host, false);
        return Scalar::typed(*dtype, view.view().data);
    }
    raise_type_error(std::string(name) + " must be a number (an int, float, complex, bool or NumPy scalar), not " +
                     describe_value(value));
}

Scalar to_element(nb::handle value, DType dtype, std::string_view name) {
    if (!is_scalar(value))
        raise_type_error(std::string(name) + " must be a number (an int, float, complex, bool or NumPy scalar), not " +
                         describe_value(value));
    nb::object element;
    try {
        element = numpy_module().attr("array")(value, nb::arg("dtype") = numpy_dtype(dtype));
    } catch (nb::python_error& failure) {
        // NumPy 2's refusal of a Python int the dtype cannot hold, in its words (which for an int
        // beyond 64 bits are C's: "Python int too large to convert to C long"), as gpukit's type.
        if (!failure.matches(PyExc_OverflowError)) throw;
        if (!PyLong_Check(value.ptr())) throw ScalarOverflowError(str_of(failure.value()));
        throw ScalarOverflowError("Python integer " + str_of(value) + " out of bounds for " +
                                  std::string(to_string(dtype)));
    }
    const NumpyHost view(element, false);
    return Scalar::typed(dtype, view.view().data);
}

}  // namespace gpukit::python
