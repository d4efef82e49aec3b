// python/src/arguments.cpp: see arguments.hpp.
#include "arguments.hpp"

#include <nanobind/stl/string.h>

namespace nb = nanobind;

namespace gpukit::python {

namespace {

std::string repr_of(nb::handle value) {
    nb::object text = nb::steal(PyObject_Repr(value.ptr()));
    if (!text.is_valid()) {
        PyErr_Clear();
        return "?";
    }
    std::string repr = nb::cast<std::string>(text);
    if (repr.size() > 40) repr = repr.substr(0, 37) + "...";
    return repr;
}

// The int `value` stands for (its __index__), or null where it is not an integer (a bool is not).
nb::object as_index(nb::handle value) {
    if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr())) return {};
    nb::object index = nb::steal(PyNumber_Index(value.ptr()));
    if (!index.is_valid()) PyErr_Clear();  // an __index__ that refuses, as numpy.bool_'s does
    return index;
}

// A Python int or anything that converts to one losslessly (__index__: NumPy's integer scalars, as
// grids computed with NumPy are); not a bool, nor a float.
bool is_integer(nb::handle value) { return PyIndex_Check(value.ptr()) && !PyBool_Check(value.ptr()); }

std::uint32_t dimension(nb::handle value, const char* what) {
    const auto refuse = [&] {
        return nb::type_error((std::string(what) + " dimensions must be ints, not " + describe_value(value)).c_str());
    };
    if (!is_integer(value)) throw refuse();
    nb::object index = nb::steal(PyNumber_Index(value.ptr()));
    if (!index.is_valid()) {  // an __index__ that refuses, as numpy.bool_'s does
        PyErr_Clear();
        throw refuse();
    }
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow != 0 || n < 0 || n > std::numeric_limits<std::uint32_t>::max())
        throw nb::value_error(
            (std::string(what) + " dimension " + nb::str(index).c_str() + " is outside 0..4294967295").c_str());
    return static_cast<std::uint32_t>(n);
}

}  // namespace

std::string describe_value(nb::handle value) {
    if (value.is_none()) return "None";
    const std::string type = Py_TYPE(value.ptr())->tp_name;
    const char* article = type.find_first_of("aeiouAEIOU") == 0 ? "an " : "a ";
    return article + type + " (" + repr_of(value) + ")";
}

std::string str_of(nb::handle value) {
    nb::object text = nb::steal(PyObject_Str(value.ptr()));
    if (!text.is_valid()) nb::raise_python_error();
    return nb::cast<std::string>(text);
}

void raise_type_error(const std::string& message) { throw nb::type_error(message.c_str()); }
void raise_value_error(const std::string& message) { throw nb::value_error(message.c_str()); }
void raise_overflow_error(const std::string& message) {
    PyErr_SetString(PyExc_OverflowError, message.c_str());
    throw nb::python_error();
}

std::int64_t to_int64(nb::handle value, std::string_view name, std::int64_t low, std::int64_t high) {
    const nb::object index = as_index(value);
    if (!index.is_valid()) raise_type_error(std::string(name) + " must be an int, not " + describe_value(value));
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (overflow < 0 || (overflow == 0 && n < low)) {
        const std::string text = str_of(index);
        if (overflow == 0 && low > std::numeric_limits<std::int64_t>::min())
            raise_value_error(std::string(name) + " must be at least " + std::to_string(low) + ", not " + text);
        raise_overflow_error(std::string(name) + " = " + text + " is too small: it must be at least " +
                             std::to_string(low));
    }
    if (overflow > 0 || n > high)
        raise_overflow_error(std::string(name) + " = " + str_of(index) + " is too large: it must be at most " +
                             std::to_string(high));
    return n;
}

std::uint64_t to_size(nb::handle value, std::string_view name, std::uint64_t high) {
    const nb::object index = as_index(value);
    if (!index.is_valid()) raise_type_error(std::string(name) + " must be an int, not " + describe_value(value));
    const std::string text = str_of(index);
    if (PyObject_RichCompareBool(index.ptr(), nb::int_(0).ptr(), Py_LT) == 1)
        raise_value_error(std::string(name) + " must be at least 0, not " + text);
    const unsigned long long n = PyLong_AsUnsignedLongLong(index.ptr());
    if (n == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
        PyErr_Clear();
        raise_overflow_error(std::string(name) + " = " + text + " is too large: it must be at most " +
                             std::to_string(high));
    }
    if (n > high)
        raise_overflow_error(std::string(name) + " = " + text + " is too large: it must be at most " +
                             std::to_string(high));
    return n;
}

bool to_bool(nb::handle value, std::string_view name) {
    if (value.ptr() == Py_True) return true;
    if (value.ptr() == Py_False) return false;
    // NumPy's bool_: a bool that is not Python's.
    const std::string type = Py_TYPE(value.ptr())->tp_name;
    if (type == "numpy.bool" || type == "numpy.bool_") return PyObject_IsTrue(value.ptr()) == 1;
    raise_type_error(std::string(name) + " must be True or False, not " + describe_value(value));
}

std::optional<double> to_timeout(nb::handle value, std::string_view name) {
    if (value.is_none()) return std::nullopt;
    if (PyBool_Check(value.ptr()) || !(PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) ||
                                       Py_TYPE(value.ptr())->tp_as_number && PyNumber_Check(value.ptr())))
        raise_type_error(std::string(name) + " must be a number of seconds (an int or a float) or None, not " +
                         describe_value(value));
    const double seconds = PyFloat_AsDouble(value.ptr());
    if (seconds == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return seconds;
}

std::string to_str(nb::handle value, std::string_view name) {
    if (!PyUnicode_Check(value.ptr()))
        raise_type_error(std::string(name) + " must be a str, not " + describe_value(value));
    return nb::cast<std::string>(value);
}

Device to_device(nb::handle value, std::string_view name) {
    if (value.is_none()) return Device::current();
    // An ordinal, as CuPy and PyTorch take it: device n of the selected backend.
    if (is_integer(value))
        return gpukit::device(
            static_cast<int>(to_int64(value, name, std::numeric_limits<int>::min(), std::numeric_limits<int>::max())));
    return to_instance<Device>(
        value, name, "gpukit.Device (e.g. gpukit.Device(0)), a device number, or None for the current device");
}

Dim3 to_dim3(nb::handle value, const char* what) {
    if (is_integer(value)) return Dim3(dimension(value, what));
    if (!PyTuple_Check(value.ptr()) && !PyList_Check(value.ptr()))
        throw nb::type_error(
            (std::string(what) + " must be an int or a tuple of 1 to 3 ints, not " + describe_value(value)).c_str());
    nb::sequence items = nb::borrow<nb::sequence>(value);
    const std::size_t n = nb::len(items);
    if (n < 1 || n > 3)
        throw nb::value_error((std::string(what) + " must have 1 to 3 dimensions, not " + std::to_string(n)).c_str());
    Dim3 d;
    d.x = dimension(items[0], what);
    if (n > 1) d.y = dimension(items[1], what);
    if (n > 2) d.z = dimension(items[2], what);
    return d;
}

}  // namespace gpukit::python
